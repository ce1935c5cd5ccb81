"""Split values with resplits, exact, against published exact figures.

The convention of these figures (E. Farmer's "CDZ-"): every split hand's cards leave the shoe as
they are dealt, and split hands are played with the unsplit optimum. See the method in
:mod:`tutor.strategy.solver`.
"""

from __future__ import annotations

import pytest

from tutor.rules import TableRules
from tutor.strategy import solve
from tutor.strategy.solver import UpCardSolver, hand_graph, hand_of, stream_patterns


def test_ten_ten_against_five_six_decks_resplit_to_four_hands() -> None:
    # E. Farmer's exact analyser (v7.6), figure quoted in issue 15: six decks, S17, double after
    # split, resplit to four hands (not Aces), CDZ-: splitting T,T against 5 is worth
    # +0.371713893 of a bet. Nine digits published: tolerance 1e-6.
    rules = TableRules(decks=6, max_hands=4, double_after_split=True, resplit_aces=False)
    assert solve(rules).ups[5].split(10, 4).ev == pytest.approx(0.371713893, abs=1e-6)


def test_two_two_against_six_one_deck_split_once_zero_memory() -> None:
    # E. Farmer, blackjacktheforum.com, thread "MGP's BJCA", page 2: one deck, S17, split once,
    # no double after split, CDZ- play: splitting 2,2 against 6 is worth 0.1189818683947885.
    # (The project's own one-split value plays the split hands optimally for the shoe without
    # the pair, "CDP1", which is worth more; this checks the zero-memory computation itself.)
    rules = TableRules(decks=1, max_hands=2, double_after_split=False)
    value = solve(rules).ups[6].zero_memory_split(2, 2, das=False)
    assert value.ev == pytest.approx(0.1189818683947885, abs=1e-6)


def test_a_small_shoe_where_every_card_counts() -> None:
    # E. Farmer, blackjackinfo.com, thread "Software update with new split EVs", page 5: his
    # calculator (v6.3) on the 21-card shoe 0 4 4 2 0 0 2 0 0 7 (Aces to tens), S17, double on
    # any two cards and after split, resplit to four hands (not Aces), CDZ-, 2,2 against a 7:
    # stand -61.639194139 %, hit -13.266733267 %, double -123.278388278 %,
    # split -76.210220335 %. A shoe this small moves every value with each card removed.
    rules = TableRules(decks=1, max_hands=4, double_after_split=True)
    solver = UpCardSolver(rules, (0, 4, 4, 2, 0, 0, 2, 0, 0, 7), 7)
    node = hand_graph().index[hand_of((2, 2))]
    values = solver.values(0)
    assert values.stand[node] == pytest.approx(-0.61639194139, abs=1e-6)
    assert values.hit[node] == pytest.approx(-0.13266733267, abs=1e-6)
    assert values.double[node] == pytest.approx(-1.23278388278, abs=1e-6)
    assert solver.split(2, 4).ev == pytest.approx(-0.76210220335, abs=1e-6)


@pytest.mark.parametrize("hands", [2, 3, 4])
@pytest.mark.parametrize("p", [0.08, 0.31])
def test_pattern_weights_count_the_hands_of_every_deal(hands: int, p: float) -> None:
    # With an infinite shoe (a pair card with chance p, independently), the weights must give
    # the expected number of hands completed by another card and kept as a pair, computed here
    # by following the deal itself.
    def expected(seat: int, waiting: int) -> tuple[float, float]:
        if waiting == 0:
            return 0.0, 0.0
        other, kept = expected(seat, waiting - 1)
        if seat < hands:
            again = expected(seat + 1, waiting + 1)
            return (1 - p) * (other + 1) + p * again[0], (1 - p) * kept + p * again[1]
        return (1 - p) * (other + 1) + p * other, (1 - p) * kept + p * (kept + 1)

    others, stuck = stream_patterns(hands)
    by_weights = (
        sum(w * p**i * (1 - p) ** r * (1 - p) for (i, r), w in others.items()),
        sum(w * p**i * (1 - p) ** r * p for (i, r), w in stuck.items()),
    )
    assert by_weights == pytest.approx(expected(2, 2), abs=1e-12)


def test_one_split_keeps_the_post_split_optimum() -> None:
    # With two hands at most the split hands are played optimally for the shoe without the pair
    # ("CDP1"), at least as well as with the unsplit optimum.
    rules = TableRules(decks=1, max_hands=2, double_after_split=False)
    solver = solve(rules).ups[6]
    assert solver.split(2, 2).ev > solver.zero_memory_split(2, 2, das=False).ev + 0.005


@pytest.mark.parametrize("decks", [1, 2, 8])
def test_every_extra_hand_allowed_helps_eights_against_a_six(decks: int) -> None:
    rules = TableRules(decks=decks, max_hands=4)
    solver = solve(rules).ups[6]
    assert solver.split(8, 4).ev > solver.split(8, 3).ev > solver.split(8, 2).ev


def test_resplitting_aces_that_take_one_card_each() -> None:
    # Split Aces stand on one card: no play to choose, so with or without resplits the value is
    # exact whatever the convention. An Ace that would make a soft 12 standing starts a new hand
    # instead, so each hand allowed is worth more.
    one = TableRules(decks=6, max_hands=4, resplit_aces=False)
    again = one.replace(resplit_aces=True)
    kept = solve(one).ups[6].split(1, 4).ev
    to_three = solve(again).ups[6].split(1, 3).ev
    to_four = solve(again).ups[6].split(1, 4).ev
    assert to_four > to_three > kept
