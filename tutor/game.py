"""One round of blackjack, played exactly as a real table plays it, and told as events.

``Round`` owns a round from the deal to the settlement for 1 to 7 seats. It deals in the sources'
order (a card to each seat, one to the dealer face up, a second card to each seat, then, with the
American deal, the dealer's hole card), offers insurance and even money on a dealer Ace, lets the
dealer check for a natural (or, with the European deal, leaves the dealer's second card until the
players have played), walks every seat's hands in turn, plays the dealer by the table's rule and
settles every bet exactly.

Each action is a triple, as in pokerkit: ``verify_double()`` raises ``IllegalActionError`` with
the reason, ``can_double()`` says whether it would pass, and ``double()`` verifies, plays and
returns the events it produced. Every step is recorded as an ``Event`` (a kind and plain data,
never text): the interface turns events into sentences in the learner's language.

>>> from tutor.cards import Shoe
>>> from tutor.rules import PRESETS
>>> shoe = Shoe(1, script="10♠ 9♥ 7♦ K♣")  # seat card, dealer up, seat card, hole card
>>> game = Round(PRESETS["family"], shoe, bets=[2])
>>> game.legal_actions() == {Action.HIT, Action.STAND, Action.DOUBLE}
True
>>> _ = game.stand()
>>> game.phase, game.dealer_value.total, [str(r.outcome.value) for r in game.results[0].hands]
(<Phase.SETTLED: 'settled'>, 19, ['lose'])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from types import MappingProxyType
from typing import Any, NamedTuple

from tutor.cards import Card, HandValue, Rank, Shoe, Suit, hand_value, is_pair
from tutor.decision import HAND_ACTIONS, INSURANCE_ACTIONS, Action, DecisionPoint
from tutor.legality import Refusal, double_refusal, hit_refusal, split_refusal, surrender_refusal
from tutor.rules import TableRules

#: Chips are integers; a 3:2 natural on an odd bet or half-bet insurance needs exact fractions.
Money = int | Fraction

MAX_SEATS = 7


def money(value: Money) -> Money:
    """Normalise a Fraction with denominator 1 to an int, so chips print as chips."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


def scale(amount: Money, ratio: Fraction) -> Money:
    """``amount * ratio`` exactly, as an int whenever it is whole (the common case, done fast).

    >>> scale(2, Fraction(3, 2)), scale(5, Fraction(3, 2))
    (3, Fraction(15, 2))
    """
    if isinstance(amount, int):
        numerator = amount * ratio.numerator
        if numerator % ratio.denominator == 0:
            return numerator // ratio.denominator
        return Fraction(numerator, ratio.denominator)
    return money(amount * ratio)


_HALF = Fraction(1, 2)


