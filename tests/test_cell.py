"""A cell (a hand against an up-card) is decided once, spelt the way stored progress spells it,
and read back strictly; the judge, the quiz, progress and the simulator file a hand in the same
cell, a pair that may not be split included."""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tutor.cards import Card, format_cards, parse_cards
from tutor.cell import CHART_ROWS, UP_LABELS, Cell, InvalidCellError, Kind, parse_hand
from tutor.decision import Action, DecisionPoint, Grade
from tutor.progress import mistakes_by_hand, point_item
from tutor.quiz_deal import next_question, offered_point
from tutor.quiz_questions import Category, Question, item_key
from tutor.render.translator import translator
from tutor.rules import PRESETS, TableRules
from tutor.simulate import (
    Strategy,
    basic_strategy,
    error_profile,
    simulate,
)
from tutor.simulate_codes import (
    A_HIT,
    C_H,
    C_S,
    HARD,
    PAIRS,
)
from tutor.strategy import chart, judge
from tutor.table import decision_for, scripted_round

# -- the spellings stored today -----------------------------------------------------------------


def _stored_formats() -> list[str]:
    """Every key of a cell the quiz (``item_key``) and the table (``point_item``) could store
    before the cell was a type: a hard total 4 to 21, a soft total s12 to s21, a pair 2-2 to
    10-10 or A-A, against 2 to 10 or A, under the categories that drill hands."""
    hands = [str(total) for total in range(4, 22)]
    hands += [f"s{total}" for total in range(12, 22)]
    hands += [f"{card}-{card}" for card in (*range(2, 11), "A")]
    keys = []
    for hand in hands:
        kind = "pairs" if "-" in hand else "soft" if hand.startswith("s") else "hard"
        for up in UP_LABELS:
            keys.append(f"{kind}:{hand}:{up}")
            keys += [f"surrender:{hand}:{up}", f"doubling:{hand}:{up}"]
    return keys


def test_every_key_format_stored_today_parses_and_prints_back_identically() -> None:
    keys = _stored_formats()
    assert len(keys) == (18 + 10 + 10) * 10 * 3
    for key in keys:
        category, cell = Cell.parse_item(key)
        assert cell.item(category) == key
        if category in ("hard", "soft", "pairs"):
            assert str(Cell.parse(key)) == key
            assert repr(Cell.parse(key)) == f"Cell.parse({key!r})"


def test_the_keys_the_quiz_and_the_table_write_are_cells_that_print_back() -> None:
    """Keys as dealt, not as listed: the quiz's item of every hand category's questions, and the
    table's item of every two-card decision against every up-card."""
    rng = random.Random(5)
    rules = PRESETS["american-s17"]
    for category in (Category.HARD, Category.SOFT, Category.PAIRS, Category.SURRENDER,
                     Category.DOUBLING):
        for _ in range(40):
            key = item_key(next_question(category, rules, rng))
            prefix, cell = Cell.parse_item(key)
            assert prefix == category.value
            assert cell.item(prefix) == key
    for point in _two_card_points(PRESETS["family"]):
        category, key = point_item(point)
        if category is not Category.INSURANCE:
            assert str(Cell.parse(key)) == key == str(Cell.of(point))


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "table:hand:up-card"),
        ("hard:16", "table:hand:up-card"),
        ("hard:16:10:x", "table:hand:up-card"),
        ("hard::10", "table:hand:up-card"),
        ("hard:16:1", "an up-card is written 2 to 10 or A"),
        ("hard:16:11", "an up-card is written 2 to 10 or A"),
        ("hard:16:a", "an up-card is written 2 to 10 or A"),
        ("hard:3:10", "a hard total is written 4 to 21"),
        ("hard:22:10", "a hard total is written 4 to 21"),
        ("hard:１６:10", "a hand is written as a hard total (16)"),  # full-width digits
        ("hard:-16:10", "a pair is written"),
        ("soft:s11:5", "a soft total is written s12 to s21"),
        ("soft:s:5", "a hand is written as a hard total (16), s and a soft total (s18)"),
        ("pairs:8-9:A", "a pair is written 2-2 to 10-10 or A-A"),
        ("pairs:1-1:A", "a pair is written 2-2 to 10-10 or A-A"),
        ("pairs:16:10", "16 is a hand of the hard table, not of pairs"),
        ("hard:s18:9", "s18 is a hand of the soft table, not of hard"),
        ("insurance:hand:A", "a hand is written"),
        ("payouts:win:double", "a hand is written"),
        ("surrender:16:10", "a cell begins with hard, soft or pairs"),
    ],
)
def test_malformed_text_is_refused_with_a_sentence_that_quotes_it(text: str, why: str) -> None:
    with pytest.raises(InvalidCellError) as raised:
        Cell.parse(text)
    assert str(raised.value).startswith(f"{text!r} is not a cell: ")
    assert why in str(raised.value)


def test_a_huge_text_is_refused_without_quoting_it_whole() -> None:
    with pytest.raises(InvalidCellError) as raised:
        Cell.parse("hard:" + "1" * 100_000 + ":10")
    assert len(str(raised.value)) < 200


