"""Dealing a question of a category at a table: from a real shuffled shoe, played by a real
``Round`` up to the decision (so the legal actions are the engine's), or a question on one
chart cell (a learner's missed hand, dealt again), a hand's total, or a settled payout.

A module of its own because dealing is the engine's side of a drill: which hands a category can
reach at a table (``dealable``), how many shuffles to try, and how a totals or payouts question
reads its answer off the engine; judging and scoring are in ``tutor.quiz``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache

from tutor.cards import Card, Rank, Shoe, Suit, hand_value, is_pair
from tutor.cell import Cell, up_label
from tutor.decision import Action, DecisionPoint
from tutor.game import Money, Outcome, Phase, Round
from tutor.quiz_questions import (
    Category,
    Hands,
    Question,
    item_key,
    unavailable_reason,
)
from tutor.rules import Surrender, TableRules
from tutor.table import scripted_round

# -- dealing questions -------------------------------------------------------------------------

_ATTEMPTS = 5000


def _fits(category: Category, cards: tuple[Card, Card], up: Card, rules: TableRules) -> bool:
    value = hand_value(cards)
    pair = is_pair(cards, by_value=rules.split_by_value)
    if category is Category.PAIRS:
        return pair
    if category is Category.SOFT:
        return value.soft and value.total < 21 and not pair
    if category is Category.HARD:
        return not value.soft and not pair and 8 <= value.total <= 17
    if category is Category.INSURANCE:
        return up.rank is Rank.ACE
    if category is Category.SURRENDER:
        return (not value.soft and 14 <= value.total <= 17 and up.points in (9, 10, 1)) or (
            pair and cards[0].points == 8 and up.points in (10, 1)
        )
    if category is Category.DOUBLING:
        # The hands where doubling is ever a question: hard 8 to 11, soft 13 to 19.
        return not pair and (
            (not value.soft and 8 <= value.total <= 11) or (value.soft and 13 <= value.total <= 19)
        )
    return True


#: How many deals a lesson's drill tries for a decision that leaves a choice among the moves the
#: lesson offers (the checker makes sure one exists: a drill needs the moves it asks about).
_OFFERED_ATTEMPTS = 100

#: How many questions are dealt to choose one from when a drill leans towards weak items.
CANDIDATES = 8


def next_question(
    category: Category,
    rules: TableRules,
    rng: random.Random,
    *,
    dealer_ups: Collection[int] | None = None,
    totals: Collection[int] | None = None,
    hands: Hands | None = None,
    weight: Callable[[str], float] | None = None,
    actions: Collection[Action] | None = None,
) -> Question:
    """A question of ``category`` at this table, dealt from a shuffled shoe.

    Hands come with the frequencies of a real shoe: each is dealt, and kept if it belongs to the
    category (rejection sampling keeps the shoe's proportions within the category). A teacher or
    a lesson may restrict the drill: ``dealer_ups`` limits the dealer's up-card (values, 1 for an
    Ace), ``totals`` the hand's total, ``hands`` the kind of hand (a lesson's topic, for every
    category, totals and payouts included), ``actions`` the moves a payouts question's hand may
    have been played with (a lesson that has not taught doubling asks no doubled bet).
    ``weight`` leans the drill towards the items a learner gets wrong: ``CANDIDATES`` questions
    are dealt and one is drawn with probability proportional to ``weight(item_key(question))``,
    so a weak item comes up several times as often while every hand stays possible. Raises
    ``ValueError`` when the table cannot ask the category (see ``unavailable_reason``) or no
    hand of the restriction exists (see
    ``dealable``), at once rather than after thousands of rejected deals.
    """
    why = unavailable_reason(category, rules)
    if why is not None:
        raise ValueError(f"this table cannot ask {category.value} questions ({why})")
    if hands is not None and not dealable(category, rules, dealer_ups=dealer_ups, hands=hands):
        raise ValueError(
            f"no {category.value} question on a hand {hands.description} can be dealt at "
            f"this table{_against(dealer_ups)}"
        )
    if weight is None:
        return _deal_question(
            category,
            rules,
            rng,
            dealer_ups=dealer_ups,
            totals=totals,
            hands=hands,
            actions=actions,
        )
    candidates = [
        _deal_question(
            category,
            rng=rng,
            rules=rules,
            dealer_ups=dealer_ups,
            totals=totals,
            hands=hands,
            actions=actions,
        )
        for _ in range(CANDIDATES)
    ]
    weights = [max(weight(item_key(question)), 0.0) for question in candidates]
    if sum(weights) <= 0:
        return candidates[0]
    return rng.choices(candidates, weights=weights)[0]


def question_for_item(item: str, rules: TableRules, rng: random.Random) -> Question:
    """A fresh deal of a stored item (``item_key``'s format): same category, hand and up-card;
    ``ValueError`` for an item no deal makes at this table (a cell of another table's rules)."""
    category_name, _, detail = item.partition(":")
    category = Category(category_name)
    if not category.is_decision or category is Category.INSURANCE:
        up = detail.partition(":")[2]
        return next_question(category, rules, rng, dealer_ups=(1,) if up else None)
    # The cell's own cards, not a drill's deal of its total: the practice table files misses the
    # drills never deal (hard 18), and a total is not a hand (6-6 is not A-A).
    return _cell_question(category, Cell.parse_item(item)[1], rules, rng)


def _cell_question(
    category: Category, cell: Cell, rules: TableRules, rng: random.Random
) -> Question:
    """A deal of two cards whose cell is ``cell`` (``Cell.of`` at this table) against its
    up-card, of ranks drawn among the pairs of ranks that make its total, each card a distinct
    card of one shuffled deck; ``ValueError`` if no two cards make the cell here (a soft 21 is a
    natural, an unsplittable 2-2 a cell of the past)."""
    hands = [
        (first, second)
        for first in Rank
        for second in Rank
        if first.points <= second.points and hand_value_of(first, second) == cell.total
    ]
    for _ in range(_CELL_DEALS if hands else 0):
        first, second = rng.choice(hands)
        deck = [Card(rank, suit) for rank in Rank for suit in Suit]
        rng.shuffle(deck)
        cards = (_take(deck, first.points), _take(deck, second.points))
        up = _take(deck, cell.up)
        point = _decision(category, rules, cards, up, deck[0], rng.randrange(2**32))
        if point is not None and Cell.of(point) == cell:
            return Question(category, cards, (up,), point=point)
    raise ValueError(f"no two cards make {cell} at this table")


#: Deals a cell's question tries: a hole card may give the dealer a natural (no decision then),
#: and a pair of ranks may make another cell here (a pair where a total was asked).
_CELL_DEALS = 200


def hand_value_of(first: Rank, second: Rank) -> int:
    """The total of two cards of these ranks (an Ace counted 11 where it fits)."""
    return hand_value((Card(first, Suit.SPADES), Card(second, Suit.HEARTS))).total


def _take(deck: list[Card], points: int) -> Card:
    """The first card of ``deck`` worth ``points``, taken out of it."""
    index = next(i for i, card in enumerate(deck) if card.points == points)
    return deck.pop(index)


def _deal_question(
    category: Category,
    rules: TableRules,
    rng: random.Random,
    *,
    dealer_ups: Collection[int] | None,
    totals: Collection[int] | None,
    hands: Hands | None = None,
    actions: Collection[Action] | None = None,
) -> Question:
    if category is Category.TOTALS:
        return _totals_question(rules, rng, hands)
    if category is Category.PAYOUTS:
        return _payout_question(rules, rng, hands, actions)
    for _ in range(_ATTEMPTS):
        shoe = Shoe(rules.decks, rng=rng)
        first, up, second, hole = (shoe.draw() for _ in range(4))
        if dealer_ups and up.points not in dealer_ups:
            continue
        if category is Category.INSURANCE and dealer_ups and 1 not in dealer_ups:
            break
        if not _fits(category, (first, second), up, rules):
            continue
        if hands is not None and not hands.holds((first, second)):
            continue
        if totals and hand_value((first, second)).total not in totals:
            continue
        point = _decision(category, rules, (first, second), up, hole, rng.randrange(2**32))
        if point is None:
            continue
        return Question(category, (first, second), (up,), point=point)
    raise ValueError(f"could not deal a {category.value} question at this table")


def _decision(
    category: Category,
    rules: TableRules,
    cards: tuple[Card, Card],
    up: Card,
    hole: Card,
    seed: int,
) -> DecisionPoint | None:
    """The decision a category asks on this deal, played by the engine; None when the deal
    asks none (a natural ends the round, surrender or doubling is not offered on it)."""
    dealer = (up, hole) if rules.dealer_peeks else (up,)
    game = scripted_round(rules, [cards], dealer, seed=seed, strict=False)
    if category is not Category.INSURANCE and game.phase is Phase.INSURANCE:
        game.decline_insurance()
    if game.to_act() is None:
        return None  # a natural ended the round before any decision
    if category is Category.INSURANCE and game.phase is not Phase.INSURANCE:
        return None
    if category is Category.SURRENDER and Action.SURRENDER not in game.legal_actions():
        return None
    if category is Category.DOUBLING and Action.DOUBLE not in game.legal_actions():
        return None
    return game.decision_point()


def offered_point(point: DecisionPoint, offered: Collection[Action] | None) -> DecisionPoint:
    """The decision as a lesson asks it: only the moves it offers among those the table allows.

    The judge weighs exactly a point's legal actions, so a lesson that has not taught surrender
    (or doubling) is never told that surrendering was better, nor shown its value: the verdict,
    its reason and its table speak of the buttons the learner had. ``offered`` None (the quiz,
    the practice table) or a restriction that would leave nothing to choose keeps the point.
    """
    if offered is None:
        return point
    legal = point.legal & frozenset(offered)
    return replace(point, legal=legal) if legal and legal != point.legal else point


def dealable(
    category: Category,
    rules: TableRules,
    *,
    dealer_ups: Collection[int] | None = None,
    hands: Hands | None = None,
) -> bool:
    """Whether a real shoe can ever deal a question of ``category`` with these restrictions.

    Rejection sampling would otherwise try thousands of deals and fail at run time, so a lesson
    checker asks this first (``tutor check`` reports a drill no shoe can deal). Every two-card
    start (by rank, so that pairs are told from ten-valued mixes) against every allowed up-card
    is tried on the engine, exactly as a dealt question is judged; cached, as a table's answer
    never changes.
    """
    ups = tuple(sorted(set(dealer_ups))) if dealer_ups else None
    return _dealable(category, rules, ups, hands)


@lru_cache(maxsize=512)
def _dealable(
    category: Category, rules: TableRules, ups: tuple[int, ...] | None, hands: Hands | None
) -> bool:
    if unavailable_reason(category, rules) is not None:
        return False
    starts = [
        (Card(first, Suit.SPADES), Card(second, Suit.HEARTS))
        for first in Rank
        for second in Rank
        if hands is None or hands.holds((Card(first, Suit.SPADES), Card(second, Suit.HEARTS)))
    ]
    if not category.is_decision:
        # Any start can be a totals hand or be played to some payout.
        return bool(starts)
    hole = Card(Rank.FIVE, Suit.CLUBS)  # never a dealer natural, so the round goes on
    for value in ups or range(1, 11):
        up = Card(Rank.of_value(value), Suit.DIAMONDS)
        for cards in starts:
            if _fits(category, cards, up, rules) and _decision(category, rules, cards, up, hole, 0):
                return True
    return False


def _against(dealer_ups: Collection[int] | None) -> str:
    if not dealer_ups:
        return ""
    return " against " + ", ".join(up_label(up) for up in sorted(dealer_ups))


#: How many answers a totals or payouts question offers (the keys 1 to 4 answer them).
OPTIONS = 4


def answer_run(
    right: Fraction, step: Fraction, rng: random.Random, *, count: int = OPTIONS
) -> tuple[Fraction, ...]:
    """``count`` answers in steps of ``step``, in increasing order, the right one at a place
    drawn uniformly: the run starts ``place`` steps below it.

    Why a run and a drawn place: options sorted around the right answer among its nearest
    neighbours put it at the same place nearly every time (the 3rd of 4 for a total), so that
    pressing "3" scored 100 %. Here the place is drawn before the run is built and nothing in the
    run depends on the hand, so neither the place nor the numbers tell the answer: every place
    is as likely, whatever the question (``tests/test_answer_places.py`` counts them).

    >>> import random
    >>> [str(n) for n in answer_run(Fraction(17), Fraction(1), random.Random(1))]
    ['16', '17', '18', '19']
    >>> [str(n) for n in answer_run(Fraction(3), Fraction(1), random.Random(0))]
    ['0', '1', '2', '3']
    """
    place = rng.randrange(count)
    return tuple(right + (index - place) * step for index in range(count))


def _payout_step(net: Fraction, bet: Money) -> Fraction:
    """The step between a payout question's answers: half the bet (the unit of a natural paid
    3 to 2, of a surrender, of an even win), or a smaller amount that divides both the net and
    half the bet when the table pays a natural otherwise (6 to 5 on 10 chips is 12), so that
    every answer offered is an amount the table could pay."""
    half = Fraction(bet, 2)
    if net % half == 0:
        return half
    denominator = net.denominator * half.denominator
    common = math.gcd(int(net * denominator), int(half * denominator))
    return Fraction(common, denominator)


def _totals_question(rules: TableRules, rng: random.Random, hands: Hands | None) -> Question:
    """A hand of two to four cards to count, kept (from a fresh shoe each time) only if it does
    not bust and is of the lesson's ``hands``: rejection keeps the shoe's proportions."""
    shoe = Shoe(rules.decks, rng=rng)
    for _ in range(_ATTEMPTS):
        cards = tuple(shoe.draw() for _ in range(rng.choice((2, 2, 3, 3, 4))))
        value = hand_value(cards)
        if value.total <= 21 and (hands is None or hands.holds(cards)):
            break
        shoe = Shoe(rules.decks, rng=rng)
    else:
        raise ValueError("could not deal a totals question at this table")
    expected = Fraction(value.total)
    # Every total is at least 4 (2 + 2), so a run of four ending on it still starts above 0.
    options = answer_run(expected, Fraction(1), rng)
    return Question(Category.TOTALS, cards, expected=expected, options=options)


def _payout_question(
    rules: TableRules,
    rng: random.Random,
    hands: Hands | None,
    actions: Collection[Action] | None = None,
) -> Question:
    """A settled hand: the learner says what the seat wins or loses (the engine's net).

    With ``hands``, the learner's first two cards must be of that kind, and the wanted outcome
    is drawn again at every deal: a kind of hand rules some outcomes out (a natural is never a
    plain win), and a fixed one would never come. With ``actions``, a doubled or surrendered
    hand is only asked about when that move is among them.
    """
    wants: tuple[Outcome | str, ...] = (
        Outcome.NATURAL,
        Outcome.NATURAL,
        Outcome.WIN,
        Outcome.PUSH,
        Outcome.LOSE,
        "double",
    ) + ((Outcome.SURRENDER,) if rules.surrender is not Surrender.NONE else ())
    if actions is not None:
        moves = {"double": Action.DOUBLE, Outcome.SURRENDER: Action.SURRENDER}
        wants = tuple(want for want in wants if moves.get(want, Action.STAND) in actions)
    want = rng.choice(wants)
    bet = rng.choice((2, 4, 5, 10))
    for _ in range(_ATTEMPTS):
        shoe = Shoe(rules.decks, rng=rng)
        game = Round(rules, shoe, [bet])
        if hands is not None:
            if not hands.holds(game.seats[0].hands[0].cards[:2]):
                continue
            want = rng.choice(wants)
        action = {"double": Action.DOUBLE, Outcome.SURRENDER: Action.SURRENDER}.get(
            want, Action.STAND
        )
        while game.to_act() is not None:
            legal = game.legal_actions()
            if game.phase is Phase.INSURANCE:
                game.decline_insurance()
            elif action in legal:
                game.act(action)
            else:
                game.stand()
        result = game.results[0].hands[0]
        doubled = want == "double"
        outcome_ok = (
            result.outcome is Outcome.WIN and result.bet == 2 * bet
            if doubled
            else result.outcome is want and result.bet == bet
        )
        if not outcome_ok:
            continue
        net = Fraction(result.net)
        options = answer_run(net, _payout_step(net, bet), rng)
        return Question(
            Category.PAYOUTS,
            tuple(game.seats[0].hands[0].cards),
            tuple(game.dealer),
            expected=net,
            options=options,
            bet=bet,
            outcome=result.outcome,
            doubled=doubled,
        )
    raise ValueError("could not deal a payout question at this table")


# -- judging and scoring -----------------------------------------------------------------------
