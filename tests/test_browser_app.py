"""A learner in a real browser: Debian's chromium driven by Playwright against ``streamlit run``.

One server and one browser for the module; each test opens its own page (its own session). The
tests save screenshots under ``artifacts/screenshots/`` at a laptop size and a phone size, for a
person to look at.
"""

from __future__ import annotations

import re

import pytest

from serving import LAPTOP, PHONE, ROOT, play_step
from serving import button as _button
from serving import keyed_button as _key
from serving import new_page as _page
from serving import screenshot as _shot
from serving import wait_idle as _wait_idle
from tests.marks import BROWSER
from tutor.lessons import AskStep, load_course

pytestmark = BROWSER

#: The judge's verdict on a quiz answer, whatever the grade.
VERDICT = re.compile("juste|limite|erreur")


def _play_step(page: object, index: int, step: object, label: str) -> None:
    """Do what a step asks (``serving.play_step``), with a screenshot of the third ask."""
    play_step(page, index, step, shot=label)
    if isinstance(step, AskStep) and index == 3:
        _shot(page, f"lesson-answered-{label}")


@pytest.mark.parametrize(("size", "label"), [(LAPTOP, "laptop"), (PHONE, "phone")])
def test_a_learner_finishes_the_first_lesson(
    server: str, chromium_browser: object, size: dict[str, int], label: str
) -> None:
    lesson = load_course([ROOT / "lessons" / "01-card-values.yaml"]).lessons[0]
    page = _page(chromium_browser, size)
    page.goto(server)  # type: ignore[attr-defined]
    page.get_by_text("La valeur des cartes").first.wait_for()  # type: ignore[attr-defined]
    _shot(page, f"lessons-list-{label}")
    _key(page, "open-card-values").click()  # type: ignore[attr-defined]
    _wait_idle(page)
    for index, step in enumerate(lesson.steps):
        page.get_by_text(f"Étape {index + 1} sur {len(lesson.steps)}").wait_for()  # type: ignore[attr-defined]
        if index == 0:
            _shot(page, f"lesson-first-step-{label}")
        _play_step(page, index, step, label)
        if index < len(lesson.steps) - 1:
            _button(page, "Suivant →").click()  # type: ignore[attr-defined]
            _wait_idle(page)
    page.get_by_text("Leçon terminée").wait_for()  # type: ignore[attr-defined]
    # How the learner did (issue 24); the drill above answers with the first button it finds.
    page.get_by_text(re.compile(r"Votre score\s: \d+ sur \d+ réponses justes")).wait_for()  # type: ignore[attr-defined]
    _shot(page, f"lesson-finished-score-{label}")
    _button(page, "Terminer la leçon ✓").click()  # type: ignore[attr-defined]
    _wait_idle(page)
    page.get_by_text("Revoir").first.wait_for()  # type: ignore[attr-defined]
    _shot(page, f"lessons-after-{label}")
    page.context.close()  # type: ignore[attr-defined]


@pytest.mark.parametrize(("size", "label"), [(LAPTOP, "laptop"), (PHONE, "phone")])
def test_a_learner_answers_a_quiz_question(
    server: str, chromium_browser: object, size: dict[str, int], label: str
) -> None:
    page = _page(chromium_browser, size)
    page.goto(f"{server}/quiz")  # type: ignore[attr-defined]
    page.get_by_text("que faites-vous ?").first.wait_for()  # type: ignore[attr-defined]
    _shot(page, f"quiz-question-{label}")
    _button(page, "Rester").click()  # type: ignore[attr-defined]
    _wait_idle(page)
    verdict = page.locator('[data-testid="stAlert"]').filter(has_text=VERDICT)  # type: ignore[attr-defined]
    verdict.first.wait_for()
    assert page.get_by_text("Espérance (par mise)").count() >= 1  # type: ignore[attr-defined]
    _shot(page, f"quiz-verdict-{label}")
    page.keyboard.press("Enter")  # type: ignore[attr-defined]
    _wait_idle(page)
    page.get_by_text("que faites-vous ?").first.wait_for()  # type: ignore[attr-defined]
    page.keyboard.press("e")  # type: ignore[attr-defined]  # Rester: E in French (R is Streamlit's)
    _wait_idle(page)
    page.locator('[data-testid="stAlert"]').filter(has_text=VERDICT).first.wait_for()  # type: ignore[attr-defined]
    page.context.close()  # type: ignore[attr-defined]


@pytest.mark.parametrize(("size", "label"), [(LAPTOP, "laptop"), (PHONE, "phone")])
def test_a_learner_plays_a_round_at_the_table(
    server: str, chromium_browser: object, size: dict[str, int], label: str
) -> None:
    page = _page(chromium_browser, size)
    page.goto(f"{server}/table")  # type: ignore[attr-defined]
    _button(page, "S’asseoir et distribuer").click()  # type: ignore[attr-defined]
    _wait_idle(page)
    deal_next = _button(page, "Distribuer le coup suivant")
    for _ in range(12):
        if deal_next.count():  # type: ignore[attr-defined]
            break
        hint = _button(page, "Indice")
        if hint.count():  # type: ignore[attr-defined]
            hint.click()  # type: ignore[attr-defined]
            _wait_idle(page)
            page.get_by_text("Conseil").first.wait_for()  # type: ignore[attr-defined]
            _shot(page, f"table-hint-{label}")
        for name in ("Pas d’assurance", "Rester"):
            button = _button(page, name)
            if button.count() and button.is_enabled():  # type: ignore[attr-defined]
                button.click()  # type: ignore[attr-defined]
                _wait_idle(page)
                break
    deal_next.wait_for()  # type: ignore[attr-defined]
    assert page.get_by_text("Le croupier").count() >= 1  # type: ignore[attr-defined]
    _shot(page, f"table-round-over-{label}")
    page.context.close()  # type: ignore[attr-defined]


def test_the_strategy_chart_is_readable(server: str, chromium_browser: object) -> None:
    page = _page(chromium_browser, LAPTOP)
    page.goto(f"{server}/strategy")  # type: ignore[attr-defined]
    page.get_by_text("Avantage de la maison").first.wait_for(timeout=120_000)  # type: ignore[attr-defined]
    _shot(page, "strategy-laptop")
    page.context.close()  # type: ignore[attr-defined]


@pytest.mark.parametrize("path", ["/", "/join"])
def test_a_page_asks_nothing_of_another_address(
    server: str, chromium_browser: object, path: str
) -> None:
    """A school's network may reach nothing but the app (and a pupil's phone should tell no other
    site it opened the class): every request the page makes goes to the app's own address, and
    the tab's icon is drawn in the page (an emoji Streamlit turns into an inline picture; a
    character it does not read as one becomes a link to a page that does not exist)."""
    page = _page(chromium_browser, PHONE)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))  # type: ignore[attr-defined]
    page.goto(f"{server}{path}")  # type: ignore[attr-defined]
    _wait_idle(page)
    # The page sets its icon once the script's first run reaches it (Streamlit's own before).
    page.wait_for_function(  # type: ignore[attr-defined]
        "() => [...document.querySelectorAll(\"link[rel~='icon']\")]"
        ".some((link) => link.getAttribute('href') !== './favicon.png')"
    )
    icons = page.locator("link[rel~='icon']").evaluate_all(  # type: ignore[attr-defined]
        "(links) => links.map((link) => link.getAttribute('href'))"
    )
    assert icons
    assert all(icon.startswith("data:image/svg+xml") for icon in icons), icons
    elsewhere = [url for url in requested if not url.startswith(server)]
    assert not elsewhere, elsewhere
    page.context.close()  # type: ignore[attr-defined]
