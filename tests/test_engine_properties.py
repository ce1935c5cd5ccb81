"""Invariants over random rules, seeds and action sequences (hypothesis).

- chips are conserved to the chip between the players and the bank;
- within a shuffle no card is dealt twice, and the shoe's counts always add up;
- every round reaches its settlement;
- the legal actions offered are exactly those that succeed;
- a card dealt face down (a double's, or a player's card of the deal at home) is told by no event
  and counted by no other seat's decision until it is turned, and by settlement the events have
  told every card of the round exactly once.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.marks import examples
from tutor.cards import Card, one_deck
from tutor.decision import HAND_ACTIONS, INSURANCE_ACTIONS, Action
from tutor.game import Event, EventKind, IllegalActionError, Round, RoundSettled
from tutor.rules import PRESETS, DoubleOn, HoleCard, Shuffle, Surrender, TableRules
from tutor.table import BankRotation, FamilySession, Table, play_at_random


@st.composite
def table_rules(draw: st.DrawFn) -> TableRules:
    """Any table the rules allow."""
    hole = draw(st.sampled_from(HoleCard))
    insurance = draw(st.booleans())
    max_hands = draw(st.integers(1, 4))
    shuffle = draw(st.sampled_from(Shuffle))
    surrender = draw(st.sampled_from(Surrender))
    lock = insurance and draw(st.booleans())
    return TableRules(
        decks=draw(st.integers(1, 8)),
        dealer_hits_soft_17=draw(st.booleans()),
        hole_card=hole,
        blackjack_pays=draw(st.sampled_from([Fraction(3, 2), Fraction(6, 5), Fraction(1)])),
        double_on=draw(st.sampled_from(DoubleOn)),
        double_after_split=draw(st.booleans()),
        double_face_down=draw(st.booleans()),
        player_card_face_down=draw(st.booleans()),
        split_by_value=draw(st.booleans()),
        max_hands=max_hands,
        split_aces_one_card=draw(st.booleans()),
        resplit_aces=max_hands >= 3 and draw(st.booleans()),
        surrender=surrender,
        surrender_against_ace=surrender is Surrender.NONE or draw(st.booleans()),
        insurance=insurance,
        insurance_forbids_double_split=lock,
        insure_additional_bets=(
            insurance and not lock and hole is HoleCard.EUROPEAN and draw(st.booleans())
        ),
        even_money=insurance and draw(st.booleans()),
        shuffle=shuffle,
        penetration=draw(st.sampled_from([0.5, 0.75, 0.9])),
        spare_deck=shuffle is Shuffle.EVERY_ROUND and draw(st.booleans()),
        ace_of_spades_black_jack_pays=draw(st.sampled_from([None, Fraction(10)])),
    )


def assert_shoe_accounts_for_every_card(table: Table) -> None:
    shoe = table.shoe
    everything = Counter(shoe.remaining) + Counter(shoe.in_play) + Counter(shoe.discards)
    assert sum(everything.values()) == shoe.total_cards
    copies = shoe.decks + shoe.spare_decks_opened
    assert all(count <= copies for count in everything.values())
    assert set(everything) <= set(one_deck())


@settings(max_examples=examples(150), deadline=None)
@given(rules=table_rules(), seed=st.integers(0, 2**32), seats=st.integers(1, 7))
def test_rounds_settle_conserve_chips_and_account_for_every_card(
    rules: TableRules, seed: int, seats: int
) -> None:
    rng = random.Random(seed)
    table = Table(rules, seed=seed)
    dealt_since_shuffle: Counter[object] = Counter()
    shuffles = table.shoe.shuffles
    for _ in range(8):
        bets = [rng.choice([1, 2, 5, 10]) for _ in range(seats)]
        game = table.new_round(bets)
        play_at_random(game, rng)
        if table.shoe.shuffles != shuffles:  # shuffled between rounds or during this one
            dealt_since_shuffle.clear()
            shuffles = table.shoe.shuffles
        dealt_since_shuffle.update(table.shoe.in_play)
        assert game.is_over
        assert game.to_act() is None
        # Chips: the bank's net is exactly minus the players' nets, to the chip.
        settled = game.events[-1]
        assert isinstance(settled, RoundSettled)
        assert sum(settled.nets) + settled.bank_net == 0
        assert sum(r.net for r in game.results) == sum(settled.nets)
        # Each hand loses at most its bet and wins at most its bet times the best payout.
        best = max(Fraction(1), rules.blackjack_pays, rules.ace_of_spades_black_jack_pays or 0)
        for result in game.results:
            for hand in result.hands:
                assert -hand.bet <= hand.net <= hand.bet * best
        # Within a shuffle no card is dealt more often than the shoe holds copies of it.
        copies = table.shoe.decks + table.shoe.spare_decks_opened
        assert all(n <= copies for n in dealt_since_shuffle.values())
        assert_shoe_accounts_for_every_card(table)


@settings(max_examples=examples(120), deadline=None)
@given(rules=table_rules(), seed=st.integers(0, 2**32))
def test_the_legal_actions_offered_are_exactly_those_that_succeed(
    rules: TableRules, seed: int
) -> None:
    rng = random.Random(seed)
    table = Table(rules, seed=seed)
    game = table.new_round([2, 4])
    while game.to_act() is not None:
        legal = game.legal_actions()
        assert legal, "a player whose turn it is always has something to do"
        candidates = INSURANCE_ACTIONS + HAND_ACTIONS
        for action in candidates:
            trial = copy.deepcopy(game)
            try:
                trial.act(action)
                succeeded = True
            except IllegalActionError:
                succeeded = False
            assert succeeded == (action in legal), (action, legal)
        game.act(rng.choice(sorted(legal, key=lambda a: a.value)))
    assert game.is_over


#: The events of a player's own play.
PLAYS = (EventKind.HIT, EventKind.STOOD, EventKind.DOUBLED, EventKind.SPLIT, EventKind.SURRENDERED)


def _told(events: list[Event]) -> Counter[Card]:
    """The cards the events have shown the table: dealt face up, drawn by the dealer, turned."""
    shown = (EventKind.CARD_DEALT, EventKind.DEALER_HIT, EventKind.HOLE_CARD_REVEALED)
    return Counter(
        e.card for e in events if e.kind in shown and e.card is not None
    )


@settings(max_examples=examples(120), deadline=None)
@given(
    rules=table_rules(), seed=st.integers(0, 2**32), seats=st.integers(2, 7),
    face_down_deal=st.booleans(),
)
def test_a_card_face_down_is_told_and_counted_by_nobody_until_it_is_turned(
    rules: TableRules, seed: int, seats: int, face_down_deal: bool
) -> None:
    rules = rules.replace(double_face_down=True, player_card_face_down=face_down_deal)
    rng = random.Random(seed)
    table = Table(rules, seed=seed)
    for _ in range(4):
        game = table.new_round([2] * seats)
        while (turn := game.to_act()) is not None:
            # What a seat counts as seen is exactly what the events showed of the others: their
            # cards dealt face up, and their cards of the deal once turned. Its own hand it
            # knows whole, its card of the deal face down included.
            told = Counter(
                e.card for e in game.events
                if e.kind in (EventKind.CARD_DEALT, EventKind.HOLE_CARD_REVEALED)
                and e.seat not in (None, turn.seat)
                and e.card is not None
            )
            point = game.decision_point()
            assert Counter(point.seen) == told
            hand = game.seats[turn.seat].hands[turn.hand or 0]
            assert point.cards == tuple(hand.cards)
            legal = sorted(game.legal_actions(), key=lambda a: a.value)
            # Doubling whenever allowed, so that many hands hold a face-down card.
            action = Action.DOUBLE if Action.DOUBLE in legal else rng.choice(legal)
            game.act(action)
        # Every card of the round told exactly once, a face-down double's only when turned,
        # after the dealer's play.
        assert _told(game.events) == Counter(table.shoe.in_play)
        last_dealer = max(
            (i for i, e in enumerate(game.events)
             if e.kind in (EventKind.DEALER_STOOD, EventKind.DEALER_BUSTED, EventKind.DEALER_HIT)
             or (e.kind is EventKind.HOLE_CARD_REVEALED and e.seat is None)),
            default=-1,
        )
        for index, event in enumerate(game.events):
            if event.kind is EventKind.HOLE_CARD_REVEALED and event.seat is not None:
                if event.at_deal:
                    # A card of the deal is turned for a natural before any play, to split a
                    # pair, or at the showdown.
                    following = game.events[index + 1]
                    assert (
                        index > last_dealer
                        or following.kind is EventKind.SPLIT
                        or not any(e.kind in PLAYS for e in game.events[:index])
                    ), event
                else:
                    assert index > last_dealer
            if event.kind is EventKind.CARD_DEALT and event.face_down:
                assert event.card is None


@settings(max_examples=examples(60), deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(1, 6),
    rotation=st.sampled_from(BankRotation),
)
def test_a_family_session_conserves_chips_and_ends_with_a_ranking(
    seed: int, players: int, rotation: BankRotation
) -> None:
    if rotation is not BankRotation.FIXED and players < 2:
        players = 2
    names = [f"p{i}" for i in range(players)]
    session = FamilySession(names, seed=seed, rotation=rotation)
    start = session.total_chips
    rng = random.Random(seed)
    while not session.is_over:
        game = session.start_round()
        play_at_random(game, rng)
        session.finish_round()
        assert session.total_chips - session.tokens == start
        assert all(player.chips >= 0 for player in session.players)
        assert session.bank >= 0
    assert session.round_number <= 10
    standings = session.ranking()
    assert [s.chips for s in standings] == sorted((p.chips for p in session.players), reverse=True)
    assert standings[0].rank == 1


def test_many_random_rounds_across_every_preset_without_an_error() -> None:
    """The bench plays the million; a test plays a few thousand of every preset."""
    rng = random.Random(2026)
    for rules in PRESETS.values():
        table = Table(rules, seed=rng.randrange(2**32))
        for _ in range(1500):
            game = table.new_round([2] * rng.randint(1, 7))
            play_at_random(game, rng)
            assert game.is_over


def test_insure_is_offered_only_against_an_ace() -> None:
    rng = random.Random(1)
    table = Table(PRESETS["american-s17"], seed=1)
    for _ in range(300):
        game: Round = table.new_round([2])
        offered = Action.INSURE in game.legal_actions()
        assert offered == (game.dealer_up.rank.symbol == "A")
        play_at_random(game, rng)
