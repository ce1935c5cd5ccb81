"""A class of real phones: N headless chromium pages join a class on one ``streamlit run``, wait
while their pages poll, answer every question, and see every reveal.

Why a browser: the cost that stopped a class (issue 14) is the 2 s poll of every waiting phone
(``st.fragment(run_every=…)``) re-running the script on the server; ``bench/app.py`` and
``bench/classroom.py`` keep no page polling and cannot see it. One Playwright browser, one context
(one Streamlit session) per phone, all on loopback. The teacher creates the class on the class
page in a laptop-sized page of the same browser, as in class: the server judges the class's
hands then, and that page stays open as the projector's view, polling like the phones. The
script then moves the class on (next, reveal) through ``tutor.classroom.Classroom`` on the
server's database, so that each reveal is timed from its commit.

Figures, one ``name: value unit`` line each:

- ``class_browser_server_cpu_per_phone``: the server process's CPU time (``/proc/<pid>/stat``)
  over a waiting minute, divided by the minute and the phones: cores per polling phone;
- ``class_browser_server_cpu_per_phone_reveal``: the server's CPU time from a reveal's commit
  to the last phone showing it, divided by the phones (median over the reveals): what drawing one
  phone's verdict costs the server, the part of a reveal that grows with the class;
- ``class_browser_join_p50/p95``: from a phone's Join click to its waiting screen;
- ``class_browser_server_cpu_per_join`` / ``…_browser_cpu_per_join``: the server's and the
  browsers' CPU time from the first phone opening the join address to the last one seated,
  divided by the phones (the page's load, its files, the session's start and the join);
  ``class_browser_joins_all_seated``: that span's wall time;
- ``class_browser_reveal_p50/p95``: from the reveal's commit to the verdict on each phone (the
  server's look at the class, ``tutor.ui.class_mode.push``, is part of it), over every question
  but the first;
- ``class_browser_first_reveal_p50/max``: the same for the first question, apart (the first
  verdict each phone draws);
- ``class_browser_join_shown_*``, ``class_browser_reveal_shown_*``: the same spans ended when the
  page itself put the text in its document (a ``MutationObserver`` in each page, on the machine's
  clock), rather than when this script's driver noticed it: Playwright looks at 40 pages in turn,
  and on a machine its 40 pages load to 20 that look comes 0.1–0.3 s after the page showed it.
  What a student sees is the page; the driver's figures stay, for comparison with earlier runs;
- ``class_browser_answers_counted`` / ``…_sent``: answers the database holds against answer clicks
  the phones saw acknowledged.

Target: 40 phones on a 2-core machine, every answer counted and every reveal shown within 3 s
(the reveals-over-3 s line counts them all). ``--settings old`` runs the same code with
Streamlit's defaults (garbage collection after every script run, the default file watcher), given
to ``streamlit run`` as its flags' environment variables (``STREAMLIT_RUNNER_POST_SCRIPT_GC``…:
click reads them as the flags themselves) so the server is started by
``serving.app_server`` like every browser test's.

    .venv/bin/python bench/class_browser.py --phones 16 --settings shipped
    .venv/bin/python bench/class_browser.py --phones 40 --settings old
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.async_api import Browser, Page, async_playwright  # noqa: E402

from serving import CHROMIUM, LAPTOP, LAUNCH_ARGS, PHONE, app_server  # noqa: E402
from tutor.classroom import Classroom, Teacher  # noqa: E402
from tutor.store import Store  # noqa: E402

#: Streamlit's defaults that the shipped ``.streamlit/config.toml`` turns off, as the environment
#: form of ``streamlit run``'s flags (they take precedence over the config file).
OLD_SETTINGS = {
    "STREAMLIT_RUNNER_POST_SCRIPT_GC": "true",
    "STREAMLIT_SERVER_FILE_WATCHER_TYPE": "auto",
    "STREAMLIT_SERVER_RUN_ON_SAVE": "false",
}
#: Hands whose legal plays include Hit and Stand (the phones alternate between them).
HANDS = [("10♠ 6♥", "10♣"), ("A♠ 7♥", "9♣"), ("9♠ 3♥", "2♣"), ("8♠ 8♥", "10♦")]
#: What the French phone shows (the app's default language): waiting, answered, revealed.
WAITING = "Attendez que l’enseignant montre la première"
ANSWERED = "Votre réponse"
#: After a reveal: what comes next, the next hand, or the class's end after its last question.
REVEALED = ("Attendez la main suivante", "C’était la dernière question")
#: How long one step may take before the phone counts as broken (a failed page, not a figure).
STEP_TIMEOUT_MS = 120_000
COLD_TIMEOUT_MS = 600_000
CLK_TCK = os.sysconf("SC_CLK_TCK")


#: Each phone page notes when a text it waits for enters its document (the machine's clock, in
#: ms): ``window.__shown[text]`` is the list of times it appeared (it disappears between steps).
SHOWN_SCRIPT = """
(() => {
  const texts = %s;
  const Socket = window.WebSocket;
  window.__messages = [];
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", () => window.__messages.push(Date.now()));
    }
  };
  window.__shown = Object.fromEntries(texts.map((text) => [text, []]));
  const had = {};
  new MutationObserver(() => {
    const now = Date.now(), all = document.body ? document.body.textContent : "";
    for (const text of texts) {
      const has = all.includes(text);
      if (has && !had[text]) window.__shown[text].push(now);
      had[text] = has;
    }
  }).observe(document, {childList: true, subtree: true, characterData: true});
})();
"""


@dataclass
class Phone:
    """One student's phone: its page and what it saw."""

    index: int
    page: Page | None = None
    join_s: float | None = None
    reveals_s: list[float] = field(default_factory=list)
    join_shown_s: float | None = None
    reveals_shown_s: list[float] = field(default_factory=list)
    reveals_message_s: list[float] = field(default_factory=list)
    sent: int = 0
    errors: list[str] = field(default_factory=list)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def server_pid(port: int) -> int:
    """The ``streamlit run`` child of this process listening on ``port`` (``app_server`` yields
    only its address)."""
    children: list[int] = []
    for task in Path("/proc/self/task").iterdir():
        children += [int(pid) for pid in (task / "children").read_text().split()]
    for pid in children:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        if b"streamlit" in command and str(port).encode() in command:
            return pid
    raise RuntimeError(f"no streamlit child listening on {port}")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process and its reaped children, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    # After the command: state is field 3, utime 14, stime 15 (1-based, as in proc(5)).
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


