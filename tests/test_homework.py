"""Homework (issue 28): a teacher gives a group a lesson and a drill due in three days; what
three students did (all of it, half, nothing) is exactly what the follow-up shows; the teacher
sees only the work done for the group; a student who erases their data leaves the results; a
group nobody works in expires. Every test runs on SQLite and (slow lane) PostgreSQL."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
import sqlalchemy as sa

from tests.conftest import Clock, course_steps
from tutor.decision import Action
from tutor.homework import (
    MAX_HANDS,
    RETENTION,
    GroupTeacher,
    Homework,
    InvalidWorkError,
    Membership,
    NameTakenError,
    UnknownGroupError,
    follow_up,
)
from tutor.homework.core import Assignment
from tutor.identity import new_token
from tutor.progress import answer_of
from tutor.quiz import QuizSession, judge_answer
from tutor.quiz_questions import Category
from tutor.rules import PRESETS

FAMILY = PRESETS["family"]


def _drill(
    homework: Homework, member: Membership, drill: Assignment, hands: int, *, wrong: set[int]
) -> tuple[int, float]:
    """Answer ``hands`` hands of the drill, the best play except on the hands in ``wrong`` (a
    legal other play there); how many were right and what the wrong ones cost, by the judge."""
    assert drill.category is not None
    assert drill.rules is not None
    session = QuizSession(drill.category, drill.rules, seed=member.member_id)
    right, cost = 0, 0.0
    for position in range(hands):
        question = session.question
        assert question is not None
        assert question.point is not None
        legal = sorted(question.point.legal, key=lambda action: action.value)
        judgement = judge_answer(question, legal[0]).judgement
        assert judgement is not None
        if position in wrong:
            given = next(a for a in legal if a is not judgement.play)
        else:
            given = judgement.play
        verdict = judge_answer(question, given)
        answer = answer_of(verdict, drill.rules, homework.clock())
        assert homework.record_drill_answer(member, drill, position, answer, seconds=20)
        right += verdict.correct
        cost += 0.0 if verdict.correct else verdict.loss
        session.next()
    return right, cost


def _class_of_three(homework: Homework, clock: Clock) -> tuple[GroupTeacher, str, dict[str, str]]:
    teacher_token = new_token()
    group, key = homework.create_group("2nde B", teacher_token)
    tokens = {name: new_token() for name in ("Ana", "Ben", "Chloé")}
    for name, token in tokens.items():
        homework.join(group.code, name, token)
    due = clock.now + timedelta(days=3)
    homework.give_lesson(group, "splitting", due)
    homework.give_drill(group, Category.PAIRS, 10, FAMILY, due)
    return group, key, tokens


def test_all_half_and_nothing_is_what_the_follow_up_shows(
    homework: Homework, clock: Clock
) -> None:
    group, _key, tokens = _class_of_three(homework, clock)
    lesson, drill = sorted(homework.assignments(group), key=lambda a: a.kind != "lesson")
    total = course_steps("splitting")
    assert total is not None
    assert total > 2
    store = homework.store
    ana, ben = (homework.memberships(tokens[name])[0] for name in ("Ana", "Ben"))
    for member, token, steps in ((ana, tokens["Ana"], total), (ben, tokens["Ben"], total // 2)):
        learner = store.learner_for_token(token)
        assert learner is not None
        store.save_lesson(learner, "splitting", seed=1, step=steps, seen=range(steps),
                          completed=steps)
        homework.record_lesson_time(member, lesson, seconds=300, steps_done=steps,
                                    finished=steps == total)
    ana_right, ana_cost = _drill(homework, ana, drill, 10, wrong={2, 7})
    ben_right, ben_cost = _drill(homework, ben, drill, 5, wrong={0})

    seen = follow_up(homework, group, course_steps)
    assert seen.members == ("Ana", "Ben", "Chloé")
    a, b, c = (seen.work[(name, lesson.id)] for name in ("Ana", "Ben", "Chloé"))
    assert (a.status, a.done, a.total, a.seconds) == ("done", total, total, 300)
    assert (b.status, b.done, b.seconds) == ("started", total // 2, 300)
    assert (c.status, c.done, c.seconds) == ("not-started", 0, 0)
    a, b, c = (seen.work[(name, drill.id)] for name in ("Ana", "Ben", "Chloé"))
    assert (a.status, a.done, a.total, a.right) == ("done", 10, 10, ana_right)
    assert (b.status, b.done, b.right) == ("started", 5, ben_right)
    assert (c.status, c.done, c.right) == ("not-started", 0, 0)
    assert (a.cost, b.cost) == (pytest.approx(ana_cost), pytest.approx(ben_cost))
    assert (a.seconds, b.seconds) == (200, 100)
    assert seen.not_started == {lesson.id: ("Chloé",), drill.id: ("Chloé",)}
    missed = seen.missed_hands[drill.id]
    assert sum(hand.missed for hand in missed) == (10 - ana_right) + (5 - ben_right)
    assert all(hand.category == "pairs" and hand.best for hand in missed)
    kinds = {name: {k.category: k.missed for k in seen.mistakes[name]} for name in seen.members}
    assert kinds == {"Ana": {"pairs": 10 - ana_right}, "Ben": {"pairs": 5 - ben_right},
                     "Chloé": {}}

    todo = {item.assignment.kind: item for item in homework.todo(tokens["Ben"], course_steps)}
    assert (todo["lesson"].done, todo["lesson"].total) == (total // 2, total)
    assert (todo["drill"].done, todo["drill"].total, todo["drill"].finished) == (5, 10, False)
    assert not todo["drill"].overdue(clock.now)
    assert todo["drill"].overdue(clock.now + timedelta(days=4))
    assert all(item.finished for item in homework.todo(tokens["Ana"], course_steps))


def test_the_teacher_sees_only_the_work_done_for_the_group(
    homework: Homework, clock: Clock
) -> None:
    """Answers a student gives outside the group (the quiz, another lesson) never reach the
    follow-up: only the group's copies and the assigned lesson's steps do."""
    group, _key, tokens = _class_of_three(homework, clock)
    store = homework.store
    learner = store.learner_for_token(tokens["Chloé"])
    assert learner is not None
    store.save_lesson(learner, "insurance", seed=1, step=3, seen=range(3), completed=3)
    session = QuizSession(Category.PAIRS, FAMILY, seed=3)
    verdict = session.answer(Action.SPLIT)
    from tutor.progress import record

    record(store, learner, verdict, FAMILY, clock.now)  # her own quiz, not the group's drill
    seen = follow_up(homework, group, course_steps)
    assert all(work.status == "not-started" for (name, _), work in seen.work.items()
               if name == "Chloé")
    assert seen.mistakes["Chloé"] == ()


def test_a_student_who_erases_their_data_leaves_the_groups_results(
    homework: Homework, clock: Clock
) -> None:
    group, _key, tokens = _class_of_three(homework, clock)
    drill = next(a for a in homework.assignments(group) if a.kind == "drill")
    ana = homework.memberships(tokens["Ana"])[0]
    _drill(homework, ana, drill, 3, wrong={1})
    learner = homework.store.learner_for_token(tokens["Ana"])
    assert learner is not None
    homework.store.delete_learner(learner)
    seen = follow_up(homework, group, course_steps)
    assert seen.members == ("Ben", "Chloé")
    assert seen.missed_hands[drill.id] == ()
    with homework.store.engine.connect() as db:
        for table in ("group_answers", "group_work"):
            assert db.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar_one() == 0


def test_the_creators_erasure_keeps_the_group_for_its_key(homework: Homework) -> None:
    token = new_token()
    group, key = homework.create_group("Terminale", token)
    learner = homework.store.learner_for_token(token)
    assert learner is not None
    homework.store.delete_learner(learner)
    assert homework.groups_of(token) == []
    assert homework.open_group(group.code, key) == group


def test_a_group_opens_with_its_key_only(homework: Homework) -> None:
    group, key = homework.create_group("1re A", new_token())
    assert homework.open_group(group.code.lower(), key.lower()) == group
    with pytest.raises(UnknownGroupError):
        homework.open_group(group.code, key[:-1] + ("0" if key[-1] != "0" else "1"))
    with pytest.raises(UnknownGroupError):
        homework.open_group("ZZZZZZ", key)


def test_a_second_join_finds_the_first_and_names_stay_distinct(homework: Homework) -> None:
    group, _key = homework.create_group("1re A", new_token())
    token = new_token()
    first = homework.join(group.code, "Zoé", token)
    assert homework.join(group.code, "Someone else", token) == first
    with pytest.raises(NameTakenError):
        homework.join(group.code, "ZOE", new_token())  # the same name as the teacher reads it


@pytest.mark.parametrize(
    ("hands", "due_in"),
    [(0, timedelta(days=1)), (MAX_HANDS + 1, timedelta(days=1)), (10, -timedelta(hours=1)),
     (10, timedelta(days=400))],
)
def test_work_the_tutor_cannot_give_is_refused(
    homework: Homework, clock: Clock, hands: int, due_in: timedelta
) -> None:
    group, _key = homework.create_group("1re A", new_token())
    with pytest.raises(InvalidWorkError):
        homework.give_drill(group, Category.PAIRS, hands, FAMILY, clock.now + due_in)
    assert homework.assignments(group) == []


def test_a_group_nobody_works_in_for_a_term_expires_and_work_keeps_it_alive(
    homework: Homework, clock: Clock
) -> None:
    idle, _ = homework.create_group("idle", new_token())
    busy, _ = homework.create_group("busy", new_token())
    clock.now += RETENTION - timedelta(days=1)
    homework.join(busy.code, "Ana", new_token())  # work in the group keeps it
    clock.now += timedelta(days=2)
    assert homework.purge_expired() == 1
    with pytest.raises(UnknownGroupError):
        homework.join(idle.code, "Ben", new_token())
    assert homework.join(busy.code, "Ben", new_token()).group_name == "busy"


def test_a_new_group_clears_the_expired_ones(homework: Homework, clock: Clock) -> None:
    """Nobody has to run the purge: making a group does it, as making a class does."""
    homework.create_group("old", new_token())
    clock.now += RETENTION + timedelta(days=1)
    homework.create_group("new", new_token())
    with homework.store.engine.connect() as db:
        names = [row[0] for row in db.execute(sa.text("SELECT name FROM study_groups"))]
    assert names == ["new"]


def test_a_hand_answered_twice_counts_once(homework: Homework, clock: Clock) -> None:
    group, _key = homework.create_group("1re A", new_token())
    drill = homework.give_drill(group, Category.HARD, 2, FAMILY, clock.now + timedelta(days=1))
    member = homework.join(group.code, "Ana", new_token())
    session = QuizSession(Category.HARD, FAMILY, seed=random.Random(1).randrange(100))
    answer = answer_of(session.answer(Action.STAND), FAMILY, clock.now)
    assert homework.record_drill_answer(member, drill, 0, answer, seconds=5)
    assert not homework.record_drill_answer(member, drill, 0, answer, seconds=5)
    assert not homework.record_drill_answer(member, drill, 2, answer, seconds=5)  # past the end
    assert follow_up(homework, group, course_steps).work[("Ana", drill.id)].done == 1


@pytest.mark.parametrize(
    ("language", "shown"), [("fr", "R♠ 10♥ / A♣"), ("en", "K♠ 10♥ / A♣")]
)
def test_a_missed_hand_is_written_as_the_screen_writes_its_cards(language: str, shown: str) -> None:
    from tutor.render.homework_reports import hand_shown
    from tutor.render.translator import translator

    assert hand_shown("KS TH", "AC", translator(language)) == shown
