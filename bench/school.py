"""A school's server under classes of real phones: ``deploy/school`` with 1 and then 2 app processes
behind HAProxy on one PostgreSQL database; C classes of P chromium phones each, every page through
the proxy.

What it costs and how fast it answers, per number of processes: each class's teacher creates it on
the class page (left open: the projector's view, polling like the phones), the phones join by the
join address, wait a measured while in the lobby (their pages poll every 2 s), then answer every
question at once and wait for each reveal. The script moves the classes on (next, reveal) through
``tutor.classroom.Classroom`` on the same database, so each reveal is timed from its commit. Phones
are driven as in ``bench/class_browser.py`` (one async Playwright browser, one context per phone),
whose steps this script imports.

Figures, one ``name: value unit`` line each, prefixed ``school_<N>proc_``:

- ``phones_on_appK``: how the proxy spread the phones (its cookie in each phone's browser);
- ``app_cpu_per_phone``: the app processes' CPU time over the waiting window, per second and per
  phone (cores per polling phone); ``proxy_cpu``: HAProxy's, in all;
- ``db_xact_per_s`` (``…_per_phone``): PostgreSQL transactions of the database (``pg_stat_database``
  commits and rollbacks) per second over the waiting window: what polling phones cost the database;
  ``db_statements_per_s`` when ``pg_stat_statements`` is loaded on the server (statements, the
  connection pool's pings included);
- ``answers_per_s``: answers acknowledged on the phones, divided by the time from the first click
  to the last acknowledgement of each question's burst, once every phone shows the question
  (median over the questions);
  ``app_cpu_answering`` and ``db_statements_per_s_answering``: the app processes' cores and the
  database's statements per second during those bursts (whether the server is the limit);
- ``join_p50/p95``: from a phone's Join click to its waiting screen (``…_shown``: by the page's
  own clock, as in ``bench/class_browser.py``), the phones of every class joining at once;
- ``reveal_p50/p95``: from a reveal's commit to its verdict on each phone (``…_shown``: by the
  page's own clock);
- ``answers_sent`` / ``answers_counted``: acknowledged clicks against rows in the database.

Needs PostgreSQL (``--database-url``, or ``TUTOR_TEST_POSTGRES_URL``: a server on which it creates a
database per run), HAProxy and chromium. The machine running the phones is the one measured: its
chromium pages share the cores with the server.

    .venv/bin/python bench/school.py --classes 2 --phones 8 --processes 1 2
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa  # noqa: E402
from playwright.async_api import Browser, Page, async_playwright  # noqa: E402

from bench.class_browser import (  # noqa: E402
    Phone,
    answer,
    cpu_seconds,
    create_class,
    each,
    join,
    print_spans,
    see_reveal,
)
from serving import (  # noqa: E402
    CHROMIUM,
    COOKIE,
    LAUNCH_ARGS,
    School,
    drop_database,
    new_database,
    running_school,
)
from tutor.classroom import Classroom, Teacher  # noqa: E402
from tutor.store import Store  # noqa: E402

STEP_TIMEOUT_MS = 120_000


@dataclass
class Room:
    """One class: its projector page, its teacher handle and its phones."""

    projector: Page
    code: str
    teacher: Teacher
    phones: list[Phone]


@dataclass
class Counters:
    """The database's activity counters at one moment."""

    at: float
    xacts: int
    statements: int | None


def counters(engine: sa.Engine, database: str) -> Counters:
    """``pg_stat_database``'s transactions of ``database`` and, when the extension is there,
    ``pg_stat_statements``' calls (read on a new connection: statistics are a snapshot per
    transaction)."""
    with engine.connect() as db:
        xacts = db.execute(
            sa.text(
                "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = :name"
            ),
            {"name": database},
        ).scalar_one()
        try:
            statements = db.execute(
                sa.text(
                    "SELECT coalesce(sum(s.calls), 0) FROM pg_stat_statements s"
                    " JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = :name"
                ),
                {"name": database},
            ).scalar_one()
        except sa.exc.DBAPIError:
            statements = None
    return Counters(time.monotonic(), int(xacts), None if statements is None else int(statements))


