"""The HTML report: one self-contained ``report.html`` per folder and per collection (tables that
read without JavaScript, plotly charts and a per-query browser, all inlined so it works offline)."""

from execir.report.html.collection import render_collection_html
from execir.report.html.folder import render_folder_html
from execir.report.html.write import write_collection_html, write_folder_html

__all__ = ["render_collection_html", "render_folder_html", "write_collection_html", "write_folder_html"]
