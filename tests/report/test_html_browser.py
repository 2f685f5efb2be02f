"""The folder's report.html in a real headless Chromium (Debian's ``chromium`` and ``chromium-driver``):
no console errors, plotly drew every chart, the query browser's filters narrow the rows as expected,
a chosen query shows its top 10 and the diff, a hostile document runs no script; screenshots at 1280x900
and at a narrow width go to ``$EXECIR_SCREENSHOTS`` (default: the test's tmp_path)."""

from __future__ import annotations

import base64
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from execir.dataset import load_dataset
from execir.report.html import write_collection_html, write_folder_html
from tests.report.test_html_report import _collection, make_dataset, make_records, make_result

CHROMIUM = os.environ.get("EXECIR_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("EXECIR_CHROMEDRIVER", "/usr/bin/chromedriver")
WAIT = 20.0

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install 'execir[test]')")
if not (Path(CHROMIUM).is_file() and Path(CHROMEDRIVER).is_file()):
    pytest.skip(f"Chromium or chromedriver is missing ({CHROMIUM}, {CHROMEDRIVER}): install Debian's chromium and chromium-driver", allow_module_level=True)

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

# not marked slow: the fast suite (what CI runs, where `make setup` installs Chromium) drives the browser


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,900", "--hide-scrollbars"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = webdriver.ChromeService(executable_path=CHROMEDRIVER)
    browser = webdriver.Chrome(options=options, service=service)
    try:
        yield browser
    finally:
        browser.quit()


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("html-browser")
    dataset = load_dataset(make_dataset(root / "ds"))
    return write_folder_html(root / "out", make_result(), make_records(dataset), dataset)


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("EXECIR_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def wait_for(condition: Any, what: str) -> Any:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def severe(driver: Any) -> list[dict[str, Any]]:
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def load(driver: Any, path: Path, width: int = 1280, height: int = 900) -> None:
    """Open ``path`` in a viewport of exactly ``width`` x ``height`` CSS pixels."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    driver.get(path.as_uri())
    wait_for(lambda: driver.execute_script("return document.readyState") == "complete", "the page to load")


def visible_rows(driver: Any) -> list[tuple[str, str]]:
    rows = driver.find_elements(By.CSS_SELECTOR, "#qb-rows tr")
    return sorted((row.get_attribute("data-system"), row.get_attribute("data-query")) for row in rows)


def full_page_shot(driver: Any, path: Path) -> None:
    """A screenshot of the whole page at the current viewport width."""
    size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    clip = {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 16000), "scale": 1}
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip})
    path.write_bytes(base64.b64decode(shot["data"]))


def test_charts_render_without_console_errors(driver: Any, report: Path, shots: Path) -> None:
    load(driver, report)
    charts = driver.find_elements(By.CSS_SELECTOR, ".chart[data-chart]")
    assert len(charts) == 4
    wait_for(lambda: all(c.find_elements(By.CSS_SELECTOR, "svg.main-svg") for c in charts), "plotly to draw every chart")
    points = driver.find_elements(By.CSS_SELECTOR, '.chart[data-chart="leaderboard"] .scatterlayer .point')
    assert len(points) == 6  # three measures, two systems
    assert driver.execute_script("return window.__pwned === undefined")
    driver.save_screenshot(str(shots / "synthetic-1280.png"))
    assert severe(driver) == []


def test_filters_narrow_the_rows(driver: Any, report: Path) -> None:
    load(driver, report)
    wait_for(lambda: driver.find_element(By.ID, "qb").is_displayed(), "the query browser to start")
    everything = visible_rows(driver)
    assert len(everything) == 12
    assert driver.find_element(By.ID, "qb-count").text == "12 of 12 records match."
    search = driver.find_element(By.ID, "qb-search")
    search.send_keys("t2")
    assert visible_rows(driver) == [("bm25", "t2"), ("bm25>>ce", "t2")]
    search.clear()
    search.send_keys(" ")  # clear() sends no input event; a blank search matches everything
    assert len(visible_rows(driver)) == 12
    Select(driver.find_element(By.ID, "qb-system")).select_by_value("bm25")
    assert visible_rows(driver) == [("bm25", f"t{i}") for i in range(6)]
    Select(driver.find_element(By.ID, "qb-operator")).select_by_value("arith_swap")
    assert visible_rows(driver) == [("bm25", "t0"), ("bm25", "t2")]
    Select(driver.find_element(By.ID, "qb-system")).select_by_value("")
    assert visible_rows(driver) == [("bm25", "t0"), ("bm25", "t2"), ("bm25>>ce", "t1")]
    Select(driver.find_element(By.ID, "qb-operator")).select_by_value("")
    outcome = Select(driver.find_element(By.ID, "qb-outcome"))
    outcome.select_by_value("beyond10")
    assert visible_rows(driver) == [("bm25", "t5")]
    outcome.select_by_value("below-mutant")
    assert visible_rows(driver) == [("bm25", "t0"), ("bm25", "t2"), ("bm25>>ce", "t1"), ("bm25>>ce", "t4")]
    outcome.select_by_value("hit1")
    assert len(visible_rows(driver)) == 6
    assert severe(driver) == []


def test_a_chosen_query_shows_its_ranking_and_diff(driver: Any, report: Path, shots: Path) -> None:
    load(driver, report)
    wait_for(lambda: visible_rows(driver), "the query rows")
    driver.find_element(By.ID, "qb-search").send_keys("t0")
    Select(driver.find_element(By.ID, "qb-system")).select_by_value("bm25")
    rows = driver.find_elements(By.CSS_SELECTOR, "#qb-rows tr")
    assert len(rows) == 1
    rows[0].click()
    detail = driver.find_element(By.ID, "qb-detail")
    assert detail.find_element(By.CSS_SELECTOR, "h3").text == "t0 \u2014 bm25"
    assert '<img src=x onerror="window.__pwned = 2">' in detail.find_element(By.CSS_SELECTOR, "pre.query").text  # shown as text
    ranked = detail.find_elements(By.CSS_SELECTOR, "tr.doc-row")
    assert [r.find_elements(By.TAG_NAME, "td")[1].text for r in ranked] == ["a0", "c0", "b0"]
    assert [r.find_elements(By.TAG_NAME, "td")[4].text for r in ranked] == ["mutant", "canonical", "mutant"]
    deleted = [s.text for s in detail.find_elements(By.CSS_SELECTOR, "pre.diff span.del")]
    added = [s.text for s in detail.find_elements(By.CSS_SELECTOR, "pre.diff span.add")]
    assert len(deleted) == 2 and deleted[0].startswith("-    # </script><script>window.__pwned") and deleted[1] == "-    total = a + b"
    assert added == ["+    total = a - b"]
    ranked[1].click()  # the canonical's own text, with the hostile comment shown as text
    texts = detail.find_elements(By.CSS_SELECTOR, "tr.doc-text pre")
    assert any("</script><script>window.__pwned = 1;</script>" in t.text for t in texts if t.is_displayed())
    assert driver.execute_script("return window.__pwned === undefined")
    driver.execute_script("document.getElementById('queries').scrollIntoView()")
    time.sleep(0.2)
    driver.save_screenshot(str(shots / "synthetic-browser-1280.png"))
    assert severe(driver) == []


def test_narrow_window_and_resizing(driver: Any, report: Path, shots: Path) -> None:
    load(driver, report)
    charts = driver.find_elements(By.CSS_SELECTOR, ".chart[data-chart]")
    wait_for(lambda: all(c.find_elements(By.CSS_SELECTOR, "svg.main-svg") for c in charts), "plotly to draw every chart")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 420, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    time.sleep(1.0)  # plotly redraws on resize
    assert severe(driver) == []
    heights = driver.execute_script("return [...document.querySelectorAll('.chart')].map(c => [c._fullLayout.height, c.getBoundingClientRect().height])")
    assert all(abs(layout - box) < 1 and layout >= 150 for layout, box in heights), heights  # each chart kept its height
    overflow = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(str(shots / "synthetic-420x900.png"))
    full_page_shot(driver, shots / "synthetic-full-420.png")
    assert severe(driver) == []


def test_full_page_at_1280(driver: Any, report: Path, shots: Path) -> None:
    load(driver, report)
    charts = driver.find_elements(By.CSS_SELECTOR, ".chart[data-chart]")
    wait_for(lambda: all(c.find_elements(By.CSS_SELECTOR, "svg.main-svg") for c in charts), "plotly to draw every chart")
    full_page_shot(driver, shots / "synthetic-full-1280.png")
    assert severe(driver) == []


def test_collection_page_renders(driver: Any, tmp_path: Path, shots: Path) -> None:
    path = write_collection_html(tmp_path, _collection(), {"t2c-description": make_result()})
    load(driver, path)
    charts = driver.find_elements(By.CSS_SELECTOR, ".chart[data-chart]")
    wait_for(lambda: all(c.find_elements(By.CSS_SELECTOR, "svg.main-svg") for c in charts), "plotly to draw every chart")
    assert len(charts) == 3
    links = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, ".folder-links a")]
    assert links == [(tmp_path / "t2c-description" / "report.html").as_uri(), (tmp_path / "t2c-search<x>" / "report.html").as_uri()]
    full_page_shot(driver, shots / "synthetic-collection-1280.png")
    assert severe(driver) == []
