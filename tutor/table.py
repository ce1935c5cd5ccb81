"""Consecutive rounds at one table, and the family session of the rules booklet.

``Table`` keeps a shoe across rounds and shuffles when the rules say (after every round, or when
the cut card has come out), never while a round is in play. ``FamilySession`` is the session of
the family booklet (``shared/sources/004_85fc10a6bbbb7bbc.txt``): 20 chips a player, 200 for the
bank, a fixed bet of 2, ten rounds, then a ranking; a player who cannot bet sits out, and the bank
is topped up with tokens when it could not pay. The players may instead hold the bank in turn, as
in the game played at home of ``000_0c2d5cbf6d108733.txt`` (the ``home-game`` rules), by one of
its three conventions: one round each, until the banker loses a round, or until the cards run out
(``tutor.rules.BankRotation``, the rules' ``bank_rotation`` unless the session chooses another).

Chips are conserved to the chip: what the players lose the bank wins, and tokens added to the bank
are counted apart, so ``sum(players) + bank - tokens`` never changes.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from tutor.cards import Card, Shoe, format_cards, one_deck, parse_cards
from tutor.decision import Action, DecisionPoint
from tutor.game import Money, Phase, Round, money
from tutor.rules import PRESETS, TableRules

# Re-exported: the bank conventions were defined here before the rules named them.
from tutor.rules import BankRotation as BankRotation


def new_shoe(
    rules: TableRules,
    *,
    seed: int | None = None,
    script: Sequence[Card] | str | None = None,
    strict: bool = False,
) -> Shoe:
    """A shoe as the rules describe it: decks, cut card or shuffle every round, spare deck."""
    return Shoe(
        rules.decks,
        seed=seed,
        script=script,
        strict=strict,
        penetration=None if rules.shuffles_every_round else rules.penetration,
        spare_deck=rules.spare_deck,
    )


class Table:
    """A shoe kept across rounds, and the shuffles the rules call for between them."""

    def __init__(self, rules: TableRules, *, seed: int | None = None, shoe: Shoe | None = None):
        self.rules = rules
        self.shoe = shoe if shoe is not None else new_shoe(rules, seed=seed)
        self.round: Round | None = None
        self.rounds_played = 0

    def new_round(
        self, bets: Sequence[Money], *, stacks: Sequence[Money | None] | None = None
    ) -> Round:
        """Close the previous round (discards, shuffle if due) and deal a new one."""
        if self.round is not None and not self.round.is_over:
            raise RuntimeError("the current round is not settled yet")
        self.close_round()
        self.round = Round(self.rules, self.shoe, bets, stacks=stacks)
        return self.round

    def close_round(self) -> None:
        if self.round is None:
            return
        shuffle = self.rules.shuffles_every_round
        self.shoe.end_round(shuffle=shuffle or self.shoe.needs_shuffle())
        self.rounds_played += 1
        self.round = None


@dataclass
class Player:
    name: str
    chips: Money
    sat_out: int = 0


@dataclass(frozen=True)
class Standing:
    rank: int
    name: str
    chips: Money


@dataclass
class FamilySession:
    """A family session: players against a bank, a fixed bet, a set number of rounds.

    Drive it with ``start_round()``; play the returned round's decisions (the app asks the
    learners, the tests play randomly); then ``finish_round()`` pays the chips.
    """

    names: Sequence[str]
    rules: TableRules = field(default_factory=lambda: PRESETS["family"])
    rounds: int = 10
    chips: int = 20
    bank_chips: int = 200
    bet: int = 2
    #: How the bank passes; None takes the rules' ``bank_rotation`` (the convention a table's
    #: rules agreed on), a value overrides it for this session.
    rotation: BankRotation | None = None
    seed: int | None = None
    players: list[Player] = field(init=False)
    bank: Money = field(init=False)
    tokens: Money = field(init=False, default=0)
    banker: int | None = field(init=False, default=None)
    table: Table = field(init=False)
    round_number: int = field(init=False, default=0)
    seated: list[int] = field(init=False, default_factory=list)
    _shuffles_at_deal: int = field(init=False, default=0, repr=False)

    #: The booklet counts 2 to 7 people in all, the bank included.
    MIN_PEOPLE = 2
    MAX_PEOPLE = 7

    @classmethod
    def player_bounds(cls, rotation: BankRotation = BankRotation.FIXED) -> tuple[int, int]:
        """How many named players a session takes: the bank is one more person unless the
        players hold it in turn.

        >>> FamilySession.player_bounds(BankRotation.FIXED)
        (1, 6)
        >>> FamilySession.player_bounds(BankRotation.EACH_ROUND)
        (2, 7)
        """
        bank = 0 if rotation.is_rotating else 1
        return cls.MIN_PEOPLE - bank, cls.MAX_PEOPLE - bank

    def __post_init__(self) -> None:
        if self.rotation is None:
            self.rotation = self.rules.bank_rotation
        rotating = self.convention.is_rotating
        people = len(self.names) + (0 if rotating else 1)
        if not self.MIN_PEOPLE <= people <= self.MAX_PEOPLE:
            raise ValueError(
                f"a family table seats 2 to 7 people in all, bank included, not {people}"
            )
        if len(set(self.names)) != len(self.names):
            raise ValueError("every player needs a different name")
        if self.bet <= 0 or self.chips < self.bet:
            raise ValueError("each player must be able to bet at least once")
        self.players = [Player(name, self.chips) for name in self.names]
        self.bank = 0 if rotating else self.bank_chips
        self.banker = 0 if rotating else None
        self.table = Table(self.rules, seed=self.seed)

    # -- the session --
    @property
    def convention(self) -> BankRotation:
        """How the bank passes in this session (the chosen rotation, else the rules')."""
        return self.rotation if self.rotation is not None else self.rules.bank_rotation

    @property
    def is_over(self) -> bool:
        return self.round_number >= self.rounds or not self._bettors()

    def _bettors(self) -> list[int]:
        return [
            i
            for i, player in enumerate(self.players)
            if i != self.banker and player.chips >= self.bet
        ]

    def _add_to_bank(self, amount: Money) -> None:
        if self.banker is None:
            self.bank = money(self.bank + amount)
        else:
            banker = self.players[self.banker]
            banker.chips = money(banker.chips + amount)

    def worst_case_payout(self, seats: int) -> Money:
        """The most the bank could owe in one round, so it can be topped up before the deal."""
        rules = self.rules
        per_hand = max(Fraction(2), rules.blackjack_pays)  # a doubled win, or a natural
        bonus = rules.ace_of_spades_black_jack_pays or 0
        per_seat = max(per_hand * rules.max_hands, Fraction(bonus)) + 2 * rules.insurance_max
        return money(per_seat * self.bet * seats)

    def start_round(self) -> Round:
        if self.is_over:
            raise RuntimeError("the session is over")
        if self.table.round is not None:
            raise RuntimeError("finish the current round first")
        self.seated = self._bettors()
        for i, player in enumerate(self.players):
            if i not in self.seated and i != self.banker:
                player.sat_out += 1
        if self.banker is None:
            # The booklet: top the bank up with tokens before a deal it could not pay.
            shortfall = self.worst_case_payout(len(self.seated)) - self.bank
            if shortfall > 0:
                self.tokens = money(self.tokens + shortfall)
                self.bank = money(self.bank + shortfall)
        stacks = [money(self.players[i].chips - self.bet) for i in self.seated]
        self._shuffles_at_deal = self.table.shoe.shuffles
        return self.table.new_round([self.bet] * len(self.seated), stacks=stacks)

    def finish_round(self) -> None:
        game = self.table.round
        if game is None or not game.is_over:
            raise RuntimeError("the round is not settled yet")
        bank_net: Money = 0
        for result in game.results:
            player = self.players[self.seated[result.seat]]
            player.chips = money(player.chips + result.net)
            bank_net = money(bank_net - result.net)
        self._add_to_bank(bank_net)
        if self.banker is not None and self.players[self.banker].chips < 0:
            # A player holding the bank pays what he has; tokens cover the rest.
            banker = self.players[self.banker]
            self.tokens = money(self.tokens - banker.chips)
            banker.chips = 0
        cards_ran_out = self._close_table()
        self.round_number += 1
        self._rotate_bank(bank_net, cards_ran_out=cards_ran_out)

    def _close_table(self) -> bool:
        """Close the round at the table; return whether the cards ran out.

        Only the "until the cards run out" bank changes the table's shuffling: its cards are
        burnt round after round (source 000: "Les cartes utilisées sont « brûlées »") until a
        round had to draw from an empty pack or the next deal could not be made in full.
        """
        if self.convention is not BankRotation.UNTIL_CARDS_RUN_OUT:
            self.table.close_round()
            return False
        shoe = self.table.shoe
        refilled = shoe.shuffles > self._shuffles_at_deal
        shoe.end_round(shuffle=False)
        ran_out = refilled or len(shoe) < self.cards_for_a_deal()
        if ran_out:
            shoe.shuffle()
        self.table.round = None
        self.table.rounds_played += 1
        return ran_out

    def cards_for_a_deal(self) -> int:
        """The cards the next deal needs at the least: two for every player, banker included
        (the banker deals himself two as well)."""
        return 2 * len(self.players)

    def _rotate_bank(self, bank_net: Money, *, cards_ran_out: bool = False) -> None:
        if self.banker is None:
            return
        passes = {
            BankRotation.EACH_ROUND: True,
            BankRotation.UNTIL_LOSS: bank_net < 0,
            BankRotation.UNTIL_CARDS_RUN_OUT: cards_ran_out,
        }[self.convention]
        if passes:
            self.banker = (self.banker + 1) % len(self.players)

    def ranking(self) -> list[Standing]:
        """Players by chips, most first; equal chips share a rank."""
        order = sorted(self.players, key=lambda p: p.chips, reverse=True)
        standings: list[Standing] = []
        for position, player in enumerate(order, start=1):
            if standings and standings[-1].chips == player.chips:
                rank = standings[-1].rank
            else:
                rank = position
            standings.append(Standing(rank, player.name, player.chips))
        return standings

    @property
    def total_chips(self) -> Money:
        """Every chip on the table, tokens included; less ``tokens`` it never changes."""
        return money(sum((p.chips for p in self.players), self.bank))


def deal_order(
    rules: TableRules,
    hands: Sequence[Sequence[Card]],
    dealer: Sequence[Card],
    then: Sequence[Card] = (),
) -> list[Card]:
    """The shoe order that deals ``hands`` to the seats and ``dealer`` to the dealer.

    The sources' order: a card to each seat, the dealer's up-card, a second card to each seat,
    then the hole card (American deal only); ``then`` follows: the players' draws in turn, then
    the dealer's. With the European deal ``dealer`` is the up-card alone.
    """
    if any(len(hand) != 2 for hand in hands):
        raise ValueError("each seat is dealt exactly two cards")
    wanted = 2 if rules.dealer_peeks else 1
    if len(dealer) != wanted:
        deal = "American deal: up-card and hole card" if wanted == 2 else "European deal: up-card"
        raise ValueError(f"the dealer is dealt {wanted} card(s) here ({deal}), not {len(dealer)}")
    order = [hand[0] for hand in hands] + [dealer[0]] + [hand[1] for hand in hands]
    if rules.dealer_peeks:
        order.append(dealer[1])
    return order + list(then)


def scripted_round(
    rules: TableRules,
    hands: Sequence[Sequence[Card] | str],
    dealer: Sequence[Card] | str,
    then: Sequence[Card] | str = (),
    *,
    bets: Sequence[Money] | None = None,
    strict: bool = True,
    seed: int | None = 0,
) -> Round:
    """A round dealt from a script, as a lesson or a test writes it.

    >>> from tutor.rules import PRESETS
    >>> game = scripted_round(PRESETS["family"], ["A♠ 6♥"], "9♣ 7♦", "9♦ 5♣ K♠")
    >>> _ = game.hit(); game.decision_point().value.total
    16
    >>> _ = game.hit(); game.phase.value, game.results[0].hands[0].outcome.value
    ('settled', 'win')
    """
    seat_cards = [parse_cards(h) if isinstance(h, str) else tuple(h) for h in hands]
    dealer_cards = parse_cards(dealer) if isinstance(dealer, str) else tuple(dealer)
    then_cards = parse_cards(then) if isinstance(then, str) else tuple(then)
    script = deal_order(rules, seat_cards, dealer_cards, then_cards)
    shoe = new_shoe(rules, seed=seed, script=script, strict=strict)
    return Round(rules, shoe, bets if bets is not None else [2] * len(seat_cards))


_ACTIONS = tuple(Action)  # iterating an Enum class runs Python code at every call


def play_at_random(game: Round, rng: random.Random) -> None:
    """Play a round to its settlement with random legal actions (for tests and benchmarks)."""
    while (turn := game.to_act()) is not None:
        legal = game.legal_actions()
        action = rng.choice([action for action in _ACTIONS if action in legal])
        if action is Action.INSURE:
            seat = game.seats[turn.seat]
            most: Money = money(seat.bet * game.rules.insurance_max)
            if seat.stack is not None:
                most = min(most, seat.stack)
            game.insure(rng.choice([most, money(Fraction(most) / 2)]))
        else:
            game.act(action)


def decision_for(
    rules: TableRules,
    cards: Sequence[Card] | str,
    up: Card | str,
    *,
    insurance: bool = False,
) -> DecisionPoint:
    """The decision point of a hand shown on its own (a quiz question, a lesson's question).

    The hand is dealt by a real round, its first two cards at the deal and any others as hits,
    so the legal actions are the engine's; with the American deal a hole card that gives the
    dealer no natural is slipped in. ``insurance`` asks for the insurance decision rather than
    the play of the hand.

    >>> from tutor.rules import PRESETS
    >>> point = decision_for(PRESETS["family"], "8♠ 8♥", "10♣")
    >>> sorted(action.value for action in point.legal)
    ['double', 'hit', 'split', 'stand']
    >>> sorted(action.value for action in decision_for(PRESETS["family"], "5♠ 4♥ 3♦", "10♣").legal)
    ['hit', 'stand']
    """
    hand = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
    dealer_up = Card.parse(up) if isinstance(up, str) else up
    if len(hand) < 2:
        raise ValueError("a decision needs the player's two cards")
    no_decision = ValueError(
        f"there is no {'insurance ' if insurance else ''}decision to make on "
        f"{format_cards(hand)} against {dealer_up}"
    )
    if insurance and len(hand) > 2:
        raise no_decision
    dealer = [dealer_up]
    if rules.dealer_peeks:
        dealer.append(_harmless_hole_card(rules, [*hand, dealer_up]))
    game = scripted_round(rules, [hand[:2]], dealer, hand[2:], strict=False, seed=0)
    if game.phase is Phase.INSURANCE and not insurance:
        game.decline_insurance()
    for _ in hand[2:]:
        if game.to_act() is None or not game.can_hit():
            raise no_decision
        game.hit()
    if game.is_over or (insurance and game.phase is not Phase.INSURANCE):
        raise no_decision
    return game.decision_point()


def _harmless_hole_card(rules: TableRules, used: Sequence[Card]) -> Card:
    """A hole card (4 to 7) that gives the dealer no natural and the shoe still holds."""
    counts = Counter(used)
    for card in one_deck():
        if 4 <= card.points <= 7 and counts[card] < rules.decks:
            return card
    raise AssertionError("one deck holds sixteen cards from 4 to 7")  # pragma: no cover
