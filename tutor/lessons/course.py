"""Loading lesson files into a course, and turning every mistake into ``file:line:col: message``.

Loading goes in three stages, as PrairieLearn checks its questions: the schema
(``tutor.lessons.models``), then each lesson's meaning (``tutor.lessons.checks``), then the course
as a whole (duplicate ids, prerequisites that do not exist or go round in a cycle). Problems are
collected per file and loading never fails as a whole: a broken file is listed with its problems
and left out of the course, and every other lesson still loads, so one teacher's typo cannot take
the whole course down.

A problem is reported where the teacher must look: the key or value at fault (even the card token
inside ``"A♠ 6♥ 1X"``), with what was found and what was expected.

The rooms: a problem and the wording of the schema's errors in ``tutor.lessons.problems``; where
the files are (folders, links refused, the fingerprint) in ``tutor.lessons.folders``; here,
reading the files, the course as a whole and its order.
"""

from __future__ import annotations

import dataclasses
import heapq
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from tutor.decision import Action, DecisionPoint
from tutor.lessons.checks import check_against_strategy, check_lesson, check_valid_steps
from tutor.lessons.findings import Code, Finding, ForStrategy, StrategyFn, why
from tutor.lessons.folders import (
    is_builtin,
    lesson_paths,
    served_folders,
)
from tutor.lessons.lesson import Lesson, validate_lesson
from tutor.lessons.problems import (
    Problem,
    _did_you_mean,
    _display,
    _hint,
    _locate,
    _schema_problems,
)
from tutor.lessons.source import MAX_BYTES, SourceDocument, parse_yaml
from tutor.refusal import Refusal
from tutor.strategy import judge

_NUMBERED = re.compile(r"^\d+[-_](?P<rest>.+)$")


@dataclass(frozen=True)
class LessonFile:
    """A lesson file as loaded: the lesson when its schema passed, and all its problems."""

    path: Path
    lesson: Lesson | None
    problems: tuple[Problem, ...] = ()
    #: The file as read, to place what the strategy pass finds.
    document: SourceDocument | None = field(default=None, compare=False, repr=False)
    #: What the structural pass left for the strategy; None once judged (or nothing to judge).
    pending: ForStrategy | None = field(default=None, compare=False, repr=False)

    @property
    def is_ok(self) -> bool:
        return self.lesson is not None and not self.problems

    def strategy_problems(self, strategy: StrategyFn) -> tuple[Problem, ...]:
        """What ``strategy`` finds wrong in what the structural pass left it (the plays taught,
        the engine figures, the claims), placed in the file; nothing once judged."""
        if self.pending is None or self.document is None:
            return ()
        findings = check_against_strategy(self.pending, strategy)
        return tuple(sorted(_locate(self.path, self.document, f) for f in findings))

    def against_strategy(self, strategy: StrategyFn) -> LessonFile:
        """This file with the strategy pass's problems added (the second pass, no new parse)."""
        found = self.strategy_problems(strategy)
        problems = tuple(sorted((*self.problems, *found))) if found else self.problems
        return dataclasses.replace(self, problems=problems, pending=None)


