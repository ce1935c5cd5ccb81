"""Shared fixtures of the app's tests: an AppTest of ``app.py`` on a chosen page and state."""

from __future__ import annotations

import functools
import os
import re
import shutil
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import settings
from streamlit.components.v2 import manifest_scanner
from streamlit.runtime.scriptrunner.script_cache import ScriptCache
from streamlit.testing.v1 import AppTest, app_test

from tests import hermetic
from tests.marks import FAST_LANE, examples
from tutor.classroom import access
from tutor.homework import Homework
from tutor.lessons import BUILTIN_LESSONS, Course, default_strategy, load_course
from tutor.lessons.folders import served_folders
from tutor.visit import AppState

ROOT = Path(__file__).resolve().parents[1]

# No deadline on hypothesis's examples: a deadline is a timed assertion, and on this shared
# machine an example that imports pandas or solves a table first can take seconds. Speed is
# measured by bench/, never asserted by a test.
settings.register_profile("tutor", deadline=None)
# Property tests that do not say how many examples they try (hypothesis's default, 100) try a
# quarter of them in make check's fast lane, as those that say so do (``tests.marks.examples``).
settings.register_profile("fast-lane", deadline=None, max_examples=examples(100))
settings.load_profile("fast-lane" if FAST_LANE else "tutor")
#: Generous: the first chart or course of a process is computed inside the script run.
TIMEOUT = 180

# What every test process would otherwise repeat, done once per process where the answer cannot
# change within it (``tests/test_fast_lane.py`` checks that these stay in place):
#
# - Streamlit's scan of the installed packages for components (``scan_component_manifests``,
#   which reads every distribution's metadata): each ``AppTest`` makes a component registry of
#   its own and scans again, about 0.1 s of CPU, a third of a page test's run. No package is
#   installed while the tests run, so the scan's answer is kept; each ``AppTest`` still
#   registers what it found in a registry of its own.
# - the compiled scripts (``_ScriptsCompiledOnce``, below).
# - scrypt's cost for a teacher's key (``tutor.classroom.access._SCRYPT``, about 35 ms a key
#   here, which is what makes a stolen hash slow to attack): the tests hash and check hundreds of
#   keys and test what is kept and refused, not how slow the hash is, so they use a cheap cost
#   of the same hash; the app's own cost stays ``access.SCRYPT_COST``, and the test that relies
#   on the hash being slow (a race of guesses) asks for it (``real_scrypt``).
manifest_scanner.scan_component_manifests = functools.cache(
    manifest_scanner.scan_component_manifests
)


class _ScriptsCompiledOnce(ScriptCache):
    """Each ``AppTest`` run makes a new ``ScriptCache``, so ``app.py`` and the page it shows were
    read, rewritten (Streamlit's "magic") and compiled again at every run: up to 25 ms a page.
    This one keeps the compiled script per process, for as long as the file is unchanged (its
    path, time and size), so a test that writes a script of its own still runs what it wrote."""

    _compiled: ClassVar[dict[tuple[str, int, int], Any]] = {}

    def get_bytecode(self, script_path: str) -> Any:
        stat = os.stat(script_path)
        key = (script_path, stat.st_mtime_ns, stat.st_size)
        if key not in self._compiled:
            self._compiled[key] = super().get_bytecode(script_path)
        return self._compiled[key]


app_test.ScriptCache = _ScriptsCompiledOnce  # type: ignore[misc]
TEST_SCRYPT = {**access.SCRYPT_COST, "n": 2**4}
access._SCRYPT = TEST_SCRYPT


@pytest.fixture
def real_scrypt(monkeypatch: pytest.MonkeyPatch) -> None:
    """The app's own scrypt cost for one test (a test of what the hash's slowness guards)."""
    monkeypatch.setattr(access, "_SCRYPT", access.SCRYPT_COST)


