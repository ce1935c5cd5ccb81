"""The round, rule by rule: every worked example and settlement rule of the four sources.

Each test names the source it reads: 000 (encyclopedia page), 001 (French casino rules),
003 (six-deck online game), 004 (family booklet), all in ``shared/sources``.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import get_args

import pytest

from tutor.cards import parse_cards
from tutor.decision import Action
from tutor.game import Event, EventKind, IllegalActionError, Outcome, Phase, Round
from tutor.rules import PRESETS, DoubleOn, HoleCard, Surrender, TableRules
from tutor.table import scripted_round

FAMILY = PRESETS["family"]
FRENCH = PRESETS["french-casino"]
ONLINE = PRESETS["online-six-deck"]
BEFORE_2007 = PRESETS["france-before-2007"]
S17 = PRESETS["american-s17"]
H17 = PRESETS["american-h17"]


def outcomes(game: Round, seat: int = 0) -> list[Outcome]:
    return [hand.outcome for hand in game.results[seat].hands]


def play(game: Round, *actions: str) -> Round:
    for action in actions:
        game.act(Action.parse(action))
    return game


# -- hand totals in play (004, section 06) ---------------------------------------------------------


def test_ace_six_then_nine_makes_16_then_five_makes_21_in_four_cards_not_a_natural() -> None:
    game = scripted_round(FAMILY, ["A♠ 6♥"], "9♣ 8♦", "9♦ 5♣")
    assert game.decision_point().value.total == 17
    game.hit()
    assert game.decision_point().value.total == 16
    game.hit()  # 21 stands by itself
    assert game.is_over
    assert outcomes(game) == [Outcome.WIN]  # 21 against 17, paid 1:1, not 3:2
    assert game.results[0].net == 2


def test_19_against_18_wins_two_chips_on_two_and_the_neighbour_with_17_loses() -> None:
    game = scripted_round(FAMILY, ["10♠ 9♥", "10♦ 7♣"], "10♣ 8♦", bets=[2, 2])
    play(game, "stand", "stand")
    assert [r.net for r in game.results] == [2, -2]
    assert outcomes(game, 0) == [Outcome.WIN]
    assert outcomes(game, 1) == [Outcome.LOSE]


def test_a_natural_pays_three_on_two() -> None:
    game = scripted_round(FAMILY, ["A♠ K♥"], "9♣ 8♦")
    assert game.is_over  # a natural needs no decision
    assert outcomes(game) == [Outcome.NATURAL]
    assert game.results[0].net == 3


def test_a_natural_beats_a_multi_card_21() -> None:
    game = scripted_round(FAMILY, ["A♠ K♥", "10♦ 7♣"], "6♣ 5♦", "K♣", bets=[2, 2])
    game.stand()  # the neighbour stands, so the dealer plays: 6+5+K = 21
    assert outcomes(game) == [Outcome.NATURAL]
    assert outcomes(game, 1) == [Outcome.LOSE]
    assert game.dealer_value.total == 21


def test_two_naturals_push() -> None:
    game = scripted_round(FAMILY, ["A♠ K♥"], "A♣ Q♦")
    assert game.phase is Phase.INSURANCE  # the family table offers insurance on an Ace
    game.decline_insurance()
    assert outcomes(game) == [Outcome.PUSH]
    assert game.results[0].net == 0


def test_a_dealer_natural_beats_a_player_21_in_three_cards() -> None:
    # 001: with the European deal the dealer's natural takes every hand but a natural.
    game = scripted_round(FRENCH, ["7♠ 4♥"], "A♣", "K♥ Q♦")
    game.decline_insurance()
    play(game, "hit")  # 7+4+K = 21, stands by itself
    assert game.dealer_has_natural
    assert outcomes(game) == [Outcome.LOSE]


def test_a_player_who_busts_loses_even_if_the_dealer_busts_later() -> None:
    game = scripted_round(FAMILY, ["10♠ 6♥", "10♦ 8♣"], "6♣ 10♥", "K♠ 9♥", bets=[2, 2])
    play(game, "hit", "stand")  # seat 1 busts with 26; seat 2 stands on 18
    assert game.dealer_value.total == 25
    assert outcomes(game, 0) == [Outcome.BUST]
    assert outcomes(game, 1) == [Outcome.WIN]


def test_equal_totals_push() -> None:
    game = scripted_round(FAMILY, ["10♠ 8♥"], "10♣ 8♦")
    game.stand()
    assert outcomes(game) == [Outcome.PUSH]
    assert game.results[0].net == 0


# -- the dealer's obligations --


@pytest.mark.parametrize(("rules", "dealer_total"), [(FAMILY, 17), (H17, 19)])
def test_the_dealer_stands_on_soft_17_unless_the_table_says_hit(
    rules: TableRules, dealer_total: int
) -> None:
    game = scripted_round(rules, ["10♠ 8♥"], "A♣ 6♦", "2♠", bets=[2], strict=False)
    if game.phase is Phase.INSURANCE:
        game.decline_insurance()
    game.stand()
    assert game.dealer_value.total == dealer_total


def test_the_dealer_does_not_complete_a_hand_when_every_player_has_bust() -> None:
    game = scripted_round(FAMILY, ["10♠ 6♥"], "5♣ 6♦", "K♠")
    game.hit()
    assert game.is_over
    assert len(game.dealer) == 2  # revealed, but no card drawn
    assert EventKind.DEALER_HIT not in {event.kind for event in game.events}


def test_the_dealer_checks_for_a_natural_under_a_ten_and_ends_the_round() -> None:
    game = scripted_round(FAMILY, ["10♠ 9♥"], "K♣ A♦")
    assert game.is_over  # nobody plays against a dealer natural
    assert outcomes(game) == [Outcome.LOSE]
    assert game.results[0].net == -2
    checked = [e for e in game.events if e.kind is EventKind.DEALER_CHECKED]
    assert checked[0].natural is True


def test_a_dealer_with_a_low_up_card_does_not_check() -> None:
    game = scripted_round(FAMILY, ["10♠ 9♥"], "6♣ 5♦", "K♠")
    assert EventKind.DEALER_CHECKED not in {event.kind for event in game.events}


# -- doubling --


def test_a_double_gets_exactly_one_card_and_pays_on_the_doubled_bet() -> None:
    game = scripted_round(FAMILY, ["8♠ 3♥"], "6♣ 10♦", "10♠ 7♥")
    game.double()
    assert game.is_over  # no second card after doubling (004, common mistakes)
    assert game.seats[0].hands[0].cards == list(parse_cards("8♠ 3♥ 10♠"))
    assert game.results[0].hands[0].bet == 4
    assert game.results[0].net == 4  # 21 against the dealer's bust with 6+10+7


def test_you_can_only_double_on_your_first_two_cards() -> None:
    game = scripted_round(FAMILY, ["5♠ 3♥"], "6♣ 10♦", "2♠", strict=False)
    game.hit()
    with pytest.raises(IllegalActionError, match="only double on your first two cards"):
        game.double()
    assert not game.can_double()


@pytest.mark.parametrize(
    ("cards", "allowed"),
    [("5♠ 4♥", True), ("6♠ 4♥", True), ("6♠ 5♥", True), ("5♠ 3♥", False), ("A♠ 8♥", False)],
)
def test_france_before_2007_doubled_only_on_9_10_or_11(cards: str, allowed: bool) -> None:
    game = scripted_round(BEFORE_2007, [cards], "6♣", strict=False)
    assert game.can_double() is allowed
    if not allowed:
        with pytest.raises(IllegalActionError) as error:
            game.verify_double()
        assert error.value.code == "double-total"


def test_ten_or_eleven_only() -> None:
    rules = S17.replace(double_on=DoubleOn.TEN_OR_ELEVEN)
    assert not scripted_round(rules, ["5♠ 4♥"], "6♣ 9♦", strict=False).can_double()
    assert scripted_round(rules, ["6♠ 4♥"], "6♣ 9♦", strict=False).can_double()


def test_the_family_table_forbids_doubling_after_a_split() -> None:
    game = scripted_round(FAMILY, ["8♠ 8♥"], "6♣ 10♦", "3♦ 2♣", strict=False)
    game.split()
    assert game.seats[0].hands[0].cards == list(parse_cards("8♠ 3♦"))
    with pytest.raises(IllegalActionError, match="cannot double after a split") as error:
        game.double()
    assert error.value.params == {"table": "family"}


def test_double_after_split_where_allowed() -> None:
    game = scripted_round(S17, ["8♠ 8♥"], "6♣ 10♦", "3♦ 10♣ 2♣ 9♠ K♥")
    game.split()
    game.double()  # 8+3 doubled gets 10: 21
    assert game.to_act() is not None
    assert game.to_act().hand == 1  # type: ignore[union-attr]
    game.double()  # 8+2 doubled gets 9: 19
    assert [h.bet for h in game.results[0].hands] == [4, 4]
    assert game.results[0].net == 8  # the dealer's 16 draws a King and busts


def test_a_face_down_double_hides_the_card_until_the_dealer_has_played() -> None:
    rules = S17.replace(double_face_down=True)
    game = scripted_round(rules, ["6♠ 5♥", "10♠ 7♥"], "6♣ 10♦", "9♦", bets=[2, 2], strict=False)
    game.double()
    dealt = [e for e in game.events if e.kind is EventKind.CARD_DEALT and e.seat == 0]
    assert dealt[-1].face_down is True
    assert game.seats[0].hands[0].hidden_card is not None
    game.stand()
    revealed = [e for e in game.events if e.kind is EventKind.HOLE_CARD_REVEALED and e.seat == 0]
    assert [e.card for e in revealed] == list(parse_cards("9♦"))


@pytest.mark.parametrize("preset", ["american-s17", "american-h17"])
def test_a_card_doubled_face_down_is_in_no_other_seats_seen(preset: str) -> None:
    # 001: at the American table the double's card is dealt face down and seen only once the
    # dealer has played; until then no seat's decision may count it as seen.
    rules = PRESETS[preset]
    game = scripted_round(
        rules, ["6♠ 5♥", "10♠ 6♥", "9♣ 7♦"], "6♣ 10♦", "9♦", bets=[2, 2, 2], strict=False
    )
    game.double()
    hidden = game.seats[0].hands[0].hidden_card
    assert hidden == parse_cards("9♦")[0]
    second = game.decision_point()
    assert Counter(second.seen) == Counter(parse_cards("6♠ 5♥ 9♣ 7♦"))
    game.stand()
    third = game.decision_point()
    assert Counter(third.seen) == Counter(parse_cards("6♠ 5♥ 10♠ 6♥"))
    assert hidden not in second.seen
    assert hidden not in third.seen


def test_a_face_down_doubles_event_has_no_card_until_the_reveal_carries_it() -> None:
    rules = PRESETS["american-s17"]
    game = scripted_round(rules, ["6♠ 5♥", "10♠ 7♥"], "6♣ 10♦", "9♦ 2♣", bets=[2, 2])
    game.double()
    hidden = parse_cards("9♦")[0]
    dealt = [e for e in game.events if e.kind is EventKind.CARD_DEALT and e.seat == 0]
    assert (dealt[-1].card, dealt[-1].face_down) == (None, True)
    assert all(hidden not in event for event in game.events)  # no field of any event
    game.stand()
    reveals = [
        i for i, e in enumerate(game.events)
        if e.kind is EventKind.HOLE_CARD_REVEALED and e.seat == 0
    ]
    assert len(reveals) == 1
    reveal = reveals[0]
    assert game.events[reveal].card == hidden
    assert (game.events[reveal].seat, game.events[reveal].hand) == (0, 0)
    # Turned once the dealer has played, before its hand is paid; no earlier event names it.
    kinds = [e.kind for e in game.events]
    assert kinds.index(EventKind.DEALER_STOOD) < reveal
    settled = next(
        i for i, e in enumerate(game.events)
        if e.kind is EventKind.HAND_SETTLED and e.seat == 0
    )
    assert reveal < settled
    assert all(hidden not in e for e in game.events[:reveal])


def _dealer_busts(counts: tuple[int, ...], total: int, soft: bool, hits_soft_17: bool) -> float:
    """The chance the dealer busts from ``total`` drawing from ``counts`` (Ace..ten), by plain
    recursion over every card: written here apart from the strategy's dealer code."""
    memo: dict[tuple[tuple[int, ...], int, bool], float] = {}

    def busts(left: tuple[int, ...], total: int, soft: bool) -> float:
        if total > 21:
            return 1.0
        if total > 17 or (total == 17 and not (soft and hits_soft_17)):
            return 0.0
        key = (left, total, soft)
        if key not in memo:
            cards = sum(left)
            chance = 0.0
            for index, count in enumerate(left):
                if count:
                    value = index + 1
                    new_total, new_soft = total + value, soft
                    if value == 1 and new_total + 10 <= 21:
                        new_total, new_soft = new_total + 10, True
                    if new_total > 21 and new_soft:
                        new_total, new_soft = new_total - 10, False
                    after = (*left[:index], count - 1, *left[index + 1 :])
                    chance += count / cards * busts(after, new_total, new_soft)
            memo[key] = chance
        return memo[key]

    return busts(counts, total, soft)


