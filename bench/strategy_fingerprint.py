"""Every preset's solved numbers hashed, for a change to the solver meant to keep every value to
the bit (a faster sum that adds in the same order): run it before and after, and compare.

For each preset, at its own number of decks and at one and two decks (the small shoes take other
paths: shoe-fit checks, no shared layouts), the whole solution is computed (every up-card's
dealer rows and every split value the chart and the house edge read) and what a saved solution
keeps is hashed, with the house edge printed in full. One ``name: value unit`` line each:
``fingerprint_<preset>_<decks>d: <house edge> <sha256 prefix>``.

    .venv/bin/python bench/strategy_fingerprint.py > before.txt   # then after the change:
    .venv/bin/python bench/strategy_fingerprint.py | diff before.txt -
"""

from __future__ import annotations

import dataclasses
import hashlib

import numpy as np

from tutor.rules import PRESETS
from tutor.strategy.dealer import full_shoe
from tutor.strategy.solution import Solution


def main() -> None:
    # A ``Solution`` built here is computed whole, never read from nor written to the data
    # folder (``solution._solve`` does that for the app).
    for name, rules in PRESETS.items():
        for decks in sorted({rules.decks, 1, 2}):
            table = dataclasses.replace(rules, decks=decks)
            solution = Solution(table, full_shoe(decks))
            solution.prepare()
            digest = hashlib.sha256()
            for key, array in sorted(solution.snapshot().items()):
                digest.update(key.encode())
                digest.update(np.ascontiguousarray(array).tobytes())
            edge = solution.house_edge()
            print(f"fingerprint_{name}_{decks}d: {edge!r} {digest.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
