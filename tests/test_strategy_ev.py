"""Expected values of actions against published exact figures and basic identities."""

from __future__ import annotations

import pytest

from tutor.decision import Action
from tutor.rules import TableRules
from tutor.strategy import solve
from tutor.strategy.solver import hand_of

ONE_DECK = TableRules(decks=1)


# Ask the Wizard #51 (one deck, dealer stands on soft 17): the value of hitting a two-card 15
# against a ten, given the dealer has no natural, played on optimally. Six decimals published.
@pytest.mark.parametrize(
    ("cards", "ev"), [((10, 5), -0.501091), ((9, 6), -0.509827), ((8, 7), -0.474794)]
)
def test_hitting_fifteen_against_ten_matches_ask_the_wizard_51(
    cards: tuple[int, int], ev: float
) -> None:
    evs = solve(ONE_DECK).action_evs(10, hand_of(cards))
    assert evs[Action.HIT] == pytest.approx(ev, abs=2e-6)


def test_double_is_twice_one_card_and_stand() -> None:
    evs = solve(ONE_DECK).action_evs(6, hand_of((6, 5)))
    assert evs[Action.DOUBLE] > 2 * evs[Action.STAND]
    assert evs[Action.DOUBLE] <= 2.0


def test_european_natural_takes_doubled_bets() -> None:
    american = solve(TableRules(decks=6)).action_evs(
        10, hand_of((6, 5))
    )
    european = solve(TableRules(decks=6).replace(hole_card="european")).action_evs(
        10, hand_of((6, 5))
    )
    # Without a hole card the double can lose twice the bet to a natural.
    assert european[Action.DOUBLE] < american[Action.DOUBLE] - 0.1


def test_surrender_is_half_the_bet() -> None:
    evs = solve(TableRules(decks=6).replace(surrender="late")).action_evs(10, hand_of((10, 6)))
    assert evs[Action.SURRENDER] == -0.5
    assert max(evs, key=evs.__getitem__) is Action.SURRENDER


def test_more_hands_allowed_never_lowers_the_split() -> None:
    two = solve(TableRules(decks=6, max_hands=2)).action_evs(6, hand_of((8, 8)))
    four = solve(TableRules(decks=6, max_hands=4)).action_evs(6, hand_of((8, 8)))
    assert four[Action.SPLIT] > two[Action.SPLIT]