def test_the_next_seats_advice_leaves_the_unseen_double_card_in_the_shoe() -> None:
    # Issue 23, point 8: 10-6 against a 6 after the first seat doubled face down. Standing on 16
    # wins exactly when the dealer busts (a 6 has no natural): EV = 2 P(bust) - 1, from the shoe
    # less the cards the table has seen (up-card, the first seat's two cards, the hand itself).
    from tutor.strategy import advise

    rules = PRESETS["american-s17"]
    game = scripted_round(rules, ["6♠ 5♥", "10♠ 6♥"], "6♣ 10♦", "9♦", bets=[2, 2], strict=False)
    game.double()
    counts = [4 * rules.decks] * 9 + [16 * rules.decks]
    for card in parse_cards("6♣ 6♠ 5♥ 10♠ 6♥"):
        counts[card.points - 1] -= 1
    unseen_kept = 2 * _dealer_busts(tuple(counts), 6, False, rules.dealer_hits_soft_17) - 1
    counts[8] -= 1  # the 9♦ nobody has seen
    as_if_seen = 2 * _dealer_busts(tuple(counts), 6, False, rules.dealer_hits_soft_17) - 1
    stand = advise(game.decision_point()).evs[Action.STAND]
    assert stand == pytest.approx(unseen_kept, abs=1e-6)
    assert abs(stand - as_if_seen) > 1e-3  # the mistake this test is here to catch


