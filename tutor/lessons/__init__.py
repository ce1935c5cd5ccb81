"""Lessons as YAML files: the format, its validation, and what the lesson player needs.

A lesson goes through three stages (see LESSON_FORMAT.md for the format as teachers read it):

- ``models``: the strict schema, converting text into the engine's types;
- ``checks``: what the lesson claims, replayed through the engine and judged by the strategy;
- ``course``: all files together, with ``file:line:col`` for every problem.

``load_course(paths)`` never fails on content: it returns the lessons that loaded and the problems
of those that did not; ``check_text(text, name, course=…)`` checks one lesson given as text (the
teacher's editor) through the same passes, against a course. Each file is read and checked once
for its structure; what the strategy must judge (the plays taught, the engine's figures, the
claims) is judged as a second pass over that result (``Course.against_strategy``), which the app
runs after listing the course. A step's kind is switched on in one place, ``StepCases``.
``deal_round`` and ``check_answer`` serve the app's lesson player.
"""

from __future__ import annotations

from tutor.lessons.course import (
    Course,
    LessonFile,
    check_text,
    default_strategy,
    load_course,
)
from tutor.lessons.fields import LOCALES, PlainText, Translations, localize
from tutor.lessons.findings import Code, StrategyFn
from tutor.lessons.folders import BUILTIN_LESSONS
from tutor.lessons.lesson import (
    AskStep,
    DealStep,
    DrillStep,
    ExplainStep,
    Lesson,
    ShowStep,
    StepCases,
)
from tutor.lessons.models import Ask, Deal, Drill, DrillCategory, Expect, Show
from tutor.lessons.play import check_answer, deal_round, deal_script
from tutor.lessons.problems import Problem

__all__ = [
    "BUILTIN_LESSONS",
    "LOCALES",
    "Ask",
    "AskStep",
    "Code",
    "Course",
    "Deal",
    "DealStep",
    "Drill",
    "DrillCategory",
    "DrillStep",
    "Expect",
    "ExplainStep",
    "Lesson",
    "LessonFile",
    "PlainText",
    "Problem",
    "Show",
    "ShowStep",
    "StepCases",
    "StrategyFn",
    "Translations",
    "check_answer",
    "check_text",
    "deal_round",
    "deal_script",
    "default_strategy",
    "load_course",
    "localize",
]
