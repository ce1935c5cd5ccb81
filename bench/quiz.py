"""One quiz step as the app runs it: deal the next question, judge the answer, store it.

Median over many steps on a SQLite file (target: at most 20 ms), with the strategy already solved
(the app solves a table once per server). Prints one ``name: value unit`` line per figure.

    python bench/quiz.py [--steps N]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from tutor import progress
from tutor.identity import new_token
from tutor.quiz import QuizSession
from tutor.quiz_questions import Category
from tutor.rules import PRESETS
from tutor.store import Store
from tutor.strategy import advise, solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args()
    rules = PRESETS["american-s17"]
    solve(rules)  # warm, as on a running server
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        learner = store.learner_for_token(new_token())
        assert learner is not None
        for category in (Category.HARD, Category.SOFT, Category.PAIRS):
            quiz = QuizSession(category, rules, seed=1)
            times: list[float] = []
            for step in range(args.steps):
                start = time.perf_counter()
                question = quiz.next()
                assert question.point is not None
                best = advise(question.point).best
                wrong = [a for a in question.point.legal if a is not best]
                verdict = quiz.answer(wrong[0] if step % 3 == 0 and wrong else best)
                progress.record(store, learner, verdict, rules, datetime.now(UTC))
                times.append(time.perf_counter() - start)
            print(f"quiz_{category.value}_step_median: {1000 * statistics.median(times):.2f} ms")
        answers = len(store.answers(learner))
        store.close()
    print(f"quiz_answers_stored: {answers} answers")


if __name__ == "__main__":
    main()