@dataclass(frozen=True)
class Course:
    """The lessons that loaded cleanly, in course order, and the files that did not."""

    #: Every file read, in course order (those with problems included).
    files: tuple[LessonFile, ...]
    #: The playable lessons: files without any problem, ordered by file name and prerequisites.
    lessons: tuple[Lesson, ...]
    #: Whether expected decisions were checked against the strategy (it may not be available).
    strategy_checked: bool = True

    @property
    def problems(self) -> list[Problem]:
        return [problem for file in self.files for problem in file.problems]

    @property
    def broken(self) -> tuple[LessonFile, ...]:
        """Files left out of the course, to show as broken in the app with their problems."""
        return tuple(file for file in self.files if not file.is_ok)

    @property
    def step_count(self) -> int:
        return sum(len(file.lesson.steps) for file in self.files if file.lesson is not None)

    def against_strategy(self, strategy: StrategyFn | None = None) -> Course:
        """The course judged by ``strategy`` (the judge's chart play by default): the second
        pass over this course's structural result, without reading a file again. A lesson the
        strategy contradicts leaves ``lessons``."""
        judge = strategy if strategy is not None else default_strategy()
        files = tuple(file.against_strategy(judge) for file in self.files)
        lessons = tuple(file.lesson for file in files if file.is_ok and file.lesson)
        return Course(files=files, lessons=lessons, strategy_checked=True)

    def lessons_for(self, language: str) -> tuple[Lesson, ...]:
        """The playable lessons a learner of ``language`` is offered (a one-language lesson only
        to learners of its language), in course order."""
        return tuple(lesson for lesson in self.lessons if lesson.speaks(language))

    def lesson(self, lesson_id: str) -> Lesson:
        for lesson in self.lessons:
            if lesson.id == lesson_id:
                return lesson
        raise KeyError(f"no lesson {lesson_id!r} in this course")

    def path_of(self, lesson_id: str) -> Path:
        for file in self.files:
            if file.lesson is not None and file.lesson.id == lesson_id:
                return file.path
        raise KeyError(f"no lesson {lesson_id!r} in this course")


def chart_play(point: DecisionPoint) -> Action:
    """The basic-strategy chart's play on this decision (what the lessons teach and the judge
    grades against by default)."""
    return judge(point).chart_play


def default_strategy() -> StrategyFn:
    """The judge's chart play, which every expected decision of a lesson must match."""
    return chart_play


# -- one file -------------------------------------------------------------------------------------


@dataclass
class _Loaded:
    path: Path
    document: SourceDocument
    lesson: Lesson | None
    findings: list[Problem]
    #: The id written in the file, even when the schema failed (to avoid cascading problems).
    raw_id: str | None
    #: What the structural pass leaves for the strategy pass.
    pending: ForStrategy | None = None


def _load_file(path: Path, *, bilingual: bool) -> _Loaded:
    """One file read, validated and checked for its structure: the only time it is parsed."""
    text, problem = _read(path)
    if problem is not None:
        document = SourceDocument(name=str(path), text="")
        return _Loaded(path, document, None, [problem], None)
    return _load_text(path, text, bilingual=bilingual, named=True)


def _load_text(path: Path, text: str, *, bilingual: bool, named: bool) -> _Loaded:
    """A lesson's text parsed (bounded), validated and checked for its structure, placed as
    ``path``; ``named``: the lesson's id must match the file's name (a file, not a draft)."""
    document = parse_yaml(text, str(path))
    problems = [
        Problem(path, p.position.line, p.position.column, p.message, Code.YAML, p.reason)
        for p in document.problems
    ]
    data = document.data
    raw_id = data.get("id") if isinstance(data, dict) else None
    raw_id = raw_id if isinstance(raw_id, str) else None
    if document.data is None and not problems:
        problems.append(
            Problem(
                path,
                1,
                1,
                "the file is empty: a lesson starts with 'id:'",
                Code.SCHEMA,
                why("lesson-empty"),
            )
        )
    if not isinstance(data, dict):
        if data is not None:
            problems.append(
                Problem(
                    path,
                    1,
                    1,
                    "a lesson file is a mapping of keys (id, title, "
                    f"level, rules, goals, requires, steps), not {_found_kind(data)}",
                    Code.SCHEMA,
                    why("lesson-not-a-mapping", found=_found_kind_reason(data)),
                )
            )
        return _Loaded(path, document, None, problems, raw_id)
    validated = validate_lesson(data)
    lesson = validated.lesson
    if lesson is None:
        problems += _schema_problems(path, document, validated.errors)
        # Still check the steps that are valid, so the teacher sees every mistake at once.
        valid = check_valid_steps(validated.rules, validated.steps)
        problems += [_locate(path, document, finding) for finding in valid.findings]
        return _Loaded(path, document, None, problems, raw_id, valid.pending)
    checked = check_lesson(lesson, bilingual=bilingual)
    findings = checked.findings + (_check_file_name(path, lesson) if named else [])
    problems += [_locate(path, document, finding) for finding in findings]
    return _Loaded(path, document, lesson, problems, raw_id, checked.pending)


