"""Lessons that scaffold (issue 23, point 7): a lesson values only the moves it offers, and shows
expected values only from the lesson that teaches them.

Before: lesson 1's deal listed « Doubler −1,397 » under « Espérance (par mise) » (no lesson had
taught expected values, nor doubling), lesson 9's deal at the casino français table valued
« Abandonner −0,500 » where no Abandonner button was offered, and lesson 6's drill offered a
Double button in a lesson about hitting and standing.
"""

from __future__ import annotations

from functools import cache

from tests.conftest import builtin_lessons
from tutor.decision import Action
from tutor.lessons import DealStep, DrillStep, Lesson
from tutor.lessons.run import LessonRun
from tutor.quiz_questions import Category

#: The lesson that teaches expected values: « le choix qui perd le moins (ou gagne le plus) en
#: moyenne », and what the figure under a verdict means.
TEACHES_VALUES = "strategy-hard"


@cache
def _lessons() -> dict[str, Lesson]:
    course = builtin_lessons()
    return {file.lesson.id: file.lesson for file in course.files if file.lesson is not None}


def _requires(lesson_id: str) -> set[str]:
    """Every lesson taken before this one by its ``requires``, directly or not."""
    lessons = _lessons()
    seen: set[str] = set()
    todo = list(lessons[lesson_id].requires)
    while todo:
        other = todo.pop()
        if other not in seen:
            seen.add(other)
            todo.extend(lessons[other].requires)
    return seen


def test_expected_values_are_shown_from_the_lesson_that_teaches_them_and_only_there() -> None:
    """A lesson shows values exactly when it is the one that teaches them or requires it,
    directly or not: never in a lesson a learner may take before it."""
    lessons = _lessons()
    assert lessons[TEACHES_VALUES].expected_values
    teaching = lessons[TEACHES_VALUES].steps[0]
    assert "espérance" in str(teaching.explain.fr)  # type: ignore[union-attr]
    wrong = {
        lesson.id: lesson.expected_values
        for lesson in lessons.values()
        if lesson.expected_values
        is not (lesson.id == TEACHES_VALUES or TEACHES_VALUES in _requires(lesson.id))
    }
    assert wrong == {}
    assert not lessons["card-values"].expected_values
    assert not lessons["splitting"].expected_values


def _first_deal(lesson_id: str, wanted: object = None) -> tuple[LessonRun, int]:
    lesson = _lessons()[lesson_id]
    index = next(
        i for i, step in enumerate(lesson.steps)
        if isinstance(step, DealStep) and (wanted is None or wanted(step))  # type: ignore[operator]
    )
    run = LessonRun(lesson, step=index, seed=3)
    run.start()
    return run, index


def test_lesson_nines_deal_at_the_french_casino_values_no_surrender() -> None:
    """The 8-8 against a 6 at the casino français table (which allows surrender): every move
    the learner may make is judged among the four moves the lesson offers."""
    run, _ = _first_deal(
        "splitting", lambda step: step.deal.rules is not None and step.deal.rules.surrender.value
        != "none",
    )
    play = run.deal_play()
    assert play is not None
    assert Action.SURRENDER in play.round.legal_actions(), "the table allows it"
    decision = play.act(Action.STAND)  # a mistake: the lesson splits
    assert not decision.correct
    assert set(decision.judgement.evs) <= {Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT}
    assert Action.SURRENDER not in decision.judgement.evs
    assert decision.judgement.play is Action.SPLIT


def test_lesson_ones_deal_values_only_hitting_and_standing() -> None:
    run, _ = _first_deal("card-values")
    play = run.deal_play()
    assert play is not None
    decision = play.act(Action.HIT)
    assert set(decision.judgement.evs) == {Action.HIT, Action.STAND}
    assert not run.shows_values


def test_lesson_sixs_drill_offers_and_values_only_hitting_and_standing() -> None:
    lesson = _lessons()["hit-or-stand"]
    index = next(i for i, step in enumerate(lesson.steps) if isinstance(step, DrillStep))
    for seed in range(30):
        run = LessonRun(lesson, step=index, seed=seed)
        run.start()
        quiz = run.drill()
        assert quiz is not None
        assert quiz.category is Category.HARD
        assert quiz.question is not None
        assert quiz.question.point is not None
        assert quiz.question.point.legal == {Action.HIT, Action.STAND}
        verdict = quiz.answer(Action.STAND)
        assert verdict.judgement is not None
        assert set(verdict.judgement.evs) == {Action.HIT, Action.STAND}
