"""The quiz in a real browser: two learners on two devices keep their progress apart.

Two browser contexts are two devices (two Streamlit sessions) on one server and one database.
Screenshots of the progress tab go under ``artifacts/screenshots/``.
"""

from __future__ import annotations

from tests.serving import BROWSER, LAPTOP, PHONE, keyed_button, new_page, screenshot, wait_idle

pytestmark = BROWSER


def _sign_in(page: object, nickname: str) -> None:
    page.get_by_label("Votre pseudo").fill(nickname)  # type: ignore[attr-defined]
    page.get_by_role("button", name="Garder mes progrès").click()  # type: ignore[attr-defined]
    page.get_by_text("Progrès enregistrés pour").wait_for()  # type: ignore[attr-defined]


def _answer(page: object, times: int) -> None:
    for _ in range(times):
        # Standing is legal on every hand of the hard-totals drill.
        keyed_button(page, "quiz-stand").click()  # type: ignore[attr-defined]
        keyed_button(page, "quiz-next").wait_for()  # type: ignore[attr-defined]
        keyed_button(page, "quiz-next").click()  # type: ignore[attr-defined]
        wait_idle(page)


def _answers_shown(page: object) -> str:
    page.get_by_role("tab", name="Mes progrès").click()  # type: ignore[attr-defined]
    metric = page.locator('[data-testid="stMetricValue"]').first  # type: ignore[attr-defined]
    metric.wait_for()
    return str(metric.inner_text())


def test_two_learners_on_two_devices_see_only_their_own_progress(
    server: str, chromium_browser: object
) -> None:
    ana = new_page(chromium_browser, LAPTOP)
    ben = new_page(chromium_browser, PHONE)
    for page, nickname in ((ana, "Ana Quiz"), (ben, "Ben Quiz")):
        page.goto(f"{server}/quiz")  # type: ignore[attr-defined]
        page.get_by_role("heading", name="Quiz").wait_for()  # type: ignore[attr-defined]
        _sign_in(page, nickname)
    _answer(ana, 3)
    _answer(ben, 1)
    assert _answers_shown(ana) == "3"
    screenshot(ana, "quiz-progress-laptop")
    assert _answers_shown(ben) == "1"
    screenshot(ben, "quiz-progress-phone")
    # Ana comes back on another device (a new session): her three answers are still hers.
    again = new_page(chromium_browser, LAPTOP)
    again.goto(f"{server}/quiz")  # type: ignore[attr-defined]
    again.get_by_role("heading", name="Quiz").wait_for()  # type: ignore[attr-defined]
    _sign_in(again, "Ana Quiz")
    assert _answers_shown(again) == "3"
