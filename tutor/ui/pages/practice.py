"""Practice table: free play for 1 to 7 seats or the family session, with hints and judged moves."""

from __future__ import annotations

import streamlit as st

from tutor.decision import Action
from tutor.game import IllegalActionError
from tutor.rules import PRESETS
from tutor.ui import components as ui
from tutor.ui.practice import PracticeTable
from tutor.ui.session import app_state
from tutor.ui.state import AppState


def _new_table(state: AppState) -> None:
    family = st.session_state.get("practice-mode") == "family"
    seats = int(st.session_state.get("practice-seats", 1))
    names_text = str(st.session_state.get("practice-names", ""))
    names = tuple(name.strip() for name in names_text.split(",") if name.strip())
    if family:
        names = names[:seats] or tuple(
            state.t.format("Player {n}", n=index + 1) for index in range(seats)
        )
        seats = len(names)
        rules = PRESETS["family"] if state.rules.name != "family" else state.rules
    else:
        rules = state.rules
    try:
        table = PracticeTable(
            rules, seats=seats, family=family, names=names, seed=state.next_seed(),
            reference=state.reference,
        )
    except ValueError as error:
        st.session_state["practice-error"] = str(error)
        return
    st.session_state.pop("practice-error", None)
    state.practice = table
    table.deal()


def _act(state: AppState, action: Action) -> None:
    table = state.practice
    if table is None:
        return
    try:
        table.act(action)
    except IllegalActionError:
        return


def _hint(state: AppState) -> None:
    if state.practice is not None:
        state.practice.ask_hint()


def _deal(state: AppState) -> None:
    if state.practice is not None and state.practice.round_settled:
        state.practice.deal()


def _end_table(state: AppState) -> None:
    state.practice = None


def setup(state: AppState) -> None:
    t = state.t
    _ = t.gettext
    st.markdown(
        t.format("Table rules: **{name}** (change them in Settings).", name=state.rules.name)
    )
    st.radio(
        _("Game"),
        ("free", "family"),
        format_func=lambda mode: {
            "free": _("Free table: play every seat, 2 chips a hand"),
            "family": _("Family session: 20 chips each, 10 rounds, then a ranking"),
        }[mode],
        key="practice-mode",
    )
    st.slider(_("Seats"), 1, 7, 1, key="practice-seats")
    if st.session_state.get("practice-mode") == "family":
        st.text_input(
            _("Players' names, separated by commas (the bank is the app)"),
            key="practice-names",
            placeholder="Alice, Bruno",
        )
    error = st.session_state.get("practice-error")
    if error:
        st.error(str(error))
    st.button(_("Sit down and deal"), on_click=_new_table, args=(state,), type="primary")


def play(table: PracticeTable, state: AppState) -> None:
    t = state.t
    _ = t.gettext
    game = table.round
    assert game is not None

    def seat_name(seat: int) -> str:
        if table.session is not None:
            return table.session.players[table.seat_player(seat)].name
        if table.seats == 1:
            return _("You")
        return t.format("Seat {n}", n=seat + 1)

    session = table.session
    if session is not None:
        current = session.round_number + (0 if game.is_over else 1)
        st.caption(
            t.format(
                "Round {n} of {total} · bank {bank} chips",
                n=min(current, session.rounds),
                total=session.rounds,
                bank=t.chips(session.bank),
            )
        )
    chips = table.player_chips()
    chip_lines = [
        ":material/toll: "
        + t.format("{chips} chips", chips=t.chips(chips[table.seat_player(seat.index)]))
        for seat in game.seats
    ]
    ui.round_view(game, state, seat_name, chips=chip_lines)

    if game.to_act() is not None:
        ui.action_buttons(
            game.legal_actions(),
            state,
            lambda action: _act(state, action),
            key="table",
            refusals=table.refusals(),
            insurance=ui.is_insurance_phase(game),
        )
        st.button(
            _("Hint"),
            icon=":material/lightbulb:",
            key="hint",
            on_click=_hint,
            args=(state,),
            shortcut="A",
        )
        if table.hint is not None:
            with st.container(border=True):
                ui.judgement_view(table.hint, t)
    if table.moves:
        # Every move of the round that was not right, each with its reason and cost; then the
        # last move's verdict when it was right (so every click gets an answer).
        for move in table.slips:
            with st.container(border=True):
                ui.judgement_view(move.judgement, t, who=seat_name(move.seat), table=False)
        last = table.moves[-1]
        if last.is_right:
            st.success(
                ui.verdict_headline(last.judgement, t, who=seat_name(last.seat)),
                icon=":material/check_circle:",
            )
            note = ui.finesse_note(last.judgement, t)
            if note:
                st.markdown(":material/grid_on: " + note)
    ui.ev_help(t)

    def narrator_name(seat: int) -> str:
        return _("The player") if table.seats == 1 and table.session is None else seat_name(seat)

    with st.expander(_("What happened"), expanded=game.is_over):
        ui.narration(table.events, t, narrator_name)
    if game.is_over:
        slips = table.slips
        if slips:
            mistakes, close = len(table.mistakes), len(slips) - len(table.mistakes)
            st.info(
                t.format(
                    "This round: {mistakes}, {close}, costing {cost} chips on average.",
                    mistakes=t.ngettext("{n} mistake", "{n} mistakes", mistakes).format(
                        n=mistakes
                    ),
                    close=t.ngettext("{n} close call", "{n} close calls", close).format(n=close),
                    cost=t.small(sum(move.cost for move in slips)),
                )
            )
        if table.is_over:
            st.subheader(_("Final ranking"))
            for standing in table.ranking():
                st.markdown(
                    t.format(
                        "{rank}. **{name}**: {chips} chips",
                        rank=standing.rank,
                        name=standing.name,
                        chips=t.chips(standing.chips),
                    )
                )
        else:
            st.button(
                _("Deal the next round"),
                key="deal",
                on_click=_deal,
                args=(state,),
                type="primary",
                shortcut="Enter",
            )
    st.button(_("Leave the table"), key="leave", on_click=_end_table, args=(state,))


def main() -> None:
    state = app_state()
    st.title(state.t.gettext("Practice table"))
    if state.practice is None:
        setup(state)
    else:
        play(state.practice, state)


main()