async def create_class(browser: Browser, url: str, questions: int) -> tuple[Page, str, str]:
    """The teacher's laptop creates the class from typed hands: its page (left open, the
    projector's view), the join code and the teacher key the page shows."""
    context = await browser.new_context(
        viewport={"width": LAPTOP["width"], "height": LAPTOP["height"]}, locale="fr-FR"
    )
    page = await context.new_page()
    page.set_default_timeout(COLD_TIMEOUT_MS)  # a cold server checks the course first
    await page.goto(f"{url}/class")
    await page.get_by_role("textbox", name="Titre").fill("bench")
    await page.get_by_role("radio", name="des mains que je tape").click()
    hands = "\n".join(" / ".join(HANDS[i % len(HANDS)]) for i in range(questions))
    box = page.get_by_label(re.compile("^Mains, une par ligne"))
    await box.fill(hands)
    await box.blur()  # the text area's value reaches the server before the click
    await page.wait_for_timeout(500)
    await page.get_by_role("button", name="Créer la classe").click()
    key = (await page.get_by_test_id("stCode").first.inner_text()).strip()
    await page.get_by_role("button", name="Je l’ai notée").click()
    code_box = page.locator('div[aria-label="code"]').first
    await code_box.wait_for()
    code = (await code_box.inner_text()).strip()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    return page, code, key


async def join(browser: Browser, url: str, code: str, phone: Phone) -> None:
    """Open the join address, type a nickname, join; the latency is the Join click to the waiting
    screen (the page load before it is the browser's, not the server's, work)."""
    context = await browser.new_context(
        viewport={"width": PHONE["width"], "height": PHONE["height"]}, locale="fr-FR"
    )
    await context.add_init_script(SHOWN_SCRIPT % repr([WAITING, *REVEALED]))
    page = await context.new_page()
    page.set_default_timeout(STEP_TIMEOUT_MS)
    phone.page = page
    await page.goto(f"{url}/join?code={code}")
    box = page.locator(".st-key-class-join-code input")
    await box.wait_for()
    while await box.input_value() != code:  # the address fills the code in, maybe a run later
        await page.wait_for_timeout(100)
    await page.locator(".st-key-class-join-nickname input").fill(f"Phone {phone.index}")
    start, clicked = time.monotonic(), time.time()
    await page.locator(".st-key-class-join-submit button").click()
    await page.get_by_text(WAITING).wait_for()
    phone.join_s = time.monotonic() - start
    phone.join_shown_s = await shown_since(page, WAITING, clicked)


