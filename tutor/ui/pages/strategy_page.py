"""Strategy: the chart of the chosen rules (one clickable grid), what one rule changes in it and
why, a cell's EVs, the exact hands that play otherwise, downloads.

The page computes what it shows and no more: the table's own chart on the first render, and a
second rule set only once the learner flips an option or picks another table. Both come from
``tutor.strategy`` (each rule set solved once per process) and the comparison, with its reasons'
figures, from ``tutor.strategy.changes``.
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from tutor.cards import Card
from tutor.render import chart_view, explain
from tutor.render.translator import Translator
from tutor.rules import PRESETS, TableRules
from tutor.strategy import Chart, chart, house_edge
from tutor.strategy.changes import Comparison, Flip, compare, flips
from tutor.strategy.judge import Finesse, finesses
from tutor.ui.download_buttons import Offer, download_buttons
from tutor.ui.state import app_state
from tutor.visit import AppState

FLIP_KEY = "strategy-flip"
COMPARE_KEY = "strategy-compare"
#: The compare box's first choice: no other table (a value, not None, so the box never shows
#: Streamlit's English placeholder once a flip has cleared it).
NOTHING = ""


#: The rules changes kept so far (several rules changed, then compared): each a flip of the
#: rules the previous one made, the base table's name beside them so another table drops them.
KEPT_KEY = "strategy-kept"
#: The part radio's labels at the last run (they carry the counts of changed cells).
PART_LABELS_KEY = "strategy-part-labels"


def _forget_flip() -> None:
    """Another table chosen: it replaces any flipped rule (one comparison at a time). A table
    taken back to none finds no flip to forget either: while a rule is flipped none is chosen."""
    st.session_state[FLIP_KEY] = None
    st.session_state[KEPT_KEY] = None


def _kept(rules: TableRules) -> list[Flip]:
    """The changes kept on this table (none when they were made on another one)."""
    kept = st.session_state.get(KEPT_KEY)
    if not kept or kept[0] != rules:
        return []
    return list(kept[1])


def _keep(rules: TableRules, kept: list[Flip], flip: Flip) -> None:
    """The flipped rule kept: the pills then change one more rule of the changed table."""
    st.session_state[KEPT_KEY] = (rules, (*kept, flip))
    st.session_state[FLIP_KEY] = None


def _take_back(rules: TableRules) -> None:
    st.session_state[KEPT_KEY] = None
    st.session_state[FLIP_KEY] = None


def _forget_compare(state: AppState) -> None:
    """A rule flipped: it replaces the other table in the comparison. A flip taken back finds
    no table to forget either: while a rule is flipped none is chosen."""
    state.compare_preset = NOTHING
    st.session_state[COMPARE_KEY] = NOTHING


def _pick_cell(state: AppState, table_name: str, picked: tuple[str, str] | None) -> None:
    """A cell clicked in the chart becomes the hand and up-card explained below it, once: the
    grid keeps its selection from run to run, and a hand chosen in the boxes after the click
    must stand. Called where the grid is drawn, before the boxes it sets."""
    click = (table_name, *picked) if picked is not None else None
    if click == state.chart_click:
        return
    state.chart_click = click
    if picked is not None:
        st.session_state[f"cell-row-{table_name}"], st.session_state["cell-up"] = picked


def _cards_text(cards: tuple[Card, ...], t: Translator) -> str:
    return " ".join(f"{t.rank_index(card.rank)}{card.suit.symbol}" for card in cards)


def _finesse_rows(items: list[Finesse], t: Translator) -> dict[str, list[str]]:
    return {
        t.gettext("Cards"): [
            f"{_cards_text(f.cards, t)} / {t.up_card_name(1 if f.column == 'A' else int(f.column))}"
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


def _flip_control(
    state: AppState, rules: TableRules, t: Translator, kept: list[Flip]
) -> Flip | None:
    """The rule to flip, as pills over the chart: one click, one rule changed (of the table as
    the kept changes left it), then a button keeps it to change another."""
    options = {flip.key: flip for flip in flips(kept[-1].rules if kept else rules)}
    picked = st.session_state.get(FLIP_KEY)
    if picked is not None and picked not in options:
        st.session_state[FLIP_KEY] = None  # a flip of the previous table's rules
    flip_key = st.pills(
        t.gettext("Change one rule of this table"),
        list(options),
        format_func=lambda key: chart_view.flip_label(options[key], t),
        key=FLIP_KEY,
        on_change=_forget_compare,
        args=(state,),
    )
    return options.get(flip_key) if isinstance(flip_key, str) else None


def _kept_control(rules: TableRules, t: Translator, kept: list[Flip], flip: Flip | None) -> None:
    """Several rules changed before comparing: the changes kept so far, a button to keep the
    one chosen and change another, one to take them all back."""
    _ = t.gettext
    if kept:
        st.markdown(
            t.format(
                "Rules changed so far: {changes}",
                changes=", ".join(chart_view.flip_label(f, t) for f in kept),
            )
        )
    keep, back = st.columns(2)
    if flip is not None:
        keep.button(
            _("Keep this change and change another rule"),
            key="strategy-keep",
            on_click=_keep,
            args=(rules, kept, flip),
        )
    if kept:
        back.button(
            _("Take back every change"), key="strategy-take-back", on_click=_take_back,
            args=(rules,),
        )


def _compare_control(state: AppState, rules: TableRules, t: Translator) -> str | None:
    """Another table to compare with, when no rule is flipped (one comparison at a time)."""
    _ = t.gettext
    presets = [name for name in PRESETS if name != rules.preset]
    if state.compare_preset and state.compare_preset not in presets:
        state.compare_preset = ""
    compare_name = st.selectbox(
        _("Or compare with another table"),
        [NOTHING, *presets],
        index=(presets.index(state.compare_preset) + 1) if state.compare_preset else 0,
        format_func=lambda name: t.preset_name(name) if name else _("(nothing)"),
        key=COMPARE_KEY,
        on_change=_forget_flip,
    )
    state.compare_preset = compare_name if isinstance(compare_name, str) else NOTHING
    return compare_name or None


def _comparison_summary(comparison: Comparison, other_name: str, t: Translator) -> None:
    n = len(comparison.cells)
    if n == 0:
        st.markdown(t.gettext("No cell of the chart changes: only the house edge moves."))
        return
    st.markdown(
        t.ngettext(
            "**{n} cell changes** with {other}: it reads old→new in the chart, and why is"
            " told below the chart.",
            "**{n} cells change** with {other}: each reads old→new in the chart, and why is"
            " told below the chart.",
            n,
        ).format(n=n, other=other_name)
    )


def _changes_view(comparison: Comparison, title: str, t: Translator) -> None:
    """Every changed cell in words: its gain per bet, why, and both rule sets' values (nothing
    when no cell changes: the summary beside the chart has said so)."""
    if not comparison.cells:
        return
    st.header(title)
    several = chart_view.several_rules_text(comparison, t)
    if several:
        st.markdown(several)
    st.markdown(
        "\n".join(
            f"- {chart_view.change_text(comparison, change, t)}" for change in comparison.cells
        )
    )


def _part_control(t: Translator, comparison: Comparison | None) -> str:
    """Which part of the chart is drawn (hard, soft, pairs), with the count of changed cells in
    each part while comparing."""
    changed = dict.fromkeys(chart_view.TABLES, 0)
    for change in comparison.cells if comparison is not None else ():
        changed[change.table] += 1

    def label(name: str) -> str:
        title = chart_view.table_title(name, t)
        if comparison is None or not changed[name]:
            return title
        return t.ngettext("{part}: {n} change", "{part}: {n} changes", changed[name]).format(
            part=title, n=changed[name]
        )

    # A label that changes (a count of changes added or gone) leaves the browser's radio with
    # no option selected although the script keeps the part: written again, the part is sent
    # to the browser with the new labels, and the chosen part reads selected.
    labels = tuple(label(name) for name in chart_view.TABLES)
    if st.session_state.get(PART_LABELS_KEY) != labels:
        st.session_state[PART_LABELS_KEY] = labels
        if "cell-table" in st.session_state:
            st.session_state["cell-table"] = st.session_state["cell-table"]
    part = st.radio(
        t.gettext("Part of the chart"),
        list(chart_view.TABLES),
        format_func=label,
        horizontal=True,
        label_visibility="collapsed",
        key="cell-table",
    )
    return str(part)


def _explain(
    main_chart: Chart,
    table_name: str,
    t: Translator,
    comparison: Comparison | None,
    other_name: str,
) -> tuple[str, str, str]:
    """The cell chosen (clicked in the chart or picked here): its code in words and its EVs,
    best first."""
    _ = t.gettext
    st.header(_("Explain a cell"))
    c2, c3 = st.columns(2)
    frame = main_chart.tables()[table_name]
    row = c2.selectbox(_("Hand"), [str(r) for r in frame.index], key=f"cell-row-{table_name}")
    up = c3.selectbox(_("Dealer's up-card"), [str(c) for c in frame.columns], key="cell-up")
    code = str(frame.at[row, up])
    evs = main_chart.explain(table_name, row, up)
    st.markdown(
        t.format(
            "For **{cell}**, the strategy chart says **{code}** ({meaning}). Expected value of"
            " each action, per bet, best first:",
            cell=chart_view.cell_name(table_name, row, up, t),
            code=chart_view.code_text(code, t),
            meaning=chart_view.code_meaning(code, t),
        )
    )
    other = None
    if comparison is not None:
        other = chart(comparison.after).explain(table_name, row, up)
    st.table(
        chart_view.ev_rows(
            evs, t, other=other, other_title=t.format("With {other}", other=other_name)
        )
    )
    best = max(evs, key=evs.__getitem__)
    st.caption(explain.ev_sentence(t.action_name(best), evs[best], t))
    return table_name, row, up


def main() -> None:
    state = app_state()
    t = state.t
    _ = t.gettext
    st.title(_("Basic strategy"))
    rules = state.rules
    cited = t.source_citation(rules)
    if cited:
        st.caption(cited)
    with st.spinner(_("Computing the chart…")):
        main_chart = chart(rules)
        edge = house_edge(rules)

    kept = _kept(rules)
    flip = _flip_control(state, rules, t, kept)
    _kept_control(rules, t, kept, flip)
    changes = [*kept, *([flip] if flip is not None else [])]
    chart_column, side = st.columns([2, 1], gap="medium")
    with side:
        heading = _("House edge")
        st.markdown(f"**{heading}**")
        st.metric(t.table_name(rules), t.percent(edge))
        answer = st.container()  # the compared table's edge and its summary, filled below
        compare_name = _compare_control(state, rules, t)
        st.caption(explain.house_edge_sentence(edge, t))
    comparison: Comparison | None = None
    other_name = ""
    if changes or compare_name is not None:  # a flip wins: the latest choice
        other_rules = changes[-1].rules if changes else PRESETS[str(compare_name)]
        other_name = (
            ", ".join(chart_view.flip_label(f, t) for f in changes)
            if changes
            else t.preset_name(str(compare_name))
        )
        with answer:
            with st.spinner(_("Computing the other chart…")):
                comparison = compare(rules, other_rules)
            st.metric(
                other_name,
                t.percent(comparison.edge_after),
                delta=t.signed_percent(comparison.edge_after - edge, digits=2),
                delta_color="inverse",
            )
            _comparison_summary(comparison, other_name, t)

    with chart_column:
        table_name = _part_control(t, comparison)
        st.caption(_("Dealer's up-card across, your hand down. Click a cell to see its values."))
        frame = main_chart.tables()[table_name]
        grid_key = f"cell-grid-{table_name}"
        # One part of the chart at a time: the grid drawn is the grid shown, no hidden tab.
        clicked = st.dataframe(
            chart_view.chart_styler(main_chart, table_name, t, comparison=comparison),
            on_select="rerun",
            selection_mode="single-cell",
            column_config={
                column: st.column_config.TextColumn(width=chart_view.CELL_WIDTH)
                for column in ("_index", *frame.columns)
            },
            key=grid_key,
            height="content",  # every row at once: a chart is read whole, not scrolled
        )
        _pick_cell(state, table_name, chart_view.picked_cell(frame, clicked))
        st.markdown(chart_view.legend_html(t), unsafe_allow_html=True)

    if comparison is not None:
        if changes:
            title = t.format("What changes with: {change}", change=other_name)
        else:
            title = t.format(
                "What changes from {a} to {b}", a=t.table_name(rules), b=other_name
            )
        _changes_view(comparison, title, t)

    cell = _explain(main_chart, table_name, t, comparison, other_name)
    finesse_view(rules, t, cell)

    # Built when clicked, not at every run: the page computes what it shows.
    download_buttons([
        Offer(
            _("Download CSV"),
            partial(chart_view.chart_csv, main_chart, t),
            file_name=f"strategy-{rules.name}.csv",
            mime="text/csv",
            key="strategy-csv",
        ),
        Offer(
            _("Download printable page"),
            partial(chart_view.printable_html, main_chart, t, edge, rules=rules),
            file_name=f"strategy-{rules.name}.html",
            mime="text/html",
            key="strategy-html",
        ),
    ], width="content")

main()
