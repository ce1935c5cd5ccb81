"""Issue 27's Must show, in Debian's chromium: a teacher who never opens a terminal writes a
four-step French-only lesson with two mistakes in « Mes leçons », reads both errors in French at
their lines, fixes them, previews the lesson, publishes it; a student in another browser opens
the teacher's link and plays it. Screenshots go under ``artifacts/screenshots/authoring-*`` for a
person to look at; the time from « Nouvelle leçon » to the student's first step is printed.
"""

from __future__ import annotations

import time

from serving import LAPTOP, PHONE, choose_option
from serving import button as _button
from serving import new_page as _page
from serving import screenshot as _shot
from serving import wait_idle as _wait_idle
from tests.marks import BROWSER
from tests.test_authoring import TWO_MISTAKES
from tutor.authoring import TEMPLATE

pytestmark = BROWSER

#: The template as the teacher finishes it: its last step, the hand the student plays, moved to
#: the French casino (no hole card: the dealer's second card comes after the learner's play), so
#: that the class made from the lesson can be seen to keep that step's table.
FINISHED = TEMPLATE.replace(
    '      intro: "À vous de jouer."\n',
    '      intro: "À vous de jouer."\n      rules: french-casino\n',
).replace('      dealer: "9♣ 8♦"\n', '      dealer: "9♣"\n      then: "8♦"\n')


def _type_lesson(page: object, text: str) -> None:
    """Put ``text`` in the editor as a teacher pastes it, then save and check it."""
    editor = page.get_by_role("textbox", name="La leçon (YAML)")  # type: ignore[attr-defined]
    editor.fill(text)
    editor.blur()
    _wait_idle(page)
    _button(page, "Enregistrer et vérifier").click()  # type: ignore[attr-defined]
    _wait_idle(page)


def test_a_teacher_writes_checks_previews_and_publishes_and_a_student_plays_it(
    server: str, chromium_browser: object
) -> None:
    teacher = _page(chromium_browser, LAPTOP)
    teacher.goto(f"{server}/my-lessons")  # type: ignore[attr-defined]
    _button(teacher, "Nouvelle leçon").wait_for()  # type: ignore[attr-defined]
    _shot(teacher, "authoring-start-laptop")
    started = time.perf_counter()
    _button(teacher, "Nouvelle leçon").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.get_by_text("Notez cette clé de leçon").wait_for()  # type: ignore[attr-defined]
    _button(teacher, "Je l’ai notée").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)

    _type_lesson(teacher, TWO_MISTAKES)
    teacher.get_by_text("Le vérificateur trouve 2 problèmes").wait_for()  # type: ignore[attr-defined]
    first = teacher.get_by_text("Ligne 11, colonne 19")  # type: ignore[attr-defined]
    second = teacher.get_by_text("Ligne 25, colonne 14")  # type: ignore[attr-defined]
    first.wait_for()
    second.wait_for()
    body = str(teacher.locator("body").inner_text())  # type: ignore[attr-defined]
    assert '11:       cards: "10♠ 1X"' in body  # the line itself, quoted under its problem
    assert "25:         net: 2" in body
    assert "n’est pas une carte" in body  # both errors read in French
    assert "le gain net de la place" in body
    assert teacher.get_by_role("button", name="Publier").is_disabled()  # type: ignore[attr-defined]
    second.scroll_into_view_if_needed()
    _shot(teacher, "authoring-two-mistakes-laptop")

    _type_lesson(teacher, FINISHED)
    fine = teacher.get_by_text("Le vérificateur ne trouve aucun problème")  # type: ignore[attr-defined]
    fine.wait_for()
    fine.scroll_into_view_if_needed()
    _shot(teacher, "authoring-fixed-laptop")

    _button(teacher, "Aperçu").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.get_by_text("Étape 1 sur 4").wait_for()  # type: ignore[attr-defined]
    teacher.get_by_text("Avec un 17 dur, on reste").wait_for()  # type: ignore[attr-defined]
    teacher.get_by_text("Aperçu de votre leçon").wait_for()  # the preview's banner
    _shot(teacher, "authoring-preview-laptop")
    _button(teacher, "← Retour à l’éditeur").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.get_by_role("textbox", name="La leçon (YAML)").wait_for()  # type: ignore[attr-defined]

    _button(teacher, "Publier").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    teacher.get_by_text("Publiée").first.wait_for()  # type: ignore[attr-defined]
    teacher.get_by_text("Pour vos élèves").wait_for()  # type: ignore[attr-defined]
    qr = teacher.locator('img[src^="data:image/svg+xml"][alt*="?l="]')  # type: ignore[attr-defined]
    qr.first.wait_for()
    link = str(qr.first.get_attribute("alt"))
    qr.first.scroll_into_view_if_needed()
    token = link.rsplit("?l=", 1)[1]
    _shot(teacher, "authoring-published-laptop")

    student = _page(chromium_browser, PHONE)
    # The link's host is the laptop's address on the network; this test's server is local.
    student.goto(f"{server}/?l={token}")  # type: ignore[attr-defined]
    student.get_by_text("Avec un 17 dur, on reste").wait_for()  # type: ignore[attr-defined]
    seconds = time.perf_counter() - started
    print(f"authoring: « nouvelle leçon » to the student's first step: {seconds:.1f} s")
    _shot(student, "authoring-student-first-step-phone")
    for _step in range(2):
        _button(student, "Suivant").click()  # type: ignore[attr-defined]
        _wait_idle(student)
    student.get_by_label("Votre réponse").fill("17")  # type: ignore[attr-defined]
    _button(student, "Vérifier").click()  # type: ignore[attr-defined]
    _wait_idle(student)
    student.get_by_text("Exact !").first.wait_for()  # type: ignore[attr-defined]
    _button(student, "Suivant").click()  # type: ignore[attr-defined]
    _wait_idle(student)
    student.get_by_text("À vous de jouer").wait_for()  # type: ignore[attr-defined]
    _button(student, "Rester").click()  # type: ignore[attr-defined]
    _wait_idle(student)
    student.get_by_text("Leçon terminée").wait_for()  # type: ignore[attr-defined]
    _shot(student, "authoring-student-finished-phone")

    # A class from the published lesson asks its hand at the step's own table, in its words.
    teacher.goto(f"{server}/class")  # type: ignore[attr-defined]
    choose_option(teacher, teacher.locator(".st-key-class-lesson"), "Ma leçon : rester sur 17")  # type: ignore[attr-defined]
    teacher.get_by_text("Casino français").first.wait_for()  # type: ignore[attr-defined]
    for key in ("class-create", "class-key-noted", "class-start"):
        teacher.locator(f".st-key-{key} button").click()  # type: ignore[attr-defined]
        _wait_idle(teacher)
    teacher.get_by_text("À la table : Casino français").first.wait_for()  # type: ignore[attr-defined]
    teacher.get_by_text("À vous de jouer").first.wait_for()  # type: ignore[attr-defined]
    _shot(teacher, "authoring-class-from-the-lesson-laptop")
