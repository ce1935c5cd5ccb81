"""The built-in course tells the truth: every scripted deal replays as stated, in both languages.

These tests read ``lessons/``; they grow with the course, one test case per deal and per lesson.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.lessons import (
    BUILTIN_LESSONS,
    DealStep,
    Lesson,
    PlainText,
    Translations,
    default_strategy,
    load_course,
)
from tutor.lessons.checks import iter_texts, replay
from tutor.lessons.models import LOCALES

COURSE = load_course(BUILTIN_LESSONS, strategy=None)
LESSONS: list[tuple[Path, Lesson]] = [
    (file.path, file.lesson) for file in COURSE.files if file.lesson is not None
]
DEALS = [
    pytest.param(lesson, index, step, id=f"{path.name}:steps[{index}]")
    for path, lesson in LESSONS
    for index, step in enumerate(lesson.steps)
    if isinstance(step, DealStep)
]


def test_the_built_in_course_loads_without_a_problem() -> None:
    assert [str(problem) for problem in COURSE.problems] == []
    assert len(COURSE.lessons) == len(COURSE.files)
    assert len(COURSE.lessons) >= 14, "the course covers at least fourteen lessons"


@pytest.mark.slow
def test_the_built_in_course_follows_basic_strategy() -> None:
    strategy = default_strategy()
    course = load_course(BUILTIN_LESSONS, strategy=strategy)
    assert [str(problem) for problem in course.problems] == []


@pytest.mark.parametrize(("lesson", "index", "step"), DEALS)
def test_every_scripted_deal_replays_as_the_lesson_states(
    lesson: Lesson, index: int, step: DealStep
) -> None:
    """The engine accepts each stated decision and finds the stated outcome and net."""
    findings = replay(step.deal, lesson.rules, ("steps", index, "deal"), None)
    assert [finding.message for finding in findings] == []


@pytest.mark.parametrize(("path", "lesson"), [pytest.param(p, le, id=p.name) for p, le in LESSONS])
def test_every_text_has_both_languages(path: Path, lesson: Lesson) -> None:
    for where, text in iter_texts(lesson):
        assert not isinstance(text, PlainText), f"{path.name} {where}: a plain string"
        assert isinstance(text, Translations)
        for locale in LOCALES:
            value = getattr(text, locale) or ""
            assert value.strip(), f"{path.name} {where}: no {locale} text"


def test_the_course_is_ordered_so_that_prerequisites_come_first() -> None:
    seen: set[str] = set()
    for lesson in COURSE.lessons:
        assert set(lesson.requires) <= seen, lesson.id
        seen.add(lesson.id)
