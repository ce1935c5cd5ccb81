"""A class of phones at the protocol: N clients that speak Streamlit's own websocket protocol
(``/_stcore/stream``, the ``BackMsg``/``ForwardMsg`` protobufs of the installed streamlit) join a
class, wait, answer each question and see each reveal, against one ``streamlit run serve.py``
process (as ``make serve`` runs it) or ``--school``: ``deploy/school``'s processes behind HAProxy
on PostgreSQL (``TUTOR_TEST_POSTGRES_URL``; ``scripts/postgres-for-tests start`` prints one).

Why not chromium (``bench/class_browser.py``): a chromium page costs this machine 2-3 CPU-s over a
class against the server's tenth of a second, so forty pages measure the browsers. A phone here
costs a few tens of ms of CPU for the whole class, so hundreds fit beside the server.

What a phone does, as the page's own JavaScript would:

- opens the websocket from its own loopback address (127.0.0.2, 127.0.0.3 …: the per-address
  limits see one client each), and asks for the join page (``page_name="join"``, the address's
  ``?code=…``, a French browser);
- reads the ``navigation`` message for the page hash its reruns carry (the one in ``new_session``
  is the main script's, which draws the Lessons page);
- submits the join form: its widget states (the code, a nickname) and the submit button's
  trigger;
- honours the screen fragment's own timer (``auto_rerun``: its fragment id and interval), as the
  page does, or the pushes the server sends on a class step stop coming;
- presses Hit or Stand (alternating by phone): the button's trigger, with the fragment id the
  button's delta carries;
- sees a screen when the run that draws it sends its text (the time is that of the message).

The teacher is driven in this process through ``tutor.classroom.Classroom`` on the server's
database (the class created from typed hands, then next and reveal for each question): each
reveal is timed from its commit, and the server's work measured is all the phones'. (The teacher's
page would add one session polling like a phone; it is left out.) No static file is fetched: a
phone's browser loads the page's files once, and that cost is the static server's.

Figures, one ``name: value unit`` line each:

- ``class_protocol_seated``: phones that reached the waiting screen;
- ``class_protocol_join_p95``: from a phone opening its websocket to its waiting screen (the
  page's first run and the join's run);
- ``class_protocol_reveal_p50/p95/max``: from a reveal's commit to its verdict on each phone,
  over every question;
- ``class_protocol_reveals_seen``: verdicts seen, of phones × questions;
- ``class_protocol_answers_counted``: answers the database holds (of those the phones sent:
  ``class_protocol_answers_sent``);
- ``class_protocol_server_cpu_per_phone_reveal``: the server processes' own CPU
  (``/proc/PID/stat``) from a reveal's commit to its last phone's verdict, divided by the phones
  (median over the questions);
- ``class_protocol_server_cpu_per_join``: the server's CPU from the first phone connecting to the
  last one seated, divided by the phones seated;
- ``class_protocol_client_cpu_per_phone``: this process's CPU over the whole class, the
  teacher's calls taken out, divided by the phones.

Where a reveal's server time goes (2026-12-07, ``--profile`` at 300 phones on one process,
py-spy's GIL holder over the four questions, 3,910 samples): 62 % in the script runs, of which
the screen fragment's own code (``student_screen``) is 27 % (the shared reads of
``student_view`` 8 %, the hand's markdown block 7 %, the verdict 3 %, the ``cache_resource``
look-ups of ``classroom()``/``followers()`` 3 %), the answer's callback 8 % (its SQL
transaction 7 %), and Streamlit's own run machinery the rest: the fragment wrapper's
``deepcopy`` of the page's cursors 8 %, the run context's reset 5 %, each delta's enqueueing
6 %. On the event loop: the ``new_session`` message Streamlit builds at every run, fragment runs
included, 9 % (its theme part 6 %, config look-ups 4 %), ``request_rerun`` 5 %, the websocket
sends 4 %. The push thread's look (one read of the session's row per class every 0.1 s, not per
phone) 7 %; the database, all of it, 5 %. A fragment run of a revealed screen sends
``new_session`` (1.4 kB), one block, the hand (4 kB of markdown) and one or two texts.

    .venv/bin/python bench/class_protocol.py --phones 40
    TUTOR_TEST_POSTGRES_URL=… .venv/bin/python bench/class_protocol.py --phones 100 --school
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from serving import app_server, drop_database, new_database, running_school  # noqa: E402
from tutor.classroom import ClassQuestion, Classroom, Teacher  # noqa: E402
from tutor.rules import PRESETS  # noqa: E402
from tutor.store import Store  # noqa: E402

#: Hands whose legal plays include Hit and Stand (the phones alternate between them).
HANDS = [("10♠ 6♥", "10♣"), ("A♠ 7♥", "9♣"), ("9♠ 3♥", "2♣"), ("8♠ 8♥", "10♦")]
#: What the French phone shows (the app's default language): waiting, answered, revealed.
WAITING = "Attendez que l’enseignant montre la première"
ANSWERED = "Votre réponse"
REVEALED = ("Attendez la main suivante", "C’était la dernière question")
#: The join page's widgets, by key (Streamlit's widget ids end with ``-<key>``).
CODE_KEY, NICKNAME_KEY, SUBMIT_KEY = "class-join-code", "class-join-nickname", "class-join-submit"
ANSWER_PREFIX = "class-answer-"
#: How long one step of one phone may take before the phone counts as broken.
STEP_TIMEOUT_S = 60.0
CLK_TCK = os.sysconf("SC_CLK_TCK")


# -- one phone ------------------------------------------------------------------------------------


@dataclass
class Screen:
    """What one script run (the page's or the screen fragment's) drew: its texts and buttons."""

    at: float
    texts: list[str] = field(default_factory=list)
    #: Widget key -> (widget id, fragment id of its delta).
    buttons: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: When the first delta holding each watched text arrived (``time.monotonic``).
    shown: dict[str, float] = field(default_factory=dict)

    def has(self, text: str) -> bool:
        return any(text in each for each in self.texts)

    def revealed_at(self) -> float | None:
        times = [self.shown[text] for text in REVEALED if text in self.shown]
        return min(times) if times else None


@dataclass
class Phone:
    """One student's phone: its connection, what the server told it, and what it saw."""

    index: int
    address: str
    socket: Any = None
    page_hash: str = ""
    query: str = ""
    fragment: str = ""
    interval: float = 0.0
    widgets: dict[str, str] = field(default_factory=dict)  # key -> widget id
    screens: list[Screen] = field(default_factory=list)
    drawing: Screen | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    timer: asyncio.Task[None] | None = None
    reader: asyncio.Task[None] | None = None
    join_s: float | None = None
    reveals_s: list[float] = field(default_factory=list)
    sent: int = 0
    errors: list[str] = field(default_factory=list)

    async def send(self, *, fragment: str = "", widgets: list[Any] | None = None,
                   auto: bool = False, page_name: str = "") -> None:
        message = BackMsg()
        state = message.rerun_script
        state.query_string = self.query
        state.page_script_hash = self.page_hash
        state.page_name = page_name
        state.fragment_id = fragment
        state.is_auto_rerun = auto
        state.context_info.locale = "fr-FR"
        state.context_info.timezone = "Europe/Paris"
        for widget in widgets or []:
            state.widget_states.widgets.append(widget)
        await self.socket.send(message.SerializeToString())

    def receive(self, data: bytes) -> None:
        message = ForwardMsg()
        message.ParseFromString(data)
        kind = message.WhichOneof("type")
        now = time.monotonic()
        if kind == "navigation":
            self.page_hash = message.navigation.page_script_hash
        elif kind == "auto_rerun":
            self.fragment = message.auto_rerun.fragment_id
            self.interval = message.auto_rerun.interval
            if self.timer is None:
                self.timer = asyncio.create_task(self._tick())
        elif kind == "stop_auto_rerun" and self.timer is not None:
            self.timer.cancel()
            self.timer = None
        elif kind == "delta" and message.delta.WhichOneof("type") == "new_element":
            screen = self.drawing = self.drawing or Screen(now)
            element = message.delta.new_element
            which = element.WhichOneof("type")
            if which is None:
                return
            part = getattr(element, which)
            widget_id = getattr(part, "id", "")
            if widget_id:
                key = widget_id.split("-", 2)[-1]  # "$$ID-<hash>-<key>"
                self.widgets[key] = widget_id
                if which == "button":
                    screen.buttons[key] = (widget_id, message.delta.fragment_id)
            text = getattr(part, "body", "")
            if text:
                screen.texts.append(text)
                for watched in (WAITING, ANSWERED, *REVEALED):
                    if watched in text:
                        screen.shown.setdefault(watched, now)
        elif kind == "script_finished" and self.drawing is not None:
            self.screens.append(self.drawing)
            self.drawing = None
            self.changed.set()

    async def _read(self) -> None:
        async for data in self.socket:
            if isinstance(data, bytes):
                self.receive(data)

    async def _tick(self) -> None:
        """The screen fragment's own timer, as the page keeps it."""
        while True:
            await asyncio.sleep(self.interval)
            await self.send(fragment=self.fragment, auto=True)

    async def wait_for(self, seen: Callable[[Screen], bool], after: int) -> tuple[int, Screen]:
        """The first screen drawn from index ``after`` on for which ``seen`` holds."""
        async with asyncio.timeout(STEP_TIMEOUT_S):
            while True:
                for index in range(after, len(self.screens)):
                    if seen(self.screens[index]):
                        return index, self.screens[index]
                after = len(self.screens)
                self.changed.clear()
                await self.changed.wait()

    async def close(self) -> None:
        for task in (self.timer, self.reader):
            if task is not None:
                task.cancel()
        if self.socket is not None:
            await self.socket.close()


