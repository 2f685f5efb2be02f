"""The doctor's report as a plain-text table, gaps and what to install last."""

from __future__ import annotations

from execir.doctor.checks import OK, Report

MARKS = {OK: "ok", "missing": "MISSING", "absent": "absent"}
WIDTH = 110


def _cell(text: str, width: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 3] + "..."


def table(report: Report) -> str:
    """One line per check (area, name, status, detail), then each gap in full with its fix."""
    name_width = max((len(check.name) for check in report.checks), default=10)
    lines = [f"{'area':<9} {'check':<{name_width}}  {'status':<8} detail", "-" * min(WIDTH + name_width, 160)]
    for check in report.checks:
        lines.append(f"{check.area:<9} {check.name:<{name_width}}  {MARKS.get(check.status, check.status):<8} {_cell(check.detail, WIDTH)}")
    gaps = report.gaps
    optional = [check for check in report.checks if check.status != OK and not check.required]
    lines.append("")
    if gaps:
        lines.append(f"{len(gaps)} missing (what the README promises):")
        for check in gaps:
            lines.append(f"- {check.name}: install {check.fix or '(see the detail)'}")
            lines += [f"    {line}" for line in check.detail.splitlines()]
    else:
        lines.append(f"everything the README promises is here (sandbox: {report.isolation})")
    for check in optional:
        lines.append(f"optional, not installed: {check.name} ({check.fix})")
    return "\n".join(lines)
