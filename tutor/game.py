"""One round of blackjack, played exactly as a real table plays it, and told as events.

``Round`` owns a round from the deal to the settlement for 1 to 7 seats. It deals in the sources'
order (a card to each seat, one to the dealer face up, a second card to each seat, then, with the
American deal, the dealer's hole card), offers insurance and even money on a dealer Ace, lets the
dealer check for a natural (or, with the European deal, leaves the dealer's second card until the
players have played), walks every seat's hands in turn, plays the dealer by the table's rule and
settles every bet exactly. Where the table deals the players as the banker is dealt
(``player_card_face_down``, the game at home of source 000), each seat's second card comes face
down: its player decides on it, the other seats see it only once it is shown (a natural, a
split, the showdown), and a seat's decision point counts only what that seat could see.

Each action is a triple, as in pokerkit: ``verify_double()`` raises ``IllegalActionError`` with
the reason, ``can_double()`` says whether it would pass, and ``double()`` verifies, plays and
returns the events it produced. Every step is recorded as an ``Event``, one typed record per kind
(``Hit(card, total, seat, hand)``, ``HandSettled(outcome, bet, net, seat, hand)``...), data and
never text: the interface turns events into sentences in the learner's language.

>>> from tutor.cards import Shoe
>>> from tutor.rules import PRESETS
>>> shoe = Shoe(1, script="10♠ 9♥ 7♦ K♣")  # seat card, dealer up, seat card, hole card
>>> game = Round(PRESETS["family"], shoe, bets=[2])
>>> game.legal_actions() == {Action.HIT, Action.STAND, Action.DOUBLE}
True
>>> _ = game.stand()
>>> game.phase, game.dealer_value.total, [str(r.outcome.value) for r in game.results[0].hands]
(<Phase.SETTLED: 'settled'>, 19, ['lose'])
>>> game.events[-2]
HandSettled(outcome=<Outcome.LOSE: 'lose'>, bet=2, net=-2, seat=0, hand=0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Any, Literal, NamedTuple, TypeAlias

from tutor.cards import Card, HandValue, Rank, Shoe, Suit, hand_value, is_pair
from tutor.decision import HAND_ACTIONS, INSURANCE_ACTIONS, Action, DecisionPoint
from tutor.legality import Refused, double_refusal, hit_refusal, split_refusal, surrender_refusal
from tutor.refusal import Refusal, RefusedError
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


class IllegalActionError(RefusedError):
    """An action the table forbids now. Its ``refusal`` (one of ``REFUSALS``' codes and their
    parameters) lets the interface translate it."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(Refusal(code, params), message)


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
#: An illegal action carries one of these codes (its English sentence is the message).
IllegalActionError.codes = tuple(REFUSALS)


class Phase(Enum):
    # Members are singletons: identity hashing in C, not Enum's hash of the name in Python.
    __hash__ = object.__hash__

    INSURANCE = "insurance"
    PLAYERS = "players"
    SETTLED = "settled"


class EventKind(Enum):
    """Which record an event is (each kind has its own record class below, ``Hit`` for ``HIT``:
    a reader matches on the class, or compares ``event.kind``, and mypy narrows either way)."""

    # Members are singletons: identity hashing in C, not Enum's hash of the name in Python.
    __hash__ = object.__hash__

    ROUND_STARTED = "round-started"
    CARD_DEALT = "card-dealt"
    INSURANCE_OFFERED = "insurance-offered"
    INSURANCE_TAKEN = "insurance-taken"
    INSURANCE_DECLINED = "insurance-declined"
    EVEN_MONEY_TAKEN = "even-money-taken"
    DEALER_CHECKED = "dealer-checked"
    HIT = "hit"
    STOOD = "stood"
    DOUBLED = "doubled"
    SPLIT = "split"
    SURRENDERED = "surrendered"
    BUSTED = "busted"
    HOLE_CARD_REVEALED = "hole-card-revealed"
    DEALER_HIT = "dealer-hit"
    DEALER_STOOD = "dealer-stood"
    DEALER_BUSTED = "dealer-busted"
    INSURANCE_SETTLED = "insurance-settled"
    HAND_SETTLED = "hand-settled"
    ROUND_SETTLED = "round-settled"


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