# -- splitting --


def test_split_aces_get_one_card_each_and_ace_ten_is_21_paid_one_to_one() -> None:
    game = scripted_round(FAMILY, ["A♠ A♥"], "9♣ 8♦", "K♠ 5♥")
    game.split()
    assert game.is_over  # both Aces got their one card; no more decisions
    assert [hand.value.total for hand in game.seats[0].hands] == [21, 16]
    assert outcomes(game) == [Outcome.WIN, Outcome.LOSE]
    assert game.results[0].hands[0].net == 2  # 1:1, not 3:2: no natural after a split
    assert game.results[0].net == 0


def test_split_21_against_a_dealer_21_in_three_cards_pushes() -> None:
    # 003: split Aces that draw a ten make a plain 21; a dealer 21 then pushes.
    game = scripted_round(ONLINE, ["A♠ A♥"], "9♣ 5♦", "K♠ K♥ 7♣")
    game.split()
    assert outcomes(game) == [Outcome.PUSH, Outcome.PUSH]


def test_split_aces_cannot_hit() -> None:
    rules = S17.replace(resplit_aces=True)
    game = scripted_round(rules, ["A♠ A♥"], "9♣ 8♦", "A♦ 5♥ 6♥ 7♥", strict=False)
    game.split()
    # The first Ace drew another Ace: it may be split again, or stand, but not hit.
    assert game.legal_actions() == {Action.SPLIT, Action.STAND}
    with pytest.raises(IllegalActionError, match="one card each"):
        game.hit()
    game.split()
    assert len(game.seats[0].hands) == 3


