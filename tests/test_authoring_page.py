"""« Mes leçons » in the app (AppTest): a teacher creates a lesson from the template, reads the
checker's problems at their lines in French, fixes them, previews the lesson with the lessons
page's player, publishes it and gets its link; a student's session opens the link and plays it;
nobody's course list shows it."""

from __future__ import annotations

from typing import Any

from streamlit.testing.v1 import AppTest

from tests.conftest import ROOT, TIMEOUT, OpenApp, as_read
from tests.test_authoring import TWO_MISTAKES
from tutor.authoring import TEMPLATE
from tutor.visit import AppState

PAGE = "tutor/ui/pages/my_lessons.py"


def _editor(at: AppTest) -> Any:
    """The YAML text box (the form beside it has boxes of its own)."""
    return next(box for box in at.text_area if box.label == "La leçon (YAML)")


def _teacher(open_app: OpenApp) -> AppTest:
    at = open_app()
    at.switch_page(PAGE)
    at.run()
    assert not at.exception
    return at


def _new_lesson(at: AppTest) -> None:
    at.button(key="author-new").click()
    at.run()
    assert not at.exception
    at.button(key="author-key-noted").click()
    at.run()


def _save(at: AppTest, text: str) -> None:
    _editor(at).input(text)
    at.button(key="author-save").click()
    at.run()
    assert not at.exception


def test_the_page_is_in_the_navigation_beside_class_mode(open_app: OpenApp) -> None:
    at = _teacher(open_app)
    assert [title.value for title in at.title] == ["Mes leçons"]
    assert at.button(key="author-new").label == "Nouvelle leçon"
    source = (ROOT / "app.py").read_text()
    assert source.index("my_lessons.py") < source.index("class_teacher.py")


def test_a_new_lesson_shows_its_key_once_then_the_template_in_the_editor(
    open_app: OpenApp,
) -> None:
    at = _teacher(open_app)
    at.button(key="author-new").click()
    at.run()
    key = at.code[0].value
    assert len(key) == 17
    assert key.count("-") == 2
    at.button(key="author-key-noted").click()
    at.run()
    assert key not in [code.value for code in at.code]
    assert _editor(at).value == TEMPLATE
    assert [as_read(s.value) for s in at.success] == ["Le vérificateur ne trouve aucun problème."]


def test_two_mistakes_are_read_in_french_at_their_lines_and_block_publishing(
    open_app: OpenApp,
) -> None:
    at = _teacher(open_app)
    _new_lesson(at)
    _save(at, TWO_MISTAKES)
    assert [as_read(e.value) for e in at.error] == ["Le vérificateur trouve 2 problèmes :"]
    places = [m.value for m in at.markdown if m.value.startswith("**Ligne")]
    assert len(places) == 2
    assert places[0].startswith("**Ligne 11, colonne 19**")
    assert places[1].startswith("**Ligne 25, colonne 14**")
    assert "n’est pas une carte" in places[0]  # the checker's sentence, in French
    assert "le gain net de la place" in places[1]
    quoted = [code.value for code in at.code]
    assert '11:       cards: "10♠ 1X"\n' + " " * 22 + "^" in quoted
    assert at.button(key="author-publish").disabled
    assert at.button(key="author-preview").disabled


def test_a_fixed_lesson_previews_with_the_lessons_player_and_comes_back(
    open_app: OpenApp,
) -> None:
    at = _teacher(open_app)
    _new_lesson(at)
    _save(at, TWO_MISTAKES)
    _save(at, TEMPLATE)
    at.button(key="author-preview").click()
    at.run()
    assert not at.exception
    assert [as_read(t.value) for t in at.title] == ["Ma leçon : rester sur 17"]
    assert at.button(key="lesson-next").label == "Suivant →"  # the learner's player
    # A banner says it is a preview, and its button goes back to the editor at any step.
    assert any("Aperçu de votre leçon" in as_read(i.value) for i in at.info)
    at.switch_page("tutor/ui/pages/lessons_page.py")  # AppTest reruns its own page, not st's
    at.button(key="lesson-next").click()
    at.run()
    assert at.session_state["app"].lesson.step == 1
    assert at.button(key="preview-back").label == "← Retour à l’éditeur"
    at.button(key="preview-back").click()
    at.run()
    assert _editor(at).value == TEMPLATE  # back in the editor


def test_a_published_lesson_opens_from_its_link_for_a_student_and_in_no_course_list(
    open_app: OpenApp,
) -> None:
    at = _teacher(open_app)
    _new_lesson(at)
    at.button(key="author-publish").click()
    at.run()
    assert as_read(at.success[0].value) == "Publiée : version 1."
    link = next(code.value for code in at.code if "?l=" in code.value)
    token = link.rsplit("?l=", 1)[1]
    student = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    student.session_state["app"] = AppState()
    student.run()  # the course list, without the lesson
    assert "Ma leçon" not in " ".join(m.value for m in student.markdown)
    student.query_params["l"] = token.lower()  # typed by hand from the projector, say
    student.run()
    assert not student.exception
    assert [as_read(t.value) for t in student.title] == ["Ma leçon : rester sur 17"]
    assert "Avec un 17 dur, on reste" in " ".join(m.value for m in student.markdown)
    student.button(key="lesson-next").click().run()  # the run goes on: the link is not reopened
    assert "aucun as n’y compte pour 11" in " ".join(m.value for m in student.markdown)


