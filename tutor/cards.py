"""Cards, hands and the shoe: the vocabulary every other module speaks.

Cards are small frozen values that parse from and print to the two notations a teacher types:
``A♠ 10♥ K♦`` (symbols) and ``AS TH KD`` (letters). A hand's value follows the rule taught in the
first lesson: count every Ace as 1, then add 10 if that stays at 21 or under; the hand is *soft*
when that Ace counts 11.

>>> hand_value(parse_cards("A♠ 6♥"))
HandValue(total=17, soft=True)
>>> hand_value(parse_cards("AS 6H 9D"))
HandValue(total=16, soft=False)
>>> str(Card.parse("TH")), Card.parse("10♥").ascii
('10♥', 'TH')
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from tutor.refusal import Refusal, RefusedError


class InvalidCardError(RefusedError, ValueError):
    """A card token that does not parse; the message quotes the token and says what is expected,
    and the refusal's ``code`` which part is wrong (``card-rank``, ``card-suit``, ``card-form``:
    not a rank then a suit), with the ``token``."""

    codes = ("card-rank", "card-suit", "card-form")

    def __init__(self, token: str, reason: str, *, code: str) -> None:
        super().__init__(Refusal(code, {"token": token}), f"{token!r} is not a card: {reason}")
        self.token = token
        self.reason = reason


class Suit(Enum):
    """The four suits, with the symbol, the letter and the colour a learner sees."""

    # Members are singletons: identity hashing in C, not Enum's hash of the name in Python.
    __hash__ = object.__hash__

    SPADES = ("♠", "S", "black")
    HEARTS = ("♥", "H", "red")
    DIAMONDS = ("♦", "D", "red")
    CLUBS = ("♣", "C", "black")

    def __init__(self, symbol: str, letter: str, colour: str) -> None:
        self.symbol = symbol
        self.letter = letter
        self.colour = colour

    @property
    def is_red(self) -> bool:
        return self.colour == "red"

    @classmethod
    def parse(cls, text: str) -> Suit:
        for suit in cls:
            if (
                text in (suit.symbol, suit.letter, suit.letter.lower())
                or text == suit.symbol + "\ufe0f"
            ):
                return suit
        raise InvalidCardError(text, "a suit is one of ♠ ♥ ♦ ♣ or S H D C", code="card-suit")


class Rank(Enum):
    """The thirteen ranks. ``value`` is the blackjack value with an Ace counted as 1."""

    # Members are singletons: identity hashing in C, not Enum's hash of the name in Python.
    __hash__ = object.__hash__

    ACE = ("A", 1)
    TWO = ("2", 2)
    THREE = ("3", 3)
    FOUR = ("4", 4)
    FIVE = ("5", 5)
    SIX = ("6", 6)
    SEVEN = ("7", 7)
    EIGHT = ("8", 8)
    NINE = ("9", 9)
    TEN = ("10", 10)
    JACK = ("J", 10)
    QUEEN = ("Q", 10)
    KING = ("K", 10)

    def __init__(self, symbol: str, value: int) -> None:
        self.symbol = symbol
        # ``value`` is taken by Enum; the blackjack value lives in ``points``.
        self.points = value

    @property
    def ascii(self) -> str:
        """The one-letter form used in ``AS TH KD`` notation."""
        return "T" if self is Rank.TEN else self.symbol

    @property
    def is_ten_valued(self) -> bool:
        return self.points == 10

    @property
    def is_face(self) -> bool:
        return self in (Rank.JACK, Rank.QUEEN, Rank.KING)

    @classmethod
    def parse(cls, text: str) -> Rank:
        upper = text.upper()
        # French letters R (roi) and V (valet) are accepted as a courtesy to French teachers;
        # D (dame) is not, because it is the letter of diamonds.
        aliases = {"T": "10", "1": "A", "R": "K", "V": "J"}
        upper = aliases.get(upper, upper)
        for rank in cls:
            if upper == rank.symbol:
                return rank
        raise InvalidCardError(
            text, "a rank is one of A 2 3 4 5 6 7 8 9 10 (or T) J Q K", code="card-rank"
        )

    @classmethod
    def of_value(cls, value: int) -> Rank:
        """The plain rank carrying a value 1..10 (10 gives the ten itself)."""
        if not 1 <= value <= 10:
            raise ValueError(f"a card value is between 1 and 10, not {value}")
        return list(cls)[value - 1]


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. Prints as ``A♠``; ``repr`` rebuilds it."""

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse ``A♠``, ``10♥``, ``AS``, ``TH``, ``kd``; the error names the bad token.

        >>> Card.parse("Q♦")
        Card.parse('Q♦')
        >>> Card.parse("11H")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        tutor.cards.InvalidCardError: '11H' is not a card: a rank is one of A 2 3 ...
        """
        text = token.strip().replace("\ufe0f", "")
        if len(text) < 2:
            raise InvalidCardError(
                token, "write a rank then a suit, such as A♠ or AS", code="card-form"
            )
        rank_text, suit_text = text[:-1], text[-1]
        try:
            rank = Rank.parse(rank_text)
        except InvalidCardError as error:
            raise InvalidCardError(token, error.reason, code=error.code) from None
        try:
            suit = Suit.parse(suit_text)
        except InvalidCardError as error:
            raise InvalidCardError(token, error.reason, code=error.code) from None
        return cls(rank, suit)

    @property
    def points(self) -> int:
        """Blackjack value with an Ace counted as 1."""
        return self.rank.points

    @property
    def ascii(self) -> str:
        return self.rank.ascii + self.suit.letter

    def __str__(self) -> str:
        return self.rank.symbol + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse a space- or comma-separated list of cards in either notation."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(Card.parse(token) for token in tokens)


def parse_ranks(text: str) -> tuple[Rank, ...]:
    """Parse ranks without suits (``A 7``, ``T 6``), as the strategy commands take them.

    A token that carries a suit is accepted too and its suit ignored.
    """
    ranks = []
    for token in text.replace(",", " ").split():
        try:
            ranks.append(Rank.parse(token))
        except InvalidCardError:
            ranks.append(Card.parse(token).rank)
    return tuple(ranks)


def format_cards(cards: Iterable[Card], *, ascii: bool = False) -> str:
    return " ".join(card.ascii if ascii else str(card) for card in cards)


class HandValue(NamedTuple):
    """A hand's best total and whether an Ace is counting 11 in it.

    A named tuple: the engine builds one at every card, and a tuple is the cheapest immutable
    value Python builds.
    """

    total: int
    soft: bool

    @property
    def is_bust(self) -> bool:
        return self.total > 21


def value_of_points(points: Iterable[int]) -> HandValue:
    """Hand value from card values (Ace = 1): all Aces as 1, then add 10 if that stays under 22."""
    hard = 0
    has_ace = False
    for point in points:
        hard += point
        has_ace = has_ace or point == 1
    if has_ace and hard + 10 <= 21:
        return HandValue(hard + 10, True)
    return HandValue(hard, False)


def hand_value(cards: Iterable[Card]) -> HandValue:
    # The same rule as ``value_of_points``, inlined: the engine asks for it at every turn.
    hard = 0
    has_ace = False
    for card in cards:
        point = card.rank.points
        hard += point
        if point == 1:
            has_ace = True
    if has_ace and hard <= 11:
        return HandValue(hard + 10, True)
    return HandValue(hard, False)


def is_natural_cards(cards: Sequence[Card]) -> bool:
    """Two cards, an Ace and a ten-valued card (whether the hand was split is the caller's rule)."""
    if len(cards) != 2:
        return False
    first, second = cards[0].rank.points, cards[1].rank.points
    return first + second == 11 and (first == 1 or second == 1)


def is_pair(cards: Sequence[Card], *, by_value: bool = False) -> bool:
    """Two cards of the same rank (or, as a table variant, of the same value, such as K and 10)."""
    if len(cards) != 2:
        return False
    first, second = cards
    return first.points == second.points if by_value else first.rank is second.rank


#: The 52 cards, built once: cards are immutable values, so every shoe shares these objects.
_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)


