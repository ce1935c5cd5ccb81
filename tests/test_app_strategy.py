"""The Strategy page: one clickable chart in the learner's letters, a rule flipped and what it
changes with the reason in figures, a cell's EVs best first, the finesses, downloads."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from serving import LAPTOP, SHOTS
from serving import new_page as _page
from serving import screenshot as _shot
from serving import wait_idle as _wait_idle
from tests.conftest import OpenApp
from tests.marks import BROWSER
from tutor.render import chart_view
from tutor.render.translator import translator
from tutor.rules import PRESETS
from tutor.strategy import chart, dealer_probabilities
from tutor.strategy.changes import compare
from tutor.visit import AppState

FRENCH_CODES = {"T", "R", "D", "D/R", "S", "S/T", "A/T", "A/R", "A/S"}
ENGLISH_CODES = {"H", "S", "D", "Ds", "P", "Ph", "Rh", "Rs", "Rp"}


def _cells(at: object) -> set[str]:
    """Every code on the chart, each part of it drawn in turn (one grid at a time)."""
    shown: set[str] = set()
    for part in ("hard", "soft", "pairs"):
        at.radio(key="cell-table").set_value(part).run()  # type: ignore[attr-defined]
        assert len(at.dataframe) == 1, "one chart on the page"  # type: ignore[attr-defined]
        grid = at.dataframe[0].value  # type: ignore[attr-defined]
        shown |= {str(value) for value in grid.to_numpy().ravel() if str(value)}
    return shown


@pytest.mark.parametrize("preset", ["family", "american-s17"])
def test_the_chart_is_drawn_once_coloured_with_its_house_edge(
    open_app: OpenApp, preset: str
) -> None:
    at = open_app("strategy", AppState(rules=PRESETS[preset]))
    assert not at.exception
    assert len(at.dataframe) == 1, "one chart, one part of it at a time"
    assert not any("<table" in block.value for block in at.markdown), "no second HTML chart"
    assert at.radio(key="cell-table").options == ["Totaux durs", "Totaux souples", "Paires"]
    assert at.metric[0].label == translator("fr").preset_name(preset)
    assert any(block.value == "**Avantage de la maison**" for block in at.markdown)
    assert "%" in at.metric[0].value
    assert len(at.metric) == 1, "nothing compared, nothing else solved"


def test_chart_codes_are_the_learners_letters_with_a_legend(open_app: OpenApp) -> None:
    at = open_app("strategy", AppState(rules=PRESETS["american-s17"]))
    shown = _cells(at)
    assert shown <= FRENCH_CODES
    assert {"T", "R", "D", "S", "A/T"} <= shown
    legend = next(block.value for block in at.markdown if "doubler, sinon rester" in block.value)
    assert ">D/R</span> doubler, sinon rester" in legend
    assert ">A/T</span> abandonner, sinon tirer" in legend

    at = open_app("strategy", AppState(language="en", rules=PRESETS["american-s17"]))
    shown = _cells(at)
    assert shown <= ENGLISH_CODES
    assert {"H", "S", "D", "P", "Rh"} <= shown


def test_the_explained_cell_lists_its_plays_best_first_and_names_the_best(
    open_app: OpenApp,
) -> None:
    at = open_app("strategy", AppState(rules=PRESETS["american-s17"]))
    at.selectbox(key="cell-row-hard").select("11").run()
    at.selectbox(key="cell-up").select("6").run()
    assert not at.exception
    text = " ".join(block.value for block in at.markdown)
    assert "le tableau de stratégie indique **D** (doubler, sinon tirer)" in text
    assert "11 dur contre un 6" in text
    assert "La table indique" not in text
    table = at.table[0].value
    fr = translator("fr")
    evs = chart(PRESETS["american-s17"]).explain("hard", "11", "6")
    ranked = sorted(evs, key=evs.__getitem__, reverse=True)
    assert list(table.iloc[:, 0]) == [fr.action_name(action) for action in ranked]
    assert list(table.iloc[:, 1]) == [fr.ev(evs[action]) for action in ranked]
    assert table.iloc[0, 2] == "meilleur coup", "the best play is said in words, not by colour"
    assert table.iloc[1, 2] == fr.ev(evs[ranked[1]] - evs[ranked[0]])


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
    assert not any("K♠" in str(cards) for cards in cell_table.iloc[:, 0]), "French indices"
    assert len(at.table) == 3, "the cell's EVs, its finesses, and every finesse of the table"
    assert len(at.table[2].value) == len(finesses(PRESETS["family"]))


def test_flipping_soft_17_shows_the_cells_that_change_and_why_in_figures(
    open_app: OpenApp,
) -> None:
    rules = PRESETS["american-s17"]
    at = open_app("strategy", AppState(rules=rules))
    flip = at.pills(key="strategy-flip")
    assert "Le croupier tire sur 17 souple" in flip.options
    flip.set_value("soft-17").run()
    assert not at.exception
    h17 = rules.replace(dealer_hits_soft_17=True)
    expected = compare(rules, h17)
    fr = translator("fr")
    assert at.metric[1].label == "Le croupier tire sur 17 souple"
    assert at.metric[1].value == fr.percent(expected.edge_after)
    text = " ".join(block.value for block in at.markdown)
    assert f"**{len(expected.cells)} cases changent**" in text
    soft = sum(1 for c in expected.cells if c.table == "soft")
    assert f"Totaux souples\u00a0: {soft} changements" in at.radio(key="cell-table").options
    # Soft 18 against a 2: stand becomes double-else-stand, in the chart and in the list, with
    # the dealer's bust rates of both rules and the values of both plays.
    assert "R→D/R" in _cells(at)
    bust_s17 = fr.percent(dealer_probabilities(rules, 2).bust, digits=1)
    bust_h17 = fr.percent(dealer_probabilities(h17, 2).bust, digits=1)
    line = next(item for item in text.split("\n- ") if "As-7 (18 souple) contre un 2" in item)
    assert "R → D/R" in line
    assert f"saute dans {bust_h17} des cas au lieu de {bust_s17}" in line
    cell = next(c for c in expected.cells if (c.table, c.row, c.column) == ("soft", "18", "2"))
    assert cell.gain is not None
    assert fr.ev(cell.gain) in line
    assert fr.ev(cell.evs_after[cell.new_play]) in line
    assert fr.ev(cell.evs_before[cell.old_play]) in line


def test_a_flip_and_another_table_are_never_compared_at_once(open_app: OpenApp) -> None:
    state = AppState(rules=PRESETS["american-s17"])
    at = open_app("strategy", state)
    at.pills(key="strategy-flip").set_value("decks-1").run()
    assert not at.exception
    assert at.metric[1].label.endswith("1 jeu")
    at.selectbox(key="strategy-compare").set_value("american-h17").run()
    assert not at.exception
    assert at.pills(key="strategy-flip").value is None
    assert state.compare_preset == "american-h17"
    at.pills(key="strategy-flip").set_value("surrender").run()
    assert at.selectbox(key="strategy-compare").value == ""
    assert state.compare_preset == ""
    assert at.metric[1].label.endswith("Pas d’abandon")


def test_a_flip_that_moves_no_cell_says_so_and_shows_the_edge(open_app: OpenApp) -> None:
    at = open_app("strategy", AppState(rules=PRESETS["american-s17"]))
    at.pills(key="strategy-flip").set_value("payout").run()
    assert not at.exception
    assert "6 pour 5" in at.metric[1].label
    assert at.metric[1].delta is not None
    assert at.metric[1].delta.startswith("+")
    assert any("Aucune case du tableau ne change" in block.value for block in at.markdown)


def test_comparing_with_another_table_lists_the_cells_that_change(open_app: OpenApp) -> None:
    state = AppState(rules=PRESETS["american-s17"], compare_preset="american-h17")
    at = open_app("strategy", state)
    assert not at.exception
    assert len(at.metric) == 2
    assert any("cases changent" in block.value for block in at.markdown)
    assert any("→" in value for value in _cells(at))
    # One option differs between the two presets: its reason is given, as for a flip.
    assert any("tire sur 17 souple saute dans" in block.value for block in at.markdown)


def test_the_csv_and_printable_page_hold_every_table() -> None:
    family = chart(PRESETS["family"])
    csv = chart_view.chart_csv(family)
    assert csv.splitlines()[0].startswith("table,hand,2,")
    assert 'pairs,"A,A"' in csv
    page = chart_view.printable_html(family, translator("en"), 0.001)
    assert page.startswith("<!DOCTYPE html>")
    assert "Hard totals" in page
    assert "0.10%" in page
    french = chart_view.printable_html(family, translator("fr"), 0.001)
    assert ">D/R</td>" in french or ">D</td>" in french
    assert ">Ds</td>" not in french


def test_a_clicked_chart_cell_is_the_cell_explained(open_app: OpenApp) -> None:
    """The chart is the grid the learner clicks; a cell selected there (Streamlit's selection
    state) names the hand and the up-card whose EVs are shown."""
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
    assert "**T** (tirer)" in " ".join(block.value for block in at.markdown)


def _clicked(row: int, column: str) -> dict[str, object]:
    """The grid's selection state after a click on one cell, as the browser sends it."""
    return {"selection": {"rows": [], "columns": [], "cells": [[row, column]]}}