# -- the events: one record per kind --
#
# Named tuples rather than frozen dataclasses: a round logs a dozen of them, and a named tuple is
# the cheapest immutable record Python builds (bench/engine.py: a frozen slotted dataclass, whose
# __init__ sets each field through object.__setattr__, made a round measurably slower; a named
# tuple built positionally costs no more than the single record with a dict it replaced).
# What happened comes first, then who: ``seat`` and ``hand`` last, None for the dealer or the
# table (the dealer's and the table's records default them). ``kind`` is a property, not a
# field: the record's class says it, and the tuple holds only what the table saw.


class RoundStarted(NamedTuple):
    """The bets are placed, one per seat."""

    bets: tuple[Money, ...]
    seat: None = None
    hand: None = None

    @property
    def kind(self) -> Literal[EventKind.ROUND_STARTED]:
        return EventKind.ROUND_STARTED


class CardDealt(NamedTuple):
    """A card dealt to a seat's hand, or to the dealer (``seat`` None). A card dealt face down
    (the dealer's hole card, a double dealt face down) carries ``card`` None: the event tells what
    the table sees, and the card is told when it is turned (``HoleCardRevealed``)."""

    card: Card | None
    face_down: bool
    seat: int | None = None
    hand: int | None = None

    @property
    def kind(self) -> Literal[EventKind.CARD_DEALT]:
        return EventKind.CARD_DEALT


class InsuranceOffered(NamedTuple):
    """The dealer shows an Ace: every seat answers the insurance offer before play."""

    seat: None = None
    hand: None = None

    @property
    def kind(self) -> Literal[EventKind.INSURANCE_OFFERED]:
        return EventKind.INSURANCE_OFFERED


class InsuranceTaken(NamedTuple):
    """A seat insures for ``amount`` chips (at most half its bet)."""

    amount: Money
    seat: int
    hand: None = None

    @property
    def kind(self) -> Literal[EventKind.INSURANCE_TAKEN]:
        return EventKind.INSURANCE_TAKEN


class InsuranceDeclined(NamedTuple):
    """A seat declines insurance."""

    seat: int
    hand: None = None

    @property
    def kind(self) -> Literal[EventKind.INSURANCE_DECLINED]:
        return EventKind.INSURANCE_DECLINED


class EvenMoneyTaken(NamedTuple):
    """A seat with a natural takes even money: ``paid`` chips, its bet, whatever the dealer has."""

    paid: Money
    seat: int
    hand: int

    @property
    def kind(self) -> Literal[EventKind.EVEN_MONEY_TAKEN]:
        return EventKind.EVEN_MONEY_TAKEN


class DealerChecked(NamedTuple):
    """The dealer looked under a ten or an Ace (American deal): ``natural`` is what was there."""

    natural: bool
    seat: None = None
    hand: None = None

    @property
    def kind(self) -> Literal[EventKind.DEALER_CHECKED]:
        return EventKind.DEALER_CHECKED


class Hit(NamedTuple):
    """A hand hits: ``card`` (also told by the ``CardDealt`` just before) makes ``total``, the
    total as the hand's player counts it: with a card of the deal face down, more than the other
    seats know (the narration leaves it out until the card is shown)."""

    card: Card
    total: int
    seat: int
    hand: int

    @property
    def kind(self) -> Literal[EventKind.HIT]:
        return EventKind.HIT


class Stood(NamedTuple):
    """A hand stands on ``total`` (``soft`` or hard); ``automatic`` when a 21 stood by itself.
    As for ``Hit``, the total is the player's own count."""

    total: int
    soft: bool
    automatic: bool
    seat: int
    hand: int

    @property
    def kind(self) -> Literal[EventKind.STOOD]:
        return EventKind.STOOD


class Doubled(NamedTuple):
    """A hand doubles: ``bet`` is its new total bet, ``insured`` the insurance added with it."""

    bet: Money
    insured: Money
    seat: int
    hand: int

    @property
    def kind(self) -> Literal[EventKind.DOUBLED]:
        return EventKind.DOUBLED


class Split(NamedTuple):
    """A pair splits: its second card becomes hand ``new_hand`` (the hands after it move up one);
    ``insured`` is the insurance added with the new bet."""

    new_hand: int
    insured: Money
    seat: int
    hand: int

    @property
    def kind(self) -> Literal[EventKind.SPLIT]:
        return EventKind.SPLIT


