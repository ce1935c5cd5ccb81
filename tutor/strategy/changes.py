"""What one table rule changes in the basic-strategy chart, by how much, and why, in figures.

A learner who flips one option of the table (the dealer hits soft 17, one deck instead of six, no
hole card...) should see which cells of the chart change, what the change is worth per bet, and
the reason. The reason is never a typed-in sentence with typed-in numbers: this module gives, for
each changed cell, the expected values behind both charts and one computed *fact* about the
option that moved them (how often the dealer busts against that up-card under each rule, what
share of the cards left are tens once this hand and the up-card are out, how often the dealer's
hidden card makes a natural). The interface turns those into sentences in the learner's language.

Everything comes from :func:`tutor.strategy.chart` and the dealer's probabilities: nothing here
decides a play, it only sets two computed charts side by side.

>>> from tutor.rules import PRESETS
>>> s17 = PRESETS["american-s17"]
>>> [flip.key for flip in flips(s17)][:3]
['soft-17', 'double-after-split', 'decks-1']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import lru_cache

from tutor.cell import Cell, up_value
from tutor.decision import Action
from tutor.rules import DoubleOn, HoleCard, InvalidRulesError, Surrender, TableRules
from tutor.strategy.chart import Chart, chart
from tutor.strategy.dealer import Composition, full_shoe
from tutor.strategy.solution import solve

#: The chart's tables a rule can change (the surrender table only repeats cells of these).
TABLES: tuple[str, ...] = ("hard", "soft", "pairs")
#: The deck counts a learner may flip to (the sources' shoes, and one of each size between).
DECK_CHOICES: tuple[int, ...] = (1, 2, 6, 8)


class Option(Enum):
    """A table rule that can change a play or the house edge, named by its ``TableRules`` field."""

    SOFT_17 = "dealer_hits_soft_17"
    DOUBLE_AFTER_SPLIT = "double_after_split"
    DECKS = "decks"
    HOLE_CARD = "hole_card"
    SURRENDER = "surrender"
    #: A casino's house rule refusing surrender against a dealer Ace (no source states it).
    SURRENDER_AGAINST_ACE = "surrender_against_ace"
    DOUBLE_ON = "double_on"
    SPLIT_HANDS = "max_hands"
    PAYOUT = "blackjack_pays"
    SPLIT_BY_VALUE = "split_by_value"
    RESPLIT_ACES = "resplit_aces"
    SPLIT_ACES_ONE_CARD = "split_aces_one_card"
    BONUS = "ace_of_spades_black_jack_pays"


#: Fields that never change an expected value of the first round or a play of the chart: the
#: shuffle, the insurance bet (not a chart decision), how a double is dealt, names.
_NEUTRAL = frozenset(
    {
        "name", "source", "shuffle", "penetration", "spare_deck", "double_face_down", "insurance",
        "insurance_max", "insurance_forbids_double_split", "insure_additional_bets", "even_money",
        # Who holds the bank in a home game: the same hands, the same plays, whoever deals.
        "bank_rotation",
    }
)


@dataclass(frozen=True)
class Flip:
    """One option of a table changed: the rules a learner can compare with their own."""

    #: A stable name for the page's widgets and tests: ``soft-17``, ``decks-1``...
    key: str
    option: Option
    rules: TableRules

    @property
    def value(self) -> object:
        """The option's value in the changed rules (``True``, ``1``, ``HoleCard.EUROPEAN``...)."""
        return getattr(self.rules, self.option.value)


def _variant(rules: TableRules, **changes: object) -> TableRules | None:
    """``rules`` with these changes, or None where the combination cannot exist at a table."""
    try:
        return rules.replace(**changes)
    except InvalidRulesError:
        return None