def trigger(widget_id: str) -> Any:
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    return WidgetState(id=widget_id, trigger_value=True)


def text_value(widget_id: str, value: str) -> Any:
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    return WidgetState(id=widget_id, string_value=value)


async def join(phone: Phone, url: str, code: str) -> None:
    """Open the join address (the QR code's), fill the form in, join, wait for the lobby."""
    start = time.monotonic()
    await connect(phone, url, code)
    index, _form = await phone.wait_for(lambda screen: SUBMIT_KEY in screen.buttons, 0)
    await phone.send(widgets=[
        text_value(phone.widgets[CODE_KEY], code),
        text_value(phone.widgets[NICKNAME_KEY], f"Phone {phone.index}"),
        trigger(phone.widgets[SUBMIT_KEY]),
    ])
    await phone.wait_for(lambda screen: screen.has(WAITING), index + 1)
    phone.join_s = time.monotonic() - start


async def connect(phone: Phone, url: str, code: str) -> None:
    """The websocket from the phone's own address, and the join page asked for."""
    phone.query = f"code={code}"
    phone.socket = await websockets.connect(
        url.replace("http://", "ws://") + "/_stcore/stream",
        subprotocols=[websockets.Subprotocol("streamlit")],
        local_addr=(phone.address, 0),
        max_size=None,
        open_timeout=STEP_TIMEOUT_S,
        ping_interval=None,
    )
    phone.reader = asyncio.create_task(phone._read())
    await phone.send(page_name="join")


