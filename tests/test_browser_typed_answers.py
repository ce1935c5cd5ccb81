"""A typed answer on a phone, in a real browser (Debian's chromium, French, phone size): the field
asks for the numeric keyboard, « 16 bûches » is read as 16, and the answer stays on screen with
its verdict (issue 23, point 5). Screenshots go under ``artifacts/screenshots/``.
"""

from __future__ import annotations

from serving import PHONE, ROOT, button, keyed_button, new_page, screenshot, wait_idle
from tests.marks import BROWSER
from tutor.lessons import AskStep, load_course
from tutor.lessons.models import ChoiceAnswer, NumberAnswer

pytestmark = BROWSER


def test_a_number_is_typed_on_the_numeric_keyboard_with_its_noun_and_stays_in_sight(
    server: str, chromium_browser: object
) -> None:
    lesson = load_course([ROOT / "lessons" / "01-card-values.yaml"], strategy=None).lessons[0]
    page = new_page(chromium_browser, PHONE)
    page.goto(server)  # type: ignore[attr-defined]
    keyed_button(page, "open-card-values").click()  # type: ignore[attr-defined]
    wait_idle(page)
    buches = next(
        index for index, step in enumerate(lesson.steps)
        if isinstance(step, AskStep) and "bûches" in str(step.ask.question.fr)  # type: ignore[union-attr]
    )
    for index, step in enumerate(lesson.steps[: buches + 1]):
        page.get_by_text(f"Étape {index + 1} sur {len(lesson.steps)}").wait_for()  # type: ignore[attr-defined]
        if isinstance(step, AskStep) and isinstance(step.ask.answer, NumberAnswer):
            field = page.get_by_label("Votre réponse")  # type: ignore[attr-defined]
            field.wait_for()
            # The script sets the attribute once Streamlit has drawn the input.
            page.wait_for_function(  # type: ignore[attr-defined]
                "() => document.querySelector('[class*=\"-typed\"] input')"
                "?.getAttribute('inputmode') === 'decimal'"
            )
            assert field.get_attribute("inputmode") == "decimal"
            assert field.get_attribute("type") == "text", "still a text field: '16 bûches' fits"
            typed = "16 bûches" if index == buches else str(step.ask.answer.number)
            field.fill(typed)
            if index == buches:
                screenshot(page, "typed-answer-numeric-field-phone")
            button(page, "Vérifier").click()  # type: ignore[attr-defined]
            wait_idle(page)
            page.get_by_text("Exact !").first.wait_for()  # type: ignore[attr-defined]
            shown = page.get_by_text("Votre réponse").first  # type: ignore[attr-defined]
            assert typed in shown.inner_text(), "the typed answer stays with its verdict"
        elif isinstance(step, AskStep) and isinstance(step.ask.answer, ChoiceAnswer):
            keyed_button(page, f"ask-{index}-choice-{step.ask.answer.choice}").click()  # type: ignore[attr-defined]
            wait_idle(page)
        if index < buches:
            button(page, "Suivant →").click()  # type: ignore[attr-defined]
            wait_idle(page)
    screenshot(page, "typed-answer-with-its-noun-phone")
    page.context.close()  # type: ignore[attr-defined]
