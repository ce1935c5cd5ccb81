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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Any

from tutor.cards import Card, HandValue, Rank, Shoe, Suit, hand_value, is_natural_cards, is_pair
from tutor.decision import Action, DecisionPoint
from tutor.rules import TableRules

#: Chips are integers; a 3:2 natural on an odd bet or half-bet insurance needs exact fractions.
Money = int | Fraction

MAX_SEATS = 7


def money(value: Money) -> Money:
    """Normalise a Fraction with denominator 1 to an int, so chips print as chips."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


class IllegalActionError(Exception):
    """An action the table forbids now. ``code`` and ``params`` let the interface translate it."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class Phase(Enum):
    INSURANCE = "insurance"
    PLAYERS = "players"
    SETTLED = "settled"


class EventKind(Enum):
    ROUND_STARTED = "round-started"
    CARD_DEALT = "card-dealt"  # data: card, face_down; seat/hand or to dealer (seat None)
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
    HOLE_CARD_REVEALED = "hole-card-revealed"  # data: card
    DEALER_HIT = "dealer-hit"  # data: card, total
    DEALER_STOOD = "dealer-stood"  # data: total, soft
    DEALER_BUSTED = "dealer-busted"  # data: total
    INSURANCE_SETTLED = "insurance-settled"  # data: amount, won, net
    HAND_SETTLED = "hand-settled"  # data: outcome, bet, net
    ROUND_SETTLED = "round-settled"  # data: nets (per seat), bank_net


@dataclass(frozen=True, slots=True)
class Event:
    """What happened, as data: ``seat`` and ``hand`` are None for the dealer or the table."""

    kind: EventKind
    seat: int | None = None
    hand: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)


class Outcome(Enum):
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

    @property
    def value(self) -> HandValue:
        return hand_value(self.cards)

    @property
    def is_natural(self) -> bool:
        return not self.from_split and is_natural_cards(self.cards)

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
    insurance_decided: bool = False

    @property
    def insured(self) -> bool:
        return self.insurance > 0


@dataclass(frozen=True)
class HandResult:
    outcome: Outcome
    bet: Money
    #: Chips won (positive) or lost (negative), the bet excluded: a 2-chip natural nets +3.
    net: Money


@dataclass(frozen=True)
class SeatResult:
    seat: int
    hands: tuple[HandResult, ...]
    insurance: Money
    insurance_net: Money

    @property
    def net(self) -> Money:
        return money(sum((hand.net for hand in self.hands), self.insurance_net))