def flips(rules: TableRules) -> tuple[Flip, ...]:
    """Every single-option change of ``rules`` a learner can try, each a valid table.

    Where one option drags a dependent one (no hole card means nothing left to insure beyond the
    bet; two hands at most means no resplit of Aces), the dependent one follows, so each flip
    still reads as one rule changed.

    >>> from tutor.rules import PRESETS
    >>> family = PRESETS["family"]
    >>> [f.key for f in flips(family) if f.option is Option.DECKS]
    ['decks-2', 'decks-6', 'decks-8']
    >>> next(f for f in flips(family) if f.key == "soft-17").rules.dealer_hits_soft_17
    True
    """
    found: list[tuple[str, Option, TableRules | None]] = [
        ("soft-17", Option.SOFT_17,
         _variant(rules, dealer_hits_soft_17=not rules.dealer_hits_soft_17)),
    ]
    if rules.can_split:
        found.append(("double-after-split", Option.DOUBLE_AFTER_SPLIT,
                      _variant(rules, double_after_split=not rules.double_after_split)))
    found += [
        (f"decks-{n}", Option.DECKS, _variant(rules, decks=n))
        for n in DECK_CHOICES if n != rules.decks
    ]
    if rules.hole_card is HoleCard.AMERICAN:
        hole = _variant(rules, hole_card=HoleCard.EUROPEAN)
    else:
        hole = _variant(rules, hole_card=HoleCard.AMERICAN, insure_additional_bets=False)
    found.append(("hole-card", Option.HOLE_CARD, hole))
    surrender = Surrender.LATE if rules.surrender is Surrender.NONE else Surrender.NONE
    found.append(("surrender", Option.SURRENDER, _variant(rules, surrender=surrender)))
    if rules.offers_surrender:
        found.append(("surrender-ace", Option.SURRENDER_AGAINST_ACE,
                      _variant(rules, surrender_against_ace=not rules.surrender_against_ace)))
    double_on = DoubleOn.NINE_TO_ELEVEN if rules.double_on is DoubleOn.ANY_TWO else DoubleOn.ANY_TWO
    found.append(("double-on", Option.DOUBLE_ON, _variant(rules, double_on=double_on)))
    if rules.max_hands >= 4:
        hands = _variant(rules, max_hands=2, resplit_aces=False)
    else:
        hands = _variant(rules, max_hands=4)
    found.append(("split-hands", Option.SPLIT_HANDS, hands))
    pays = Fraction(6, 5) if rules.blackjack_pays == Fraction(3, 2) else Fraction(3, 2)
    found.append(("payout", Option.PAYOUT, _variant(rules, blackjack_pays=pays)))
    return tuple(
        Flip(key, option, variant)
        for key, option, variant in found
        if variant is not None and variant != rules
    )


def differing_options(before: TableRules, after: TableRules) -> tuple[Option, ...]:
    """The options (in ``Option`` order) whose values differ and that can change a play or the
    edge; the shuffle, insurance and names are left out, as they change neither."""
    changed = {
        f.name for f in dataclasses.fields(before)
        if f.name not in _NEUTRAL and getattr(before, f.name) != getattr(after, f.name)
    }
    return tuple(option for option in Option if option.value in changed)


# -- the facts a reason is built from ------------------------------------------------------------


@dataclass(frozen=True)
class DealerBust:
    """How often the dealer busts, and stops on 17, against this up-card (1 = Ace) under each
    rule set, after the check for a natural where the dealer checks: the reason soft 17 moves
    plays (a dealer who hits soft 17 busts more, and stops on 17 less)."""

    up: int
    before: float
    after: float
    seventeen_before: float
    seventeen_after: float


@dataclass(frozen=True)
class TenShare:
    """The share of ten-valued cards among the cards left once this cell's two-card hands and
    the up-card are out, averaged over the hands as the chart weighs them, for each shoe: the
    reason the number of decks moves plays (a small shoe feels the cards already on the table)."""

    before: float
    after: float
    decks_before: int
    decks_after: int


@dataclass(frozen=True)
class DealerNatural:
    """How often the dealer's hidden card makes a natural under this up-card (before any check):
    the extra bet of a double or a split is lost to it when there is no hole card to check."""

    up: int
    probability: float
    #: Whether the rules after the change check for it first (a hole card).
    checked_after: bool


Fact = DealerBust | TenShare | DealerNatural


