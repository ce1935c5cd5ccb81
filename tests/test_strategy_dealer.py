"""Dealer final-total probabilities against published exact figures."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.rules import TableRules
from tutor.strategy import dealer_probabilities
from tutor.strategy.dealer import full_shoe, outcome_matrix

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


def dealer_by_recursion(
    shoe: tuple[int, ...], up: int, *, hits_soft_17: bool, peek: bool
) -> list[float]:
    """The dealer's joint outcomes by playing every draw out, card by card, from ``shoe`` (the
    up-card already out): the reference the batched computation must agree with. Under ``peek``
    the hole cards that give a natural are left out (the rows then sum to no natural's chance).
    """
    out = [0.0] * 7
    partner = {1: 10, 10: 1}.get(up)

    def play(counts: list[int], hard: int, ace: bool, chance: float, first: bool) -> None:
        left = sum(counts)
        for value in range(1, 11):
            if not counts[value - 1]:
                continue
            p = chance * counts[value - 1] / left
            if first and value == partner:
                if not peek:
                    out[6] += p
                continue
            now, holds_ace = hard + value, ace or value == 1
            soft = holds_ace and now + 10 <= 21
            total = now + 10 if soft else now
            if total > 21:
                out[5] += p
            elif total > 17 or (total == 17 and not (soft and hits_soft_17)):
                out[total - 17] += p
            else:
                counts[value - 1] -= 1
                play(counts, now, holds_ace, p, False)
                counts[value - 1] += 1

    play(list(shoe), up, up == 1, 1.0, True)
    return out


@settings(max_examples=12, deadline=None)
@given(
    up=st.integers(1, 10),
    hits_soft_17=st.booleans(),
    peek=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_batch_of_shoes_agrees_with_playing_each_out(
    up: int, hits_soft_17: bool, peek: bool, seed: int
) -> None:
    """Thousands of shoes in one batch (several sizes, one size over a chunk, parts repeated on
    both sides, as a solve asks) give, shoe by shoe, what playing the dealer out gives."""
    rng = np.random.default_rng(seed)
    full = np.array(full_shoe(2))
    full[up - 1] -= 1
    removed = rng.integers(0, 3, size=(3000, 10))  # shoes of many sizes
    removed[:2500] = 0
    for _ in range(3):  # and 2,500 shoes of one size: three cards out
        np.add.at(removed, (np.arange(2500), rng.integers(0, 10, size=2500)), 1)
    removed = np.minimum(removed, full)
    shoes = (full[None, :] - removed).astype(np.float64)
    batch = outcome_matrix(shoes, up, hits_soft_17=hits_soft_17, peek=peek)
    for row in [*rng.choice(len(shoes), size=4, replace=False).tolist(), 0, 2999]:
        expected = dealer_by_recursion(
            tuple(int(c) for c in shoes[row]), up, hits_soft_17=hits_soft_17, peek=peek
        )
        assert batch[row] == pytest.approx(expected, abs=2e-7)
