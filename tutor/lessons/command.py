"""``python -m tutor check [PATHS]``: print every problem of the lesson files, then a summary.

The output is one ``file:line:col: message`` line per problem, the form editors and CI logs turn
into links, and the exit code is 1 when there is any problem, so the command can guard a commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from tutor.lessons.course import BUILTIN_LESSONS, load_course


def run_check(paths: Sequence[Path], *, bilingual: bool | None, out: TextIO, err: TextIO) -> int:
    """Check ``paths`` (default: the built-in course) and report; returns the exit code."""
    course = load_course(list(paths) or [BUILTIN_LESSONS], bilingual=bilingual)
    problems = course.problems
    for problem in problems:
        print(problem, file=out)
    lessons = sum(1 for file in course.files if file.lesson is not None)
    steps = course.step_count
    if not course.files:
        print("no lesson files found (lesson files end in .yaml)", file=err)
        return 1
    if not course.strategy_checked:
        print(
            "note: expected decisions were not checked against basic strategy "
            "(tutor.strategy is not available yet)",
            file=err,
        )
    checked = f"checked {len(course.files)} file(s): {lessons} lesson(s), {steps} step(s)"
    if problems:
        broken = len(course.broken)
        print(f"{checked}; {len(problems)} problem(s) in {broken} file(s)", file=out)
        return 1
    print(f"{checked}; no problems", file=out)
    return 0