def test_the_family_table_allows_one_split_only() -> None:
    game = scripted_round(FAMILY, ["8♠ 8♥"], "6♣ 10♦", "8♦", strict=False)
    game.split()
    with pytest.raises(IllegalActionError, match="at most 2 hands") as error:
        game.split()
    assert error.value.code == "max-hands"


def test_split_by_rank_or_by_value() -> None:
    by_rank = scripted_round(S17, ["K♠ 10♥"], "6♣ 9♦", strict=False)
    assert not by_rank.can_split()
    by_value = scripted_round(S17.replace(split_by_value=True), ["K♠ 10♥"], "6♣ 9♦", strict=False)
    assert by_value.can_split()


def test_split_hands_are_played_left_to_right_each_getting_its_second_card_in_turn() -> None:
    game = scripted_round(S17, ["8♠ 8♥"], "6♣ 10♦", "10♠ 2♥ 10♣", strict=False)
    game.split()
    assert [len(h.cards) for h in game.seats[0].hands] == [2, 1]
    game.stand()  # 18
    assert game.seats[0].hands[1].cards == list(parse_cards("8♥ 2♥"))
    game.hit()  # 20
    game.stand()
    assert game.is_over


# -- insurance and even money --


def test_a_one_chip_insurance_returns_three_chips_when_the_dealer_has_a_natural() -> None:
    game = scripted_round(FAMILY, ["10♠ 9♥"], "A♣ K♦")
    game.insure(1)
    assert game.is_over
    result = game.results[0]
    assert result.insurance == 1
    assert result.insurance_net == 2  # the chip comes back with two more: three chips
    assert result.hands[0].net == -2  # the main bet is settled apart, and lost
    assert result.net == 0