async def warm(phone: Phone, url: str, code: str) -> None:
    """Open the join page once before the class, untimed and not seated: a server's first page
    loads and checks the course, which is no phone's join (the teacher's page pays it in class)."""
    await connect(phone, url, code)
    await phone.wait_for(lambda screen: SUBMIT_KEY in screen.buttons, 0)
    await phone.close()


async def answer(phone: Phone, position: int) -> None:
    """Once the question's buttons show, press Hit or Stand (alternating by phone)."""
    action = "hit" if phone.index % 2 else "stand"
    key = f"{ANSWER_PREFIX}{position}-{action}"
    index, screen = await phone.wait_for(lambda screen: key in screen.buttons, 0)
    widget_id, fragment = screen.buttons[key]
    await phone.send(fragment=fragment, widgets=[trigger(widget_id)])
    phone.sent += 1
    await phone.wait_for(lambda screen: screen.has(ANSWERED), index + 1)


async def see_reveal(phone: Phone, marks: dict[int, int], revealed_at: float) -> None:
    """The verdict drawn after the reveal (a screen drawn since ``marks[phone.index]``)."""
    _index, screen = await phone.wait_for(
        lambda screen: screen.revealed_at() is not None, marks[phone.index]
    )
    shown = screen.revealed_at()
    assert shown is not None
    phone.reveals_s.append(shown - revealed_at)


