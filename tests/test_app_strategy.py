"""The Strategy page: the chart of two presets, a cell's EVs, a diff, house edge, downloads."""

from __future__ import annotations

import pytest

from tests.conftest import OpenApp
from tutor.i18n import translator
from tutor.rules import PRESETS
from tutor.strategy import chart
from tutor.ui import chart_view
from tutor.ui.state import AppState


@pytest.mark.parametrize("preset", ["family", "american-s17"])
def test_the_chart_of_a_preset_is_shown_coloured_with_its_house_edge(
    open_app: OpenApp, preset: str
) -> None:
    at = open_app("strategy", AppState(rules=PRESETS[preset]))
    html = " ".join(block.value for block in at.markdown)
    assert "Totaux durs" in html
    assert "background:" in html
    assert at.metric[0].label.endswith(translator("fr").preset_name(preset))
    assert "%" in at.metric[0].value
    assert at.table[0].value.shape[0] >= 2, "the selected cell's EVs"
    assert not at.exception


def test_the_exact_plays_that_differ_from_the_chart_are_shown_beside_it(open_app: OpenApp) -> None:
    from tutor.strategy.judge import finesses

    at = open_app("strategy", AppState(rules=PRESETS["family"]))
    at.selectbox(key="cell-row-hard").select("13").run()
    at.selectbox(key="cell-up").select("2").run()
    assert not at.exception
    differing = [f for f in finesses(PRESETS["family"]) if (f.row, f.column) == ("13", "2")]
    assert differing, "10-3 against a 2 hits from one deck where the chart stands"
    cell_table = at.table[1].value
    assert len(cell_table) == len(differing)
    assert "Tirer" in set(cell_table.iloc[:, 2]), "the exact play is named beside the chart's"
    assert len(at.table) == 3, "the cell's EVs, its finesses, and every finesse of the table"
    assert len(at.table[2].value) == len(finesses(PRESETS["family"]))


def test_comparing_two_presets_outlines_the_cells_that_change(open_app: OpenApp) -> None:
    state = AppState(rules=PRESETS["american-h17"], compare_preset="american-s17")
    at = open_app("strategy", state)
    assert len(at.metric) == 2
    assert any("cases changent" in block.value for block in at.markdown)
    assert any("→<b>" in block.value for block in at.markdown)


def test_the_csv_and_printable_page_hold_every_table() -> None:
    family = chart(PRESETS["family"])
    csv = chart_view.chart_csv(family)
    assert csv.splitlines()[0].startswith("table,hand,2,")
    assert 'pairs,"A,A"' in csv
    page = chart_view.printable_html(family, translator("en"), 0.001)
    assert page.startswith("<!DOCTYPE html>")
    assert "Hard totals" in page
    assert "0.10%" in page


def test_a_clicked_grid_cell_is_the_cell_explained(open_app: OpenApp) -> None:
    """The grid under "Explain a cell" is the chart itself; a cell selected there (Streamlit's
    selection state) names the hand and the up-card whose EVs are shown."""
    at = open_app("strategy", AppState(rules=PRESETS["family"]))
    grid = at.dataframe[0].value
    assert list(grid.columns) == ["2", "3", "4", "5", "6", "7", "8", "9", "10", "A"]
    row = list(grid.index).index("16")
    selection = {"selection": {"rows": [], "columns": [], "cells": [(row, "10")]}}
    assert chart_view.picked_cell(grid, selection) == ("16", "10")
    assert chart_view.picked_cell(grid, {"selection": {"cells": []}}) is None
    # What the page does with it: the hand and up-card selectors move to the cell.
    at.selectbox(key="cell-row-hard").set_value("16")
    at.selectbox(key="cell-up").set_value("10").run()
    assert not at.exception
    assert "**H**" in " ".join(block.value for block in at.markdown)


def test_the_chart_names_its_table_and_cites_the_source(open_app: OpenApp) -> None:
    at = open_app("strategy", AppState(language="en", rules=PRESETS["french-casino"]))
    assert at.metric[0].label == "House edge — French casino"
    assert "Source: an online casino's rules page (the French casinos' conventions)" in [
        caption.value for caption in at.caption
    ]
    compare = at.selectbox(key="strategy-compare")
    assert "Family table (rules booklet)" in compare.options
    assert "family" not in compare.options
    compare.set_value("family").run()
    assert not at.exception
    assert at.metric[1].label == "House edge — Family table (rules booklet)"
    assert any(
        h.value == "What changes from Family table (rules booklet) to French casino"
        for h in at.subheader
    )
