"""Strategy: the chart of the chosen rules, a cell's EVs, a diff of two rule sets, downloads."""

from __future__ import annotations

from functools import partial

import pandas as pd
import streamlit as st

from tutor.cards import format_cards
from tutor.i18n import Translator
from tutor.rules import PRESETS, TableRules
from tutor.strategy import chart, house_edge
from tutor.strategy.judge import Finesse, finesses
from tutor.ui import chart_view
from tutor.ui.session import app_state
from tutor.ui.state import AppState


def _remember_compare(state: AppState) -> None:
    chosen = st.session_state.get("strategy-compare")
    state.compare_preset = chosen if isinstance(chosen, str) else ""


def _pick_cell(frame: pd.DataFrame, table_name: str, grid_key: str) -> None:
    """A cell clicked in the grid becomes the hand and up-card explained below it."""
    picked = chart_view.picked_cell(frame, st.session_state.get(grid_key))
    if picked is not None:
        st.session_state[f"cell-row-{table_name}"], st.session_state["cell-up"] = picked


def _finesse_rows(items: list[Finesse], t: Translator) -> dict[str, list[str]]:
    return {
        t.gettext("Cards"): [
            f"{format_cards(f.cards)} / {t.up_card_name(1 if f.column == 'A' else int(f.column))}"
            for f in items
        ],
        t.gettext("The chart's play"): [t.action_name(f.chart_play) for f in items],
        t.gettext("Best for these cards"): [t.action_name(f.exact_play) for f in items],
        t.gettext("Worth more, per bet"): [t.small(f.gain) for f in items],
    }


def finesse_view(rules: TableRules, t: Translator, cell: tuple[str, str, str]) -> None:
    """Where the exact play for some cards is not the chart's: the cell explained, then all."""
    every = list(finesses(rules))
    here = [f for f in every if (f.table, f.row, f.column) == cell]
    if here:
        st.markdown(
            ":material/grid_on: "
            + t.gettext(
                "In this cell, some exact hands play differently: a finesse for advanced players,"
                " never counted as a mistake against the chart."
            )
        )
        st.table(_finesse_rows(here, t))
    title = t.ngettext(
        "Where the exact cards play differently from the chart: {n} hand",
        "Where the exact cards play differently from the chart: {n} hands",
        len(every),
    ).format(n=len(every))
    with st.expander(title):
        st.caption(
            t.gettext(
                "The chart gives one play per total, the best on average over every hand of that"
                " total. For these two-card hands the best play for the exact cards is another."
            )
        )
        if every:
            st.table(_finesse_rows(every, t))


def main() -> None:
    state = app_state()
    t = state.t
    _ = t.gettext
    st.title(_("Basic strategy"))
    rules = state.rules
    options = [name for name in PRESETS if name != rules.name]
    compare_name = st.selectbox(
        _("Compare with"),
        [None, *options],
        index=(options.index(state.compare_preset) + 1) if state.compare_preset in options else 0,
        format_func=lambda name: _("(nothing)") if name is None else t.preset_name(name),
        key="strategy-compare",
        on_change=_remember_compare,
        args=(state,),
    )
    with st.spinner(_("Computing the chart…")):
        main_chart = chart(rules)
        edge = house_edge(rules)
        other = chart(PRESETS[compare_name]) if compare_name else None
        other_edge = house_edge(PRESETS[compare_name]) if compare_name else None
    cols = st.columns(2)
    cols[0].metric(t.format("House edge — {name}", name=t.table_name(rules)), t.percent(edge))
    if other is not None and other_edge is not None and compare_name:
        cols[1].metric(
            t.format("House edge — {name}", name=t.preset_name(compare_name)),
            t.percent(other_edge),
            delta=t.signed_percent(other_edge - edge, digits=2),
            delta_color="inverse",
        )
    cited = t.source_citation(rules)
    if cited:
        st.caption(cited)
    st.markdown(chart_view.legend_html(t), unsafe_allow_html=True)
    tabs = st.tabs([chart_view.table_title(name, t) for name in chart_view.TABLES])
    for tab, name in zip(tabs, chart_view.TABLES, strict=True):
        with tab:
            st.markdown(
                chart_view.table_html(main_chart, name, t, large=state.presentation),
                unsafe_allow_html=True,
            )

    st.subheader(_("Explain a cell"))
    c1, c2, c3 = st.columns(3)
    table_name = c1.selectbox(
        _("Table"),
        ["hard", "soft", "pairs"],
        format_func=lambda n: chart_view.table_title(n, t),
        key="cell-table",
    )
    frame = main_chart.tables()[table_name]
    st.caption(_("Click a cell of this grid, or choose the hand and the up-card above."))
    grid_key = f"cell-grid-{table_name}"
    st.dataframe(
        frame.style.map(chart_view.cell_style),
        on_select=partial(_pick_cell, frame, table_name, grid_key),
        selection_mode="single-cell",
        key=grid_key,
        height="content",  # every row at once: a chart is read whole, not scrolled
    )
    row = c2.selectbox(_("Hand"), [str(r) for r in frame.index], key=f"cell-row-{table_name}")
    up = c3.selectbox(_("Dealer's up-card"), [str(c) for c in frame.columns], key="cell-up")
    code = str(frame.at[row, up]) if row in frame.index else str(frame.loc[row, up])
    evs = main_chart.explain(table_name, row, up)
    st.markdown(
        t.format("Chart says **{code}**. Expected value of each action, per bet:", code=code)
    )
    st.table(
        {
            _("Action"): [t.action_name(action) for action in evs],
            _("Expected value (per bet)"): [t.ev(ev) for ev in evs.values()],
        }
    )

    finesse_view(rules, t, (table_name, row, up))

    if other is not None and compare_name:
        st.subheader(
            t.format(
                "What changes from {a} to {b}",
                a=t.preset_name(compare_name),
                b=t.table_name(rules),
            )
        )
        changes = chart_view.differences(other, main_chart)
        if not changes:
            st.markdown(_("The two charts are the same."))
        else:
            st.markdown(
                t.format("{n} cells change (outlined in red below, old → new).", n=len(changes))
            )
            for name in ("hard", "soft", "pairs"):
                if any(change[0] == name for change in changes):
                    st.markdown(
                        chart_view.table_html(main_chart, name, t, other=other),
                        unsafe_allow_html=True,
                    )

    d1, d2 = st.columns(2)
    d1.download_button(
        _("Download CSV"),
        chart_view.chart_csv(main_chart),
        file_name=f"strategy-{rules.name}.csv",
        mime="text/csv",
        on_click="ignore",
    )
    d2.download_button(
        _("Download printable page"),
        chart_view.printable_html(main_chart, t, edge),
        file_name=f"strategy-{rules.name}.html",
        mime="text/html",
        on_click="ignore",
    )


main()