async def each(phones: list[Phone], step: Callable[..., Awaitable[None]], *args: object) -> None:
    """One step on every working phone at once; a phone whose step fails is noted and left out of
    the later steps, so one broken phone does not hide the figures of the others."""
    live = [phone for phone in phones if not phone.errors]
    results = await asyncio.gather(*(step(phone, *args) for phone in live), return_exceptions=True)
    for phone, result in zip(live, results, strict=True):
        if isinstance(result, BaseException):
            phone.errors.append(f"{step.__name__}: {type(result).__name__}: {result}"[:300])


# -- the class ------------------------------------------------------------------------------------


def cpu_seconds(pids: list[int]) -> float:
    """User plus system CPU time of these processes (all their threads), in seconds."""
    total = 0.0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime, stime (proc(5): 14, 15)
    return total


def addresses(count: int) -> list[str]:
    """127.0.0.2, 127.0.0.3 …: one loopback address per phone."""
    first = int(ipaddress.IPv4Address("127.0.0.2"))
    return [str(ipaddress.IPv4Address(first + index)) for index in range(count)]


@dataclass
class Outcome:
    """What a class measured: the figures, and the counts a test asserts."""

    phones: int
    questions: int
    seated: int
    answers_sent: int
    answers_counted: int
    reveals_seen: int
    figures: dict[str, str]
    errors: list[str]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


class TeacherDesk:
    """The teacher's steps in this process, each in a thread (the phones' loop keeps running),
    with the CPU they took (left out of the client's)."""

    def __init__(self, room: Classroom, teacher: Teacher) -> None:
        self.room, self.teacher, self.cpu = room, teacher, 0.0

    async def step(self, name: str) -> None:
        def timed() -> None:
            start = time.thread_time()
            getattr(self.room, name)(self.teacher)
            self.cpu += time.thread_time() - start

        await asyncio.to_thread(timed)


