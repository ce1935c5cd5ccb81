"""A broken database is a sentence, never a traceback: the database down (a closed port), its
SQLite file corrupt, read-only or impossible to create, before a page runs and under a class's
polling screen; the details go to the operator's log, and the page recovers by itself once the
database is back (issue 14).

Why every element is searched: the raw exceptions carry the database's host, port, user,
password and file paths, and any of them on a learner's screen is a leak.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import sqlalchemy.exc
from streamlit.testing.v1 import AppTest

from serving import free_port
from tutor.classroom import ClassQuestion, Classroom
from tutor.render.translator import translator
from tutor.rules import PRESETS
from tutor.store import Store
from tutor.visit import AppState

ROOT = Path(__file__).resolve().parents[1]
STUDENT_PAGE = "tutor/ui/pages/class_student.py"
SENTENCE = (
    "The server cannot use its database right now. The answers you gave before this message are"
    " saved; try again in a moment."
)


def _everything(at: AppTest) -> str:
    """Every element the page holds, as its protobuf text (labels, bodies, values)."""
    parts: list[str] = []

    def walk(node: object) -> None:
        proto = getattr(node, "proto", None)
        if proto is not None:
            parts.append(str(proto))
        children = getattr(node, "children", {})
        for child in children.values() if isinstance(children, dict) else children:
            walk(child)

    walk(at._tree)
    return "\n".join(parts)


def _student_page(state: AppState, code: str) -> AppTest:
    """The Join page reached by a class's join address (``?code=``), which looks the seat up."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.session_state["app"] = state
    at.query_params["code"] = code
    at.run()
    at.switch_page(STUDENT_PAGE)
    at.run()
    return at


def _assert_fault_shown(at: AppTest, language: str, *secrets: str) -> None:
    assert not at.exception, [e.value for e in at.exception]
    expected = translator(language).gettext(SENTENCE)
    assert [e.value for e in at.error] == [expected]
    shown = _everything(at)
    for secret in secrets:
        assert secret not in shown, f"{secret!r} is on the page"
    assert "Traceback" not in shown
    assert "sqlalchemy" not in shown.lower()


@pytest.fixture
def app_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("TUTOR_DATABASE_URL", raising=False)
    return monkeypatch


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_database_that_is_down_is_a_sentence_in_the_learners_language(
    app_env: pytest.MonkeyPatch, language: str, caplog: pytest.LogCaptureFixture
) -> None:
    port = free_port()  # nothing listens there: connection refused
    app_env.setenv("TUTOR_DATABASE_URL", f"postgresql+psycopg://tutor:hunter2@127.0.0.1:{port}/db")
    with caplog.at_level(logging.ERROR, logger="tutor.database"):
        at = _student_page(AppState(language=language), "ABC234")
    _assert_fault_shown(at, language, "127.0.0.1", str(port), "hunter2", "psycopg")
    # The operator's log has what the page does not.
    assert any(str(port) in (record.exc_text or "") for record in caplog.records)


def test_a_corrupt_database_file_is_a_sentence_and_the_page_recovers(
    app_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "tutor.sqlite3").write_bytes(b"this is not a database " * 400)
    app_env.setenv("TUTOR_DATA_DIR", str(data))
    at = _student_page(AppState(), "ABC234")
    _assert_fault_shown(at, "fr", str(tmp_path), "tutor.sqlite3", "not a database")
    (data / "tutor.sqlite3").unlink()  # the operator restores the database: here, a fresh one
    at.run()
    assert not at.exception
    assert not at.error
    assert at.text_input(key="class-join-code").value == "ABC234"