def one_deck() -> list[Card]:
    """A new list of the 52 cards (the same card objects each time: they are values)."""
    return list(_DECK)


class ShoeExhaustedError(RefusedError, RuntimeError):
    """No card left to draw, and nothing may be reshuffled: only a scripted shoe can run out."""

    codes = ("shoe-exhausted",)

    def __init__(self, message: str) -> None:
        super().__init__(Refusal("shoe-exhausted"), message)


class Shoe:
    """The cards still to be dealt, the discard tray, and the cards of the round in play.

    A shoe is either *random* (``seed`` makes the shuffles reproducible) or *scripted* (a lesson
    gives the cards in the order they are dealt; random cards follow once the script runs out,
    unless ``strict``). The cards of the round in play are never reshuffled: when a round exhausts
    the shoe, only earlier rounds' discards are shuffled back in, or, when ``spare_deck`` is set
    (the family table's convention with a shuffle after every round), a fresh spare deck is opened.

    Every card is in exactly one place: ``remaining``, ``in_play`` or ``discards`` (plus spare decks
    once opened), which the property tests check.
    """

    def __init__(
        self,
        decks: int = 1,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        script: Sequence[Card] | str | None = None,
        strict: bool = False,
        penetration: float | None = None,
        spare_deck: bool = False,
    ) -> None:
        if not 1 <= decks <= 8:
            raise ValueError(f"a shoe holds 1 to 8 decks, not {decks}")
        if penetration is not None and not 0.1 <= penetration <= 0.95:
            raise ValueError(
                f"the cut card goes between 10% and 95% of the shoe, not {penetration}"
            )
        self.decks = decks
        self.rng = rng if rng is not None else random.Random(seed)
        self.penetration = penetration
        self.spare_deck = spare_deck
        self.strict = strict
        self.spare_decks_opened = 0
        self.shuffles = 0
        # The undealt cards, in no order: each draw picks one uniformly at random (a Fisher-Yates
        # shuffle done one card at a time), so a shuffle costs nothing until cards are dealt, which
        # matters at tables that shuffle after every round.
        self._cards: list[Card] = list(_DECK) * decks
        self.shuffles += 1
        # A script is stored reversed, dealt from the end (pop is O(1)).
        self._script: list[Card] = []
        if script is not None:
            self.load_script(parse_cards(script) if isinstance(script, str) else script)
        self.in_play: list[Card] = []
        self.discards: list[Card] = []
        self._cut_index = self._cut_position()

    # -- scripting --
    def load_script(self, cards: Sequence[Card]) -> None:
        """Put these cards on top of the shoe, in dealing order, taking them out of the shoe.

        Raises ``ValueError`` naming the card when the shoe does not hold that many copies.
        """
        pool = Counter(self._cards)
        for card in cards:
            if pool[card] == 0:
                raise ValueError(
                    f"the script asks for more copies of {card} than {self.decks} deck(s) hold"
                )
            pool[card] -= 1
        for card in cards:
            self._cards.remove(card)
        self._script = list(reversed(cards)) + self._script

    @property
    def scripted_left(self) -> int:
        return len(self._script)

    # -- dealing --
    def draw(self) -> Card:
        if self._script:
            card = self._script.pop()
        else:
            if self.strict:
                raise ShoeExhaustedError("the scripted cards ran out and this shoe deals no others")
            if not self._cards:
                self._refill_during_round()
            cards = self._cards
            # random() * n has a bias below n / 2**53 (under 1e-13 for a shoe): far cheaper than
            # randrange, and invisible in any count a learner or a test could make.
            index = int(self.rng.random() * len(cards))
            card = cards[index]
            cards[index] = cards[-1]
            cards.pop()
        self.in_play.append(card)
        return card

    def __len__(self) -> int:
        return len(self._cards) + len(self._script)

    @property
    def remaining(self) -> list[Card]:
        """The undealt cards: the scripted ones in dealing order, then the rest in no order.

        The order of the random part is not decided until each card is drawn.
        """
        return list(reversed(self._script)) + list(self._cards)

    def remaining_points(self) -> Counter[int]:
        """How many cards of each value (Ace = 1) are still to come: what the strategy needs."""
        return Counter(card.points for card in self.remaining)

    @property
    def total_cards(self) -> int:
        return (self.decks + self.spare_decks_opened) * 52

    def needs_shuffle(self) -> bool:
        """Whether the cut card has come out (always false for a shoe shuffled every round)."""
        return self.penetration is not None and len(self._cards) <= self._cut_index

    def end_round(self, *, shuffle: bool) -> None:
        """Move the round's cards to the discards; shuffle everything back when asked."""
        self.discards.extend(self.in_play)
        self.in_play.clear()
        if shuffle:
            self.shuffle()

    def shuffle(self) -> None:
        """Gather the discards and the undealt cards and shuffle (never the round in play).

        A spare deck opened during a round served that round only (the family booklet announces
        it for a round that runs the pack dry): the shuffle puts it away, and the next round is
        dealt from the shoe's own decks again.
        """
        if self.in_play:
            raise RuntimeError("cannot shuffle the cards of a round in play")
        self._cards.extend(self.discards)
        self.discards.clear()
        if self.spare_decks_opened:
            self._put_spare_decks_away()
        self.shuffles += 1
        self._cut_index = self._cut_position()

    def _put_spare_decks_away(self) -> None:
        """Keep ``decks`` copies of each card, counting those a script still holds for later.

        A script loaded while a spare deck was open may hold more copies of a card than the
        shoe's own decks: then the spare stays until a shuffle after those cards are dealt.
        """
        keep = Counter(dict.fromkeys(_DECK, self.decks))
        keep.subtract(Counter(self._script))
        if min(keep.values()) < 0:
            return
        cards: list[Card] = []
        for card in self._cards:
            if keep[card] > 0:
                keep[card] -= 1
                cards.append(card)
        self._cards = cards
        self.spare_decks_opened = 0

    def _cut_position(self) -> int:
        if self.penetration is None:
            return 0
        return round(len(self._cards) * (1 - self.penetration))

    def _refill_during_round(self) -> None:
        if self.spare_deck or not self.discards:
            self.spare_decks_opened += 1
            self._cards.extend(one_deck())
            self.shuffles += 1
            return
        self._cards.extend(self.discards)
        self.discards.clear()
        self.shuffles += 1

    def __iter__(self) -> Iterator[Card]:
        return iter(self.remaining)