class Surrendered(NamedTuple):
    """A hand is given up; ``returned`` chips (half its bet) come back, unless a later dealer
    natural takes them (told by its ``HandSettled``)."""

    returned: Money
    seat: int
    hand: int

    @property
    def kind(self) -> Literal[EventKind.SURRENDERED]:
        return EventKind.SURRENDERED


class Busted(NamedTuple):
    """A hand goes over 21, to ``total`` (the player's count: with a card of the deal face down
    the table hears "bust", 000's « Crevé », and sees the card at the settlement)."""

    total: int
    seat: int
    hand: int

    @property
    def kind(self) -> Literal[EventKind.BUSTED]:
        return EventKind.BUSTED


class HoleCardRevealed(NamedTuple):
    """A card turned over: the dealer's hole card (``seat`` None), a seat's card dealt face down
    at the deal (``at_deal``: shown for a natural, to split a pair, or at the settlement), or the
    card of a seat's double dealt face down (turned at the settlement, once the dealer has
    played)."""

    card: Card
    at_deal: bool = False
    seat: int | None = None
    hand: int | None = None

    @property
    def kind(self) -> Literal[EventKind.HOLE_CARD_REVEALED]:
        return EventKind.HOLE_CARD_REVEALED


class DealerHit(NamedTuple):
    """The dealer draws ``card``, making ``total``."""

    card: Card
    total: int
    seat: None = None
    hand: None = None

    @property
    def kind(self) -> Literal[EventKind.DEALER_HIT]:
        return EventKind.DEALER_HIT


class DealerStood(NamedTuple):
    """The dealer stands on ``total``, ``soft`` or hard, by the table's rule."""

    total: int
    soft: bool
    seat: None = None
    hand: None = None

    @property
    def kind(self) -> Literal[EventKind.DEALER_STOOD]:
        return EventKind.DEALER_STOOD


class DealerBusted(NamedTuple):
    """The dealer goes over 21, to ``total``."""

    total: int
    seat: None = None
    hand: None = None

    @property
    def kind(self) -> Literal[EventKind.DEALER_BUSTED]:
        return EventKind.DEALER_BUSTED


class InsuranceSettled(NamedTuple):
    """A seat's insurance of ``amount`` chips is settled: ``won`` on a dealer natural, ``net``
    the chips it made (twice the amount, or minus the amount)."""

    amount: Money
    won: bool
    net: Money
    seat: int
    hand: None = None

    @property
    def kind(self) -> Literal[EventKind.INSURANCE_SETTLED]:
        return EventKind.INSURANCE_SETTLED


class HandSettled(NamedTuple):
    """A hand is paid: its ``outcome``, its final ``bet`` and the ``net`` chips it made."""

    outcome: Outcome
    bet: Money
    net: Money
    seat: int
    hand: int

    @property
    def kind(self) -> Literal[EventKind.HAND_SETTLED]:
        return EventKind.HAND_SETTLED


class RoundSettled(NamedTuple):
    """The round is over: ``nets`` per seat (hands and insurance), and the bank's net, which is
    exactly minus their sum."""

    nets: tuple[Money, ...]
    bank_net: Money
    seat: None = None
    hand: None = None

    @property
    def kind(self) -> Literal[EventKind.ROUND_SETTLED]:
        return EventKind.ROUND_SETTLED


