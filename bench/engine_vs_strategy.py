"""The engine playing the computed strategy lands on the computed house edge.

Plays ``--rounds`` rounds (a million by default) with ``tutor.game.Round``, one seat, every
decision taken by ``tutor.strategy.best_action`` (composition-dependent, insurance declined), and
compares the mean result per round with ``house_edge``. The table shuffles after every round so
each round is a first round from a full shoe, the convention of the exact figure. Prints one
``name: value unit`` line per figure, the distance in standard errors last.

    python bench/engine_vs_strategy.py [--rounds N] [--rules PRESET] [--seed N]
"""

from __future__ import annotations

import argparse
import math
import random
import time

from tutor.decision import Action
from tutor.rules import Shuffle
from tutor.rules_file import load_rules
from tutor.strategy import best_action, house_edge
from tutor.table import Table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--rules", action="append", default=None)
    parser.add_argument("--seed", type=int, default=0, help="another seed, another million")
    args = parser.parse_args()
    for spec in args.rules or ["family", "american-s17"]:
        rules = load_rules(spec).replace(shuffle=Shuffle.EVERY_ROUND, spare_deck=False)
        exact = -house_edge(rules)
        table = Table(rules, seed=random.Random(f"{spec}:{args.seed}").randrange(2**32))
        total = 0.0
        squares = 0.0
        start = time.process_time()
        for _ in range(args.rounds):
            game = table.new_round([2])
            while game.to_act() is not None:
                if Action.DECLINE_INSURANCE in game.legal_actions():
                    game.decline_insurance()
                else:
                    game.act(best_action(game.decision_point()))
            net = float(game.results[0].net) / 2  # per unit bet
            total += net
            squares += net * net
        elapsed = time.process_time() - start
        n = args.rounds
        mean = total / n
        error = math.sqrt((squares / n - mean * mean) / n)
        print(f"engine_strategy_{spec}_rounds: {n} rounds")
        print(f"engine_strategy_{spec}_speed: {n / elapsed:.0f} rounds/s")
        print(f"engine_strategy_{spec}_mean: {100 * mean:.4f} %")
        print(f"engine_strategy_{spec}_standard_error: {100 * error:.4f} %")
        print(f"engine_strategy_{spec}_exact: {100 * exact:.4f} %")
        print(f"engine_strategy_{spec}_distance: {(mean - exact) / error:.2f} standard errors")


if __name__ == "__main__":
    main()
