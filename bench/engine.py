"""Engine throughput: random rounds with random legal play.

Prints one ``name: value unit`` line per figure. By default: rounds per second for one seat on
each preset (median of 5 runs of 20,000 rounds), then the million rounds across every preset
with its peak memory. ``--quick`` plays fewer rounds (for a smoke run).

    python bench/engine.py [--quick]
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import time

from tutor.rules import PRESETS
from tutor.table import Table, play_at_random


def rounds_per_second(preset: str, rounds: int, seats: int, seed: int) -> float:
    rng = random.Random(seed)
    table = Table(PRESETS[preset], seed=seed)
    bets = [2] * seats
    # CPU time of this process: the machine is shared, and waiting for a core is not our cost.
    start = time.process_time()
    for _ in range(rounds):
        play_at_random(table.new_round(bets), rng)
    return rounds / (time.process_time() - start)


def million(total: int) -> tuple[int, float, float]:
    """Play ``total`` rounds spread over every preset and 1-7 seats; returns rounds, s, MiB.

    Peak memory is the process's peak resident size (tracemalloc would slow the play tenfold).
    """
    rng = random.Random(1)
    start = time.process_time()
    played = 0
    for index, preset in enumerate(PRESETS):
        # The total split as evenly as it goes, the first presets taking the remainder.
        share = total // len(PRESETS) + (index < total % len(PRESETS))
        table = Table(PRESETS[preset], seed=rng.randrange(2**32))
        for _ in range(share):
            game = table.new_round([2] * rng.randint(1, 7))
            play_at_random(game, rng)
            if not game.is_over:
                raise AssertionError("a round did not reach its settlement")
            played += 1
    elapsed = time.process_time() - start
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return played, elapsed, peak_kib / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rounds = 2_000 if args.quick else 20_000
    for preset in PRESETS:
        runs = [rounds_per_second(preset, rounds, 1, seed) for seed in range(5)]
        print(f"engine_{preset}_one_seat: {statistics.median(runs):.0f} rounds/s")
    played, elapsed, peak = million(30_000 if args.quick else 1_000_000)
    print(f"engine_all_presets_rounds: {played} rounds")
    print(f"engine_all_presets_1_to_7_seats: {played / elapsed:.0f} rounds/s")
    print(f"engine_peak_resident_memory: {peak:.1f} MiB")


if __name__ == "__main__":
    main()