def _found_kind(data: object) -> str:
    """What a whole file holds when it is not a mapping, said by its kind and never quoted: a
    file given to ``tutor check`` may be any file the user can read (a password file, a key),
    and its first line has no place in a message that may be logged or shown."""
    if isinstance(data, list):
        return f"a list of {len(data)} item(s)"
    return "a number" if isinstance(data, int | float) else "a line of text"


def _found_kind_reason(data: object) -> Refusal:
    """``_found_kind`` as data."""
    if isinstance(data, list):
        return why("lesson-found-list", count=len(data))
    return why("lesson-found-number" if isinstance(data, int | float) else "lesson-found-text")


def _read(path: Path) -> tuple[str, Problem | None]:
    """The file's text, or why it cannot be read: never more than ``MAX_BYTES`` are read, so a
    huge file costs nothing, and a byte that is not UTF-8 is reported at its line and column."""
    try:
        with path.open("rb") as stream:
            raw = stream.read(MAX_BYTES + 1)
    except OSError as error:
        reason = why("lesson-unreadable", error=error.strerror)
        message = f"cannot read the file: {error.strerror}"
        return "", Problem(path, 1, 1, message, Code.FILE, reason)
    if len(raw) > MAX_BYTES:
        return "", Problem(path, 1, 1, _too_large(), Code.FILE, _TOO_LARGE)
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        line_start = raw.rfind(b"\n", 0, error.start) + 1
        column = len(raw[line_start : error.start].decode("utf-8", "replace")) + 1
        message = (
            f"the file is not UTF-8 text: byte 0x{raw[error.start]:02x} cannot be read here; "
            "save the file as UTF-8 (lesson files are plain text)"
        )
        reason = why("lesson-not-utf8", byte=f"0x{raw[error.start]:02x}")
        return "", Problem(path, line, column, message, Code.FILE, reason)


