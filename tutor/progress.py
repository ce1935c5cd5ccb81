"""A learner's progress: quiz answers stored, items scheduled, weak items found, statistics.

The glue between the quiz (``tutor.quiz``: questions and verdicts), the review schedule
(``tutor.srs``) and the database (``tutor.store``), kept out of the pages so it is tested without a
browser. Statistics come back as pandas DataFrames shaped for the charts: accuracy per day and
category, mistakes by hand and up-card, EV lost per category.
"""

from __future__ import annotations

import tutor.blas  # noqa: F401  (one BLAS thread, set before numpy is imported)

# isort: split
from collections.abc import Callable, Iterable
from datetime import datetime

import pandas as pd

from tutor.cards import format_cards
from tutor.cell import UP_LABELS, Cell, Kind, parse_hand
from tutor.decision import Action, DecisionPoint
from tutor.quiz_questions import Category, Verdict, item_key
from tutor.rules import TableRules
from tutor.srs import Grade, Review, next_due, schedule
from tutor.store import Answer, Learner, Origin, Store
from tutor.strategy import Judgement

#: The categories a hand played at a table falls in (``point_item``): what "my mistakes" deals.
TABLE_CATEGORIES: tuple[Category, ...] = (
    Category.HARD,
    Category.SOFT,
    Category.PAIRS,
    Category.INSURANCE,
)

#: How much more often a due item, then a missed one, is picked than an item learnt.
DUE_WEIGHT = 8.0
MISSED_WEIGHT = 4.0


def answer_of(
    verdict: Verdict, rules: TableRules, now: datetime, origin: Origin = "quiz"
) -> Answer:
    """A judged answer as the store keeps it: the learner's own record and, for a group's drill,
    the group's copy (``tutor.homework``) are made from the same value."""
    question = verdict.question
    judgement = verdict.judgement
    given = verdict.given
    return Answer(
        category=question.category.value,
        item=item_key(question),
        cards=format_cards(question.cards, ascii=True),
        dealer_up=question.dealer[0].ascii if question.dealer else "",
        rules=rules.name[:64],
        chosen=given.value if isinstance(given, Action) else str(given),
        # The play the answer was graded against (the chart's, or the exact one).
        best=judgement.play.value if judgement is not None else str(question.expected),
        grade=verdict.grade,
        ev_loss=verdict.loss,
        answered_at=now,
        origin=origin,
    )


def record(
    store: Store,
    learner: Learner,
    verdict: Verdict,
    rules: TableRules,
    now: datetime,
    origin: Origin = "quiz",
) -> Review:
    """Store a judged answer (of the quiz, or of a lesson's drill) and reschedule its item;
    returns the item's new review."""
    answer = answer_of(verdict, rules, now, origin)
    review = schedule(
        store.review(learner, answer.item), answer.item, answer.category, verdict.grade, now
    )
    store.record(learner, answer, review)
    return review


def point_item(point: DecisionPoint) -> tuple[Category, str]:
    """The quiz item a decision met at a table or in a lesson's deal is, so that the review
    schedule counts a hand played there as the same hand drilled in the quiz: an insurance offer
    (``insurance:hand``), else the hand's chart cell (:meth:`tutor.cell.Cell.of`, the row the
    judge graded): a pair that may be split (``pairs:8-8:10``), else a soft or hard total
    (``soft:s18:9``, ``hard:16:10``, whatever the number of cards).

    >>> from tutor.cards import parse_cards
    >>> from tutor.rules import PRESETS
    >>> rules = PRESETS["family"]
    >>> point_item(DecisionPoint(parse_cards("8♠ 8♥"), parse_cards("10♦")[0], rules,
    ...     frozenset({Action.HIT, Action.STAND, Action.SPLIT})))
    (<Category.PAIRS: 'pairs'>, 'pairs:8-8:10')
    >>> point_item(DecisionPoint(parse_cards("A♠ 4♥ 2♣"), parse_cards("A♦")[0], rules,
    ...     frozenset({Action.HIT, Action.STAND})))[1]
    'soft:s17:A'
    """
    if point.is_insurance_decision:
        return Category.INSURANCE, f"insurance:{'natural' if point.is_natural else 'hand'}"
    cell = Cell.of(point)
    return Category(cell.kind.value), str(cell)


def record_judgement(
    store: Store,
    learner: Learner,
    judgement: Judgement,
    rules: TableRules,
    now: datetime,
    origin: Origin,
) -> Review | None:
    """Store a move judged at the practice table or in a lesson's deal as an answer (its hand,
    up-card, table, grade and cost) and reschedule its item, as a quiz answer is: every hand
    the learner plays counts in *My progress* and *To review*. None for advice (no move)."""
    answer = judgement_answer(judgement, rules, now, origin)
    if answer is None or judgement.grade is None:
        return None
    review = schedule(
        store.review(learner, answer.item), answer.item, answer.category, judgement.grade, now
    )
    store.record(learner, answer, review)
    return review


def judgement_answer(
    judgement: Judgement, rules: TableRules, now: datetime, origin: Origin
) -> Answer | None:
    """A move judged at the table or in a lesson's deal as the store keeps an answer (the
    learner's record and, in an assigned lesson, the group's copy are the same value); None for
    advice (no move)."""
    if judgement.chosen is None or judgement.grade is None:
        return None
    point = judgement.point
    category, item = point_item(point)
    return Answer(
        category=category.value,
        item=item,
        cards=format_cards(point.cards, ascii=True),
        dealer_up=point.dealer_up.ascii,
        rules=rules.name[:64],
        chosen=judgement.chosen.value,
        best=judgement.play.value,
        grade=judgement.grade,
        ev_loss=judgement.loss,
        answered_at=now,
        origin=origin,
    )