@given(st.text(max_size=30))
def test_any_text_parses_to_a_cell_that_prints_it_back_or_is_refused(text: str) -> None:
    try:
        cell = Cell.parse(text)
    except InvalidCellError:
        return
    assert str(cell) == text


def test_a_cell_holds_only_a_row_of_its_table() -> None:
    with pytest.raises(ValueError, match="no soft row 11"):
        Cell(Kind.SOFT, 11, 5)
    with pytest.raises(ValueError, match="up-card's value is 1"):
        Cell(Kind.HARD, 16, 11)
    with pytest.raises(ValueError, match="no pairs row 11"):
        Cell(Kind.PAIRS, 11, 5)


def test_the_chart_s_labels_and_the_item_keys_name_the_same_cells() -> None:
    table_chart = chart(PRESETS["family"])
    for kind in Kind:
        frame = table_chart.tables()[kind.value]
        for label in frame.index:
            for column in frame.columns:
                cell = Cell.from_chart(kind.value, str(label), str(column))
                assert cell.key == (kind.value, label, column)
                assert cell.in_chart
                assert Cell.parse(str(cell)) == cell
                assert table_chart.code(cell) == frame.at[label, column]
    assert len(table_chart.evs) == sum(len(rows) for rows in CHART_ROWS.values()) * 10


def test_a_hand_of_an_item_is_named_as_the_chart_names_its_cell() -> None:
    en = translator("en")
    for kind in Kind:
        for row in CHART_ROWS[kind]:
            cell = Cell(kind, row, 1)
            assert parse_hand(cell.hand) == (kind, row)
            assert en.item_name(str(cell)) == en.cell_name(cell)
            assert en.hand_label(cell.hand) == en.row_name(kind, row)


# -- one decision ---------------------------------------------------------------------------------


def _two_card_points(rules: TableRules) -> list[DecisionPoint]:
    points = []
    for first in range(1, 11):
        for second in range(first, 11):
            cards = (Card.parse(f"{_rank(first)}♠"), Card.parse(f"{_rank(second)}♥"))
            for up in range(1, 11):
                try:
                    points.append(decision_for(rules, cards, f"{_rank(up)}♦"))
                except ValueError:
                    continue  # a natural: nothing to decide
    return points


def _rank(points: int) -> str:
    return "A" if points == 1 else "K" if points == 10 else str(points)


def _refused_splits() -> list[tuple[str, DecisionPoint]]:
    """Pairs the engine will not let the learner split, each as a real round reaches it."""
    family, online = PRESETS["family"], PRESETS["online-six-deck"]
    found = []
    game = scripted_round(family, ["8♠ 8♥"], "10♣ 7♦", "8♦ 2♣ 3♣")
    game.split()  # the family table splits once: the new 8-8 may not split again
    found.append(("8-8 after the one split", game.decision_point()))
    game = scripted_round(family, ["2♠ 2♥"], "5♣ 7♦", "2♦ 9♣ 3♣")
    game.split()
    found.append(("2-2 after the one split", game.decision_point()))
    for cards in ("8♠ 8♥", "A♠ A♥"):
        game = scripted_round(online, [cards], "A♣ 7♦")
        game.insure(1)  # this table's insurance forbids splitting afterwards
        found.append((f"{cards} insured", game.decision_point()))
    lesson = offered_point(decision_for(family, "8♠ 8♥", "10♣"), {Action.HIT, Action.STAND})
    found.append(("8-8 in a drill offering hit and stand", lesson))
    return found


@dataclass(frozen=True)
class _Answer:
    """A stored answer as the simulator's profile reads it."""

    category: str
    item: str
    cards: str
    dealer_up: str
    chosen: str
    grade: Grade = Grade.WRONG


def _profile_cells(point: DecisionPoint) -> list[tuple[int, int, int]]:
    """The cells a learner's profile changes after one wrong answer on ``point``, stored as
    the practice table stores it."""
    category, item = point_item(point)
    answer = _Answer(category.value, item, format_cards(point.cards, ascii=True),
                     point.dealer_up.ascii, "stand")
    book = Strategy("book", np.zeros((3, 22, 11), np.int8), np.full((3, 22, 11), -1, np.int8),
                    np.zeros((3, 22, 11)))
    profile = error_profile(point.rules, [answer], base=book)
    found = np.argwhere(profile.deviation_probability > 0)
    return [(int(t), int(row), int(up)) for t, row, up in found]


EXPECTED = {
    "8-8 after the one split": "hard:16:10",
    "2-2 after the one split": "pairs:2-2:5",
    "8♠ 8♥ insured": "hard:16:A",
    "A♠ A♥ insured": "pairs:A-A:A",
    "8-8 in a drill offering hit and stand": "hard:16:10",
}