async def answer(phone: Phone, position: int) -> None:
    """Press Hit or Stand (alternating by phone) once the question's buttons show."""
    assert phone.page is not None
    action = "hit" if phone.index % 2 else "stand"
    button = phone.page.locator(f".st-key-class-answer-{position}-{action} button")
    await button.click()
    await phone.page.get_by_text(ANSWERED).first.wait_for()
    phone.sent += 1


async def shown_since(page: Page, text: str, since: float) -> float | None:
    """Seconds from ``since`` (the machine's clock) to when ``text`` last entered the page."""
    times: list[float] = await page.evaluate("(text) => window.__shown[text]", text)
    return times[-1] / 1000 - since if times else None


async def see_reveal(phone: Phone, revealed_at: tuple[float, float], timeout_ms: float) -> None:
    assert phone.page is not None
    either = re.compile("|".join(re.escape(text) for text in REVEALED))
    await phone.page.get_by_text(either).first.wait_for(timeout=timeout_ms)
    phone.reveals_s.append(time.monotonic() - revealed_at[0])
    seen = [await shown_since(phone.page, text, revealed_at[1]) for text in REVEALED]
    shown = max((s for s in seen if s is not None), default=None)
    if shown is not None:
        phone.reveals_shown_s.append(shown)
    message = await first_message_since(phone.page, revealed_at[1])
    if message is not None:
        phone.reveals_message_s.append(message)


async def first_message_since(page: Page, since: float) -> float | None:
    """Seconds from ``since`` (the machine's clock) to the first message the server sent the
    page after it (the page's own clock)."""
    times: list[float] = await page.evaluate(
        "(since) => window.__messages.filter((at) => at >= since)", since * 1000
    )
    return min(times) / 1000 - since if times else None


