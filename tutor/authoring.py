"""A teacher's own lessons, written in the browser (« Mes leçons »): checked at every save,
published when the checker finds nothing, opened by students from a link.

Why it lives here and not in the page: the page draws; what a lesson may be, who may change it
and what publishing does to the learners already on it are rules, tested without Streamlit.

- **Who owns a lesson**: the browser that created it (the hash of its private code, as a class's
  creator), or any browser that types the lesson's link token and its key (shown once, as a
  class's teacher key). A ``LessonHandle`` is what either way hands back, and every change takes
  one: the page never changes a lesson it was not handed.
- **Who sees it**: the students given its link (``/?l=TOKEN``: the lessons page is the app's
  first, at its root), and only its published version, which passed the checker; a draft,
  broken or not, is read for its author alone. No visitor's course list holds a teacher's lesson.
- **Publishing again**: a learner's progress is kept on every step that did not change. The steps
  of the old and the new version are compared as the checker read them (the step's own data, and
  the lesson's table and moves for the steps the table plays), matched in order
  (``difflib``), and the store moves each learner's answers to the kept steps' new places in the
  publishing transaction; the teacher reads what changed (« 2 étapes modifiées, 1 ajoutée »).
- **Prerequisites**: ``requires:`` may name the built-in course's lessons and the teacher's own
  published ones, never another teacher's (which the teacher could not see and its author could
  change): such a name is a problem at its line, as an unknown one.

The checker is called in one place, ``check_text``.
"""

from __future__ import annotations

import difflib
import functools
import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from tutor.classroom.access import CREATES_PER_MINUTE as CLASS_CREATES
from tutor.classroom.access import client_key, hash_key, key_matches, learner_hash, new_key
from tutor.classroom.tries import Guesser, Tries
from tutor.identity import random_code
from tutor.lessons import Course, Lesson, LessonFile, Problem, load_course
from tutor.lessons import check_text as check_lesson_text
from tutor.lessons.findings import Code
from tutor.lessons.source import MAX_BYTES, parse_yaml
from tutor.store import Store, TeacherLessonError
from tutor.store.teacher_lessons import TOKEN_CHARS, Record

#: The name problems carry (a teacher's lesson has no file; no ``.yaml``, so no file name rule).
LESSON_NAME = "lesson"
#: What a published lesson's progress is kept under, before its link token: never an id of the
#: course (ids are lowercase words), and never another teacher's (tokens are unique).
PROGRESS_PREFIX = "@"
#: The id a new lesson from the template gets, numbered when the teacher has one already.
TEMPLATE_ID = "ma-lecon"

#: A valid four-step lesson in French only (``language: fr``) that the teacher edits (checked by
#: the tests).
TEMPLATE = """\
id: ma-lecon
title: "Ma leçon : rester sur 17"
level: 1
language: fr
rules: family
goals:
  - "Savoir quand rester sur un 17 dur."
steps:
  - explain: "Avec un 17 dur, on reste : tirer ferait sauter la main trop souvent."
  - show:
      cards: "10♠ 7♥"
      caption: "Un 17 dur : aucun as n’y compte pour 11."
  - ask:
      question: "Combien vaut cette main ?"
      cards: "9♠ 8♥"
      answer: {total: 17}
      explanation: "9 + 8 = 17."
  - deal:
      intro: "À vous de jouer."
      player: "10♣ 7♦"
      dealer: "9♣ 8♦"
      expect:
        decisions: [stand]
        outcome: push
        net: 0
      explanation: "Vous restez sur 17 et le croupier fait 17 : égalité, la mise revient."
"""


# -- checking a text ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Checked:
    """A text as the checker read it: the lesson when it passed the schema, every problem (each
    at its line and column), and the line each problem points at, for the teacher to read."""

    text: str
    lesson: Lesson | None
    problems: tuple[Problem, ...]
    #: The id and title the text gives, even when something else is wrong (for the list).
    lesson_id: str | None
    title: str

    @property
    def is_ok(self) -> bool:
        return self.lesson is not None and not self.problems

    def line(self, number: int) -> str:
        """Line ``number`` of the text (counted from 1), as the teacher wrote it."""
        lines = self.text.splitlines()
        return lines[number - 1] if 1 <= number <= len(lines) else ""


@functools.cache
def builtin_course() -> Course:
    """The built-in course as listed (read once: it is shipped with the app), what a teacher's
    ``requires:`` may name beside the teacher's own published lessons."""
    return load_course(strategy=None)


