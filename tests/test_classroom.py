"""Class mode: the life of a session, each security rule, and forty students at once.

The same tests run on SQLite and, when ``TUTOR_TEST_POSTGRES_URL`` is set (``.ci/run`` sets it),
on PostgreSQL.
"""

from __future__ import annotations

import itertools
import re
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from hypothesis import given
from hypothesis import strategies as hypothesis_st

import tutor.classroom.session as session_module
from tests.conftest import Clock
from tutor.classroom import (
    CODE_ALPHABET,
    CODE_LENGTH,
    CREATES_PER_MINUTE,
    JOINS_PER_MINUTE,
    KEY_LENGTH,
    MAX_LOCK,
    MAX_SEATS,
    PATTERN_LENGTH,
    RETENTION,
    SYMBOLS,
    UNSTARTED_RETENTION,
    WRONG_CODES_PER_MINUTE,
    WRONG_PATTERNS_PER_MINUTE,
    AlreadyAnsweredError,
    ClassFullError,
    ClassLockedError,
    ClassQuestion,
    Classroom,
    ExpiredSessionError,
    MovedOnError,
    NicknameTakenError,
    NotOpenError,
    NotYourClassError,
    PatternNeededError,
    Reveal,
    Seat,
    SessionFinishedError,
    SlowDownError,
    Student,
    TooManyClassesError,
    TooManyJoinsError,
    UnknownSessionError,
    UnknownStudentError,
    WrongKeyError,
    WrongPatternError,
    canonical_key,
    new_code,
    new_key,
)
from tutor.classroom.joinstep import pattern_matches, read_pattern, stored_pattern
from tutor.classroom.names import WORDS as NAME_WORDS
from tutor.classroom.names import every_name
from tutor.decision import Action, Grade
from tutor.identity import new_token, token_hash
from tutor.quiz_questions import Category
from tutor.rules import PRESETS
from tutor.store import (
    LEARNER_HASH_COLUMNS,
    InvalidNicknameError,
    Store,
    class_answers,
    class_key_attempts,
    class_questions,
    class_rate,
    class_sessions,
    class_students,
    metadata,
)

FAMILY = PRESETS["family"]
HANDS = [
    ClassQuestion.parse("10♠ 6♥", "10♣"),  # hard 16 against a ten: hit at the family table
    ClassQuestion.parse("8♠ 8♥", "10♦"),  # split
    ClassQuestion.parse("A♠ 7♥", "9♣"),  # soft 18 against 9: hit
]


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(2026, 11, 29, 9, 0, tzinfo=UTC))


@pytest.fixture
def classroom(migrated_database_url: str, clock: Clock) -> Iterator[Classroom]:
    store = Store(migrated_database_url)
    yield Classroom(store, clock=clock)
    store.close()


def test_a_full_session_from_creation_to_results(classroom: Classroom) -> None:
    info, key = classroom.create("Lundi 3e B", FAMILY, HANDS)
    assert len(info.code) == CODE_LENGTH
    assert info.current == -1
    teacher = classroom.open_as_teacher(info.code, key)
    ana = classroom.join(info.code, "Ana")
    ben = classroom.join(info.code.lower(), "Ben")  # codes are typed in any case
    assert classroom.student_view(ana).question is None  # nothing shown before the first
    classroom.next_question(teacher)
    view = classroom.student_view(ana)
    assert view.question == HANDS[0]
    assert set(view.legal) == {Action.HIT, Action.STAND, Action.DOUBLE}
    classroom.answer(ana, Action.HIT)
    classroom.answer(ben, Action.STAND)
    assert classroom.counts(teacher) == (2, 2)
    reveal = classroom.reveal(teacher)
    assert reveal.best is Action.HIT
    assert reveal.distribution == {Action.HIT: 1, Action.STAND: 1}
    assert reveal.judgement.evs[Action.HIT] > reveal.judgement.evs[Action.STAND]
    assert reveal.judgement.reason.key
    assert reveal.right == 1
    assert classroom.student_view(ana).best is Action.HIT
    assert classroom.student_view(ana).grade is Grade.RIGHT
    assert classroom.student_view(ben).grade is Grade.WRONG
    classroom.next_question(teacher)
    assert classroom.counts(teacher) == (0, 2)
    classroom.answer(ana, Action.SPLIT)
    classroom.reveal(teacher)
    classroom.finish(teacher)
    results = classroom.results(teacher)
    # Finished after 2 of its 3 hands: the results are about the 2 the class was shown.
    assert results.info.asked == 2
    frame = results.frame()
    assert len(frame) == 2 * 2
    ana_rows = frame[frame["student"] == "Ana"].set_index("question")
    assert ana_rows.loc[1, "correct"]
    assert ana_rows.loc[2, "correct"]
    ben_first = frame[(frame["student"] == "Ben") & (frame["question"] == 1)].iloc[0]
    assert not ben_first["correct"]
    assert ben_first["ev_lost"] > 0
    assert ben_first["cost"] == pytest.approx(2 * ben_first["ev_lost"])  # chips at a bet of 2
    assert [(r.student, r.number, r.answer) for r in results.rows if r.answer is None] == [
        ("Ben", 2, None)
    ]
    hardest = results.hardest()
    assert [q.number for q in hardest] == [1]  # the one Ben got wrong
    assert hardest[0].common_wrong is Action.STAND
    assert hardest[0].common_wrong_count == 1
    ben = next(s for s in results.students if s.nickname == "Ben")
    assert (ben.answers, ben.right, ben.missed) == (1, 0, [Category.HARD])
    assert [s.code for s in classroom.sessions()] == [info.code]


def test_join_codes_are_random_and_drawn_from_an_unambiguous_alphabet() -> None:
    codes = {new_code() for _ in range(2000)}
    # 2,000 draws from 887 million codes repeat one about once in 440 runs (the birthday bound,
    # 2000² / 2 / 887e6) and two in about 400,000: a weak generator repeats far more.
    assert len(codes) >= 1999
    assert all(set(code) <= set(CODE_ALPHABET) for code in codes)
    assert not set("O0I1L") & set(CODE_ALPHABET)


def test_an_unknown_code_is_refused(classroom: Classroom) -> None:
    with pytest.raises(UnknownSessionError):
        classroom.join("ZZZZZZ", "Ana")


def test_the_teacher_key_is_stored_only_as_a_slow_salted_hash(classroom: Classroom) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    other, _ = classroom.create("B", FAMILY, HANDS)
    with classroom.engine.connect() as db:
        stored = dict(db.execute(sa.text("SELECT code, key_hash FROM class_sessions")).all())
    assert key not in stored[info.code]
    assert stored[info.code].startswith("scrypt$")
    assert stored[info.code] != stored[other.code]  # salted
    # the same key hashed twice with different salts differs
    assert len({stored[info.code].split("$")[1], stored[other.code].split("$")[1]}) == 2


def test_teacher_pages_need_the_key(classroom: Classroom) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    with pytest.raises(WrongKeyError):
        classroom.open_as_teacher(info.code, key + "x")
    _, other_key = classroom.create("B", FAMILY, HANDS)
    with pytest.raises((WrongKeyError, SlowDownError)):
        classroom.open_as_teacher(info.code, other_key)  # another session's key opens nothing


def test_wrong_keys_are_slowed_down(classroom: Classroom, clock: Clock) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    with pytest.raises(WrongKeyError):
        classroom.open_as_teacher(info.code, "guess-1")
    with pytest.raises(SlowDownError):
        classroom.open_as_teacher(info.code, key)  # even the right key waits out the lock
    clock.now += timedelta(seconds=1.5)
    with pytest.raises(WrongKeyError):
        classroom.open_as_teacher(info.code, "guess-2")
    clock.now += timedelta(seconds=1.5)
    with pytest.raises(SlowDownError) as waited:
        classroom.open_as_teacher(info.code, "guess-3")  # the second lock lasts 2 s
    assert waited.value.params["seconds"] > 0
    clock.now += timedelta(seconds=1)
    assert classroom.open_as_teacher(info.code, key).code == info.code


def test_a_student_answers_each_question_once(classroom: Classroom) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    ana = classroom.join(info.code, "Ana")
    classroom.next_question(teacher)
    classroom.answer(ana, Action.HIT)
    with pytest.raises(AlreadyAnsweredError):
        classroom.answer(ana, Action.STAND)
    assert classroom.counts(teacher) == (1, 1)
    assert classroom.student_view(ana).answer is Action.HIT


