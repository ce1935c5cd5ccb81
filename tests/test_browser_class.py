"""Class mode in a real browser: a teacher (laptop, the projector's view) and a student (phone),
two browser contexts against one ``streamlit run``, through a full question.

The student reaches the page by the join address the QR code holds (``/join?code=…``); both
screens follow each other by polling, as they do in class. Screenshots go under
``artifacts/screenshots/`` for a person to look at.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.serving import BROWSER, LAPTOP, PHONE
from tests.serving import button as _button
from tests.serving import new_page as _page
from tests.serving import screenshot as _shot
from tests.serving import wait_idle as _wait_idle

pytestmark = BROWSER


def test_a_teacher_and_a_student_go_through_a_question(
    server: str, chromium_browser: object
) -> None:
    teacher = _page(chromium_browser, LAPTOP)
    teacher.goto(f"{server}/class")  # type: ignore[attr-defined]
    teacher.get_by_role("textbox", name="Titre").fill("Mardi, groupe B")  # type: ignore[attr-defined]
    teacher.get_by_role("radio", name="des mains que je tape").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    hands = teacher.get_by_label(re.compile("^Mains, une par ligne"))  # type: ignore[attr-defined]
    hands.fill("10 6 / 10\n8 8 / 10")
    _shot(teacher, "class-teacher-create-laptop")
    _button(teacher, "Créer la classe").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.get_by_text("Notez cette clé enseignant").wait_for()  # type: ignore[attr-defined]
    # The key has a screen of its own, never projected: no join code or QR code beside it.
    assert teacher.locator('div[aria-label="code"]').count() == 0  # type: ignore[attr-defined]
    _shot(teacher, "class-teacher-key-laptop")
    _button(teacher, "Je l'ai notée").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.locator('div[aria-label="code"]').first.wait_for()  # type: ignore[attr-defined]
    code = teacher.locator('div[aria-label="code"]').first.inner_text().strip()  # type: ignore[attr-defined]
    assert re.fullmatch(r"[A-Z2-9]{6}", code)
    assert teacher.locator('img[src^="data:image/svg+xml"][alt*="/join?code="]').count() == 1  # type: ignore[attr-defined]
    assert teacher.get_by_text("Notez cette clé enseignant").count() == 0  # type: ignore[attr-defined]
    _shot(teacher, "class-teacher-lobby-laptop")

    student = _page(chromium_browser, PHONE)
    student.goto(f"{server}/join?code={code}")  # type: ignore[attr-defined]
    # The join address fills the code in (waited for: the form may be drawn before its value).
    expect(student.get_by_role("textbox", name="Code de la classe")).to_have_value(code)  # type: ignore[attr-defined]
    student.get_by_role("textbox", name="Votre pseudo").fill("Zoé <b>")  # type: ignore[attr-defined]
    _button(student, "Rejoindre").click()  # type: ignore[attr-defined]
    _wait_idle(student)
    student.get_by_text("Un pseudo a de 1 à 24 caractères").wait_for()  # type: ignore[attr-defined]
    _shot(student, "class-student-join-refused-phone")
    student.get_by_role("textbox", name="Votre pseudo").fill("Zoé O'Brien")  # type: ignore[attr-defined]
    _button(student, "Rejoindre").click()  # type: ignore[attr-defined]
    _wait_idle(student)
    student.get_by_text("Attendez que l'enseignant").wait_for()  # type: ignore[attr-defined]
    _shot(student, "class-student-waiting-phone")

    # The phone sleeps and reloads the page: the student is back in the same seat, unasked.
    student.reload()  # type: ignore[attr-defined]
    student.get_by_text("Bon retour, Zoé O'Brien").wait_for()  # type: ignore[attr-defined]
    student.get_by_text("Attendez que l'enseignant").wait_for()  # type: ignore[attr-defined]
    _shot(student, "class-student-rejoined-phone")

    # The teacher's lobby counts the student once, said to be reconnected.
    teacher.get_by_test_id("stMetricValue").filter(has_text="1").wait_for()  # type: ignore[attr-defined]
    teacher.get_by_text("Zoé O'Brien (reconnecté)").wait_for()  # type: ignore[attr-defined]
    _shot(teacher, "class-teacher-lobby-reconnected-laptop")
    _button(teacher, "Montrer la première main").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.get_by_text("Question 1 sur 2").wait_for()  # type: ignore[attr-defined]
    _shot(teacher, "class-teacher-question-laptop")

    student.get_by_text("Question 1 sur 2").wait_for()  # type: ignore[attr-defined]
    assert _button(student, "Partager").count() == 0  # type: ignore[attr-defined]
    _shot(student, "class-student-question-phone")
    _button(student, "Tirer").click()  # type: ignore[attr-defined]
    _wait_idle(student)
    student.get_by_text("Votre réponse").wait_for()  # type: ignore[attr-defined]
    _shot(student, "class-student-answered-phone")
    student.reload()  # type: ignore[attr-defined]
    student.get_by_text("Votre réponse : Tirer").wait_for()  # type: ignore[attr-defined]
    assert _button(student, "Tirer").count() == 0, "the answer is kept, not asked again"  # type: ignore[attr-defined]

    teacher.get_by_test_id("stMetricValue").filter(has_text="1 / 1").wait_for()  # type: ignore[attr-defined]
    _button(teacher, "Révéler").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.get_by_text("Meilleur coup : Tirer").wait_for()  # type: ignore[attr-defined]
    teacher.locator('[data-testid="stVegaLiteChart"]').first.wait_for()  # type: ignore[attr-defined]
    _shot(teacher, "class-teacher-reveal-laptop")

    student.get_by_text("Exact ! Tirer est le coup à jouer.").wait_for()  # type: ignore[attr-defined]
    _shot(student, "class-student-verdict-phone")

    _button(teacher, "Terminer maintenant").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.get_by_text("Les mains les plus manquées par la classe").wait_for()  # type: ignore[attr-defined]
    teacher.locator('[data-testid="stDataFrame"]').first.wait_for()  # type: ignore[attr-defined]
    teacher.locator("h1").first.scroll_into_view_if_needed()  # type: ignore[attr-defined]
    _shot(teacher, "class-teacher-results-laptop")
    student.get_by_text("La classe est terminée").wait_for()  # type: ignore[attr-defined]
    _shot(student, "class-student-finished-phone")
    teacher.context.close()  # type: ignore[attr-defined]
    student.context.close()  # type: ignore[attr-defined]