@dataclass(frozen=True)
class Turn:
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
        self.hole_revealed = False
        self.results: list[SeatResult] = []
        self.phase = Phase.PLAYERS
        self._turn: Turn | None = None
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
        self.seats[seat].hands[hand].cards.append(card)
        self._log(EventKind.CARD_DEALT, seat, hand, {"card": card, "face_down": face_down})
        return card

    def _dealer_draw(self, *, face_down: bool, kind: EventKind) -> Card:
        card = self.shoe.draw()
        self.dealer.append(card)
        if kind is EventKind.CARD_DEALT:
            self._log(kind, data={"card": None if face_down else card, "face_down": face_down})
        else:
            self._log(kind, data={"card": card, "total": hand_value(self.dealer).total})
        return card

    def _log(
        self,
        kind: EventKind,
        seat: int | None = None,
        hand: int | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> Event:
        event = Event(kind, seat, hand, data or {})
        self.events.append(event)
        return event

    # -- queries --
    @property
    def dealer_up(self) -> Card:
        return self.dealer[0]

    @property
    def dealer_value(self) -> HandValue:
        return hand_value(self.dealer)

    @property
    def visible_dealer_cards(self) -> tuple[Card, ...]:
        """The dealer's cards a player may see: the up-card only until the hole card is shown."""
        return tuple(self.dealer) if self.hole_revealed else tuple(self.dealer[:1])

    @property
    def dealer_has_natural(self) -> bool:
        return is_natural_cards(self.dealer)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.SETTLED

    def to_act(self) -> Turn | None:
        """Whose turn it is, or None once the round is settled."""
        return self._turn

    def legal_actions(self) -> frozenset[Action]:
        """Exactly the actions that would succeed now (the property tests check both ways)."""
        if self._turn is None:
            return frozenset()
        candidates = (
            (Action.INSURE, Action.DECLINE_INSURANCE, Action.EVEN_MONEY)
            if self.phase is Phase.INSURANCE
            else (Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER)
        )
        return frozenset(action for action in candidates if self.can(action))

    def decision_point(self) -> DecisionPoint:
        """The current decision as the strategy and the quiz see it."""
        turn = self._require_turn()
        seat = self.seats[turn.seat]
        hand = seat.hands[turn.hand if turn.hand is not None else 0]
        seen = tuple(
            card
            for other in self.seats
            if other.index != seat.index
            for other_hand in other.hands
            for card in other_hand.cards
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
        turn = self._require_turn()
        if action.is_insurance_decision:
            if self.phase is not Phase.INSURANCE:
                raise IllegalActionError(
                    "no-insurance-now",
                    "insurance is only offered when the dealer shows an Ace, before anyone plays",
                )
            self._verify_insurance(action)
            return
        if self.phase is Phase.INSURANCE:
            raise IllegalActionError(
                "insurance-first", "every player answers the insurance offer before play starts"
            )
        assert turn.hand is not None
        seat, hand = self._current()
        rules = self.rules
        if action is Action.DOUBLE:
            if len(hand.cards) != 2:
                raise IllegalActionError(
                    "double-two-cards", "you can only double on your first two cards"
                )
            if hand.from_split and not rules.double_after_split:
                raise IllegalActionError(
                    "no-double-after-split",
                    "you cannot double after a split at this table",
                    table=rules.name,
                )
            if hand.split_aces and rules.split_aces_one_card:
                raise IllegalActionError(
                    "split-aces-one-card", "split Aces receive one card each and no more"
                )
            value = hand.value
            if not rules.double_on.allows(value.total, soft=value.soft):
                raise IllegalActionError(
                    "double-total",
                    f"at this table you may only double on {rules.double_on.value}",
                    allowed=rules.double_on.value,
                    total=value.total,
                )
            self._verify_insurance_lock(seat, "double")
            self._verify_funds(seat, hand.bet + self._extra_insurance(seat, hand.bet), "double")
        elif action is Action.SPLIT:
            if len(hand.cards) != 2 or not is_pair(hand.cards, by_value=rules.split_by_value):
                what = "value" if rules.split_by_value else "rank"
                raise IllegalActionError(
                    "split-pair", f"you can only split two cards of the same {what}", by=what
                )
            if not rules.can_split:
                raise IllegalActionError("no-split", "this table does not allow splitting")
            if len(seat.hands) >= rules.max_hands:
                raise IllegalActionError(
                    "max-hands",
                    f"this table allows at most {rules.max_hands} hands per seat",
                    max_hands=rules.max_hands,
                )
            if hand.split_aces and not rules.resplit_aces:
                raise IllegalActionError("no-resplit-aces", "split Aces cannot be split again")
            self._verify_insurance_lock(seat, "split")
            self._verify_funds(seat, hand.bet + self._extra_insurance(seat, hand.bet), "split")
        elif action is Action.SURRENDER:
            if rules.surrender.value == "none":
                raise IllegalActionError("no-surrender", "this table does not offer surrender")
            if len(hand.cards) != 2 or hand.from_split or len(seat.hands) != 1:
                raise IllegalActionError(
                    "surrender-first",
                    "you can only surrender your first two cards, before any other decision",
                )
        elif action is Action.HIT:
            if hand.split_aces and rules.split_aces_one_card:
                raise IllegalActionError(
                    "split-aces-one-card", "split Aces receive one card each and no more"
                )
        elif action is Action.STAND:
            pass
        else:  # pragma: no cover - every action is handled above
            raise IllegalActionError("unknown-action", f"unknown action {action}")

    def can_resplit_aces(self, seat: Seat, hand: PlayerHand) -> bool:
        """A split Ace that drew another Ace may be split again where the table allows it."""
        return (
            self.rules.resplit_aces
            and len(seat.hands) < self.rules.max_hands
            and len(hand.cards) == 2
            and all(card.rank is Rank.ACE for card in hand.cards)
        )

    def _verify_insurance(self, action: Action) -> None:
        seat = self.seats[self._require_turn().seat]
        natural = seat.hands[0].is_natural
        if action is Action.EVEN_MONEY:
            if not natural:
                raise IllegalActionError(
                    "even-money-natural", "even money is only offered on a natural"
                )
            if not self.rules.even_money:
                raise IllegalActionError("no-even-money", "this table does not offer even money")
        if action is Action.INSURE and seat.stack is not None and seat.stack <= 0:
            raise IllegalActionError(
                "funds",
                "you have no chips left to insure with",
                needed=1,
                stack=seat.stack,
                action="insure",
            )

    def _verify_insurance_lock(self, seat: Seat, what: str) -> None:
        if seat.insured and self.rules.insurance_forbids_double_split:
            raise IllegalActionError(
                "insured-no-" + what, f"after taking insurance you may no longer {what}"
            )

    def _verify_funds(self, seat: Seat, needed: Money, what: str) -> None:
        if seat.stack is not None and needed > seat.stack:
            raise IllegalActionError(
                "funds",
                f"you need {needed} more chips to {what}, and have {seat.stack}",
                needed=needed,
                stack=seat.stack,
                action=what,
            )

    def _max_insurance(self, seat: Seat) -> Money:
        return money(Fraction(seat.bet) * self.rules.insurance_max)

    def _extra_insurance(self, seat: Seat, added_bet: Money) -> Money:
        """The insurance a doubled or split bet must also carry, at tables that insure it."""
        if seat.insured and self.rules.insure_additional_bets and not self.hole_revealed:
            return money(Fraction(added_bet) * seat.insurance / seat.bet)
        return 0

    def can(self, action: Action) -> bool:
        try:
            self.verify(action)
        except IllegalActionError:
            return False
        return True

    def act(self, action: Action, *, amount: Money | None = None) -> list[Event]:
        """Play ``action`` for whoever is to act; returns the events it produced."""
        self.verify(action)
        start = len(self.events)
        {
            Action.HIT: self._do_hit,
            Action.STAND: self._do_stand,
            Action.DOUBLE: self._do_double,
            Action.SPLIT: self._do_split,
            Action.SURRENDER: self._do_surrender,
            Action.DECLINE_INSURANCE: self._do_decline_insurance,
            Action.EVEN_MONEY: self._do_even_money,
        }.get(action, lambda: self._do_insure(amount))()
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
        moved = hand.cards.pop()
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
            {"returned": money(Fraction(hand.bet) / 2)},
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
        return any(
            seat.insured
            or any(not (h.is_bust or h.surrendered or h.even_money) for h in seat.hands)
            for seat in self.seats
        )

    def _live_hands(self) -> bool:
        """Hands still waiting for the dealer's total: not bust, surrendered or a natural."""
        return any(
            not (hand.is_bust or hand.surrendered or hand.even_money or hand.is_natural)
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
        for seat in self.seats:
            hand_results = []
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
        self.results = results
        self.phase = Phase.SETTLED
        nets = tuple(result.net for result in results)
        self._log(EventKind.ROUND_SETTLED, data={"nets": nets, "bank_net": money(-sum(nets, 0))})

    def _settle_hand(self, hand: PlayerHand, dealer: HandValue, dealer_natural: bool) -> HandResult:
        rules = self.rules
        bet = hand.bet
        if hand.even_money:
            return HandResult(Outcome.EVEN_MONEY, bet, bet)
        if hand.surrendered:
            return HandResult(Outcome.SURRENDER, bet, money(-Fraction(bet) / 2))
        if hand.is_bust:
            return HandResult(Outcome.BUST, bet, -bet)
        if hand.is_natural:
            if dealer_natural:
                return HandResult(Outcome.PUSH, bet, 0)
            bonus = rules.ace_of_spades_black_jack_pays
            if bonus is not None and _is_ace_of_spades_black_jack(hand.cards):
                return HandResult(Outcome.BONUS, bet, money(bet * bonus))
            return HandResult(Outcome.NATURAL, bet, money(bet * rules.blackjack_pays))
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
