"""Basic-strategy charts derived from the exact EVs, never typed in.

A chart is total-dependent: one action per (hand row, up-card). Each cell takes the two-card hands
that make that row (for hard 14: 10-4, 9-5, 8-6; pairs are their own rows), weights each by its
probability from the full shoe once the up-card is out (and, where the dealer peeks, given no dealer
natural), averages each action's composition-dependent EV, and writes the best action in the usual
codes: H hit, S stand, D double else hit, Ds double else stand, P split, Ph split if double after
split is allowed else hit, Rh / Rs / Rp surrender else hit / stand / split. Rows no two-card hand
makes (hard 21, soft 21) use the three-card hands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING

from tutor.cell import CHART_ROWS, UP_LABELS, Cell, Kind, up_value
from tutor.decision import Action
from tutor.rules import TableRules
from tutor.strategy.solution import Solution, is_natural
from tutor.strategy.solver import Hand, hand_graph, hand_of

#: The chart's columns: the dealer's up-cards 2 to 10, then the Ace.
COLUMNS: tuple[str, ...] = UP_LABELS
#: The chart's tables, in the order they are shown.
TABLES: tuple[str, ...] = ("hard", "soft", "pairs", "surrender")

if TYPE_CHECKING:  # pandas only when a page asks for a DataFrame: the command line never does
    import pandas as pd

CellKey = tuple[str, str, str]  # table ("hard", "soft", "pairs"), row label, column label


@dataclass(frozen=True)
class CodeTable:
    """One table of a chart as plain data: each row's label and its code per up-card column
    (``COLUMNS``), ``""`` where no hand makes the cell.

    Why not a DataFrame: the command line prints a chart in a fraction of the time pandas takes
    to import (issue 30); the pages that draw a styled table ask for :meth:`frame`.
    """

    rows: tuple[tuple[str, tuple[str, ...]], ...]
    columns: tuple[str, ...] = COLUMNS

    def __len__(self) -> int:
        return len(self.rows)

    @cached_property
    def _at(self) -> dict[str, tuple[str, ...]]:
        return dict(self.rows)

    def code(self, label: str, column: str) -> str:
        """The code in row ``label`` under up-card ``column``; ``KeyError`` for a row or a column
        the table does not have."""
        codes = self._at[label]
        if column not in self.columns:
            raise KeyError(column)
        return codes[self.columns.index(column)]

    def as_dict(self) -> dict[str, dict[str, str]]:
        """``{row label: {column: code}}``, the rows in order (the command line's JSON)."""
        return {label: dict(zip(self.columns, codes, strict=True)) for label, codes in self.rows}

    def frame(self) -> pd.DataFrame:
        """The table as a DataFrame indexed by row label, one column per up-card."""
        import pandas as pd

        return pd.DataFrame.from_dict(self.as_dict(), orient="index", columns=list(self.columns))


@dataclass(frozen=True)
class Chart:
    """The chart of one rule set: its tables of codes, and the EVs behind every cell."""

    rules: TableRules
    #: The tables by name (``TABLES``); surrender holds only the rows where surrender is the best
    #: play against some up-card (none without it).
    codes: Mapping[str, CodeTable]
    evs: Mapping[CellKey, Mapping[Action, float]] = field(repr=False)

    @cached_property
    def hard(self) -> pd.DataFrame:
        return self.codes["hard"].frame()

    @cached_property
    def soft(self) -> pd.DataFrame:
        return self.codes["soft"].frame()

    @cached_property
    def pairs(self) -> pd.DataFrame:
        return self.codes["pairs"].frame()

    @cached_property
    def surrender(self) -> pd.DataFrame:
        return self.codes["surrender"].frame()

    def explain(self, table: str, row: str | int, up: str | int) -> Mapping[Action, float]:
        """The averaged EV of every action for one cell, as the code in the cell was chosen from.

        >>> from tutor.rules import PRESETS
        >>> evs = chart(PRESETS["american-s17"]).explain("hard", 16, 10)
        >>> max(evs, key=evs.__getitem__).value
        'surrender'
        """
        return self.evs_of(Cell.from_chart(table, row, up))

    def evs_of(self, cell: Cell) -> Mapping[Action, float]:
        """The averaged EV of every action in ``cell`` (see :meth:`explain`)."""
        return self.evs[cell.key]

    def code(self, cell: Cell) -> str:
        """The code written in ``cell`` (``""`` where no hand makes its row).

        >>> from tutor.rules import PRESETS
        >>> chart(PRESETS["american-s17"]).code(Cell.parse("pairs:8-8:10"))
        'P'
        """
        return self.codes[cell.kind.value].code(cell.label, cell.column)

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables as DataFrames (pandas is imported then), for the pages that style them."""
        return {"hard": self.hard, "soft": self.soft, "pairs": self.pairs,
                "surrender": self.surrender}


def _weight(solution: Solution, up: int, values: tuple[int, ...]) -> float:
    """Probability of drawing exactly these cards (any order) once the up-card is out, times the
    probability of no dealer natural where the dealer peeks."""
    solver = solution.ups[up]
    hand = hand_of(values)
    if solution.shoe is None:
        freq = [c / 52 for c in (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)]
        p = 1.0
        for value in values:
            p *= freq[value - 1]
    else:
        left = list(solver.shoe)
        total = sum(left)
        p = 1.0
        for value in values:
            p *= max(left[value - 1], 0) / total
            left[value - 1] -= 1
            total -= 1
    orders = 1
    for count in range(2, len(values) + 1):
        orders *= count
    for count in hand:
        for step in range(2, count + 1):
            orders //= step
    p *= orders
    if solver.conditioned:
        p *= 1 - solver.dealer_natural(hand)
    return p


def _row_hands(kind: str, row: int) -> list[tuple[int, ...]]:
    """The card values making one chart row: two cards if possible, else three."""
    return _rows_by_hands().get((kind, row), [])


@lru_cache(maxsize=1)
def _rows_by_hands() -> dict[tuple[str, int], list[tuple[int, ...]]]:
    """Every row's hands (``_row_hands``), found in one pass over the two- and three-card hands:
    a row takes its two-card hands (the unpaired ones where it has both), or its three-card
    hands where no two cards make it (hard 21: two cards make 21 only as a natural)."""
    graph = hand_graph()
    found: dict[int, dict[tuple[str, int], list[tuple[int, ...]]]] = {2: {}, 3: {}}
    for size, rows in found.items():
        for values in combinations_with_replacement(range(1, 11), size):
            hand = hand_of(values)
            node = graph.index.get(hand)
            if node is None or (size == 2 and is_natural(hand)):
                continue
            kind = "soft" if bool(graph.soft[node]) else "hard"
            rows.setdefault((kind, int(graph.total[node])), []).append(values)
    out = dict(found[3])
    for key, hands in found[2].items():
        unpaired = [values for values in hands if values[0] != values[1]]
        out[key] = unpaired or hands
    return out


def _averaged(
    solution: Solution, up: int, hands: list[tuple[int, ...]], *, split: bool, das: bool | None
) -> dict[Action, float]:
    sums: dict[Action, float] = {}
    total = 0.0
    common: set[Action] | None = None
    for values in hands:
        weight = _weight(solution, up, values)
        if weight <= 0:
            continue
        hand: Hand = hand_of(values)
        evs = solution.action_evs(up, hand, may_split=split)
        if split and das is not None and Action.SPLIT in evs:
            pair = values[0]
            evs[Action.SPLIT] = solution.ups[up].best_split(
                pair, solution.rules.max_hands, das=das
            ).ev
        common = set(evs) if common is None else common & set(evs)
        total += weight
        for action, ev in evs.items():
            sums[action] = sums.get(action, 0.0) + weight * ev
    if not total or common is None:
        return {}
    return {action: sums[action] / total for action in sums if action in common}


def _code(evs: Mapping[Action, float], *, split_without_das: Mapping[Action, float] | None) -> str:
    best = max(evs, key=evs.__getitem__)
    hit = evs.get(Action.HIT, float("-inf"))
    stand = evs[Action.STAND]
    if best is Action.SURRENDER:
        rest = {a: ev for a, ev in evs.items() if a is not Action.SURRENDER}
        fallback = max(rest, key=rest.__getitem__)
        if fallback is Action.SPLIT:
            return "Rp"
        if fallback is Action.STAND or (fallback is Action.DOUBLE and stand > hit):
            return "Rs"
        return "Rh"
    if best is Action.DOUBLE:
        return "Ds" if stand > hit else "D"
    if best is Action.SPLIT:
        if split_without_das is not None:
            plain = max(split_without_das, key=split_without_das.__getitem__)
            if plain is Action.HIT:
                return "Ph"
        return "P"
    return "H" if best is Action.HIT else "S"


def build_chart(solution: Solution) -> Chart:
    rules = solution.rules
    evs: dict[CellKey, Mapping[Action, float]] = {}
    tables: dict[str, CodeTable] = {}
    # Each table's rows: its cells' row label and the card values making the row.
    layouts: dict[str, list[tuple[str, list[tuple[int, ...]]]]] = {
        kind.value: [
            (Cell(kind, row, 1).label,
             [(row, row)] if kind is Kind.PAIRS else _row_hands(kind.value, row))
            for row in CHART_ROWS[kind]
        ]
        for kind in Kind
    }
    surrender_rows: dict[str, dict[str, str]] = {}
    for table, rows in layouts.items():
        lines: list[tuple[str, tuple[str, ...]]] = []
        for label, hands in rows:
            line: list[str] = []
            for column in COLUMNS:
                up = up_value(column)
                split = table == "pairs"
                cell = _averaged(solution, up, hands, split=split, das=None)
                without = None
                if split and rules.double_after_split and cell:
                    without = _averaged(solution, up, hands, split=True, das=False)
                evs[(table, label, column)] = cell
                code = _code(cell, split_without_das=without) if cell else ""
                line.append(code)
                if code.startswith("R"):
                    surrender_rows.setdefault(label, {})[column] = code
            lines.append((label, tuple(line)))
        tables[table] = CodeTable(tuple(lines))
    tables["surrender"] = CodeTable(tuple(
        (label, tuple(cells.get(c, "") for c in COLUMNS)) for label, cells in surrender_rows.items()
    ))
    return Chart(rules, {name: tables[name] for name in TABLES}, evs)


def chart(rules: TableRules, *, infinite: bool = False) -> Chart:
    """The basic-strategy chart of ``rules`` (cached with the solved rules)."""
    from tutor.strategy.solution import solve

    solution = solve(rules, infinite=infinite)
    return solution.cached("chart", lambda: build_chart(solution))
