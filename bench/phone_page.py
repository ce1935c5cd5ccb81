"""What one class phone's page spends drawing its screen: at a reveal, at a new question, and at
a quiet poll where nothing changed (issue 30: where a reveal's time goes once the server has sent
it).

One phone joins a class of typed hands on one ``streamlit run``, on an otherwise idle machine;
the script moves the class on through ``tutor.classroom.Classroom`` as ``class_browser.py``
does. The page's own work is read from Chrome's ``Performance.getMetrics`` (task, script,
layout and style times, in ms of the page's main thread) before and after each step; the quiet
figure is a waiting period of ``--quiet`` seconds divided by the screen's polls in it
(``tutor.ui.class_mode.push.SCREEN_SECONDS``). Medians over the questions but the first. One
``name: value unit`` line each.

Measured 2026-12-05: a reveal and a quiet poll each cost the page 31-41 ms of task time, so a
fragment rerun costs Streamlit's front end about as much whatever it draws; a CPU profile of the
quiet polls was mostly the browser's native work and garbage collection, with no JavaScript
function of more than 6 ms.

    .venv/bin/python bench/phone_page.py [--questions 6] [--quiet 30]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from class_browser import Phone, answer, create_class, join, see_reveal  # noqa: E402
from playwright.async_api import async_playwright  # noqa: E402

from serving import CHROMIUM, LAUNCH_ARGS, app_server  # noqa: E402
from tutor.classroom import Classroom  # noqa: E402
from tutor.store import Store  # noqa: E402
from tutor.ui.class_mode.push import SCREEN_SECONDS  # noqa: E402

METRICS = {
    "TaskDuration": "task",
    "ScriptDuration": "script",
    "LayoutDuration": "layout",
    "RecalcStyleDuration": "style",
}


#: Time for a step's drawing to end after its text shows (the page's work is read after it).
SETTLE_MS = 700


async def metrics(cdp: Any) -> dict[str, float]:
    got = await cdp.send("Performance.getMetrics")
    return {m["name"]: m["value"] for m in got["metrics"] if m["name"] in METRICS}


def spent(after: dict[str, float], before: dict[str, float]) -> dict[str, float]:
    return {name: 1000 * (after[name] - before[name]) for name in METRICS}


async def measure(url: str, room: Classroom, questions: int, quiet: float) -> None:
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        projector, code, key = await create_class(browser, url, questions)
        await projector.close()  # one page drawing: the phone's
        teacher = await asyncio.to_thread(room.open_as_teacher, code, key)
        phone = Phone(0)
        await join(browser, url, code, phone)
        assert phone.page is not None
        cdp = await phone.page.context.new_cdp_session(phone.page)
        await cdp.send("Performance.enable")
        reveals: list[dict[str, float]] = []
        asked: list[dict[str, float]] = []
        for position in range(questions):
            before = await metrics(cdp)
            await asyncio.to_thread(room.next_question, teacher)
            await phone.page.locator(f".st-key-class-answer-{position}-stand button").wait_for()
            await phone.page.wait_for_timeout(SETTLE_MS)
            asked.append(spent(await metrics(cdp), before))
            await answer(phone, position)
            await phone.page.wait_for_timeout(SETTLE_MS)
            before = await metrics(cdp)
            await asyncio.to_thread(room.reveal, teacher)
            await see_reveal(phone, (time.monotonic(), time.time()), 30_000)
            await phone.page.wait_for_timeout(SETTLE_MS)
            reveals.append(spent(await metrics(cdp), before))
        before = await metrics(cdp)
        await phone.page.wait_for_timeout(quiet * 1000)
        polls = quiet / SCREEN_SECONDS
        waited = spent(await metrics(cdp), before)
        quiet_poll = {name: value / polls for name, value in waited.items()}
        await browser.close()
    for step, runs in (("reveal", reveals[1:]), ("question", asked[1:])):
        for name, short in METRICS.items():
            print(f"phone_page_{step}_{short}: {statistics.median(r[name] for r in runs):.1f} ms")
    for name, short in METRICS.items():
        print(f"phone_page_quiet_poll_{short}: {quiet_poll[name]:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=6)
    parser.add_argument("--quiet", type=float, default=30.0, help="seconds of waiting measured")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        store = Store(f"sqlite:///{data / 'tutor.sqlite3'}")  # the server's TUTOR_DATA_DIR file
        room = Classroom(store)
        with app_server(data) as url:
            asyncio.run(measure(url, room, args.questions, args.quiet))
        store.close()


if __name__ == "__main__":
    main()