def test_a_database_folder_that_cannot_be_created_is_a_sentence(
    app_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "disk"
    blocker.write_text("a file where the folder should be")
    app_env.setenv("TUTOR_DATA_DIR", str(blocker / "data"))  # mkdir raises an OSError
    at = _student_page(AppState(), "ABC234")
    _assert_fault_shown(at, "fr", str(tmp_path))
    blocker.unlink()
    at.run()
    assert not at.exception
    assert not at.error


def _seated(tmp_path: Path) -> tuple[Path, str, AppState]:
    """A class on a SQLite file with its first hand shown, and a learner seated in it."""
    data = tmp_path / "data"
    room = Classroom(store := Store(f"sqlite:///{data / 'tutor.sqlite3'}"))
    info, key = room.create("Fautes", PRESETS["family"], [ClassQuestion.parse("10♠ 6♥", "10♣")])
    room.next_question(room.open_as_teacher(info.code, key))
    state = AppState()
    room.join(info.code, "Zoé", learner_token=state.learner_token)
    store.close()
    return data, info.code, state


@pytest.fixture
def immutable() -> Iterator[list[Path]]:
    """Paths made read-only with ``chattr +i`` (root ignores file modes), restored afterwards."""
    paths: list[Path] = []
    yield paths
    for path in paths:
        subprocess.run(["chattr", "-i", str(path)], check=False)


def test_a_read_only_database_is_a_sentence(
    app_env: pytest.MonkeyPatch, tmp_path: Path, immutable: list[Path]
) -> None:
    data, code, state = _seated(tmp_path)
    app_env.setenv("TUTOR_DATA_DIR", str(data))
    for path in (data / "tutor.sqlite3", data):
        if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)]).returncode:
            pytest.skip("chattr +i is not available here")
        immutable.append(path)
    # Finding the seat again writes (a fresh token, a reconnection): refused by the file.
    at = _student_page(state, code)
    _assert_fault_shown(at, "fr", str(tmp_path), "readonly")
    for path in immutable:
        subprocess.run(["chattr", "-i", str(path)], check=True)
    at.run()
    assert not at.exception
    assert not at.error
    assert any("Question 1" in m.value for m in at.markdown)


