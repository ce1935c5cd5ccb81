"""Cards and hand values, as the first lessons teach them."""

from __future__ import annotations

from collections import Counter

import pytest

from tutor.cards import (
    Card,
    InvalidCardError,
    Rank,
    Shoe,
    Suit,
    format_cards,
    hand_value,
    is_natural_cards,
    is_pair,
    one_deck,
    parse_cards,
    parse_ranks,
)


@pytest.mark.parametrize(
    ("token", "rank", "suit"),
    [
        ("A♠", Rank.ACE, Suit.SPADES),
        ("10♥", Rank.TEN, Suit.HEARTS),
        ("K♦", Rank.KING, Suit.DIAMONDS),
        ("AS", Rank.ACE, Suit.SPADES),
        ("TH", Rank.TEN, Suit.HEARTS),
        ("kd", Rank.KING, Suit.DIAMONDS),
        ("2c", Rank.TWO, Suit.CLUBS),
        ("Q♣️", Rank.QUEEN, Suit.CLUBS),  # with the emoji variation selector
    ],
)
def test_both_notations_parse(token: str, rank: Rank, suit: Suit) -> None:
    assert Card.parse(token) == Card(rank, suit)


@pytest.mark.parametrize("token", ["1♠X", "11H", "A", "ZS", "A♤", "", "10"])
def test_a_bad_token_is_named_in_the_error(token: str) -> None:
    with pytest.raises(InvalidCardError) as error:
        Card.parse(token)
    assert repr(token) in str(error.value)


def test_a_bad_token_in_a_list_is_named() -> None:
    with pytest.raises(InvalidCardError, match="'XX'"):
        parse_cards("A♠ XX K♦")


def test_cards_print_in_both_notations_and_repr_rebuilds() -> None:
    cards = parse_cards("AS TH KD")
    assert format_cards(cards) == "A♠ 10♥ K♦"
    assert format_cards(cards, ascii=True) == "AS TH KD"
    assert eval(repr(cards[1]), {"Card": Card}) == cards[1]


def test_ranks_parse_without_suits() -> None:
    assert parse_ranks("A 7") == (Rank.ACE, Rank.SEVEN)
    assert parse_ranks("T 6") == (Rank.TEN, Rank.SIX)


@pytest.mark.parametrize(
    ("cards", "total", "soft"),
    [
        ("A♠ 6♥", 17, True),  # 004: Ace-6 is 7 or 17, a soft 17
        ("A♠ 6♥ 10♦", 17, False),  # 004: Ace-6-10 is 17, the Ace must count 1
        ("A♠ 6♥ 9♦", 16, False),  # 004: the example hand, the Ace drops to 1
        ("A♠ 6♥ 9♦ 5♣", 21, False),  # 004: 21 in four cards
        ("A♠ A♥", 12, True),  # only one Ace may count 11
        ("A♠ A♥ 9♦", 21, True),
        ("K♠ Q♥", 20, False),  # faces count 10
        ("K♠ Q♥ 2♦", 22, False),
        ("5♠ 6♥", 11, False),
        ("A♠ K♥", 21, True),
    ],
)
def test_hand_values(cards: str, total: int, soft: bool) -> None:
    value = hand_value(parse_cards(cards))
    assert (value.total, value.soft) == (total, soft)
    assert value.is_bust == (total > 21)


@pytest.mark.parametrize(
    ("cards", "natural"),
    [("A♠ K♥", True), ("10♦ A♣", True), ("A♠ 6♥ 4♦", False), ("A♠ 9♥", False)],
)
def test_naturals(cards: str, natural: bool) -> None:
    assert is_natural_cards(parse_cards(cards)) is natural


def test_pairs_by_rank_or_by_value() -> None:
    assert is_pair(parse_cards("8♠ 8♥"))
    assert not is_pair(parse_cards("K♠ 10♥"))
    assert is_pair(parse_cards("K♠ 10♥"), by_value=True)


def test_a_seeded_shoe_is_reproducible() -> None:
    def deal(seed: int) -> list[Card]:
        shoe = Shoe(6, seed=seed)
        return [shoe.draw() for _ in range(312)]

    assert deal(7) == deal(7)
    assert deal(7) != deal(8)
    assert sorted(deal(7), key=repr) == sorted(deal(8), key=repr)  # the same 6 decks


def test_a_script_comes_first_then_random_cards() -> None:
    shoe = Shoe(1, seed=1, script="A♠ K♥")
    assert [shoe.draw(), shoe.draw()] == list(parse_cards("A♠ K♥"))
    third = shoe.draw()
    assert third not in parse_cards("A♠ K♥")  # one deck holds one Ace of spades
    assert len(shoe) == 49


def test_a_script_cannot_ask_for_more_copies_than_the_decks_hold() -> None:
    with pytest.raises(ValueError, match="more copies of A♠ than 1 deck"):
        Shoe(1, script="A♠ A♠")
    Shoe(2, script="A♠ A♠")  # two decks hold two


def test_the_cards_of_a_round_in_play_are_never_shuffled() -> None:
    shoe = Shoe(1, seed=3)
    shoe.draw()
    with pytest.raises(RuntimeError, match="round in play"):
        shoe.shuffle()


def test_an_exhausted_shoe_reshuffles_earlier_discards_only() -> None:
    shoe = Shoe(1, seed=5)
    earlier = [shoe.draw() for _ in range(40)]
    shoe.end_round(shuffle=False)
    in_play = [shoe.draw() for _ in range(12)]  # the last 12 cards
    assert len(shoe) == 0
    next_card = shoe.draw()  # the discards come back, not the cards in play
    assert next_card in earlier
    assert next_card not in in_play
    assert shoe.spare_decks_opened == 0


def test_a_spare_deck_is_opened_when_the_rules_say_so() -> None:
    shoe = Shoe(1, seed=5, spare_deck=True)
    for _ in range(52):
        shoe.draw()
    shoe.draw()
    assert shoe.spare_decks_opened == 1
    assert shoe.total_cards == 104


def test_the_spare_deck_is_put_away_at_the_next_shuffle() -> None:
    """004: the spare pack serves the round that ran dry; the next round is dealt from one pack."""
    shoe = Shoe(1, seed=5, spare_deck=True)
    for _ in range(60):
        shoe.draw()
    assert shoe.spare_decks_opened == 1
    shoe.end_round(shuffle=True)
    assert shoe.spare_decks_opened == 0
    assert shoe.total_cards == len(shoe) == 52
    assert Counter(shoe.remaining) == Counter(one_deck())


def test_putting_the_spare_away_counts_the_cards_a_script_still_holds() -> None:
    shoe = Shoe(1, seed=5, spare_deck=True)
    for _ in range(53):  # the spare is open
        shoe.draw()
    shoe.end_round(shuffle=False)
    scripted = shoe.remaining[0]
    shoe.load_script([scripted])  # a lesson's next card, taken from the spare
    shoe.shuffle()
    assert shoe.spare_decks_opened == 0
    assert shoe.total_cards == len(shoe) == 52
    assert Counter(shoe.remaining) == Counter(one_deck())
    assert shoe.draw() == scripted


def test_the_cut_card_calls_for_a_shuffle() -> None:
    shoe = Shoe(2, seed=1, penetration=0.5)
    for _ in range(51):
        shoe.draw()
    assert not shoe.needs_shuffle()
    shoe.draw()
    assert shoe.needs_shuffle()
    shoe.end_round(shuffle=True)
    assert len(shoe) == 104
    assert not shoe.needs_shuffle()