def test_racing_clicks_count_once(classroom: Classroom) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    ana = classroom.join(info.code, "Ana")
    classroom.next_question(teacher)
    barrier = threading.Barrier(6)
    refused: list[Exception] = []

    def click() -> None:
        barrier.wait()
        try:
            classroom.answer(ana, Action.HIT)
        except AlreadyAnsweredError as error:
            refused.append(error)

    threads = [threading.Thread(target=click) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert classroom.counts(teacher) == (1, 1)
    assert len(refused) == 5


def test_no_answer_before_a_question_is_shown_or_after_the_reveal(classroom: Classroom) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    ana = classroom.join(info.code, "Ana")
    with pytest.raises(NotOpenError):
        classroom.answer(ana, Action.HIT)
    classroom.next_question(teacher)
    classroom.reveal(teacher)
    with pytest.raises(NotOpenError):
        classroom.answer(ana, Action.HIT)


def test_the_teacher_sees_the_question_on_screen(classroom: Classroom) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    assert classroom.question(teacher) is None  # nothing on screen before the first
    classroom.next_question(teacher)
    classroom.next_question(teacher)
    assert classroom.question(teacher) == HANDS[1]


def test_an_answer_to_a_question_already_left_is_refused(classroom: Classroom) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    ana = classroom.join(info.code, "Ana")
    classroom.next_question(teacher)
    classroom.next_question(teacher)  # the teacher moves on while Ana still sees question 1
    with pytest.raises(NotOpenError):
        classroom.answer(ana, Action.SPLIT, position=0)
    assert classroom.counts(teacher) == (0, 1)
    classroom.answer(ana, Action.SPLIT, position=1)
    assert classroom.counts(teacher) == (1, 1)


def test_a_student_never_sees_others_answers_or_the_right_play_before_the_reveal(
    classroom: Classroom,
) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    ana, ben = classroom.join(info.code, "Ana"), classroom.join(info.code, "Ben")
    classroom.next_question(teacher)
    classroom.answer(ben, Action.STAND)
    view = classroom.student_view(ana)
    assert view.answer is None  # Ben's answer is not Ana's
    assert view.best is None
    shown = set(vars(view))
    assert not shown & {"distribution", "evs", "answers", "students"}


def test_a_forged_student_token_is_refused(classroom: Classroom) -> None:
    info, _ = classroom.create("A", FAMILY, HANDS)
    ana = classroom.join(info.code, "Ana")
    from dataclasses import replace

    with pytest.raises(UnknownStudentError):
        classroom.answer(replace(ana, token="made-up"), Action.HIT)


def test_nicknames_are_limited_and_unique_in_a_session(classroom: Classroom) -> None:
    info, _ = classroom.create("A", FAMILY, HANDS)
    with pytest.raises(InvalidNicknameError):
        classroom.join(info.code, "<script>alert(1)</script>")
    with pytest.raises(InvalidNicknameError):
        classroom.join(info.code, "x" * 40)
    classroom.join(info.code, "Ana")
    with pytest.raises(NicknameTakenError):
        classroom.join(info.code, "Ana")


def test_a_finished_session_accepts_no_answers_and_no_newcomers(classroom: Classroom) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    ana = classroom.join(info.code, "Ana")
    classroom.next_question(teacher)
    classroom.finish(teacher)
    with pytest.raises(SessionFinishedError):
        classroom.answer(ana, Action.HIT)
    with pytest.raises(SessionFinishedError):
        classroom.join(info.code, "Ben")
    with pytest.raises(SessionFinishedError):
        classroom.next_question(teacher)


def test_a_hand_with_no_decision_cannot_be_asked(classroom: Classroom) -> None:
    with pytest.raises(ValueError, match="no decision"):
        classroom.create("A", FAMILY, [ClassQuestion.parse("10♠ 6♥ 5♦", "9♣")])


@pytest.mark.slow  # 800 answers from forty threads; the fast lane keeps the two-click races
def test_forty_students_answer_twenty_questions_with_nothing_lost_or_doubled(
    classroom: Classroom,
) -> None:
    questions = [HANDS[i % len(HANDS)] for i in range(20)]
    info, key = classroom.create("Load", FAMILY, questions)
    teacher = classroom.open_as_teacher(info.code, key)
    students = [classroom.join(info.code, f"Student {i}") for i in range(40)]
    errors: list[BaseException] = []
    for position in range(20):
        classroom.next_question(teacher)
        barrier = threading.Barrier(len(students))

        def answer(student_index: int, barrier: threading.Barrier = barrier) -> None:
            try:
                barrier.wait()
                student = students[student_index]
                action = Action.HIT if student_index % 2 else Action.STAND
                classroom.answer(student, action)
                # A second click from the same student must not count.
                with pytest.raises(AlreadyAnsweredError):
                    classroom.answer(student, action)
            except BaseException as error:  # collected, so a thread's failure fails the test
                errors.append(error)

        threads = [threading.Thread(target=answer, args=(i,)) for i in range(40)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert classroom.counts(teacher) == (40, 40)
        reveal = classroom.reveal(teacher)
        assert reveal.distribution == {Action.HIT: 20, Action.STAND: 20}, position
    results = classroom.results(teacher)
    assert len(results.rows) == 40 * 20
    assert all(row.answer is not None for row in results.rows)


def test_a_forged_answer_that_is_not_a_legal_play_is_refused(classroom: Classroom) -> None:
    from tutor.classroom import IllegalAnswerError

    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    ana = classroom.join(info.code, "Ana")
    classroom.next_question(teacher)  # 10-6 against a ten at the family table: no surrender
    with pytest.raises(IllegalAnswerError):
        classroom.answer(ana, Action.SURRENDER)
    with pytest.raises(IllegalAnswerError):
        classroom.answer(ana, Action.SPLIT)
    assert classroom.counts(teacher) == (0, 1)


def test_the_teacher_sees_who_joined_and_can_send_a_student_away(classroom: Classroom) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    classroom.join(info.code, "Ana")
    rude = classroom.join(info.code, "Bad Name")
    assert classroom.students(teacher) == ["Ana", "Bad Name"]
    classroom.next_question(teacher)
    classroom.answer(rude, Action.HIT)
    classroom.remove_student(teacher, "Bad Name")
    assert classroom.students(teacher) == ["Ana"]
    assert classroom.counts(teacher) == (0, 1)  # their answer went with them
    with pytest.raises(UnknownStudentError):
        classroom.answer(rude, Action.STAND)


# -- a student's device reloads: back in the same seat (issue 12) --


def test_a_reloaded_phone_rejoins_its_seat_with_its_name_and_answers(
    classroom: Classroom,
) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    learner = new_token()  # what the phone's browser keeps across reloads
    camille = classroom.join(info.code, "Camille Dupont", learner_token=learner)
    classroom.next_question(teacher)
    classroom.answer(camille, Action.HIT)

    back = classroom.rejoin(info.code, learner)  # the page reloads: nothing typed

    assert back is not None
    assert (back.id, back.nickname) == (camille.id, "Camille Dupont")
    assert back.token != camille.token
    assert classroom.student_view(back).answer is Action.HIT
    with pytest.raises(UnknownStudentError):
        classroom.student_view(camille)  # the old tab's token no longer holds the seat
    assert classroom.students(teacher) == ["Camille Dupont"]  # one student, not two
    assert classroom.roster(teacher) == [
        Seat("Camille Dupont", classroom.clock(), reconnections=1, answered=1)
    ]


def test_joining_again_from_the_same_browser_returns_the_seat_whatever_name_is_typed(
    classroom: Classroom,
) -> None:
    info, _ = classroom.create("A", FAMILY, HANDS)
    learner = new_token()
    first = classroom.join(info.code, "Camille Dupont", learner_token=learner)
    again = classroom.join(info.code, "Camille D", learner_token=learner)
    assert (again.id, again.nickname) == (first.id, "Camille Dupont")


def test_a_different_person_cannot_take_a_seated_name_in_another_case_or_accent(
    classroom: Classroom,
) -> None:
    info, _ = classroom.create("A", FAMILY, HANDS)
    classroom.join(info.code, "Camille Dupont", learner_token=new_token())
    for lookalike in ("CAMILLE dupont", "Camille  Dupönt", "Camille Dupont"):
        with pytest.raises(NicknameTakenError):
            classroom.join(info.code, lookalike, learner_token=new_token())
        with pytest.raises(NicknameTakenError):
            classroom.join(info.code, lookalike)  # nor a browser without a learner token
    assert classroom.join(info.code, "Camille Dupond", learner_token=new_token()).id


def test_a_seat_is_found_again_after_a_server_restart(database_url: str, clock: Clock) -> None:
    store = Store(database_url)
    classroom = Classroom(store, clock=clock)
    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    learners = [new_token() for _ in range(16)]
    for number, learner in enumerate(learners):
        classroom.join(info.code, f"Student {number}", learner_token=learner)
    classroom.next_question(teacher)
    store.close()  # the server stops; nothing of the class is kept in memory

    restarted = Classroom(Store(database_url), clock=clock)
    seats = [restarted.rejoin(info.code, learner) for learner in learners]
    assert [seat.nickname for seat in seats if seat is not None] == [
        f"Student {number}" for number in range(16)
    ]
    for seat in seats:
        assert seat is not None
        restarted.answer(seat, Action.STAND)
    teacher = restarted.open_as_teacher(info.code, key)
    assert restarted.counts(teacher) == (16, 16)
    restarted.store.close()


def test_rejoin_finds_no_seat_for_a_learner_who_never_joined_that_session(
    classroom: Classroom,
) -> None:
    info, _ = classroom.create("A", FAMILY, HANDS)
    other, _ = classroom.create("B", FAMILY, HANDS)
    learner = new_token()
    classroom.join(info.code, "Ana", learner_token=learner)
    assert classroom.rejoin(other.code, learner) is None  # a seat is in one session only
    assert classroom.rejoin(info.code, new_token()) is None
    with pytest.raises(UnknownSessionError):
        classroom.rejoin("ZZZZZZ", learner)


def test_a_phone_without_a_seat_asks_for_it_without_writing(classroom: Classroom) -> None:
    """Every phone that opens the join address asks for its seat, a class's phones together, and
    most hold none: the answer is read, not an update that waits for the database's one writer.
    A phone that holds a seat still gets a fresh token and a reconnection counted."""
    info, key = classroom.create("A", FAMILY, HANDS)
    learner = new_token()
    classroom.join(info.code, "Ana", learner_token=learner)
    said: list[str] = []
    sa.event.listen(
        classroom.engine,
        "before_cursor_execute",
        lambda _conn, _cursor, statement, *_rest: said.append(statement.split(None, 1)[0]),
    )
    assert classroom.rejoin(info.code, new_token()) is None
    assert not {"UPDATE", "INSERT", "DELETE"} & set(said), said
    back = classroom.rejoin(info.code, learner)
    assert back is not None
    assert back.nickname == "Ana"
    assert "UPDATE" in said
    teacher = classroom.open_as_teacher(info.code, key)
    assert [seat.reconnections for seat in classroom.roster(teacher)] == [1]


def test_a_student_sent_away_does_not_come_back_by_reloading(classroom: Classroom) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    learner = new_token()
    classroom.join(info.code, "Bad Name", learner_token=learner)
    classroom.remove_student(teacher, "Bad Name")
    assert classroom.rejoin(info.code, learner) is None


def test_a_finished_session_takes_its_students_back_but_no_newcomer(
    classroom: Classroom,
) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    learner = new_token()
    ana = classroom.join(info.code, "Ana", learner_token=learner)
    classroom.finish(teacher)
    back = classroom.rejoin(info.code, learner)
    assert back is not None
    assert back.id == ana.id
    assert classroom.student_view(back).finished
    with pytest.raises(SessionFinishedError):
        classroom.join(info.code, "Ben", learner_token=new_token())


def test_a_seat_keeps_only_the_hash_of_the_learner_token(classroom: Classroom) -> None:
    info, _ = classroom.create("A", FAMILY, HANDS)
    learner = new_token()
    classroom.join(info.code, "Ana", learner_token=learner)
    with classroom.engine.connect() as db:
        row = db.execute(sa.text("SELECT * FROM class_students")).one()
    assert token_hash(learner) in tuple(row)
    assert not any(learner in str(value) for value in row)


def test_two_tabs_of_one_browser_joining_at_once_share_one_seat(classroom: Classroom) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    learner = new_token()
    barrier = threading.Barrier(4)
    seats: list[int] = []

    def join() -> None:
        barrier.wait()
        seats.append(classroom.join(info.code, "Ana", learner_token=learner).id)

    threads = [threading.Thread(target=join) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(seats) == 4
    assert len(set(seats)) == 1
    assert [seat.nickname for seat in classroom.roster(teacher)] == ["Ana"]


def test_erasing_a_learner_unlinks_their_seat_but_leaves_the_class_results(
    classroom: Classroom,
) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    token = new_token()
    learner = classroom.store.learner_for_token(token)
    assert learner is not None
    ana = classroom.join(info.code, "Ana", learner_token=token)
    classroom.next_question(teacher)
    classroom.answer(ana, Action.HIT)
    exported = classroom.store.export(learner)
    assert exported["class_seats"][0]["nickname"] == "Ana"
    assert exported["class_seats"][0]["answers"][0]["action"] == "hit"

    classroom.store.delete_learner(learner)

    assert classroom.rejoin(info.code, token) is None  # nothing leads from them to the seat
    assert classroom.roster(teacher)[0].answered == 1  # the teacher's class keeps the answer


# -- issue 14: teacher access nobody else can deny, joins limited, expiry, races --


def _race(*calls: Callable[[], object]) -> list[object]:
    """Run ``calls`` at once (released together by a barrier); each one's result or exception."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[object] = [None] * len(calls)

    def run(index: int) -> None:
        barrier.wait()
        try:
            outcomes[index] = calls[index]()
        except Exception as error:  # collected: the test reads what each call met
            outcomes[index] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def _failures(classroom: Classroom, session_id: int) -> int:
    with classroom.engine.connect() as db:
        return int(
            db.execute(
                sa.select(sa.func.coalesce(sa.func.sum(class_key_attempts.c.failed), 0)).where(
                    class_key_attempts.c.session_id == session_id
                )
            ).scalar_one()
        )


def test_a_strangers_wrong_keys_lock_the_stranger_out_never_the_teacher(
    classroom: Classroom, clock: Clock
) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    stranger, teacher_browser = new_token(), new_token()
    for _ in range(5):  # a guess each time the stranger's lock runs out
        with pytest.raises(WrongKeyError):
            classroom.open_as_teacher(info.code, "guess", learner_token=stranger)
        with pytest.raises(SlowDownError):
            classroom.open_as_teacher(info.code, key, learner_token=stranger)
        # the teacher, in their own browser, is let in at once
        assert classroom.open_as_teacher(info.code, key, learner_token=teacher_browser)
        clock.now += timedelta(seconds=61)


@pytest.mark.slow  # a hundred keys weighed by scrypt, slow on purpose
def test_a_hundred_wrong_keys_never_overflow_the_lock(classroom: Classroom, clock: Clock) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    guesser = new_token()
    for failure in range(1, 101):
        with pytest.raises(WrongKeyError) as refused:
            classroom.open_as_teacher(info.code, f"guess-{failure}", learner_token=guesser)
        assert refused.value.params["failures"] == failure
        with pytest.raises(SlowDownError) as slowed:  # still locked, however many failures
            classroom.open_as_teacher(info.code, "again", learner_token=guesser)
        assert 0 < float(slowed.value.params["seconds"]) <= MAX_LOCK.total_seconds()  # type: ignore[arg-type]
        clock.now += MAX_LOCK + timedelta(seconds=1)
    assert classroom.open_as_teacher(info.code, key, learner_token=guesser).code == info.code


@pytest.mark.usefixtures("real_scrypt")  # the hash as slow as the app's: the race's window
def test_parallel_wrong_keys_take_one_turn_and_only_it_is_weighed(
    classroom: Classroom, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Thirty guesses sent at once by one guesser: the lock applies before any key is hashed,
    so one of them is weighed (scrypt, the slow part) and counted, and the others wait it out."""
    info, _ = classroom.create("A", FAMILY, HANDS)
    guesser = new_token()
    weighed: list[str] = []
    real_matches = session_module.key_matches

    def counting_matches(key: str, stored: str) -> bool:
        weighed.append(key)
        return real_matches(key, stored)

    monkeypatch.setattr(session_module, "key_matches", counting_matches)
    outcomes = _race(
        *(
            lambda i=i: classroom.open_as_teacher(info.code, f"guess-{i}", learner_token=guesser)
            for i in range(30)
        )
    )
    wrong = [o for o in outcomes if isinstance(o, WrongKeyError)]
    assert all(isinstance(o, WrongKeyError | SlowDownError) for o in outcomes), outcomes
    assert len(wrong) == 1  # one turn...
    assert len(weighed) == 1  # ...and one slow hash
    assert wrong[0].params["failures"] == 1
    assert _failures(classroom, info.id) == 1  # every try past the lock is refused, not counted


def test_a_right_key_after_the_lock_forgets_the_failures(
    classroom: Classroom, clock: Clock
) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    guesser = new_token()
    with pytest.raises(WrongKeyError):
        classroom.open_as_teacher(info.code, "guess", learner_token=guesser)
    clock.now += timedelta(seconds=2)
    assert classroom.open_as_teacher(info.code, key, learner_token=guesser)
    assert _failures(classroom, info.id) == 0
    with pytest.raises(WrongKeyError) as refused:  # a new failure starts the count afresh
        classroom.open_as_teacher(info.code, "guess", learner_token=guesser)
    assert refused.value.params["failures"] == 1


def test_joining_is_limited_per_browser(classroom: Classroom, clock: Clock) -> None:
    info, _ = classroom.create("A", FAMILY, HANDS)
    bot = new_token()
    for _ in range(JOINS_PER_MINUTE["browser"]):
        classroom.join(info.code, "Bot", learner_token=bot)
    with pytest.raises(TooManyJoinsError) as slowed:
        classroom.join(info.code, "Bot", learner_token=bot)
    assert 0 < int(slowed.value.params["seconds"]) <= 60  # type: ignore[call-overload]
    classroom.join(info.code, "Ana", learner_token=new_token())  # other browsers still join
    clock.now += timedelta(minutes=1)
    assert classroom.join(info.code, "Bot", learner_token=bot).nickname == "Bot"


def _seated_or_refused(join: Callable[[], object]) -> bool:
    """Whether a join took a seat (``False``: refused for going too fast)."""
    try:
        join()
    except TooManyJoinsError:
        return False
    return True


def test_wrong_codes_are_counted_per_browser(classroom: Classroom, clock: Clock) -> None:
    clock.now = clock.now.replace(second=0)
    info, _ = classroom.create("A", FAMILY, HANDS)
    guesser = new_token()
    for i in range(WRONG_CODES_PER_MINUTE["browser"]):
        with pytest.raises(UnknownSessionError):
            classroom.join(f"ZZZZ{i:02d}", "Bot", learner_token=guesser)
    with pytest.raises(TooManyJoinsError) as slowed:  # the right code too: not looked up
        classroom.join(info.code, "Bot", learner_token=guesser)
    assert int(slowed.value.params["seconds"]) == 60  # type: ignore[call-overload]
    classroom.join(info.code, "Ana", learner_token=new_token())  # other browsers still join
    clock.now += timedelta(minutes=1)
    assert classroom.join(info.code, "Bot", learner_token=guesser).nickname == "Bot"


def test_wrong_codes_from_one_address_refuse_only_its_guessers(
    classroom: Classroom, clock: Clock
) -> None:
    """Past its address's wrong codes, a cookie-less script and a browser that failed are
    refused before any lookup; a student's first try from that address is still looked up."""
    clock.now = clock.now.replace(second=0)
    info, _ = classroom.create("Amphi", FAMILY, HANDS)
    bots = "203.0.113.7"
    failed = new_token()
    with pytest.raises(UnknownSessionError):
        classroom.join("ZZZZZZ", "Typo", learner_token=failed, client=bots)
    for i in range(WRONG_CODES_PER_MINUTE["client"] - 1):
        with pytest.raises(UnknownSessionError):
            classroom.join(f"YY{i:04d}", "Bot", client=bots)
    with pytest.raises(TooManyJoinsError):  # no browser named: the address is all it is
        classroom.join(info.code, "Bot", client=bots)
    with pytest.raises(TooManyJoinsError):  # a browser that failed this minute is a guesser
        classroom.join(info.code, "Typo", learner_token=failed, client=bots)
    # A browser's first try is looked up: a wrong code is said (and counted), a right one seats.
    with pytest.raises(UnknownSessionError):
        classroom.join("ZZZZZZ", "Ben", learner_token=new_token(), client=bots)
    assert classroom.join(info.code, "Ana", learner_token=new_token(), client=bots)
    clock.now += timedelta(minutes=1)  # the address's next minute
    with pytest.raises(UnknownSessionError):
        classroom.join("ZZZZZZ", "Bot", client=bots)


def test_an_ipv6_client_is_its_whole_network(classroom: Classroom, clock: Clock) -> None:
    clock.now = clock.now.replace(second=0)
    info, _ = classroom.create("Amphi", FAMILY, HANDS)
    for i in range(WRONG_CODES_PER_MINUTE["client"]):  # a new address of its /64 at each try
        with pytest.raises(UnknownSessionError):
            classroom.join(f"YY{i:04d}", "Bot", client=f"2001:db8:1:2::{i + 1:x}")
    with pytest.raises(TooManyJoinsError):
        classroom.join(info.code, "Bot", client="2001:db8:1:2:ffff::1")
    classroom.join(info.code, "Ana", client="2001:db8:1:3::1")  # the next network is another


@pytest.mark.slow  # every seat of a class joined; the fast lane keeps the parallel joins
def test_a_lecture_hall_of_distinct_phones_is_seated_within_a_minute(
    classroom: Classroom,
) -> None:
    info, key = classroom.create("Amphi", FAMILY, HANDS)
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=10) as pool:  # phones arriving together
        outcomes = list(
            pool.map(
                lambda i: classroom.join(
                    info.code,
                    f"Student {i}",
                    learner_token=new_token(),
                    client=f"10.1.{i // 200}.{i % 200 + 1}",
                ),
                range(MAX_SEATS),
            )
        )
    elapsed = time.monotonic() - started
    assert elapsed < 60, f"{MAX_SEATS} joins took {elapsed:.1f} s"
    assert all(isinstance(seat, Student) for seat in outcomes)  # none refused
    teacher = classroom.open_as_teacher(info.code, key)
    assert len(classroom.students(teacher)) == MAX_SEATS  # all seated, in the same minute
    assert JOINS_PER_MINUTE["class"] >= 2 * MAX_SEATS  # room for a retry each, as well


def test_the_class_bucket_bounds_a_flood_from_many_clients(
    classroom: Classroom, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(JOINS_PER_MINUTE, "class", 30)  # the bucket's rule, at a small scale
    info, _ = classroom.create("B", FAMILY, HANDS)
    for i in range(30):
        classroom.join(info.code, f"S{i}", client=f"10.2.0.{i + 1}")
    with pytest.raises(TooManyJoinsError):
        classroom.join(info.code, "One too many", client="10.2.1.1")


def test_parallel_joins_all_count(classroom: Classroom) -> None:
    info, _ = classroom.create("A", FAMILY, HANDS)
    bot = new_token()
    outcomes = _race(
        *(lambda: classroom.join(info.code, "Bot", learner_token=bot) for _ in range(20))
    )
    refused = [o for o in outcomes if isinstance(o, TooManyJoinsError)]
    assert len(refused) == 20 - JOINS_PER_MINUTE["browser"], outcomes


def test_a_class_expires_after_its_retention(classroom: Classroom, clock: Clock) -> None:
    info, key = classroom.create("Old", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    ana = classroom.join(info.code, "Ana")
    classroom.next_question(teacher, expected_position=-1)
    classroom.answer(ana, Action.HIT)
    assert info.expires_at == info.created_at + RETENTION == clock.now + timedelta(days=30)
    clock.now += RETENTION - timedelta(seconds=1)
    assert classroom.info(info.code).title == "Old"  # kept until the last second
    clock.now += timedelta(seconds=1)
    with pytest.raises(ExpiredSessionError) as expired:
        classroom.info(info.code)
    assert expired.value.params["days"] == 30
    with pytest.raises(UnknownSessionError):
        classroom.open_as_teacher(info.code, key)
    with pytest.raises(UnknownSessionError):
        classroom.join(info.code, "Ben")
    assert classroom.sessions() == []
    classroom.create("New", FAMILY, HANDS)  # creating a class deletes the expired ones
    with classroom.engine.connect() as db:
        for table in (class_sessions, class_students, class_answers):
            assert db.execute(sa.select(sa.func.count()).select_from(table)).scalar_one() in (
                0,
                1,
            )
        assert db.execute(sa.select(class_sessions.c.title)).scalars().all() == ["New"]
        assert db.execute(sa.select(sa.func.count()).select_from(class_answers)).scalar_one() == 0


def test_two_next_clicks_at_once_move_on_one_question(classroom: Classroom) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    for position in (-1, 0, 1):
        outcomes = _race(
            *(
                lambda p=position: classroom.next_question(teacher, expected_position=p)
                for _ in range(4)
            )
        )
        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        assert classroom.info(info.code).current == position + 1  # never skipped


@pytest.mark.slow  # ten classes raced; the fast lane keeps the two next clicks at once
def test_a_reveal_racing_a_next_never_reveals_a_question_nobody_saw(
    classroom: Classroom,
) -> None:
    for _ in range(10):
        info, key = classroom.create("A", FAMILY, HANDS)
        teacher = classroom.open_as_teacher(info.code, key)
        classroom.next_question(teacher, expected_position=-1)
        outcomes = _race(
            lambda t=teacher: classroom.reveal(t, expected_position=0),
            lambda t=teacher: classroom.next_question(t, expected_position=0),
        )
        after = classroom.info(info.code)
        assert after.current == 1
        assert not after.revealed, outcomes  # question 2 is open, not revealed
        assert isinstance(outcomes[0], Reveal | MovedOnError), outcomes


def test_a_stale_reveal_or_finish_does_nothing(classroom: Classroom) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    classroom.next_question(teacher, expected_position=-1)
    first = classroom.reveal(teacher, expected_position=0)
    assert classroom.reveal(teacher, expected_position=0) == first  # a double click
    classroom.next_question(teacher, expected_position=0)
    with pytest.raises(MovedOnError):
        classroom.reveal(teacher, expected_position=0)
    assert not classroom.info(info.code).revealed
    assert not classroom.finish(teacher, expected_position=0).is_finished
    assert classroom.finish(teacher, expected_position=1).is_finished


def test_every_answer_stored_while_the_reveal_races_is_in_the_chart(classroom: Classroom) -> None:
    questions = [HANDS[0]] * 5
    info, key = classroom.create("A", FAMILY, questions)
    teacher = classroom.open_as_teacher(info.code, key)
    students = [classroom.join(info.code, f"S{i}") for i in range(30)]
    for position in range(len(questions)):
        classroom.next_question(teacher, expected_position=position - 1)
        outcomes = _race(
            *(
                lambda s=s, p=position: classroom.answer(s, Action.HIT, position=p)
                for s in students[:-1]
            ),
            lambda p=position: classroom.reveal(teacher, expected_position=p),
        )
        reveal = outcomes[-1]
        assert isinstance(reveal, Reveal), outcomes
        stored = sum(1 for o in outcomes[:-1] if o is None)
        refused = [o for o in outcomes[:-1] if o is not None]
        assert all(isinstance(o, NotOpenError) for o in refused), refused
        with classroom.engine.connect() as db:
            in_database = db.execute(
                sa.select(sa.func.count())
                .select_from(class_answers.join(class_questions))
                .where(
                    (class_questions.c.session_id == info.id)
                    & (class_questions.c.position == position)
                )
            ).scalar_one()
        assert reveal.answered == stored == in_database, (position, reveal.answered, stored)
        with pytest.raises(NotOpenError):  # and nothing is stored after the reveal
            classroom.answer(students[-1], Action.HIT, position=position)


@pytest.mark.parametrize(
    ("nickname", "code"),
    [
        ("\u0410na", "mixed-scripts"),  # a Cyrillic A
        ("Ana\u03bf", "mixed-scripts"),  # a Greek omicron
        ("\uff21\uff4e\uff41", "compatibility"),  # full-width Ana
        ("\U0001d400na", "compatibility"),  # mathematical bold A
        ("\u3164", "invisible"),  # Hangul filler
        ("Ana\u200b", "invisible"),  # zero-width space
        ("A\u200dna", "invisible"),  # zero-width joiner
        ("Ana\u202e", "invisible"),  # right-to-left override
    ],
)
def test_look_alike_and_invisible_nicknames_are_refused_with_a_reason(
    classroom: Classroom, nickname: str, code: str
) -> None:
    info, _ = classroom.create("A", FAMILY, HANDS)
    classroom.join(info.code, "Ana")
    with pytest.raises(InvalidNicknameError) as refused:
        classroom.join(info.code, nickname)
    assert refused.value.code == code
    assert classroom.students(classroom.open_as_teacher(info.code, _)) == ["Ana"]


def test_creating_classes_is_limited_per_browser(classroom: Classroom, clock: Clock) -> None:
    teacher = new_token()
    for _ in range(CREATES_PER_MINUTE["browser"]):
        classroom.create("Essai", FAMILY, HANDS, learner_token=teacher)
    with pytest.raises(TooManyClassesError) as slowed:
        classroom.create("Essai", FAMILY, HANDS, learner_token=teacher)
    assert 0 < int(slowed.value.params["seconds"]) <= 60  # type: ignore[call-overload]
    classroom.create("Other teacher", FAMILY, HANDS, learner_token=new_token())
    clock.now += timedelta(minutes=1)
    classroom.create("Next minute", FAMILY, HANDS, learner_token=teacher)


def test_a_flood_of_classes_from_one_client_never_refuses_a_teacher_on_another(
    classroom: Classroom, clock: Clock
) -> None:
    bots = "203.0.113.9"
    made = 0
    for _ in range(2 * CREATES_PER_MINUTE["client"] + 1):  # a fresh browser each time
        try:
            classroom.create("Bot", FAMILY, HANDS, learner_token=new_token(), client=bots)
        except TooManyClassesError:
            continue
        made += 1
    assert made == CREATES_PER_MINUTE["client"]
    # The same minute, a teacher elsewhere: no server-wide bucket to have been filled.
    info, _ = classroom.create(
        "Cours", FAMILY, HANDS, learner_token=new_token(), client="198.51.100.20"
    )
    assert info.title == "Cours"
    with classroom.engine.connect() as db:
        stored = db.execute(sa.select(sa.func.count()).select_from(class_sessions)).scalar_one()
    assert stored == CREATES_PER_MINUTE["client"] + 1


def test_a_class_never_started_expires_within_hours(classroom: Classroom, clock: Clock) -> None:
    mine = new_token()
    idle, _ = classroom.create("Never started", FAMILY, HANDS, learner_token=mine)
    used, key = classroom.create("Started", FAMILY, HANDS, learner_token=mine)
    classroom.next_question(classroom.open_as_teacher(used.code, key), expected_position=-1)
    ended, key = classroom.create("Ended", FAMILY, HANDS, learner_token=mine)
    classroom.finish(classroom.open_as_teacher(ended.code, key))  # the teacher's own decision
    clock.now += UNSTARTED_RETENTION - timedelta(seconds=1)
    assert classroom.info(idle.code).title == "Never started"  # the afternoon's class is there
    clock.now += timedelta(seconds=1)
    with pytest.raises(ExpiredSessionError) as expired:
        classroom.info(idle.code)
    assert expired.value.params["hours"] == UNSTARTED_RETENTION.total_seconds() // 3600 <= 24
    assert sorted(info.title for info in classroom.classes_of(mine)) == ["Ended", "Started"]
    assert sorted(info.title for info in classroom.sessions()) == ["Ended", "Started"]
    classroom.create("New", FAMILY, HANDS)  # creating a class deletes the expired ones
    with classroom.engine.connect() as db:
        titles = db.execute(sa.select(class_sessions.c.title)).scalars().all()
    assert sorted(titles) == ["Ended", "New", "Started"]


def test_a_class_seats_a_bounded_number_of_students(
    classroom: Classroom, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tutor.classroom.session.MAX_SEATS", 3)
    info, _ = classroom.create("Small room", FAMILY, HANDS)
    browsers = [new_token() for _ in range(3)]
    for name, browser in zip("ABC", browsers, strict=True):
        classroom.join(info.code, name, learner_token=browser)
    with pytest.raises(ClassFullError) as full:
        classroom.join(info.code, "D", learner_token=new_token())
    assert full.value.params["seats"] == 3
    # A seated student's reload still finds their seat in a full class.
    assert classroom.join(info.code, "A again", learner_token=browsers[0]).nickname == "A"


def test_old_rate_counts_are_deleted_without_any_class_being_created(
    classroom: Classroom, clock: Clock
) -> None:
    info, _ = classroom.create("A", FAMILY, HANDS)
    for i in range(5):
        classroom.join(info.code, f"S{i}", learner_token=new_token())
    clock.now += timedelta(hours=2)
    classroom.join(info.code, "Late", learner_token=new_token())
    with classroom.engine.connect() as db:
        windows = set(db.execute(sa.select(class_rate.c.window_start)).scalars())
    assert windows
    assert all(
        window.replace(tzinfo=UTC) > clock.now - timedelta(hours=1) for window in windows
    )


def test_a_teacher_key_survives_being_copied_by_hand(classroom: Classroom) -> None:
    """Keys use Crockford's alphabet in groups of five: no I, L, O or U to confuse with 1 or 0,
    any case, and hyphens or spaces as the teacher likes; the look-alikes read as what they
    look like, so a key copied onto paper and typed back opens the class."""
    info, key = classroom.create("Copie", FAMILY, HANDS)
    assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){2}", key)
    assert not set("ILOU") & set(key)
    bare = key.replace("-", "")
    copies = [
        key.lower(),
        " ".join(key.split("-")),
        bare,
        bare.replace("0", "O").replace("1", "l"),  # a 0 read as O, a 1 as a lower-case L
    ]
    for copy in copies:
        assert classroom.open_as_teacher(info.code, copy).session_id == info.id, copy
    wrong = bare[:-1] + ("0" if bare[-1] != "0" else "1")
    with pytest.raises(WrongKeyError):
        classroom.open_as_teacher(info.code, wrong)


def test_keys_keep_their_strength() -> None:
    """15 characters of 32: 75 random bits, more than the 72 of the keys before them."""
    assert KEY_LENGTH * 5 >= 72
    keys = {new_key() for _ in range(500)}
    assert len(keys) == 500
    assert all(len(canonical_key(key)) == KEY_LENGTH for key in keys)


def test_a_class_made_before_the_new_keys_still_opens_with_its_old_key(
    classroom: Classroom,
) -> None:
    from tutor.classroom.access import hash_key

    info, _ = classroom.create("Ancienne", FAMILY, HANDS)
    old_key = "qivplEmNR9of"  # an older key, as token_urlsafe wrote them
    with classroom.engine.begin() as db:
        db.execute(
            class_sessions.update()
            .where(class_sessions.c.id == info.id)
            .values(key_hash=hash_key(old_key))
        )
    assert classroom.open_as_teacher(info.code, f" {old_key} ").session_id == info.id
    with pytest.raises(WrongKeyError):
        classroom.open_as_teacher(info.code, old_key.upper())


def test_a_browser_finds_and_reopens_its_own_classes_without_the_key(
    classroom: Classroom, clock: Clock
) -> None:
    mine, theirs = new_token(), new_token()
    first, _ = classroom.create("Lundi", FAMILY, HANDS, learner_token=mine)
    clock.now += timedelta(minutes=5)
    second, _ = classroom.create("Mardi", FAMILY, HANDS, learner_token=mine)
    other, _ = classroom.create("Leur classe", FAMILY, HANDS, learner_token=theirs)
    assert [c.code for c in classroom.classes_of(mine)] == [second.code, first.code]
    assert [c.code for c in classroom.classes_of(theirs)] == [other.code]
    assert classroom.open_own(first.code, mine).session_id == first.id
    with pytest.raises(NotYourClassError):
        classroom.open_own(other.code, mine)
    clock.now += RETENTION
    assert classroom.classes_of(mine) == []  # expired classes are not offered


def _statements(classroom: Classroom) -> Callable[[], int]:
    """A counter of the SQL statements the classroom's engine runs from now on."""
    seen = [0]

    def count(*_args: object) -> None:
        seen[0] += 1

    sa.event.listen(classroom.engine, "before_cursor_execute", count)
    return lambda: seen[0]


def test_forty_phones_polling_cost_the_database_a_few_reads_not_forty(
    database_url: str, clock: Clock
) -> None:
    """Every phone polls ``student_view`` every two seconds: the reads are shared by the phones
    of one process for a tick, so forty polls cost what one does (O(processes), not O(phones))."""
    store = Store(database_url)
    try:
        room = Classroom(store, clock=clock, tick=60.0)  # a tick longer than the test
        info, key = room.create("Quarante", FAMILY, HANDS)
        teacher = room.open_as_teacher(info.code, key)
        students = [room.join(info.code, f"S{i}", learner_token=new_token()) for i in range(40)]
        room.next_question(teacher)
        statements = _statements(room)
        views = [room.student_view(student) for student in students]
        assert {view.position for view in views} == {0}
        one_poll_each = statements()
        assert one_poll_each <= 4, one_poll_each  # session, seats, question, answers: once
        # An answer is seen by its own phone at once (this process forgets what it changed)...
        room.answer(students[0], Action.HIT)
        assert room.student_view(students[0]).answer is Action.HIT
        # ...and the next polls of everyone share one read again.
        before = statements()
        for student in students:
            room.student_view(student)
        assert statements() - before <= 4
        room.reveal(teacher)
        assert room.student_view(students[1]).best is Action.HIT  # the reveal reaches them
        # A student sent away loses the seat at once in this process.
        room.remove_student(teacher, "S2")
        with pytest.raises(UnknownStudentError):
            room.student_view(students[2])
    finally:
        store.close()


def test_without_sharing_each_poll_reads_for_itself(database_url: str, clock: Clock) -> None:
    """The same polls with no tick (``tick=0``): the count grows with the phones, which is what
    the sharing saves."""
    store = Store(database_url)
    try:
        room = Classroom(store, clock=clock, tick=0)
        info, key = room.create("Quarante", FAMILY, HANDS)
        teacher = room.open_as_teacher(info.code, key)
        students = [room.join(info.code, f"S{i}", learner_token=new_token()) for i in range(10)]
        room.next_question(teacher)
        statements = _statements(room)
        for student in students:
            room.student_view(student)
        assert statements() >= 10 * 4
    finally:
        store.close()


# -- issue 25: the teacher is in charge of the room (a lock, several names removed at once) --


def test_a_locked_class_refuses_a_new_name_and_seats_a_returning_student(
    classroom: Classroom,
) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    ana_token = new_token()
    ana = classroom.join(info.code, "Ana", learner_token=ana_token)
    assert classroom.lock(teacher).locked
    assert classroom.info(info.code).locked
    with pytest.raises(ClassLockedError):
        classroom.join(info.code, "Ben", learner_token=new_token())
    with pytest.raises(ClassLockedError):
        classroom.join(info.code, "Ben")  # a script with no cookie and no address alike
    # Ana's phone reloads (the address's code), or she types the code again under any name.
    back = classroom.rejoin(info.code, ana_token)
    assert back is not None
    assert (back.id, back.nickname) == (ana.id, "Ana")
    again = classroom.join(info.code, "Another name", learner_token=ana_token)
    assert (again.id, again.nickname) == (ana.id, "Ana")
    assert classroom.students(teacher) == ["Ana"]
    assert classroom.student_view(again).title == "A"  # the latest device holds the seat


def test_a_locked_class_is_said_locked_before_the_nickname_is_judged(
    classroom: Classroom,
) -> None:
    """A latecomer learns the class is closed, not that their name has a bad character."""
    info, key = classroom.create("A", FAMILY, HANDS)
    classroom.lock(classroom.open_as_teacher(info.code, key))
    with pytest.raises(ClassLockedError):
        classroom.join(info.code, "<b>bold</b>")


def test_a_removed_student_cannot_come_back_under_a_new_name_while_the_class_is_locked(
    classroom: Classroom,
) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    rude_token = new_token()
    classroom.join(info.code, "Ana", learner_token=new_token())
    classroom.join(info.code, "Rude Name", learner_token=rude_token)
    classroom.lock(teacher)
    assert classroom.remove_students(teacher, ["Rude Name"]) == ["Rude Name"]
    assert classroom.rejoin(info.code, rude_token) is None  # no seat to come back to
    with pytest.raises(ClassLockedError):
        classroom.join(info.code, "Nice Name", learner_token=rude_token)
    with pytest.raises(ClassLockedError):
        classroom.join(info.code, "Nice Name", learner_token=new_token())  # a fresh browser
    assert classroom.students(teacher) == ["Ana"]


def test_unlocking_seats_new_names_again(classroom: Classroom) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    classroom.lock(teacher)
    with pytest.raises(ClassLockedError):
        classroom.join(info.code, "Ben")
    assert not classroom.lock(teacher, locked=False).locked
    ben = classroom.join(info.code, "Ben")
    assert classroom.students(teacher) == ["Ben"]
    classroom.lock(teacher)  # a lock mid-question keeps the seated class playing
    classroom.next_question(teacher)
    classroom.answer(ben, Action.HIT)
    assert classroom.counts(teacher) == (1, 1)


def test_a_join_racing_the_lock_is_seated_before_it_or_refused_after_it(
    database_url: str, clock: Clock
) -> None:
    """Thirty phones join while the teacher clicks the lock: once the click has returned, the
    roster the teacher reads is final. Every phone is either in it or refused as locked, and no
    seat appears afterwards (a check outside the seat's insert lets the late ones in)."""
    store = Store(database_url)
    try:
        room = Classroom(store, clock=clock)
        info, key = room.create("A", FAMILY, HANDS)
        teacher = room.open_as_teacher(info.code, key)
        phones = 30
        barrier = threading.Barrier(phones + 1)
        seen: list[list[str]] = []

        def join(index: int) -> str | None:
            barrier.wait()
            try:
                return room.join(info.code, f"S{index}").nickname
            except ClassLockedError:
                return None

        def lock() -> None:
            barrier.wait()
            time.sleep(0.01)  # some phones are through the door, some are at it
            room.lock(teacher)
            seen.append(room.students(teacher))

        with ThreadPoolExecutor(phones + 1) as pool:
            locking = pool.submit(lock)
            joins = [pool.submit(join, index) for index in range(phones)]
            outcomes = [future.result() for future in joins]
            locking.result()
        seated = {name for name in outcomes if name is not None}
        assert set(room.students(teacher)) == seated == set(seen[0])
        with pytest.raises(ClassLockedError):
            room.join(info.code, "Late")
    finally:
        store.close()


def test_several_students_are_removed_at_once_with_their_answers_and_devices(
    classroom: Classroom,
) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    ana = classroom.join(info.code, "Ana")
    bots = [classroom.join(info.code, name) for name in ("Bot 1", "Bot 2", "Bot 3")]
    classroom.next_question(teacher)
    classroom.answer(ana, Action.HIT)
    for bot in bots:
        classroom.answer(bot, Action.STAND)
    assert classroom.counts(teacher) == (4, 4)
    # One name twice and one nobody holds: counted once, and not at all.
    removed = classroom.remove_students(teacher, ["Bot 3", "Bot 1", "Bot 2", "Bot 1", "Nobody"])
    assert removed == ["Bot 1", "Bot 2", "Bot 3"]  # in joining order
    assert classroom.students(teacher) == ["Ana"]
    assert classroom.counts(teacher) == (1, 1)  # their answers went with them
    assert classroom.reveal(teacher).distribution == {Action.HIT: 1}
    for bot in bots:
        with pytest.raises(UnknownStudentError):
            classroom.student_view(bot)
    assert classroom.remove_students(teacher, []) == []
    assert classroom.remove_students(teacher, ["Bot 1"]) == []  # already gone: nothing


def test_removing_names_reads_no_more_than_a_class_seats(classroom: Classroom) -> None:
    """A forged request naming a million students is cut to ``MAX_SEATS`` names before any SQL."""
    info, key = classroom.create("A", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    classroom.join(info.code, "Ana")
    names = itertools.chain((f"x{i}" for i in range(MAX_SEATS)), ["Ana"], itertools.count())
    assert classroom.remove_students(teacher, (str(name) for name in names)) == []
    assert classroom.students(teacher) == ["Ana"]


# -- issue 25: the optional second join step, a pattern shown only on the projector --


def _other(pattern: tuple[str, ...]) -> tuple[str, ...]:
    """The pattern with its last symbol changed: one tap wrong."""
    return (*pattern[:-1], SYMBOLS[(SYMBOLS.index(pattern[-1]) + 1) % len(SYMBOLS)])


def test_a_script_with_only_the_code_cannot_join_a_class_with_a_second_step(
    classroom: Classroom,
) -> None:
    info, key = classroom.create("A", FAMILY, HANDS, join_step=True)
    teacher = classroom.open_as_teacher(info.code, key)
    assert info.has_join_step
    pattern = classroom.join_pattern(teacher)
    assert pattern is not None
    assert len(pattern) == PATTERN_LENGTH
    assert set(pattern) <= set(SYMBOLS)
    with pytest.raises(PatternNeededError):
        classroom.join(info.code, "Bot")
    with pytest.raises(WrongPatternError):
        classroom.join(info.code, "Bot", pattern=_other(pattern))
    with pytest.raises(WrongPatternError):
        classroom.join(info.code, "Bot", pattern=(*pattern, pattern[0]))  # one tap too many
    assert classroom.students(teacher) == []
    ana_token = new_token()
    ana = classroom.join(info.code, "Ana", learner_token=ana_token, pattern=pattern)
    # Her phone reloads: the seat comes back without the pattern.
    back = classroom.rejoin(info.code, ana_token)
    assert back is not None
    assert back.id == ana.id
    assert classroom.join(info.code, "Ana", learner_token=ana_token).id == ana.id
    assert classroom.students(teacher) == ["Ana"]


def test_a_class_without_the_step_asks_for_no_pattern(classroom: Classroom) -> None:
    info, key = classroom.create("A", FAMILY, HANDS)
    assert not info.has_join_step
    assert classroom.join_pattern(classroom.open_as_teacher(info.code, key)) is None
    assert classroom.join(info.code, "Ana", pattern=("♠",) * PATTERN_LENGTH).nickname == "Ana"


@pytest.mark.slow  # twenty classes, each teacher key hashed by scrypt then checked
def test_each_class_draws_its_own_pattern(classroom: Classroom) -> None:
    """Drawn with ``secrets`` per class: twenty classes do not all show one pattern."""
    patterns = set()
    for _ in range(20):
        info, key = classroom.create("A", FAMILY, HANDS, join_step=True)
        patterns.add(classroom.join_pattern(classroom.open_as_teacher(info.code, key)))
    assert len(patterns) > 1


def test_wrong_patterns_are_counted_per_class_and_address(
    classroom: Classroom, clock: Clock
) -> None:
    clock.now = clock.now.replace(second=0)
    info, key = classroom.create("A", FAMILY, HANDS, join_step=True)
    other, other_key = classroom.create("B", FAMILY, HANDS, join_step=True)
    pattern = classroom.join_pattern(classroom.open_as_teacher(info.code, key))
    other_pattern = classroom.join_pattern(classroom.open_as_teacher(other.code, other_key))
    assert pattern is not None
    assert other_pattern is not None
    school = "203.0.113.9"
    # Right patterns never count: a class behind one address is seated whatever its size.
    for i in range(3 * WRONG_PATTERNS_PER_MINUTE):
        classroom.join(
            info.code, f"S{i}", learner_token=new_token(), client=school, pattern=pattern
        )
    for _ in range(WRONG_PATTERNS_PER_MINUTE):  # a fresh browser each time: the address binds
        with pytest.raises(WrongPatternError):
            classroom.join(
                info.code, "Bot", learner_token=new_token(), client=school, pattern=_other(pattern)
            )
    with pytest.raises(TooManyJoinsError):  # even the right pattern: not weighed any more
        classroom.join(info.code, "Late", learner_token=new_token(), client=school, pattern=pattern)
    # The class next door, behind the same address, counts its own mis-taps.
    assert classroom.join(other.code, "Inès", client=school, pattern=other_pattern)
    # A student on another address reads the projector and is seated at once.
    assert classroom.join(info.code, "Ana", client="198.51.100.4", pattern=pattern)
    clock.now += timedelta(minutes=1)
    assert classroom.join(info.code, "Late", client=school, pattern=pattern)


def test_patterns_sent_together_cannot_slip_in_under_the_count(classroom: Classroom) -> None:
    info, key = classroom.create("A", FAMILY, HANDS, join_step=True)
    pattern = classroom.join_pattern(classroom.open_as_teacher(info.code, key))
    assert pattern is not None
    outcomes = _race(
        *(
            lambda: classroom.join(
                info.code, "Bot", client="203.0.113.9", pattern=_other(pattern)
            )
            for _ in range(20)
        )
    )
    weighed = [o for o in outcomes if isinstance(o, WrongPatternError)]
    assert len(weighed) <= WRONG_PATTERNS_PER_MINUTE, outcomes
    assert all(isinstance(o, TooManyJoinsError | WrongPatternError) for o in outcomes)


@given(
    pattern=hypothesis_st.tuples(*[hypothesis_st.sampled_from(SYMBOLS)] * PATTERN_LENGTH),
    tapped=hypothesis_st.lists(
        hypothesis_st.sampled_from([*SYMBOLS, "X", "", "♠♠"]), max_size=PATTERN_LENGTH + 2
    ),
)
def test_a_pattern_matches_exactly_the_symbols_it_is_made_of(
    pattern: tuple[str, ...], tapped: list[str]
) -> None:
    kept = stored_pattern(pattern)
    assert read_pattern(kept) == pattern
    assert pattern_matches(pattern, kept)
    assert pattern_matches(tapped, kept) == (tuple(tapped) == pattern)


# -- issue 25: names given by the app (two friendly words) --


def test_a_class_with_given_names_seats_two_friendly_words_whatever_is_typed(
    classroom: Classroom,
) -> None:
    info, key = classroom.create("A", FAMILY, HANDS, given_names="fr")
    teacher = classroom.open_as_teacher(info.code, key)
    assert info.given_names == "fr"
    token = new_token()
    # What the student types is not read at all, not even judged.
    ana = classroom.join(info.code, "<b>Rude</b>", learner_token=token)
    assert ana.nickname in every_name("fr")
    assert classroom.students(teacher) == [ana.nickname]
    back = classroom.rejoin(info.code, token)  # a reload keeps the name given
    assert back is not None
    assert back.nickname == ana.nickname
    english, _ = classroom.create("B", FAMILY, HANDS, given_names="en")
    assert classroom.join(english.code, "").nickname in every_name("en")


def test_given_names_are_unique_in_the_class_and_drawn_again_when_taken(
    classroom: Classroom, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With four names only, four students get the four, each once; the fifth is told the
    name drawn is taken (after ``GIVEN_NAME_DRAWS`` draws), never seated twice under one."""
    monkeypatch.setitem(NAME_WORDS, "fr", (("Renard", "Loutre"), ("agile", "calme")))
    info, key = classroom.create("A", FAMILY, HANDS, given_names="fr")
    teacher = classroom.open_as_teacher(info.code, key)
    names = {classroom.join(info.code, "x").nickname for _ in range(4)}
    assert names == {"Renard agile", "Renard calme", "Loutre agile", "Loutre calme"}
    with pytest.raises(NicknameTakenError):
        classroom.join(info.code, "x")
    assert sorted(classroom.students(teacher)) == sorted(names)


def test_given_names_are_in_a_language_of_the_app(classroom: Classroom) -> None:
    with pytest.raises(ValueError, match="en or fr"):
        classroom.create("A", FAMILY, HANDS, given_names="de")


# -- erase means gone: the learner's hash leaves every table --


def _holding(store: Store, hashed: str) -> dict[str, int]:
    """For each column that may hold a learner's hash, how many rows hold ``hashed``."""
    counts = {}
    with store.engine.connect() as db:
        for name in LEARNER_HASH_COLUMNS:
            table, column = name.split(".")
            counts[name] = db.execute(
                sa.text(f"SELECT COUNT(*) FROM {table} WHERE {column} LIKE :pattern"),
                {"pattern": f"%{hashed}%"},
            ).scalar_one()
    return counts


def _columns_holding(store: Store, hashed: str) -> list[str]:
    """Every text column of every table with a cell holding ``hashed``, wherever the schema
    puts it (a column added later and forgotten by the erasure shows here)."""
    found = []
    with store.engine.connect() as db:
        for table in metadata.sorted_tables:
            for column in table.columns:
                if not isinstance(column.type, sa.String | sa.Text):
                    continue
                hits = db.execute(
                    sa.select(sa.func.count())
                    .select_from(table)
                    .where(sa.cast(column, sa.Text).contains(hashed))
                ).scalar_one()
                if hits:
                    found.append(f"{table.name}.{column.name}")
    return found


def test_erasing_a_learner_removes_their_hash_from_every_table_and_the_old_code_opens_nothing(
    classroom: Classroom,
) -> None:
    store = classroom.store
    token, other = new_token(), new_token()
    hashed = token_hash(token)
    learner = store.learner_for_token(token)
    assert learner is not None
    # A teacher who created a class, guessed a wrong key for another, joined a third.
    mine, _key = classroom.create("Ma classe", FAMILY, HANDS, learner_token=token)
    theirs, their_key = classroom.create("Leur classe", FAMILY, HANDS, learner_token=other)
    with pytest.raises(WrongKeyError):
        classroom.open_as_teacher(theirs.code, "WRONG-KEY-00000", learner_token=token)
    classroom.join(theirs.code, "Ana", learner_token=token)
    from tutor.authoring import Shelf

    Shelf(store).create(token)  # and wrote a lesson of their own (« Mes leçons »)
    from tutor.homework import Homework

    homework = Homework(store)
    homework.create_group("2nde B", token)  # and made a homework group
    group, _group_key = homework.create_group("1re A", other)  # and guessed another's key
    from tutor.homework import UnknownGroupError

    with pytest.raises(UnknownGroupError):
        homework.open_group(group.code, "WRONG-KEY-00000", learner_token=token)
    before = _holding(store, hashed)
    assert all(before.values()), before  # every listed column held it: the test can fail
    assert sorted(_columns_holding(store, hashed)) == sorted(LEARNER_HASH_COLUMNS)
    assert classroom.open_own(mine.code, token) is not None

    store.delete_learner(learner)

    assert _holding(store, hashed) == dict.fromkeys(LEARNER_HASH_COLUMNS, 0)
    assert _columns_holding(store, hashed) == []
    assert classroom.classes_of(token) == []
    with pytest.raises(NotYourClassError):
        classroom.open_own(mine.code, token)
    assert classroom.rejoin(theirs.code, token) is None
    assert store.learner_for_token(token, create=False) is None
    # The other teacher's class and its key are untouched.
    assert classroom.open_as_teacher(theirs.code, their_key, learner_token=other) is not None
    assert [info.code for info in classroom.classes_of(other)] == [theirs.code]


def test_a_browser_used_only_for_class_mode_is_offered_erasure_and_erased(
    classroom: Classroom,
) -> None:
    """No learner's row (no answer, no lesson step), yet a class it created, a seat it holds and
    a wrong key it typed: ``token_holds`` counts them, ``erase_token`` takes its hash out."""
    store = classroom.store
    token = new_token()
    hashed = token_hash(token)
    assert store.token_holds(token) == 0
    mine, _key = classroom.create("Ma classe", FAMILY, HANDS, learner_token=token)
    theirs, their_key = classroom.create("Leur classe", FAMILY, HANDS)
    classroom.join(theirs.code, "Zoé", learner_token=token)
    with pytest.raises(WrongKeyError):
        classroom.open_as_teacher(theirs.code, "WRONG-KEY-00000", learner_token=token)
    assert store.learner_for_token(token, create=False) is None
    assert store.token_holds(token) >= 3
    store.erase_token(token)
    assert store.token_holds(token) == 0
    assert sum(_holding(store, hashed).values()) == 0
    # What it made stays for others, linked to nobody: the seat in the teacher's results.
    assert classroom.students(classroom.open_as_teacher(theirs.code, their_key)) == ["Zoé"]
    with pytest.raises(NotYourClassError):
        classroom.open_own(mine.code, token)
