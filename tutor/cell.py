"""A cell: a hand against an up-card, as the chart, the quiz, the judge and the simulator name it.

Why a type: the same thing used to travel as chart labels (``"pairs"``, ``"8,8"``, ``"A"``), quiz
item keys (``"pairs:8-8:A"``, ``"soft:s18:9"``) and the simulator's integer triples, and three
functions decided which cell a hand was in. They disagreed when a pair could not be split (a
seat already holding its most hands, split Aces, a table refusing a split after insurance): the
row a learner's miss was filed under, the row the judge graded and the cell the simulator
changed could be three different rows. :meth:`Cell.of` is now the one decision, and every
spelling of a cell is read and written here, the Ace's ``"A"`` for the value 1 included.

**The one decision.** A two-card hand of one value is read in its pair's row while splitting it
is legal; otherwise in the row of its total, hard or soft, as the chart has it. The only pairs
whose total the chart has no row for are 2-2 (hard 4) and A-A (soft 12): they keep their pair's
row, whose figures for hitting, standing and doubling are those of these very cards.

**Spellings.** ``str()`` is the quiz's item key, as learners' stored progress holds it
(``hard:16:10``, ``soft:s18:9``, ``pairs:8-8:A``); :meth:`Cell.parse` reads it back and refuses
anything else with a sentence. The chart's labels are :attr:`Cell.key` (``("pairs", "8,8",
"A")``) and :meth:`Cell.from_chart`.

>>> cell = Cell.parse("pairs:8-8:A")
>>> cell
Cell.parse('pairs:8-8:A')
>>> str(cell), cell.key, cell.total
('pairs:8-8:A', ('pairs', '8,8', 'A'), 16)
>>> str(Cell(Kind.SOFT, 18, 9)), Cell.from_chart("hard", "16", "10")
('soft:s18:9', Cell.parse('hard:16:10'))
>>> Cell.parse("pairs:8-8:1")
Traceback (most recent call last):
...
tutor.cell.InvalidCellError: 'pairs:8-8:1' is not a cell: an up-card is written 2 to 10 or A
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from tutor.cards import Card, Rank, hand_value
from tutor.decision import Action, DecisionPoint
from tutor.refusal import Refusal, RefusedError


class Kind(Enum):
    """The chart's three tables: hard totals, soft totals, pairs."""

    HARD = "hard"
    SOFT = "soft"
    PAIRS = "pairs"


#: The dealer's up-cards in the chart's column order, as the columns and item keys write them.
UP_LABELS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")

#: The rows the chart draws, in its order: hard 5 to 21, soft 13 to 21, pairs 2-2 to 10-10 then
#: A-A (a pair row holds its card's value, 1 for the Aces).
CHART_ROWS: dict[Kind, tuple[int, ...]] = {
    Kind.HARD: tuple(range(5, 22)),
    Kind.SOFT: tuple(range(13, 22)),
    Kind.PAIRS: (*range(2, 11), 1),
}

#: The rows a cell may hold: the chart's, and hard 4 and soft 12, which progress stored before
#: 2-2 and A-A that could not be split were read in their pair's row (their keys still parse).
_ROWS: dict[Kind, range] = {
    Kind.HARD: range(4, 22),
    Kind.SOFT: range(12, 22),
    Kind.PAIRS: range(1, 11),
}


class InvalidCellError(RefusedError, ValueError):
    """Text that does not spell a cell; the message quotes it and says what a cell looks like.
    One code, ``cell`` with the ``text``: the spellings are the program's (item keys, chart
    labels), so what a person needs is which text was refused; the message says how it fails."""

    codes = ("cell",)

    def __init__(self, text: str, why: str) -> None:
        super().__init__(Refusal("cell", {"text": text}), f"{text!r} is not a cell: {why}")
        self.text = text
        self.why = why


def up_label(points: int) -> str:
    """An up-card's value (1 for an Ace) as the chart's columns and item keys write it.

    >>> up_label(1), up_label(10)
    ('A', '10')
    """
    return Rank.of_value(points).symbol


def up_value(label: str) -> int:
    """The value (1 for an Ace) of an up-card written as a column or an item key writes it.

    >>> up_value("A"), up_value("7")
    (1, 7)
    """
    if label not in UP_LABELS:
        raise InvalidCellError(label, "an up-card is written 2 to 10 or A")
    return Rank.parse(label).points


