"""House edges and the rule effects every source quotes."""

from __future__ import annotations

import pytest

from tutor.rules import PRESETS, TableRules
from tutor.strategy import house_edge, solve
from tutor.strategy.solution import Solution

BASE = TableRules(decks=6, max_hands=4)  # S17, DAS, no surrender, split to four hands


def effect(**change: object) -> float:
    return house_edge(BASE.replace(**change)) - house_edge(BASE)


# Rule effects quoted by Wizard of Odds ("Rule variations" table), Shackleford and Griffin:
# H17 about +0.20 %, no DAS about +0.13 %, European deal about +0.11 %; tolerance 0.03 %.
def test_hitting_soft_17_costs_about_a_fifth_of_a_percent() -> None:
    assert effect(dealer_hits_soft_17=True) == pytest.approx(0.0020, abs=0.0003)


def test_double_after_split_is_worth_about_0_13_percent() -> None:
    assert effect(double_after_split=False) == pytest.approx(0.0013, abs=0.0003)


def test_european_deal_costs_about_0_11_percent() -> None:
    assert effect(hole_card="european") == pytest.approx(0.0011, abs=0.0003)


def test_one_deck_is_better_for_the_player_than_six() -> None:
    # Sources quote about 0.5 %; composition-dependent play widens the gap (see the report).
    gap = house_edge(BASE) - house_edge(BASE.replace(decks=1))
    assert 0.004 < gap < 0.007


def test_six_deck_s17_das_edge_is_near_published() -> None:
    # Wizard of Odds house-edge calculator, 6 decks S17 DAS, no surrender: about 0.40 %.
    assert house_edge(BASE) == pytest.approx(0.0040, abs=0.0002)


def test_edge_is_the_probability_weighted_initial_hand_evs() -> None:
    solution = solve(TableRules(decks=2).replace(surrender="late"))
    total = 0.0
    weight = 0.0
    for up in range(1, 11):
        for hand, cards in Solution.initial_hands():
            p = solution.deal_probability(up, cards)
            weight += p
            total += p * solution.round_ev(up, hand)
    assert weight == pytest.approx(1.0, abs=1e-12)
    assert -total == pytest.approx(solution.house_edge(), abs=1e-12)


def test_one_deck_split_once_matches_the_published_composition_dependent_edge() -> None:
    # Wizard of Odds, blackjack appendix 3A, "Composition-Dependent Strategy for Single Deck and
    # Dealer Stands on Soft 17" (Boss Media rules: one deck, S17, the dealer peeks, double after
    # split, one split only, split Aces one card, no surrender): composition-dependent play gives
    # the player a 0.1541 % advantage. Tolerance 0.001 % of a bet.
    rules = TableRules(decks=1, max_hands=2, double_after_split=True, surrender="none")
    assert house_edge(rules) == pytest.approx(-0.001541, abs=0.00001)


# E. Farmer's exact analyser (github.com/possibly-wrong/blackjack, strategy program v7.6, whose
# tables match the Wizard of Odds appendices), built with g++ -O2 and run on this project's
# machine for the american-s17 table (S17, peek, double any two and after split, resplit to four
# hands but not Aces, late surrender, 3:2) with split hands played as unsplit hands ("CDZ-"): the
# player's overall expected value, in percent of the initial bet, as it prints it (nine decimals).
# The dealer's probabilities are single precision here (``tutor.strategy.dealer``): agreement to
# 3e-8 of a bet; computed in double precision the three agree to every printed decimal.
@pytest.mark.parametrize(
    ("decks", "ev_percent"),
    [(1, 0.203982313), (2, -0.127706254), (6, -0.330268037)],
)
def test_overall_ev_matches_an_independent_exact_analyser(decks: int, ev_percent: float) -> None:
    rules = PRESETS["american-s17"].replace(decks=decks)
    assert -house_edge(rules) == pytest.approx(ev_percent / 100, abs=3e-8)