def test_a_link_to_a_draft_opens_nothing_and_says_so(open_app: OpenApp) -> None:
    at = _teacher(open_app)
    _new_lesson(at)
    token = at.session_state["app"].authoring.open.token
    student = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    student.session_state["app"] = AppState()
    student.query_params["l"] = token
    student.run()
    assert not student.exception
    assert [as_read(i.value) for i in student.info] == [
        "Ce lien n’ouvre aucune leçon : redemandez le lien à votre enseignant."
    ]
    assert [t.value for t in student.title] == ["Leçons"]


def test_a_class_is_created_from_one_of_my_published_lessons(open_app: OpenApp) -> None:
    at = _teacher(open_app)
    _new_lesson(at)
    at.button(key="author-publish").click()
    at.run()
    token = at.session_state["app"].authoring.open.token
    at.switch_page("tutor/ui/pages/class_teacher.py")
    at.run()
    choices = at.selectbox(key="class-lesson").options
    assert "Ma leçon : rester sur 17" in [as_read(choice) for choice in choices]
    at.selectbox(key="class-lesson").set_value("@" + token).run()
    at.button(key="class-create").click().run()
    assert not at.exception
    desk = at.session_state["app"].classes.desk
    assert desk is not None
    at.button(key="class-key-noted").click().run()
    at.button(key="class-start").click().run()
    assert not at.exception
    texts = " ".join(m.value for m in at.markdown)
    assert "Question 1 sur 1" in as_read(texts)  # the lesson's one decision: its deal's 17 v 9


# -- the form editor, the guide, the course list (issue 43) ----------------------------------------


def _button_in(at: AppTest, suffix: str) -> Any:
    """The form's button whose key ends with ``suffix`` (the form's keys carry its round)."""
    return next(b for b in at.button if str(b.key).endswith(suffix))


def _widget(items: Any, suffix: str) -> Any:
    return next(w for w in items if str(w.key).endswith(suffix))


def test_a_teacher_writes_a_three_step_lesson_with_the_form_only(open_app: OpenApp) -> None:
    at = _teacher(open_app)
    _new_lesson(at)
    for _step in range(4):  # the template's steps, removed from the form
        _button_in(at, "-remove-0").click()
        at.run()
        assert not at.exception
    _widget(at.text_input, "-title").input("Seize contre dix")
    _button_in(at, "-head-apply").click()
    at.run()
    _widget(at.text_area, "-explain").input("Sous 17, on tire souvent.")
    _button_in(at, "-add-explain").click()
    at.run()
    _widget(at.selectbox, "-kind").set_value("action")
    at.run()
    _widget(at.selectbox, "-a-card1").set_value("10♠")
    _widget(at.selectbox, "-a-card2").set_value("6♥")
    _widget(at.selectbox, "-a-up").set_value("10♣")
    at.run()
    move = next(s for s in at.selectbox if "-a-move-" in str(s.key))
    assert [str(o) for o in move.options] == ["Tirer", "Rester", "Doubler"]  # no Séparer here
    _widget(at.text_input, "-a-why").input("16 contre 10 : on tire.")
    _button_in(at, "-add-action").click()
    at.run()
    _widget(at.selectbox, "-kind").set_value("deal")
    at.run()
    _widget(at.selectbox, "-d-card1").set_value("10♣")
    _widget(at.selectbox, "-d-card2").set_value("7♦")
    _widget(at.selectbox, "-d-up").set_value("9♣")
    _button_in(at, "-add-deal").click()
    at.run()
    assert not at.exception
    text = _editor(at).value
    assert 'title: "Seize contre dix"' in text  # the form's change, in the text beside it
    assert [line.split(":")[0] for line in text.splitlines() if line.startswith("- ")][1:] == [
        "- explain", "- ask", "- deal"
    ]
    assert [as_read(s.value) for s in at.success] == ["Le vérificateur ne trouve aucun problème."]
    assert not at.button(key="author-publish").disabled


def test_an_edit_of_the_text_shows_in_the_form(open_app: OpenApp) -> None:
    at = _teacher(open_app)
    _new_lesson(at)
    _save(at, TEMPLATE.replace('title: "Ma leçon : rester sur 17"', 'title: "Dix-sept"'))
    assert _widget(at.text_input, "-title").value == "Dix-sept"


def test_the_format_guide_opens_in_the_teacher_s_language(open_app: OpenApp) -> None:
    at = _teacher(open_app)
    _new_lesson(at)
    labels = [as_read(e.label) for e in at.expander]
    assert ":material/menu_book: Le format des leçons : le guide" in labels
    assert any("Écrire des leçons" in m.value for m in at.markdown)


def test_a_problem_is_placed_at_its_step_in_french_words(open_app: OpenApp) -> None:
    at = _teacher(open_app)
    _new_lesson(at)
    _save(at, TEMPLATE.replace("net: 0", "net: 2"))
    said = " ".join(as_read(m.value) for m in at.markdown)
    assert "Étape 4 « À vous de jouer. », gain net" in said
    assert "steps[3]" not in said


def test_a_student_finds_an_opened_teacher_s_lesson_in_the_course_list(
    open_app: OpenApp,
) -> None:
    at = _teacher(open_app)
    _new_lesson(at)
    at.button(key="author-publish").click()
    at.run()
    token = at.session_state["app"].authoring.open.token
    student = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    student.session_state["app"] = AppState()
    student.query_params["l"] = token
    student.run()
    student.button(key="lesson-next").click().run()
    student.button(key="close-lesson").click().run()
    assert not student.exception
    seen = " ".join(as_read(m.value) for m in student.markdown)
    assert "Les leçons de vos enseignants" in seen
    assert "Ma leçon : rester sur 17" in seen
    assert student.button(key=f"open-@{token}").label == "Continuer"
    student.button(key=f"forget-@{token}").click().run()
    assert "Ma leçon" not in " ".join(as_read(m.value) for m in student.markdown)
