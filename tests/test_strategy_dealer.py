"""Dealer final-total probabilities against published exact figures."""

from __future__ import annotations

import pytest

from tutor.rules import TableRules
from tutor.strategy import dealer_probabilities

ONE_DECK = TableRules(decks=1)


# Wizard of Odds, blackjack appendix 2B (one deck, dealer stands on soft 17): probability the
# dealer busts, before the peek. Published to six decimals: tolerance half a unit of the last digit.
@pytest.mark.parametrize(("up", "bust"), [(2, 0.352973), (6, 0.420823), (1, 0.116540)])
def test_one_deck_bust_matches_wizard_appendix_2b(up: int, bust: float) -> None:
    probs = dealer_probabilities(ONE_DECK, up, after_peek=False)
    assert probs.bust == pytest.approx(bust, abs=5e-7)


# Infinite-deck dealer bust chances under S17 (Wizard of Odds, appendix 2A), four decimals.
@pytest.mark.parametrize(("up", "bust"), [(2, 0.3536), (6, 0.4232)])
def test_infinite_deck_bust(up: int, bust: float) -> None:
    probs = dealer_probabilities(ONE_DECK, up, infinite=True)
    assert probs.bust == pytest.approx(bust, abs=5e-5)


@pytest.mark.parametrize("up", range(1, 11))
@pytest.mark.parametrize("hole", ["american", "european"])
def test_outcomes_sum_to_one(up: int, hole: str) -> None:
    probs = dealer_probabilities(TableRules(decks=2).replace(hole_card=hole), up)
    assert sum(probs.probabilities) == pytest.approx(1.0, abs=1e-7)


def test_peek_removes_the_natural_and_rescales() -> None:
    before = dealer_probabilities(ONE_DECK, 10, after_peek=False)
    after = dealer_probabilities(ONE_DECK, 10, after_peek=True)
    assert after.natural == 0
    assert before.natural == pytest.approx(4 / 51)
    assert after.bust == pytest.approx(before.bust / (1 - before.natural), rel=1e-7)


def test_hitting_soft_17_makes_the_dealer_bust_more_with_an_ace_or_six() -> None:
    hits = TableRules(decks=6, dealer_hits_soft_17=True)
    stands = TableRules(decks=6)
    for up in (1, 6):
        assert dealer_probabilities(hits, up).bust > dealer_probabilities(stands, up).bust
        assert dealer_probabilities(hits, up).total(17) < dealer_probabilities(stands, up).total(17)