@dataclass(frozen=True)
class CellChange:
    """One cell of the chart whose play changes, with the values behind both codes."""

    table: str
    row: str
    column: str
    before: str
    after: str
    evs_before: Mapping[Action, float]
    evs_after: Mapping[Action, float]
    #: The two plays whose order the change swapped: the old chart's and the new one's (for a
    #: ``D`` that becomes ``Ds``, hit and stand: what to do when doubling is not possible).
    old_play: Action
    new_play: Action
    #: The computed fact behind the change, when one option changed and it has one.
    fact: Fact | None

    @property
    def up(self) -> int:
        """The up-card's value, 1 for an Ace."""
        return up_value(self.column)

    @property
    def gain(self) -> float | None:
        """What the new play is worth over the old one under the new rules, per bet (None when
        the new rules no longer allow the old play: surrender taken away, say)."""
        if self.old_play not in self.evs_after or self.new_play not in self.evs_after:
            return None
        return self.evs_after[self.new_play] - self.evs_after[self.old_play]

    @property
    def value_change(self) -> float:
        """How much the cell's best play is worth after the change minus before, per bet."""
        return max(self.evs_after.values()) - max(self.evs_before.values())


@dataclass(frozen=True)
class Comparison:
    """Two rule sets side by side: their house edges and every cell whose play differs."""

    before: TableRules
    after: TableRules
    options: tuple[Option, ...]
    edge_before: float
    edge_after: float
    cells: tuple[CellChange, ...]

    @property
    def option(self) -> Option | None:
        """The one option that differs, or None when several do (or none that matters)."""
        return self.options[0] if len(self.options) == 1 else None


def _best(evs: Mapping[Action, float]) -> Action:
    return max(evs, key=evs.__getitem__)


def _fallback(evs: Mapping[Action, float], first: Action) -> Action:
    """What the chart plays when its first choice cannot be made (a ``D``'s hit, an ``Rp``'s
    split): the best of hit, stand and, behind a surrender, split."""
    options = (Action.HIT, Action.STAND) + ((Action.SPLIT,) if first is Action.SURRENDER else ())
    rest = {a: ev for a, ev in evs.items() if a in options and a is not first}
    return _best(rest) if rest else first


def plays_swapped(
    evs_before: Mapping[Action, float], evs_after: Mapping[Action, float]
) -> tuple[Action, Action]:
    """The old and the new play of a cell whose code changed: the best actions if they differ,
    else the fallbacks (a ``D`` becoming ``Ds`` keeps doubling and swaps hit for stand).

    >>> before = {Action.HIT: 0.1, Action.STAND: 0.0, Action.DOUBLE: 0.2}
    >>> after = {Action.HIT: 0.1, Action.STAND: 0.15, Action.DOUBLE: 0.2}
    >>> [a.value for a in plays_swapped(before, after)]
    ['hit', 'stand']
    """
    old, new = _best(evs_before), _best(evs_after)
    if old is not new:
        return old, new
    return _fallback(evs_before, old), _fallback(evs_after, new)


