"""The strategy chart as players know it: one coloured, clickable grid, its legend, what a rule
change does to it in words, a CSV and a printable page.

The chart itself comes from ``tutor.strategy.chart`` (computed, never typed) and a comparison from
``tutor.strategy.changes``; this only lays them out in the learner's language. Every cell carries
its code as text as well as its colour, so colour is never the only carrier of meaning, and the
codes are the learner's own letters (French *T*, *R*, *D*, *S*, *A* for tirer, rester, doubler,
séparer, abandonner), from the catalogue like every other word.
"""

from __future__ import annotations

import tutor.blas  # noqa: F401  (one BLAS thread, set before numpy is imported)

# isort: split
import html
from collections.abc import Mapping
from typing import Any

import pandas as pd
from pandas.io.formats.style import Styler

from tutor.cell import Cell
from tutor.decision import Action
from tutor.render.catalogue import N_
from tutor.render.translator import Translator
from tutor.rules import DoubleOn, HoleCard, Surrender, TableRules
from tutor.strategy import Chart
from tutor.strategy.changes import (
    CellChange,
    Comparison,
    DealerBust,
    DealerNatural,
    Flip,
    Option,
    TenShare,
)

#: The usual colours: hit, stand, double, split, surrender (by the code's first letter).
COLOURS: dict[str, str] = {
    "H": "#ffffff",
    "S": "#f6d55c",
    "D": "#5fb3f0",
    "P": "#7bd389",
    "R": "#e58f8f",
}
#: The tables of the chart the page draws (the surrender table repeats cells of these).
TABLES: tuple[str, ...] = ("hard", "soft", "pairs")
#: Every table, for the CSV and the printable page.
ALL_TABLES: tuple[str, ...] = ("hard", "soft", "pairs", "surrender")

#: Each code as the learner's language writes it (English keeps the usual letters), and what it
#: means. The letters are catalogue entries: a French learner reads T, R, D, S, A.
CODE_LETTERS: dict[str, str] = {
    "H": N_("H"),
    "S": N_("S"),
    "D": N_("D"),
    "Ds": N_("Ds"),
    "P": N_("P"),
    "Ph": N_("Ph"),
    "Rh": N_("Rh"),
    "Rs": N_("Rs"),
    "Rp": N_("Rp"),
}
CODE_MEANINGS: dict[str, str] = {
    "H": N_("hit"),
    "S": N_("stand"),
    "D": N_("double, else hit"),
    "Ds": N_("double, else stand"),
    "P": N_("split"),
    "Ph": N_("split if double after split is allowed, else hit"),
    "Rh": N_("surrender, else hit"),
    "Rs": N_("surrender, else stand"),
    "Rp": N_("surrender, else split"),
}


def table_title(name: str, t: Translator) -> str:
    return {
        "hard": t.gettext("Hard totals"),
        "soft": t.gettext("Soft totals"),
        "pairs": t.gettext("Pairs"),
        "surrender": t.gettext("Surrender"),
    }[name]


def code_text(code: str, t: Translator) -> str:
    """A chart code in the learner's letters: ``Ds`` is ``D/R`` in French."""
    message = CODE_LETTERS.get(code)
    return t.gettext(message) if message is not None else code


def code_meaning(code: str, t: Translator) -> str:
    message = CODE_MEANINGS.get(code)
    return t.gettext(message) if message is not None else code


def legend(t: Translator) -> list[tuple[str, str, str]]:
    """(code in the learner's letters, colour, meaning) for every code a chart may hold."""
    return [
        (code_text(code, t), COLOURS[code[:1]], code_meaning(code, t)) for code in CODE_LETTERS
    ]


def legend_html(t: Translator) -> str:
    items = "".join(
        f'<span style="display:inline-block;margin:2px 8px 2px 0"><span style="background:{colour};'
        f'border:1px solid #767676;padding:0 6px;color:#111;font-family:monospace">'
        f"{html.escape(code)}</span> {html.escape(meaning)}</span>"
        for code, colour, meaning in legend(t)
    )
    return f"<div>{items}</div>"


def cell_name(table: str, row: str, column: str, t: Translator) -> str:
    """``16 dur contre 10``, ``As-7 (18 souple) contre As``: a cell as a learner reads it."""
    return t.cell_name(Cell.from_chart(table, row, column))


# -- the one chart on the page --------------------------------------------------------------------


def changed_cells(comparison: Comparison | None) -> dict[tuple[str, str, str], CellChange]:
    if comparison is None:
        return {}
    return {(c.table, c.row, c.column): c for c in comparison.cells}


