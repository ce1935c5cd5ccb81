"""A settled lesson hand has one account: one result line, equal to the engine's net with the
insurance in it, and no second line that reads otherwise."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import OpenApp, builtin_course, builtin_lessons
from tutor.decision import Action
from tutor.lessons import DealStep, Lesson
from tutor.lessons.run import LessonRun
from tutor.render.translator import translator
from tutor.visit import AppState


def _insurance_deals() -> list[int]:
    """The deals against an Ace, read at collection from the lessons' structure alone (the
    strategy's judgement of the course, which solves rule sets, is the fixture's)."""
    course = builtin_lessons()
    lesson = next(f.lesson for f in course.files if f.lesson and f.lesson.id == "insurance")
    assert lesson is not None
    return [i for i, step in enumerate(lesson.steps)
            if isinstance(step, DealStep) and step.deal.dealer[0].points == 1]


@pytest.fixture(scope="module")
def insurance() -> Lesson:
    """The insurance lesson of the course as the app loads it (``builtin_course``: read and
    judged once per test process, not once per case)."""
    lesson = next(
        f.lesson for f in builtin_course().files if f.lesson and f.lesson.id == "insurance"
    )
    assert lesson is not None
    return lesson


@pytest.mark.parametrize("index", _insurance_deals())
@pytest.mark.parametrize("moves", [(Action.INSURE, Action.STAND),
                                   (Action.DECLINE_INSURANCE, Action.STAND)])
def test_an_insured_hand_reads_one_result_equal_to_the_engines_net(
    open_app: OpenApp, insurance: Lesson, index: int, moves: tuple[Action, ...]
) -> None:
    lesson = insurance
    run = LessonRun(lesson, step=index, seen=set(range(index + 1)))
    run.start()
    at: AppTest = open_app("lessons", AppState(lesson=run))
    play = run.deal_play()
    assert play is not None
    for move in moves:
        if play.round.is_over:
            break
        key = f"deal-{index}-{move.value}"
        if not any(button.key == key for button in at.button):
            continue
        at.button(key=key).click().run()
        assert not at.exception
    while not play.round.is_over:
        at.button(key=f"deal-{index}-stand").click().run()
        assert not at.exception
    result = play.round.results[0]
    lines = [block.value for block in [*at.info, *at.markdown]
             if "Résultat" in block.value or "Issue" in block.value]
    assert lines == [translator("fr").seat_result(result)], lines
    net = translator("fr").chips_text(result.net, signed=True)
    assert lines[0].startswith(f"Résultat : {net}".replace(" :", "\u00a0:"))
