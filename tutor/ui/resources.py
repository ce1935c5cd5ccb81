"""Objects shared by every browser session of one server: the database and what sits on it.

``st.cache_resource`` keeps one ``Store`` (one SQLAlchemy engine and its connection pool) per
database URL for the server's life, rather than one per click or per learner. The URL is
``tutor.store.default_url()``: ``TUTOR_DATABASE_URL``, or a SQLite file under ``TUTOR_DATA_DIR``
(``./data`` by default), read when a page first asks, so tests point the app at a temporary file
by setting the environment.

It also holds the course (``course_check``): loaded once per state of its folders (the built-in
course and ``TUTOR_LESSONS_DIR``'s), listed at once, and checked against the strategy off the
first page's path. A lesson added, changed or removed in a folder is seen at the next page run,
with no restart: the cache is keyed on the folders' file names, times and sizes.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING

import streamlit as st

from tutor.lessons import Course, Problem, default_strategy, load_course
from tutor.lessons.folders import fingerprint, served_folders

if TYPE_CHECKING:  # imported when first used: a newcomer's first page opens no database
    from tutor.authoring import Shelf
    from tutor.classroom import Classroom
    from tutor.homework import Homework
    from tutor.store import Store
    from tutor.ui.class_mode.push import Followers

_LOG = logging.getLogger(__name__)


@st.cache_resource(show_spinner=False)
def _store(url: str) -> Store:
    from tutor.store import Store

    return Store(url)


def store() -> Store:
    """The server's progress store (created, and migrated, on first use)."""
    from tutor.store import default_url

    return _store(default_url())


@st.cache_resource(show_spinner=False)
def _classroom(url: str) -> Classroom:
    from tutor.classroom import Classroom

    return Classroom(_store(url))


def classroom() -> Classroom:
    """Class sessions over the server's store: one per server process, so that the reads its
    phones' polls share for a tick (``tutor.classroom.ticks``) are shared by all of them."""
    from tutor.store import default_url

    return _classroom(default_url())


@st.cache_resource(show_spinner=False)
def _followers(url: str) -> Followers:
    from tutor.ui.class_mode.push import Followers, rerun_fragment

    return Followers(_classroom(url).watched_moment, rerun_fragment)


def followers() -> Followers:
    """The phones this server process tells when their class moves on
    (``tutor.ui.class_mode.push``): one looking thread for all of them."""
    from tutor.store import default_url

    return _followers(default_url())


@st.cache_resource(show_spinner=False)
def _homework(url: str) -> Homework:
    from tutor.homework import Homework

    return Homework(_store(url))


def homework() -> Homework:
    """Study groups and their work over the server's store (one per server process)."""
    from tutor.store import default_url

    return _homework(default_url())


@st.cache_resource(show_spinner=False)
def _shelf(url: str) -> Shelf:
    from tutor.authoring import Shelf

    return Shelf(_store(url))


def shelf() -> Shelf:
    """The teachers' own lessons over the server's store (« Mes leçons », a student's link)."""
    from tutor.store import default_url

    return _shelf(default_url())


# -- the course: listed at once, checked against the strategy off the first page's path --------


class CourseCheck:
    """The course, loaded for the list at once and checked against the strategy afterwards.

    Why two stages: the full check judges every expected decision of every lesson, which solves
    the strategy of four rule sets (seconds on a cold server), and a newcomer's first page needs
    none of it. ``listed`` has every structural problem (schema, cards, deals replayed by the
    engine, prerequisites) and is ready in a fraction of a second; the strategy check runs in a
    background thread started once the list is on screen (``start``), and a lesson about to be
    played is checked on its own first (``lesson_problems``), so a lesson that teaches a play
    the strategy contradicts is never played and never a crash (its problems go to the log and
    the teacher's page, not to the learner). Both are
    the strategy pass over ``listed`` (``Course.against_strategy``): no file is read twice.
    """

    def __init__(self, paths: tuple[str, ...] | None) -> None:
        self.paths = paths
        self.listed = load_course(self._sources(), strategy=None)
        for file in self.listed.broken:  # for the logs and the teacher's page, never a learner
            _LOG.warning("lesson file left out of the course: %s", file.path)
            for problem in file.problems:
                _LOG.warning("  %s", problem)
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._checked: Course | None = None
        self._per_lesson: dict[str, tuple[Problem, ...]] = {}

    def _sources(self) -> list[str] | None:
        return list(self.paths) if self.paths is not None else None

    def start(self) -> None:
        """Check the whole course in the background (once per server and course)."""
        with self._lock:
            if self._thread is not None:
                return
            self._thread = threading.Thread(
                target=self._check_all, name="course-check", daemon=True
            )
            self._thread.start()

    def _check_all(self) -> None:
        try:
            checked = self.listed.against_strategy()
        except Exception:  # the list keeps its structural check; each lesson is checked alone
            _LOG.exception("the course's strategy check failed")
            return
        with self._lock:
            self._checked = checked

    @property
    def course(self) -> Course:
        """The course as the list shows it: fully checked when the check is done, else listed."""
        with self._lock:
            return self._checked if self._checked is not None else self.listed

    def lesson_problems(self, lesson_id: str) -> tuple[Problem, ...]:
        """What the strategy check finds in one lesson, computed for that lesson alone when the
        whole course is not checked yet (the problems the structural load already listed are
        not repeated). A lesson the course does not hold has none here."""
        with self._lock:
            checked = self._checked
            if lesson_id in self._per_lesson:
                return self._per_lesson[lesson_id]
        if checked is not None:
            found = next(
                (f.problems for f in checked.files if f.lesson and f.lesson.id == lesson_id), ()
            )
        else:
            listed = next(
                (f for f in self.listed.files if f.lesson and f.lesson.id == lesson_id), None
            )
            if listed is None:
                return ()
            found = listed.strategy_problems(default_strategy())
        with self._lock:
            self._per_lesson[lesson_id] = found
        return found


@st.cache_resource(show_spinner=False, max_entries=8)
def _course_check(paths: tuple[str, ...] | None, marks: tuple[object, ...]) -> CourseCheck:
    """One course per state of its files (``marks``): a state seen before is served at once."""
    return CourseCheck(paths)


def course_check(paths: tuple[str, ...] | None) -> CourseCheck:
    """The course of ``paths`` (when None, the course the app serves: the built-in one and the
    folders of ``TUTOR_LESSONS_DIR``, read at each call), loaded again once its files change: a
    teacher's lesson copied into a folder is listed at the next page run, by every process of
    the server, without a restart. Each call costs a ``stat`` per lesson file."""
    sources = paths if paths is not None else tuple(str(path) for path in served_folders())
    return _course_check(sources, fingerprint(sources))
