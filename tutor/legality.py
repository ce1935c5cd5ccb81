"""What the table's rules allow on a hand: the rule half of every refusal, stated once.

Why a module of its own: the engine (``tutor.game``) must refuse a double on 12 at a table that
doubles only on 9 to 11, and the strategy (``tutor.strategy``) must not value that double when it
builds a chart. If each decided for itself, the two could drift apart and the tutor would praise a
play the table forbids. Both call these functions instead. They are pure: they look at the rules
and at the shape of the hand, never at chips. Whether a seat can *pay* for a double or a split is
the engine's other half (``Round._funds_refusal``), since only a round knows the stacks.

A refusal is a code and its parameters (``tutor.game.REFUSALS`` and the interface's catalogue turn
it into a sentence), or None when the rules allow the action.

>>> from tutor.rules import PRESETS
>>> rules = PRESETS["france-before-2007"]
>>> double_refusal(rules, cards=2, total=12, soft=False, from_split=False)
('double-total', {'allowed': '9-11', 'total': 12})
>>> double_refusal(rules, cards=2, total=10, soft=False, from_split=False) is None
True
"""

from __future__ import annotations

from typing import Any

from tutor.rules import TableRules

#: What a rule check answers: why the action is refused, as a code and its parameters, or None
#: when the rules allow it. A pair, not the ``tutor.refusal.Refusal`` value an error carries:
#: the engine builds that value from this pair when it raises (``IllegalActionError``).
Refused = tuple[str, dict[str, Any]] | None


def hit_refusal(rules: TableRules, *, split_aces: bool = False) -> Refused:
    """Split Aces take one card each where the table says so; any other hand may draw."""
    if split_aces and rules.split_aces_one_card:
        return "split-aces-one-card", {}
    return None


def double_refusal(
    rules: TableRules,
    *,
    cards: int,
    total: int,
    soft: bool,
    from_split: bool,
    split_aces: bool = False,
    insured: bool = False,
) -> Refused:
    """Doubling: on the first two cards only, after a split only where allowed, on the totals
    the table names, and not after insurance at the tables that forbid it."""
    if cards != 2:
        return "double-two-cards", {}
    if from_split and not rules.double_after_split:
        return "no-double-after-split", {"table": rules.name}
    if split_aces and rules.split_aces_one_card:
        return "split-aces-one-card", {}
    if not rules.double_on.allows(total, soft=soft):
        return "double-total", {"allowed": rules.double_on.value, "total": total}
    if insured and rules.insurance_forbids_double_split:
        return "insured-no-double", {}
    return None


def split_refusal(
    rules: TableRules,
    *,
    pair: bool,
    hands_in_seat: int,
    split_aces: bool = False,
    insured: bool = False,
) -> Refused:
    """Splitting: a pair (by rank, or by value where the table says so), while the seat has room
    for another hand, Aces again only where resplitting them is allowed, not after insurance at
    the tables that forbid it. ``pair`` is the caller's reading of the two cards with
    ``tutor.cards.is_pair(cards, by_value=rules.split_by_value)``."""
    if not pair:
        return "split-pair", {"by": "value" if rules.split_by_value else "rank"}
    if not rules.can_split:
        return "no-split", {}
    if hands_in_seat >= rules.max_hands:
        return "max-hands", {"max_hands": rules.max_hands}
    if split_aces and not rules.resplit_aces:
        return "no-resplit-aces", {}
    if insured and rules.insurance_forbids_double_split:
        return "insured-no-split", {}
    return None


def surrender_refusal(
    rules: TableRules, *, cards: int, from_split: bool, hands_in_seat: int, dealer_up: int
) -> Refused:
    """Surrender: where the table offers it, on the first two cards of an unsplit hand, against
    any up-card unless the table's house rule refuses it against a dealer Ace
    (``TableRules.surrender_against_ace``; no source of the course states that rule: the French
    casinos' immediate surrender of ``001`` is offered whatever the bank shows). ``dealer_up``
    is the up-card's value, Ace = 1, as the strategy counts it: the up-card is part of the rule,
    so both the engine and the strategy must pass it.

    >>> from tutor.rules import PRESETS
    >>> french = PRESETS["french-casino"]
    >>> surrender_refusal(french, cards=2, from_split=False, hands_in_seat=1, dealer_up=1) is None
    True
    >>> house = french.replace(surrender_against_ace=False)
    >>> surrender_refusal(house, cards=2, from_split=False, hands_in_seat=1, dealer_up=1)
    ('no-surrender-ace', {'table': 'french-casino'})
    """
    if not rules.offers_surrender:
        return "no-surrender", {}
    if cards != 2 or from_split or hands_in_seat != 1:
        return "surrender-first", {}
    if dealer_up == 1 and not rules.surrender_against_ace:
        return "no-surrender-ace", {"table": rules.name}
    return None