def test_a_click_in_the_grid_moves_the_cell_explained_once(open_app: OpenApp) -> None:
    """A cell clicked in the chart (the grid's selection, as the browser sends it) becomes the
    hand and up-card explained; a box changed after the click stands, though the grid still
    shows the click selected, and another click moves the cell again."""
    at = open_app("strategy", AppState(rules=PRESETS["family"]))
    grid = at.dataframe[0].value
    row = list(grid.index).index("16")
    at.session_state["cell-grid-hard"] = _clicked(row, "10")
    at.run()
    assert not at.exception
    assert (at.selectbox(key="cell-row-hard").value, at.selectbox(key="cell-up").value) == (
        "16",
        "10",
    )
    at.selectbox(key="cell-up").set_value("6").run()
    assert (at.selectbox(key="cell-row-hard").value, at.selectbox(key="cell-up").value) == (
        "16",
        "6",
    ), "the box chosen after the click stands"
    row = list(grid.index).index("12")
    at.session_state["cell-grid-hard"] = _clicked(row, "2")
    at.run()
    assert (at.selectbox(key="cell-row-hard").value, at.selectbox(key="cell-up").value) == (
        "12",
        "2",
    )


def test_the_chart_names_its_table_and_cites_the_source(open_app: OpenApp) -> None:
    at = open_app("strategy", AppState(language="en", rules=PRESETS["french-casino"]))
    assert at.metric[0].label == "French casino"
    assert "Source: an online casino's rules page (the French casinos' conventions)" in [
        caption.value for caption in at.caption
    ]
    compare_box = at.selectbox(key="strategy-compare")
    assert "Family table (rules booklet)" in compare_box.options
    assert "french-casino" not in compare_box.options
    compare_box.set_value("family").run()
    assert not at.exception
    assert at.metric[1].label == "Family table (rules booklet)"
    assert any(
        h.value == "What changes from French casino to Family table (rules booklet)"
        for h in at.header
    )
    assert any("Several rules differ" in block.value for block in at.markdown)


