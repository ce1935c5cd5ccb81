"""Benchmarks of the app: the first page as a learner sees it, and the server time of one
interaction under AppTest.

Targets: the first page is *rendered* in a browser at most 3 s after the first request on a quiet
machine (issue 17): headless chromium opens ``/`` and the clock stops when the lesson list is
visible, not at Streamlit's first HTTP answer (which comes before the app has even run), as this
script's driver notices it (``…_rendered_…``) and as the page put it in its document
(``…_shown_…``: Playwright looks again 0.5 s apart after its first looks). *Cold* is
a fresh ``streamlit run`` process with an empty data folder (nothing imported, nothing solved,
nothing saved); *warm* is a new browser session on a server that has already shown the page. A
quiz answer and a table action each take at most 150 ms of server time (issue 5; median, warm: the
strategy's solution for the table is already cached, as in a running app). Prints one
``name: value unit`` line per figure, medians.

    .venv/bin/python bench/app.py                # every figure
    .venv/bin/python bench/app.py --first-page   # the first page only (cold and warm)
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from serving import CHROMIUM, LAPTOP, LAUNCH_ARGS, app_server, shown_script  # noqa: E402
from tutor.practice import PracticeTable  # noqa: E402
from tutor.quiz_questions import Category  # noqa: E402
from tutor.rules import PRESETS  # noqa: E402
from tutor.strategy import advise  # noqa: E402
from tutor.visit import AppState  # noqa: E402

RUNS = 30
#: Fresh server processes for the cold first page, and new sessions on one of them for the warm.
COLD_RUNS = 5
WARM_RUNS = 5
#: The lesson list is on screen: the course's first lesson can be opened.
LESSON_LIST = '[class*="st-key-open-"] button'


def _app(page: str, state: AppState) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.session_state["app"] = state
    at.run()
    at.switch_page(f"tutor/ui/pages/{page}.py")
    at.run()
    assert not at.exception
    return at


def _median_ms(step: Callable[[], None]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        step()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def quiz_answer() -> float:
    state = AppState(rules=PRESETS["american-s17"], quiz_category=Category.HARD)
    at = _app("quiz", state)
    assert state.quiz is not None
    quiz = state.quiz

    def answer() -> None:
        quiz.next()
        at.run()  # show a fresh question (not timed below: only the answer is)
        assert quiz.question is not None
        assert quiz.question.point is not None
        action = quiz.question.actions[0]
        start = time.perf_counter()
        at.button(key=f"quiz-{action.value}").click().run()
        answer.elapsed.append(time.perf_counter() - start)  # type: ignore[attr-defined]

    answer.elapsed = []  # type: ignore[attr-defined]
    for _ in range(RUNS):
        answer()
    return statistics.median(answer.elapsed) * 1000  # type: ignore[attr-defined]


def table_action() -> float:
    state = AppState(rules=PRESETS["american-s17"])
    state.practice = PracticeTable(state.rules, seed=11)
    table = state.practice
    table.deal()
    at = _app("practice", state)
    elapsed: list[float] = []
    while len(elapsed) < RUNS:
        game = table.round
        assert game is not None
        if game.to_act() is None:
            table.deal()
            at.run()
            continue
        advice = advise(game.decision_point())
        assert advice is not None
        start = time.perf_counter()
        at.button(key=f"table-{advice.best.value}").click().run()
        elapsed.append(time.perf_counter() - start)
        assert not at.exception
    return statistics.median(elapsed) * 1000


def _rendered(browser: object, url: str) -> tuple[float, float]:
    """Seconds from the request for ``url`` to the lesson list visible, in a new session: as the
    driver notices it (Playwright looks again 0.5 s apart after its first looks), and as the
    page put it in its document (on the machine's clock)."""
    context = browser.new_context(viewport=LAPTOP, locale="fr-FR")  # type: ignore[attr-defined]
    try:
        context.add_init_script(shown_script(LESSON_LIST))
        page = context.new_page()
        start, requested = time.perf_counter(), time.time()
        page.goto(url, wait_until="commit", timeout=300_000)
        page.locator(LESSON_LIST).first.wait_for(state="visible", timeout=300_000)
        noticed = time.perf_counter() - start
        shown = page.evaluate("() => Math.min(...Object.values(window.__shown))")
        return noticed, shown / 1000 - requested
    finally:
        context.close()


def first_page() -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """The first page rendered: cold (each run a fresh server and data folder) and warm."""
    from playwright.sync_api import sync_playwright

    cold: list[tuple[float, float]] = []
    warm: list[tuple[float, float]] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            for run in range(COLD_RUNS):
                with tempfile.TemporaryDirectory() as data, app_server(Path(data)) as url:
                    cold.append(_rendered(browser, url))
                    if run == 0:
                        warm += [_rendered(browser, url) for _ in range(WARM_RUNS)]
        finally:
            browser.close()
    return cold, warm


def main() -> None:
    # The server runs as a user's would: Python keeps compiled modules (``__pycache__``), which
    # ``PYTHONDONTWRITEBYTECODE`` (set by some shells and sandboxes, never by the app) forbids;
    # with it every start would compile some 3,800 modules before the first page.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first-page", action="store_true", help="only the first page's figures")
    only_first = parser.parse_args().first_page
    cold, warm = first_page()
    for name, runs in (("cold", cold), ("warm", warm)):
        noticed, shown = [run[0] for run in runs], [run[1] for run in runs]
        print(f"app_first_page_rendered_{name}_median: {statistics.median(noticed):.2f} s")
        if name == "cold":
            print(f"app_first_page_rendered_cold_max: {max(noticed):.2f} s")
        print(f"app_first_page_shown_{name}_median: {statistics.median(shown):.2f} s")
    if only_first:
        return
    print(f"app_quiz_answer_median: {quiz_answer():.1f} ms")
    print(f"app_table_action_median: {table_action():.1f} ms")


if __name__ == "__main__":
    main()