def _cell_css(code: str) -> str:
    return f"background-color: {COLOURS.get(code[:1], '#ffffff')}; color: #1b1b1b"


def chart_styler(
    chart: Chart, name: str, t: Translator, *, comparison: Comparison | None = None
) -> Styler:
    """One table of the chart for ``st.dataframe`` (a grid the learner clicks to explain a
    cell): each cell its code in the learner's letters on the code's colour; with a
    comparison, a changed cell reads ``old→new`` on the new code's colour."""
    frame: pd.DataFrame = chart.tables()[name]
    codes = {str(code) for code in frame.to_numpy().ravel()}
    letters = {code: code_text(code, t) for code in codes}
    shown = frame.map(lambda code: letters[str(code)])
    css = frame.map(lambda code: _cell_css(str(code)))
    for change in comparison.cells if comparison is not None else ():
        if change.table == name:
            before, after = code_text(change.before, t), code_text(change.after, t)
            shown.at[change.row, change.column] = f"{before}→{after}"
            css.at[change.row, change.column] = _cell_css(change.after)
    shown.index = pd.Index([str(r) for r in frame.index], name=t.gettext("Hand"))
    css.index = shown.index
    return shown.style.apply(lambda _: css, axis=None)


#: Width of a chart column in the grid, in pixels: ten up-cards and the hands fit a laptop's
#: two-thirds column, and a changed cell (``R→D/R``) still reads whole.
CELL_WIDTH = 54


def picked_cell(frame: pd.DataFrame, selection: Any) -> tuple[str, str] | None:
    """The (hand, up-card) of the cell selected in the grid, from Streamlit's selection state.

    >>> frame = pd.DataFrame({"2": ["H", "S"], "A": ["H", "H"]}, index=["12", "13"])
    >>> picked_cell(frame, {"selection": {"rows": [], "columns": [], "cells": [(1, "A")]}})
    ('13', 'A')
    >>> picked_cell(frame, None) is None
    True
    """
    cells = (selection or {}).get("selection", {}).get("cells") or []
    if not cells:
        return None
    position, column = cells[0]
    return str(frame.index[int(position)]), str(column)


def ev_rows(
    evs: Mapping[Action, float],
    t: Translator,
    *,
    other: Mapping[Action, float] | None = None,
    other_title: str = "",
) -> dict[str, list[str]]:
    """A cell's EVs as a table, best first, the best play named in words (not by colour only),
    each other play with what it gives up against the best; with ``other``, the same actions'
    values under the compared rules beside them."""
    ranked = sorted(evs.items(), key=lambda item: item[1], reverse=True)
    best = ranked[0][1] if ranked else 0.0
    rows: dict[str, list[str]] = {
        t.gettext("Action"): [t.action_name(action) for action, _ in ranked],
        t.gettext("Expected value (per bet)"): [t.ev(ev) for _, ev in ranked],
        t.gettext("Against the best play"): [
            t.gettext("best play") if index == 0 else t.ev(ev - best)
            for index, (_, ev) in enumerate(ranked)
        ],
    }
    if other is not None:
        rows[other_title] = [
            t.ev(other[action]) if action in other else t.gettext("not allowed")
            for action, _ in ranked
        ]
    return rows


# -- a rule changed, in words ---------------------------------------------------------------------


def flip_label(flip: Flip, t: Translator) -> str:
    """The changed rule as a learner reads it: ``Le croupier tire sur 17 souple``, ``1 jeu``."""
    value = flip.value
    option = flip.option
    if option is Option.SOFT_17:
        if value:
            return t.gettext("Dealer hits soft 17")
        return t.gettext("Dealer stands on soft 17")
    if option is Option.DOUBLE_AFTER_SPLIT:
        if value:
            return t.gettext("Double after a split")
        return t.gettext("No double after a split")
    if option is Option.DECKS:
        count = int(flip.rules.decks)
        return t.ngettext("{n} deck", "{n} decks", count).format(n=count)
    if option is Option.HOLE_CARD:
        if value is HoleCard.EUROPEAN:
            return t.gettext("No hole card (European deal)")
        return t.gettext("Hole card, the dealer checks for a natural")
    if option is Option.SURRENDER:
        if value is Surrender.NONE:
            return t.gettext("No surrender")
        if value is Surrender.LATE:
            return t.gettext("Late surrender")
        return t.gettext("Immediate surrender")
    if option is Option.SURRENDER_AGAINST_ACE:
        if value:
            return t.gettext("Surrender against an Ace too")
        return t.gettext("No surrender against an Ace (a casino's house rule)")
    if option is Option.DOUBLE_ON:
        if value is DoubleOn.ANY_TWO:
            return t.gettext("Double on any two cards")
        if value is DoubleOn.NINE_TO_ELEVEN:
            return t.gettext("Double on 9, 10 or 11 only")
        return t.gettext("Double on 10 or 11 only")
    if option is Option.SPLIT_HANDS:
        hands = int(flip.rules.max_hands)
        if hands == 2:
            return t.gettext("One split only")
        return t.ngettext("Split up to {n} hand", "Split up to {n} hands", hands).format(n=hands)
    if option is Option.PAYOUT:
        pays = flip.rules.blackjack_pays
        return t.format("A natural pays {pays}", pays=t.ratio(pays))
    return str(option.value)



