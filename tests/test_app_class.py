"""Class mode's pages under AppTest: a teacher and students, each in a session of their own.

Each ``AppTest`` is one browser session; they share the server's store, a SQLite file in a
temporary folder (``TUTOR_DATA_DIR``). The spec's bullets, one test each: a session created,
joined, answered and revealed; wrong keys refused and slowed down; nicknames with markup refused
and every nickname shown escaped; typed hands with their errors by line; the results and exports.
"""

from __future__ import annotations

import csv
import doctest
import io
import re
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import copy_migrated, share_solutions
from tutor.classroom import (
    PATTERN_LENGTH,
    UNSTARTED_RETENTION,
    ClassQuestion,
    Classroom,
    ExpiredSessionError,
    FinalScore,
    Teacher,
    UnknownStudentError,
)
from tutor.classroom.names import every_name
from tutor.decision import Action
from tutor.downloads import DownloadFile
from tutor.identity import new_token, token_hash
from tutor.render import class_messages
from tutor.render.class_messages import final_score_text, html_text, markdown_text
from tutor.render.class_reports import printable_html, results_csv, results_xlsx
from tutor.render.translator import translator
from tutor.rules import PRESETS
from tutor.store import Store, default_url
from tutor.ui.class_mode import join as class_join
from tutor.ui.class_mode.join import suggested_base
from tutor.ui.download_route import TICKETS
from tutor.visit import AppState, ClassPages

ROOT = Path(__file__).resolve().parents[1]
TEACHER = "tutor/ui/pages/class_teacher.py"
STUDENT = "tutor/ui/pages/class_student.py"
FAMILY = PRESETS["family"]
FR = translator("fr")

