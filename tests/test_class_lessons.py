"""A class from a lesson keeps each step's table and question text (issue 27).

The lesson's steps are read from the lesson itself (``own_table_of``, ``localize``), never
typed here: whatever the file says a step is played at, and however it words its question, the
class's question holds it; lesson 9 (``splitting``) is the case the issue names, its King and 10
against a 6 at the French casino (« Séparez pour voir ce que cela coûte »).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.conftest import builtin_lessons
from tutor.classroom import ClassQuestion, Classroom, ClassroomError, lesson_questions
from tutor.classroom.questions import MAX_TEXT_CHARS, judged
from tutor.decision import Action, Grade
from tutor.lessons import LOCALES, AskStep, DealStep, Lesson, localize
from tutor.lessons.course import Course, check_text
from tutor.lessons.lesson import own_table_of
from tutor.lessons.models import ActionAnswer
from tutor.render.class_messages import prompt, step_explanation, table_line
from tutor.render.translator import translator
from tutor.rules import PRESETS
from tutor.store import Store

ROOT = Path(__file__).resolve().parents[1]
LESSONS = {lesson.id: lesson for lesson in builtin_lessons().lessons}  # load_course(None, ...)
SPLITTING = LESSONS["splitting"]  # lessons/09-splitting.yaml
CASINO = PRESETS["french-casino"]


def _asked_steps(lesson: Lesson) -> list[tuple[object, object]]:
    """Each step of ``lesson`` that asks a decision on a hand: (its table, its words)."""
    asked: list[tuple[object, object]] = []
    for step in lesson.steps:
        table = own_table_of(step) or lesson.rules
        if isinstance(step, AskStep) and isinstance(step.ask.answer, ActionAnswer):
            if step.ask.cards and step.ask.dealer:
                asked.append((table, step.ask.question))
        elif isinstance(step, DealStep):
            asked.append((table, step.deal.intro))
    return asked


def _king_ten(questions: list[ClassQuestion]) -> ClassQuestion:
    return next(q for q in questions if sorted(map(str, q.cards)) == ["10♦", "K♠"])


@pytest.mark.parametrize(
    "lesson_id", ["splitting", "doubling", "surrender", "european-deal", "rule-variants"]
)
def test_each_question_of_a_class_from_a_lesson_keeps_its_steps_table_and_words(
    lesson_id: str,
) -> None:
    """The lessons whose deals name another table than their own, and lesson 9 first: each
    question the class asks from a step is played at that step's table, in its words in every
    language (as a learner of that language reads the step)."""
    lesson = LESSONS[lesson_id]
    questions = lesson_questions(lesson, seed=7)
    steps = _asked_steps(lesson)
    # Drills come after in no fixed place; the steps' own questions keep the lesson's order.
    worded = [q for q in questions if q.texts]
    assert len(worded) == len([text for _table, text in steps if text is not None])
    expected = [(table, text) for table, text in steps if text is not None]
    for question, (table, text) in zip(worded, expected, strict=True):
        assert question.rules == table
        for language in LOCALES:
            assert question.text(language) == localize(text, language)  # type: ignore[arg-type]
    assert all(q.rules is not None for q in questions), "every question names its table"


def test_lesson_9s_king_and_ten_is_asked_at_the_french_casino_in_its_own_words() -> None:
    question = _king_ten(lesson_questions(SPLITTING, seed=7))
    assert question.rules == CASINO
    fr, en = translator("fr"), translator("en")
    assert "Séparez pour voir ce que cela coûte" in prompt(question, fr)
    assert "Split to see what it costs" in prompt(question, en)
    assert prompt(question, fr).startswith("Toujours au casino français\u00a0:")  # typeset
    assert table_line(question, en) == f"At the table: {en.table_name(CASINO)}"
    assert fr.table_name(CASINO) in str(table_line(question, fr))
    # Judged at the French casino: the King and the 10 may be split there (same value), at the
    # family table they may not; the best play is to stand on 20 either way.
    advice = judged(SPLITTING.rules, question)
    assert Action.SPLIT in advice.evs
    assert advice.chart_play is Action.STAND
    lessons_moves = ClassQuestion(question.cards, question.dealer_up, offered=question.offered)
    assert advice == judged(CASINO, lessons_moves)
    plain = ClassQuestion(question.cards, question.dealer_up)
    assert Action.SPLIT not in judged(SPLITTING.rules, plain).evs


def test_a_table_chosen_for_the_whole_class_asks_every_hand_there_in_the_quizs_words() -> None:
    """The teacher picked another table: every hand is asked at it, and no step's sentence
    (which may name the lesson's table) is shown."""
    questions = lesson_questions(SPLITTING, PRESETS["family"], seed=7)
    assert questions
    assert all(q.rules is None and not q.texts for q in questions)
    king_ten = _king_ten(questions)
    assert Action.SPLIT not in judged(PRESETS["family"], king_ten).evs  # a hard 20 there


def test_a_question_text_past_its_bound_is_refused() -> None:
    with pytest.raises(ValueError, match="at most"):
        ClassQuestion.parse("10♠ 6♥", "10♣", texts=(("fr", "x" * (MAX_TEXT_CHARS + 1)),))
    ClassQuestion.parse("10♠ 6♥", "10♣", texts=(("fr", "x" * MAX_TEXT_CHARS),))


_READ_BACK = """
import json, sys
from tutor.classroom import Classroom
from tutor.store import Store
room = Classroom(Store(sys.argv[1]))
teacher = room.open_as_teacher(sys.argv[2], sys.argv[3])
print(json.dumps([
    {"table": q.rules.name if q.rules else None, "fr": q.text("fr"), "en": q.text("en")}
    for q in room.questions(teacher)
]))
"""


@pytest.mark.usefixtures("real_scrypt")  # the second process weighs the key at the app's cost
def test_the_questions_tables_and_words_survive_a_restart_and_a_second_process(
    database_url: str,
) -> None:
    """Made in this process, read back by a new one over the same database: the class lives in
    the database, its questions' tables and words with it; and a student's answer is judged at
    the question's table (a split of the King and the 10 is a legal answer there)."""
    questions = lesson_questions(SPLITTING, seed=7)
    store = Store(database_url)
    try:
        room = Classroom(store)
        info, key = room.create("Leçon 9", SPLITTING.rules, questions)
    finally:
        store.close()
    read = subprocess.run(
        [sys.executable, "-c", _READ_BACK, database_url, info.code, key],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    kept = json.loads(read.stdout)
    assert kept == [
        {"table": q.rules.name if q.rules else None, "fr": q.text("fr"), "en": q.text("en")}
        for q in questions
    ]
    store = Store(database_url)
    try:
        room = Classroom(store)
        teacher = room.open_as_teacher(info.code, key)
        assert room.questions(teacher) == questions
        ana = room.join(info.code, "Ana")
        position = questions.index(_king_ten(questions))
        for _ in range(position + 1):
            room.next_question(teacher)
        view = room.student_view(ana)
        assert view.question == _king_ten(questions)
        assert Action.SPLIT in view.legal  # the French casino's pair, not the family's 20
        room.answer(ana, Action.SPLIT)
        reveal = room.reveal(teacher)
        assert reveal.best is Action.STAND
        at_casino = ClassQuestion(
            view.question.cards, view.question.dealer_up, offered=view.question.offered
        )
        assert reveal.judgement == judged(CASINO, at_casino)
    finally:
        store.close()


def test_questions_of_before_migration_0010_have_no_table_or_words_of_their_own(
    database_url: str,
) -> None:
    from tests.test_store import _alembic

    store = Store(database_url)
    info, key = Classroom(store).create(
        "Avant", PRESETS["family"], [ClassQuestion.parse("10♠ 6♥", "10♣")]
    )
    store.close()
    _alembic(database_url, "downgrade", "0009")
    engine = sa.create_engine(database_url)
    columns = {column["name"] for column in sa.inspect(engine).get_columns("class_questions")}
    engine.dispose()
    assert not {"own_rules", "texts"} & columns
    store = Store(database_url)  # upgrades again
    try:
        room = Classroom(store)
        (question,) = room.questions(room.open_as_teacher(info.code, key))
        assert question == ClassQuestion.parse("10♠ 6♥", "10♣")
        assert question.rules is None
        assert question.text("fr") is None
    finally:
        store.close()


TWO_MOVES = """\
id: two-moves
title: {fr: "Tirer ou rester", en: "Hit or stand"}
level: 1
rules: american-s17
goals: ["Choisir entre tirer et rester."]
actions: [hit, stand]
steps:
  - ask:
      question: {fr: "16 contre un 10 : que faites-vous ?", en: "16 against a 10: what now?"}
      cards: [10♠, 6♥]
      dealer: [10♣]
      answer: {action: hit}
      explanation:
        fr: "Tirez : entre tirer et rester, rester sur 16 contre un 10 perd plus souvent."
        en: "Hit: between hitting and standing, standing on 16 against a 10 loses more often."
"""


def _two_moves() -> Lesson:
    checked = check_text(TWO_MOVES, "two-moves.yaml", course=Course((), ()))
    assert [str(problem) for problem in checked.problems] == []  # `tutor check` passes it
    assert checked.lesson is not None
    return checked.lesson


def test_a_hit_or_stand_lesson_is_checked_among_its_own_moves() -> None:
    """At the American table the best of every move on 16 v 10 is surrender; a lesson that
    offers hit and stand only is judged between those two, as its page grades them."""
    lesson = _two_moves()
    assert lesson.rules == PRESETS["american-s17"]
    (question,) = lesson_questions(lesson, seed=1)
    every_move = ClassQuestion(question.cards, question.dealer_up)
    assert judged(lesson.rules, every_move).chart_play is Action.SURRENDER  # can fail
    assert question.offered == frozenset({Action.HIT, Action.STAND})
    assert judged(lesson.rules, question).chart_play is Action.HIT


def test_a_class_from_a_lesson_offers_its_moves_only_grades_among_them_and_explains_in_its_words(
    database_url: str,
) -> None:
    lesson = _two_moves()
    store = Store(database_url)
    try:
        room = Classroom(store)
        info, key = room.create("Deux coups", lesson.rules, lesson_questions(lesson, seed=1))
        teacher = room.open_as_teacher(info.code, key)
        ana, ben = room.join(info.code, "Ana"), room.join(info.code, "Ben")
        room.next_question(teacher, expected_position=-1)
        assert set(room.student_view(ana).legal) == {Action.HIT, Action.STAND}
        room.answer(ana, Action.HIT)
        with pytest.raises(ClassroomError):  # a move the lesson never offered is refused
            room.answer(ben, Action.SURRENDER)
        reveal = room.reveal(teacher)
        assert reveal.best is Action.HIT
        assert room.student_view(ana).grade is Grade.RIGHT
        words = translator("fr")
        assert step_explanation(reveal.question, words) == words.typeset(
            "Tirez : entre tirer et rester, rester sur 16 contre un 10 perd plus souvent."
        )
    finally:
        store.close()


def test_a_class_from_a_lesson_without_actions_offers_every_legal_move() -> None:
    question = _king_ten(lesson_questions(SPLITTING, seed=7))
    assert SPLITTING.actions is None or Action.SPLIT in SPLITTING.offered
    assert question.offered is None or Action.SPLIT in question.offered
