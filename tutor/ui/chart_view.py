"""The strategy chart as players know it: coloured HTML, a diff of two rule sets, CSV, print.

The chart itself comes from ``tutor.strategy.chart`` (computed, never typed); this only lays it
out. Every cell carries its code as text as well as its colour, and a ``title`` with the EVs, so
colour is never the only carrier of meaning.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import pandas as pd

from tutor.decision import Action
from tutor.i18n import Translator
from tutor.strategy import Chart

#: The usual colours: hit, stand, double, split, surrender (by the code's first letter).
COLOURS: dict[str, str] = {
    "H": "#ffffff",
    "S": "#f6d55c",
    "D": "#5fb3f0",
    "P": "#7bd389",
    "R": "#e58f8f",
}
TABLES: tuple[str, ...] = ("hard", "soft", "pairs", "surrender")


def table_title(name: str, t: Translator) -> str:
    return {
        "hard": t.gettext("Hard totals"),
        "soft": t.gettext("Soft totals"),
        "pairs": t.gettext("Pairs"),
        "surrender": t.gettext("Surrender"),
    }[name]


def legend(t: Translator) -> list[tuple[str, str, str]]:
    """(code, colour, meaning) for every code a chart may hold."""
    return [
        ("H", COLOURS["H"], t.gettext("hit")),
        ("S", COLOURS["S"], t.gettext("stand")),
        ("D", COLOURS["D"], t.gettext("double, else hit")),
        ("Ds", COLOURS["D"], t.gettext("double, else stand")),
        ("P", COLOURS["P"], t.gettext("split")),
        ("Ph", COLOURS["P"], t.gettext("split if double after split is allowed, else hit")),
        ("Rh", COLOURS["R"], t.gettext("surrender, else hit")),
        ("Rs", COLOURS["R"], t.gettext("surrender, else stand")),
        ("Rp", COLOURS["R"], t.gettext("surrender, else split")),
    ]


def _cell_title(evs: Mapping[Action, float] | None, t: Translator) -> str:
    if not evs:
        return ""
    return "; ".join(f"{t.action_name(action)} {t.ev(ev)}" for action, ev in evs.items())


def cell_style(code: object) -> str:
    """The CSS of one chart cell in a pandas Styler (the grid the learner clicks)."""
    return f"background-color: {COLOURS.get(str(code)[:1], '#ffffff')}; color: #1b1b1b"


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


def table_html(
    chart: Chart, name: str, t: Translator, *, other: Chart | None = None, large: bool = False
) -> str:
    """One table of the chart; with ``other``, cells that differ are outlined and show both."""
    frame: pd.DataFrame = chart.tables()[name]
    if frame.empty:
        return "<p>" + html.escape(t.gettext("No hand surrenders at this table.")) + "</p>"
    compare = other.tables()[name] if other is not None else None
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
            title = _cell_title(chart.evs.get((name, str(row), str(column))), t)
            text = html.escape(code)
            border = "1px solid #999"
            if compare is not None and row in compare.index:
                before = str(compare.at[row, column])
                if before != code:
                    text = f"{html.escape(before)}→<b>{html.escape(code)}</b>"
                    border = "3px solid #d32f2f"
            cells.append(
                f'<td title="{html.escape(title)}" style="background:{colour};border:{border};'
                f'text-align:center;padding:2px 4px;color:#111">{text}</td>'
            )
        rows.append(
            f'<tr><th scope="row" style="padding:2px 6px;text-align:right">'
            f"{html.escape(str(row))}</th>{''.join(cells)}</tr>"
        )
    dealer = html.escape(t.gettext("Dealer's up-card"))
    return (
        f'<div style="overflow-x:auto"><table style="border-collapse:collapse;font-size:{size};'
        f'font-family:DejaVu Sans Mono,monospace"><caption style="caption-side:top;'
        f'text-align:left;font-weight:600">{html.escape(table_title(name, t))}</caption>'
        f'<thead><tr><th scope="col" style="padding:2px 6px">{dealer} →</th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def legend_html(t: Translator) -> str:
    items = "".join(
        f'<span style="display:inline-block;margin:2px 8px 2px 0"><span style="background:{colour};'
        f'border:1px solid #999;padding:0 6px;color:#111;font-family:monospace">{code}</span> '
        f"{html.escape(meaning)}</span>"
        for code, colour, meaning in legend(t)
    )
    return f"<div>{items}</div>"


def differences(first: Chart, second: Chart) -> list[tuple[str, str, str, str, str]]:
    """Every cell whose code differs: (table, row, up-card, first code, second code)."""
    out = []
    for name in ("hard", "soft", "pairs"):
        a, b = first.tables()[name], second.tables()[name]
        for row in a.index:
            if row not in b.index:
                continue
            for column in a.columns:
                if str(a.at[row, column]) != str(b.at[row, column]):
                    out.append(
                        (
                            name,
                            str(row),
                            str(column),
                            str(a.at[row, column]),
                            str(b.at[row, column]),
                        )
                    )
    return out


def chart_csv(chart: Chart) -> str:
    """Every table in one CSV: a ``table`` column, the row, then one column per up-card."""
    frames = []
    for name in TABLES:
        frame = chart.tables()[name]
        if frame.empty:
            continue
        out = frame.copy()
        out.insert(0, "hand", [str(row) for row in out.index])
        out.insert(0, "table", name)
        frames.append(out)
    return pd.concat(frames).to_csv(index=False)


def printable_html(chart: Chart, t: Translator, house_edge: float | None) -> str:
    """A standalone page to print: the rules, the house edge, the tables and the legend."""
    title = t.format("Basic strategy — {name}", name=chart.rules.name)
    edge = (
        "<p>" + html.escape(t.format("House edge: {edge}", edge=t.percent(house_edge))) + "</p>"
        if house_edge is not None
        else ""
    )
    tables = "".join(
        f'<div style="break-inside:avoid;margin:8px 0">{table_html(chart, name, t)}</div>'
        for name in TABLES
    )
    return (
        f'<!DOCTYPE html><html lang="{t.language}"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>body{{font-family:DejaVu Sans,Arial,"
        "sans-serif;margin:1cm}} @media print{{td,span{{-webkit-print-color-adjust:exact;"
        "print-color-adjust:exact}}}}</style></head>"
        f"<body><h1>{html.escape(title)}</h1>{edge}{legend_html(t)}{tables}</body></html>"
    )
