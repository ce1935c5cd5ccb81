"""Legality is stated once (``tutor.legality``): the engine refuses and the strategy values the
very same actions, for any rules and any hand."""

from __future__ import annotations

import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.test_engine_properties import table_rules
from tutor.cards import Shoe
from tutor.decision import Action
from tutor.game import Round
from tutor.legality import double_refusal, split_refusal, surrender_refusal
from tutor.rules import PRESETS, TableRules
from tutor.strategy import advise, judge

#: Each example is a new rule set, solved whole (about a second each): ``make test`` tries 40,
#: ``make check`` (which sets ``TUTOR_FAST_LANE=1``) a sample of 4, so that the developer's lane
#: still plays the property, on other rule sets each run.
EXAMPLES = 4 if os.environ.get("TUTOR_FAST_LANE") == "1" else 40


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=table_rules(), seed=st.integers(0, 2**32 - 1), seats=st.integers(1, 2))
def test_the_strategy_values_exactly_the_actions_the_engine_allows(
    rules: TableRules, seed: int, seats: int
) -> None:
    rng = random.Random(seed)
    for _ in range(3):
        game = Round(rules, Shoe(rules.decks, rng=rng), [2] * seats)
        while game.to_act() is not None:
            point = game.decision_point()
            advice = advise(point)
            assert set(advice.evs) == point.legal, (rules, point.cards, point.dealer_up)
            action = rng.choice(sorted(point.legal, key=lambda a: a.value))
            assert judge(point, action).grade is not None
            game.act(action)


def test_the_engine_and_the_strategy_read_the_same_rule_for_a_double() -> None:
    rules = PRESETS["france-before-2007"]  # doubles on 9, 10 or 11 only
    refusal = double_refusal(rules, cards=2, total=12, soft=False, from_split=False)
    assert refusal == ("double-total", {"allowed": "9-11", "total": 12})
    assert double_refusal(rules, cards=2, total=11, soft=False, from_split=False) is None
    assert double_refusal(rules, cards=3, total=11, soft=False, from_split=False) == (
        "double-two-cards",
        {},
    )
    from tutor.strategy import solve
    from tutor.strategy.solver import hand_of

    solution = solve(rules)
    assert Action.DOUBLE not in solution.allowed(6, hand_of((10, 2)))
    assert Action.DOUBLE in solution.allowed(6, hand_of((5, 6)))


def test_split_and_surrender_refusals_name_the_rule() -> None:
    family = PRESETS["family"]
    assert split_refusal(family, pair=True, hands_in_seat=2) == ("max-hands", {"max_hands": 2})
    assert split_refusal(family, pair=False, hands_in_seat=1) == ("split-pair", {"by": "rank"})
    assert surrender_refusal(family, cards=2, from_split=False, hands_in_seat=1, dealer_up=10) == (
        "no-surrender",
        {},
    )
    casino = PRESETS["american-s17"]
    assert surrender_refusal(casino, cards=2, from_split=True, hands_in_seat=2, dealer_up=10) == (
        "surrender-first",
        {},
    )


def test_immediate_surrender_is_offered_against_an_ace_by_the_engine_and_the_strategy() -> None:
    """One rule, two readers. 001 lets a player give up at once "constatant une carte dangereuse
    à la banque", and names no card it excludes: the French tables offer their immediate
    surrender against an Ace too, and the strategy's legal actions say the same."""
    from tutor.strategy import solve
    from tutor.strategy.solver import hand_of

    french = PRESETS["french-casino"]
    for up in (1, 9, 10):
        assert (
            surrender_refusal(french, cards=2, from_split=False, hands_in_seat=1, dealer_up=up)
            is None
        )
    solution = solve(french)
    assert Action.SURRENDER in solution.allowed(1, hand_of((10, 6)))
    game = Round(french, Shoe(6, script="10♠ A♥ 6♦"), [2])
    game.decline_insurance()
    assert game.can_surrender()


def test_a_house_rule_refuses_surrender_against_an_ace_for_the_engine_and_the_strategy() -> None:
    """``surrender_against_ace=False`` is a casino's house rule (none of the sources states it):
    refused against an Ace alone, by the engine and by the strategy, whatever the kind of
    surrender, and the refusal names the table."""
    from tutor.strategy import solve
    from tutor.strategy.solver import hand_of

    for preset in ("french-casino", "american-s17"):
        house = PRESETS[preset].replace(surrender_against_ace=False)
        for up, expected in ((1, ("no-surrender-ace", {"table": preset})), (10, None)):
            assert (
                surrender_refusal(house, cards=2, from_split=False, hands_in_seat=1, dealer_up=up)
                == expected
            )
    house = PRESETS["french-casino"].replace(surrender_against_ace=False)
    solution = solve(house)
    assert Action.SURRENDER not in solution.allowed(1, hand_of((10, 6)))
    assert Action.SURRENDER in solution.allowed(10, hand_of((10, 6)))
    game = Round(house, Shoe(6, script="10♠ A♥ 6♦"), [2])
    game.decline_insurance()
    assert game.refusal(Action.SURRENDER) == ("no-surrender-ace", {"table": "french-casino"})