@pytest.mark.parametrize(("name", "point"), _refused_splits(), ids=lambda v: str(v)[:30])
def test_a_pair_that_may_not_be_split_is_filed_graded_and_simulated_in_one_cell(
    name: str, point: DecisionPoint
) -> None:
    """Before the cell was a type, these gave up to three answers: the quiz filed every pair in
    its pair's row, the table a refused 2-2 or A-A as hard 4 or soft 12, and the simulator's
    profile changed the pair's cell (and dropped A-A's answers) whatever the judge graded."""
    assert Action.SPLIT not in point.legal
    cell = Cell.of(point)
    assert str(cell) == EXPECTED[name]
    # The judge grades this very cell's figures, among the legal moves.
    graded = judge(point).chart_evs
    assert graded == {a: ev for a, ev in chart(point.rules).evs_of(cell).items()
                      if a in point.legal}
    # The quiz and the table file it there.
    category = Category.PAIRS if cell.kind is Kind.PAIRS else Category.HARD
    assert item_key(Question(category, point.cards, (point.dealer_up,), point=point)) == str(cell)
    assert point_item(point) == (Category(cell.kind.value), str(cell))
    # The simulator's profile of the learner changes that cell and no other.
    table = {Kind.HARD: HARD, Kind.PAIRS: PAIRS}[cell.kind]
    assert _profile_cells(point) == [(table, cell.row, cell.up)]


def test_a_pair_that_may_be_split_is_in_its_pair_s_row_and_one_that_cannot_in_its_total_s() -> None:
    eights, ten = parse_cards("8♠ 8♥"), Card.parse("10♦")
    rules = PRESETS["family"]
    free = DecisionPoint(eights, ten, rules, frozenset({Action.HIT, Action.STAND, Action.SPLIT}))
    assert Cell.of(free) == Cell(Kind.PAIRS, 8, 10)
    refused = DecisionPoint(eights, ten, rules, frozenset({Action.HIT, Action.STAND}))
    assert Cell.of(refused) == Cell(Kind.HARD, 16, 10)
    with pytest.raises(ValueError, match="insurance"):
        Cell.of(DecisionPoint(eights, Card.parse("A♦"), rules,
                              frozenset({Action.INSURE, Action.DECLINE_INSURANCE})))


def test_every_two_card_decision_has_a_cell_of_the_chart() -> None:
    for point in _two_card_points(PRESETS["online-six-deck"]):
        if not point.is_insurance_decision:
            assert Cell.of(point).in_chart


def _hits_16_off_the_book(*, also_pairs: bool) -> Strategy:
    """By the book: hit below 17 and stand from 17, but stand on hard 16 and on 8-8 (never
    split). The learner's deviation: hit every hard 16 (and, with ``also_pairs``, the same
    written in the 8-8 pair's cell)."""
    tables = np.full((3, 22, 11), C_S, np.int8)
    tables[:, :17] = C_H
    tables[HARD, 16] = tables[PAIRS, 8] = C_S
    action = np.full((3, 22, 11), -1, np.int8)
    probability = np.zeros((3, 22, 11))
    action[HARD, 16], probability[HARD, 16] = A_HIT, 1.0
    if also_pairs:
        action[PAIRS, 8], probability[PAIRS, 8] = A_HIT, 1.0
    return Strategy("learner", tables, action, probability)


@pytest.mark.parametrize(("max_hands", "pairs_cell_read"), [(1, False), (2, True)])
def test_the_simulator_plays_a_pair_in_the_cell_the_judge_grades_it_in(
    max_hands: int, pairs_cell_read: bool
) -> None:
    """At a table that never splits an 8-8 is a hard 16 for the simulator as for the judge: what
    the learner's profile writes in the pair's cell is never read there (the same run to the
    chip); where 8-8 may be split, the pair's cell is the one read."""
    rules = PRESETS["family"].replace(max_hands=max_hands)
    without = simulate(rules, _hits_16_off_the_book(also_pairs=False), 20_000, seed=4)
    with_pairs = simulate(rules, _hits_16_off_the_book(also_pairs=True), 20_000, seed=4)
    assert (without.net != with_pairs.net) is pairs_cell_read


def test_basic_strategy_reads_every_cell_of_the_chart() -> None:
    rules = PRESETS["american-s17"]
    strategy, table_chart = basic_strategy(rules), chart(rules)
    codes = {"H": 0, "S": 1, "D": 2, "Ds": 3, "P": 4, "Ph": 5, "Rh": 6, "Rs": 7, "Rp": 8}
    for kind in Kind:
        for row in CHART_ROWS[kind]:
            for up in range(1, 11):
                cell = Cell(kind, row, up)
                index = {Kind.HARD: 0, Kind.SOFT: 1, Kind.PAIRS: 2}[kind]
                code = table_chart.code(cell)
                if code:
                    assert strategy.tables[index, row, up] == codes[code]


def test_the_mistakes_heatmap_counts_only_cells() -> None:
    import pandas as pd

    frame = pd.DataFrame({
        "item": ["pairs:8-8:A", "payouts:win:double", "insurance:hand", "hard:16:10"],
        "right": [False, False, False, True],
    })
    heat = mistakes_by_hand(frame)
    assert list(zip(heat["hand"], heat["up"], strict=True)) == [("16", "10"), ("8-8", "A")]