class IllegalActionError(Exception):
    """An action the table forbids now. ``code`` and ``params`` let the interface translate it."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


#: The sentence for each refusal code (English, for errors and logs; the interface translates
#: the code and its parameters itself).
REFUSALS: dict[str, str] = {
    "round-over": "the round is over: nobody is to act",
    "no-insurance-now": "insurance is only offered on a dealer Ace, before anyone plays",
    "insurance-first": "every player answers the insurance offer before play starts",
    "split-aces-one-card": "split Aces receive one card each and no more",
    "double-two-cards": "you can only double on your first two cards",
    "no-double-after-split": "you cannot double after a split at this table ({table})",
    "double-total": "at this table you may only double on {allowed}, and this hand makes {total}",
    "insured-no-double": "after taking insurance you may no longer double",
    "insured-no-split": "after taking insurance you may no longer split",
    "split-pair": "you can only split two cards of the same {by}",
    "no-split": "this table does not allow splitting",
    "max-hands": "this table allows at most {max_hands} hands per seat",
    "no-resplit-aces": "split Aces cannot be split again",
    "no-surrender": "this table does not offer surrender",
    "surrender-first": "you can only surrender your first two cards, before any other decision",
    "no-surrender-ace": "this table's house rule refuses surrender against a dealer Ace ({table})",
    "even-money-natural": "even money is only offered on a natural",
    "no-even-money": "this table does not offer even money",
    "funds": "you need {needed} more chips to {action}, and have {stack}",
    "insurance-amount": "insurance is more than 0 and at most {most} chips",
}


class Phase(Enum):
    # Members are singletons: identity hashing in C, not Enum's hash of the name in Python.
    __hash__ = object.__hash__

    INSURANCE = "insurance"
    PLAYERS = "players"
    SETTLED = "settled"


class EventKind(Enum):
    # Members are singletons: identity hashing in C, not Enum's hash of the name in Python.
    __hash__ = object.__hash__

    ROUND_STARTED = "round-started"
    #: data: card, face_down; seat/hand or to dealer (seat None). A card dealt face down (the
    #: dealer's hole card, a double dealt face down) carries ``card`` None: the event tells what
    #: the table sees, and the card is told when it is turned (``HOLE_CARD_REVEALED``).
    CARD_DEALT = "card-dealt"
    INSURANCE_OFFERED = "insurance-offered"
    INSURANCE_TAKEN = "insurance-taken"  # data: amount
    INSURANCE_DECLINED = "insurance-declined"
    EVEN_MONEY_TAKEN = "even-money-taken"  # data: paid
    DEALER_CHECKED = "dealer-checked"  # data: natural
    HIT = "hit"
    STOOD = "stood"  # data: total, automatic
    DOUBLED = "doubled"  # data: bet (the new total bet)
    SPLIT = "split"  # data: new_hand
    SURRENDERED = "surrendered"  # data: returned
    BUSTED = "busted"  # data: total
    #: data: card; seat None for the dealer's hole card, else the seat and hand of a double
    #: dealt face down (turned at the settlement, once the dealer has played).
    HOLE_CARD_REVEALED = "hole-card-revealed"
    DEALER_HIT = "dealer-hit"  # data: card, total
    DEALER_STOOD = "dealer-stood"  # data: total, soft
    DEALER_BUSTED = "dealer-busted"  # data: total
    INSURANCE_SETTLED = "insurance-settled"  # data: amount, won, net
    HAND_SETTLED = "hand-settled"  # data: outcome, bet, net
    ROUND_SETTLED = "round-settled"  # data: nets (per seat), bank_net


class Event(NamedTuple):
    """What happened, as data: ``seat`` and ``hand`` are None for the dealer or the table.

    A named tuple rather than a dataclass: a round logs a dozen of them, and this is the cheapest
    immutable record Python builds.
    """

    kind: EventKind
    seat: int | None = None
    hand: int | None = None
    data: Mapping[str, Any] = MappingProxyType({})


_new_event = tuple.__new__


class Outcome(Enum):
    # Members are singletons: identity hashing in C, not Enum's hash of the name in Python.
    __hash__ = object.__hash__

    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    NATURAL = "natural"  # paid at the table's natural payout
    BONUS = "bonus"  # Ace of spades with a black Jack, where the table pays the bonus
    BUST = "bust"  # lost at once, whatever the dealer does later
    SURRENDER = "surrender"
    EVEN_MONEY = "even-money"


@dataclass
class PlayerHand:
    """A hand of a seat while it is played (mutable; the round owns it)."""

    cards: list[Card]
    bet: Money
    from_split: bool = False
    split_aces: bool = False
    doubled: bool = False
    surrendered: bool = False
    stood: bool = False
    even_money: bool = False
    #: The card dealt on a face-down double, hidden from the table until the dealer has played.
    hidden_card: Card | None = None

    _value: HandValue | None = field(default=None, repr=False, compare=False)

    @property
    def value(self) -> HandValue:
        # Cached: the round asks for it at every turn, and cards only change through add/take.
        if self._value is None:
            self._value = hand_value(self.cards)
        return self._value

    def add(self, card: Card) -> None:
        self.cards.append(card)
        self._value = None

    def take_second(self) -> Card:
        """Remove the second card (a split moves it to a new hand)."""
        self._value = None
        return self.cards.pop()

    @property
    def visible_cards(self) -> list[Card]:
        """The cards the table can see: all but a double's card dealt face down, which is the
        hand's last (hidden by position: with several decks the hand may hold another copy)."""
        return self.cards if self.hidden_card is None else self.cards[:-1]

    @property
    def is_natural(self) -> bool:
        return len(self.cards) == 2 and not self.from_split and self.value.total == 21

    @property
    def is_bust(self) -> bool:
        return self.value.total > 21

    @property
    def is_finished(self) -> bool:
        return (
            self.stood
            or self.doubled
            or self.surrendered
            or self.even_money
            or self.is_natural
            or self.value.total >= 21
        )


