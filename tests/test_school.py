"""A school's server end to end: ``deploy/school`` starts two app processes and HAProxy on loopback
over one PostgreSQL database; a teacher and several students (chromium pages) go through the proxy,
spread over both processes; one process is killed in the middle of a question and started again.

What it checks: the proxy's cookie spreads the browsers over both processes and keeps each on its
own; a teacher on one process and students on the other see the same class; the students of the
killed process come back to their seats by themselves (the browser's cookie and the ``?code=`` of
the address), their earlier answers kept and not asked again; the restarted process serves a
latecomer; every answer is stored exactly once and every student sees every reveal.

Skipped, saying why, without PostgreSQL (``TUTOR_TEST_POSTGRES_URL``, started by ``.ci/run``),
HAProxy (``apt-get install haproxy``) or chromium.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from serving import COOKIE, LAPTOP, PHONE, School, drop_database, new_database, running_school
from serving import button as _button
from serving import new_page as _page
from serving import screenshot as _shot
from serving import wait_idle as _wait_idle
from tests.marks import BROWSER

HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"

pytestmark = [
    *BROWSER,
    pytest.mark.skipif(
        not os.environ.get("TUTOR_TEST_POSTGRES_URL"),
        reason="TUTOR_TEST_POSTGRES_URL is not set (.ci/run starts a PostgreSQL server)",
    ),
    pytest.mark.skipif(
        not os.access(HAPROXY, os.X_OK),
        reason="HAProxy is not installed (apt-get install haproxy)",
    ),
]


@pytest.fixture(scope="module")
def school(tmp_path_factory: pytest.TempPathFactory) -> Iterator[School]:
    server_url = os.environ["TUTOR_TEST_POSTGRES_URL"]
    database_url = new_database(server_url)
    try:
        with running_school(database_url, tmp_path_factory.mktemp("school-run")) as running:
            yield running
    finally:
        drop_database(server_url, database_url)


def served_by(page: object) -> str:
    """The process the proxy sends this browser to: its cookie (``app1``, ``app2``)."""
    cookies = page.context.cookies()  # type: ignore[attr-defined]
    names = [cookie["value"] for cookie in cookies if cookie["name"] == COOKIE]
    assert names, f"the proxy set no {COOKIE} cookie"
    return str(names[0])


def create_class(page: object, url: str, hands: list[str]) -> str:
    """The teacher creates a class of typed hands; its join code."""
    page.goto(f"{url}/class")  # type: ignore[attr-defined]
    page.get_by_role("textbox", name="Titre").fill("Salle 12")  # type: ignore[attr-defined]
    page.get_by_role("radio", name="des mains que je tape").click()  # type: ignore[attr-defined]
    _wait_idle(page)
    box = page.get_by_label(re.compile("^Mains, une par ligne"))  # type: ignore[attr-defined]
    box.fill("\n".join(hands))
    box.blur()
    _wait_idle(page)
    _button(page, "Créer la classe").click()  # type: ignore[attr-defined]
    _button(page, "Je l’ai notée").click()  # type: ignore[attr-defined]
    code_box = page.locator('div[aria-label="code"]').first  # type: ignore[attr-defined]
    code_box.wait_for()
    return str(code_box.inner_text().strip())


def join(
    browser: object, url: str, code: str, nickname: str, *, then: str = "Attendez que l’enseignant"
) -> object:
    """A phone opens the join address (the QR code's), types a nickname, joins, and waits for
    ``then`` (the lobby's words by default; a latecomer sees the current question)."""
    page = _page(browser, PHONE)
    page.goto(f"{url}/join?code={code}")  # type: ignore[attr-defined]
    box = page.locator(".st-key-class-join-code input")  # type: ignore[attr-defined]
    try:
        box.wait_for()
    except Exception:
        _shot(page, "school-join-failed-phone")  # for a person to see what the phone showed
        raise
    page.wait_for_function(  # type: ignore[attr-defined]
        "code => document.querySelector('.st-key-class-join-code input').value === code", arg=code
    )
    page.locator(".st-key-class-join-nickname input").fill(nickname)  # type: ignore[attr-defined]
    page.locator(".st-key-class-join-submit button").click()  # type: ignore[attr-defined]
    page.get_by_text(then).first.wait_for()  # type: ignore[attr-defined]
    return page


def answer(page: object, position: int, action: str) -> None:
    page.locator(f".st-key-class-answer-{position}-{action} button").click()  # type: ignore[attr-defined]
    page.get_by_text("Votre réponse").first.wait_for()  # type: ignore[attr-defined]


def answers_shown(teacher: object, count: int) -> None:
    """Wait until the projector's page counts ``count`` answers of ``count`` students."""
    metric = teacher.get_by_test_id("stMetricValue")  # type: ignore[attr-defined]
    metric.filter(has_text=f"{count} / {count}").wait_for()


def stored_answers(database_url: str, code: str) -> dict[tuple[str, int], int]:
    """How many rows the database holds per (nickname, question position) of the class: every
    stored answer, duplicates included (``Classroom.results`` keeps one per pair)."""
    import sqlalchemy as sa

    engine = sa.create_engine(database_url)
    query = sa.text(
        "SELECT s.nickname, q.position, count(*) AS n FROM class_answers a"
        " JOIN class_students s ON s.id = a.student_id"
        " JOIN class_questions q ON q.id = a.question_id"
        " JOIN class_sessions c ON c.id = q.session_id"
        " WHERE c.code = :code GROUP BY s.nickname, q.position"
    )
    with engine.connect() as db:
        rows = db.execute(query, {"code": code}).all()
    engine.dispose()
    return {(row.nickname, int(row.position)): int(row.n) for row in rows}


def class_seats(database_url: str, code: str) -> dict[str, int]:
    """The class's seats by nickname (one row each, or the dict would hide a second), with the
    number of times each was found again by a reconnecting browser."""
    import sqlalchemy as sa

    engine = sa.create_engine(database_url)
    query = sa.text(
        "SELECT s.nickname, s.reconnections FROM class_students s"
        " JOIN class_sessions c ON c.id = s.session_id WHERE c.code = :code"
    )
    with engine.connect() as db:
        rows = db.execute(query, {"code": code}).all()
    engine.dispose()
    assert len({row.nickname for row in rows}) == len(rows), "a nickname has two seats"
    return {row.nickname: int(row.reconnections) for row in rows}


def environment(pid: int) -> dict[str, str]:
    """A running process's environment (``/proc/<pid>/environ``)."""
    pairs = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(pair.decode().split("=", 1) for pair in pairs if b"=" in pair)


def _processes_up(status: str) -> int:
    """How many app processes ``deploy/school status`` says are up."""
    lines = status.splitlines()
    return sum(line.startswith("app process ") and "): up (pid " in line for line in lines)


def test_every_process_shares_the_database_and_the_data_folder(school: School) -> None:
    """One PostgreSQL database, one data folder (saved strategy solutions) in the run folder,
    one cookie secret: nothing a browser needs differs from one process to the other."""
    seen = [environment(school.pid(process)) for process in (1, 2)]
    for env in seen:
        assert env["TUTOR_DATABASE_URL"] == school.database_url
        assert Path(env["TUTOR_DATA_DIR"]) == school.run / "data"
    assert seen[0]["STREAMLIT_SERVER_COOKIE_SECRET"] == seen[1]["STREAMLIT_SERVER_COOKIE_SECRET"]
    assert (school.run / "data").is_dir()
    status = school.script("status")
    assert _processes_up(status) == 2, status
    assert "sending browsers to 2 of 2: app1 app2" in status, status


def test_a_class_spans_two_processes_and_survives_one_restarting(
    school: School, chromium_browser: object
) -> None:
    teacher = _page(chromium_browser, LAPTOP)
    code = create_class(teacher, school.url, ["10 6 / 10", "A 7 / 9"])
    teacher_process = served_by(teacher)

    names = [f"Élève {n}" for n in range(1, 5)]
    phones = {name: join(chromium_browser, school.url, code, name) for name in names}
    process_of = {name: served_by(page) for name, page in phones.items()}
    # The proxy spreads the browsers over both processes: the class spans them.
    assert set(process_of.values()) | {teacher_process} == {"app1", "app2"}, process_of
    # The victim serves students but not the teacher (a teacher's own tab reopens a class with
    # its key; the students are the ones who must not notice).
    victim = "app2" if teacher_process == "app1" else "app1"
    moved = [name for name, process in process_of.items() if process == victim]
    stayed = [name for name in names if name not in moved]
    assert moved, process_of
    assert stayed, process_of

    # The teacher on one process sees every student, those of the other process included.
    teacher.get_by_test_id("stMetricValue").filter(has_text=str(len(names))).wait_for()  # type: ignore[attr-defined]
    _shot(teacher, "school-teacher-lobby-laptop")
    _button(teacher, "Montrer la première main").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    for page in phones.values():
        page.get_by_text("Question 1 sur 2").wait_for()  # type: ignore[attr-defined]
    _shot(phones[moved[0]], "school-student-question-phone")

    # Half the class answers, one on each process at least; then the victim dies mid-question.
    early = [moved[0], stayed[0]]
    for name in early:
        answer(phones[name], 0, "hit")
    old_pid = school.pid(int(victim.removeprefix("app")))
    os.kill(old_pid, signal.SIGKILL)
    # The killed process's students reconnect through the proxy to the live process, by
    # themselves: their seat is found again from the cookie and the address, the answer given
    # before the crash kept (not asked again), the others still to give theirs.
    for name in moved:
        page = phones[name]
        page.get_by_text(f"Bon retour, {name}").wait_for()  # type: ignore[attr-defined]
        page.get_by_text("Question 1 sur 2").wait_for()  # type: ignore[attr-defined]
        if name in early:
            page.get_by_text("Votre réponse : Tirer").wait_for()  # type: ignore[attr-defined]
            assert page.locator(".st-key-class-answer-0-hit button").count() == 0  # type: ignore[attr-defined]
        assert served_by(page) != victim, f"{name} is still sent to the dead process"
    _shot(phones[moved[0]], "school-student-back-phone")
    # The set is started again: only the missing process starts, under a new pid.
    output = school.script("start")
    assert f"app process {victim.removeprefix('app')} started" in output, output
    assert school.pid(int(victim.removeprefix("app"))) != old_pid
    assert _processes_up(school.script("status")) == 2
    for name in names:
        if name not in early:
            answer(phones[name], 0, "stand")
    answers_shown(teacher, len(names))
    _button(teacher, "Révéler").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    for page in phones.values():
        page.get_by_text("Attendez la main suivante").wait_for()  # type: ignore[attr-defined]

    # The restarted process serves again: a latecomer goes to it (it holds the fewest pages).
    late = "Retardataire"
    phones[late] = join(chromium_browser, school.url, code, late, then="Question 1 sur 2")
    assert served_by(phones[late]) == victim
    _button(teacher, "Main suivante").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    for name, page in phones.items():
        page.get_by_text("Dernière question (2 sur 2)").wait_for()  # type: ignore[attr-defined]
        answer(page, 1, "stand" if name == late else "hit")
    answers_shown(teacher, len(phones))
    _button(teacher, "Révéler").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    _shot(teacher, "school-teacher-reveal-laptop")
    for page in phones.values():  # the last question's reveal: the score comes at the end
        page.get_by_text("C’était la dernière question").wait_for()  # type: ignore[attr-defined]
    _shot(phones[late], "school-student-verdict-phone")

    # Every answer stored exactly once: one row per student and question they saw.
    expected = {(name, 0): 1 for name in names} | {(name, 1): 1 for name in phones}
    assert stored_answers(school.database_url, code) == expected
    # One seat each, the reconnected students' included (their seat counted its reconnection).
    seats = class_seats(school.database_url, code)
    assert sorted(seats) == sorted(phones)
    assert all(seats[name] >= 1 for name in moved), seats
    for page in [teacher, *phones.values()]:
        page.context.close()  # type: ignore[attr-defined]


def test_a_recovery_code_reaches_no_log_of_the_proxy_or_the_apps(
    school: School, chromium_browser: object
) -> None:
    """The "continue on another device" QR code's address, opened through the proxy: the code
    is in its fragment, which no request carries; and an address that does carry one in its
    query string (an old QR code, a pasted link) leaves no trace of it in the proxy's log."""
    import urllib.request

    owner = _page(chromium_browser, LAPTOP)
    owner.goto(f"{school.url}/settings")  # type: ignore[attr-defined]
    owner.get_by_role("heading", name="Réglages").wait_for()  # type: ignore[attr-defined]
    owner.get_by_text("English", exact=True).first.click()  # type: ignore[attr-defined]
    _wait_idle(owner)
    owner.get_by_role("heading", name="Settings").wait_for()  # type: ignore[attr-defined]
    code = owner.locator('p[aria-label="recovery code"]').inner_text().strip()  # type: ignore[attr-defined]
    bare = code.replace("-", "")

    phone = _page(chromium_browser, PHONE)
    phone.goto(f"{school.url}/settings#restore={code}")  # type: ignore[attr-defined]
    phone.get_by_text("Welcome back").wait_for()  # type: ignore[attr-defined]
    # A code in a query string, as an old QR code sent it: the proxy logs the path only.
    with urllib.request.urlopen(f"{school.url}/settings?restore={bare}", timeout=30) as answer:
        assert answer.status == 200

    logs = school.run / "logs"
    proxy = (logs / "proxy.log").read_text(errors="replace")
    assert "GET /settings HTTP/1.1" in proxy  # the request was logged, without its query
    for log in logs.glob("*.log"):
        assert bare not in log.read_text(errors="replace").upper().replace("-", ""), log.name


def test_status_says_one_state_per_process_when_one_is_killed(school: School) -> None:
    """A process killed a moment ago is "stopped", and only that: the proxy, whose health check
    has not run since (every 2 s, two failures to mark it DOWN), is not quoted beside it as
    seeing it UP. ``deploy/school start`` then brings it back "up"."""
    victim = 2
    os.kill(school.pid(victim), signal.SIGKILL)
    status = school.script("status")
    lines = status.splitlines()
    (line,) = [line for line in lines if line.startswith(f"app process {victim} ")]
    assert line.endswith("): stopped"), status
    assert "UP" not in status, status
    assert lines[-1].endswith("sending browsers to 1 of 2: app1"), status
    school.script("start")
    deadline = time.monotonic() + 60
    while "sending browsers to 2 of 2" not in (status := school.script("status")):
        assert time.monotonic() < deadline, status
        time.sleep(0.5)
    assert _processes_up(status) == 2, status


def test_a_lesson_published_through_one_process_is_played_through_the_other_at_once(
    school: School, chromium_browser: object
) -> None:
    """« Mes leçons » on a school's server: the teacher publishes on one process; a student sent
    to the other (the proxy's cookie names it) opens the link the same minute and plays it, with
    no file on the server and no restart; the student's progress is in the shared database."""
    import sqlalchemy as sa

    teacher = _page(chromium_browser, LAPTOP)
    teacher.goto(f"{school.url}/my-lessons")  # type: ignore[attr-defined]
    _button(teacher, "Nouvelle leçon").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    _button(teacher, "Je l’ai notée").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    _button(teacher, "Publier").click()  # type: ignore[attr-defined]
    _wait_idle(teacher)
    qr = teacher.locator('img[src^="data:image/svg+xml"][alt*="?l="]')  # type: ignore[attr-defined]
    qr.first.wait_for()
    link = str(qr.first.get_attribute("alt"))
    assert link.startswith(school.url + "/?l="), link  # TUTOR_PUBLIC_URL: the proxy's address
    token = link.rsplit("?l=", 1)[1]
    other = "app2" if served_by(teacher) == "app1" else "app1"

    student = _page(chromium_browser, PHONE)
    student.context.add_cookies(  # type: ignore[attr-defined]
        [{"name": COOKIE, "value": other, "url": school.url}]
    )
    student.goto(link)  # type: ignore[attr-defined]
    student.get_by_text("Avec un 17 dur, on reste").wait_for()  # type: ignore[attr-defined]
    assert served_by(student) == other
    for _step in range(2):
        _button(student, "Suivant").click()  # type: ignore[attr-defined]
        _wait_idle(student)
    student.get_by_label("Votre réponse").fill("17")  # type: ignore[attr-defined]
    _button(student, "Vérifier").click()  # type: ignore[attr-defined]
    _wait_idle(student)
    student.get_by_text("Exact !").first.wait_for()  # type: ignore[attr-defined]
    _button(student, "Suivant").click()  # type: ignore[attr-defined]
    _wait_idle(student)
    _button(student, "Rester").click()  # type: ignore[attr-defined]
    _wait_idle(student)
    student.get_by_text("Leçon terminée").wait_for()  # type: ignore[attr-defined]
    _shot(student, "school-authored-lesson-played-phone")

    engine = sa.create_engine(school.database_url)
    with engine.connect() as db:
        completed = db.execute(
            sa.text("SELECT completed FROM lesson_progress WHERE lesson_id = :key"),
            {"key": "@" + token},
        ).scalars().all()
    engine.dispose()
    assert completed == [4]
    for page in (teacher, student):
        page.context.close()  # type: ignore[attr-defined]


def test_an_export_through_the_proxy_downloads_once_and_leaves_no_media_address_in_its_log(
    school: School, chromium_browser: object
) -> None:
    """« Mes données » and a strategy chart, downloaded through the proxy from each process: each
    click's one-time ticket is fetched by a ``POST`` to one fixed address, on the process that
    made it (the proxy's cookie keeps the browser there); the proxy's log holds that address
    and no ``/media`` one; the ticket, replayed by a browser with no cookie, gets nothing."""
    import json

    from tutor.identity import new_token
    from tutor.store import Store

    tickets: list[str] = []
    for process in ("app1", "app2"):
        token = new_token()
        store = Store(school.database_url)
        learner = store.learner_for_token(token)
        assert learner is not None
        store.set_nickname(learner, f"Zoé {process}")
        store.close()
        page = _page(chromium_browser, LAPTOP)
        page.context.add_cookies(  # type: ignore[attr-defined]
            [
                {"name": COOKIE, "value": process, "url": school.url},
                {"name": "tutor_learner", "value": token, "url": school.url},
            ]
        )
        page.on(  # type: ignore[attr-defined]
            "request",
            lambda request: tickets.append(request.post_data or "")
            if request.url.endswith("/_tutor/download")
            else None,
        )
        page.goto(f"{school.url}/settings")  # type: ignore[attr-defined]
        with page.expect_download() as started:  # type: ignore[attr-defined]
            _button(page, "Télécharger mes données (JSON)").click()  # type: ignore[attr-defined]
        export = json.loads(Path(started.value.path()).read_text(encoding="utf-8"))
        assert export["nickname"] == f"Zoé {process}"
        page.goto(f"{school.url}/strategy")  # type: ignore[attr-defined]
        with page.expect_download() as started:  # type: ignore[attr-defined]
            _button(page, "Télécharger en CSV").click()  # type: ignore[attr-defined]
        assert started.value.suggested_filename.endswith(".csv")
        assert served_by(page) == process
        page.context.close()  # type: ignore[attr-defined]
    assert len(tickets) == 4
    fresh = chromium_browser.new_context()  # type: ignore[attr-defined]
    for ticket in tickets:
        answer = fresh.request.post(f"{school.url}/_tutor/download", data=ticket)
        assert answer.status in (404, 410)
        assert "Zoé" not in answer.text()
    fresh.close()

    proxy = (school.run / "logs" / "proxy.log").read_text(errors="replace")
    assert proxy.count("POST /_tutor/download HTTP/1.1") >= 8  # four downloads, four replays
    assert "/media" not in proxy
    for ticket in tickets:
        assert ticket not in proxy
