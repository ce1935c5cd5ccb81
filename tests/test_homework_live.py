"""A live class run for a study group (issue 28): its results join the group's follow-up, per
member matched by their browser (never by the nickname typed in class), with their score, their
mistakes by kind of hand and what they cost; a classmate typing a member's name writes nothing
into that member's record; a member who erases their data leaves; the class expires as classes
do; wrong group keys lock their guesser only. On SQLite and (slow lane) PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest

from tests.conftest import Clock
from tutor.classroom import RETENTION as CLASS_RETENTION
from tutor.classroom import WRONG_CODES_PER_MINUTE, Classroom, Student, Teacher, parse_hands
from tutor.classroom.questions import judged, legal
from tutor.decision import Action
from tutor.homework import (
    RETENTION,
    GroupKeyLockError,
    GroupTeacher,
    Homework,
    TooManyTriesError,
    UnknownGroupError,
    follow_up,
    live_classes,
)
from tutor.identity import new_token
from tutor.render.homework_reports import class_columns, kind_columns
from tutor.render.translator import translator
from tutor.rules import PRESETS
from tutor.store import Store

FAMILY = PRESETS["family"]
HANDS = "10 6 / 10\n8 8 / 9\nA 7 / 9"


@pytest.fixture
def rooms(database_url: str, clock: Clock) -> Iterator[tuple[Homework, Classroom]]:
    store = Store(database_url)
    yield Homework(store, clock=clock), Classroom(store, clock=clock)
    store.close()


def _steps(_lesson_id: str) -> int | None:
    return None


def _group(homework: Homework) -> tuple[GroupTeacher, dict[str, str]]:
    group, _key = homework.create_group("2nde B", new_token())
    tokens = {name: new_token() for name in ("Ana", "Ben", "Chloé")}
    for name, token in tokens.items():
        homework.join(group.code, name, token)
    return group, tokens


def _class_for(classroom: Classroom, group: GroupTeacher | None) -> tuple[Teacher, str]:
    questions = parse_hands(HANDS, FAMILY)
    info, key = classroom.create(
        "Mardi", FAMILY, questions, group_id=None if group is None else group.group_id
    )
    return classroom.open_as_teacher(info.code, key), info.code


def _play(
    classroom: Classroom, teacher: Teacher, answers: dict[Student, list[bool]]
) -> dict[Student, tuple[int, float, dict[str, int]]]:
    """Show every hand; each student answers it right (True) or with a legal wrong play (False);
    what each got right, what their answers gave away (bets) and their mistakes by kind, by the
    judge."""
    questions = classroom.questions(teacher)
    expected: dict[Student, tuple[int, float, dict[str, int]]] = {
        student: (0, 0.0, {}) for student in answers
    }
    from tutor.classroom.results import topic

    for position, question in enumerate(questions):
        classroom.next_question(teacher, expected_position=position - 1)
        advice = judged(FAMILY, question)
        wrong = next(a for a in Action if a in legal(FAMILY, question) and a is not advice.play)
        for student, plan in answers.items():
            given = advice.play if plan[position] else wrong
            classroom.answer(student, given, position=position)
            verdict = judged(FAMILY, question, given)
            right, cost, kinds = expected[student]
            if verdict.is_mistake:
                kind = topic(question, advice).value
                kinds = {**kinds, kind: kinds.get(kind, 0) + 1}
            expected[student] = (right + verdict.is_right, cost + verdict.loss, kinds)
        classroom.reveal(teacher, expected_position=position)
    classroom.finish(teacher)
    return expected


def test_a_class_run_for_the_group_joins_its_follow_up(
    rooms: tuple[Homework, Classroom], clock: Clock
) -> None:
    homework, classroom = rooms
    group, tokens = _group(homework)
    teacher, code = _class_for(classroom, group)
    ana = classroom.join(code, "Ana", learner_token=tokens["Ana"])
    ben = classroom.join(code, "Benji", learner_token=tokens["Ben"])  # another name in class
    # A classmate outside the group types a member's name: a guest, not Chloé.
    stranger = classroom.join(code, "Chloé", learner_token=new_token())
    expected = _play(
        classroom,
        teacher,
        {ana: [True, False, True], ben: [False, False, True], stranger: [False, False, False]},
    )
    _other, _ = _class_for(classroom, None)  # a class run for no group is not in it

    members = homework.members(group)
    (live,) = live_classes(classroom, group, members)
    assert (live.title, live.code, live.asked, live.finished, live.guests) == (
        "Mardi", code, 3, True, 1
    )
    seen = {a.nickname: a for a in live.members}
    assert list(seen) == ["Ana", "Ben", "Chloé"]
    assert not seen["Chloé"].present
    assert (seen["Chloé"].answered, seen["Chloé"].kinds) == (0, ())
    for name, student in (("Ana", ana), ("Ben", ben)):
        right, cost, kinds = expected[student]
        line = seen[name]
        assert (line.present, line.answered, line.right) == (True, 3, right)
        assert line.cost == pytest.approx(cost)
        assert {k.category: k.missed for k in line.kinds} == kinds
        assert sum(k.cost for k in line.kinds) <= line.cost + 1e-9
    assert expected[ana][0] == 2  # the plan: two right, one wrong
    assert expected[ben][2]  # Ben made mistakes, of some kind

    follow = follow_up(homework, group, _steps, live_classes(classroom, group, members))
    t = translator("fr")
    columns = {name: values for name, values, _kind in class_columns(follow, t)}
    assert columns["Élève"] == ["Ana", "Ben", "Chloé"]
    assert columns["Présent"] == ["présent", "présent", "absent"]
    assert columns["Bonnes réponses"] == [expected[ana][0], expected[ben][0], None]
    kinds = {name: values for name, values, _kind in kind_columns(follow, t)}
    assert sum(v for v in kinds["Erreurs en classe"]) == sum(
        sum(expected[s][2].values()) for s in (ana, ben)
    )
    assert set(kinds["Élève"]) <= {"Ana", "Ben"}

    # The spreadsheet and the printable page say the same.
    from io import BytesIO

    from openpyxl import load_workbook

    from tutor.render.homework_reports import follow_up_html, follow_up_xlsx

    book = load_workbook(BytesIO(follow_up_xlsx(follow, t, lambda _id: None)))
    sheet = book["Classes en direct"]
    assert str(sheet["A1"].value).startswith("Devoirs de ")  # the group's title row
    read = {row[1]: row[2:] for row in sheet.iter_rows(min_row=3, values_only=True)}
    assert read["Ana"][:4] == ("présent", 3, 3, expected[ana][0])
    assert read["Ben"][4] == pytest.approx(expected[ben][1], abs=0.005)
    assert read["Chloé"][0] == "absent"
    page = follow_up_html(follow, t, lambda _id: None)
    assert "Classes en direct" in page
    assert "1 autre place" in page


def test_a_member_who_erases_their_data_leaves_the_class_record(
    rooms: tuple[Homework, Classroom],
) -> None:
    homework, classroom = rooms
    group, tokens = _group(homework)
    teacher, code = _class_for(classroom, group)
    ana = classroom.join(code, "Ana", learner_token=tokens["Ana"])
    ben = classroom.join(code, "Ben", learner_token=tokens["Ben"])
    _play(classroom, teacher, {ana: [True, True, False], ben: [True, False, False]})
    learner = homework.store.learner_for_token(tokens["Ben"])
    assert learner is not None
    homework.store.delete_learner(learner)
    members = homework.members(group)
    (live,) = live_classes(classroom, group, members)
    assert [a.nickname for a in live.members] == ["Ana", "Chloé"]
    assert live.guests == 1  # Ben's seat stays in the class, no longer anyone's in the group
    assert [a.present for a in live.members] == [True, False]


def test_a_class_expires_as_classes_do_and_a_group_that_goes_leaves_its_classes(
    rooms: tuple[Homework, Classroom], clock: Clock
) -> None:
    homework, classroom = rooms
    group, tokens = _group(homework)
    teacher, code = _class_for(classroom, group)
    ana = classroom.join(code, "Ana", learner_token=tokens["Ana"])
    _play(classroom, teacher, {ana: [True, True, True]})
    members = homework.members(group)
    assert len(live_classes(classroom, group, members)) == 1
    clock.now += CLASS_RETENTION
    assert live_classes(classroom, group, members) == ()

    teacher, code = _class_for(classroom, group)  # a new class keeps the group a term more
    homework.class_run(group)
    clock.now += RETENTION - timedelta(days=1)
    assert homework.purge_expired() == 0
    clock.now += timedelta(days=2)
    assert homework.purge_expired() == 1
    kept = classroom.records.session(code=code)
    assert kept is not None  # the class stays its teacher's, for nobody's group
    assert kept.group_id is None


def test_an_unstarted_class_is_not_in_the_record(rooms: tuple[Homework, Classroom]) -> None:
    homework, classroom = rooms
    group, _tokens = _group(homework)
    _class_for(classroom, group)
    assert live_classes(classroom, group, homework.members(group)) == ()


def test_wrong_group_keys_lock_out_their_guesser_and_never_the_teacher(
    rooms: tuple[Homework, Classroom], clock: Clock
) -> None:
    homework, _classroom = rooms
    teacher_token, stranger = new_token(), new_token()
    group, key = homework.create_group("2nde B", teacher_token)
    with pytest.raises(UnknownGroupError):
        homework.open_group(group.code, "WRONG-KEY-00000", learner_token=stranger)
    # Locked now, even with the right key: the next try waits out the lock unweighed.
    with pytest.raises(GroupKeyLockError) as locked:
        homework.open_group(group.code, key, learner_token=stranger)
    assert locked.value.params["seconds"] == 1
    # The teacher's other browser (or anyone else) is not locked by the stranger's guesses.
    assert homework.open_group(group.code, key, learner_token=new_token()) == group
    assert homework.open_group(group.code, key) == group  # the anonymous guesser neither
    clock.now += timedelta(seconds=1)
    with pytest.raises(UnknownGroupError):
        homework.open_group(group.code, "WRONG-KEY-00001", learner_token=stranger)
    clock.now += timedelta(seconds=1)  # the second failure locks for 2 s
    with pytest.raises(GroupKeyLockError):
        homework.open_group(group.code, key, learner_token=stranger)
    clock.now += timedelta(seconds=1)
    assert homework.open_group(group.code, key, learner_token=stranger) == group
    # A right key forgets the failures: the next wrong one locks for 1 s again.
    with pytest.raises(UnknownGroupError):
        homework.open_group(group.code, "WRONG-KEY-00002", learner_token=stranger)
    with pytest.raises(GroupKeyLockError) as again:
        homework.open_group(group.code, key, learner_token=stranger)
    assert again.value.params["seconds"] == 1


def test_guessing_group_codes_is_slowed_for_the_guesser_only(
    rooms: tuple[Homework, Classroom], clock: Clock
) -> None:
    homework, _classroom = rooms
    clock.now = clock.now.replace(second=0)
    group, key = homework.create_group("2nde B", new_token())
    guesser = new_token()
    for attempt in range(WRONG_CODES_PER_MINUTE["browser"]):
        with pytest.raises(UnknownGroupError):
            homework.join(f"ZZZZ{attempt:02d}", "Zed", guesser)
    with pytest.raises(TooManyTriesError):  # the real code too, this minute
        homework.join(group.code, "Zed", guesser)
    with pytest.raises(TooManyTriesError):  # opening by code and key counts alike
        homework.open_group(group.code, key, learner_token=guesser)
    assert homework.join(group.code, "Ana", new_token()).group_name == "2nde B"
    clock.now += timedelta(minutes=1)
    assert homework.join(group.code, "Zed", guesser).nickname == "Zed"

    # A cookie-less script is bound by its network client; a school behind the same address
    # joining with the right code is not counted at all.
    script = "203.0.113.7"
    for i in range(40):
        homework.join(group.code, f"Élève {i}", new_token(), client=script)
    for attempt in range(WRONG_CODES_PER_MINUTE["client"]):
        with pytest.raises(UnknownGroupError):
            homework.join(f"YYYY{attempt:02d}", "Bot", new_token(), client="203.0.113.9")
    with pytest.raises(TooManyTriesError):  # no browser that never failed: the address binds
        homework.open_group(group.code, key, client="203.0.113.9")
    assert homework.join(group.code, "Ben", new_token(), client="203.0.113.8").nickname == "Ben"


def test_the_due_date_is_a_date_cell_in_the_workbook(
    rooms: tuple[Homework, Classroom], clock: Clock
) -> None:
    """A teacher sorts and filters by it: a date, not the text « 14 décembre 2026 »."""
    from io import BytesIO

    from openpyxl import load_workbook

    from tutor.quiz_questions import Category
    from tutor.render.homework_reports import follow_up_xlsx

    homework, classroom = rooms
    group, _tokens = _group(homework)
    due = clock.now + timedelta(days=7)
    homework.give_drill(group, Category.PAIRS, 3, FAMILY, due)
    follow = follow_up(homework, group, _steps, live_classes(classroom, group, []))
    book = load_workbook(BytesIO(follow_up_xlsx(follow, translator("fr"), lambda _id: None)))
    for title in ("Par élève", "Pas commencé"):
        sheet = book[title]
        header = [cell.value for cell in sheet[2]]  # under the group's title row
        column = header.index("À rendre le")
        cells = [row[column] for row in sheet.iter_rows(min_row=3)]
        assert cells
        assert all(cell.is_date for cell in cells)
        assert {cell.value.date() for cell in cells} == {due.date()}