def test_insurance_is_lost_when_the_dealer_has_no_natural_and_play_goes_on() -> None:
    game = scripted_round(FAMILY, ["10♠ 9♥"], "A♣ 7♦")
    game.insure(1)
    assert game.phase is Phase.PLAYERS
    game.stand()  # 19 against 18
    assert game.results[0].insurance_net == -1
    assert game.results[0].net == 1


def test_insurance_is_at_most_half_the_bet() -> None:
    game = scripted_round(FAMILY, ["10♠ 9♥"], "A♣ 7♦")
    with pytest.raises(IllegalActionError, match="at most 1"):
        game.insure(2)


def test_even_money_pays_one_to_one_whatever_the_dealer_holds() -> None:
    game = scripted_round(S17, ["A♠ K♥"], "A♣ K♦")
    assert Action.EVEN_MONEY in game.legal_actions()
    game.take_even_money()
    assert outcomes(game) == [Outcome.EVEN_MONEY]
    assert game.results[0].net == 2


def test_even_money_only_on_a_natural() -> None:
    game = scripted_round(S17, ["10♠ K♥"], "A♣ 7♦")
    assert game.legal_actions() == {Action.INSURE, Action.DECLINE_INSURANCE}


def test_insurance_forbids_doubling_and_splitting_in_the_online_game() -> None:
    game = scripted_round(ONLINE, ["8♠ 8♥"], "A♣ 7♦", strict=False)
    game.insure()
    assert game.legal_actions() == {Action.HIT, Action.STAND, Action.SURRENDER}
    with pytest.raises(IllegalActionError, match="no longer split"):
        game.split()


