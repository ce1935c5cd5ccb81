"""Keyboard and touch in a real browser (issue 29).

A keyboard-only learner goes through ten quiz questions without a single Tab press: after an answer
the focus lands on the verdict (a screen reader reads it), Enter goes on, and the focus lands on
the next question's first answer, which Enter (or its letter) answers. Before, the focus fell back
to the page after every answer, 18 Tab presses from the answers.

Keyboard letters are shown where there is a keyboard only: a touch screen (``has_touch``, the
``(hover: none) and (pointer: coarse)`` of a phone) shows none, and a number answer never has a
digit beside it (« 15 1 »). Screenshots ``keyboard-*`` under ``artifacts/screenshots/``.
"""

from __future__ import annotations

import re

from serving import LAPTOP, PHONE, SHOTS, keyed_button, new_page, screenshot, wait_idle
from tests.marks import BROWSER
from tutor.decision import Action
from tutor.quiz_questions import Category
from tutor.render.naming import category_name
from tutor.render.translator import translator
from tutor.ui.components import SHORTCUTS_BY_LANGUAGE

pytestmark = BROWSER

IN_VERDICT = "!!document.activeElement?.closest(\"[class*='st-key-tutor-verdict']\")"
FIRST_ANSWER = """() => {
  const box = document.querySelector("[class*='st-key-tutor-answers']");
  const first = box && box.querySelector('button:not([disabled])');
  return !!first && document.activeElement === first;
}"""


def _answered(page: object) -> int:
    """The number of answers of the score line (« Score : 3 / 4 bonnes… »)."""
    line = page.get_by_text(re.compile(r"^Score")).first.inner_text()  # type: ignore[attr-defined]
    match = re.search(r"/\s*(\d+)", line)
    assert match, line
    return int(match.group(1))


def _settled(page: object) -> None:
    """The run over and the page drawn (no faded element), our script's words in place."""
    wait_idle(page)
    page.wait_for_function(  # type: ignore[attr-defined]
        "!document.querySelector('[data-stale=\"true\"]')"
        " && !!document.querySelector('kbd[aria-label^=\"Raccourci\"]')"
    )
    page.wait_for_timeout(500)  # type: ignore[attr-defined]


def _wait(page: object, focused: str, what: str) -> None:
    """Wait until ``focused`` holds; else fail naming ``what`` should have the focus, and what
    has it."""
    try:
        page.wait_for_function(focused, timeout=20_000)  # type: ignore[attr-defined]
    except Exception:
        active = page.evaluate(  # type: ignore[attr-defined]
            "document.activeElement.tagName + ' ' + document.activeElement.className"
            " + ' ' + document.activeElement.textContent.slice(0, 60)"
        )
        _shot(page, "keyboard-lost-focus")
        raise AssertionError(f"{what} does not have the focus; {active} has it") from None


def _shot(page: object, name: str) -> None:
    """The screen as it is, focus ring included (a full-page shot resizes the page, and the
    focus goes)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))  # type: ignore[attr-defined]


def _open_quiz(page: object, server: str) -> None:
    page.goto(f"{server}/quiz")  # type: ignore[attr-defined]
    keyed_button(page, "quiz-stand").wait_for()
    _settled(page)


def test_ten_quiz_questions_with_the_keyboard_only_and_no_tab(
    server: str, chromium_browser: object
) -> None:
    page = new_page(chromium_browser, LAPTOP)
    _open_quiz(page, server)
    pressed: list[str] = []

    def press(key: str) -> None:
        pressed.append(key)
        page.keyboard.press(key)  # type: ignore[attr-defined]

    # The first question: nothing has the focus yet, the stand key answers (French « E »).
    press(SHORTCUTS_BY_LANGUAGE["fr"][Action.STAND].lower())
    for question in range(1, 11):
        try:
            keyed_button(page, "quiz-next").wait_for(timeout=30_000)
        except Exception:
            _shot(page, "keyboard-no-verdict")
            active = page.evaluate(  # type: ignore[attr-defined]
                "document.activeElement.tagName + ' ' + document.activeElement.className"
                " + ' ' + document.activeElement.textContent.slice(0, 60)"
            )
            raise AssertionError(
                f"question {question} not answered by {pressed[-1]!r}; {active} has the focus"
            ) from None
        wait_idle(page)
        _wait(page, IN_VERDICT, f"the verdict of question {question}")
        assert _answered(page) == question
        if question == 1:
            _shot(page, "keyboard-verdict-focused")
        if question == 10:
            break
        press("Enter")  # the next question...
        _wait(page, FIRST_ANSWER, f"the first answer of question {question + 1}")
        if question == 1:
            _shot(page, "keyboard-first-answer-focused")
        press("Enter")  # ...answered by its focused first answer
    assert "Tab" not in pressed
    assert len(pressed) == 19
    page.context.close()  # type: ignore[attr-defined]


def _visible_keys(page: object) -> list[str]:
    return page.evaluate(  # type: ignore[attr-defined,no-any-return]
        "[...document.querySelectorAll('button kbd')]"
        ".filter((k) => k.getClientRects().length).map((k) => k.textContent)"
    )


def test_letters_on_a_laptop_none_on_a_touch_screen(server: str, chromium_browser: object) -> None:
    laptop = new_page(chromium_browser, LAPTOP)
    _open_quiz(laptop, server)
    keys = _visible_keys(laptop)
    assert "T" in keys, keys  # Tirer
    assert "E" in keys, keys  # Rester
    assert laptop.locator(".st-key-tutor-keys-line").is_visible()  # type: ignore[attr-defined]
    laptop.context.close()  # type: ignore[attr-defined]

    context = chromium_browser.new_context(  # type: ignore[attr-defined]
        viewport=PHONE, locale="fr-FR", has_touch=True, is_mobile=True
    )
    phone = context.new_page()
    phone.set_default_timeout(120_000)
    _open_quiz(phone, server)
    assert phone.evaluate("matchMedia('(hover: none) and (pointer: coarse)').matches")
    assert keyed_button(phone, "quiz-stand").first.is_visible()
    assert _visible_keys(phone) == []
    assert not phone.locator(".st-key-tutor-keys-line").is_visible()  # « Touches : T tirer… »
    tree = str(phone.locator("body").aria_snapshot())
    assert "Raccourci" not in tree
    assert "Shortcut" not in tree
    screenshot(phone, "keyboard-touch-no-letters")
    context.close()


def test_no_digit_beside_a_number_answer(server: str, chromium_browser: object) -> None:
    page = new_page(chromium_browser, LAPTOP)
    _open_quiz(page, server)
    payouts = category_name(Category.PAYOUTS, translator("fr"))
    page.locator(".st-key-quiz-category button", has_text=payouts).click()  # type: ignore[attr-defined]
    option = page.locator("[class*='st-key-quiz-option-0'] button")  # type: ignore[attr-defined]
    option.wait_for()
    wait_idle(page)
    names = [
        str(page.locator(f"[class*='st-key-quiz-option-{i}'] button").inner_text())  # type: ignore[attr-defined]
        for i in range(page.locator("[class*='st-key-quiz-option-'] button").count())  # type: ignore[attr-defined]
    ]
    assert names
    for name in names:
        # The answer alone: « +1,5 », never « +1,5 1 ».
        assert not re.search(r"\s\d$", name.strip()), names
    assert _visible_keys(page) == []
    # The digits still answer: 1 picks the first option.
    page.keyboard.press("1")  # type: ignore[attr-defined]
    keyed_button(page, "quiz-next").wait_for()
    screenshot(page, "keyboard-number-answers")
    page.context.close()  # type: ignore[attr-defined]
