"""What one rule changes in the chart (``tutor.strategy.changes``): the cells, the values, the
facts behind the reasons, each checked against the strategy's own figures or a published chart."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tutor.decision import Action
from tutor.rules import PRESETS, HoleCard
from tutor.strategy import chart, dealer_probabilities
from tutor.strategy.changes import (
    DealerBust,
    DealerNatural,
    Option,
    TenShare,
    compare,
    differing_options,
    flips,
    plays_swapped,
    row_hands,
    ten_share,
)
from tutor.strategy.dealer import full_shoe
from tutor.strategy.solver import hand_graph, hand_of

S17 = PRESETS["american-s17"]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_flip_changes_exactly_one_option_and_is_a_valid_table(preset: str) -> None:
    rules = PRESETS[preset]
    found = flips(rules)
    assert {flip.option for flip in found} >= {
        Option.SOFT_17, Option.DECKS, Option.HOLE_CARD, Option.SURRENDER, Option.PAYOUT,
    }
    assert len({flip.key for flip in found}) == len(found), "each flip has its own key"
    for flip in found:
        assert differing_options(rules, flip.rules) == (flip.option,), flip.key
        assert flip.value == getattr(flip.rules, flip.option.value)


def test_soft_17_changes_the_six_cells_of_the_published_six_deck_charts() -> None:
    """The Wizard of Odds' 4-8 deck basic strategy (late surrender, double after split), its
    dealer-stands and dealer-hits charts side by side: under H17 double 11 against an Ace,
    double soft 18 against 2 and soft 19 against 6, surrender 15 and 17 against an Ace and
    8,8 against an Ace (surrender, else split). Six decks here, computed."""
    found = compare(S17, S17.replace(dealer_hits_soft_17=True))
    cells = {(c.table, c.row, c.column): (c.before, c.after) for c in found.cells}
    assert cells == {
        ("hard", "11", "A"): ("H", "D"),
        ("soft", "18", "2"): ("S", "Ds"),
        ("soft", "19", "6"): ("S", "Ds"),
        ("hard", "15", "A"): ("H", "Rh"),
        ("hard", "17", "A"): ("S", "Rs"),
        ("pairs", "8,8", "A"): ("P", "Rp"),
    }
    assert found.option is Option.SOFT_17
    assert found.edge_after > found.edge_before, "hitting soft 17 costs the player"


def test_each_changed_cell_carries_the_values_of_both_charts() -> None:
    h17 = S17.replace(dealer_hits_soft_17=True)
    before, after = chart(S17), chart(h17)
    for change in compare(S17, h17).cells:
        assert change.evs_before == before.explain(change.table, change.row, change.column)
        assert change.evs_after == after.explain(change.table, change.row, change.column)
        gain = change.gain
        assert gain is not None
        assert gain > 0, "the new chart's play is the better one under the new rules"
        if change.new_play in change.evs_before:
            old, new = change.evs_before[change.old_play], change.evs_before[change.new_play]
            assert old >= new, "and the old chart's play was the better one before"


def test_the_soft_17_reason_is_the_dealers_bust_rate_under_each_rule() -> None:
    h17 = S17.replace(dealer_hits_soft_17=True)
    for change in compare(S17, h17).cells:
        fact = change.fact
        assert isinstance(fact, DealerBust)
        assert fact.up == change.up
        assert fact.before == dealer_probabilities(S17, change.up).bust
        assert fact.after == dealer_probabilities(h17, change.up).bust
        assert fact.after > fact.before, "a dealer who hits soft 17 busts more"
        assert fact.seventeen_after < fact.seventeen_before, "and stops on 17 less"


def test_without_a_hole_card_only_plays_against_a_ten_or_an_ace_change() -> None:
    european = next(f for f in flips(S17) if f.option is Option.HOLE_CARD).rules
    assert european.hole_card is HoleCard.EUROPEAN
    found = compare(S17, european)
    assert found.cells
    for change in found.cells:
        assert change.column in ("10", "A")
        assert isinstance(change.fact, DealerNatural)
        assert not change.fact.checked_after
        # The hidden card after the up-card from six decks (311 cards left): a ten under an Ace,
        # an Ace under a ten.
        expected = Fraction(96, 311) if change.up == 1 else Fraction(24, 311)
        assert change.fact.probability == pytest.approx(float(expected), abs=1e-12)
    eleven = {(c.table, c.row, c.column): c for c in found.cells}[("hard", "11", "10")]
    assert (eleven.old_play, eleven.new_play) == (Action.DOUBLE, Action.HIT)


def test_a_six_to_five_payout_changes_no_play_and_costs_three_tenths_of_each_natural() -> None:
    """A natural is paid before any decision: no cell moves, and the edge grows by 0.3 of a bet
    times the chance of a player natural the dealer does not match (six decks, counted)."""
    six_five = next(f for f in flips(S17) if f.option is Option.PAYOUT).rules
    assert six_five.blackjack_pays == Fraction(6, 5)
    found = compare(S17, six_five)
    assert found.cells == ()
    player = 2 * Fraction(24, 312) * Fraction(96, 311)
    dealer = 2 * Fraction(23, 310) * Fraction(95, 309)
    cost = Fraction(3, 10) * player * (1 - dealer)
    assert found.edge_after - found.edge_before == pytest.approx(float(cost), abs=1e-9)


def test_one_deck_leaves_more_tens_after_small_cards_and_doubles_more() -> None:
    one_deck = S17.replace(decks=1)
    found = compare(S17, one_deck)
    nine_v_2 = {(c.table, c.row, c.column): c for c in found.cells}[("hard", "9", "2")]
    assert (nine_v_2.before, nine_v_2.after) == ("H", "D")
    fact = nine_v_2.fact
    assert isinstance(fact, TenShare)
    assert (fact.decks_before, fact.decks_after) == (6, 1)
    assert fact.after > fact.before
    # 2-7, 3-6 and 4-5 against a 2 from one deck: 16 tens among the 49 cards left, each time.
    assert fact.after == pytest.approx(16 / 49)


def test_ten_share_weighs_each_hand_as_it_is_dealt() -> None:
    # 6-10 and 7-9 against a 5 from one deck: 15 and 16 tens left of 49 cards, weighted by how
    # often each is dealt once the 5 is out (4 sixes x 16 tens, 4 sevens x 4 nines).
    shoe = full_shoe(1)
    ways = {(6, 10): 4 * 16, (7, 9): 4 * 4}
    left = {(6, 10): 15 / 49, (7, 9): 16 / 49}
    expected = sum(ways[h] * left[h] for h in ways) / sum(ways.values())
    assert ten_share(shoe, 5, ((6, 10), (7, 9))) == pytest.approx(expected)


@pytest.mark.parametrize("table", ["hard", "soft", "pairs"])
def test_row_hands_make_the_row_they_stand_for(table: str) -> None:
    graph = hand_graph()
    for row in chart(S17).tables()[table].index:
        for hand in row_hands(table, str(row)):
            node = graph.index[hand_of(hand)]
            if table == "pairs":
                assert hand[0] == hand[1]
            else:
                assert int(graph.total[node]) == int(row)
                assert bool(graph.soft[node]) == (table == "soft")


def test_a_double_that_keeps_doubling_swaps_its_fallback() -> None:
    before = {Action.HIT: 0.10, Action.STAND: 0.05, Action.DOUBLE: 0.20}
    after = {Action.HIT: 0.10, Action.STAND: 0.12, Action.DOUBLE: 0.20}
    assert plays_swapped(before, after) == (Action.HIT, Action.STAND)
    assert plays_swapped(before, {**before, Action.STAND: 0.3}) == (Action.DOUBLE, Action.STAND)


def test_taking_surrender_away_leaves_no_gain_but_the_cells_value() -> None:
    none = next(f for f in flips(S17) if f.option is Option.SURRENDER).rules
    assert not none.offers_surrender
    found = compare(S17, none)
    assert found.cells
    for change in found.cells:
        assert change.old_play is Action.SURRENDER
        assert change.gain is None
        assert change.value_change < 0, "losing an option never helps"
        assert change.fact is None