#: What happened, as data (never text): one record per kind. Every record has ``kind``, ``seat``
#: and ``hand``; read the rest after matching on the class (or on ``kind``, which mypy narrows).
Event: TypeAlias = (
    RoundStarted
    | CardDealt
    | InsuranceOffered
    | InsuranceTaken
    | InsuranceDeclined
    | EvenMoneyTaken
    | DealerChecked
    | Hit
    | Stood
    | Doubled
    | Split
    | Surrendered
    | Busted
    | HoleCardRevealed
    | DealerHit
    | DealerStood
    | DealerBusted
    | InsuranceSettled
    | HandSettled
    | RoundSettled
)


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
    #: The hand's second card of the deal while it is face down (``player_card_face_down``): its
    #: player has looked at it, the other seats have not. It is always ``cards[1]``: a split,
    #: which moves that card, shows it first.
    down_card: Card | None = None

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
        hand's last, and a card of the deal still face down, the second (hidden by position:
        with several decks the hand may hold another copy)."""
        return [card for card in self.seen_by(owner=False) if card is not None]

    def seen_by(self, *, owner: bool) -> list[Card | None]:
        """The hand as a person at the table sees it, in the order dealt, ``None`` for a card
        whose back they see: the hand's own player (``owner``) sees the card of the deal he was
        given face down, nobody sees a double's card before the dealer has played."""
        cards: list[Card | None] = list(self.cards)
        if self.hidden_card is not None:
            cards[-1] = None
        if self.down_card is not None and not owner:
            cards[1] = None
        return cards

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
        self.events.append(RoundStarted(tuple(bets)))
        self._deal()

    # -- the deal --
    def _deal(self) -> None:
        for seat in self.seats:
            seat.hands.append(PlayerHand([], seat.bet))
        for seat in self.seats:
            self._give(seat.index, 0)
        self._dealer_deal(face_down=False)
        down = self.rules.player_card_face_down
        for seat in self.seats:
            card = self._give(seat.index, 0, face_down=down)
            if down:
                seat.hands[0].down_card = card
        if self.rules.dealer_peeks:
            self._dealer_deal(face_down=True)
        if self.rules.insurance and self.dealer[0].rank is Rank.ACE:
            self.phase = Phase.INSURANCE
            self.events.append(InsuranceOffered())
            self._turn = Turn(0, None)
        else:
            self._after_insurance()

    def _give(self, seat: int, hand: int, *, face_down: bool = False) -> Card:
        card = self.shoe.draw()
        self.seats[seat].hands[hand].add(card)
        # A face-down card is not in its event: events tell what the table sees.
        shown = None if face_down else card
        self.events.append(CardDealt(shown, face_down, seat, hand))
        return card

    def _dealer_take(self) -> Card:
        card = self.shoe.draw()
        self.dealer.append(card)
        self._dealer_value = hand_value(self.dealer)
        return card

    def _dealer_deal(self, *, face_down: bool) -> None:
        """One of the dealer's cards of the deal (the hole card face down, not told)."""
        card = self._dealer_take()
        self.events.append(CardDealt(None if face_down else card, face_down))

    def _dealer_hit(self) -> None:
        card = self._dealer_take()
        self.events.append(DealerHit(card, self._dealer_value.total))

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

    def screen_seat(self) -> int | None:
        """The seat whose player looks at the shared screen now, None when nobody's cards are to
        be kept from the others (between turns, once the round is settled).

        A family session, or a free table of several seats, is played on one screen passed from
        player to player, so a card of the deal dealt face down (``player_card_face_down``) can
        only be kept from the other seats by time: it is drawn face up during its own seat's
        turn (the insurance question included), which is when its player needs it to decide,
        and as a card's back at every other moment, until it is shown (a natural, a split) or
        the settlement turns every card. A table of one seat has one player, always at the
        screen, who always sees his own card.
        """
        if len(self.seats) == 1:
            return 0
        return self._turn.seat if self._turn is not None else None

    def cards_seen_by(self, seat: int, hand: int, viewer: int | None) -> list[Card | None]:
        """Hand ``hand`` of seat ``seat`` as the player of seat ``viewer`` sees it (None: as the
        table sees it), ``None`` for each card whose back shows."""
        return self.seats[seat].hands[hand].seen_by(owner=viewer == seat)

    def hides_cards_from(self, seat: int, viewer: int | None) -> bool:
        """Whether seat ``seat`` holds a card of the deal face down that ``viewer`` may not see:
        what a page asks before showing a judged move's reason, which names the hand's cards."""
        return seat != viewer and any(h.down_card is not None for h in self.seats[seat].hands)

    def decision_point(self) -> DecisionPoint:
        """The current decision as the strategy and the quiz see it: the hand's cards, all known
        to its player (his own card dealt face down included), and in ``seen`` the other seats'
        cards as this seat sees them: never a card doubled face down nor another seat's card of
        the deal still face down (its player has not seen them, so the advice must not take them
        out of the shoe)."""
        turn = self._require_turn()
        seat = self.seats[turn.seat]
        hand = seat.hands[turn.hand if turn.hand is not None else 0]
        seen = tuple(
            card
            for other in self.seats
            if other.index != seat.index
            for other_hand in other.hands
            for card in other_hand.seen_by(owner=False)
            if card is not None
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

    def refusal(self, action: Action) -> Refused:
        """Why ``action`` is refused now (a code and its parameters), or None when it is legal:
        ``verify``'s answer without the exception, for an interface that explains its buttons."""
        if self._legal is not None and action in self._legal:
            return None
        return self._refusal(action)

    def _refusal(self, action: Action) -> Refused:
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

    def _stand_refusal(self, seat: Seat, hand: PlayerHand) -> Refused:
        return None

    def _hit_refusal(self, seat: Seat, hand: PlayerHand) -> Refused:
        return hit_refusal(self.rules, split_aces=hand.split_aces)

    def _double_refusal(self, seat: Seat, hand: PlayerHand) -> Refused:
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

    def _split_refusal(self, seat: Seat, hand: PlayerHand) -> Refused:
        rules = self.rules
        refusal = split_refusal(
            rules,
            pair=len(hand.cards) == 2 and is_pair(hand.cards, by_value=rules.split_by_value),
            hands_in_seat=len(seat.hands),
            split_aces=hand.split_aces,
            insured=seat.insured,
        )
        return refusal or self._funds_refusal(seat, hand.bet, "split")

    def _surrender_refusal(self, seat: Seat, hand: PlayerHand) -> Refused:
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

    # The named actions and checks the interface and the tests call; any other check is
    # ``verify(Action.X)`` or ``can(Action.X)``.
    def can_hit(self) -> bool:
        return self.can(Action.HIT)

    def hit(self) -> list[Event]:
        return self.act(Action.HIT)

    def stand(self) -> list[Event]:
        return self.act(Action.STAND)

    def verify_double(self) -> None:
        self.verify(Action.DOUBLE)

    def can_double(self) -> bool:
        return self.can(Action.DOUBLE)

    def double(self) -> list[Event]:
        return self.act(Action.DOUBLE)

    def can_split(self) -> bool:
        return self.can(Action.SPLIT)

    def split(self) -> list[Event]:
        return self.act(Action.SPLIT)

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
        self.events.append(InsuranceTaken(amount, seat.index))
        self._next_insurance_turn()

    def _do_decline_insurance(self) -> None:
        seat = self.seats[self._require_turn().seat]
        seat.insurance_decided = True
        self.events.append(InsuranceDeclined(seat.index))
        self._next_insurance_turn()

    def _do_even_money(self) -> None:
        seat = self.seats[self._require_turn().seat]
        hand = seat.hands[0]
        hand.even_money = True
        seat.insurance_decided = True
        self.events.append(EvenMoneyTaken(hand.bet, seat.index, 0))
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
            self.events.append(DealerChecked(natural))
            if natural:
                self._finish_round()
                return
            self._settle_insurance_early()
        if self.rules.dealer_peeks:
            self._show_naturals()
        self._turn = Turn(0, 0)
        self._advance()

    def _show_naturals(self) -> None:
        """A natural held with a card face down is shown as soon as the banker is known to have
        none (000: "si un joueur a un naturel et que le Banquier n'en a pas, ce joueur le
        montre"); without a hole card that is only known at the settlement."""
        for seat in self.seats:
            hand = seat.hands[0]
            if hand.down_card is not None and hand.is_natural:
                self._turn_down_card(seat, 0)

    def _turn_down_card(self, seat: Seat, index: int) -> None:
        hand = seat.hands[index]
        assert hand.down_card is not None
        self.events.append(HoleCardRevealed(hand.down_card, True, seat.index, index))
        hand.down_card = None

    def _settle_insurance_early(self) -> None:
        """With a hole card and no natural, insurance is lost as soon as the dealer has checked."""
        for seat in self.seats:
            if seat.insured:
                self.events.append(
                    InsuranceSettled(seat.insurance, False, -seat.insurance, seat.index)
                )

    # -- hand actions --
    def _do_hit(self) -> None:
        seat, hand = self._current()
        index = self._require_turn().hand or 0
        card = self._give(seat.index, index)
        self.events.append(Hit(card, hand.value.total, seat.index, index))
        self._after_card(seat, hand)

    def _do_stand(self) -> None:
        seat, hand = self._current()
        hand.stood = True
        value = hand.value
        self.events.append(
            Stood(value.total, value.soft, False, seat.index, self._require_turn().hand or 0)
        )
        self._advance()

    def _do_double(self) -> None:
        seat, hand = self._current()
        index = self._require_turn().hand or 0
        extra = self._extra_insurance(seat, hand.bet)
        self._take_from_stack(seat, hand.bet + extra)
        seat.insurance = money(seat.insurance + extra)
        hand.bet = money(hand.bet * 2)
        hand.doubled = True
        face_down = self.rules.double_face_down
        self.events.append(Doubled(hand.bet, extra, seat.index, index))
        card = self._give(seat.index, index, face_down=face_down)
        if face_down:
            hand.hidden_card = card
        elif hand.is_bust:
            self.events.append(Busted(hand.value.total, seat.index, index))
        self._advance()

    def _do_split(self) -> None:
        seat, hand = self._current()
        turn = self._require_turn()
        index = turn.hand or 0
        extra = self._extra_insurance(seat, hand.bet)
        self._take_from_stack(seat, hand.bet + extra)
        seat.insurance = money(seat.insurance + extra)
        if hand.down_card is not None:
            self._turn_down_card(seat, index)  # a pair is shown to be split
        aces = hand.cards[0].rank is Rank.ACE
        moved = hand.take_second()
        new = PlayerHand([moved], hand.bet, from_split=True, split_aces=aces)
        hand.from_split = True
        hand.split_aces = aces
        seat.hands.insert(index + 1, new)
        self.events.append(Split(index + 1, extra, seat.index, index))
        self._give(seat.index, index)
        if aces and self.rules.split_aces_one_card:
            # Both Aces get their one card now and are finished.
            self._give(seat.index, index + 1)
        self._advance()

    def _do_surrender(self) -> None:
        seat, hand = self._current()
        hand.surrendered = True
        self.events.append(
            Surrendered(scale(hand.bet, _HALF), seat.index, self._require_turn().hand or 0)
        )
        self._advance()

    def _take_from_stack(self, seat: Seat, amount: Money) -> None:
        if seat.stack is not None:
            seat.stack = money(seat.stack - amount)

    def _after_card(self, seat: Seat, hand: PlayerHand) -> None:
        value = hand.value
        if value.total > 21:
            self.events.append(Busted(value.total, seat.index, self._require_turn().hand or 0))
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
                    self.events.append(Stood(21, hand.value.soft, True, seat_index, hand_index))
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
                self._dealer_hit()
        else:
            self.hole_revealed = True
            self.events.append(HoleCardRevealed(self.dealer[1]))
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
                self.events.append(DealerBusted(value.total))
                return
            if value.total > 17 or (
                value.total == 17 and not (value.soft and rules.dealer_hits_soft_17)
            ):
                self.events.append(DealerStood(value.total, value.soft))
                return
            self._dealer_hit()

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
                if hand.down_card is not None:
                    self._turn_down_card(seat, index)  # "tout le monde montre son jeu"
                if hand.hidden_card is not None:
                    self.events.append(HoleCardRevealed(hand.hidden_card, False, seat.index, index))
                    hand.hidden_card = None
                result = self._settle_hand(hand, dealer, dealer_natural)
                hand_results.append(result)
                seat_net += result.net
                self.events.append(
                    HandSettled(result.outcome, result.bet, result.net, seat.index, index)
                )
            insurance_net: Money = 0
            if seat.insured:
                insurance_net = money(seat.insurance * 2) if dealer_natural else -seat.insurance
                if not rules.dealer_peeks or dealer_natural:
                    # With a hole card and no natural it was settled when the dealer checked.
                    self.events.append(
                        InsuranceSettled(seat.insurance, dealer_natural, insurance_net, seat.index)
                    )
            results.append(
                SeatResult(seat.index, tuple(hand_results), seat.insurance, insurance_net)
            )
            nets.append(money(seat_net + insurance_net))
        self.results = results
        self.phase = Phase.SETTLED
        bank_net = money(-sum(nets, 0))
        self.events.append(RoundSettled(tuple(nets), bank_net))

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
_HAND_RULES: dict[Action, Callable[[Round, Seat, PlayerHand], Refused]] = {
    Action.STAND: Round._stand_refusal,
    Action.HIT: Round._hit_refusal,
    Action.DOUBLE: Round._double_refusal,
    Action.SPLIT: Round._split_refusal,
    Action.SURRENDER: Round._surrender_refusal,
}
