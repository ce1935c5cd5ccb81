"""A school behind one network address: the limits its real rush never meets and that no one
can spend for the others behind it (``tutor.classroom.tries``, ``tutor.classroom.access``).

Each client address is what the server reads from the request (``tutor.ui.client``); the rooms
are driven through their API with those addresses, as the pages drive them, on a clock moved by
hand so that minutes pass without waiting.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

import tutor.classroom.session as session_module
from tests.conftest import Clock
from tutor.authoring import CHECK_BUDGET_MS, WRONG_KEYS_PER_MINUTE
from tutor.authoring import CREATES_PER_MINUTE as LESSON_CREATES
from tutor.classroom import (
    CREATES_PER_MINUTE,
    JOINS_PER_MINUTE,
    MAX_SEATS,
    PATTERN_LENGTH,
    SYMBOLS,
    UNSTARTED_RETENTION,
    UNUSED_CLASSES_PER_CLIENT,
    WRONG_CODES_PER_MINUTE,
    WRONG_PATTERNS_PER_MINUTE,
    ClassFullError,
    ClassQuestion,
    Classroom,
    Student,
    TooManyClassesError,
    TooManyJoinsError,
    TooManyUnusedClassesError,
    UnknownSessionError,
    WrongPatternError,
    pattern_odds,
)
from tutor.homework import MAX_GROUPS
from tutor.identity import new_token
from tutor.lessons.checks import MAX_OWN_TABLES
from tutor.rules import PRESETS
from tutor.store import Store, class_sessions

FAMILY = PRESETS["family"]
HANDS = [ClassQuestion.parse("10♠ 6♥", "10♣")]


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(2026, 12, 7, 8, 0, tzinfo=UTC))


@pytest.fixture
def classroom(migrated_database_url: str, clock: Clock) -> Iterator[Classroom]:
    store = Store(migrated_database_url)
    yield Classroom(store, clock=clock)
    store.close()


def test_sixty_made_up_codes_then_thirty_five_students_from_that_address_are_all_seated(
    classroom: Classroom,
) -> None:
    school = "203.0.113.7"
    info, key = classroom.create("2nde B", FAMILY, HANDS)
    for i in range(60):  # a student's script behind the school's address, sending no cookie
        with pytest.raises(UnknownSessionError):
            classroom.join(f"QQ{i:04d}", "Bot", client=school)
    seats = [
        classroom.join(info.code, f"Élève {i}", learner_token=new_token(), client=school)
        for i in range(35)
    ]
    assert all(isinstance(seat, Student) for seat in seats)
    assert len(classroom.students(classroom.open_as_teacher(info.code, key))) == 35


def test_a_script_past_its_wrong_codes_still_refuses_no_student_behind_its_address(
    classroom: Classroom,
) -> None:
    """Twice the address's count of made-up codes: the script is refused before any lookup,
    the class's students are seated at their first try."""
    school = "203.0.113.7"
    info, key = classroom.create("Amphi", FAMILY, HANDS)
    refused = 0
    for i in range(2 * WRONG_CODES_PER_MINUTE["client"]):
        try:
            classroom.join(f"QQ{i:04d}", "Bot", client=school)
        except TooManyJoinsError:
            refused += 1
        except UnknownSessionError:
            pass
    assert refused == WRONG_CODES_PER_MINUTE["client"]  # the flood is bounded: 100 looked up
    for i in range(35):
        classroom.join(info.code, f"Élève {i}", learner_token=new_token(), client=school)
    assert len(classroom.students(classroom.open_as_teacher(info.code, key))) == 35


def test_right_code_joins_from_one_address_are_not_counted_for_the_address(
    classroom: Classroom,
) -> None:
    """A school is one address: two classes of 35 joining in the same minute are all seated."""
    school = "203.0.113.7"
    classes = [classroom.create(name, FAMILY, HANDS) for name in ("2nde A", "2nde B")]
    for info, _ in classes:
        for i in range(35):
            classroom.join(info.code, f"Student {i}", learner_token=new_token(), client=school)
    for info, key in classes:
        assert len(classroom.students(classroom.open_as_teacher(info.code, key))) == 35


def test_thirty_teachers_behind_one_address_each_open_a_class(
    classroom: Classroom, clock: Clock
) -> None:
    """A school's staff room on a morning: thirty teachers, one address, within two minutes."""
    clock.now = clock.now.replace(second=30)
    school = "203.0.113.20"
    opened = []
    for teacher in range(30):
        clock.now += timedelta(seconds=4)  # thirty creations over two minutes
        info, key = classroom.create(
            f"Classe {teacher}", FAMILY, HANDS, learner_token=new_token(), client=school
        )
        opened.append(classroom.open_as_teacher(info.code, key, client=school))
    assert len({teacher.session_id for teacher in opened}) == 30


