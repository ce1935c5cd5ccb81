"""Homework's pages in AppTest (issue 28): a teacher makes a group and gives it a drill; a student
joins from the group's link, finds it in « À faire » with its date (on the homework page and on
the home page), answers hands; the teacher's follow-up counts exactly those hands."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.conftest import PAGES, ROOT, OpenApp, as_read
from tutor.quiz_questions import Category
from tutor.visit import AppState


def _teacher_gives_a_drill(open_app: OpenApp) -> tuple[AppTest, str]:
    at = open_app("groups")
    assert at.title[0].value == "Devoirs — enseignant"
    at.text_input[0].set_value("2nde B")
    at.button[0].click().run()  # « Créer le groupe »
    assert not at.exception
    state: AppState = at.session_state["app"]
    teacher = state.homework.teacher
    assert teacher is not None
    # The key on a screen of its own, without the students' code or QR: noted, then the group.
    assert any("Notez cette clé de professeur" in w.value for w in at.warning)
    assert not at.image
    assert teacher.code not in " ".join(m.value for m in at.markdown)
    at.button(key="group-key-noted").click().run()
    at.radio[0].set_value("drill").run()  # the form then asks a drill's fields only
    assert not [box for box in at.selectbox if box.key == "group-give-lesson"]
    at.selectbox(key="group-give-category").set_value(Category.PAIRS)
    at.number_input[0].set_value(3)
    next(b for b in at.button if b.label == "Donner").click().run()
    assert not at.exception
    return at, teacher.code


def test_a_student_joins_does_part_of_a_drill_and_the_teacher_sees_it(
    open_app: OpenApp,
) -> None:
    teacher_page, code = _teacher_gives_a_drill(open_app)
    student = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    student.session_state["app"] = AppState()
    student.query_params["group"] = code
    student.run()
    student.switch_page(PAGES["homework"]).run()
    assert student.title[0].value == "Mes devoirs"
    assert student.text_input[0].value == code  # from the link
    student.text_input[1].set_value("Zoé")
    next(b for b in student.button if b.label == "Rejoindre").click().run()
    assert not student.exception
    todo = as_read(" ".join(m.value for m in student.markdown))
    assert "Entraînement : Paires, 3 mains · 0 sur 3 · à rendre le " in todo
    student.switch_page(PAGES["lessons"]).run()  # the home page says it too
    home = " ".join(m.value for m in student.markdown).replace("\xa0", " ")
    assert "**À faire**" in home
    assert "Entraînement : Paires, 3 mains · 0 sur 3" in as_read(home)
    student.switch_page(PAGES["homework"]).run()
    next(b for b in student.button if b.label == "Commencer").click().run()
    for _hand in range(2):
        answer = next(
            b for b in student.button
            if b.key and b.key.startswith("homework-") and b.key != "homework-next"
        )
        answer.click().run()
        assert not student.exception
        next(b for b in student.button if b.key == "homework-next").click().run()
    state: AppState = student.session_state["app"]
    assert state.homework.drill is not None

    teacher_page.run()
    per_student = next(table.value for table in teacher_page.table  # not the gradebook
                       if table.value.index.name == "Élève" and "État" in table.value.columns)
    row = per_student.loc["Zoé"]
    assert (row["Fait"], row["Sur"], row["État"]) == ("2", "3", "commencé")
    # The student leaves the drill half done: « À faire » offers to go on, not to start again.
    state.homework.drill = None
    student.run()
    labels = [b.label for b in student.button if b.key and b.key.startswith("homework-")]
    assert "Continuer" in labels
    assert "Commencer" not in labels


def test_a_teachers_own_lesson_is_given_as_homework_and_opens_for_the_student(
    open_app: OpenApp,
) -> None:
    """« Mes leçons »: the teacher's published lesson is offered beside the course; a student of
    the group finds it in « À faire » with its title, opens it from there on the Lessons page
    (by its link, so a reload keeps it), and the steps done count as for a built-in lesson."""
    from tutor.authoring import Shelf, progress_key
    from tutor.ui.resources import shelf

    teacher_page = open_app("groups")
    teacher_state: AppState = teacher_page.session_state["app"]
    own: Shelf = shelf()
    handle, _key = own.create(teacher_state.learner_token)
    own.publish(handle, teacher_state.learner_token)
    lesson_id = progress_key(handle.token)
    teacher_page.text_input[0].set_value("2nde C")
    teacher_page.button[0].click().run()  # « Créer le groupe »
    assert not teacher_page.exception
    teacher_page.button(key="group-key-noted").click().run()
    offered = teacher_page.selectbox(key="group-give-lesson")
    assert "Mes leçons : Ma leçon : rester sur 17" in [as_read(o) for o in offered.options]
    offered.set_value(lesson_id)
    next(b for b in teacher_page.button if b.label == "Donner").click().run()
    assert not teacher_page.exception
    teacher = teacher_state.homework.teacher
    assert teacher is not None
    lesson = own.published_lesson(handle.token)
    assert lesson is not None
    steps = len(lesson.steps)

    student = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    student.session_state["app"] = AppState()
    student.query_params["group"] = teacher.code
    student.run()
    student.switch_page(PAGES["homework"]).run()
    student.text_input[1].set_value("Zoé")
    next(b for b in student.button if b.label == "Rejoindre").click().run()
    todo = as_read(" ".join(m.value for m in student.markdown))
    assert f"Leçon : Ma leçon : rester sur 17 · 0 sur {steps} · à rendre le " in todo
    next(b for b in student.button if b.label == "Ouvrir").click().run()
    assert not student.exception
    assert [as_read(t.value) for t in student.title] == ["Ma leçon : rester sur 17"]
    assert student.query_params["l"] == handle.token
    student.button(key="lesson-next").click().run()
    assert not student.exception

    teacher_page.run()
    per_student = next(table.value for table in teacher_page.table  # not the gradebook
                       if table.value.index.name == "Élève" and "État" in table.value.columns)
    row = per_student.loc["Zoé"]
    assert as_read(row["Travail"]) == "Leçon : Ma leçon : rester sur 17"
    from tutor.ui.resources import store

    student_state: AppState = student.session_state["app"]
    learner = store().learner_for_token(student_state.learner_token, create=False)
    assert learner is not None
    done = store().lesson_progress(learner)[lesson_id].completed  # as the player kept it
    assert 0 < done < steps
    assert (row["Fait"], row["Sur"], row["État"]) == (str(done), str(steps), "commencé")
