"""The learner remembered, in a real browser: progress kept for each browser without an account,
private to it whatever name is typed elsewhere, and carried to another device by the recovery
code. Two browser contexts are two devices (two sets of cookies) on one server and one database.
Screenshots go under ``artifacts/screenshots/``.
"""

from __future__ import annotations

from serving import LAPTOP, PHONE, keyed_button, new_page, screenshot, wait_idle
from tests.marks import BROWSER

pytestmark = BROWSER


def _answer(page: object, times: int) -> None:
    for _ in range(times):
        # Standing is legal on every hand of the hard-totals drill.
        keyed_button(page, "quiz-stand").click()  # type: ignore[attr-defined]
        keyed_button(page, "quiz-next").wait_for()  # type: ignore[attr-defined]
        keyed_button(page, "quiz-next").click()  # type: ignore[attr-defined]
        wait_idle(page)


def _open_quiz(page: object, server: str) -> None:
    page.goto(f"{server}/quiz")  # type: ignore[attr-defined]
    page.get_by_role("heading", name="Quiz").wait_for()  # type: ignore[attr-defined]


def _answers_shown(page: object) -> str:
    """The answer count of My progress, or "none" when nothing is kept for this browser."""
    page.get_by_role("tab", name="Mes progrès").click()  # type: ignore[attr-defined]
    nothing = page.get_by_text("Aucune réponse enregistrée")  # type: ignore[attr-defined]
    metric = page.locator('[data-testid="stMetricValue"]')  # type: ignore[attr-defined]
    metric.first.or_(nothing.first).wait_for()
    return "none" if nothing.count() else str(metric.first.inner_text())


def _name(page: object, name: str) -> None:
    page.get_by_role("tab", name="Mes données").click()  # type: ignore[attr-defined]
    page.get_by_label("Votre nom, si vous le souhaitez").fill(name)  # type: ignore[attr-defined]
    page.get_by_role("button", name="Enregistrer le nom").click()  # type: ignore[attr-defined]
    wait_idle(page)


def test_a_name_is_not_a_key_and_the_code_carries_progress_to_another_device(
    server: str, chromium_browser: object
) -> None:
    camille = new_page(chromium_browser, LAPTOP)
    _open_quiz(camille, server)
    _answer(camille, 3)
    _name(camille, "Camille Dupont")
    code = camille.locator('p[aria-label="recovery code"]').inner_text().strip()  # type: ignore[attr-defined]
    assert len(code.replace("-", "")) == 26
    screenshot(camille, "memory-recovery-code")

    # Another browser types the same name (in other case): it sees and can erase nothing of hers.
    other = new_page(chromium_browser, PHONE)
    _open_quiz(other, server)
    _name(other, "camille dupont")
    assert _answers_shown(other) == "none"
    screenshot(other, "memory-same-name-other-browser")
    # Its "Erase my data" erases its own learner only.
    other.get_by_role("tab", name="Mes données").click()  # type: ignore[attr-defined]
    other.get_by_text("Je comprends que mes progrès seront effacés").click()  # type: ignore[attr-defined]
    wait_idle(other)
    other.locator(".st-key-data-erase button").click()  # type: ignore[attr-defined]
    wait_idle(other)
    other.get_by_text("Vos données sont effacées").wait_for()  # type: ignore[attr-defined]

    # Camille reloads: her three answers are still hers.
    camille.reload()  # type: ignore[attr-defined]
    camille.get_by_role("heading", name="Quiz").wait_for()  # type: ignore[attr-defined]
    assert _answers_shown(camille) == "3"

    # On a third device she types her code and continues with her progress.
    phone = new_page(chromium_browser, PHONE)
    phone.goto(f"{server}/settings")  # type: ignore[attr-defined]
    phone.get_by_label("Un code venu d’un autre appareil").fill(code.lower())  # type: ignore[attr-defined]
    phone.get_by_role("button", name="Continuer avec ce code").click()  # type: ignore[attr-defined]
    wait_idle(phone)
    phone.get_by_text("Bon retour").wait_for()  # type: ignore[attr-defined]
    _open_quiz(phone, server)
    assert _answers_shown(phone) == "3"
    for page in (camille, other, phone):
        page.context.close()  # type: ignore[attr-defined]


def test_two_fresh_visitors_are_dealt_different_first_hands(
    server: str, chromium_browser: object
) -> None:
    hands = []
    for _ in range(2):
        page = new_page(chromium_browser, LAPTOP)
        _open_quiz(page, server)
        cards = page.locator("main img.bj-card")  # type: ignore[attr-defined]
        cards.first.wait_for()
        hands.append([cards.nth(i).get_attribute("alt") for i in range(cards.count())])
        page.context.close()  # type: ignore[attr-defined]
    assert len(hands[0]) == 3
    assert hands[0] != hands[1], "each visitor's deals come from a seed of their own"
