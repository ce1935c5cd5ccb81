"""Strategy benchmark: cold solve per preset, warm advice, peak memory. One ``name: value unit``
line per figure; times are medians of fresh subprocess-free repeats (caches cleared each time).

Run with one BLAS thread to measure one core: ``OPENBLAS_NUM_THREADS=1 python bench/strategy.py``.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import statistics
import time
import tracemalloc

from tutor.cards import Card, parse_cards
from tutor.decision import Action
from tutor.rules import PRESETS
from tutor.strategy import advise, chart, house_edge, judge
from tutor.strategy import solution as solution_module
from tutor.table import decision_for

REPEATS = 3


def cold(name: str) -> float:
    times = []
    for _ in range(REPEATS):
        solution_module._solve.cache_clear()
        start = time.perf_counter()
        house_edge(PRESETS[name])
        chart(PRESETS[name])
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    for name in PRESETS:
        print(f"cold_solve_{name}: {cold(name):.3f} s")
    rules = PRESETS["american-s17"]
    point = decision_for(rules, parse_cards("9S 7H"), Card.parse("TD"))
    judge(point, Action.HIT)
    for name, call in (("warm_advice", lambda: advise(point)),
                       ("warm_judgement", lambda: judge(point, Action.HIT))):
        samples = []
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(200):
                call()
            samples.append((time.perf_counter() - start) / 200)
        print(f"{name}: {statistics.median(samples) * 1000:.4f} ms")
    solution_module._solve.cache_clear()
    tracemalloc.start()
    for name in PRESETS:
        house_edge(PRESETS[name])
        chart(PRESETS[name])
    _, peak = tracemalloc.get_traced_memory()
    print(f"peak_memory_all_presets: {peak / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
