"""Homework's pages in AppTest (issue 28): a teacher makes a group and gives it a drill; a student
joins from the group's link, finds it in « À faire » with its date (on the homework page and on
the home page), answers hands; the teacher's follow-up counts exactly those hands."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.conftest import PAGES, ROOT, OpenApp
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
    assert any("Votre clé de professeur" in w.value for w in at.warning)
    at.radio[0].set_value("drill")
    at.selectbox[1].set_value(Category.PAIRS)
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
    todo = " ".join(m.value for m in student.markdown).replace("\xa0", " ").replace("\u202f", " ")
    assert "Entraînement : Paires, 3 mains · 0 sur 3 · à rendre le " in todo
    student.switch_page(PAGES["lessons"]).run()  # the home page says it too
    home = " ".join(m.value for m in student.markdown).replace("\xa0", " ")
    assert "**À faire**" in home
    assert "Entraînement : Paires, 3 mains · 0 sur 3" in home.replace("\u202f", " ")
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
    per_student = next(table.value for table in teacher_page.table
                       if table.value.index.name == "Élève")
    row = per_student.loc["Zoé"]
    assert (row["Fait"], row["Sur"], row["État"]) == ("2", "3", "commencé")