def test_a_flood_of_creations_from_one_address_leaves_a_bounded_number_of_unused_classes(
    classroom: Classroom, clock: Clock
) -> None:
    bots = "203.0.113.9"
    made = refused = 0
    for _minute in range(6):
        for _ in range(CREATES_PER_MINUTE["client"] + 5):  # a fresh browser each time
            try:
                classroom.create("Bot", FAMILY, HANDS, learner_token=new_token(), client=bots)
            except TooManyUnusedClassesError:
                refused += 1
            except TooManyClassesError:
                continue
            else:
                made += 1
        clock.now += timedelta(minutes=1)
    assert made == UNUSED_CLASSES_PER_CLIENT  # however long the flood goes on
    assert refused > 0
    with pytest.raises(TooManyUnusedClassesError) as bounded:
        classroom.create("Bot", FAMILY, HANDS, client=bots)
    assert bounded.value.params["most"] == UNUSED_CLASSES_PER_CLIENT
    # A teacher elsewhere is never refused for it.
    elsewhere = "198.51.100.2"
    assert classroom.create("Cours", FAMILY, HANDS, learner_token=new_token(), client=elsewhere)
    # A started class is no longer unused: the address may create one more.
    with classroom.engine.begin() as db:
        first = db.execute(sa.select(sa.func.min(class_sessions.c.id))).scalar_one()
        db.execute(class_sessions.update().where(class_sessions.c.id == first).values(current=0))
    assert classroom.create("Vrai cours", FAMILY, HANDS, learner_token=new_token(), client=bots)
    clock.now += UNSTARTED_RETENTION  # the flood's classes expire unused: none is held any more
    for _ in range(3):
        classroom.create("Bot", FAMILY, HANDS, learner_token=new_token(), client=bots)


def _other(pattern: tuple[str, ...]) -> tuple[str, ...]:
    return (*pattern[:-1], SYMBOLS[(SYMBOLS.index(pattern[-1]) + 1) % len(SYMBOLS)])


def test_the_second_steps_odds_from_twenty_addresses_are_below_one_in_ten_thousand() -> None:
    patterns = len(SYMBOLS) ** PATTERN_LENGTH
    assert patterns == 6**8 == 1_679_616
    guesses_a_minute = 20 * WRONG_PATTERNS_PER_MINUTE
    assert pattern_odds(addresses=20) == guesses_a_minute / patterns
    assert pattern_odds(addresses=20) <= 1e-4
    assert pattern_odds(addresses=20, minutes=5) <= 5e-4  # a whole five-minute class


def test_a_bot_from_twenty_addresses_finds_nothing_in_a_five_minute_class(
    classroom: Classroom, clock: Clock
) -> None:
    """Each address sends twice its count of patterns a minute, every one a new pattern, for
    five minutes: only its count is weighed, and nobody is seated."""
    info, key = classroom.create("Amphi", FAMILY, HANDS, join_step=True)
    teacher = classroom.open_as_teacher(info.code, key)
    guesses = itertools.product(SYMBOLS, repeat=PATTERN_LENGTH)  # each guess a new pattern
    weighed = refused = seated = 0
    for _minute in range(5):
        for address in range(20):
            for _ in range(2 * WRONG_PATTERNS_PER_MINUTE):
                try:
                    classroom.join(
                        info.code,
                        f"Bot {weighed + refused}",
                        client=f"198.51.100.{address + 1}",
                        pattern=next(guesses),
                    )
                except WrongPatternError:
                    weighed += 1
                except TooManyJoinsError:
                    refused += 1
                else:
                    seated += 1
        clock.now += timedelta(minutes=1)
    assert weighed + seated <= 5 * 20 * WRONG_PATTERNS_PER_MINUTE  # at most 500 of 1,679,616
    assert refused >= 5 * 20 * WRONG_PATTERNS_PER_MINUTE
    assert seated == 0, "a guessed pattern is a chance of 3 in 10,000 in this run"
    assert classroom.students(teacher) == []
    pattern = classroom.join_pattern(teacher)
    assert pattern is not None  # a student in the room reads it and is seated at once
    assert classroom.join(info.code, "Ana", client="198.51.100.1", pattern=pattern)


