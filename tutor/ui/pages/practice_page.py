"""Practice table: free play for 1 to 7 seats or the family session, with hints and judged moves."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from tutor.decision import Action
from tutor.game import IllegalActionError
from tutor.practice import (
    MAX_SEATS,
    MIN_SEATS,
    PracticeTable,
    SeatingError,
    parse_names,
    seat_family,
)
from tutor.render.translator import Translator
from tutor.rules import PRESETS, TableRules
from tutor.sources import citation
from tutor.table import BankRotation, FamilySession
from tutor.ui import components as ui
from tutor.ui.faults import callback_guard
from tutor.ui.page_words import verdict_box
from tutor.ui.resources import store
from tutor.ui.state import app_state
from tutor.visit import AppState

#: The text the rotating bank's conventions come from (``shared/sources/``).
_VINGT_ET_UN = "000_0c2d5cbf6d108733.txt"


#: Where a refused seating is said: above the button that asked for it.
SEATING = "seating"


@dataclass(frozen=True)
class TableChoice:
    """What the set-up form shows when "Sit down and deal" is clicked (the widgets' values)."""

    mode: str
    rotation: BankRotation = BankRotation.FIXED
    players: int = 0
    names: str = ""
    seats: int = MIN_SEATS


def _players_key(rotation: BankRotation) -> str:
    """One slider per bound pair, so a value chosen under one bank never falls outside the
    other's bounds."""
    return "practice-players-rotating" if rotation.is_rotating else "practice-players"


def _family_rules(state: AppState) -> TableRules:
    """The family session is played with the family table's rules, or the home game's (a table
    whose rules pass the bank between the players), as edited if they were; at any other table
    with the family booklet's."""
    rules = state.rules
    if rules.preset == "family" or rules.bank_rotation.is_rotating:
        return rules
    return PRESETS["family"]


def _new_table(state: AppState, choice: TableChoice) -> None:
    mode = choice.mode
    family = mode == "family"
    replay: list[str] = []
    if mode == "mistakes":
        replay = state.weak_hands(store())
    rotation = choice.rotation if family else BankRotation.FIXED
    names: tuple[str, ...] = ()
    try:
        if family:
            seats = choice.players
            names = seat_family(
                parse_names(choice.names),
                seats,
                rotation,
                default_name=lambda n: state.t.format("Player {n}", n=n),
            )
            rules = _family_rules(state)
        else:
            seats = 1 if mode == "mistakes" else choice.seats
            rules = state.rules
        table = PracticeTable(
            rules, seats=seats, family=family, names=names, rotation=rotation,
            seed=state.next_seed(), reference=state.reference, replay=replay,
            replay_mode=mode == "mistakes",
        )
    except SeatingError as error:
        ui.refuse(state, SEATING, error)
        return
    ui.clear_refusal(state, SEATING)
    state.practice = table
    table.deal()


@callback_guard
def _act(state: AppState, action: Action) -> None:
    """Play the move, then keep it with the learner's answers: every hand counts."""
    table = state.practice
    if table is None:
        return
    ui.clear_refusal(state, "table")
    try:
        move = table.act(action)
    except IllegalActionError as error:  # a button drawn before the hand changed
        ui.refuse(state, "table", error)
        return
    state.keep_judgement(store(), move.judgement, table.rules, "table")


def _hint(state: AppState) -> None:
    if state.practice is not None:
        state.practice.ask_hint()


@callback_guard
def _deal(state: AppState) -> None:
    ui.clear_refusal(state, "table")
    if state.practice is not None and state.practice.round_settled:
        state.practice.deal()


def _end_table(state: AppState) -> None:
    state.practice = None
    ui.clear_refusal(state, "table")


def _bank_choice(t: Translator, table_rules: TableRules) -> BankRotation:
    """Who holds the bank: the booklet's fixed bank, or the Vingt-et-Un's rotating bank by one
    of its three conventions, the rules' own convention chosen first; the chosen rule spelt out
    with the text it comes from."""
    _ = t.gettext
    labels = {
        BankRotation.FIXED: _("A fixed bank: the app holds it all session (the family booklet)"),
        BankRotation.EACH_ROUND: _("A rotating bank, one round each (the old Vingt-et-Un)"),
        BankRotation.UNTIL_LOSS: _(
            "A rotating bank, kept until the banker loses a round (the old Vingt-et-Un)"
        ),
        BankRotation.UNTIL_CARDS_RUN_OUT: _(
            "A rotating bank, kept until the cards run out (the old Vingt-et-Un)"
        ),
    }
    chosen = st.radio(
        _("Who holds the bank"),
        [rotation.value for rotation in BankRotation],
        index=list(BankRotation).index(table_rules.bank_rotation),
        format_func=lambda value: labels[BankRotation(value)],
        key="practice-bank",
    )
    rotation = BankRotation(chosen)
    rules = {
        BankRotation.FIXED: _(
            "The bank starts with 200 chips and tops up with tokens when it could not pay; every"
            " player bets 2 chips a round."
        ),
        BankRotation.EACH_ROUND: _(
            "Each player holds the bank for one round, then passes it to the next player. The"
            " banker does not bet: the banker's own chips pay the winners and take the losers'"
            " bets."
        ),
        BankRotation.UNTIL_LOSS: _(
            "The banker keeps the bank until a round costs the bank chips; then the next player"
            " takes it. The banker pays out of their own chips."
        ),
        BankRotation.UNTIL_CARDS_RUN_OUT: _(
            "The banker keeps the bank while the cards last: the cards of each round are set"
            " aside, not shuffled back. When too few are left for another deal, all the cards"
            " are shuffled and the next player takes the bank. The banker pays out of their own"
            " chips."
        ),
    }[rotation]
    if rotation.is_rotating:  # the fixed bank's source is the table's, cited above
        cited = citation(_VINGT_ET_UN, t.language) or _VINGT_ET_UN
        rules += " " + t.format("Source: {source}", source=cited)
    st.caption(rules)
    return rotation


def setup(state: AppState) -> None:
    t = state.t
    _ = t.gettext
    rules_line = st.container()  # drawn once the game is chosen below: the family's rules
    mode = st.radio(
        _("Game"),
        ("free", "mistakes", "family"),
        format_func=lambda mode: {
            "free": _("Free table: play every seat, 2 chips a hand"),
            "mistakes": _("My mistakes: the hands I got wrong, dealt again first"),
            "family": _("Family session: 20 chips each, 10 rounds, then a ranking"),
        }[mode],
        key="practice-mode",
    )
    family = mode == "family"
    rules = _family_rules(state) if family else state.rules
    with rules_line:
        st.markdown(
            t.format(
                "Table rules: **{name}** (change them in Settings).", name=t.table_name(rules)
            )
        )
        cited = t.source_citation(rules)
        if cited:
            st.caption(cited)
    st.caption(
        _(
            "Every move you make at this table is kept with your answers: it counts in My"
            " progress and To review, as a quiz answer does."
        )
    )
    choice = TableChoice(str(mode))
    if family:
        rotation = _bank_choice(t, rules)
        low, high = FamilySession.player_bounds(rotation)
        players = st.slider(
            _("Players"),
            low,
            high,
            low,
            key=_players_key(rotation),
            help=t.format(
                "The family table seats 2 to 7 people in all, the bank included: here {low} to"
                " {high} players.",
                low=low,
                high=high,
            ),
        )
        names = st.text_input(
            _("Players' names, separated by commas (the bank is the app)")
            if rotation is BankRotation.FIXED
            else _("Players' names, separated by commas (each holds the bank in turn)"),
            key="practice-names",
            placeholder="Alice, Bruno",
            help=_("Places without a typed name get a numbered name."),
        )
        choice = TableChoice(str(mode), rotation, int(players), str(names))
    elif mode != "mistakes":
        seats = st.slider(_("Seats"), MIN_SEATS, MAX_SEATS, MIN_SEATS, key="practice-seats")
        choice = TableChoice(str(mode), seats=int(seats))
    refusal_place = st.container()  # a refused seating is said above the button
    if st.button(_("Sit down and deal"), type="primary"):  # the form's values of this click
        _new_table(state, choice)
        st.rerun()
    with refusal_place:
        ui.refusal_note(state, SEATING)


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
        if table.round_banker is None:
            st.caption(
                t.format(
                    "Round {n} of {total} · bank: {bank}",
                    n=min(current, session.rounds),
                    total=session.rounds,
                    bank=t.chips_text(session.bank),
                )
            )
        else:
            banker = session.players[table.round_banker]
            line = t.format(
                "Round {n} of {total} · {name} holds the bank ({chips})",
                n=min(current, session.rounds),
                total=session.rounds,
                name=banker.name,
                chips=t.chips_text(banker.chips),
            )
            if game.is_over and session.banker is not None and not table.is_over:
                following = session.players[session.banker].name
                if session.banker == table.round_banker:
                    line += " · " + t.format("{name} keeps the bank", name=following)
                else:
                    line += " · " + t.format("the bank passes to {name}", name=following)
            st.caption(line)
    if table.replaying is not None:
        st.info(
            t.format(
                "One of your mistakes, dealt again: {hand}.", hand=t.item_name(table.replaying)
            ),
            icon=":material/replay:",
        )
    elif table.replay_mode:
        st.info(
            _("No mistake left to deal again: the shoe deals as usual."),
            icon=":material/check_circle:",
        )
    chips = table.player_chips()
    chip_lines = [
        ":material/toll: " + t.chips_text(chips[table.seat_player(seat.index)])
        for seat in game.seats
    ]
    ui.round_view(game, state, seat_name, chips=chip_lines)

    if game.to_act() is None:
        ui.refusal_note(state, "table")
    else:
        ui.action_buttons(
            game.legal_actions(),
            state,
            lambda action: _act(state, action),
            key="table",
            refusals=table.refusals(),
            insurance=ui.is_insurance_phase(game),
        )
        ui.refusal_note(state, "table")
        st.button(
            _("Hint"),
            icon=":material/lightbulb:",
            key="hint",
            on_click=_hint,
            args=(state,),
            shortcut=ui.HINT_SHORTCUT.get(t.language, "A"),
        )
        if table.hint is not None:
            with st.container(border=True):
                ui.judgement_view(table.hint, t)
    if table.moves:
        with verdict_box(f"practice-{len(table.moves)}"):  # each move: its verdict
            # Every move of the round that was not right, each with its reason and cost; then the
            # last move's verdict when it was right (so every click gets an answer).
            for move in table.slips:
                with st.container(border=True):
                    ui.judgement_view(
                        move.judgement, t, who=seat_name(move.seat), table=False,
                        reason=not table.reason_waits(move),
                    )
            last = table.moves[-1]
            if last.is_right:
                st.success(
                    ui.verdict_headline(last.judgement, t, who=seat_name(last.seat)),
                    icon=":material/check_circle:",
                )
                note = ui.finesse_note(last.judgement, t)
                if note and not table.reason_waits(last):
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
                    "This round: {mistakes}, {close}, costing {cost} on average.",
                    mistakes=t.ngettext("{n} mistake", "{n} mistakes", mistakes).format(
                        n=mistakes
                    ),
                    close=t.ngettext("{n} close call", "{n} close calls", close).format(n=close),
                    cost=t.plural(
                        "{n} chip", "{n} chips", sum(move.cost for move in slips),
                        shown=t.small(sum(move.cost for move in slips)),
                    ),
                )
            )
        if table.is_over:
            st.header(_("Final ranking"), anchor=False)
            for standing in table.ranking():
                st.markdown(
                    t.format(
                        "{rank}. **{name}**: {chips}",
                        rank=standing.rank,
                        name=standing.name,
                        chips=t.chips_text(standing.chips),
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
    st.title(state.t.gettext("Practice table"), anchor=False)
    if state.practice is None:
        setup(state)
    else:
        play(state.practice, state)


main()
