"""Lessons remembered, in a real browser: a reload in the middle of a lesson comes back to the same
step with the earlier answers shown as answered, and the course list shows the real progress
after a reload. Screenshots go under ``artifacts/screenshots/``."""

from __future__ import annotations

from serving import LAPTOP, ROOT, button, keyed_button, new_page, screenshot, wait_idle
from tests.marks import BROWSER
from tests.test_browser_app import _play_step
from tutor.lessons import AskStep, load_course

pytestmark = BROWSER


def test_a_reload_mid_lesson_resumes_at_the_same_step_with_its_answers(
    server: str, chromium_browser: object
) -> None:
    lesson = load_course([ROOT / "lessons" / "01-card-values.yaml"]).lessons[0]
    total = len(lesson.steps)
    asks = [index for index, step in enumerate(lesson.steps) if isinstance(step, AskStep)]
    stop = asks[1] + 1  # past two answered questions, mid-lesson
    page = new_page(chromium_browser, LAPTOP)
    page.goto(server)  # type: ignore[attr-defined]
    keyed_button(page, "open-card-values").click()  # type: ignore[attr-defined]
    wait_idle(page)
    for index in range(stop):
        _play_step(page, index, lesson.steps[index], "memory")
        button(page, "Suivant →").click()  # type: ignore[attr-defined]
        wait_idle(page)
    page.get_by_text(f"Étape {stop + 1} sur {total}").wait_for()  # type: ignore[attr-defined]

    page.reload()  # type: ignore[attr-defined]
    page.get_by_text(f"Étape {stop + 1} sur {total}").wait_for()  # type: ignore[attr-defined]
    screenshot(page, "memory-lesson-after-reload")
    # Back to the last question: it is shown answered, not asked again.
    while not page.get_by_text(f"Étape {asks[1] + 1} sur {total}").count():  # type: ignore[attr-defined]
        keyed_button(page, "lesson-back").click()  # type: ignore[attr-defined]
        wait_idle(page)
    page.get_by_text("Exact !").first.wait_for()  # type: ignore[attr-defined]
    assert keyed_button(page, "lesson-next").is_enabled()  # type: ignore[attr-defined]

    keyed_button(page, "close-lesson").click()  # type: ignore[attr-defined]
    wait_idle(page)
    page.reload()  # type: ignore[attr-defined]
    done = page.get_by_text(f"{stop} étapes sur {total}")  # type: ignore[attr-defined]
    done.first.wait_for()
    assert keyed_button(page, "open-card-values").inner_text().strip() == "Continuer"  # type: ignore[attr-defined]
    screenshot(page, "memory-course-list-after-reload")
    page.context.close()  # type: ignore[attr-defined]
