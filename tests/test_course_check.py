"""The course off the first page's path (issue 17): listed at once, checked against the strategy
in the background or when a lesson is opened, and a lesson the strategy contradicts never played
nor shown to a learner as an error (issue 27: its problems go to the log and the teacher)."""

from __future__ import annotations

import time

import pytest

from tests.conftest import OpenApp
from tutor.lessons import Code, load_course
from tutor.lessons.source import SourceDocument
from tutor.ui.resources import CourseCheck
from tutor.visit import AppState

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


def test_the_background_check_takes_the_contradicted_lesson_out_of_the_list() -> None:
    check = CourseCheck((AGAINST,))
    check.start()
    check.start()  # once only
    deadline = time.monotonic() + 300
    while check.course is check.listed and time.monotonic() < deadline:
        time.sleep(0.05)
    assert check.course.strategy_checked
    assert not check.course.lessons, "the contradicted lesson leaves the course"
    assert check.course.broken[0].problems[0].code is Code.STRATEGY


def test_a_contradicted_lesson_is_not_played_and_its_problems_go_to_the_log(
    open_app: OpenApp, caplog: pytest.LogCaptureFixture
) -> None:
    at = open_app("lessons", AppState(lesson_paths=(AGAINST,)))
    opening = [b for b in at.button if b.key and b.key.startswith("open-")]
    assert opening, "listed before the strategy has judged it"
    with caplog.at_level("WARNING"):
        opening[0].click().run()
    assert not at.exception
    assert not at.error, "no error card for a learner"
    assert not at.code, "no checker's line for a learner"
    assert "decision-against-strategy" not in " ".join(str(b.value) for b in at.info)
    assert len(at.info) > 0, "the learner reads that the lesson is not available"
    assert "plays stand, not hit" in caplog.text
    assert not [b for b in at.button if b.key == "lesson-next"], "the lesson is not played"


def test_a_lesson_is_read_once_listed_checked_alone_and_checked_in_the_background(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One structural pass, then the strategy as a second pass over its result: the file is
    parsed once however the app asks about it (the list, the lesson opened, the background)."""
    from tutor.lessons import course

    reads: list[str] = []
    parse = course.parse_yaml

    def counted(text: str, name: str) -> SourceDocument:
        reads.append(name)
        return parse(text, name)

    monkeypatch.setattr(course, "parse_yaml", counted)
    check = CourseCheck((AGAINST,))
    problems = check.lesson_problems(check.listed.lessons[0].id)
    check._check_all()
    assert [p.code for p in problems] == [Code.STRATEGY]
    assert check.course.strategy_checked
    assert len(reads) == 1, reads


def test_judging_a_listed_course_finds_what_loading_it_with_the_strategy_finds() -> None:
    paths = [AGAINST, "tests/lessons_bad", "lessons/01-card-values.yaml"]
    listed = load_course(paths, strategy=None)
    judged = listed.against_strategy()
    assert judged.problems == load_course(paths).problems
    assert judged.strategy_checked
    assert not listed.strategy_checked
    assert judged.against_strategy().problems == judged.problems, "judged once only"
