"""Simulator throughput: rounds per second of basic strategy on one core, and peak memory.

Prints one ``name: value unit`` line per figure: the first call's compile or cache-load time
(wall and CPU; right after ``make install``, which runs ``python -m tutor warm``, it is a cache
load), then rounds per second (CPU time of this process, best of 3 runs of 2,000,000 rounds) on
the six-deck and family presets, then the process's peak resident memory. ``--quick`` plays
fewer.

    python bench/simulate.py [--quick]
"""

from __future__ import annotations

import argparse
import resource
import time

from tutor.rules import PRESETS
from tutor.simulate import basic_strategy, mimic_dealer, simulate

PRESETS_BENCHED = {"six-deck": "american-s17", "family": "family"}


def rounds_per_second(preset: str, rounds: int, repeats: int) -> float:
    rules = PRESETS[preset]
    strategy = basic_strategy(rules)
    best = 0.0
    for seed in range(repeats):
        start = time.process_time()
        simulate(rules, strategy, rounds, seed=seed, chunk=rounds)
        best = max(best, rounds / (time.process_time() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rounds = 200_000 if args.quick else 2_000_000
    start, cpu = time.perf_counter(), time.process_time()
    family = PRESETS["family"]
    simulate(family, mimic_dealer(family), 10)
    print(f"first_call_compile_or_load: {time.perf_counter() - start:.2f} s")
    print(f"first_call_compile_or_load_cpu: {time.process_time() - cpu:.2f} s")
    for label, preset in PRESETS_BENCHED.items():
        rate = rounds_per_second(preset, rounds, 3)
        print(f"basic_strategy_{label}_rounds_per_second: {rate:,.0f} rounds/s")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak_memory: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