Open = Callable[..., AppTest]


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, migrated_sqlite: Path) -> Path:
    copy_migrated(migrated_sqlite, tmp_path / "tutor.sqlite3")  # the app's file, migrated once
    share_solutions(tmp_path)
    monkeypatch.setenv("TUTOR_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("TUTOR_DATABASE_URL", raising=False)
    monkeypatch.setenv("TUTOR_PUBLIC_URL", "http://192.168.1.20:8501")
    monkeypatch.chdir(ROOT)
    return tmp_path


@pytest.fixture
def open_page(data_dir: Path) -> Open:
    """A fresh browser session on a class page (French unless a state says otherwise)."""

    def open_(page: str, state: AppState | None = None, query: str | None = None) -> AppTest:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
        at.session_state["app"] = state if state is not None else AppState()
        at.run()
        at.switch_page(page)
        if query is not None:
            at.query_params["code"] = query
        at.run()
        assert not at.exception
        return at

    return open_


@pytest.fixture
def room(data_dir: Path) -> Classroom:
    """The classroom the app uses, reached directly (to seed sessions and check the database)."""
    return Classroom(Store(default_url()))


def _texts(at: AppTest) -> str:
    """Every text on the page, French typography's non-breaking spaces read as spaces (the
    sentences below are what a person reads, whatever space keeps a colon on its line)."""
    blocks = [*at.markdown, *at.caption, *at.error, *at.warning, *at.info, *at.success]
    text = "\n".join(str(block.value) for block in blocks)
    return text.replace("\u00a0", " ").replace("\u202f", " ")


def _create_typed(at: AppTest, hands: str, title: str = "Mardi, groupe B") -> None:
    at.text_input(key="class-title").input(title)
    at.segmented_control(key="class-source").set_value("hands").run()
    at.text_area(key="class-hands").input(hands)
    at.button(key="class-create").click().run()
    assert not at.exception


def _pages(at: AppTest) -> ClassPages:
    pages = at.session_state["app"].classes
    assert isinstance(pages, ClassPages)
    return pages


def _join(at: AppTest, code: str, nickname: str) -> None:
    at.text_input(key="class-join-code").input(code)
    at.text_input(key="class-join-nickname").input(nickname)
    at.button(key="class-join-submit").click().run()
    assert not at.exception


@pytest.mark.slow  # a whole class run through the pages, students' phones and all
def test_a_teacher_runs_a_question_that_students_answer(open_page: Open) -> None:
    teacher = _open_teacher_with_hands(open_page, "10 6 / 10\n8 8 / 10", note_key=False)
    pages = _pages(teacher)
    assert pages.desk is not None
    code = pages.desk.teacher.code
    key = pages.desk.key
    assert key is not None
    # the key, shown once on a screen of its own: no join code, nothing to project yet
    text = _texts(teacher)
    assert [block.value for block in teacher.code] == [key]
    assert "une seule fois" in text
    assert code not in text
    assert "data:image/svg+xml;base64," not in text
    teacher.button(key="class-key-noted").click().run()
    # then the join code and the QR code of the join address, and never the key again
    text = _texts(teacher)
    assert key not in [block.value for block in teacher.code]
    assert key not in text
    assert code in text
    assert f"http://192.168.1.20:8501/join?code={code}" in text
    assert "data:image/svg+xml;base64," in text
    assert _pages(teacher).desk.key is None  # type: ignore[union-attr]

    ana = open_page(STUDENT, query=code)
    assert ana.text_input(key="class-join-code").value == code  # the QR code's address fills it
    _join(ana, code, "Ana")
    assert "Attendez" in _texts(ana)
    ben = open_page(STUDENT)
    _join(ben, code.lower(), "Ben")
    teacher.run()
    assert teacher.metric[0].value == "2"  # students joined, in the lobby

    teacher.button(key="class-start").click().run()
    assert not teacher.exception
    assert "Question 1 sur 2" in _texts(teacher)
    assert "16 dur : que faites-vous ?" in _texts(teacher)
    ana.run()
    labels = {button.label for button in ana.button}
    assert {"Tirer", "Rester", "Doubler"} <= labels
    assert "Partager" not in labels  # only the legal actions: 10 6 cannot be split
    ana.button(key="class-answer-0-hit").click().run()
    assert not ana.exception
    assert "Votre réponse" in _texts(ana)
    assert not any(b.key.startswith("class-answer-") for b in ana.button)  # answered once
    ben.run()
    ben.button(key="class-answer-0-stand").click().run()
    teacher.run()
    assert teacher.metric[0].value == "2 / 2"
    # nobody learns the right play before the reveal
    assert "Exact" not in _texts(ana)

    teacher.button(key="class-reveal").click().run()
    assert not teacher.exception
    assert len(teacher.get("vega_lite_chart")) == 1  # the distribution
    revealed = _texts(teacher)
    assert "Meilleur coup : Tirer" in revealed
    assert "Espérance" in revealed  # every action's EV
    ana.run()
    ben.run()
    assert "Exact" in _texts(ana)
    assert "Pas tout à fait" in _texts(ben)

    teacher.button(key="class-next").click().run()
    assert "Question 2 sur 2" in _texts(teacher)
    ana.run()
    ana.button(key="class-answer-1-split").click().run()
    teacher.button(key="class-reveal").click().run()
    teacher.button(key="class-finish").click().run()
    assert not teacher.exception
    assert "Résultats" in _texts(teacher)
    frames = [frame.value for frame in teacher.dataframe]
    assert any("Ana" in frame.to_string() for frame in frames)
    files = ["class-xlsx", "class-csv", "class-html"]  # tutor.ui.download_buttons
    assert [b.key for b in teacher.button if b.key in files] == files
    teacher.button(key="class-csv").click().run()  # a ticket for the teacher's browser only
    script = next(h.proto.body for h in teacher.get("html") if "_tutor/download" in h.proto.body)
    ticket = re.search(r'"body":"([A-Za-z0-9_-]+)"', script)
    assert ticket is not None
    owner = token_hash(teacher.session_state["app"].learner_token)
    exported = TICKETS.take(ticket.group(1), owner)
    assert isinstance(exported, DownloadFile)
    assert "Ana" in exported.body.decode("utf-8-sig")
    ana.run()
    assert "terminée" in _texts(ana)


def _open_teacher_with_hands(open_page: Open, hands: str, *, note_key: bool = True) -> AppTest:
    teacher = open_page(TEACHER)
    _create_typed(teacher, hands)
    assert _pages(teacher).desk is not None
    if note_key:
        teacher.button(key="class-key-noted").click().run()
    return teacher


def test_a_stale_click_does_not_answer_the_next_question(open_page: Open, room: Classroom) -> None:
    teacher = _open_teacher_with_hands(open_page, "10 6 / 10\n8 8 / 10")
    code = _pages(teacher).desk.teacher.code  # type: ignore[union-attr]
    ana = open_page(STUDENT)
    _join(ana, code, "Ana")
    teacher.button(key="class-start").click().run()
    ana.run()  # Ana's screen shows question 1...
    teacher.button(key="class-reveal").click().run()
    teacher.button(key="class-next").click().run()
    ana.button(key="class-answer-0-stand").click().run()  # ...and she clicks before it refreshes
    assert not ana.exception
    assert "fermée" in _texts(ana)
    assert room.counts(_pages(teacher).desk.teacher) == (0, 1)  # type: ignore[union-attr]


def test_a_wrong_teacher_key_is_refused_then_slowed_down(
    open_page: Open, room: Classroom, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A lock long enough that a loaded machine's next click still meets it (the first
    # failure's own lock is one second: the test would race the clock).
    monkeypatch.setattr("tutor.classroom.session.lock_for", lambda failures: timedelta(minutes=1))
    info, key = room.create("Jeudi", FAMILY, [ClassQuestion.parse("10♠ 6♥", "10♣")])
    at = open_page(TEACHER)
    at.text_input(key="class-reopen").input(info.code)
    assert info.code not in _texts(at)  # the list does not give other classes' join codes
    at.text_input(key="class-key").input("not-the-key")
    at.button(key="class-open").click().run()
    assert not at.exception
    assert "n’est pas la clé" in _texts(at)
    assert _pages(at).desk is None
    at.text_input(key="class-key").input(key)
    at.button(key="class-open").click().run()  # even the right key waits out the lock
    assert not at.exception
    assert "Trop de clés fausses" in _texts(at)
    assert _pages(at).desk is None


def test_the_right_key_reopens_a_kept_class(open_page: Open, room: Classroom) -> None:
    info, key = room.create("Jeudi", FAMILY, [ClassQuestion.parse("10♠ 6♥", "10♣")])
    at = open_page(TEACHER)
    at.text_input(key="class-reopen").input(info.code)
    at.text_input(key="class-key").input(key)
    at.button(key="class-open").click().run()
    assert not at.exception
    desk = _pages(at).desk
    assert desk is not None
    assert desk.key is None  # a reopened class never shows its key again
    assert "Jeudi" in at.title[0].value


@pytest.mark.parametrize("nickname", ["<b>Ana</b>", "<script>alert(1)</script>", "x" * 25, "   "])
def test_a_nickname_with_markup_is_refused(open_page: Open, room: Classroom, nickname: str) -> None:
    info, _ = room.create("Jeudi", FAMILY, [ClassQuestion.parse("10♠ 6♥", "10♣")])
    at = open_page(STUDENT)
    _join(at, info.code, nickname)
    assert _pages(at).seat is None
    assert "Un pseudo a de 1 à 24 caractères" in _texts(at)


def test_join_refusals_are_translated(open_page: Open, room: Classroom) -> None:
    info, key = room.create("Jeudi", FAMILY, [ClassQuestion.parse("10♠ 6♥", "10♣")])
    at = open_page(STUDENT)
    _join(at, "ZZZZZZ", "Ana")
    assert "Aucune classe n’a ce code" in _texts(at)
    _join(at, info.code, "Ana")
    other = open_page(STUDENT)
    _join(other, info.code, "Ana")
    assert "déjà pris" in _texts(other)
    room.finish(room.open_as_teacher(info.code, key))
    late = open_page(STUDENT)
    _join(late, info.code, "Zoé")
    assert "Cette classe est terminée" in _texts(late)


def test_nicknames_and_titles_are_shown_escaped(open_page: Open, room: Classroom) -> None:
    info, key = room.create("<b>Jeudi</b>", FAMILY, [ClassQuestion.parse("10♠ 6♥", "10♣")])
    at = open_page(STUDENT)
    _join(at, info.code, "_Zoé_ O'Brien")
    assert not at.exception
    # Shown as typed: in an HTML block, where markdown reads no ``_`` as italics, escaped.
    text = _texts(at)
    assert "&lt;b&gt;Jeudi&lt;/b&gt;</h3>" in text
    assert "<b>" not in text
    assert "_Zoé_ O'Brien</p>" in text
    teacher = room.open_as_teacher(info.code, key)
    room.next_question(teacher)
    room.answer(_pages(at).seat.student, Action.HIT)  # type: ignore[union-attr]
    room.reveal(teacher)
    room.finish(teacher)
    page = printable_html(room.results(teacher), FR)
    assert "_Zoé_ O'Brien" in page
    assert "&lt;b&gt;Jeudi&lt;/b&gt;" in page
    assert "<b>" not in page


def test_typed_hands_are_checked_line_by_line(open_page: Open) -> None:
    at = open_page(TEACHER)
    _create_typed(at, "10 6 / 10\n10 Z / 9\n10 6 10\nA K / 9\n")
    assert _pages(at).desk is None
    text = _texts(at)
    assert "Ligne 2" in text
    assert "Z n’est pas une carte" in text
    assert "Ligne 3" in text
    assert "barre oblique" in text
    assert "Ligne 4" in text  # a natural: nothing to decide


@pytest.mark.parametrize("source", ["lesson", "drill"])
def test_a_class_from_a_lesson_or_a_drill(open_page: Open, room: Classroom, source: str) -> None:
    at = open_page(TEACHER)
    at.segmented_control(key="class-source").set_value(source).run()
    if source == "lesson":
        at.selectbox(key="class-lesson").set_value("strategy-hard").run()
    else:
        at.number_input(key="class-count").set_value(6).run()
    at.button(key="class-create").click().run()
    assert not at.exception
    desk = _pages(at).desk
    assert desk is not None
    at.button(key="class-key-noted").click().run()
    info = room.info(desk.teacher.code)
    assert info.questions == 6 if source == "drill" else info.questions >= 5
    at.button(key="class-start").click().run()
    assert not at.exception
    assert "Question 1 sur" in _texts(at)


def test_a_class_from_lesson_9_asks_each_hand_at_its_steps_table_in_its_words(
    open_page: Open, room: Classroom
) -> None:
    """Issue 27: lesson 9's King and 10 against a 6 is asked at the French casino, in the step's
    sentence (« Séparez pour voir ce que cela coûte »), and the projector and the phone name the
    table; the phone offers the split that table allows, and the reveal judges it there."""
    teacher = open_page(TEACHER)
    teacher.selectbox(key="class-lesson").set_value("splitting").run()
    assert "Casino français" in _texts(teacher)  # the form says the steps keep their tables
    teacher.button(key="class-create").click().run()
    assert not teacher.exception
    desk = _pages(teacher).desk
    assert desk is not None
    teacher.button(key="class-key-noted").click().run()
    code = desk.teacher.code
    questions = room.questions(desk.teacher)
    position = next(
        i for i, q in enumerate(questions) if sorted(map(str, q.cards)) == ["10♦", "K♠"]
    )
    student = open_page(STUDENT, query=code)
    _join(student, code, "Léa")
    teacher.button(key="class-start").click().run()
    for _ in range(position):
        teacher.button(key="class-reveal").click().run()
        teacher.button(key="class-next").click().run()
    assert not teacher.exception
    projected = _texts(teacher)
    assert "Séparez pour voir ce que cela coûte" in projected
    assert "20 dur" not in projected
    assert "À la table : Casino français" in projected
    student.run()
    assert "Séparez pour voir ce que cela coûte" in _texts(student)
    assert "À la table : Casino français" in _texts(student)
    student.button(key=f"class-answer-{position}-split").click().run()
    assert not student.exception
    teacher.button(key="class-reveal").click().run()
    assert not teacher.exception
    shown = _pages(teacher).desk
    assert shown is not None
    reveal = shown.reveal
    assert reveal is not None
    assert reveal.distribution == {Action.SPLIT: 1}  # a legal answer at the French casino
    assert reveal.best is Action.STAND  # and a mistake there: 20 stands


def test_the_pages_speak_english(open_page: Open) -> None:
    at = open_page(TEACHER, AppState(language="en"))
    assert at.title[0].value == "Class — teacher"
    student = open_page(STUDENT, AppState(language="en"))
    assert student.title[0].value == "Join a class"


@pytest.mark.parametrize("module", [class_join, class_messages])
def test_the_class_interface_examples(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0


def _class_finished_early(room: Classroom) -> tuple[Classroom, Teacher]:
    """Two hands, Ana right and Zoé wrong on the first, then finished: the second never asked."""
    hands = [ClassQuestion.parse("10♠ 6♥", "10♣"), ClassQuestion.parse("8♠ 8♥", "10♦")]
    info, key = room.create("Jeudi", FAMILY, hands)
    teacher = room.open_as_teacher(info.code, key)
    ana, ben = room.join(info.code, "Ana"), room.join(info.code, "Zoé")
    room.next_question(teacher)
    room.answer(ana, Action.HIT)
    room.answer(ben, Action.STAND)
    room.reveal(teacher)
    room.finish(teacher)
    return room, teacher


def test_the_csv_export_opens_in_french_excel(room: Classroom) -> None:
    """Semicolons and decimal commas in French (French Excel splits on ``;`` and reads ``0,45``),
    only the hand the class was shown, the accents kept by the byte-order mark."""
    room, teacher = _class_finished_early(room)
    raw = results_csv(room.results(teacher), FR)
    assert raw.startswith("\ufeff".encode())  # a spreadsheet then reads the accents
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:5] == ["Élève", "Question", "Main", "Réponse", "Meilleur coup"]
    assert len(rows) == 1 + 2  # two students, one question asked: no blank rows
    zoe = next(row for row in rows if row[0] == "Zoé")
    cost = room.results(teacher).rows[1].cost
    assert cost is not None
    assert zoe[-1] == f"{cost:.2f}".replace(".", ",")
    english = results_csv(room.results(teacher), translator("en")).decode("utf-8-sig")
    assert english.splitlines()[0].startswith("Student,Question,Hand,Answer,Best play")


def test_the_spreadsheet_reads_back_with_numbers_and_french_headings(room: Classroom) -> None:
    from openpyxl import load_workbook

    room, teacher = _class_finished_early(room)
    results = room.results(teacher)
    book = load_workbook(io.BytesIO(results_xlsx(results, FR)))
    assert book.sheetnames == ["Par élève", "Par question", "Toutes les réponses"]
    title, *students = list(book["Par élève"].iter_rows(values_only=True))
    assert str(title[0]).startswith("Classe")  # the file says what it is, above the headings
    assert students[0][:5] == (
        "Élève", "Réponses", "Sans réponse", "Bonnes réponses", "Justes (%)"
    )
    zoe = next(row for row in students if row[0] == "Zoé")
    assert zoe[1:5] == (1, 0, 0, 0.0)  # numbers, not text: the spreadsheet formats them
    assert isinstance(zoe[5], float)
    assert zoe[5] == pytest.approx(results.rows[1].cost)
    assert zoe[6] == "Totaux durs (1 sur 1)"
    assert book["Par élève"]["F3"].number_format == "0.00"
    _title, *questions = list(book["Par question"].iter_rows(values_only=True))
    assert len(questions) == 1 + 1  # the one question asked
    assert questions[1][6] == "Rester"  # the mistake most made, with its reason beside it
    assert questions[1][9]
    _title, *answers = list(book["Toutes les réponses"].iter_rows(values_only=True))
    assert len(answers) == 1 + 2


def test_the_printable_page_says_how_many_questions_were_asked(room: Classroom) -> None:
    room, teacher = _class_finished_early(room)
    page = printable_html(room.results(teacher), FR)
    assert "1 question posée sur 2" in page.replace("\u00a0", " ")
    # Four tables, each a heading row: the hand most missed, two students, the one question
    # asked, the two answers to it. No row for the question never asked.
    assert page.count("<tr") == 4 + 1 + 2 + 1 + 2


def test_the_join_address_avoids_localhost(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(class_join, "lan_address", lambda: "192.168.1.20")
    assert suggested_base("http://localhost:8501/class") == "http://192.168.1.20:8501"
    assert suggested_base("https://bj.school.example/class") == "https://bj.school.example"
    monkeypatch.setattr(class_join, "lan_address", lambda: None)
    assert suggested_base("http://localhost:8501/class") == "http://localhost:8501"


def test_the_teacher_sees_the_names_and_sends_a_student_away(
    open_page: Open, room: Classroom
) -> None:
    info, key = room.create("Vendredi", FAMILY, [ClassQuestion.parse("10♠ 6♥", "10♣")])
    room.join(info.code, "Ana")
    rude = room.join(info.code, "Rude Name")
    at = open_page(TEACHER)
    at.text_input(key="class-reopen").input(info.code)
    at.text_input(key="class-key").input(key)
    at.button(key="class-open").click().run()
    assert "Ana · Rude Name" in _texts(at)
    assert at.button(key="class-remove").disabled  # nobody chosen yet
    at.multiselect(key="class-remove-names").select("Rude Name").run()
    at.button(key="class-remove").click().run()
    assert not at.exception
    assert room.students(room.open_as_teacher(info.code, key)) == ["Ana"]
    with pytest.raises(UnknownStudentError):
        room.student_view(rude)


# -- issue 25: the teacher locks the class and removes several students with one click --


def _teacher_lobby(open_page: Open, room: Classroom, *names: str) -> tuple[AppTest, Teacher]:
    info, key = room.create("Vendredi", FAMILY, [ClassQuestion.parse("10♠ 6♥", "10♣")])
    for name in names:
        room.join(info.code, name)
    at = _open_teacher(open_page, info.code, key)
    return at, room.open_as_teacher(info.code, key)


def test_the_teacher_removes_several_students_with_one_click_and_is_told_how_many(
    open_page: Open, room: Classroom
) -> None:
    at, teacher = _teacher_lobby(open_page, room, "Ana", "Bot 1", "Bot 2", "Ben")
    at.multiselect(key="class-remove-names").select("Bot 1").select("Bot 2").run()
    at.button(key="class-remove").click().run()
    assert not at.exception
    assert room.students(teacher) == ["Ana", "Ben"]
    assert "2 élèves retirés" in _texts(at)
    assert "Ana · Ben" in _texts(at)  # the roster the class sees, without them
    assert at.multiselect(key="class-remove-names").value == []  # nothing left chosen
    assert at.multiselect(key="class-remove-names").options == ["Ana", "Ben"]
    at.multiselect(key="class-remove-names").select("Ben").run()
    assert "retiré" not in _texts(at)  # the count was about the last click


def test_the_teacher_removes_a_flood_of_recent_joins_with_one_click(
    open_page: Open, room: Classroom
) -> None:
    at, teacher = _teacher_lobby(open_page, room, *(f"Bot {i}" for i in range(40)))
    assert at.selectbox(key="class-remove-window").value == 60
    at.button(key="class-remove-recent").click().run()
    assert not at.exception
    assert room.students(teacher) == []
    assert "40 élèves retirés" in _texts(at)


def test_everyone_who_has_not_answered_goes_with_one_click(
    open_page: Open, room: Classroom
) -> None:
    at, teacher = _teacher_lobby(open_page, room, "Bot")
    ana = room.join(teacher.code, "Ana")
    at.run()
    assert at.button(key="class-remove-unanswered").label == "Retirer tout le monde"
    room.next_question(teacher, expected_position=-1)
    room.answer(ana, Action.STAND, position=0)
    at.run()
    assert at.button(key="class-remove-unanswered").label == (
        "Retirer tous ceux qui n’ont pas répondu"
    )
    at.button(key="class-remove-unanswered").click().run()
    assert not at.exception
    assert room.students(teacher) == ["Ana"]


def test_the_names_to_remove_follow_the_joins_as_they_arrive(
    open_page: Open, room: Classroom
) -> None:
    at, teacher = _teacher_lobby(open_page, room, "Ana")
    room.join(teacher.code, "Late Bot")
    at.run()  # the lobby's next poll
    assert at.multiselect(key="class-remove-names").options == ["Ana", "Late Bot"]
    assert "Ana · Late Bot" in _texts(at)


def test_the_teacher_locks_the_class_and_a_new_phone_is_told_in_its_language(
    open_page: Open, room: Classroom
) -> None:
    ana = AppState()
    at, teacher = _teacher_lobby(open_page, room)
    ana_phone = open_page(STUDENT, ana)
    _join(ana_phone, teacher.code, "Ana")
    assert not at.toggle(key="class-lock").value
    at.toggle(key="class-lock").set_value(True).run()
    assert not at.exception
    assert room.info(teacher.code).locked
    assert at.toggle(key="class-lock").value
    assert "La classe est fermée : personne de nouveau ne peut la rejoindre." in _texts(at)

    for state, sentence in [
        (AppState(), "La classe est fermée : demandez à votre professeur de l’ouvrir."),
        (AppState(language="en"), "The class is locked: ask your teacher to open it."),
    ]:
        phone = open_page(STUDENT, state)
        _join(phone, teacher.code, "Zoé")
        assert _pages(phone).seat is None
        assert sentence in _texts(phone)
    # Ana's phone reloads: her seat comes back without a word typed.
    again = open_page(STUDENT, AppState(learner_token=ana.learner_token), query=teacher.code)
    seat = _pages(again).seat
    assert seat is not None
    assert seat.student.nickname == "Ana"

    at.toggle(key="class-lock").set_value(False).run()
    assert not room.info(teacher.code).locked
    phone = open_page(STUDENT)
    _join(phone, teacher.code, "Zoé")
    assert _pages(phone).seat is not None


def test_the_lock_stays_at_hand_during_the_questions(open_page: Open, room: Classroom) -> None:
    at, teacher = _teacher_lobby(open_page, room, "Ana", "Bot")
    at.button(key="class-start").click().run()
    assert "Question 1 sur 1" in _texts(at)
    at.toggle(key="class-lock").set_value(True).run()
    assert room.info(teacher.code).locked
    assert any("La classe est fermée" in str(block.label) for block in at.expander)
    at.multiselect(key="class-remove-names").select("Bot").run()
    at.button(key="class-remove").click().run()
    assert not at.exception
    assert room.students(teacher) == ["Ana"]


# -- issue 25: the optional second join step --


def test_a_class_with_a_second_step_shows_its_symbols_on_the_projector_only(
    open_page: Open, room: Classroom
) -> None:
    teacher = open_page(TEACHER)
    teacher.checkbox(key="class-join-step").check()
    _create_typed(teacher, "10 6 / 10")
    teacher.button(key="class-key-noted").click().run()
    desk = _pages(teacher).desk
    assert desk is not None
    pattern = room.join_pattern(desk.teacher)
    assert pattern is not None
    shown = [str(block.value) for block in teacher.markdown if "class-join-pattern" in block.value]
    assert len(shown) == 1
    assert all(symbol in shown[0] for symbol in pattern)
    assert "Puis touchez ces symboles, dans l’ordre" in _texts(teacher)

    # The phone that scanned the QR code is asked for the symbols at once; the page never
    # holds the pattern.
    phone = open_page(STUDENT, query=desk.teacher.code)
    assert not any(symbol_row(phone, index).value for index in range(PATTERN_LENGTH))
    assert "".join(pattern) not in _texts(phone)
    phone.text_input(key="class-join-nickname").input("Ana")
    wrong = ["★" if symbol != "★" else "●" for symbol in pattern]
    for index, symbol in enumerate(wrong):
        symbol_row(phone, index).set_value(symbol)
    phone.button(key="class-join-submit").click().run()
    assert _pages(phone).seat is None
    assert "Ce ne sont pas les symboles affichés au tableau" in _texts(phone)
    for index, symbol in enumerate(pattern):
        symbol_row(phone, index).set_value(symbol)
    phone.button(key="class-join-submit").click().run()
    assert not phone.exception
    seat = _pages(phone).seat
    assert seat is not None
    assert seat.student.nickname == "Ana"

    # Once the class is going, the header keeps the code and the symbols for latecomers.
    teacher.button(key="class-start").click().run()
    headers = [str(block.value) for block in teacher.markdown if 'aria-label="code"' in block.value]
    assert any('aria-label="Symboles à toucher' in header for header in headers)


def symbol_row(at: AppTest, index: int) -> object:
    return at.segmented_control(key=f"class-join-symbol-{index}")


def test_a_phone_that_typed_the_code_is_told_to_tap_the_symbols(
    open_page: Open, room: Classroom
) -> None:
    hands = [ClassQuestion.parse("10♠ 6♥", "10♣")]
    info, _key = room.create("Vendredi", FAMILY, hands, join_step=True)
    phone = open_page(STUDENT)
    with pytest.raises(KeyError):
        symbol_row(phone, 0)  # no class known yet: no symbols asked
    _join(phone, info.code, "Ana")
    assert _pages(phone).seat is None
    assert "Cette classe demande une seconde étape" in _texts(phone)
    assert symbol_row(phone, 0) is not None  # the rows to tap are there now
    english = open_page(STUDENT, AppState(language="en"))
    _join(english, info.code, "Ben")
    assert "This class asks for a second step" in _texts(english)


# -- issue 25: names given by the app --


def test_a_class_with_given_names_asks_the_phone_for_no_nickname(
    open_page: Open, room: Classroom
) -> None:
    teacher = open_page(TEACHER)
    teacher.checkbox(key="class-given-names").check()
    _create_typed(teacher, "10 6 / 10")
    teacher.button(key="class-key-noted").click().run()
    desk = _pages(teacher).desk
    assert desk is not None
    assert room.info(desk.teacher.code).given_names == "fr"  # the teacher's page's language

    phone = open_page(STUDENT, query=desk.teacher.code)
    with pytest.raises(KeyError):
        phone.text_input(key="class-join-nickname")  # nothing to type
    assert "l’application vous donne un nom de deux mots" in _texts(phone)
    phone.button(key="class-join-submit").click().run()
    assert not phone.exception
    seat = _pages(phone).seat
    assert seat is not None
    assert seat.student.nickname in every_name("fr")
    assert f"Vous êtes {markdown_text(seat.student.nickname)}" in _texts(phone)
    teacher.run()
    assert markdown_text(seat.student.nickname) in _texts(teacher)


# -- issue 14: teacher access, a private reopen screen, retention, stale clicks, names --


def _open_teacher(open_page: Open, code: str, key: str, state: AppState | None = None) -> AppTest:
    at = open_page(TEACHER, state)
    at.text_input(key="class-reopen").input(code)
    at.text_input(key="class-key").input(key)
    at.button(key="class-open").click().run()
    assert not at.exception
    return at


def test_the_reopen_screen_shows_nothing_of_other_teachers_classes(
    open_page: Open, room: Classroom
) -> None:
    hand = [ClassQuestion.parse("10♠ 6♥", "10♣")]
    info, _ = room.create("Cours de Mme Secret", FAMILY, hand, learner_token=new_token())
    at = open_page(TEACHER)
    text = _texts(at) + "".join(str(box.options) for box in at.selectbox)
    assert "Secret" not in text
    assert info.code not in text
    assert "class-reopen" not in {box.key for box in at.selectbox}  # a typed code, no list
    assert not [b for b in at.button if str(b.key).startswith("class-own-")]


def test_a_teacher_reopens_a_class_of_this_browser_with_one_click(
    open_page: Open, room: Classroom
) -> None:
    """The browser that created a class lists it (title, date, code, where it stands) and
    reopens it without the key; another browser's class is not listed."""
    state = AppState()
    hand = [ClassQuestion.parse("10♠ 6♥", "10♣")]
    mine, key = room.create("Mardi, groupe B", FAMILY, hand, learner_token=state.learner_token)
    room.create("Leur classe", FAMILY, hand, learner_token=new_token())
    room.next_question(room.open_as_teacher(mine.code, key))
    at = open_page(TEACHER, state)
    assert "Mardi, groupe B" in _texts(at)
    assert "question 1 sur 1" in _texts(at)
    assert "Leur classe" not in _texts(at)
    at.button(key=f"class-own-{mine.code}").click().run()
    assert not at.exception
    desk = _pages(at).desk
    assert desk is not None
    assert desk.teacher.session_id == mine.id
    assert desk.key is None  # the key is never shown again
    assert "Question 1 sur 1" in _texts(at)


def test_a_students_wrong_keys_do_not_lock_the_teacher_out(
    open_page: Open, room: Classroom
) -> None:
    info, key = room.create("Jeudi", FAMILY, [ClassQuestion.parse("10♠ 6♥", "10♣")])
    stranger = _open_teacher(open_page, info.code, "a-guess")
    assert "n’est pas la clé" in _texts(stranger)
    stranger.text_input(key="class-key").input(key)
    stranger.button(key="class-open").click().run()
    assert "Trop de clés fausses" in _texts(stranger)  # the guesser waits...
    assert _pages(stranger).desk is None
    teacher = _open_teacher(open_page, info.code, key)  # ...the teacher's browser does not
    assert _pages(teacher).desk is not None


def test_the_teacher_sees_when_the_class_is_deleted(open_page: Open, room: Classroom) -> None:
    info, key = room.create("Jeudi", FAMILY, [ClassQuestion.parse("10♠ 6♥", "10♣")])
    en = AppState(language="en")
    teacher = _open_teacher(open_page, info.code, key, en)
    date = translator("en").date(info.expires_at.date())  # in words (issue 29), not 2027-01-01
    lobby = _texts(teacher)  # before the first question: a class nobody starts goes the same day
    assert "Start this class within 12 hours of its creation" in lobby
    assert f"it is kept until {date} (30 days after its creation)" in lobby
    room.finish(room.open_as_teacher(info.code, key))
    teacher.run()
    assert "Results" in _texts(teacher)
    assert f"This class is kept until {date} (30 days after its creation)" in _texts(teacher)
    page = printable_html(room.results(room.open_as_teacher(info.code, key)), translator("en"))
    assert f"kept until {date}" in page


def test_a_stale_next_or_reveal_click_acts_on_nothing(open_page: Open, room: Classroom) -> None:
    teacher = _open_teacher_with_hands(open_page, "10 6 / 10\n8 8 / 10\nA 7 / 9")
    desk = _pages(teacher).desk
    assert desk is not None
    teacher.button(key="class-start").click().run()
    teacher.button(key="class-reveal").click().run()
    # the first click of a double click (or another tab) moves the class on...
    room.next_question(desk.teacher, expected_position=0)
    teacher.button(key="class-next").click().run()  # ...the second finds it moved: no skip
    assert not teacher.exception
    assert room.info(desk.teacher.code).current == 1
    assert "Question 2 sur 3" in _texts(teacher)
    # a Reveal drawn for question 2, clicked after another tab moved on to question 3
    room.next_question(desk.teacher, expected_position=1)
    teacher.button(key="class-reveal").click().run()
    assert not teacher.exception
    after = room.info(desk.teacher.code)
    assert after.current == 2
    assert not after.revealed  # question 3 stays open for answers


@pytest.mark.parametrize(
    ("nickname", "why"),
    [
        ("\u0410na", "one alphabet"),  # a Cyrillic A
        ("\uff21\uff4e\uff41", "full-width"),
        ("Ana\u3164", "invisible"),
        ("Ana\u200b", "invisible"),
    ],
)
def test_a_look_alike_or_invisible_nickname_is_refused_saying_why(
    open_page: Open, room: Classroom, nickname: str, why: str
) -> None:
    info, _ = room.create("Jeudi", FAMILY, [ClassQuestion.parse("10♠ 6♥", "10♣")])
    at = open_page(STUDENT, AppState(language="en"))
    _join(at, info.code, nickname)
    assert _pages(at).seat is None
    assert why in _texts(at)


def test_a_name_that_looks_like_an_address_is_shown_as_text(
    open_page: Open, room: Classroom
) -> None:
    info, key = room.create("www.evil.example", FAMILY, [ClassQuestion.parse("10♠ 6♥", "10♣")])
    student = open_page(STUDENT)
    _join(student, info.code, "www.evil.example")
    teacher = _open_teacher(open_page, info.code, key)
    shown = [teacher.title[0].value, *(block.value for block in teacher.markdown)]
    student_shown = [block.value for block in student.markdown]
    for text in [*shown, *student_shown]:
        assert "www.evil.example" not in text  # markdown would make a live link of it
    # Escaped, and a word joiner before each dot: Streamlit links addresses after the escapes
    # are read (tests/test_browser_plain_text.py shows it in chromium).
    escaped = markdown_text("www.evil.example")
    assert escaped == "www\u2060\\.evil\u2060\\.example"
    assert escaped in teacher.title[0].value
    assert any(escaped in text for text in shown[1:])  # the lobby's names
    # The phone draws its title and name in an HTML block, where no backslash escapes: a word
    # joiner only (tests/test_browser_plain_text.py lists the phone's links: none).
    assert any(html_text("www.evil.example") in text for text in student_shown)
    # the other autolinks: an address with its scheme, an e-mail address
    assert markdown_text("http://x.example") == "http\u2060\\://x\u2060\\.example"
    assert markdown_text("ana@x.example") == "ana\u2060\\@x\u2060\\.example"


def test_the_table_choices_are_named_not_keyed(open_page: Open) -> None:
    """The rules' choices read as tables ("Table familiale (livret de règles)"), never as the
    presets' keys ("family", "american-s17")."""
    at = open_page(TEACHER)
    shown = list(at.selectbox(key="class-rules").options)  # the labels a teacher reads
    assert "Table familiale (livret de règles)" in shown
    assert not [name for name in shown if name in PRESETS or "(family" in name], shown


def test_a_phone_shows_the_reason_with_the_reveal_as_the_projector_does(
    open_page: Open, room: Classroom
) -> None:
    import time

    from tutor.classroom.core import TICK_SECONDS
    from tutor.classroom.questions import judged

    question = ClassQuestion.parse("10♠ 6♥", "10♣")
    info, key = room.create("Jeudi", FAMILY, [question])
    phone = open_page(STUDENT)
    _join(phone, info.code, "Ana")
    teacher = room.open_as_teacher(info.code, key)
    room.next_question(teacher)
    time.sleep(TICK_SECONDS + 0.2)
    phone.run()
    phone.button(key="class-answer-0-stand").click().run()
    reason = judged(FAMILY, question).reason
    sentence = FR.reason(reason.key, reason.params)
    assert sentence
    assert sentence not in "\n".join(str(block.value) for block in phone.markdown)  # not yet
    room.reveal(teacher)
    time.sleep(TICK_SECONDS + 0.2)  # the phones' shared reads last one tick
    phone.run()
    assert not phone.exception
    shown = "\n".join(str(block.value) for block in phone.markdown)
    assert ":material/lightbulb: " + sentence in shown


def test_what_a_teacher_types_is_bounded_before_any_work(
    open_page: Open, room: Classroom, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A megabyte in the title, the hands and the teacher key (issue 25): what reaches the title's
    clean-up, the hands' parser and the key's hash is a few thousand characters at most."""
    from tutor import classroom as class_package
    from tutor.classroom import MAX_HANDS_CHARS
    from tutor.classroom.session import Classroom as Room

    reached: dict[str, int] = {}
    parse, create, reopen = class_package.parse_hands, Room.create, Room.open_as_teacher

    def parse_spy(text: str, rules: object = None) -> object:
        reached["hands"] = len(text)
        return parse(text, rules)  # type: ignore[arg-type]

    def create_spy(self: Room, title: str, *args: object, **kwargs: object) -> object:
        reached["title"] = len(title)
        return create(self, title, *args, **kwargs)  # type: ignore[arg-type]

    def reopen_spy(self: Room, code: str, key: str, **kwargs: object) -> object:
        reached["key"] = len(key)
        return reopen(self, code, key, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(class_package, "parse_hands", parse_spy)
    monkeypatch.setattr(Room, "create", create_spy)
    monkeypatch.setattr(Room, "open_as_teacher", reopen_spy)
    # Set as a script would send them: ``input`` keeps to the field's ``max_chars`` as a browser
    # does, ``set_value`` sends anything.
    at = open_page(TEACHER)
    at.text_input(key="class-title").set_value("www.x.example " * 70_000)
    at.segmented_control(key="class-source").set_value("hands").run()
    at.text_area(key="class-hands").set_value("10 6 / 10\n" * 100_000)
    at.button(key="class-create").click().run()
    assert not at.exception
    assert reached["hands"] <= MAX_HANDS_CHARS
    assert "title" not in reached  # 600 hands: refused before a class is made
    assert "au plus 60 mains" in _texts(at)
    at.text_input(key="class-title").set_value("Jeudi " * 200_000)
    at.text_area(key="class-hands").set_value("10 6 / 10")
    at.button(key="class-create").click().run()
    assert not at.exception
    assert reached["title"] <= 80
    assert _pages(at).desk is not None
    info, _key = room.create("Jeudi", FAMILY, [ClassQuestion.parse("10♠ 6♥", "10♣")])
    other = open_page(TEACHER)
    other.text_input(key="class-reopen").input(info.code)
    other.text_input(key="class-key").set_value("K" * 10_000_000)
    other.button(key="class-open").click().run()
    assert not other.exception
    assert reached["key"] <= 64
    assert "n’est pas la clé" in _texts(other)


def _class_with_formula_names(room: Classroom) -> tuple[Classroom, Teacher]:
    """A finished class whose students are ``-1-1`` (a nickname the store accepts: digits and
    hyphens), and ``=1+1`` and ``@x``: names the store refuses today, given here to the results
    as a database of yesterday's rules (or of another program) could hold them."""
    import dataclasses

    info, key = room.create("Jeudi", FAMILY, [ClassQuestion.parse("10♠ 6♥", "10♣")])
    teacher = room.open_as_teacher(info.code, key)
    students = [room.join(info.code, name) for name in ("-1-1", "Ana", "Zoé")]
    room.next_question(teacher)
    for student, action in zip(students, (Action.HIT, Action.STAND, Action.HIT), strict=True):
        room.answer(student, action)
    room.reveal(teacher)
    room.finish(teacher)
    renamed = {"Ana": "=1+1", "Zoé": "@x"}
    results = room.results(teacher)
    patched = dataclasses.replace(
        results,
        rows=tuple(
            dataclasses.replace(r, student=renamed.get(r.student, r.student)) for r in results.rows
        ),
        students=tuple(
            dataclasses.replace(s, nickname=renamed.get(s.nickname, s.nickname))
            for s in results.students
        ),
    )
    room.results = lambda _teacher: patched  # type: ignore[method-assign]
    return room, teacher


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_nickname_that_looks_like_a_formula_is_text_in_the_csv(
    room: Classroom, language: str
) -> None:
    """OWASP's rule: a cell beginning with = + - @ (or a tab, a carriage return) gets a quote in
    front, so the spreadsheet shows the name and computes nothing; numbers stay numbers."""
    room, teacher = _class_with_formula_names(room)
    raw = results_csv(room.results(teacher), translator(language)).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(raw), delimiter=";" if language == "fr" else ","))
    names = sorted(row[0] for row in rows[1:])
    assert names == ["'-1-1", "'=1+1", "'@x"]
    for row in rows[1:]:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), row
    costs = [row[-1] for row in rows[1:] if row[-1]]
    assert costs  # the wrong answers' cost, a number as the spreadsheet reads it
    assert all(cost.replace(",", ".").replace(".", "", 1).isdigit() for cost in costs)


def test_a_nickname_that_looks_like_a_formula_is_text_in_the_spreadsheet(
    room: Classroom,
) -> None:
    from openpyxl import load_workbook

    room, teacher = _class_with_formula_names(room)
    book = load_workbook(io.BytesIO(results_xlsx(room.results(teacher), FR)))
    for sheet in (book["Par élève"], book["Toutes les réponses"]):
        cells = [row[0] for row in sheet.iter_rows(min_row=3)]  # under the title and headings
        assert sorted(str(cell.value) for cell in cells) == ["-1-1", "=1+1", "@x"]
        for cell in cells:
            assert cell.data_type == "s"  # a string, never "f" (a formula)
            assert cell.quotePrefix  # and kept text when the teacher edits it


def test_a_long_address_for_students_is_cut_before_its_qr_code(open_page: Open) -> None:
    """The address field (the teacher's correction of the join address) keeps to 200 characters:
    a megabyte there made a QR code that cannot be drawn, a traceback on the projector."""
    teacher = _open_teacher_with_hands(open_page, "10 6 / 10")
    teacher.text_input(key="class-base-url").set_value("http://" + "x" * 1_000_000).run()
    assert not teacher.exception
    assert len(_pages(teacher).base_url or "") <= 200
    assert "data:image/svg+xml;base64," in _texts(teacher)


def test_a_class_never_started_says_why_it_expired(room: Classroom) -> None:
    info, _ = room.create("Jeudi", FAMILY, [ClassQuestion.parse("10♠ 6♥", "10♣")])
    clock = room.clock
    room.clock = lambda: clock() + UNSTARTED_RETENTION
    with pytest.raises(ExpiredSessionError) as expired:
        room.info(info.code)
    assert class_messages.error_message(expired.value, translator("en")) == (
        "This class has expired: a class never started is deleted 12 hours after its creation."
    )
    assert "jamais commencée est supprimée 12\u00a0heures" in class_messages.error_message(
        expired.value, FR
    )


def test_the_class_csv_writes_cards_as_the_screen_does_and_says_no_answer(
    room: Classroom,
) -> None:
    """Read back as French Excel reads it: the hand's cards with the French corner letters the
    screen shows (R for roi, D dame, V valet), and « pas de réponse » for a student who did not
    answer, never an empty cell; in English, K Q J and "no answer" (issue 29)."""
    hands = [ClassQuestion.parse("K♠ 6♥", "Q♣"), ClassQuestion.parse("J♦ 5♣", "10♥")]
    info, key = room.create("Vendredi", FAMILY, hands)
    teacher = room.open_as_teacher(info.code, key)
    ana, _lea = room.join(info.code, "Ana"), room.join(info.code, "Léa")
    room.next_question(teacher)
    room.answer(ana, Action.HIT)  # Léa does not answer
    room.reveal(teacher)
    room.finish(teacher)
    results = room.results(teacher)
    raw = results_csv(results, FR).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(raw), delimiter=";"))
    heading = rows[0]
    by_student = {row[heading.index("Élève")]: row for row in rows[1:]}
    assert set(by_student) == {"Ana", "Léa"}
    for row in by_student.values():
        assert row[heading.index("Main")] == "R♠ 6♥ / D♣"
    lea = by_student["Léa"]
    assert lea[heading.index("Réponse")] == "pas de réponse"
    assert lea[heading.index("Réussite")] == "pas de réponse"  # not an empty cell
    assert by_student["Ana"][heading.index("Réponse")] == FR.action_name(Action.HIT)
    assert "K♠" not in raw
    assert "Q♣" not in raw
    english = list(
        csv.reader(io.StringIO(results_csv(results, translator("en")).decode("utf-8-sig")))
    )
    assert {row[2] for row in english[1:]} == {"K♠ 6♥ / Q♣"}
    assert "no answer" in {row[3] for row in english[1:]}
    # The workbook and the printable page write the hand the same way.
    page = printable_html(results, FR)
    assert "R♠ 6♥ / D♣" in page
    assert "pas de réponse" in page
    assert "K♠" not in page