class Clock:
    """The time the rooms (classes, homework) read, moved by hand: a test of expiry, lock-outs
    or due dates sets ``now`` rather than waiting."""

    def __init__(self, start: datetime = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


PAGES = {
    "lessons": "tutor/ui/pages/lessons_page.py",
    "practice": "tutor/ui/pages/practice_page.py",
    "quiz": "tutor/ui/pages/quiz_page.py",
    "strategy": "tutor/ui/pages/strategy_page.py",
    "settings": "tutor/ui/pages/settings.py",
    "groups": "tutor/ui/pages/homework_teacher.py",
    "homework": "tutor/ui/pages/homework_student.py",
}

OpenApp = Callable[..., AppTest]


@functools.cache
def builtin_lessons() -> Course:
    """The built-in course read and checked for its structure only (``load_course(strategy=None)``),
    once per test process: it is frozen, and reading its YAML takes about a second, which the
    tests that only read the lessons' content used to pay each (some at collection, in every
    xdist worker). A test about loading itself still calls ``load_course``."""
    if served_folders() == (BUILTIN_LESSONS,):  # the same files as ``builtin_folder``'s
        return builtin_folder()
    return load_course(strategy=None)


@functools.cache
def builtin_folder() -> Course:
    """``load_course(BUILTIN_LESSONS, strategy=None)``, once per test process: the built-in
    folder alone, whatever ``TUTOR_LESSONS_DIR`` says (three test modules read it at import)."""
    return load_course(BUILTIN_LESSONS, strategy=None)


@functools.cache
def builtin_course() -> Course:
    """The built-in course as the app loads it (every file read, checked, then judged against
    the strategy), once per test process: ``load_course()`` is exactly this second pass over
    the structural result (``Course.against_strategy``), so the file reading is shared with
    ``builtin_lessons``."""
    judge = default_strategy()
    return builtin_lessons().against_strategy(judge) if judge is not None else builtin_lessons()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database brought to the newest migration by ``Store``, as the app opens one,
    made once per test process (``Store`` on an empty file runs every migration: about a tenth
    of a second, which each page and class test used to pay again). Tests copy it
    (``copy_migrated``); the migrations themselves are tested on empty databases
    (``database_url``, ``tests/test_store.py``)."""
    from tutor.store import Store

    path = tmp_path_factory.mktemp("migrated") / "tutor.sqlite3"
    Store(f"sqlite:///{path}").close()  # closing checkpoints SQLite's log into the one file
    return path


def copy_migrated(migrated: Path, target: Path) -> Path:
    """``target``, a new SQLite file of a test's own, copied from the migrated database."""
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(migrated, target)
    return target


def share_solutions(data: Path) -> None:
    """Link ``data``'s ``solutions`` to the run's (``tests.hermetic``: kept between runs, keyed on
    the solver's sources), so that a rule set the app solves in a test of its own data folder is
    solved once, not in every test that opens it; the test's database stays its own."""
    run = os.environ.get(hermetic.OWNER)
    if run is None:
        return
    shared = Path(run) / "solutions"
    shared.mkdir(parents=True, exist_ok=True)  # a link already, or the run's own folder
    data.mkdir(parents=True, exist_ok=True)
    (data / "solutions").symlink_to(shared.resolve(), target_is_directory=True)


@pytest.fixture
def migrated_database_url(database_url: str, migrated_sqlite: Path) -> str:
    """``database_url`` already migrated, for the tests of what the store does rather than of
    how it is built: on SQLite a copy of ``migrated_sqlite``; on PostgreSQL the empty database
    (``Store`` migrates it)."""
    if database_url.startswith("sqlite:///"):
        copy_migrated(migrated_sqlite, Path(database_url.removeprefix("sqlite:///")))
    return database_url


@pytest.fixture
def open_app(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, migrated_sqlite: Path) -> OpenApp:
    """Run the app on ``page`` with ``state`` seeded (a fresh French state by default), its
    database a SQLite file of this test's own (a copy of the migrated one)."""
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("TUTOR_DATABASE_URL", raising=False)
    monkeypatch.setenv("TUTOR_DATA_DIR", str(tmp_path / "data"))
    copy_migrated(migrated_sqlite, tmp_path / "data" / "tutor.sqlite3")
    share_solutions(tmp_path / "data")

    def open_(page: str = "lessons", state: AppState | None = None) -> AppTest:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
        at.session_state["app"] = state if state is not None else AppState()
        at.run()
        if page != "lessons":
            at.switch_page(PAGES[page])
            at.run()
        assert not at.exception
        return at

    return open_


# -- browser tests: one server and one chromium for the whole run --


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app served by ``streamlit run`` with a database of its own, for every browser test."""
    from serving import app_server

    with app_server(tmp_path_factory.mktemp("served-data")) as url:
        yield url


@pytest.fixture(scope="session")
def chromium_browser() -> Iterator[object]:
    """Debian's chromium driven by Playwright (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    from serving import CHROMIUM, LAUNCH_ARGS

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield browser
        browser.close()


# -- the same database tests on SQLite and, when a server is given, PostgreSQL --


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database: a SQLite file of this test's own, then a new database on the
    PostgreSQL server named by ``TUTOR_TEST_POSTGRES_URL`` (``.ci/run`` starts one).

    The PostgreSQL run of each test is marked ``slow``: the same assertions on the same code
    through another driver, each paying for a new database and its migrations (about a second
    of the fast lane's every store test). ``make check`` runs the SQLite one, so every rule is
    still checked while developing; ``make test`` (CI) runs both."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite3'}"
    server = os.environ.get("TUTOR_TEST_POSTGRES_URL")
    if not server:
        pytest.skip("TUTOR_TEST_POSTGRES_URL is not set (.ci/run starts a server)")
    import sqlalchemy as sa

    name = f"t_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return server.rsplit("/", 1)[0] + "/" + name


# -- words as a reader compares them --


def spaced(text: object) -> str:
    """French typography's fixed spaces (no-break, narrow no-break) read as spaces, to compare
    the words a page or a file shows."""
    return str(text).replace("\u00a0", " ").replace("\u202f", " ")


def as_read(text: str) -> str:
    """French as a reader sees it: a teacher's title's Markdown escapes and invisible word
    joiners (``plain_title``) unseen, and the fixed spaces as spaces."""
    return spaced(re.sub(r"\\([^\w\s])", r"\1", text.replace("\u2060", "")))


# -- homework over a store of the test's own (SQLite, and PostgreSQL in the slow lane) --


@pytest.fixture
def homework(database_url: str, clock: Clock) -> Iterator[Homework]:
    from tutor.store import Store

    store = Store(database_url)
    yield Homework(store, clock=clock)
    store.close()


def course_steps(lesson_id: str) -> int | None:
    """How many steps a lesson of the built-in course has (None for an id it lacks): what the
    follow-up counts a lesson's work out of."""
    try:
        return len(builtin_course().lesson(lesson_id).steps)
    except KeyError:
        return None