def browser_cpu_seconds() -> float:
    """CPU seconds of every chromium process on the machine (the phones' pages)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        if "(chromium" not in text and "(chrome" not in text:
            continue
        fields = text.rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / CLK_TCK
    return total


def print_spans(prefix: str, spans: dict[str, list[float]], *, worst: bool = True) -> None:
    """``<prefix>_<name>_p50/p95`` (and ``_max``) of each named list of seconds not empty."""
    for name, values in spans.items():
        if values:
            print(f"{prefix}_{name}_p50: {statistics.median(values):.2f} s")
            print(f"{prefix}_{name}_p95: {percentile(values, 0.95):.2f} s")
            if worst:
                print(f"{prefix}_{name}_max: {max(values):.2f} s")


async def each(phones: list[Phone], step: Any, *args: object) -> None:
    """Run one step on every working phone at once; a phone whose step fails is noted and left
    out of the later steps, so one broken page does not hide the figures of the others."""
    live = [phone for phone in phones if not phone.errors]
    results = await asyncio.gather(*(step(phone, *args) for phone in live), return_exceptions=True)
    for phone, result in zip(live, results, strict=True):
        if isinstance(result, BaseException):
            phone.errors.append(f"{step.__name__}: {type(result).__name__}: {result}"[:300])


async def run_class(
    url: str, room: Classroom, args: argparse.Namespace, pid: int
) -> tuple[list[Phone], Teacher]:
    phones = [Phone(i) for i in range(args.phones)]
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        _projector, code, key = await create_class(browser, url, args.questions)
        teacher = await asyncio.to_thread(room.open_as_teacher, code, key)

        async def joined(phone: Phone) -> None:
            await join(browser, url, code, phone)

        before, browser_before, clock = cpu_seconds(pid), browser_cpu_seconds(), time.monotonic()
        await each(phones, joined)
        joining = max(1, sum(1 for phone in phones if not phone.errors))
        print(f"class_browser_joins_all_seated: {time.monotonic() - clock:.2f} s")
        print(
            "class_browser_server_cpu_per_join: "
            f"{1000 * (cpu_seconds(pid) - before) / joining:.0f} ms"
        )
        print(
            "class_browser_browser_cpu_per_join: "
            f"{1000 * (browser_cpu_seconds() - browser_before) / joining:.0f} ms"
        )
        # A waiting minute: every phone in the lobby, its page polling every 2 s.
        before, clock = cpu_seconds(pid), time.monotonic()
        await asyncio.sleep(args.wait)
        used, elapsed = cpu_seconds(pid) - before, time.monotonic() - clock
        live = [phone for phone in phones if not phone.errors]
        print(f"class_browser_server_cpu_total: {used / elapsed:.3f} cores")
        print(f"class_browser_server_cpu_per_phone: {used / elapsed / max(1, len(live)):.4f} cores")
        reveal_cpu: list[float] = []
        browser_cpu: list[float] = []
        for position in range(args.questions):
            await asyncio.to_thread(room.next_question, teacher)
            await each(phones, answer, position)
            # Timed from the reveal's commit (``reveal`` returns just after it). In a thread, so
            # the loop keeps driving the pages meanwhile.
            await asyncio.to_thread(room.reveal, teacher)
            revealed_at = (time.monotonic(), time.time())
            before, browser_before = cpu_seconds(pid), browser_cpu_seconds()
            await each(phones, see_reveal, revealed_at, STEP_TIMEOUT_MS)
            reveal_cpu.append(cpu_seconds(pid) - before)
            browser_cpu.append(browser_cpu_seconds() - browser_before)
        await browser.close()
    phones_live = max(1, sum(1 for phone in phones if not phone.errors))
    print(
        "class_browser_server_cpu_per_phone_reveal: "
        f"{1000 * statistics.median(reveal_cpu) / phones_live:.1f} ms"
    )
    print(
        "class_browser_browser_cpu_per_phone_reveal: "
        f"{1000 * statistics.median(browser_cpu) / phones_live:.1f} ms"
    )
    return phones, teacher


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=16)
    parser.add_argument("--settings", choices=["shipped", "old"], default="shipped")
    parser.add_argument("--questions", type=int, default=4)
    parser.add_argument("--wait", type=float, default=60.0, help="seconds of waiting measured")
    args = parser.parse_args()
    if args.settings == "old":
        os.environ.update(OLD_SETTINGS)
    else:
        for name in OLD_SETTINGS:
            os.environ.pop(name, None)
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        store = Store(f"sqlite:///{data / 'tutor.sqlite3'}")  # the server's TUTOR_DATA_DIR file
        room = Classroom(store)
        with app_server(data) as url:
            pid = server_pid(int(url.rsplit(":", 1)[1]))
            print(f"class_browser_phones: {args.phones} phones ({args.settings} settings)")
            phones, teacher = asyncio.run(run_class(url, room, args, pid))
            results = room.results(teacher)
        store.close()
    counted = sum(1 for row in results.rows if row.answer is not None)
    joins = [phone.join_s for phone in phones if phone.join_s is not None]
    # The first reveal apart: the first verdict each phone's page draws.
    first = [phone.reveals_s[0] for phone in phones if phone.reveals_s]
    reveals = [seconds for phone in phones for seconds in phone.reveals_s[1:]]
    joins_shown = [phone.join_shown_s for phone in phones if phone.join_shown_s is not None]
    reveals_shown = [seconds for phone in phones for seconds in phone.reveals_shown_s[1:]]
    if first:
        print(f"class_browser_first_reveal_p50: {statistics.median(first):.2f} s")
        print(f"class_browser_first_reveal_max: {max(first):.2f} s")
    print_spans(
        "class_browser",
        {
            "join": joins,
            "reveal": reveals,
            "join_shown": joins_shown,
            "reveal_shown": reveals_shown,
            "reveal_message": [s for phone in phones for s in phone.reveals_message_s[1:]],
        },
    )
    late = sum(1 for seconds in first + reveals if seconds > 3.0)
    shown = len(first) + len(reveals)
    print(f"class_browser_reveals_shown: {shown} of {args.phones * args.questions} reveals")
    print(f"class_browser_reveals_over_3s: {late} reveals")
    print(f"class_browser_answers_sent: {sum(phone.sent for phone in phones)} answers")
    print(f"class_browser_answers_counted: {counted} answers")
    broken = [phone for phone in phones if phone.errors]
    print(f"class_browser_phones_failed: {len(broken)} phones")
    for phone in broken[:5]:
        print(f"# phone {phone.index}: {phone.errors[0]}", file=sys.stderr)


if __name__ == "__main__":
    main()