def _decks(n: int, t: Translator) -> str:
    return t.ngettext("{n} deck", "{n} decks", n).format(n=n)


def fact_sentence(comparison: Comparison, change: CellChange, t: Translator) -> str | None:
    """Why the option moved this cell, from the computed fact (or the rule itself): the dealer's
    bust rate, the tens left, the natural a double risks, a play now allowed or taken away."""
    option = comparison.option
    fact = change.fact
    after = comparison.after
    up = t.up_card_phrase(change.up)
    if option is None:  # several rules: said once above the list (``several_rules_text``)
        return None
    if isinstance(fact, DealerBust):
        message = N_(
            "Against {up}, a dealer who stands on soft 17 busts {after} of the time instead of"
            " {before}, and stops on 17 {after_17} of the time instead of {before_17}."
        )
        if after.dealer_hits_soft_17:
            message = N_(
                "Against {up}, a dealer who hits soft 17 busts {after} of the time instead of"
                " {before}, and stops on 17 {after_17} of the time instead of {before_17}."
            )
        return t.format(
            message, up=up, after=t.percent(fact.after, digits=1),
            before=t.percent(fact.before, digits=1),
            after_17=t.percent(fact.seventeen_after, digits=1),
            before_17=t.percent(fact.seventeen_before, digits=1),
        )
    if isinstance(fact, TenShare):
        return t.format(
            "With {after_decks} instead of {before_decks}, once this hand and the up-card are out,"
            " tens make {after} of the cards left instead of {before}: the fewer the decks, the"
            " more the cards already dealt change what is left to draw.",
            after_decks=_decks(fact.decks_after, t), before_decks=_decks(fact.decks_before, t),
            after=t.percent(fact.after, digits=1), before=t.percent(fact.before, digits=1),
        )
    if isinstance(fact, DealerNatural):
        if fact.checked_after:
            return t.format(
                "With a hole card the dealer checks first: against {up}, a natural ({natural} of"
                " the time) ends the round before you double or split, so it never takes an"
                " extra bet.",
                up=up, natural=t.percent(fact.probability, digits=1),
            )
        return t.format(
            "Without a hole card nobody checks for a natural first: against {up} the dealer"
            " makes one {natural} of the time, and it takes the extra bet of a double or a"
            " split too.",
            up=up, natural=t.percent(fact.probability, digits=1),
        )
    if option is Option.DOUBLE_AFTER_SPLIT:
        if after.double_after_split:
            return t.gettext(
                "Doubling after a split is now allowed: each hand of the split is worth more."
            )
        return t.gettext(
            "Doubling after a split is no longer allowed: each hand of the split is worth less."
        )
    if option is Option.SURRENDER:
        if after.offers_surrender:
            return t.gettext("Surrender is now offered: half the bet back.")
        return t.gettext("Surrender is no longer offered.")
    if option is Option.SURRENDER_AGAINST_ACE:
        if after.surrender_against_ace:
            return t.gettext("Surrender is now offered against an Ace too.")
        return t.gettext(
            "Surrender is now refused against an Ace: a house rule of some casinos, which none of"
            " the course's sources states."
        )
    if option is Option.DOUBLE_ON:
        if after.double_on is DoubleOn.ANY_TWO:
            return t.gettext("Doubling is now allowed on any two cards.")
        return t.gettext("Doubling is now allowed on some hard totals only.")
    if option is Option.SPLIT_HANDS:
        return t.ngettext(
            "A pair may now be split into {n} hand at most.",
            "A pair may now be split into {n} hands at most.",
            after.max_hands,
        ).format(n=after.max_hands)
    return None