def test_the_french_casino_insures_the_second_bet_of_a_double() -> None:
    # 001: after insurance, a player who doubles or splits insures the new bet too; with no
    # hole card the dealer's natural would take the doubled bet.
    game = scripted_round(FRENCH, ["6♠ 5♥"], "A♣", "9♦ K♦")
    game.insure()
    game.double()
    result = game.results[0]
    assert result.insurance == 2  # half of 2, then half of the added 2
    assert result.hands[0].net == -4  # the dealer's natural takes the doubled bet
    assert result.insurance_net == 4
    assert result.net == 0


# -- the European deal --


def test_the_european_dealer_takes_the_second_card_after_the_players() -> None:
    game = scripted_round(FRENCH, ["10♠ 9♥"], "6♣", "10♦ 5♠")
    assert len(game.dealer) == 1
    game.stand()
    assert game.dealer_value.total == 21  # 6, then 10 and 5
    assert outcomes(game) == [Outcome.LOSE]


def test_the_european_dealer_natural_takes_doubled_and_split_bets() -> None:
    game = scripted_round(FRENCH, ["8♠ 8♥"], "10♣", "3♦ 10♠ 7♥ A♦")
    game.split()
    game.double()  # 8+3+10 = 21 doubled
    game.stand()  # 8+7 = 15
    assert game.dealer_has_natural
    assert [h.net for h in game.results[0].hands] == [-4, -2]


# -- surrender --


def test_surrender_returns_half_the_bet() -> None:
    game = scripted_round(S17, ["10♠ 6♥"], "10♣ 7♦", bets=[10])
    game.surrender()
    assert outcomes(game) == [Outcome.SURRENDER]
    assert game.results[0].net == -5


def test_surrender_only_on_the_first_two_cards() -> None:
    game = scripted_round(S17, ["5♠ 3♥"], "10♣ 7♦", "2♠", strict=False)
    game.hit()
    with pytest.raises(IllegalActionError, match="first two cards"):
        game.surrender()


def test_late_surrender_without_a_hole_card_still_loses_all_to_a_natural() -> None:
    """Late surrender is kept as it was for the tables that choose it with the European deal:
    the dealer has not checked, so a natural on his second card takes the whole bet (the French
    tables' immediate surrender does not: see tests/test_sources.py)."""
    late = FRENCH.replace(surrender="late")
    game = scripted_round(late, ["10♠ 6♥"], "10♣", "A♦")
    game.surrender()
    assert game.dealer_has_natural
    assert outcomes(game) == [Outcome.LOSE]
    assert game.results[0].net == -2


def test_an_immediate_surrender_alone_at_the_table_needs_no_dealer_card() -> None:
    """Settled at once: with nothing else waiting, the European dealer draws no second card."""
    game = scripted_round(FRENCH, ["10♠ 6♥"], "10♣")
    game.surrender()
    assert game.is_over
    assert len(game.dealer) == 1
    assert game.results[0].net == -1


def test_no_surrender_at_the_family_table() -> None:
    game = scripted_round(FAMILY, ["10♠ 6♥"], "10♣ 7♦")
    assert Surrender.NONE is FAMILY.surrender
    assert not game.can_surrender()


# -- payouts --


@pytest.mark.parametrize(
    ("pays", "bet", "net"),
    [(Fraction(3, 2), 2, 3), (Fraction(3, 2), 5, Fraction(15, 2)), (Fraction(6, 5), 5, 6)],
)
def test_natural_payouts_are_exact(pays: Fraction, bet: int, net: Fraction) -> None:
    game = scripted_round(S17.replace(blackjack_pays=pays), ["A♠ K♥"], "9♣ 8♦", bets=[bet])
    assert game.results[0].net == net


def test_the_historical_ace_of_spades_with_a_black_jack_bonus() -> None:
    rules = S17.replace(ace_of_spades_black_jack_pays=10)
    assert scripted_round(rules, ["A♠ J♣"], "9♣ 8♦").results[0].net == 20
    assert scripted_round(rules, ["A♠ J♥"], "9♣ 8♦").results[0].net == 3  # a red Jack
    assert scripted_round(rules, ["A♥ J♠"], "9♣ 8♦").results[0].net == 3  # not the Ace of spades


