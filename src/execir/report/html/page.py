"""The page shell: head with the stylesheet, sections with a table of contents, the embedded data
and the scripts (plotly.js once, then the report's own script). Everything is inlined: the file
works offline."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from execir.errors import MissingDependencyError
from execir.report.html.markup import Markup, esc, inline_script, json_script, tag

CHARTS_ID = "execir-charts"
NO_SCRIPT = "Charts and the query browser need JavaScript; every number is also in the tables."


@dataclass(frozen=True)
class Section:
    """One titled part of the page."""

    anchor: str
    title: str
    body: Markup


def asset(name: str) -> str:
    """A stylesheet or script shipped beside this module."""
    return resources.files("execir.report.html").joinpath(name).read_text(encoding="utf-8")


@cache
def plotly_script() -> Markup:
    """The ``<script>`` with the plotly.js bundle shipped by the plotly package (read once per process)."""
    try:
        from plotly.offline import get_plotlyjs
    except ModuleNotFoundError as exc:
        raise MissingDependencyError("the HTML report needs plotly: pip install 'execir[report]'") from exc
    return inline_script(str(get_plotlyjs()))


def chart(chart_id: str, label: str) -> Markup:
    """The placeholder a chart is drawn into, captioned with ``label`` for screen readers."""
    return tag("figure", tag("div", "", class_="chart", data_chart=chart_id) + tag("figcaption", label, class_="visually-hidden"), class_="chart-box")


def _toc(sections: Sequence[Section]) -> Markup:
    items = "".join(tag("li", tag("a", s.title, href=f"#{s.anchor}")) for s in sections)
    return tag("nav", Markup(f"<ul>{items}</ul>"), class_="toc", aria_label="Sections")


def render_page(title: str, intro: Markup, sections: Sequence[Section], charts: Mapping[str, Any], data: Mapping[str, Any] | None = None) -> str:
    """The whole HTML document. ``charts`` maps chart ids to plotly figures; ``data`` maps element ids to JSON data."""
    body = Markup("").join(tag("section", tag("h2", s.title) + s.body, id=s.anchor) for s in sections)
    embedded = json_script(CHARTS_ID, dict(charts)) + Markup("".join(json_script(k, v) for k, v in (data or {}).items()))
    scripts = (plotly_script() if charts else Markup("")) + inline_script(asset("report.js"))
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n<style>\n{asset('report.css')}</style>\n</head>\n<body>\n"
        f"<header><h1>{esc(title)}</h1>{intro}</header>\n{_toc(sections)}\n"
        f'<noscript><p class="note">{esc(NO_SCRIPT)}</p></noscript>\n'
        f"<main>{body}</main>\n{embedded}\n{scripts}\n</body>\n</html>\n"
    )