def figures_sentence(change: CellChange, t: Translator) -> str:
    """The two plays' values before and after, per bet, in the learner's number format."""
    old, new = change.old_play, change.new_play
    before, after = change.evs_before, change.evs_after
    if old is new:
        return t.format(
            "**{play}** stays the better play here: {after} per bet instead of {before}.",
            play=t.action_name(new), after=t.ev(after[new]), before=t.ev(before[new]),
        )
    if old not in after:
        return t.format(
            "**{old}** is not allowed any more: **{new}** is now worth {new_after} per bet"
            " (before, **{old}** was worth {old_before}).",
            old=t.action_name(old), new=t.action_name(new), new_after=t.ev(after[new]),
            old_before=t.ev(before[old]),
        )
    if new not in before:
        return t.format(
            "**{new}** was not allowed before: it is now worth {new_after} per bet, **{old}**"
            " {old_after} (before, **{old}** was worth {old_before}).",
            old=t.action_name(old), new=t.action_name(new), new_after=t.ev(after[new]),
            old_after=t.ev(after[old]), old_before=t.ev(before[old]),
        )
    return t.format(
        "Now **{new}** is worth {new_after} per bet and **{old}** {old_after}; before, **{new}**"
        " was worth {new_before} and **{old}** {old_before}.",
        old=t.action_name(old), new=t.action_name(new), new_after=t.ev(after[new]),
        old_after=t.ev(after[old]), new_before=t.ev(before[new]), old_before=t.ev(before[old]),
    )


def change_headline(change: CellChange, t: Translator) -> str:
    """``**16 dur contre 10** : A/T → T, +0,012 par mise en jouant Tirer plutôt qu'Abandonner``."""
    cell = cell_name(change.table, change.row, change.column, t)
    codes = f"{code_text(change.before, t)} → {code_text(change.after, t)}"
    gain = change.gain
    if gain is not None and change.old_play is not change.new_play:
        worth = t.format(
            "{gain} per bet playing {new} rather than {old}", gain=t.ev(gain),
            new=t.action_name(change.new_play).lower(), old=t.action_name(change.old_play).lower(),
        )
    else:
        worth = t.format(
            "the cell's best play changes by {change} per bet", change=t.ev(change.value_change)
        )
    return t.format("**{cell}**: {codes}, {worth}", cell=cell, codes=codes, worth=worth)


def several_rules_text(comparison: Comparison, t: Translator) -> str | None:
    """Said once above the changed cells when several rules differ (not once per cell)."""
    if len(comparison.options) > 1:
        return t.gettext(
            "Several rules differ between these two tables: the figures are their effect"
            " together."
        )
    return None


def change_text(comparison: Comparison, change: CellChange, t: Translator) -> str:
    """One changed cell in words: the headline, why, and the figures, one sentence per thing
    said: where a play is taken away or newly allowed by the rule itself, the figures' sentence
    says so (« **Abandonner** n’est plus permis : … ») and the rule's sentence is left out."""
    parts = [change_headline(change, t)]
    fact = fact_sentence(comparison, change, t)
    allowed_changed = (
        change.old_play not in change.evs_after or change.new_play not in change.evs_before
    )
    if fact and not (change.fact is None and allowed_changed):
        parts.append(fact)
    parts.append(figures_sentence(change, t))
    return " ".join(parts[:1]) + " — " + " ".join(parts[1:])


# -- downloads ------------------------------------------------------------------------------------


#: The printable page's column widths, the same for every table so that the groups line up
#: when printed one under the other: the row labels' column, then each up-card's.
PRINT_LABEL_WIDTH = "11em"
PRINT_CELL_WIDTH = "3.2em"