def has_statements(engine: sa.Engine) -> bool:
    """Whether ``pg_stat_statements`` counts here: loaded by the server, created in the database."""
    with engine.connect() as db:
        loaded = db.execute(sa.text("SHOW shared_preload_libraries")).scalar_one()
        if "pg_stat_statements" not in str(loaded):
            return False
        db.execute(sa.text("CREATE EXTENSION IF NOT EXISTS pg_stat_statements"))
        db.commit()
    return True


async def served_by(page: Page) -> str:
    cookies = await page.context.cookies()
    return next((str(c["value"]) for c in cookies if c["name"] == COOKIE), "none")


async def question_shown(phone: Phone, position: int) -> None:
    """Wait until the phone's page shows the buttons of question ``position``."""
    assert phone.page is not None
    await phone.page.locator(f".st-key-class-answer-{position}-hit button").wait_for()


def process_pids(school: School, processes: int) -> tuple[list[int], int]:
    apps = [school.pid(i) for i in range(1, processes + 1)]
    return apps, int((school.run / "proxy.pid").read_text())


async def run(school: School, room: Classroom, args: argparse.Namespace, label: str) -> None:
    """The classes from creation to the last reveal, printing the figures."""
    engine = sa.create_engine(school.database_url, isolation_level="AUTOCOMMIT")
    database = school.database_url.rsplit("/", 1)[1]
    statements = has_statements(engine)
    apps, proxy = process_pids(school, args.processes_now)
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        rooms = await open_classes(browser, school.url, room, args)
        phones = [phone for one in rooms for phone in one.phones]
        spread = Counter([await served_by(phone.page) for phone in phones if phone.page])
        for name in sorted(spread):
            print(f"{label}_phones_on_{name}: {spread[name]} phones")
        live = [phone for phone in phones if not phone.errors]

        # The waiting window: every phone in its lobby, its page polling.
        cpu_before = [cpu_seconds(pid) for pid in [*apps, proxy]]
        before = counters(engine, database)
        await asyncio.sleep(args.wait)
        after = counters(engine, database)
        cpu_after = [cpu_seconds(pid) for pid in [*apps, proxy]]
        elapsed = after.at - before.at
        app_cores = sum(cpu_after[:-1]) - sum(cpu_before[:-1])
        print(f"{label}_app_cpu_total: {app_cores / elapsed:.3f} cores")
        print(f"{label}_app_cpu_per_phone: {app_cores / elapsed / max(1, len(live)):.4f} cores")
        print(f"{label}_proxy_cpu: {(cpu_after[-1] - cpu_before[-1]) / elapsed:.4f} cores")
        xacts = (after.xacts - before.xacts) / elapsed
        print(f"{label}_db_xact_per_s: {xacts:.1f} transactions/s")
        print(f"{label}_db_xact_per_phone: {xacts / max(1, len(live)):.2f} transactions/s")
        if statements and after.statements is not None and before.statements is not None:
            calls = (after.statements - before.statements) / elapsed
            print(f"{label}_db_statements_per_s: {calls:.1f} statements/s")
            print(f"{label}_db_statements_per_phone: {calls / max(1, len(live)):.2f} statements/s")

        rates: list[float] = []
        reveals: list[float] = []
        busy = {"seconds": 0.0, "app": 0.0, "statements": 0.0}
        for position in range(args.questions):
            for one in rooms:
                await asyncio.to_thread(room.next_question, one.teacher)
            # Every phone shows the question first (its next poll, up to 2 s): the burst timed
            # below is the clicks and their acknowledgements, not the wait for the poll.
            await each(phones, question_shown, position)
            sent_before = sum(phone.sent for phone in phones)
            cpu_start, db_start = sum(cpu_seconds(pid) for pid in apps), counters(engine, database)
            start = time.monotonic()
            await each(phones, answer, position)
            burst = time.monotonic() - start
            db_end = counters(engine, database)
            busy["app"] += sum(cpu_seconds(pid) for pid in apps) - cpu_start
            busy["seconds"] += db_end.at - db_start.at
            busy["statements"] += (db_end.statements or 0) - (db_start.statements or 0)
            rates.append((sum(phone.sent for phone in phones) - sent_before) / burst)
            for one in rooms:
                await asyncio.to_thread(room.reveal, one.teacher)
            revealed_at = (time.monotonic(), time.time())
            seen = [len(phone.reveals_s) for phone in phones]
            await each(phones, see_reveal, revealed_at, STEP_TIMEOUT_MS)
            reveals += [
                phone.reveals_s[-1]
                for phone, count in zip(phones, seen, strict=True)
                if len(phone.reveals_s) > count
            ]
        await browser.close()
    engine.dispose()

    print(f"{label}_answers_per_s: {statistics.median(rates):.1f} answers/s")
    # While the phones answer: is the server the limit (a core per process busy) or the browser?
    print(f"{label}_app_cpu_answering: {busy['app'] / busy['seconds']:.3f} cores")
    if statements:
        print(
            f"{label}_db_statements_per_s_answering:"
            f" {busy['statements'] / busy['seconds']:.1f} statements/s"
        )
    joins = [phone.join_s for phone in phones if phone.join_s is not None]
    joins_shown = [phone.join_shown_s for phone in phones if phone.join_shown_s is not None]
    shown = [seconds for phone in phones for seconds in phone.reveals_shown_s]
    print_spans(
        label,
        {"join": joins, "join_shown": joins_shown, "reveal": reveals, "reveal_shown": shown},
        worst=False,
    )
    print(f"{label}_reveals_shown: {len(reveals)} of {len(phones) * args.questions} reveals")
    sent = sum(phone.sent for phone in phones)
    print(f"{label}_answers_sent: {sent} answers")
    stored = counted(school.database_url, [one.code for one in rooms])
    print(f"{label}_answers_counted: {stored} answers")
    failed = [phone for phone in phones if phone.errors]
    print(f"{label}_phones_failed: {len(failed)} phones")
    for phone in failed[:3]:
        print(f"# phone {phone.index}: {phone.errors[0]}", file=sys.stderr)