def parse_hand(text: str) -> tuple[Kind, int]:
    """The table and row of a hand as an item key writes it: ``16`` hard, ``s18`` soft, ``8-8``
    and ``A-A`` pairs.

    >>> parse_hand("s18"), parse_hand("A-A")
    ((<Kind.SOFT: 'soft'>, 18), (<Kind.PAIRS: 'pairs'>, 1))
    """
    if "-" in text:
        first, _, second = text.partition("-")
        if first != second or first not in UP_LABELS:
            raise InvalidCellError(text, "a pair is written 2-2 to 10-10 or A-A")
        return Kind.PAIRS, up_value(first)
    kind, row = (Kind.SOFT, text[1:]) if text.startswith("s") else (Kind.HARD, text)
    if not (row.isascii() and row.isdigit()):
        raise InvalidCellError(text, "a hand is written as a hard total (16), s and a soft "
                                     "total (s18), or a pair (8-8, A-A)")
    if int(row) not in _ROWS[kind]:
        low, high = _ROWS[kind][0], _ROWS[kind][-1]
        prefix = "s" if kind is Kind.SOFT else ""
        raise InvalidCellError(text, f"a {kind.value} total is written {prefix}{low} to "
                                     f"{prefix}{high}")
    return kind, int(row)


@dataclass(frozen=True, repr=False)
class Cell:
    """A hand against an up-card: one cell of the basic-strategy chart. ``repr`` rebuilds it."""

    kind: Kind
    #: The hand's total for a hard or soft row, the card's value for a pair (1 for the Aces).
    row: int
    #: The dealer's up-card, by value (1 for an Ace).
    up: int

    def __post_init__(self) -> None:
        if not isinstance(self.kind, Kind):
            raise TypeError(f"a cell's kind is a Kind, not {self.kind!r}")
        if self.row not in _ROWS[self.kind]:
            raise ValueError(f"no {self.kind.value} row {self.row!r}")
        if self.up not in range(1, 11):
            raise ValueError(f"an up-card's value is 1 (an Ace) to 10, not {self.up!r}")

    # -- the one decision ---------------------------------------------------------------------

    @classmethod
    def of(cls, point: DecisionPoint) -> Cell:
        """The cell of a decision on a hand: its pair's row while splitting it is legal here,
        else its total's row (2-2 and A-A, which have none, keep the pair's). Raises
        ``ValueError`` for an insurance decision, which is about the dealer's card, not a cell.

        >>> from tutor.rules import PRESETS
        >>> from tutor.cards import parse_cards
        >>> eights, ten = parse_cards("8♠ 8♥"), Card.parse("10♦")
        >>> str(Cell.of(DecisionPoint(eights, ten, PRESETS["family"],
        ...     frozenset({Action.HIT, Action.STAND, Action.SPLIT}))))
        'pairs:8-8:10'
        >>> str(Cell.of(DecisionPoint(eights, ten, PRESETS["family"],
        ...     frozenset({Action.HIT, Action.STAND}), hands_in_seat=2, from_split=True)))
        'hard:16:10'
        """
        if point.is_insurance_decision:
            raise ValueError("an insurance decision is in no cell of the chart")
        return cls.of_hand(point.cards, point.dealer_up, splittable=Action.SPLIT in point.legal)

    @classmethod
    def of_hand(cls, cards: Sequence[Card], dealer_up: Card, *, splittable: bool) -> Cell:
        """The cell of these cards against ``dealer_up``, ``splittable`` saying whether they may
        be split at this moment (what :meth:`of` reads from the legal actions)."""
        up = dealer_up.points
        pair = len(cards) == 2 and cards[0].points == cards[1].points
        value = hand_value(cards)
        kind = Kind.SOFT if value.soft else Kind.HARD
        if pair and (splittable or value.total not in CHART_ROWS[kind]):
            return cls(Kind.PAIRS, cards[0].points, up)
        return cls(kind, value.total, up)

    @classmethod
    def of_total(cls, cards: Sequence[Card], dealer_up: Card) -> Cell:
        """The row of these cards' total, hard or soft, a pair's too (what the chart says for the
        total when the cards held are not the row's usual ones)."""
        value = hand_value(cards)
        return cls(Kind.SOFT if value.soft else Kind.HARD, value.total, dealer_up.points)

    # -- spellings ----------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> Cell:
        """Read an item key (``str()``'s format); ``InvalidCellError`` says what is wrong."""
        prefix, cell = cls.parse_item(text)
        if prefix not in {kind.value for kind in Kind}:
            raise InvalidCellError(text, "a cell begins with hard, soft or pairs")
        return cell

    @classmethod
    def parse_item(cls, text: str) -> tuple[str, Cell]:
        """Read a quiz item of a cell under any category (``surrender:16:10``,
        ``doubling:s18:5``): the category's name and the cell. The hand says the table; a
        category that names one (hard, soft, pairs) must agree with it.

        >>> Cell.parse_item("surrender:8-8:A")
        ('surrender', Cell.parse('pairs:8-8:A'))
        """
        if len(text) > 40:
            raise InvalidCellError(text[:40] + "…", "a cell is at most a few characters")
        parts = text.split(":")
        if len(parts) != 3 or not all(parts):
            raise InvalidCellError(text, "a cell is written table:hand:up-card, as hard:16:10, "
                                         "soft:s18:9 or pairs:8-8:A")
        prefix, hand, up = parts
        try:
            kind, row = parse_hand(hand)
            cell = cls(kind, row, up_value(up))
        except InvalidCellError as error:
            raise InvalidCellError(text, error.why) from None
        if prefix in {kind.value for kind in Kind} and prefix != kind.value:
            raise InvalidCellError(text, f"{hand} is a hand of the {kind.value} table, "
                                         f"not of {prefix}")
        return prefix, cell

    def __str__(self) -> str:
        return self.item(self.kind.value)

    def __repr__(self) -> str:
        return f"Cell.parse({str(self)!r})"

    def item(self, category: str) -> str:
        """The quiz item of this cell under ``category`` (``surrender:16:10``)."""
        return f"{category}:{self.hand}:{self.column}"

    @property
    def hand(self) -> str:
        """The hand as an item key writes it: ``16``, ``s18``, ``8-8``, ``A-A``."""
        if self.kind is Kind.PAIRS:
            card = up_label(self.row)
            return f"{card}-{card}"
        return f"s{self.row}" if self.kind is Kind.SOFT else str(self.row)

    @property
    def column(self) -> str:
        """The up-card as the chart's column (and an item key) writes it: ``2`` to ``10``,
        ``A``."""
        return up_label(self.up)

    @property
    def label(self) -> str:
        """The chart's row label: ``16``, ``18`` (in the soft table), ``8,8``, ``A,A``."""
        if self.kind is Kind.PAIRS:
            card = up_label(self.row)
            return f"{card},{card}"
        return str(self.row)

    @property
    def key(self) -> tuple[str, str, str]:
        """The chart's key of this cell: (table, row label, column label)."""
        return (self.kind.value, self.label, self.column)

    @classmethod
    def from_chart(cls, table: str, row: str | int, column: str | int) -> Cell:
        """The cell of the chart's labels (``"pairs", "A,A", "10"``); an up-card may also be
        given by its value (1 for an Ace), a total as a number."""
        try:
            kind = Kind(table)
        except ValueError:
            raise InvalidCellError(table, "a chart's table is hard, soft or pairs") from None
        text = str(row)
        if kind is Kind.PAIRS:
            first, _, second = text.partition(",")
            if first != second or first not in UP_LABELS:
                raise InvalidCellError(text, "a pair row is written 2,2 to 10,10 or A,A")
            number = up_value(first)
        else:
            number = parse_hand(("s" if kind is Kind.SOFT else "") + text)[1]
        up = column if isinstance(column, int) else up_value(column)
        return cls(kind, number, up)

    @property
    def total(self) -> int:
        """The hand's total: the row's, or a pair's two cards (12 for two Aces)."""
        if self.kind is Kind.PAIRS:
            return 12 if self.row == 1 else 2 * self.row
        return self.row

    @property
    def in_chart(self) -> bool:
        """Whether the chart draws this row (every cell :meth:`of` gives is in it)."""
        return self.row in CHART_ROWS[self.kind]