def row_hands(table: str, row: str) -> tuple[tuple[int, int], ...]:
    """The two-card hands (card values, Ace = 1) a chart row stands for, as the chart groups
    them: a pair its own row, a hard total its unpaired hands (hard 20 only 10-10), a soft
    total an Ace and a card. Rows no two cards make (21) have none.

    >>> row_hands("hard", "9")
    ((2, 7), (3, 6), (4, 5))
    >>> row_hands("soft", "18"), row_hands("pairs", "A,A"), row_hands("hard", "21")
    (((1, 7),), ((1, 1),), ())
    """
    if table == "pairs":
        value = Cell.from_chart(table, row, 1).row  # the pair card's value, any column
        return ((value, value),)
    total = int(row)
    if table == "soft":
        return ((1, total - 11),) if 2 <= total - 11 <= 9 else ()
    unpaired = tuple((a, total - a) for a in range(2, 11) if a < total - a <= 10)
    if unpaired:
        return unpaired
    return ((total // 2, total // 2),) if total % 2 == 0 and 2 <= total // 2 <= 10 else ()


def ten_share(shoe: Composition, up: int, hands: tuple[tuple[int, int], ...]) -> float | None:
    """The share of tens among the cards left once the up-card and the hand are out, averaged
    over ``hands`` weighted by how likely each is dealt from ``shoe`` (None without a hand).

    >>> round(ten_share(full_shoe(1), 1, ((5, 6),)), 4)  # 16 tens in the 49 cards left
    0.3265
    """
    weighted = total_weight = 0.0
    for first, second in hands:
        left = list(shoe)
        left[up - 1] -= 1
        weight = 1.0
        cards = sum(left)
        for value in (first, second):
            weight *= max(left[value - 1], 0) / cards
            left[value - 1] -= 1
            cards -= 1
        if weight <= 0:
            continue
        weight *= 1 if first == second else 2
        weighted += weight * left[9] / cards
        total_weight += weight
    return weighted / total_weight if total_weight else None


def _fact(
    option: Option | None, before: TableRules, after: TableRules, table: str, row: str, up: int
) -> Fact | None:
    from tutor.strategy import dealer_probabilities

    if option is Option.SOFT_17:
        first, second = dealer_probabilities(before, up), dealer_probabilities(after, up)
        return DealerBust(up, first.bust, second.bust, first.total(17), second.total(17))
    if option is Option.DECKS:
        hands = row_hands(table, row)
        share_before = ten_share(full_shoe(before.decks), up, hands)
        share_after = ten_share(full_shoe(after.decks), up, hands)
        if share_before is None or share_after is None:
            return None
        return TenShare(share_before, share_after, before.decks, after.decks)
    if option is Option.HOLE_CARD and up in (1, 10):
        natural = dealer_probabilities(before, up, after_peek=False).natural
        return DealerNatural(up, natural, after.dealer_peeks)
    return None


def cell_changes(
    first: Chart, second: Chart, option: Option | None = None
) -> tuple[CellChange, ...]:
    """Every cell whose code differs from ``first`` to ``second``, in the chart's order, with
    the fact behind it when ``option`` is the one rule that changed."""
    out = []
    # The dealer's figures depend on the up-card only: computed once per up-card, not per cell.
    facts: dict[tuple[str, str, int], Fact | None] = {}
    for table in TABLES:
        a, b = first.tables()[table], second.tables()[table]
        for row in a.index:
            if row not in b.index:
                continue
            for column in a.columns:
                before, after = str(a.at[row, column]), str(b.at[row, column])
                if before == after:
                    continue
                key = (table, str(row), str(column))
                evs_before, evs_after = first.evs.get(key, {}), second.evs.get(key, {})
                if not evs_before or not evs_after:
                    continue
                old, new = plays_swapped(evs_before, evs_after)
                up = up_value(str(column))
                where = (table, str(row), up) if option is Option.DECKS else ("", "", up)
                if where not in facts:
                    facts[where] = _fact(option, first.rules, second.rules, table, str(row), up)
                fact = facts[where]
                out.append(
                    CellChange(table, str(row), str(column), before, after, evs_before,
                               evs_after, old, new, fact)
                )
    return tuple(out)


@lru_cache(maxsize=64)
def compare(before: TableRules, after: TableRules) -> Comparison:
    """Both rule sets solved (each once per process, see :func:`tutor.strategy.solve`), set side
    by side: the house edges and the cells that change, with their facts. Kept per pair of rule
    sets (the result is immutable), so flipping back to a rule already tried costs nothing.

    >>> from tutor.rules import PRESETS
    >>> s17 = PRESETS["american-s17"]
    >>> found = compare(s17, s17.replace(dealer_hits_soft_17=True))
    >>> found.option is Option.SOFT_17, found.edge_after > found.edge_before
    (True, True)
    >>> soft_18 = next(c for c in found.cells if (c.table, c.row, c.column) == ("soft", "18", "2"))
    >>> soft_18.before, soft_18.after, soft_18.fact.after > soft_18.fact.before
    ('S', 'Ds', True)
    """
    options = differing_options(before, after)
    option = options[0] if len(options) == 1 else None
    first, second = chart(before), chart(after)
    return Comparison(
        before, after, options, solve(before).house_edge(), solve(after).house_edge(),
        cell_changes(first, second, option),
    )
