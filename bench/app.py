"""Benchmarks of the app: server time of one interaction under AppTest, and time to first page.

Targets (issue 5): a quiz answer and a table action each take at most 150 ms of server time
(median, warm: the strategy's solution for the table is already cached, as in a running app), and
``streamlit run`` serves its first page within 5 s. Prints one ``name: value unit`` line per figure.

    .venv/bin/python bench/app.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.serving import app_server  # noqa: E402
from tutor.quiz import Category  # noqa: E402
from tutor.rules import PRESETS  # noqa: E402
from tutor.strategy import advise  # noqa: E402
from tutor.ui.practice import PracticeTable  # noqa: E402
from tutor.ui.state import AppState  # noqa: E402

RUNS = 30


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


def first_page() -> float:
    """From ``streamlit run`` to the first page served (HTTP 200 on ``/``)."""
    with tempfile.TemporaryDirectory() as data:
        start = time.perf_counter()
        with app_server(Path(data), ready_path="/"):
            return time.perf_counter() - start


def main() -> None:
    print(f"app_first_page_served: {first_page():.2f} s")
    print(f"app_quiz_answer_median: {quiz_answer():.1f} ms")
    print(f"app_table_action_median: {table_action():.1f} ms")


if __name__ == "__main__":
    main()
