"""The quiz question fits one screen (issue 17): its cards and its answer buttons, and after an
answer "Question suivante", inside the viewport without scrolling, on a 1366×768 laptop and on a
390×844 phone. Measured in Debian's chromium: the elements' bounding boxes against the viewport,
the page scrolled to its top as it opens.
"""

from __future__ import annotations

from typing import Any

import pytest

from serving import LAPTOP, PHONE, keyed_button, new_page, screenshot, wait_idle
from tests.marks import BROWSER
from tutor.render.translator import translator

pytestmark = BROWSER

SIZES = {"laptop": LAPTOP, "phone": PHONE}
#: The answer buttons of a drill question (the action's key ends the widget's key).
ANSWERS = '[class*="st-key-quiz-"] button[data-testid^="stBaseButton"]'
#: The question's cards: the up-card and the learner's hand, each a labelled group.
CARDS = '.tutor-hands [role="group"]'


def _to_top(page: Any) -> None:
    """Scroll every scrolled box back to its top, as the page is when a question opens."""
    page.evaluate(
        "document.querySelectorAll('*').forEach((e) => { if (e.scrollTop) e.scrollTop = 0; })"
    )


def _outside(page: Any, selector: str) -> list[str]:
    """The elements of ``selector`` not wholly inside the viewport, with their boxes."""
    size = page.viewport_size
    found = page.locator(selector)
    assert found.count(), f"nothing on the page matches {selector}"
    out = []
    for index in range(found.count()):
        element = found.nth(index)
        if not element.is_visible():
            continue
        box = element.bounding_box()
        inside = (
            box["x"] >= 0
            and box["y"] >= 0
            and box["x"] + box["width"] <= size["width"]
            and box["y"] + box["height"] <= size["height"]
        )
        if not inside:
            label = element.inner_text().strip().replace("\n", " ")[:40]
            out.append(f"{label!r} at y={box['y']:.0f}..{box['y'] + box['height']:.0f}")
    return out


def _question_fits(page: Any, where: str) -> None:
    keyed_button(page, "quiz-stand").or_(keyed_button(page, "quiz-split")).first.wait_for()
    wait_idle(page)
    _to_top(page)
    height = page.viewport_size["height"]
    assert not _outside(page, CARDS), f"{where}: cards below the fold ({height} px)"
    answers = page.locator(ANSWERS)
    assert answers.count() >= 2, "a decision offers at least two answers"
    assert not _outside(page, ANSWERS), f"{where}: answers below the fold ({height} px)"


def _answer_and_next_fits(page: Any, where: str) -> None:
    page.locator(ANSWERS).first.click()
    keyed_button(page, "quiz-next").wait_for()
    wait_idle(page)
    _to_top(page)
    assert not _outside(page, ".st-key-quiz-next button"), f"{where}: 'Question suivante' below"


@pytest.mark.parametrize("size", list(SIZES))
def test_a_quiz_question_and_its_answers_fit_one_screen(
    server: str, chromium_browser: object, size: str
) -> None:
    page: Any = new_page(chromium_browser, SIZES[size])
    page.goto(f"{server}/quiz")
    for turn in range(3):  # hands of two and more cards, answered right or wrong
        where = f"{size}, hard totals, question {turn + 1}"
        _question_fits(page, where)
        if turn == 0:
            screenshot(page, f"layout-quiz-{size}")
        _answer_and_next_fits(page, where)
        if turn == 0:
            screenshot(page, f"layout-quiz-answered-{size}")
        keyed_button(page, "quiz-next").click()
        keyed_button(page, "quiz-next").wait_for(state="detached")
    page.context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_pairs_question_with_its_split_button_fits_one_screen(
    server: str, chromium_browser: object, size: str
) -> None:
    page: Any = new_page(chromium_browser, SIZES[size])
    page.goto(f"{server}/quiz")
    keyed_button(page, "quiz-stand").wait_for()
    pairs = translator("fr").gettext("Pairs")
    page.locator(".st-key-quiz-category button", has_text=pairs).click()
    keyed_button(page, "quiz-split").wait_for()
    _question_fits(page, f"{size}, pairs")
    screenshot(page, f"layout-quiz-pairs-{size}")
    _answer_and_next_fits(page, f"{size}, pairs")
    page.context.close()