async def run_class(
    url: str,
    room: Classroom,
    pids: list[int],
    phones_count: int,
    questions: int,
    *,
    profile: Path | None = None,
) -> Outcome:
    """Create a class, seat ``phones_count`` phones over the protocol, ask and reveal
    ``questions`` hands; what it measured. ``profile``: py-spy's samples of the server processes
    over the questions (``py_spy``), in this file."""
    hands = [ClassQuestion.parse(*HANDS[i % len(HANDS)]) for i in range(questions)]
    info, key = await asyncio.to_thread(room.create, "bench", PRESETS["family"], hands)
    desk = TeacherDesk(room, await asyncio.to_thread(room.open_as_teacher, info.code, key))
    every = addresses(phones_count + 1)
    await warm(Phone(-1, every[-1]), url, info.code)
    phones = [Phone(i, address) for i, address in enumerate(every[:phones_count])]
    client_before = time.process_time()
    before, clock = cpu_seconds(pids), time.monotonic()
    await each(phones, join, url, info.code)
    join_cpu = cpu_seconds(pids) - before
    seated_s = time.monotonic() - clock
    seated = [phone for phone in phones if phone.join_s is not None]
    reveal_cpu: list[float] = []
    spy = py_spy(pids, profile) if profile is not None else None
    for position in range(questions):
        await desk.step("next_question")
        await each(phones, answer, position)
        marks = {phone.index: len(phone.screens) for phone in phones}
        await desk.step("reveal")  # returns just after the commit
        revealed_at, before = time.monotonic(), cpu_seconds(pids)
        await each(phones, see_reveal, marks, revealed_at)
        reveal_cpu.append(cpu_seconds(pids) - before)
    for process in spy or []:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)
    client_cpu = time.process_time() - client_before - desk.cpu
    results = await asyncio.to_thread(room.results, desk.teacher)
    for phone in phones:
        await phone.close()
    counted = sum(1 for row in results.rows if row.answer is not None)
    joins = [phone.join_s for phone in seated if phone.join_s is not None]
    reveals = [seconds for phone in phones for seconds in phone.reveals_s]
    live = max(1, sum(1 for phone in phones if not phone.errors))
    prefix = "class_protocol"
    figures = {
        f"{prefix}_phones": f"{phones_count} phones",
        f"{prefix}_seated": f"{len(seated)} phones",
        f"{prefix}_all_seated": f"{seated_s:.2f} s",
        f"{prefix}_join_p50": f"{statistics.median(joins):.2f} s" if joins else "none s",
        f"{prefix}_join_p95": f"{percentile(joins, 0.95):.2f} s" if joins else "none s",
        f"{prefix}_reveal_p50": f"{statistics.median(reveals):.2f} s" if reveals else "none s",
        f"{prefix}_reveal_p95": f"{percentile(reveals, 0.95):.2f} s" if reveals else "none s",
        f"{prefix}_reveal_max": f"{max(reveals):.2f} s" if reveals else "none s",
        f"{prefix}_reveals_seen": f"{len(reveals)} reveals",
        f"{prefix}_answers_sent": f"{sum(phone.sent for phone in phones)} answers",
        f"{prefix}_answers_counted": f"{counted} answers",
        f"{prefix}_server_cpu_per_phone_reveal":
            f"{1000 * statistics.median(reveal_cpu) / live:.1f} ms",
        f"{prefix}_server_cpu_per_join": f"{1000 * join_cpu / max(1, len(seated)):.1f} ms",
        f"{prefix}_client_cpu_per_phone": f"{1000 * client_cpu / phones_count:.1f} ms",
        f"{prefix}_phones_failed": f"{phones_count - live} phones",
    }
    return Outcome(
        phones=phones_count,
        questions=questions,
        seated=len(seated),
        answers_sent=sum(phone.sent for phone in phones),
        answers_counted=counted,
        reveals_seen=len(reveals),
        figures=figures,
        errors=[f"phone {phone.index}: {phone.errors[0]}" for phone in phones if phone.errors],
    )