def _course_with(own: Sequence[Lesson]) -> Course:
    """The built-in course and this teacher's own published lessons: what a draft is checked
    against (its id free among them, its prerequisites found there, no cycle through them)."""
    base = builtin_course()
    files = tuple(LessonFile(Path(PROGRESS_PREFIX + lesson.id), lesson) for lesson in own)
    return Course(
        files=base.files + files, lessons=base.lessons + tuple(own), strategy_checked=False
    )


def check_text(
    text: str, *, own: Sequence[Lesson] | None = (), strategy: bool = True
) -> Checked:
    """Every problem of a lesson given as text, as ``tutor check`` finds them in a file
    (``tutor.lessons.check_text``, the one call of the checker here), with ``requires:`` resolved
    against the built-in course and ``own`` (the teacher's own published lessons; None: not
    resolved, for a copy already published). ``strategy``: judge the plays taught too (the
    solve of the lesson's table is saved once per server)."""
    file = check_lesson_text(
        text,
        LESSON_NAME,
        course=_course_with(own or ()),
        strategy="auto" if strategy else None,
    )
    problems = file.problems
    if own is None:
        problems = tuple(p for p in problems if p.code is not Code.PREREQUISITE)
    data = parse_yaml(text, LESSON_NAME).data if len(text) <= MAX_BYTES else None
    raw_id = data.get("id") if isinstance(data, dict) else None
    lesson_id = file.lesson.id if file.lesson else raw_id if isinstance(raw_id, str) else None
    return Checked(text, file.lesson, problems, lesson_id, _title_of(file.lesson, data))


def _title_of(lesson: Lesson | None, data: object) -> str:
    if lesson is not None:
        title: object = lesson.title
    else:
        title = data.get("title") if isinstance(data, dict) else None
    if isinstance(title, dict):
        title = title.get("fr") or title.get("en") or next(iter(title.values()), "")
    return " ".join(str(title).split())[:120] if isinstance(title, str) and title else "?"


# -- what changed between two versions ------------------------------------------------------------


@dataclass(frozen=True)
class Changes:
    """How a new version's steps differ from the old one's."""

    modified: int = 0
    added: int = 0
    removed: int = 0

    @property
    def any(self) -> bool:
        return bool(self.modified or self.added or self.removed)

    def as_dict(self) -> dict[str, int]:
        return {"modified": self.modified, "added": self.added, "removed": self.removed}


#: The step kinds a table plays (their meaning changes with the lesson's table and moves).
_PLAYED = frozenset({"ask", "deal", "drill"})


def step_fingerprints(text: str) -> list[str]:
    """Each step of a lesson text as one comparable string: the step's data as read, with the
    lesson's table and moves for a step the table plays (a deal dealt at another table is
    another step), so two versions' steps compare equal exactly when a learner meets the same."""
    data = parse_yaml(text, LESSON_NAME).data
    if not isinstance(data, dict) or not isinstance(data.get("steps"), list):
        return []
    table = json.dumps([data.get("rules"), data.get("actions")], sort_keys=True, default=str)
    prints = []
    for step in data["steps"]:
        kind = next(iter(step), "") if isinstance(step, dict) else ""
        body = json.dumps(step, sort_keys=True, default=str, ensure_ascii=False)
        prints.append(body + ("|" + table if kind in _PLAYED else ""))
    return prints


