"""The course off the first page's path (issue 17): listed at once, checked against the strategy
in the background or when a lesson is opened, and a lesson the strategy contradicts still an
error card, never played."""

from __future__ import annotations

import time

from tests.conftest import OpenApp
from tutor.lessons import Code
from tutor.ui.resources import CourseCheck
from tutor.ui.state import AppState

AGAINST = "tests/lessons_bad/decision-against-strategy.yaml"


def test_the_list_is_loaded_without_judging_any_decision() -> None:
    check = CourseCheck((AGAINST,))
    assert not check.listed.strategy_checked
    assert check.listed.lessons, "the structure of the file is sound: it is listed"
    assert check.course is check.listed, "nothing is judged before the background check"


def test_a_lesson_checked_alone_reports_what_the_strategy_contradicts() -> None:
    check = CourseCheck((AGAINST,))
    lesson = check.listed.lessons[0]
    problems = check.lesson_problems(lesson.id)
    assert [p.code for p in problems] == [Code.STRATEGY]
    assert "plays stand, not hit" in problems[0].message
    assert check.lesson_problems("no-such-lesson") == ()


def test_the_background_check_puts_the_error_card_in_the_list() -> None:
    check = CourseCheck((AGAINST,))
    check.start()
    check.start()  # once only
    deadline = time.monotonic() + 300
    while check.course is check.listed and time.monotonic() < deadline:
        time.sleep(0.05)
    assert check.course.strategy_checked
    assert not check.course.lessons, "the contradicted lesson leaves the course"
    assert check.course.broken[0].problems[0].code is Code.STRATEGY


def test_a_contradicted_lesson_opens_on_an_error_card_not_the_player(open_app: OpenApp) -> None:
    at = open_app("lessons", AppState(lesson_paths=(AGAINST,)))
    opening = [b for b in at.button if b.key and b.key.startswith("open-")]
    assert opening, "listed before the strategy has judged it"
    opening[0].click().run()
    assert not at.exception
    assert at.error
    assert "decision-against-strategy.yaml" in at.error[0].value
    assert "plays stand, not hit" in "\n".join(block.value for block in at.code)
    assert not [b for b in at.button if b.key == "lesson-next"], "the lesson is not played"