async def open_classes(
    browser: Browser, url: str, room: Classroom, args: argparse.Namespace
) -> list[Room]:
    """Each class created on its teacher's page, then its phones joined (all classes at once)."""
    rooms = []
    for number in range(args.classes):
        projector, code, key = await create_class(browser, url, args.questions)
        teacher = await asyncio.to_thread(room.open_as_teacher, code, key)
        phones = [Phone(number * args.phones + i) for i in range(args.phones)]
        rooms.append(Room(projector, code, teacher, phones))

    async def joined(phone: Phone, code: str) -> None:
        await join(browser, url, code, phone)

    await asyncio.gather(*(each(one.phones, joined, one.code) for one in rooms))
    return rooms


def counted(database_url: str, codes: list[str]) -> int:
    """The answers the database holds for these classes."""
    engine = sa.create_engine(database_url)
    query = sa.text(
        "SELECT count(*) FROM class_answers a JOIN class_questions q ON q.id = a.question_id"
        " JOIN class_sessions c ON c.id = q.session_id WHERE c.code = ANY(:codes)"
    )
    with engine.connect() as db:
        total = db.execute(query, {"codes": codes}).scalar_one()
    engine.dispose()
    return int(total)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--classes", type=int, default=2)
    parser.add_argument("--phones", type=int, default=8, help="phones per class")
    parser.add_argument("--questions", type=int, default=3)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--wait", type=float, default=30.0, help="seconds of waiting measured")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("TUTOR_TEST_POSTGRES_URL"),
        help="a PostgreSQL server's URL: a new database is created on it per run",
    )
    args = parser.parse_args()
    if not args.database_url:
        parser.error("give --database-url or set TUTOR_TEST_POSTGRES_URL (a PostgreSQL server)")
    for processes in args.processes:
        label = f"school_{processes}proc"
        args.processes_now = processes
        print(
            f"{label}_phones: {args.classes * args.phones} phones"
            f" ({args.classes} classes of {args.phones})"
        )
        database_url = new_database(args.database_url)
        with (
            tempfile.TemporaryDirectory() as folder,
            running_school(database_url, Path(folder), processes) as school,
        ):
            store = Store(database_url)
            try:
                asyncio.run(run(school, Classroom(store), args, label))
            finally:
                store.close()
        drop_database(args.database_url, database_url)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