def test_a_full_class_never_seats_one_more_when_joins_race(
    classroom: Classroom, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(session_module, "MAX_SEATS", 5)  # the cap's rule at a small scale
    info, key = classroom.create("Amphi", FAMILY, HANDS)
    barrier = threading.Barrier(12)
    outcomes: list[object] = []

    def join(i: int) -> None:
        barrier.wait()
        try:
            outcomes.append(classroom.join(info.code, f"S{i}", client=f"10.0.0.{i + 1}"))
        except ClassFullError as error:
            outcomes.append(error)

    threads = [threading.Thread(target=join, args=(i,)) for i in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(classroom.students(classroom.open_as_teacher(info.code, key))) == 5
    assert sum(isinstance(o, ClassFullError) for o in outcomes) == 7


def test_the_teacher_sends_away_everyone_who_joined_in_the_last_minute(
    classroom: Classroom, clock: Clock
) -> None:
    info, key = classroom.create("2nde B", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    classroom.join(info.code, "Ana")
    classroom.join(info.code, "Ben")
    clock.now += timedelta(minutes=3)
    for i in range(300 - 2):  # the class fills up with made-up names within seconds
        classroom.join(info.code, f"Bot {i}", client=f"10.9.{i // 200}.{i % 200 + 1}")
    removed = classroom.remove_joined_within(teacher, timedelta(seconds=60))
    assert len(removed) == 298
    assert classroom.students(teacher) == ["Ana", "Ben"]


def test_remove_everyone_leaves_nobody(classroom: Classroom) -> None:
    info, key = classroom.create("2nde B", FAMILY, HANDS)
    teacher = classroom.open_as_teacher(info.code, key)
    for i in range(300):
        classroom.join(info.code, f"S{i}", client=f"10.8.{i // 200}.{i % 200 + 1}")
    assert len(classroom.remove_unanswered(teacher)) == 300  # in the lobby: everyone
    assert classroom.students(teacher) == []


def test_the_readmes_table_of_limits_says_the_numbers_the_code_applies() -> None:
    readme = Path(__file__).resolve().parent.parent / "README.md"
    rows = {
        line.split("|")[1].strip(): line.split("|")[2].strip()
        for line in readme.read_text(encoding="utf-8").splitlines()
        if line.startswith("| ") and line.count("|") >= 4
    }
    codes, patterns = WRONG_CODES_PER_MINUTE, WRONG_PATTERNS_PER_MINUTE
    assert rows["Wrong class or group codes"] == (
        f"{codes['browser']} a minute per browser, {codes['client']} per address"
    )
    assert rows["Wrong patterns of the second join step"] == (
        f"{patterns} a minute per class and address"
    )
    assert rows["Joins with a right code"] == (
        f"{JOINS_PER_MINUTE['browser']} a minute per browser,"
        f" {JOINS_PER_MINUTE['class']} into one class"
    )
    assert rows["Seats"] == f"{MAX_SEATS} per class"
    creations = f"{CREATES_PER_MINUTE['browser']} a minute per browser"
    assert rows["Class creations"] == f"{creations}, {CREATES_PER_MINUTE['client']} per address"
    assert rows["Classes never started"] == (
        f"{UNUSED_CLASSES_PER_CLIENT} per address, each gone"
        f" {UNSTARTED_RETENTION.total_seconds() / 3600:g} hours after its creation"
    )
    assert rows["Group creations"] == (
        f"{creations}, {CREATES_PER_MINUTE['client']} per address;"
        f" {MAX_GROUPS} groups kept per browser"
    )
    assert rows["Teachers' lessons created"] == (
        f"{LESSON_CREATES['browser']} a minute per browser, {LESSON_CREATES['client']} per address"
    )
    assert rows["A lesson's own tables"] == f"{MAX_OWN_TABLES} besides the presets"
    assert rows["Checking a lesson"] == (
        f"{CHECK_BUDGET_MS['browser'] // 1000} s of CPU a minute per browser,"
        f" {CHECK_BUDGET_MS['client'] // 1000} s per address"
    )
    assert rows["Wrong lesson links or keys"] == (
        f"{WRONG_KEYS_PER_MINUTE} a minute per lesson and guesser"
    )
    why = readme.read_text(encoding="utf-8")
    assert f"{len(SYMBOLS)}⁸ = {len(SYMBOLS) ** PATTERN_LENGTH:,}" in why
    assert PATTERN_LENGTH == 8  # the exponent the README writes


def test_reopening_a_class_checks_codes_at_the_same_pace_as_joining(
    classroom: Classroom, clock: Clock
) -> None:
    """« Rouvrir une classe » names a code and a key: a made-up code is the browser's and the
    address's wrong code, as a join's is, so codes are not checked faster there."""
    clock.now = clock.now.replace(second=0)
    info, key = classroom.create("2nde B", FAMILY, HANDS)
    guesser = new_token()
    for i in range(WRONG_CODES_PER_MINUTE["browser"]):
        with pytest.raises(UnknownSessionError):
            classroom.open_as_teacher(f"QQ{i:04d}", key, learner_token=guesser, client="10.0.0.9")
    with pytest.raises(TooManyJoinsError):
        classroom.open_as_teacher(info.code, key, learner_token=guesser, client="10.0.0.9")
    assert classroom.open_as_teacher(info.code, key, learner_token=new_token(), client="10.0.0.9")