# -- turns and events --


def test_the_deal_follows_the_sources_order() -> None:
    game = scripted_round(S17, ["2♠ 3♠", "4♥ 5♥"], "6♦ 7♦", strict=False, bets=[2, 2])
    dealt = [(e.seat, e.card) for e in game.events if e.kind is EventKind.CARD_DEALT]
    cards = parse_cards("2♠ 4♥ 6♦ 3♠ 5♥")
    assert dealt == [
        (0, cards[0]),
        (1, cards[1]),
        (None, cards[2]),
        (0, cards[3]),
        (1, cards[4]),
        (None, None),
    ]  # the hole card is dealt face down: its card is not told


def test_whose_turn_it_is_and_an_action_out_of_turn() -> None:
    game = scripted_round(S17, ["10♠ 6♥", "10♦ 7♣"], "9♣ 8♦", bets=[2, 2], strict=False)
    assert game.to_act() is not None
    assert game.to_act().seat == 0  # type: ignore[union-attr]
    game.stand()
    assert game.to_act().seat == 1  # type: ignore[union-attr]
    game.stand()
    assert game.to_act() is None
    with pytest.raises(IllegalActionError, match="round is over"):
        game.hit()


def test_events_are_data_without_text() -> None:
    game = scripted_round(FAMILY, ["10♠ 9♥"], "A♣ 7♦")
    game.insure(1)
    game.stand()
    for event in game.events:
        assert isinstance(event, get_args(Event))  # one of the typed records
        assert isinstance(event.kind, EventKind)
        for value in event:  # every field
            assert not (isinstance(value, str) and " " in value)  # no sentences in events
    kinds = [event.kind for event in game.events]
    assert kinds[-1] is EventKind.ROUND_SETTLED
    assert EventKind.INSURANCE_TAKEN in kinds


def test_every_event_kind_has_exactly_one_record_saying_who_last() -> None:
    records = get_args(Event)
    # ``kind`` is the record's class, not its data: the property reads nothing of the event.
    said = [record.kind.fget(None) for record in records]
    assert sorted(kind.value for kind in said) == sorted(kind.value for kind in EventKind)
    for record in records:
        assert record._fields[-2:] == ("seat", "hand"), record


def test_the_decision_point_tells_the_strategy_what_it_needs() -> None:
    game = scripted_round(S17, ["8♠ 8♥"], "6♣ 10♦", strict=False)
    point = game.decision_point()
    assert point.is_pair
    assert point.dealer_up == parse_cards("6♣")[0]
    assert point.legal == {Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER}


def test_stacks_limit_doubling_to_what_the_player_owns() -> None:
    rules = FAMILY
    from tutor.table import new_shoe

    shoe = new_shoe(rules, script=parse_cards("6♠ 7♣ 5♥ 10♦"))
    game = Round(rules, shoe, [2], stacks=[1])
    with pytest.raises(IllegalActionError, match="need 2 more chips") as error:
        game.double()
    assert error.value.code == "funds"


def test_the_hole_card_is_american_or_european() -> None:
    assert FAMILY.hole_card is HoleCard.AMERICAN
    assert FRENCH.hole_card is HoleCard.EUROPEAN


def test_each_added_bet_is_insured_at_the_first_insurance_rate() -> None:
    # 001: after a split and a double, every added bet carries the same insurance as the first:
    # half of each 2 chips, not half of the insurance already grown by the earlier extras.
    game = scripted_round(FRENCH, ["8♠ 8♥"], "A♣", "3♦ 10♠ 7♥ K♦")
    game.insure()  # 1 chip on 2
    game.split()  # + 1 chip for the second hand's 2
    game.double()  # + 1 chip for the doubled 2 (8+3 draws a 10)
    game.stand()  # 8+7 = 15
    result = game.results[0]
    assert result.insurance == 3
    assert result.insurance_net == 6  # the dealer's natural pays the whole insurance 2:1
    assert [hand.net for hand in result.hands] == [-4, -2]