def test_the_students_polling_screen_says_it_and_recovers(
    app_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    data, code, state = _seated(tmp_path)
    app_env.setenv("TUTOR_DATA_DIR", str(data))
    at = _student_page(state, code)
    assert not at.exception
    assert not at.error
    assert any("Question 1" in m.value for m in at.markdown)
    # The database goes away under the running class: the store's address now answers nothing
    # (``store()`` reads it at every call), then comes back.
    port = free_port()
    app_env.setenv("TUTOR_DATABASE_URL", f"postgresql+psycopg://tutor:hunter2@127.0.0.1:{port}/db")
    at.run()  # the seat is held: only the polling screen reads the database now
    _assert_fault_shown(at, "fr", "127.0.0.1", str(port), "hunter2")
    app_env.delenv("TUTOR_DATABASE_URL")
    at.run()
    assert not at.exception
    assert not at.error
    assert any("Question 1" in m.value for m in at.markdown)


def _in_a_browser(test: Callable[..., None]) -> Callable[..., None]:
    """The browser tests' marks (skipped, saying why, without chromium or Playwright)."""
    from tests.marks import BROWSER

    for mark in BROWSER:
        test = mark(test)
    return test


@pytest.mark.parametrize("fault", ["corrupt", "folder", "read-only"])
@_in_a_browser
def test_a_phone_shows_the_sentence_in_a_real_browser(
    fault: str, tmp_path: Path, immutable: list[Path], chromium_browser: object
) -> None:
    """The sentence as a student's phone shows it, served by ``streamlit run``; screenshots
    ``fault-<fault>-phone.png`` for a person to look at."""
    from serving import PHONE, app_server, new_page
    from serving import screenshot as shot

    data = tmp_path / "data"
    if fault == "corrupt":
        data.mkdir()
        (data / "tutor.sqlite3").write_bytes(b"this is not a database " * 400)
    elif fault == "folder":
        (tmp_path / "disk").write_text("a file where the folder should be")
        data = tmp_path / "disk" / "data"
    else:
        data, _code, _state = _seated(tmp_path)
        for path in (data / "tutor.sqlite3", data):
            if (
                shutil.which("chattr") is None
                or subprocess.run(["chattr", "+i", str(path)]).returncode
            ):
                pytest.skip("chattr +i is not available here")
            immutable.append(path)
    expected = translator("fr").gettext(SENTENCE)
    # The run's one chromium (a second Playwright in the same thread is refused); a server of
    # this test's own, on the broken database.
    with app_server(data) as url:
        page = new_page(chromium_browser, PHONE)
        page.goto(f"{url}/join?code=ABC234")  # type: ignore[attr-defined]
        page.get_by_text(expected).wait_for()  # type: ignore[attr-defined]
        body = page.inner_text("body")  # type: ignore[attr-defined]
        assert str(tmp_path) not in body
        assert "Traceback" not in body
        shot(page, f"fault-{fault}-phone")
        page.context.close()  # type: ignore[attr-defined]


def _database_goes_down(app_env: pytest.MonkeyPatch) -> int:
    """Point the store at a port where nothing listens (``store()`` reads it at every call)."""
    port = free_port()
    app_env.setenv("TUTOR_DATABASE_URL", f"postgresql+psycopg://tutor:hunter2@127.0.0.1:{port}/db")
    return port


def test_a_fault_inside_an_answer_click_is_said_once(
    app_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A button's callback runs before the script, outside ``app.py``'s guard: without its own
    guard, Streamlit drew its generic error and the page stopped."""
    data, code, state = _seated(tmp_path)
    app_env.setenv("TUTOR_DATA_DIR", str(data))
    at = _student_page(state, code)
    assert not at.exception
    assert not at.error
    port = _database_goes_down(app_env)
    at.button(key="class-answer-0-hit").click().run()
    _assert_fault_shown(at, "fr", "127.0.0.1", str(port), "hunter2")
    app_env.delenv("TUTOR_DATABASE_URL")
    at.run()  # back: the hand is still open, the answer was not stored, the buttons are there
    assert not at.exception
    assert not at.error
    assert at.button(key="class-answer-0-hit")


def test_a_fault_inside_the_join_click_is_said_once(
    app_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    data, code, _state = _seated(tmp_path)
    app_env.setenv("TUTOR_DATA_DIR", str(data))
    at = _student_page(AppState(), code)  # a new browser: the join form, the code filled in
    at.text_input(key="class-join-nickname").input("Léa")
    port = _database_goes_down(app_env)
    at.button(key="class-join-submit").click().run()
    _assert_fault_shown(at, "fr", "127.0.0.1", str(port), "hunter2")


def test_a_fault_inside_a_quiz_answer_is_said_once(
    app_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The quiz stores each answer in its callback: with the database gone, the learner reads
    the sentence once, no traceback, and the quiz goes on once it is back."""
    from tutor.quiz_questions import Category

    app_env.setenv("TUTOR_DATA_DIR", str(tmp_path / "data"))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.session_state["app"] = AppState(
        rules=PRESETS["american-s17"], quiz_category=Category.HARD
    )
    at.run()
    at.switch_page("tutor/ui/pages/quiz_page.py")
    at.run()
    assert not at.exception
    state = at.session_state["app"]
    assert isinstance(state, AppState)
    assert state.quiz is not None
    question = state.quiz.question
    assert question is not None
    assert question.point is not None
    port = _database_goes_down(app_env)
    action = sorted(question.point.legal, key=lambda a: a.value)[0]
    at.button(key=f"quiz-{action.value}").click().run()
    assert not at.exception
    sentence = translator("fr").gettext(SENTENCE)
    # Said once; the verdict on the answer is still shown (judging needs no database).
    assert [e.value for e in at.error].count(sentence) == 1
    assert at.success or len(at.error) == 2
    shown = _everything(at)
    for secret in ("127.0.0.1", str(port), "hunter2", "Traceback", "psycopg"):
        assert secret not in shown
    app_env.delenv("TUTOR_DATABASE_URL")
    at.run()
    assert not at.exception
    assert sentence not in [e.value for e in at.error]


@_in_a_browser
def test_the_sentence_goes_by_itself_once_the_database_is_back(
    tmp_path: Path, chromium_browser: object
) -> None:
    """A phone opened on a broken database keeps asking it (``RETRY_SECONDS``): once the operator
    restores it, the sentence goes and the page is there, with nobody touching the phone. Before,
    the run stopped at the fault and nothing ran again: the sentence stayed until a reload."""
    from serving import PHONE, app_server, new_page
    from serving import screenshot as shot

    data = tmp_path / "data"
    data.mkdir()
    broken = data / "tutor.sqlite3"
    broken.write_bytes(b"this is not a database " * 400)
    expected = translator("fr").gettext(SENTENCE)
    with app_server(data) as url:
        page = new_page(chromium_browser, PHONE)
        page.goto(f"{url}/join?code=ABC234")  # type: ignore[attr-defined]
        sentence = page.get_by_text(expected)  # type: ignore[attr-defined]
        sentence.wait_for()
        shot(page, "fault-clears-before")
        broken.unlink()  # the operator restores the database: here, a fresh one
        sentence.wait_for(state="detached", timeout=20_000)
        page.get_by_role("heading", name="Rejoindre une classe").wait_for()  # type: ignore[attr-defined]
        assert page.get_by_text(expected).count() == 0  # type: ignore[attr-defined]
        shot(page, "fault-clears-after")
        page.context.close()  # type: ignore[attr-defined]


@_in_a_browser
def test_a_click_that_met_the_fault_does_not_leave_the_sentence_behind(
    tmp_path: Path, immutable: list[Path], chromium_browser: object
) -> None:
    """A seated phone answers while the database refuses writes (``chattr +i``): the sentence
    shows in the polling screen, and the screen's next poll, the database back, draws the hand
    and its buttons without it. Drawn by the click's callback, it stayed on the phone."""
    from serving import PHONE, app_server, new_page
    from serving import screenshot as shot

    data, code, _state = _seated(tmp_path)
    expected = translator("fr").gettext(SENTENCE)
    with app_server(data) as url:
        page = new_page(chromium_browser, PHONE)
        page.goto(f"{url}/join?code={code}")  # type: ignore[attr-defined]
        page.get_by_role("textbox", name="Votre pseudo").fill("Léa")  # type: ignore[attr-defined]
        page.get_by_role("button", name="Rejoindre").click()  # type: ignore[attr-defined]
        hit = page.get_by_role("button", name="Tirer")  # type: ignore[attr-defined]
        hit.wait_for()
        for path in [*sorted(data.iterdir()), data]:  # the write-ahead log's files too
            if (
                shutil.which("chattr") is None
                or subprocess.run(["chattr", "+i", str(path)]).returncode
            ):
                pytest.skip("chattr +i is not available here")
            immutable.append(path)
        hit.click()
        sentence = page.get_by_text(expected)  # type: ignore[attr-defined]
        sentence.wait_for()
        shot(page, "fault-click-before")
        for path in immutable:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        sentence.wait_for(state="detached", timeout=20_000)
        hit.wait_for()  # the answer was not stored: the hand is still open to answer
        shot(page, "fault-click-after")
        page.context.close()  # type: ignore[attr-defined]


@_in_a_browser
def test_a_lost_connection_is_our_sentence_in_the_learners_language(
    tmp_path: Path, chromium_browser: object
) -> None:
    """The server stopped under a phone's page: the phone reads our sentence in French, never
    Streamlit's English « Connection error » dialog; the server back on its port, the page
    reconnects and the sentence goes. Screenshots ``connection-lost-phone`` and
    ``connection-back-phone``."""
    from serving import PHONE, app_server, free_port, new_page
    from serving import screenshot as shot

    french = translator("fr").gettext(
        "The connection to the server is lost, probably while it restarts. This page reconnects"
        " by itself in a moment; the answers you gave before are saved."
    )
    port = free_port()
    page = None
    with app_server(tmp_path / "data", port=port) as url:
        page = new_page(chromium_browser, PHONE)
        page.goto(f"{url}/join?code=ABC234")  # type: ignore[attr-defined]
        page.get_by_role("textbox", name="Votre pseudo").wait_for()  # type: ignore[attr-defined]
    # The server is stopped: the page notices its websocket closed.
    page.locator("[data-testid='stConnectionStatus']").wait_for()  # type: ignore[attr-defined]
    dialog = page.get_by_text("Connection error")  # type: ignore[attr-defined]
    dialog.wait_for(state="attached")  # Streamlit opened its dialog...
    assert not dialog.is_visible()  # ...which nobody sees
    after = page.evaluate(  # type: ignore[attr-defined]
        "getComputedStyle(document.body, '::after').content"
    )
    assert french in after
    shot(page, "connection-lost-phone")
    with app_server(tmp_path / "data", port=port):
        page.locator("[data-testid='stConnectionStatus']").wait_for(  # type: ignore[attr-defined]
            state="detached", timeout=60_000
        )
        page.get_by_role("textbox", name="Votre pseudo").wait_for()  # type: ignore[attr-defined]
        after = page.evaluate(  # type: ignore[attr-defined]
            "getComputedStyle(document.body, '::after').content"
        )
        assert french not in after
        shot(page, "connection-back-phone")
    page.context.close()  # type: ignore[attr-defined]


def _made_read_only(path: Path, immutable: list[Path]) -> None:
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)]).returncode:
        pytest.skip("chattr +i is not available here")
    immutable.append(path)