def table_html(chart: Chart, name: str, t: Translator, *, large: bool = False) -> str:
    """One table of the chart as HTML (the printable page), codes in the learner's letters,
    every table with the same fixed column widths."""
    frame: pd.DataFrame = chart.tables()[name]
    if frame.empty:
        return "<p>" + html.escape(t.gettext("No hand surrenders at this table.")) + "</p>"
    size = "1.15rem" if large else "0.85rem"
    head = "".join(
        f'<th scope="col" style="padding:2px 6px">{html.escape(str(column))}</th>'
        for column in frame.columns
    )
    rows = []
    for row in frame.index:
        cells = []
        for column in frame.columns:
            code = str(frame.at[row, column])
            colour = COLOURS.get(code[:1], "#ffffff")
            cells.append(
                f'<td style="background:{colour};border:1px solid #999;text-align:center;'
                f'padding:2px 4px;color:#111">{html.escape(code_text(code, t))}</td>'
            )
        rows.append(
            f'<tr><th scope="row" style="padding:2px 6px;text-align:right">'
            f"{html.escape(str(row))}</th>{''.join(cells)}</tr>"
        )
    dealer = html.escape(t.gettext("Dealer's up-card"))
    columns = f'<col style="width:{PRINT_LABEL_WIDTH}">' + "".join(
        f'<col style="width:{PRINT_CELL_WIDTH}">' for _ in frame.columns
    )
    width = f"calc({PRINT_LABEL_WIDTH} + {len(frame.columns)} * {PRINT_CELL_WIDTH})"
    return (
        f'<div style="overflow-x:auto"><table style="border-collapse:collapse;font-size:{size};'
        f"font-family:DejaVu Sans Mono,monospace;table-layout:fixed;width:{width}\">"
        f'<caption style="caption-side:top;'
        f'text-align:left;font-weight:600">{html.escape(table_title(name, t))}</caption>'
        f"<colgroup>{columns}</colgroup>"
        f'<thead><tr><th scope="col" style="padding:2px 6px">{dealer} →</th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def csv_separator(t: Translator) -> str:
    """The field separator a spreadsheet of the language expects: ``;`` where the comma is the
    decimal mark (French), ``,`` elsewhere."""
    return ";" if t.number(0.5, digits=1).startswith("0,") else ","


def csv_hand(table: str, label: str, t: Translator) -> str:
    """A row's hand as the learner's CSV writes it: a pair in words (« 10 et 10 », "A and A"),
    since a spreadsheet reads ``10,10`` as the number 10.1 in French and 1010 in English; the
    other rows as the chart writes them (``16``, ``A,7`` is text already: its A is a letter)."""
    if table != "pairs" or "," not in label:
        return label
    first, second = label.split(",", 1)
    return t.format("{first} and {second}", first=first, second=second)


def chart_csv(chart: Chart, t: Translator | None = None) -> str:
    """Every table in one CSV in the learner's language: headings, tables' names and codes as
    the chart on screen writes them (French *T*, *R*, *D*, *S*...), the language's separator
    (``;`` in French), then a blank line and the legend (each code and what it means).

    Without a translator, the data file programs read: a ``table`` column with the tables' ids,
    the row, one column per up-card, the usual English codes, commas, no legend."""
    if t is None:
        return _data_csv(chart)
    import csv
    import io

    from tutor.spreadsheet import safe_text

    out = io.StringIO()
    writer = csv.writer(out, delimiter=csv_separator(t), lineterminator="\n")
    header: list[str] | None = None
    for name in ALL_TABLES:
        frame = chart.tables()[name]
        if frame.empty:
            continue
        if header is None:
            header = [t.gettext("table"), t.gettext("hand"), *(str(c) for c in frame.columns)]
            writer.writerow([safe_text(cell) for cell in header])
        for row in frame.index:
            codes = [code_text(str(frame.at[row, column]), t) for column in frame.columns]
            hand = csv_hand(name, str(row), t)
            writer.writerow([safe_text(cell) for cell in (table_title(name, t), hand, *codes)])
    writer.writerow([])
    writer.writerow([safe_text(t.gettext("code")), safe_text(t.gettext("meaning"))])
    for code, _colour, meaning in legend(t):
        writer.writerow([safe_text(code), safe_text(meaning)])
    return out.getvalue()


def _data_csv(chart: Chart) -> str:
    frames = []
    for name in ALL_TABLES:
        frame = chart.tables()[name]
        if frame.empty:
            continue
        out = frame.copy()
        out.insert(0, "hand", [str(row) for row in out.index])
        out.insert(0, "table", name)
        frames.append(out)
    from tutor.spreadsheet import safe_frame

    return safe_frame(pd.concat(frames)).to_csv(index=False)


def printable_html(
    chart: Chart, t: Translator, house_edge: float | None, *, rules: TableRules | None = None
) -> str:
    """A standalone page to print: the table's name, the house edge, the tables and the legend.
    The name is ``rules``' (the table the page shows: a chart's own rules carry no name, since
    two tables with the same rules share one chart), else a chart's own, else « vos règles »."""
    name = t.table_name(rules if rules is not None else chart.rules).strip()
    title = t.format("Basic strategy — {name}", name=name or t.gettext("your own rules"))
    edge = (
        "<p>" + html.escape(t.format("House edge: {edge}", edge=t.percent(house_edge))) + "</p>"
        if house_edge is not None
        else ""
    )
    tables = "".join(
        f'<div style="break-inside:avoid;margin:8px 0">{table_html(chart, name, t)}</div>'
        for name in ALL_TABLES
    )
    return (
        f'<!DOCTYPE html><html lang="{t.language}"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>body{{font-family:DejaVu Sans,Arial,"
        "sans-serif;margin:1cm}} @media print{{td,span{{-webkit-print-color-adjust:exact;"
        "print-color-adjust:exact}}}}</style></head>"
        f"<body><h1>{html.escape(title)}</h1>{edge}{legend_html(t)}{tables}</body></html>"
    )