def _in_browser(test: Callable[..., None]) -> Callable[..., None]:
    """The browser tests' marks (``tests.marks.BROWSER``) on one test of this module."""
    for mark in BROWSER:
        test = mark(test)
    return test


@_in_browser
def test_the_strategy_page_in_french_on_a_laptop_before_and_after_a_flip(
    server: str, chromium_browser: object
) -> None:
    """Screenshots for a person to look at: ``strategy-fr-laptop`` and, once the dealer hits
    soft 17, ``strategy-fr-laptop-h17``; the answer is on the page in words."""
    page = _page(chromium_browser, LAPTOP)
    page.goto(f"{server}/strategy")  # type: ignore[attr-defined]
    page.get_by_text("Avantage de la maison").first.wait_for()  # type: ignore[attr-defined]
    _wait_idle(page)
    _shot(page, "strategy-fr-laptop")
    page.get_by_text("Le croupier tire sur 17 souple", exact=True).click()  # type: ignore[attr-defined]
    page.get_by_text(re.compile(r"\d+ cases? chang")).first.wait_for()  # type: ignore[attr-defined]
    _wait_idle(page)
    _shot(page, "strategy-fr-laptop-h17")
    page.get_by_text("Ce qui change avec", exact=False).first.scroll_into_view_if_needed()  # type: ignore[attr-defined]
    page.wait_for_timeout(300)  # type: ignore[attr-defined]
    page.screenshot(path=str(SHOTS / "strategy-fr-laptop-h17-why.png"))  # type: ignore[attr-defined]
    assert page.get_by_text(re.compile("tire sur 17 souple saute dans")).count() >= 1  # type: ignore[attr-defined]
    page.context.close()  # type: ignore[attr-defined]