def test_a_store_opened_on_a_read_only_file_writes_again_once_the_file_is_writable(
    tmp_path: Path, immutable: list[Path]
) -> None:
    """SQLite opens a file it may not write read-only, and that connection never writes; the
    store throws it away at the refusal, so the next request opens the file again."""
    from tutor.identity import new_token
    from tutor.store import Learner

    file = tmp_path / "tutor.sqlite3"
    Store(f"sqlite:///{file}").close()
    _made_read_only(file, immutable)
    store = Store(f"sqlite:///{file}")  # opens: reading a read-only file is allowed
    with pytest.raises(sqlalchemy.exc.OperationalError, match="readonly"):
        store.learner_for_token(new_token())
    with pytest.raises(sqlalchemy.exc.OperationalError, match="readonly"):
        store.learner_for_token(new_token())  # still refused while the file is read-only
    subprocess.run(["chattr", "-i", str(file)], check=True)
    assert isinstance(store.learner_for_token(new_token()), Learner)
    store.close()


def test_a_page_served_from_a_read_only_file_works_once_the_file_is_writable_again(
    app_env: pytest.MonkeyPatch, tmp_path: Path, immutable: list[Path]
) -> None:
    """The server's one store is opened while the file is read-only (the page reads, then its
    first write is refused); the operator makes it writable and the next run of the page works,
    without a restart."""
    data, code, state = _seated(tmp_path)
    app_env.setenv("TUTOR_DATA_DIR", str(data))
    _made_read_only(data / "tutor.sqlite3", immutable)
    at = _student_page(state, code)
    _assert_fault_shown(at, "fr", str(tmp_path), "readonly")
    subprocess.run(["chattr", "-i", str(data / "tutor.sqlite3")], check=True)
    at.run()
    assert not at.exception
    assert not at.error
    assert any("Question 1" in m.value for m in at.markdown)


