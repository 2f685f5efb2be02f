"""Help-text conventions shared by every ``execir`` command: defaults shown, examples kept as written."""

from __future__ import annotations

import argparse
import textwrap


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Shows each option's real default, wraps long prose lines and keeps indented lines (examples) verbatim."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if action.default is None or action.default is False or action.default == "" or "(default" in text or action.required:
            return text
        return super()._get_help_string(action)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        lines = []
        for line in text.splitlines():
            if line[:1].isspace() or len(line) <= width:
                lines.append(indent + line)
            else:
                lines.append(textwrap.fill(line, width, initial_indent=indent, subsequent_indent=indent))
        return "\n".join(lines)


def apply_formatter(parser: argparse.ArgumentParser) -> None:
    """Give ``parser`` and every sub-command parser below it the shared :class:`HelpFormatter`."""
    parser.formatter_class = HelpFormatter
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                apply_formatter(child)