def test_the_first_render_compares_nothing_and_a_flip_compares_once(open_app: OpenApp) -> None:
    """The page computes what it shows: no second rule set before the learner asks for one,
    then exactly the one asked for, kept for the next time it is asked."""
    compare.cache_clear()
    at = open_app("strategy", AppState(rules=PRESETS["american-s17"]))
    assert compare.cache_info().misses == 0
    at.pills(key="strategy-flip").set_value("double-after-split").run()
    assert not at.exception
    assert compare.cache_info().misses == 1
    at.pills(key="strategy-flip").set_value("soft-17").run()
    at.pills(key="strategy-flip").set_value("double-after-split").run()
    assert compare.cache_info().misses == 2, "flipping back costs no second comparison"


def test_several_rules_changed_then_compared_with_the_base_table(open_app: OpenApp) -> None:
    """Issue 29: H17 with no double after a split and 8 decks, against the base table: each
    rule changed in turn and kept, the comparison the engine's for all three together."""
    rules = PRESETS["american-s17"]
    at = open_app("strategy", AppState(rules=rules))
    at.pills(key="strategy-flip").set_value("soft-17").run()
    at.button(key="strategy-keep").click().run()
    assert not at.exception
    assert at.pills(key="strategy-flip").value is None
    # The pills now change one more rule of the changed table: 8 decks keeps soft 17 hit.
    at.pills(key="strategy-flip").set_value("decks-8").run()
    at.button(key="strategy-keep").click().run()
    at.pills(key="strategy-flip").set_value("double-after-split").run()
    assert not at.exception
    after = rules.replace(dealer_hits_soft_17=True, decks=8, double_after_split=False)
    expected = compare(rules, after)
    fr = translator("fr")
    assert at.metric[1].value == fr.percent(expected.edge_after)
    label = at.metric[1].label
    assert "Le croupier tire sur 17 souple" in label
    assert "8 jeux" in label
    text = " ".join(block.value for block in at.markdown)
    assert f"**{len(expected.cells)} cases changent**" in text
    assert "Plusieurs règles diffèrent" in text
    assert text.count("Plusieurs règles diffèrent") == 1, "said once, not once per cell"
    # Kept without the last flip, the comparison is of the two kept changes.
    at.pills(key="strategy-flip").set_value(None).run()
    kept = compare(rules, rules.replace(dealer_hits_soft_17=True, decks=8))
    assert at.metric[1].value == fr.percent(kept.edge_after)
    at.button(key="strategy-take-back").click().run()
    assert not at.exception
    assert len(at.metric) == 1, "every change taken back: nothing compared"


def test_a_change_keeps_the_chosen_part_of_the_chart_selected(open_app: OpenApp) -> None:
    at = open_app("strategy", AppState(rules=PRESETS["american-s17"]))
    at.radio(key="cell-table").set_value("soft").run()
    at.pills(key="strategy-flip").set_value("soft-17").run()
    assert not at.exception
    assert at.radio(key="cell-table").value == "soft"
    assert at.radio(key="cell-table").index == 1


def test_a_rule_that_takes_a_play_away_is_said_once_per_cell(open_app: OpenApp) -> None:
    """No stutter: « L’abandon n’est plus proposé. Abandonner n’est plus permis : … » was two
    sentences for one fact; the figures' sentence says it alone."""
    rules = PRESETS["american-s17"]
    assert rules.offers_surrender
    at = open_app("strategy", AppState(rules=rules))
    at.pills(key="strategy-flip").set_value("surrender").run()
    assert not at.exception
    lines = [
        item for block in at.markdown for item in block.value.split("\n- ")
        if "n’est plus permis" in item
    ]
    assert lines, "a surrender taken away is listed"
    assert not any("n’est plus proposé" in line for line in lines)