def py_spy(pids: list[int], out: Path) -> list[subprocess.Popen[bytes]]:
    """``py-spy record`` of each server process, without stopping it to sample it: the thread
    holding the GIL only (``--gil``), since py-spy's idle detection here counts sleeping and
    lock-waiting threads as busy (a config file's poll, ``TickCache``'s lock), and the GIL's
    holder is where a Python server's CPU goes. py-spy's raw format (one line per stack and its
    count: ``out`` with the process's pid before its suffix); stopped by SIGINT. py-spy is not
    one of the project's dependencies: ``pip install py-spy`` anywhere, on ``PATH`` or in
    ``PY_SPY``."""
    program = os.environ.get("PY_SPY") or shutil.which("py-spy") or "py-spy"
    spies = [
        subprocess.Popen(
            [program, "record", "--pid", str(pid), "--nonblocking", "--gil", "--rate", "250",
             "--format", "raw", "-o", str(out.with_stem(f"{out.stem}-{pid}"))],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for pid in pids
    ]
    time.sleep(1.0)  # py-spy attaches before the first question
    return spies


@contextmanager
def one_process() -> Iterator[tuple[str, Classroom, list[int]]]:
    """One ``streamlit run serve.py`` on a database of its own, and the teacher's classroom on
    that database."""
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        store = Store(f"sqlite:///{data / 'tutor.sqlite3'}")  # the server's TUTOR_DATA_DIR file
        try:
            with app_server(data) as url:
                yield url, Classroom(store), [server_pid(int(url.rsplit(":", 1)[1]))]
        finally:
            store.close()


@contextmanager
def school(processes: int) -> Iterator[tuple[str, Classroom, list[int]]]:
    """``deploy/school``'s processes behind HAProxy on a new PostgreSQL database of
    ``TUTOR_TEST_POSTGRES_URL``'s server."""
    server_url = os.environ.get("TUTOR_TEST_POSTGRES_URL")
    if not server_url:
        raise SystemExit("--school needs TUTOR_TEST_POSTGRES_URL (scripts/postgres-for-tests)")
    database_url = new_database(server_url)
    try:
        with tempfile.TemporaryDirectory() as folder, running_school(
            database_url, Path(folder), processes
        ) as running:
            store = Store(database_url)
            try:
                pids = [running.pid(n) for n in range(1, processes + 1)]
                yield running.url, Classroom(store), pids
            finally:
                store.close()
                school_logs(Path(folder) / "logs")
    finally:
        drop_database(server_url, database_url)


def school_logs(logs: Path) -> None:
    """What the school's logs say of the run, as comments: the app processes' « fragment …
    does not exist anymore » lines, and the proxy's lines that mark a process down or up."""
    apps = "".join(path.read_text(errors="replace") for path in logs.glob("app-*.log"))
    proxy_log = logs / "proxy.log"
    proxy = proxy_log.read_text(errors="replace") if proxy_log.exists() else ""
    print(f"# school: {apps.count('does not exist anymore')} fragment warnings in the app logs")
    for line in proxy.splitlines():
        if " is DOWN" in line or " is UP" in line or "no server available" in line:
            print(f"# proxy: {line.strip()[:200]}")


def server_pid(port: int) -> int:
    """The ``streamlit run`` child of this process listening on ``port``."""
    for task in Path("/proc/self/task").iterdir():
        for pid in (task / "children").read_text().split():
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            if b"streamlit" in command and str(port).encode() in command:
                return int(pid)
    raise RuntimeError(f"no streamlit child listening on {port}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=40)
    parser.add_argument("--questions", type=int, default=4)
    parser.add_argument("--school", action="store_true", help="deploy/school behind HAProxy")
    parser.add_argument("--processes", type=int, default=2, help="the school's app processes")
    parser.add_argument("--profile", type=Path, help="py-spy's samples over the questions")
    parser.add_argument("--limit", type=float, default=180.0, help="seconds the class may take")
    args = parser.parse_args()
    if not 1 <= args.phones <= 300:
        parser.error("--phones is 1 to 300 (a class seats 300)")
    target = school(args.processes) if args.school else one_process()
    with target as (url, room, pids):

        async def bounded() -> Outcome:
            async with asyncio.timeout(args.limit):
                return await run_class(
                    url, room, pids, args.phones, args.questions, profile=args.profile
                )

        outcome = asyncio.run(bounded())
    where = f"school, {args.processes} processes" if args.school else "one process"
    print(f"# {args.phones} phones, {args.questions} questions, {where}; "
          f"load {os.getloadavg()[0]:.2f}")
    for name, value in outcome.figures.items():
        print(f"{name}: {value}")
    for error in outcome.errors[:5]:
        print(f"# {error}", file=sys.stderr)


if __name__ == "__main__":
    main()
