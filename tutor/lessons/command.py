"""``python -m tutor check [PATHS]``: print every problem of the lesson files, then a summary.

The output is one ``file:line:col: message`` line per problem, the form editors and CI logs turn
into links, and the exit code is 1 when there is any problem, so the command can guard a commit.

A teacher's folder is checked as the app serves it: beside the built-in course (and the folders
of ``TUTOR_LESSONS_DIR``), so its ``requires:`` may name the course's lessons and its ids must be
free in it. The sentences are in the language asked (``--lang``, else the environment's
``LC_ALL``/``LC_MESSAGES``/``LANG``): French from the catalogues, English as the checker writes
its problems (``str(Problem)``, the words of the logs).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, TextIO

from tutor.lessons.course import Course, load_course
from tutor.lessons.folders import BUILTIN_LESSONS, served_folders
from tutor.lessons.problems import Problem


class Phrases(Protocol):
    """The words of the summary lines: the interface's translator (``tutor.cli`` passes it)."""

    def gettext(self, message: str) -> str: ...

    def format(self, message: str, **params: Any) -> str: ...


class English:
    """The summary lines as written here, in English (the default, for logs and tests)."""

    def gettext(self, message: str) -> str:
        return message

    def format(self, message: str, **params: Any) -> str:
        return message.format(**params)


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """``fr`` when the locale the environment names first is French, else ``en``: the command
    line speaks the shell's language, as other command-line tools do.

    >>> language_from_environment({"LANG": "fr_FR.UTF-8"}), language_from_environment({})
    ('fr', 'en')
    >>> language_from_environment({"LC_ALL": "C", "LANG": "fr_FR.UTF-8"})
    'en'
    """
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return "fr" if value.lower().startswith("fr") else "en"
    return "en"


def check_paths(paths: Sequence[Path], *, bilingual: bool | None) -> Course:
    """``paths`` checked as the app would serve them: beside the course the app serves (the
    built-in one and the folders of ``TUTOR_LESSONS_DIR``), whose files are not reported unless
    named; that course itself when ``paths`` is empty."""
    served = list(served_folders())
    if not paths:
        return load_course(served, bilingual=bilingual)
    beside = load_course(served, strategy=None)
    return load_course(list(paths), bilingual=bilingual, beside=beside)


def run_check(
    paths: Sequence[Path],
    *,
    bilingual: bool | None,
    out: TextIO,
    err: TextIO,
    say: Callable[[Problem], str] = str,
    t: Phrases | None = None,
) -> int:
    """Check ``paths`` (default: the course the app serves) and report; returns the exit code.

    ``say`` writes a problem (``str``: the checker's English), ``t`` the summary lines (English
    by default); the command line passes the teacher's language's (``tutor.render``)."""
    t = t if t is not None else English()
    course = check_paths(paths, bilingual=bilingual)
    problems = course.problems
    for problem in problems:
        print(say(problem), file=out)
    lessons = sum(1 for file in course.files if file.lesson is not None)
    steps = course.step_count
    if not course.files:
        print(t.gettext("no lesson files found (lesson files end in .yaml)"), file=err)
        return 1
    if not course.strategy_checked:
        print(
            t.gettext(
                "note: expected decisions were not checked against basic strategy "
                "(tutor.strategy is not available yet)"
            ),
            file=err,
        )
    checked = t.format(
        "checked {files} file(s): {lessons} lesson(s), {steps} step(s)",
        files=len(course.files),
        lessons=lessons,
        steps=steps,
    )
    if problems:
        broken = len(course.broken)
        found = t.format(
            "{problems} problem(s) in {broken} file(s)", problems=len(problems), broken=broken
        )
        print(t.format("{checked}; {found}", checked=checked, found=found), file=out)
        return 1
    print(t.format("{checked}; {found}", checked=checked, found=t.gettext("no problems")), file=out)
    return 0


__all__ = ["BUILTIN_LESSONS", "English", "Phrases", "check_paths", "language_from_environment",
           "run_check"]