_TOO_LARGE = why("lesson-too-large", kb=MAX_BYTES // 1024)


def _too_large() -> str:
    return (
        f"the file is larger than {MAX_BYTES // 1024} KB; a lesson is a few KB: split it "
        "into several lessons"
    )


def _check_file_name(path: Path, lesson: Lesson) -> list[Finding]:
    match = _NUMBERED.match(path.stem)
    named = match.group("rest") if match else path.stem
    if named == lesson.id:
        return []
    return [
        Finding(
            ("id",),
            f"the file is named {path.name} but the lesson's id is "
            f"{lesson.id!r}: name the file NN-{lesson.id}{path.suffix} (NN gives the "
            "course order) or change the id",
            Code.FILE,
            reason=why("lesson-file-name", name=path.name, id=lesson.id, suffix=path.suffix),
        )
    ]




def load_course(
    paths: Iterable[str | Path] | str | Path | None = None,
    *,
    bilingual: bool | None = None,
    strategy: StrategyFn | Literal["auto"] | None = "auto",
    beside: Course | None = None,
) -> Course:
    """Load every lesson under ``paths`` (default: the course the app serves, the built-in one
    and the folders of ``TUTOR_LESSONS_DIR``); never raises on content.

    ``beside`` is a course these lessons join (the built-in one, for a teacher's folder): their
    ids must be free in it and their ``requires`` may name its lessons, but its files are
    neither read again nor reported (a file of it that ``paths`` names is the one loaded).

    ``bilingual`` requires every text in French and English; by default it is on for files of
    the built-in course and off for a teacher's own files, which may be single-language plain
    strings. ``strategy`` judges expected decisions (``"auto"``: ``tutor.strategy`` when present).

    Each file is read and checked for its structure once; the strategy then judges that result
    (``Course.against_strategy``), which is also how a course loaded without a strategy is judged
    later.
    """
    if paths is None:
        paths = list(served_folders())
    elif isinstance(paths, str | Path):
        paths = [paths]
    judge = default_strategy() if strategy == "auto" else strategy
    files, missing = lesson_paths(paths)
    loaded = [
        _load_file(path, bilingual=is_builtin(path) if bilingual is None else bilingual)
        for path in files
    ]
    _check_course(loaded, beside.files if beside is not None else ())
    order = _course_order(loaded)
    lesson_files = [
        LessonFile(
            item.path, item.lesson, tuple(sorted(item.findings)), item.document, item.pending
        )
        for item in (loaded[index] for index in order)
    ]
    lesson_files += [LessonFile(problem.path, None, (problem,)) for problem in missing]
    listed = Course(
        files=tuple(lesson_files),
        lessons=tuple(file.lesson for file in lesson_files if file.is_ok and file.lesson),
        strategy_checked=False,
    )
    return listed.against_strategy(judge) if judge is not None else listed


def check_text(
    text: str,
    name: str,
    *,
    course: Course,
    bilingual: bool = False,
    strategy: StrategyFn | Literal["auto"] | None = "auto",
) -> LessonFile:
    """A lesson given as text (an editor's draft) checked as a file of ``course`` would be.

    Why text and not a file: the teacher's editor holds the lesson in the browser and in the
    database, never on disk. It goes through the same passes as a file, in the same order: the
    bounded reading (``MAX_BYTES``, no aliases or anchors, bounded nesting and values), the
    schema, the lesson's meaning replayed by the engine, then the course: its id must be free
    and its ``requires`` must name lessons of ``course`` (the built-in one, say), without a
    cycle through them, then the strategy. Every problem comes back at its line and column of
    ``text``, placed under ``name``; none raises.

    ``name`` is what the problems are placed under. A name ending in ``.yaml`` (or ``.yml``) is a
    file's, whose name must match the lesson's id, as in a folder; any other (a draft's label)
    is not checked. A file of ``course`` with the same name is the one being checked again, so
    its id is not a duplicate.

    >>> checked = check_text("id: mine\\ntitle: T\\nlevel: 1\\ngoals: [g]\\nrequires: [nope]\\n"
    ...                      "steps:\\n  - explain: hi\\n", "draft", course=Course((), ()),
    ...                      strategy=None)
    >>> [str(problem) for problem in checked.problems][0]
    "draft:5:12: requires[0]: unknown prerequisite 'nope': no lesson has this id"
    """
    path = Path(name)
    judge = default_strategy() if strategy == "auto" else strategy
    # A character is at least one byte: a text far too long is refused before being encoded.
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        problem = Problem(path, 1, 1, _too_large(), Code.FILE, _TOO_LARGE)
        return LessonFile(path, None, (problem,))
    named = path.suffix in (".yaml", ".yml")
    item = _load_text(path, text, bilingual=bilingual, named=named)
    _check_course([item], course.files)
    checked = LessonFile(
        path, item.lesson, tuple(sorted(item.findings)), item.document, item.pending
    )
    return checked.against_strategy(judge) if judge is not None else checked


def _check_course(loaded: list[_Loaded], beside: Sequence[LessonFile] = ()) -> None:
    """Checks across files: duplicate ids, unknown prerequisites, prerequisite cycles; with
    ``beside``, the files of a course the loaded ones join, which come first (so a loaded
    lesson that takes one of their ids is the duplicate) and whose problems are not kept."""
    again = {item.path.resolve() for item in loaded}
    others = [
        _Loaded(
            file.path,
            file.document or SourceDocument(name=str(file.path), text=""),
            file.lesson,
            [],
            file.lesson.id if file.lesson is not None else None,
        )
        for file in beside
        if file.path.resolve() not in again
    ]
    loaded = [*others, *loaded]
    owner: dict[str, _Loaded] = {}
    for item in loaded:
        lesson_id = item.lesson.id if item.lesson else item.raw_id
        if lesson_id is None:
            continue
        first = owner.setdefault(lesson_id, item)
        if first is not item:
            item.findings.append(
                _locate(
                    item.path,
                    item.document,
                    Finding(
                        ("id",),
                        f"duplicate id {lesson_id!r}: {_display(first.path)} already uses it; "
                        "every lesson needs its own id",
                        Code.DUPLICATE_ID,
                        reason=why(
                            "lesson-duplicate-id", id=repr(lesson_id), first=_display(first.path)
                        ),
                    ),
                )
            )
    graph: dict[str, tuple[str, ...]] = {}
    for item in loaded:
        if item.lesson is None or owner.get(item.lesson.id) is not item:
            continue
        lesson = item.lesson
        graph[lesson.id] = lesson.requires
        for index, required in enumerate(lesson.requires):
            if required not in owner:
                hint = _did_you_mean(required, sorted(owner))
                item.findings.append(
                    _locate(
                        item.path,
                        item.document,
                        Finding(
                            ("requires", index),
                            f"unknown prerequisite {required!r}{hint}: no lesson has this id",
                            Code.PREREQUISITE,
                            reason=why(
                                "lesson-unknown-prerequisite",
                                id=repr(required),
                                hint=_hint(required, sorted(owner)),
                            ),
                        ),
                    )
                )
    for cycle in _cycles(graph):
        text = " → ".join([*cycle, cycle[0]])
        for position, lesson_id in enumerate(cycle):
            item = owner[lesson_id]
            assert item.lesson is not None
            following = cycle[(position + 1) % len(cycle)]
            index = item.lesson.requires.index(following)
            item.findings.append(
                _locate(
                    item.path,
                    item.document,
                    Finding(
                        ("requires", index),
                        f"prerequisites form a cycle ({text}): a learner could never start these "
                        "lessons; remove one of the requirements",
                        Code.CYCLE,
                        reason=why("lesson-cycle", cycle=text),
                    ),
                )
            )


def _cycles(graph: dict[str, tuple[str, ...]]) -> list[list[str]]:
    """One cycle for each group of lessons that require each other (strongly connected)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in graph:
                continue
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                groups.append(group)

    for node in graph:
        if node not in index:
            visit(node)
    return [_one_cycle(graph, set(group), min(group, key=list(graph).index)) for group in groups]


def _one_cycle(graph: dict[str, tuple[str, ...]], group: set[str], start: str) -> list[str]:
    """A path from ``start`` back to itself inside ``group`` (depth-first, in file order)."""
    path = [start]
    seen = {start}

    def extend(node: str) -> bool:
        for nxt in graph.get(node, ()):
            if nxt == start:
                return True
            if nxt in group and nxt not in seen:
                seen.add(nxt)
                path.append(nxt)
                if extend(nxt):
                    return True
                path.pop()
        return False

    extend(start)
    return path


def _course_order(loaded: list[_Loaded]) -> list[int]:
    """File order, except that a lesson always comes after the lessons it requires."""
    position = {item.lesson.id: i for i, item in enumerate(loaded) if item.lesson is not None}
    waiting: dict[int, set[int]] = {}
    for i, item in enumerate(loaded):
        required = item.lesson.requires if item.lesson else ()
        waiting[i] = {position[r] for r in required if r in position and position[r] != i}
    ready = [i for i, needs in waiting.items() if not needs]
    heapq.heapify(ready)
    order: list[int] = []
    while ready:
        current = heapq.heappop(ready)
        order.append(current)
        for i, needs in waiting.items():
            if current in needs:
                needs.discard(current)
                if not needs and i not in order:
                    heapq.heappush(ready, i)
    # Lessons caught in a cycle never become ready: keep them, in file order, at the end.
    order += [i for i in range(len(loaded)) if i not in order]
    return order
