"""A lesson run kept in the store and resumed by replay: the step reached, every answer, every
deal and drill exactly as the learner left them (on SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import builtin_course
from tutor.decision import Action
from tutor.identity import new_token
from tutor.lessons import AskStep, DealStep, DrillStep, Lesson
from tutor.lessons.run import LessonRun, load_run, save_run
from tutor.store import Learner, Store
from tutor.strategy import judge
from tutor.visit import AppState


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    opened = Store(database_url)
    yield opened
    opened.close()


def _lesson(lesson_id: str) -> Lesson:
    found = next(
        f.lesson for f in builtin_course().files if f.lesson and f.lesson.id == lesson_id
    )
    assert found is not None
    return found


def _learner(store: Store) -> Learner:
    learner = store.learner_for_token(new_token())
    assert learner is not None
    return learner


def _play_until(run: LessonRun, store: Store, learner: Learner, stop: int) -> None:
    """Answer and play every step up to ``stop`` (not included), saving as the page does."""
    for index, step in enumerate(run.lesson.steps[:stop]):
        assert run.step == index
        if isinstance(step, AskStep):
            answer = step.ask.answer
            given = getattr(answer, "action", None) or getattr(answer, "number", None)
            run.answer("0" if given is None else str(getattr(given, "value", given)))
        elif isinstance(step, DealStep):
            play = run.deal_play()
            assert play is not None
            while not play.round.is_over:
                play.act(judge(play.round.decision_point()).play)
        elif isinstance(step, DrillStep):
            quiz = run.drill()
            assert quiz is not None
            while not quiz.finished:
                question = quiz.question
                assert question is not None
                given = (
                    judge(question.point).play if question.point is not None
                    else question.expected
                )
                assert given is not None
                quiz.answer(given)
                run.note_drill_answer()
                save_run(store, learner, run, index)
                if not quiz.finished:
                    quiz.next()
        save_run(store, learner, run, index)
        run.next()
        save_run(store, learner, run)


def test_a_lesson_resumes_at_the_step_reached_with_its_answers_and_deals(store: Store) -> None:
    lesson = _lesson("hit-or-stand")
    learner = _learner(store)
    run = LessonRun(lesson, seed=12345)
    run.start()
    save_run(store, learner, run)
    last_deal = max(i for i, s in enumerate(lesson.steps) if isinstance(s, DealStep))
    _play_until(run, store, learner, last_deal + 1)
    again = load_run(store, learner, lesson, reference=run.reference)
    assert again is not None
    assert again.step == run.step
    assert again.completed == run.completed
    assert again.answers == run.answers
    for index, play in run.deals.items():
        replayed = again.deals[index]
        assert [d.action for d in replayed.decisions] == [d.action for d in play.decisions]
        assert replayed.round.dealer == play.round.dealer, "the same cards come back"
        assert replayed.round.results == play.round.results


def test_a_drill_half_answered_resumes_on_the_question_left(store: Store) -> None:
    lesson = _lesson("hit-or-stand")
    learner = _learner(store)
    drill_at = next(i for i, s in enumerate(lesson.steps) if isinstance(s, DrillStep))
    run = LessonRun(lesson, seed=777)
    run.start()
    _play_until(run, store, learner, drill_at)
    quiz = run.drill()
    assert quiz is not None
    assert quiz.question is not None
    for _ in range(2):
        question = quiz.question
        assert question is not None
        assert question.point is not None
        quiz.answer(Action.STAND if Action.STAND in question.point.legal else Action.HIT)
        run.note_drill_answer()
        quiz.next()
        save_run(store, learner, run, drill_at)
    again = load_run(store, learner, lesson, reference=run.reference)
    assert again is not None
    replayed = again.drill()
    assert replayed is not None
    assert replayed.score.answered == 2
    assert replayed.score.right == quiz.score.right
    assert replayed.question == quiz.question, "the question on screen is the one left"
    assert replayed.verdict is None


def test_a_learner_restarts_a_lesson_on_purpose(store: Store) -> None:
    lesson = _lesson("card-values")
    state = AppState(learner_token=new_token())
    state.open_lesson(lesson, store)
    assert state.lesson is not None
    state.lesson.next()
    state.record_progress(store)
    assert state.learner is not None
    assert store.lesson_progress(state.learner)[lesson.id].step == 1
    state.restart_lesson(lesson, store)
    assert state.lesson is not None
    assert state.lesson.step == 0
    assert store.lesson_progress(state.learner)[lesson.id].step == 0


def test_a_record_that_no_longer_fits_the_lesson_is_dropped_not_fatal(store: Store) -> None:
    lesson = _lesson("hit-or-stand")
    learner = _learner(store)
    deal_at = next(i for i, s in enumerate(lesson.steps) if isinstance(s, DealStep))
    store.save_lesson(learner, lesson.id, seed=1, step=deal_at + 1, seen=range(deal_at + 2),
                      completed=deal_at + 1)
    store.save_lesson_step(learner, lesson.id, deal_at, kind="deal",
                           data={"actions": ["split", "split", "split"], "net": None}, done=True)
    run = load_run(store, learner, lesson, reference=LessonRun(lesson).reference)
    assert run is not None
    assert deal_at not in run.deals or not run.deals[deal_at].decisions
    assert run.step <= deal_at, "never resumed past a step that is no longer done"