def test_a_database_error_names_the_statement_but_never_its_values(
    tmp_path: Path, immutable: list[Path]
) -> None:
    """The error's text goes to the operator's log: it says which statement failed, and holds
    neither the learner's token hash nor any other value the statement carried."""
    from tutor.identity import new_token, token_hash

    file = tmp_path / "tutor.sqlite3"
    Store(f"sqlite:///{file}").close()
    _made_read_only(file, immutable)
    store = Store(f"sqlite:///{file}")
    token = new_token()
    with pytest.raises(sqlalchemy.exc.OperationalError) as refused:
        store.learner_for_token(token)
    store.close()
    text = str(refused.value)
    assert "INSERT INTO learners" in text
    assert token_hash(token) not in text
    assert "parameters" in text  # SQLAlchemy's own note that it left them out
    assert token not in text


def test_refused_clicks_during_one_fault_log_a_line_each_and_one_traceback(
    app_env: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Twelve quiz answers while the database is down: each refused write is a line of the
    operator's log, and the traceback, the same every time, is written once."""
    from tutor.quiz_questions import Category

    app_env.setenv("TUTOR_DATA_DIR", str(tmp_path / "data"))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.session_state["app"] = AppState(
        rules=PRESETS["american-s17"], quiz_category=Category.HARD
    )
    at.run()
    at.switch_page("tutor/ui/pages/quiz_page.py")
    at.run()
    port = _database_goes_down(app_env)
    clicks = 12
    with caplog.at_level(logging.ERROR, logger="tutor.database"):
        for _click in range(clicks):
            state = at.session_state["app"]
            assert isinstance(state, AppState)
            assert state.quiz is not None
            question = state.quiz.question
            assert question is not None
            assert question.point is not None
            action = sorted(question.point.legal, key=lambda a: a.value)[0]
            at.button(key=f"quiz-{action.value}").click().run()
            assert not at.exception
            if at.button(key="quiz-next"):
                at.button(key="quiz-next").click().run()
    faults = [record for record in caplog.records if record.name == "tutor.database"]
    assert len(faults) >= clicks
    assert all("\n" not in record.getMessage() for record in faults)
    assert sum(1 for record in faults if record.exc_info) == 1
    assert str(port) in (next(r for r in faults if r.exc_info).exc_text or "")


def test_a_fault_of_another_kind_or_after_a_quiet_minute_logs_its_traceback_again() -> None:
    from tutor.ui.faults import FaultLog

    faults = FaultLog(episode_seconds=60)
    assert faults.new_episode("OperationalError: database is locked", 0.0)
    assert not faults.new_episode("OperationalError: database is locked", 30.0)
    assert not faults.new_episode("OperationalError: database is locked", 85.0)  # still going
    assert faults.new_episode("OSError: disk full", 86.0)
    assert faults.new_episode("OperationalError: database is locked", 150.0)  # a new episode