def compare_steps(old: Sequence[str], new: Sequence[str]) -> tuple[dict[int, int], Changes]:
    """The old steps kept (old index -> new index) and what changed, matching the steps in order.

    >>> compare_steps(["a", "b", "c"], ["a", "B", "c", "d"])
    ({0: 0, 2: 2}, Changes(modified=1, added=1, removed=0))
    """
    kept: dict[int, int] = {}
    modified = added = removed = 0
    matcher = difflib.SequenceMatcher(a=list(old), b=list(new), autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            kept.update({a0 + i: b0 + i for i in range(a1 - a0)})
        elif tag == "replace":
            common = min(a1 - a0, b1 - b0)
            modified += common
            added += (b1 - b0) - common
            removed += (a1 - a0) - common
        elif tag == "insert":
            added += b1 - b0
        elif tag == "delete":
            removed += a1 - a0
    return kept, Changes(modified, added, removed)


# -- the lessons of a teacher ------------------------------------------------------------------


@dataclass(frozen=True)
class LessonHandle:
    """What lets a page change one lesson: handed back by ``Shelf.create``, ``Shelf.open_own``
    or ``Shelf.open_with_key`` only."""

    row_id: int
    token: str


@dataclass(frozen=True)
class TeacherLesson:
    """One lesson as its teacher's list and editor read it."""

    handle: LessonHandle
    title: str
    lesson_id: str | None
    draft: str
    draft_ok: bool
    #: How many times it was published (0: a draft only, which no student can open).
    version: int
    published_at: datetime | None
    updated_at: datetime
    #: What the last publication changed (all zero for the first).
    changes: Changes
    #: The draft differs from the published version.
    unpublished_changes: bool
    #: The text students play (None before the first publication).
    published: str | None = None

    @property
    def token(self) -> str:
        return self.handle.token

    @property
    def is_published(self) -> bool:
        return self.version > 0


@dataclass(frozen=True)
class Publication:
    version: int
    changes: Changes


def progress_key(token: str) -> str:
    """What a published lesson's learners' progress is kept under (``lesson_progress``)."""
    return PROGRESS_PREFIX + token


def link_token(typed: str) -> str:
    """A link token as stored, from the address (case and spaces forgiven, bounded)."""
    return typed.strip().upper()[:TOKEN_CHARS]


def _lesson_record(row: Record) -> TeacherLesson:
    counts = json.loads(row.changes) if row.changes else {}
    return TeacherLesson(
        handle=LessonHandle(int(row.id), str(row.token)),
        title=str(row.title),
        lesson_id=row.lesson_id,
        draft=str(row.draft),
        draft_ok=bool(row.draft_ok),
        version=int(row.version),
        published_at=row.published_at,
        updated_at=row.updated_at,
        changes=Changes(**{k: int(v) for k, v in counts.items() if k in Changes.__annotations__}),
        unpublished_changes=row.published is None or row.published != row.draft,
        published=row.published,
    )


@functools.lru_cache(maxsize=128)
def _published_lesson(text: str) -> Lesson | None:
    """A published text read again for a learner: its structure checked (the strategy judged it
    when it was published), None when it no longer passes (never an error card for a
    learner). Cached by text: the same published lesson is read once per process."""
    # Its prerequisites were resolved when it was published; the player does not follow them.
    checked = check_text(text, own=None, strategy=False)
    return checked.lesson if checked.is_ok else None


#: Lessons created a minute, from one browser and from one network client: as classes are
#: (``tutor.classroom.access.CREATES_PER_MINUTE``), a school's teachers behind one address.
CREATES_PER_MINUTE = CLASS_CREATES
#: Milliseconds of checking CPU a minute, from one browser and from one network client. A check
#: costs tens of milliseconds, and at most a second or two when it solves a lesson's own tables
#: (``tutor.lessons.checks.MAX_OWN_TABLES``): a teacher saving every few seconds never meets the
#: first, a school's teachers behind one address never the second, and a script saving in a
#: loop spends at most this much of a core a minute.
CHECK_BUDGET_MS = {"browser": 10_000, "client": 30_000}
#: Wrong lesson links or keys a minute per lesson and guesser, counted before the key's slow
#: hash is weighed: 75-bit keys need no lock for their own sake, the hash's CPU does.
WRONG_KEYS_PER_MINUTE = 5


class Shelf:
    """The teachers' lessons over one store: the rules of who may do what, and publishing.

    What a visitor can make it spend is bounded per browser and per network client
    (``client``: the request's address), in the database's rate table, so that every server
    process agrees: lessons created a minute, checking CPU a minute, wrong links and keys."""

    def __init__(self, store: Store, clock: Callable[[], datetime] | None = None) -> None:
        self.store = store
        self.records = store.teacher_lessons
        self.clock = clock or (lambda: datetime.now(UTC))
        self.tries = Tries(store.classes, lambda: self.clock())

    # -- finding and opening --
    def lessons_of(self, learner_token: str) -> list[TeacherLesson]:
        """The lessons this browser owns, the last changed first; nothing of other browsers'."""
        return [_lesson_record(row) for row in self.records.lessons_of(learner_hash(learner_token))]

    def open_own(self, learner_token: str, token: str) -> LessonHandle:
        row = self.records.lesson(token=token)
        if row is None:
            raise TeacherLessonError("unknown-lesson", "no lesson has this link")
        if row.owner_hash != learner_hash(learner_token):
            raise TeacherLessonError("not-your-lesson", "this browser did not write this lesson")
        return LessonHandle(int(row.id), str(row.token))

    def open_with_key(
        self,
        token: str,
        key: str,
        *,
        learner_token: str | None = None,
        client: str | None = None,
    ) -> LessonHandle:
        """A lesson reopened from another browser by its link token and key, as a class is
        reopened by its code and key: the handle lives in that browser's session, the lesson
        stays its creator's. A link naming no lesson counts as the guesser's wrong code, and a
        key's try is claimed before its slow hash (scrypt) is weighed, given back when right:
        at most ``WRONG_KEYS_PER_MINUTE`` wrong keys a minute per lesson and guesser."""
        guesser = Guesser(
            browser=None if learner_token is None else learner_hash(learner_token),
            client=None if client is None else client_key(client),
        )
        tries = functools.partial(TeacherLessonError, "lesson-tries")
        self.tries.before_code("lesson", guesser, tries)
        row = self.records.lesson(token=link_token(token))
        if row is None:
            self.tries.wrong_code("lesson", guesser)
            raise TeacherLessonError("wrong-lesson-key", "no lesson has this link and key")
        bucket = f"lesson-key:{int(row.id)}:{guesser.in_class(int(row.id))}"
        give_back = self.tries.claim(bucket, WRONG_KEYS_PER_MINUTE, tries)
        if not key_matches(key[:64], row.key_hash):
            raise TeacherLessonError("wrong-lesson-key", "no lesson has this link and key")
        give_back()
        return LessonHandle(int(row.id), str(row.token))

    def lesson(self, handle: LessonHandle) -> TeacherLesson:
        row = self.records.lesson(row_id=handle.row_id)
        if row is None or row.token != handle.token:
            raise TeacherLessonError("unknown-lesson", "this lesson was deleted")
        return _lesson_record(row)

    # -- writing --
    def create(
        self, learner_token: str, text: str | None = None, *, client: str | None = None
    ) -> tuple[LessonHandle, str]:
        """A new lesson of this browser's, from ``text`` (an uploaded file) or the template
        (with an id of its own among this teacher's), and its key, shown once. At most
        ``CREATES_PER_MINUTE`` a minute from one browser and from one network client."""
        owner = learner_hash(learner_token)
        buckets = [(f"lesson-create-b:{owner}", CREATES_PER_MINUTE["browser"])]
        if client is not None:
            buckets.append((f"lesson-create-c:{client_key(client)}", CREATES_PER_MINUTE["client"]))
        self.tries.count(buckets, functools.partial(TeacherLessonError, "lessons-too-fast"))
        if text is None:
            text = self._template(learner_token)
        checked = self.check(learner_token, text, client=client)
        key = new_key()
        for _attempt in range(5):
            token = random_code(TOKEN_CHARS)
            try:
                row_id = self.records.insert(
                    owner_hash=owner,
                    token=token,
                    key_hash=hash_key(key),
                    draft=text,
                    draft_ok=checked.is_ok,
                    lesson_id=checked.lesson_id,
                    title=checked.title,
                    now=self.clock(),
                )
            except TeacherLessonError:
                raise
            except Exception as error:  # a token drawn twice (80 bits: never, but said)
                if "token" not in str(error).lower():
                    raise
                continue
            return LessonHandle(row_id, token), key
        raise RuntimeError("could not draw a unique lesson token")

    def _template(self, learner_token: str) -> str:
        taken = {lesson.lesson_id for lesson in self.lessons_of(learner_token)}
        number = 1
        lesson_id = TEMPLATE_ID
        while lesson_id in taken:
            number += 1
            lesson_id = f"{TEMPLATE_ID}-{number}"
        return TEMPLATE.replace(f"id: {TEMPLATE_ID}\n", f"id: {lesson_id}\n", 1)

    def own_lessons(
        self, learner_token: str, *, besides: LessonHandle | None = None
    ) -> list[Lesson]:
        """This teacher's other published lessons, as published: what ``requires`` may name
        beside the built-in course (another teacher's never: its author could change it)."""
        found = []
        for lesson in self.lessons_of(learner_token):
            if lesson.published is None or lesson.handle == besides:
                continue
            played = _published_lesson(lesson.published)
            if played is not None:
                found.append(played)
        return found

    def published_of(self, learner_token: str) -> list[Lesson]:
        """This browser's published lessons as its students play them (under their progress
        keys): what class mode offers « from my lessons »."""
        found = []
        for lesson in self.lessons_of(learner_token):
            played = self.published_lesson(lesson.token) if lesson.is_published else None
            if played is not None:
                found.append(played)
        return found

    def check(
        self,
        learner_token: str,
        text: str,
        handle: LessonHandle | None = None,
        *,
        client: str | None = None,
    ) -> Checked:
        """What the checker finds in ``text``, within this minute's checking budget of the
        browser and of its network client (``CHECK_BUDGET_MS``): the CPU the check took is
        spent from both, and a check once either is spent is refused (``lesson-checks-spent``)
        before it runs."""
        buckets = [(f"lesson-check-b:{learner_hash(learner_token)}", CHECK_BUDGET_MS["browser"])]
        if client is not None:
            buckets.append((f"lesson-check-c:{client_key(client)}", CHECK_BUDGET_MS["client"]))
        if any(self.tries.spent(bucket) >= budget for bucket, budget in buckets):
            raise TeacherLessonError(
                "lesson-checks-spent",
                "this minute's checking is spent: wait",
                seconds=self.tries.wait(),
            )
        started = time.thread_time()  # this check's own CPU (the server runs others beside)
        try:
            return check_text(text, own=self.own_lessons(learner_token, besides=handle))
        finally:
            spent = max(1, round((time.thread_time() - started) * 1000))
            for bucket, _budget in buckets:
                self.tries.spend(bucket, spent)

    def save(
        self, handle: LessonHandle, text: str, learner_token: str, *, client: str | None = None
    ) -> Checked:
        """Keep ``text`` as the draft (broken or not: a draft is the teacher's alone) and check
        it; what the checker found."""
        checked = self.check(learner_token, text, handle, client=client)
        self.lesson(handle)  # refuses a deleted lesson
        self.records.save_draft(
            handle.row_id,
            draft=text,
            draft_ok=checked.is_ok,
            lesson_id=checked.lesson_id,
            title=checked.title,
            now=self.clock(),
        )
        return checked

    def publish(self, handle: LessonHandle, learner_token: str) -> Publication:
        """Publish the draft: refused when the checker finds any problem; a lesson published
        before keeps its learners' progress on the steps that did not change."""
        current = self.lesson(handle)
        row = self.records.lesson(row_id=handle.row_id)
        assert row is not None
        checked = self.check(learner_token, current.draft, handle)
        if not checked.is_ok or checked.lesson is None:
            raise TeacherLessonError(
                "lesson-has-problems",
                f"the lesson has {len(checked.problems)} problem(s): fix them to publish it",
                count=len(checked.problems),
            )
        step_map: dict[int, int] | None = None
        changes = Changes()
        if row.published is not None:
            step_map, changes = compare_steps(
                step_fingerprints(row.published), step_fingerprints(current.draft)
            )
        version = self.records.publish(
            handle.row_id,
            text=current.draft,
            lesson_id=checked.lesson.id,
            changes=changes.as_dict(),
            progress_key=progress_key(handle.token),
            step_map=step_map,
            now=self.clock(),
        )
        return Publication(version, changes)

    def delete(self, handle: LessonHandle) -> None:
        self.lesson(handle)
        self.records.delete(handle.row_id, progress_key(handle.token))

    # -- what a student opens --
    def published_lesson(self, token: str) -> Lesson | None:
        """The lesson a student's link opens: its published version, under its progress key;
        None for a link that opens nothing (unknown, never published, or no longer valid)."""
        if not isinstance(token, str) or not 1 <= len(token) <= 64:
            return None
        row = self.records.lesson(token=link_token(token))
        if row is None or row.published is None:
            return None
        lesson = _published_lesson(str(row.published))
        if lesson is None:
            return None
        return lesson.model_copy(update={"id": progress_key(str(row.token))})

    def opened_lessons(self, lesson_ids: Iterable[str]) -> list[tuple[str, Lesson]]:
        """The teachers' lessons a student has opened, from the ids of their progress (those
        under ``PROGRESS_PREFIX``), with each one's link token: what their course list shows
        again, as published now. A lesson deleted, or no longer valid, is left out (its link
        opens nothing either)."""
        found = []
        for lesson_id in sorted(set(lesson_ids)):
            if not lesson_id.startswith(PROGRESS_PREFIX):
                continue
            token = lesson_id.removeprefix(PROGRESS_PREFIX)
            lesson = self.published_lesson(token)
            if lesson is not None:
                found.append((token, lesson))
        return found

    def preview_lesson(self, text: str) -> Lesson | None:
        """The draft as a learner would meet it, for its author's preview (None while it has
        problems)."""
        checked = check_text(text, own=None, strategy=False)
        return checked.lesson if checked.is_ok else None