def test_a_phone_is_told_the_class_size_the_last_question_and_its_own_score_at_the_end(
    open_page: Open, room: Classroom
) -> None:
    import time

    from tutor.classroom.core import TICK_SECONDS

    info, key = room.create(
        "Vendredi",
        FAMILY,
        [ClassQuestion.parse("10♠ 6♥", "10♣"), ClassQuestion.parse("10♠ 9♥", "10♣")],
    )
    teacher = room.open_as_teacher(info.code, key)
    phone = open_page(STUDENT, AppState())
    _join(phone, info.code, "Ana")
    assert "la classe, qui compte 2 questions" in _texts(phone)
    ana = _pages(phone).seat
    assert ana is not None
    ben, zoe = room.join(info.code, "Ben"), room.join(info.code, "Zoé")
    plays = [(Action.HIT, Action.STAND), (Action.STAND, Action.STAND)]
    for position, (mine, bens) in enumerate(plays):
        room.next_question(teacher, expected_position=position - 1)
        room.answer(ana.student, mine)
        room.answer(ben, bens)
        room.answer(zoe, Action.HIT)
        room.reveal(teacher)
    time.sleep(TICK_SECONDS + 0.2)  # the phones' shared reads last one tick
    phone.run()
    texts = _texts(phone)
    assert "Dernière question (2 sur 2)" in texts
    assert "C’était la dernière question" in texts
    room.finish(teacher)
    time.sleep(TICK_SECONDS + 0.2)
    phone.run()
    # Ana: 2 right; Ben: 1 (stood on 16); Zoé: 1 (hit 19). Ana is first, alone.
    assert "2 bonnes réponses sur 2" in _texts(phone)
    assert "1re place sur 3" in _texts(phone)
    assert room.final_score(ben) == FinalScore(right=1, asked=2, rank=2, students=3, tied=True)
    assert final_score_text(room.final_score(ben), FR).endswith("2e place sur 3, ex æquo")  # type: ignore[arg-type]
