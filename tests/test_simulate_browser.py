"""The Simulation page in a real browser (Debian's chromium through Playwright): a run is drawn.

Saves ``artifacts/screenshots/simulation-laptop.png`` for a person to look at.
"""

from __future__ import annotations

from serving import new_page, screenshot
from tests.marks import BROWSER

pytestmark = BROWSER


def test_a_run_draws_the_running_average_and_the_bankroll_paths(
    server: str, chromium_browser: object
) -> None:
    page = new_page(chromium_browser, {"width": 1366, "height": 900})
    page.set_default_timeout(120_000)  # type: ignore[attr-defined]
    page.goto(f"{server}/simulation")  # type: ignore[attr-defined]
    page.get_by_role("heading", name="Simulation").wait_for()  # type: ignore[attr-defined]
    page.locator(".st-key-sim-run button").click()  # type: ignore[attr-defined]
    page.get_by_text("La moyenne se pose").wait_for()  # type: ignore[attr-defined]
    page.locator("canvas, svg.marks").first.wait_for()  # type: ignore[attr-defined]
    page.wait_for_timeout(1500)  # type: ignore[attr-defined]
    screenshot(page, "simulation-laptop")
    charts = page.locator(".stVegaLiteChart, [data-testid='stVegaLiteChart']")  # type: ignore[attr-defined]
    assert charts.count() >= 3
