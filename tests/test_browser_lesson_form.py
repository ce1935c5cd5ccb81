"""Issue 43's « Writing a lesson », in Debian's chromium, in French at laptop size: a teacher
writes a three-step lesson with the form only (no YAML typed), previews it (the banner at every
step, back to the editor mid-way), publishes it; a student opens its link, and later finds it in
the course list, with its progress, after a reload. Screenshots go under
``artifacts/screenshots/lesson-form-*`` for a person to look at.
"""

from __future__ import annotations

from typing import Any

from serving import LAPTOP, choose_option
from serving import button as _button
from serving import new_page as _page
from serving import screenshot as _shot
from serving import wait_idle as _wait_idle
from tests.marks import BROWSER

pytestmark = BROWSER


def _click(page: Any, name: str) -> None:
    _button(page, name).first.click()
    _wait_idle(page)


def _form(page: Any, suffix: str) -> Any:
    """The form's widget whose key ends with ``suffix`` (its keys carry the text's round)."""
    return page.locator(f"[class*='st-key-author-form-'][class*='{suffix}']").first


def test_a_teacher_writes_a_lesson_with_the_form_only_and_a_student_finds_it_again(
    server: str, chromium_browser: object
) -> None:
    teacher: Any = _page(chromium_browser, LAPTOP)
    teacher.set_default_timeout(30_000)
    teacher.goto(f"{server}/my-lessons")
    _button(teacher, "Nouvelle leçon").wait_for()
    _click(teacher, "Nouvelle leçon")
    teacher.get_by_text("Notez cette clé de leçon").wait_for()
    _click(teacher, "Je l’ai notée")

    # The template's four steps go, from the form.
    for _step in range(4):
        _form(teacher, "-remove-0").locator("button").first.click()
        _wait_idle(teacher)
    teacher.get_by_text("0 étape", exact=True).wait_for()

    title = _form(teacher, "-title").locator("input").first
    title.fill("Seize contre dix")
    title.blur()
    _wait_idle(teacher)
    _form(teacher, "-head-apply").locator("button").first.click()
    _wait_idle(teacher)

    body = _form(teacher, "-explain").locator("textarea").first
    body.fill("Sous 17, on tire souvent : le croupier qui montre un 10 fait souvent 20.")
    body.blur()
    _wait_idle(teacher)
    _click(teacher, "Ajouter l’étape")
    teacher.get_by_text("1 étape", exact=True).wait_for()

    choose_option(teacher, _form(teacher, "-kind"), "Une question sur un coup")
    # The hand offered by default: 10♠ 6♥ against the 10♦; the moves are the table's for it.
    teacher.get_by_text("La stratégie de base joue Tirer ici").wait_for()
    move = teacher.locator("[class*='-a-move-']").first
    move.get_by_role("combobox").focus()
    teacher.keyboard.press("ArrowDown")
    options = [str(o) for o in teacher.get_by_role("option").all_inner_texts()]
    teacher.keyboard.press("Escape")
    assert options == ["Tirer", "Rester", "Doubler"]  # no Séparer, no Abandonner
    why = _form(teacher, "-a-why").locator("input").first
    why.fill("16 contre 10 : on tire.")
    why.blur()
    _wait_idle(teacher)
    _shot(teacher, "lesson-form-question-laptop")
    _click(teacher, "Ajouter l’étape")
    teacher.get_by_text("2 étapes", exact=True).wait_for()

    choose_option(teacher, _form(teacher, "-kind"), "Une donne à jouer")
    _click(teacher, "Ajouter l’étape")
    teacher.get_by_text("3 étapes", exact=True).wait_for()
    fine = teacher.get_by_text("Le vérificateur ne trouve aucun problème")
    fine.wait_for()
    text = teacher.get_by_role("textbox", name="La leçon (YAML)").input_value()
    assert 'title: "Seize contre dix"' in text  # the form wrote the text beside it
    assert "- deal:" in text
    _form(teacher, "-head").scroll_into_view_if_needed()
    _shot(teacher, "lesson-form-three-steps-laptop")

    # The guide opens on the page, in French.
    teacher.get_by_text("Le format des leçons : le guide").click()
    teacher.get_by_text("Écrire des leçons").first.wait_for()
    teacher.get_by_text("Le format des leçons : le guide").click()

    _click(teacher, "Aperçu")
    teacher.get_by_text("Aperçu de votre leçon").wait_for()
    teacher.get_by_text("Étape 1 sur 3").wait_for()
    _shot(teacher, "lesson-form-preview-laptop")
    _click(teacher, "Suivant")
    teacher.get_by_text("Étape 2 sur 3").wait_for()
    teacher.get_by_text("Aperçu de votre leçon").wait_for()  # the banner at every step
    _click(teacher, "← Retour à l’éditeur")
    teacher.get_by_role("textbox", name="La leçon (YAML)").wait_for()

    _click(teacher, "Publier")
    teacher.get_by_text("Pour vos élèves").wait_for()
    qr = teacher.locator('img[src^="data:image/svg+xml"][alt*="?l="]').first
    qr.wait_for()
    token = str(qr.get_attribute("alt")).rsplit("?l=", 1)[1]

    student: Any = _page(chromium_browser, LAPTOP)
    student.goto(f"{server}/?l={token}")
    student.get_by_text("Sous 17, on tire souvent").wait_for()
    _click(student, "Suivant")
    _button(student, "Tirer").first.click()
    _wait_idle(student)
    student.get_by_text("Exact !").first.wait_for()
    _click(student, "← Toutes les leçons")
    student.get_by_text("Les leçons de vos enseignants").wait_for()
    # Later (a new visit of the same browser): the lesson is still listed, with its progress.
    student.goto(server)
    listed = student.get_by_text("Les leçons de vos enseignants")
    listed.wait_for()
    student.get_by_text("Seize contre dix").wait_for()
    listed.scroll_into_view_if_needed()
    _shot(student, "lesson-form-student-course-list-laptop")
    _button(student, "Continuer").last.click()
    _wait_idle(student)
    student.get_by_text("Étape 2 sur 3").wait_for()
