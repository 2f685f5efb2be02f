"""Escaped HTML building blocks: every text goes through :func:`esc`; only :class:`Markup` (HTML this
package built itself) passes through unchanged. Data for the page's scripts is embedded as JSON that
cannot close its ``<script>`` element."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from execir.report.tables import ci
from execir.results import Estimate


class Markup(str):
    """A string that already is safe HTML (built by this package from escaped parts); adding text to
    it escapes the text."""

    def __add__(self, other: object) -> Markup:
        return Markup(str.__add__(self, esc(other)))

    def __radd__(self, other: object) -> Markup:
        return Markup(str.__add__(esc(other), self))


Cell = str | Markup | float | int | None


def esc(value: Any) -> Markup:
    """``value`` as HTML text; :class:`Markup` is kept as it is."""
    if isinstance(value, Markup):
        return value
    return Markup(html.escape("" if value is None else str(value), quote=True))


def join(parts: Iterable[Any], sep: str = "") -> Markup:
    """Concatenate escaped parts."""
    return Markup(esc(sep).join(esc(p) for p in parts))


def attrs(**values: Any) -> Markup:
    """`` name="value"`` pairs (``class_`` for ``class``, ``data_x`` for ``data-x``); None values are left out."""
    out = []
    for name, value in values.items():
        if value is None:
            continue
        key = name.rstrip("_").replace("_", "-")
        out.append(f' {key}="{esc(value)}"')
    return Markup("".join(out))


def tag(name: str, body: Any = "", **attributes: Any) -> Markup:
    """``<name ...>body</name>`` with ``body`` escaped unless it is :class:`Markup`."""
    return Markup(f"<{name}{attrs(**attributes)}>{esc(body)}</{name}>")


def estimate_cell(value: Estimate | None) -> Markup:
    """A mean with its 95% interval beneath it (the plain text reads ``mean [low, high]``)."""
    if value is None:
        return Markup('<span class="na">n/a</span>')
    low_high = f"[{value.low:.3f}, {value.high:.3f}]"
    return Markup(f'{value.mean:.3f} <span class="ci" title="95% bootstrap interval ({esc(ci(value))})">{low_high}</span>')


def _row(cells: Sequence[Cell], cell_tag: str, numeric: Sequence[bool]) -> Markup:
    parts = []
    for index, cell in enumerate(cells):
        cls = "num" if index < len(numeric) and numeric[index] else None
        parts.append(tag(cell_tag, cell, class_=cls))
    return Markup("<tr>" + "".join(parts) + "</tr>")


def table(header: Sequence[str], rows: Sequence[Sequence[Cell]], *, numeric: Sequence[bool] = (), caption: str | None = None, id_: str | None = None) -> Markup:
    """A table in a horizontally scrollable wrapper; ``numeric[i]`` right-aligns column ``i``."""
    head = Markup("<thead>" + str(_row(header, "th", numeric)) + "</thead>")
    body = Markup("<tbody>" + "".join(_row(r, "td", numeric) for r in rows) + "</tbody>")
    inner = (tag("caption", caption) if caption else Markup("")) + head + body
    return tag("div", tag("table", Markup(inner), id_=id_), class_="table-wrap")


JSON_ESCAPES = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def json_text(value: Any) -> str:
    """Compact JSON in which ``<``, ``>``, ``&`` and the line separators are ``\\u`` escapes, so no
    text inside can end the ``<script>`` element that holds it (``JSON.parse`` reads it back unchanged)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.translate(JSON_ESCAPES)


def json_script(element_id: str, value: Any) -> Markup:
    """``<script type="application/json" id=...>`` holding ``value`` for the page's scripts."""
    return Markup(f'<script type="application/json"{attrs(id=element_id)}>{json_text(value)}</script>')


def inline_script(code: str) -> Markup:
    """A ``<script>`` element with ``code``; a ``</script`` inside it is split so it cannot end the element early."""
    safe = re.sub(r"</(script)", r"<\\/\1", code, flags=re.IGNORECASE)
    return Markup(f"<script>{safe}</script>")