def weak_items(
    store: Store, learner: Learner, now: datetime, categories: Iterable[Category]
) -> list[str]:
    """The hands a learner should meet again, in order: the items due now (the least known
    first), then every other item ever missed, the most often missed first. "My mistakes" at
    the practice table deals them."""
    names = [category.value for category in categories]
    reviews = store.reviews(learner, names)
    due = [review.item for review in next_due(reviews, now)]
    missed = sorted(
        (review for review in reviews if review.missed and review.item not in due),
        key=lambda review: (-review.missed / max(review.seen, 1), review.item),
    )
    return due + [review.item for review in missed]


def weights(store: Store, learner: Learner, now: datetime) -> Callable[[str], float]:
    """How strongly each item should be drawn for this learner: due items first, then the ones
    missed most often (by their share of misses), then everything else at 1."""
    table: dict[str, float] = {}
    for review in store.reviews(learner):
        if review.is_due(now):
            table[review.item] = DUE_WEIGHT
        else:
            table[review.item] = 1.0 + MISSED_WEIGHT * review.missed / max(review.seen, 1)
    return lambda item: table.get(item, 1.0)


def due_items(
    store: Store, learner: Learner, now: datetime, categories: Iterable[Category] | None = None
) -> list[str]:
    """The items due now, the least known first."""
    names = None if categories is None else [category.value for category in categories]
    return [review.item for review in store.due(learner, now, names)]


def history(store: Store, learner: Learner) -> pd.DataFrame:
    """Every stored answer, one row each (empty with the columns when there is none)."""
    rows = [
        {
            "answered_at": answer.answered_at,
            "category": answer.category,
            "item": answer.item,
            "grade": answer.grade.value,
            "right": answer.grade is Grade.RIGHT,
            "ev_loss": answer.ev_loss,
            "origin": answer.origin,
        }
        for answer in store.answers(learner)
    ]
    return pd.DataFrame(
        rows, columns=["answered_at", "category", "item", "grade", "right", "ev_loss", "origin"]
    )


def accuracy_over_time(frame: pd.DataFrame) -> pd.DataFrame:
    """Accuracy per day and category."""
    if frame.empty:
        return pd.DataFrame(columns=["day", "category", "accuracy", "answers"])
    days = frame.assign(day=frame["answered_at"].map(lambda when: when.date().isoformat()))
    out = days.groupby(["day", "category"], as_index=False).agg(
        accuracy=("right", "mean"), answers=("right", "size")
    )
    return out


#: The dealer's up-cards in the chart's column order.
UP_ORDER: tuple[str, ...] = UP_LABELS


def hand_order(hand: str) -> tuple[int, int]:
    """Where a hand of an item key sits in a chart: hard totals first, then soft totals, then
    the pairs by rank (2-2 up to 10-10, then A-A), so that rows never sort as text
    (``10-10`` before ``2-2``); a hand that is none of these last.

    >>> sorted(["s13", "10-10", "2-2", "16", "A-A", "9"], key=hand_order)
    ['9', '16', 's13', '2-2', '10-10', 'A-A']
    """
    try:
        kind, row = parse_hand(hand)
    except ValueError:
        return (3, 0)
    return (list(Kind).index(kind), 11 if kind is Kind.PAIRS and row == 1 else row)


def mistakes_by_hand(frame: pd.DataFrame) -> pd.DataFrame:
    """For the heatmap: per hand (``16``, ``s18``, ``8-8``) and up-card, answers and mistakes,
    in chart order (``hand_order``, then the up-cards 2 to 10 and the Ace). Only the answers
    whose item is a cell count (:meth:`tutor.cell.Cell.parse_item`): a doubled payout's
    ``payouts:win:double`` is no hand against an up-card."""
    columns = ["hand", "up", "answers", "mistakes", "share"]
    cells = frame["item"].map(_cell_of_item) if not frame.empty else pd.Series(dtype=object)
    decisions = frame[cells.notna()] if not frame.empty else frame
    if decisions.empty:
        return pd.DataFrame(columns=columns)
    found = cells[cells.notna()]
    table = decisions.assign(
        hand=[cell.hand for cell in found],
        up=[cell.column for cell in found],
        mistake=~decisions["right"],
    )
    out = table.groupby(["hand", "up"], as_index=False).agg(
        answers=("right", "size"), mistakes=("mistake", "sum")
    )
    out["share"] = out["mistakes"] / out["answers"]
    ups = {up: index for index, up in enumerate(UP_ORDER)}
    order = out.apply(
        lambda row: (*hand_order(str(row["hand"])), ups.get(str(row["up"]), len(ups))), axis=1
    )
    out = out.assign(order=order).sort_values("order", kind="stable").reset_index(drop=True)
    return out[columns]


def _cell_of_item(item: str) -> Cell | None:
    """The cell a stored item names, or None for an item of no cell (insurance, totals,
    payouts) or text that is no item."""
    try:
        return Cell.parse_item(str(item))[1]
    except ValueError:
        return None


def ev_lost_by_category(frame: pd.DataFrame) -> pd.DataFrame:
    """EV given away per category, total and per 100 decisions."""
    if frame.empty:
        return pd.DataFrame(columns=["category", "ev_lost", "answers", "per_100"])
    out = frame.groupby("category", as_index=False).agg(
        ev_lost=("ev_loss", "sum"), answers=("ev_loss", "size")
    )
    out["per_100"] = 100 * out["ev_lost"] / out["answers"]
    return out