@dataclass
class Seat:
    index: int
    bet: Money
    #: Chips the player still has beside the bet, when the table limits doubling, splitting and
    #: insurance to what the player owns; None means unlimited.
    stack: Money | None
    hands: list[PlayerHand] = field(default_factory=list)
    insurance: Money = 0
    #: The insurance taken as a share of the bet, which the bets added by a double or a split
    #: carry too at tables that insure them (not the running total, which those extras grow).
    insurance_rate: Fraction = Fraction(0)
    insurance_decided: bool = False

    @property
    def insured(self) -> bool:
        return self.insurance > 0


class HandResult(NamedTuple):
    outcome: Outcome
    bet: Money
    #: Chips won (positive) or lost (negative), the bet excluded: a 2-chip natural nets +3.
    net: Money


class SeatResult(NamedTuple):
    seat: int
    hands: tuple[HandResult, ...]
    insurance: Money
    insurance_net: Money

    @property
    def net(self) -> Money:
        return money(sum((hand.net for hand in self.hands), self.insurance_net))


class Turn(NamedTuple):
    """Who is to act: a seat, one of its hands (None for the insurance decision)."""

    seat: int
    hand: int | None


class Round:
    """A round of blackjack for 1 to 7 seats; see the module docstring."""

    def __init__(
        self,
        rules: TableRules,
        shoe: Shoe,
        bets: Sequence[Money],
        *,
        stacks: Sequence[Money | None] | None = None,
    ) -> None:
        if not 1 <= len(bets) <= MAX_SEATS:
            raise ValueError(f"a table seats 1 to {MAX_SEATS} players, not {len(bets)}")
        for index, bet in enumerate(bets):
            if bet <= 0:
                raise ValueError(
                    f"seat {index + 1}: a bet is a positive number of chips, not {bet}"
                )
        if stacks is not None and len(stacks) != len(bets):
            raise ValueError("give one stack per seat")
        if shoe.in_play:
            raise ValueError("the shoe still holds the cards of an unfinished round")
        self.rules = rules
        self.shoe = shoe
        self.events: list[Event] = []
        self.seats = [
            Seat(i, bet, None if stacks is None else stacks[i]) for i, bet in enumerate(bets)
        ]
        self.dealer: list[Card] = []
        self._dealer_value = HandValue(0, False)
        self.hole_revealed = False
        self.results: list[SeatResult] = []
        self.phase = Phase.PLAYERS
        self._turn: Turn | None = None
        #: The legal actions of the current turn, once asked (cleared by every action).
        self._legal: frozenset[Action] | None = None
        self._log(EventKind.ROUND_STARTED, data={"bets": tuple(bets)})
        self._deal()

    # -- the deal --
    def _deal(self) -> None:
        for seat in self.seats:
            seat.hands.append(PlayerHand([], seat.bet))
        for seat in self.seats:
            self._give(seat.index, 0)
        self._dealer_draw(face_down=False, kind=EventKind.CARD_DEALT)
        for seat in self.seats:
            self._give(seat.index, 0)
        if self.rules.dealer_peeks:
            self._dealer_draw(face_down=True, kind=EventKind.CARD_DEALT)
        if self.rules.insurance and self.dealer[0].rank is Rank.ACE:
            self.phase = Phase.INSURANCE
            self._log(EventKind.INSURANCE_OFFERED)
            self._turn = Turn(0, None)
        else:
            self._after_insurance()

    def _give(self, seat: int, hand: int, *, face_down: bool = False) -> Card:
        card = self.shoe.draw()
        self.seats[seat].hands[hand].add(card)
        # A face-down card is not in its event: events tell what the table sees.
        shown = None if face_down else card
        self._log(EventKind.CARD_DEALT, seat, hand, {"card": shown, "face_down": face_down})
        return card

    def _dealer_draw(self, *, face_down: bool, kind: EventKind) -> Card:
        card = self.shoe.draw()
        self.dealer.append(card)
        self._dealer_value = hand_value(self.dealer)
        if kind is EventKind.CARD_DEALT:
            self._log(kind, data={"card": None if face_down else card, "face_down": face_down})
        else:
            self._log(kind, data={"card": card, "total": self._dealer_value.total})
        return card

    def _log(
        self,
        kind: EventKind,
        seat: int | None = None,
        hand: int | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> Event:
        # tuple.__new__ directly: the named tuple's own __new__ is one more Python call, and a
        # round logs a dozen events.
        event = _new_event(Event, (kind, seat, hand, data if data is not None else {}))
        self.events.append(event)
        return event

    # -- queries --
    @property
    def dealer_up(self) -> Card:
        return self.dealer[0]

    @property
    def dealer_value(self) -> HandValue:
        return self._dealer_value

    @property
    def visible_dealer_cards(self) -> tuple[Card, ...]:
        """The dealer's cards a player may see: the up-card only until the hole card is shown."""
        return tuple(self.dealer) if self.hole_revealed else tuple(self.dealer[:1])

    @property
    def dealer_has_natural(self) -> bool:
        return len(self.dealer) == 2 and self._dealer_value.total == 21

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.SETTLED

    def to_act(self) -> Turn | None:
        """Whose turn it is, or None once the round is settled."""
        return self._turn

    def legal_actions(self) -> frozenset[Action]:
        """Exactly the actions that would succeed now (the property tests check both ways)."""
        if self._legal is not None:
            return self._legal
        if self._turn is None:
            return frozenset()
        candidates = INSURANCE_ACTIONS if self.phase is Phase.INSURANCE else HAND_ACTIONS
        refusal = self._refusal
        # Kept until the next action changes the round: a page asks for every button's state,
        # then the action verifies itself against the same answer.
        self._legal = frozenset([action for action in candidates if refusal(action) is None])
        return self._legal

    def decision_point(self) -> DecisionPoint:
        """The current decision as the strategy and the quiz see it: ``seen`` holds the other
        seats' cards the table can see, never a card doubled face down (nobody has seen it, so
        the advice must not take it out of the shoe)."""
        turn = self._require_turn()
        seat = self.seats[turn.seat]
        hand = seat.hands[turn.hand if turn.hand is not None else 0]
        seen = tuple(
            card
            for other in self.seats
            if other.index != seat.index
            for other_hand in other.hands
            for card in other_hand.visible_cards
        )
        return DecisionPoint(
            cards=tuple(hand.cards),
            dealer_up=self.dealer_up,
            rules=self.rules,
            legal=self.legal_actions(),
            hands_in_seat=len(seat.hands),
            from_split=hand.from_split,
            insured=seat.insured,
            seen=seen,
        )

    def _require_turn(self) -> Turn:
        if self._turn is None:
            raise IllegalActionError("round-over", "the round is over: nobody is to act")
        return self._turn

    def _current(self) -> tuple[Seat, PlayerHand]:
        turn = self._require_turn()
        seat = self.seats[turn.seat]
        return seat, seat.hands[turn.hand or 0]

    # -- verify / can / do -------------------------------------------------------------------------
    def verify(self, action: Action) -> None:
        """Raise ``IllegalActionError`` saying why ``action`` is not allowed now."""
        refusal = self.refusal(action)
        if refusal is not None:
            code, params = refusal
            raise IllegalActionError(code, REFUSALS[code].format(**params), **params)

    def refusal(self, action: Action) -> Refusal:
        """Why ``action`` is refused now (a code and its parameters), or None when it is legal:
        ``verify``'s answer without the exception, for an interface that explains its buttons."""
        if self._legal is not None and action in self._legal:
            return None
        return self._refusal(action)

    def _refusal(self, action: Action) -> Refusal:
        """Why ``action`` is refused now, as a code and its parameters, or None if it is legal.

        Codes rather than exceptions keep ``legal_actions`` cheap (it asks about every action at
        every turn); ``verify`` turns the code into a sentence with ``REFUSALS``. Each hand
        action has its own rule below, found through ``_HAND_RULES``.
        """
        turn = self._turn
        if turn is None:
            return "round-over", {}
        if action in INSURANCE_ACTIONS:
            if self.phase is not Phase.INSURANCE:
                return "no-insurance-now", {}
            return self._insurance_refusal(action, self.seats[turn.seat])
        if self.phase is Phase.INSURANCE:
            return "insurance-first", {}
        seat = self.seats[turn.seat]
        return _HAND_RULES[action](self, seat, seat.hands[turn.hand or 0])

    def _stand_refusal(self, seat: Seat, hand: PlayerHand) -> Refusal:
        return None

    def _hit_refusal(self, seat: Seat, hand: PlayerHand) -> Refusal:
        return hit_refusal(self.rules, split_aces=hand.split_aces)

    def _double_refusal(self, seat: Seat, hand: PlayerHand) -> Refusal:
        value = hand.value
        refusal = double_refusal(
            self.rules,
            cards=len(hand.cards),
            total=value.total,
            soft=value.soft,
            from_split=hand.from_split,
            split_aces=hand.split_aces,
            insured=seat.insured,
        )
        return refusal or self._funds_refusal(seat, hand.bet, "double")

    def _split_refusal(self, seat: Seat, hand: PlayerHand) -> Refusal:
        rules = self.rules
        refusal = split_refusal(
            rules,
            pair=len(hand.cards) == 2 and is_pair(hand.cards, by_value=rules.split_by_value),
            hands_in_seat=len(seat.hands),
            split_aces=hand.split_aces,
            insured=seat.insured,
        )
        return refusal or self._funds_refusal(seat, hand.bet, "split")

    def _surrender_refusal(self, seat: Seat, hand: PlayerHand) -> Refusal:
        return surrender_refusal(
            self.rules,
            cards=len(hand.cards),
            from_split=hand.from_split,
            hands_in_seat=len(seat.hands),
            dealer_up=self.dealer_up.points,
        )

    def can_resplit_aces(self, seat: Seat, hand: PlayerHand) -> bool:
        """A split Ace that drew another Ace may be split again where the table allows it."""
        return (
            self.rules.resplit_aces
            and len(seat.hands) < self.rules.max_hands
            and len(hand.cards) == 2
            and all(card.rank is Rank.ACE for card in hand.cards)
        )

    def _insurance_refusal(self, action: Action, seat: Seat) -> tuple[str, dict[str, Any]] | None:
        if action is Action.EVEN_MONEY:
            if not seat.hands[0].is_natural:
                return "even-money-natural", {}
            if not self.rules.even_money:
                return "no-even-money", {}
        if action is Action.INSURE and seat.stack is not None and seat.stack <= 0:
            return "funds", {"needed": 1, "stack": seat.stack, "action": "insure"}
        return None

    def _funds_refusal(
        self, seat: Seat, added_bet: Money, what: str
    ) -> tuple[str, dict[str, Any]] | None:
        if seat.stack is None:
            return None
        needed = money(added_bet + self._extra_insurance(seat, added_bet))
        if needed > seat.stack:
            return "funds", {"needed": needed, "stack": seat.stack, "action": what}
        return None

    def _max_insurance(self, seat: Seat) -> Money:
        return scale(seat.bet, self.rules.insurance_max)

    def _extra_insurance(self, seat: Seat, added_bet: Money) -> Money:
        """The insurance a doubled or split bet must also carry, at tables that insure it."""
        if seat.insured and self.rules.insure_additional_bets and not self.hole_revealed:
            return scale(added_bet, seat.insurance_rate)
        return 0

    def can(self, action: Action) -> bool:
        return self._refusal(action) is None

    def act(self, action: Action, *, amount: Money | None = None) -> list[Event]:
        """Play ``action`` for whoever is to act; returns the events it produced."""
        self.verify(action)
        start = len(self.events)
        self._legal = None
        if action is Action.INSURE:
            self._do_insure(amount)
        else:
            _ACTION_HANDLERS[action](self)
        return self.events[start:]

    # Named triples, as the interface and the tests read best.
    def verify_hit(self) -> None:
        self.verify(Action.HIT)

    def can_hit(self) -> bool:
        return self.can(Action.HIT)

    def hit(self) -> list[Event]:
        return self.act(Action.HIT)

    def verify_stand(self) -> None:
        self.verify(Action.STAND)

    def can_stand(self) -> bool:
        return self.can(Action.STAND)

    def stand(self) -> list[Event]:
        return self.act(Action.STAND)

    def verify_double(self) -> None:
        self.verify(Action.DOUBLE)

    def can_double(self) -> bool:
        return self.can(Action.DOUBLE)

    def double(self) -> list[Event]:
        return self.act(Action.DOUBLE)

    def verify_split(self) -> None:
        self.verify(Action.SPLIT)

    def can_split(self) -> bool:
        return self.can(Action.SPLIT)

    def split(self) -> list[Event]:
        return self.act(Action.SPLIT)

    def verify_surrender(self) -> None:
        self.verify(Action.SURRENDER)

    def can_surrender(self) -> bool:
        return self.can(Action.SURRENDER)

    def surrender(self) -> list[Event]:
        return self.act(Action.SURRENDER)

    def insure(self, amount: Money | None = None) -> list[Event]:
        """Take insurance; ``amount`` defaults to the most the table allows (half the bet)."""
        return self.act(Action.INSURE, amount=amount)

    def decline_insurance(self) -> list[Event]:
        return self.act(Action.DECLINE_INSURANCE)

    def take_even_money(self) -> list[Event]:
        return self.act(Action.EVEN_MONEY)

    # -- insurance --
    def _do_insure(self, amount: Money | None) -> None:
        seat = self.seats[self._require_turn().seat]
        most = self._max_insurance(seat)
        if seat.stack is not None:
            most = min(most, seat.stack)
        amount = most if amount is None else money(Fraction(amount))
        if not 0 < amount <= most:
            raise IllegalActionError(
                "insurance-amount",
                f"insurance is more than 0 and at most {most} chips",
                most=most,
                amount=amount,
            )
        seat.insurance = amount
        seat.insurance_rate = Fraction(amount) / seat.bet
        if seat.stack is not None:
            seat.stack -= amount
        seat.insurance_decided = True
        self._log(EventKind.INSURANCE_TAKEN, seat.index, data={"amount": amount})
        self._next_insurance_turn()

    def _do_decline_insurance(self) -> None:
        seat = self.seats[self._require_turn().seat]
        seat.insurance_decided = True
        self._log(EventKind.INSURANCE_DECLINED, seat.index)
        self._next_insurance_turn()

    def _do_even_money(self) -> None:
        seat = self.seats[self._require_turn().seat]
        hand = seat.hands[0]
        hand.even_money = True
        seat.insurance_decided = True
        self._log(EventKind.EVEN_MONEY_TAKEN, seat.index, 0, {"paid": hand.bet})
        self._next_insurance_turn()

    def _next_insurance_turn(self) -> None:
        for seat in self.seats:
            if not seat.insurance_decided:
                self._turn = Turn(seat.index, None)
                return
        self.phase = Phase.PLAYERS
        self._after_insurance()

    def _after_insurance(self) -> None:
        """The dealer checks for a natural (American deal), then play starts."""
        up = self.dealer_up
        if self.rules.dealer_peeks and (up.rank is Rank.ACE or up.points == 10):
            natural = self.dealer_has_natural
            self._log(EventKind.DEALER_CHECKED, data={"natural": natural})
            if natural:
                self._finish_round()
                return
            self._settle_insurance_early()
        self._turn = Turn(0, 0)
        self._advance()

    def _settle_insurance_early(self) -> None:
        """With a hole card and no natural, insurance is lost as soon as the dealer has checked."""
        for seat in self.seats:
            if seat.insured:
                self._log(
                    EventKind.INSURANCE_SETTLED,
                    seat.index,
                    data={"amount": seat.insurance, "won": False, "net": -seat.insurance},
                )

    # -- hand actions --
    def _do_hit(self) -> None:
        seat, hand = self._current()
        turn = self._require_turn()
        card = self._give(seat.index, turn.hand or 0)
        self._log(EventKind.HIT, seat.index, turn.hand, {"card": card, "total": hand.value.total})
        self._after_card(seat, hand)

    def _do_stand(self) -> None:
        seat, hand = self._current()
        hand.stood = True
        value = hand.value
        self._log(
            EventKind.STOOD,
            seat.index,
            self._require_turn().hand,
            {"total": value.total, "soft": value.soft, "automatic": False},
        )
        self._advance()

    def _do_double(self) -> None:
        seat, hand = self._current()
        turn = self._require_turn()
        extra = self._extra_insurance(seat, hand.bet)
        self._take_from_stack(seat, hand.bet + extra)
        seat.insurance = money(seat.insurance + extra)
        hand.bet = money(hand.bet * 2)
        hand.doubled = True
        face_down = self.rules.double_face_down
        self._log(EventKind.DOUBLED, seat.index, turn.hand, {"bet": hand.bet, "insured": extra})
        card = self._give(seat.index, turn.hand or 0, face_down=face_down)
        if face_down:
            hand.hidden_card = card
        elif hand.is_bust:
            self._log(EventKind.BUSTED, seat.index, turn.hand, {"total": hand.value.total})
        self._advance()

    def _do_split(self) -> None:
        seat, hand = self._current()
        turn = self._require_turn()
        index = turn.hand or 0
        extra = self._extra_insurance(seat, hand.bet)
        self._take_from_stack(seat, hand.bet + extra)
        seat.insurance = money(seat.insurance + extra)
        aces = hand.cards[0].rank is Rank.ACE
        moved = hand.take_second()
        new = PlayerHand([moved], hand.bet, from_split=True, split_aces=aces)
        hand.from_split = True
        hand.split_aces = aces
        seat.hands.insert(index + 1, new)
        self._log(EventKind.SPLIT, seat.index, index, {"new_hand": index + 1, "insured": extra})
        self._give(seat.index, index)
        if aces and self.rules.split_aces_one_card:
            # Both Aces get their one card now and are finished.
            self._give(seat.index, index + 1)
        self._advance()

    def _do_surrender(self) -> None:
        seat, hand = self._current()
        hand.surrendered = True
        self._log(
            EventKind.SURRENDERED,
            seat.index,
            self._require_turn().hand,
            {"returned": scale(hand.bet, _HALF)},
        )
        self._advance()

    def _take_from_stack(self, seat: Seat, amount: Money) -> None:
        if seat.stack is not None:
            seat.stack = money(seat.stack - amount)

    def _after_card(self, seat: Seat, hand: PlayerHand) -> None:
        turn = self._require_turn()
        value = hand.value
        if value.total > 21:
            self._log(EventKind.BUSTED, seat.index, turn.hand, {"total": value.total})
        self._advance()

    def _advance(self) -> None:
        """Move the turn to the next hand that needs a decision, or to the dealer."""
        turn = self._turn
        assert turn is not None
        assert turn.hand is not None
        seat_index, hand_index = turn.seat, turn.hand
        while seat_index < len(self.seats):
            seat = self.seats[seat_index]
            while hand_index < len(seat.hands):
                hand = seat.hands[hand_index]
                if len(hand.cards) == 1:
                    # The second card of a split hand comes when the hand is played.
                    self._give(seat_index, hand_index)
                if (
                    hand.split_aces
                    and self.rules.split_aces_one_card
                    and not (not hand.stood and self.can_resplit_aces(seat, hand))
                ):
                    hand_index += 1
                    continue
                if not hand.is_finished:
                    self._turn = Turn(seat_index, hand_index)
                    return
                if (
                    hand.value.total == 21
                    and not hand.stood
                    and not hand.doubled
                    and not hand.is_natural
                    and not hand.even_money
                ):
                    hand.stood = True
                    self._log(
                        EventKind.STOOD,
                        seat_index,
                        hand_index,
                        {"total": 21, "soft": hand.value.soft, "automatic": True},
                    )
                hand_index += 1
            seat_index += 1
            hand_index = 0
        self._turn = None
        self._finish_round()

    # -- the dealer and the settlement --
    def _finish_round(self) -> None:
        self._turn = None
        if not self.rules.dealer_peeks and len(self.dealer) == 1:
            if self._anything_depends_on_dealer():
                self._dealer_draw(face_down=False, kind=EventKind.DEALER_HIT)
        else:
            self.hole_revealed = True
            self._log(EventKind.HOLE_CARD_REVEALED, data={"card": self.dealer[1]})
        self.hole_revealed = True
        if not self.dealer_has_natural and self._live_hands():
            self._play_dealer()
        self._settle()

    def _anything_depends_on_dealer(self) -> bool:
        """Whether the European dealer draws a second card: some bet still waits for it. A hand
        given up by immediate surrender is already settled; a late surrender still waits (a
        natural would take it all); a card doubled face down is unknown, so its hand waits too."""
        settled_by_surrender = not self.rules.surrender.loses_all_to_a_later_natural
        return any(
            seat.insured
            or any(
                h.hidden_card is not None
                or not (h.is_bust or h.even_money or (h.surrendered and settled_by_surrender))
                for h in seat.hands
            )
            for seat in self.seats
        )

    def _live_hands(self) -> bool:
        """Hands still waiting for the dealer's total: not bust, surrendered or a natural. A hand
        doubled face down counts as live even if its hidden card busted it: nobody at the table
        knows yet, so the dealer plays out as usual (the sources: the card is seen once the
        dealer has played)."""
        return any(
            hand.hidden_card is not None
            or not (hand.is_bust or hand.surrendered or hand.even_money or hand.is_natural)
            for seat in self.seats
            for hand in seat.hands
        )

    def _play_dealer(self) -> None:
        rules = self.rules
        while True:
            value = self.dealer_value
            if value.total > 21:
                self._log(EventKind.DEALER_BUSTED, data={"total": value.total})
                return
            if value.total > 17 or (
                value.total == 17 and not (value.soft and rules.dealer_hits_soft_17)
            ):
                self._log(EventKind.DEALER_STOOD, data={"total": value.total, "soft": value.soft})
                return
            self._dealer_draw(face_down=False, kind=EventKind.DEALER_HIT)

    def _settle(self) -> None:
        rules = self.rules
        dealer = self.dealer_value
        dealer_natural = self.dealer_has_natural
        results = []
        nets: list[Money] = []
        for seat in self.seats:
            hand_results = []
            seat_net: Money = 0
            for index, hand in enumerate(seat.hands):
                if hand.hidden_card is not None:
                    self._log(
                        EventKind.HOLE_CARD_REVEALED,
                        seat.index,
                        index,
                        {"card": hand.hidden_card},
                    )
                    hand.hidden_card = None
                result = self._settle_hand(hand, dealer, dealer_natural)
                hand_results.append(result)
                seat_net += result.net
                self._log(
                    EventKind.HAND_SETTLED,
                    seat.index,
                    index,
                    {"outcome": result.outcome, "bet": result.bet, "net": result.net},
                )
            insurance_net: Money = 0
            if seat.insured:
                insurance_net = money(seat.insurance * 2) if dealer_natural else -seat.insurance
                if not rules.dealer_peeks or dealer_natural:
                    # With a hole card and no natural it was settled when the dealer checked.
                    self._log(
                        EventKind.INSURANCE_SETTLED,
                        seat.index,
                        data={
                            "amount": seat.insurance,
                            "won": dealer_natural,
                            "net": insurance_net,
                        },
                    )
            results.append(
                SeatResult(seat.index, tuple(hand_results), seat.insurance, insurance_net)
            )
            nets.append(money(seat_net + insurance_net))
        self.results = results
        self.phase = Phase.SETTLED
        bank_net = money(-sum(nets, 0))
        self._log(EventKind.ROUND_SETTLED, data={"nets": tuple(nets), "bank_net": bank_net})

    def _settle_hand(self, hand: PlayerHand, dealer: HandValue, dealer_natural: bool) -> HandResult:
        rules = self.rules
        bet = hand.bet
        if hand.even_money:
            return HandResult(Outcome.EVEN_MONEY, bet, bet)
        if hand.surrendered:
            if dealer_natural and rules.surrender.loses_all_to_a_later_natural:
                # Late surrender, European deal: the dealer's natural came after the surrender and
                # takes it all. Immediate surrender was settled before that card (source 001).
                return HandResult(Outcome.LOSE, bet, -bet)
            return HandResult(Outcome.SURRENDER, bet, -scale(bet, _HALF))
        if hand.is_bust:
            return HandResult(Outcome.BUST, bet, -bet)
        if hand.is_natural:
            if dealer_natural:
                return HandResult(Outcome.PUSH, bet, 0)
            bonus = rules.ace_of_spades_black_jack_pays
            if bonus is not None and _is_ace_of_spades_black_jack(hand.cards):
                return HandResult(Outcome.BONUS, bet, scale(bet, bonus))
            return HandResult(Outcome.NATURAL, bet, scale(bet, rules.blackjack_pays))
        if dealer_natural:
            # Only reachable with the European deal, or at the deal itself with the American one:
            # every bet on the hand is lost, doubled and split bets included.
            return HandResult(Outcome.LOSE, bet, -bet)
        total = hand.value.total
        if dealer.total > 21 or total > dealer.total:
            return HandResult(Outcome.WIN, bet, bet)
        if total == dealer.total:
            return HandResult(Outcome.PUSH, bet, 0)
        return HandResult(Outcome.LOSE, bet, -bet)


def _is_ace_of_spades_black_jack(cards: Sequence[Card]) -> bool:
    pair = {(card.rank, card.suit) for card in cards}
    return (Rank.ACE, Suit.SPADES) in pair and (
        (Rank.JACK, Suit.SPADES) in pair or (Rank.JACK, Suit.CLUBS) in pair
    )


_ACTION_HANDLERS = {
    Action.HIT: Round._do_hit,
    Action.STAND: Round._do_stand,
    Action.DOUBLE: Round._do_double,
    Action.SPLIT: Round._do_split,
    Action.SURRENDER: Round._do_surrender,
    Action.DECLINE_INSURANCE: Round._do_decline_insurance,
    Action.EVEN_MONEY: Round._do_even_money,
}

#: The rule of each hand action (dispatch by table rather than a chain of ``is`` tests: under
#: Python 3.11 each ``Action.X`` lookup through the Enum class costs as much as a function call).
_HAND_RULES: dict[Action, Callable[[Round, Seat, PlayerHand], Refusal]] = {
    Action.STAND: Round._stand_refusal,
    Action.HIT: Round._hit_refusal,
    Action.DOUBLE: Round._double_refusal,
    Action.SPLIT: Round._split_refusal,
    Action.SURRENDER: Round._surrender_refusal,
}
