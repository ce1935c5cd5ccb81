"""Streamlit pieces shared by the pages: cards, the table, action buttons, verdicts, narration.

Pages stay thin by calling these; these only draw what ``tutor`` objects hold and wire buttons to
callbacks that call the ``tutor`` API. Nothing about rules or EVs is decided here.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from fractions import Fraction

import streamlit as st

from tutor.cards import Card
from tutor.decision import HAND_ACTIONS, INSURANCE_ACTIONS, Action
from tutor.game import Event, IllegalActionError, Phase, Round
from tutor.i18n import LANGUAGES, Translator
from tutor.quiz import Category, QuizSession, Verdict
from tutor.strategy import Advice
from tutor.ui.cards import hand_html
from tutor.ui.state import AppState

#: Keyboard shortcuts of the actions (C and R are reserved by Streamlit).
SHORTCUTS: dict[Action, str] = {
    Action.HIT: "H",
    Action.STAND: "S",
    Action.DOUBLE: "D",
    Action.SPLIT: "P",
    Action.SURRENDER: "U",
    Action.INSURE: "I",
    Action.DECLINE_INSURANCE: "N",
    Action.EVEN_MONEY: "E",
}


def category_name(category: Category, t: Translator) -> str:
    names = {
        Category.HARD: t.gettext("Hard totals"),
        Category.SOFT: t.gettext("Soft totals"),
        Category.PAIRS: t.gettext("Pairs"),
        Category.INSURANCE: t.gettext("Insurance"),
        Category.SURRENDER: t.gettext("Surrender"),
        Category.DOUBLING: t.gettext("Doubling"),
        Category.TOTALS: t.gettext("Hand totals"),
        Category.PAYOUTS: t.gettext("Payouts"),
    }
    return names[category]


def sidebar(state: AppState) -> None:
    """Language and presentation mode, a click away on every page."""
    t = state.t
    with st.sidebar:
        st.segmented_control(
            t.gettext("Language"),
            LANGUAGES,
            default=state.language,
            format_func=lambda code: {"fr": "Français", "en": "English"}[code],
            key="sidebar_language",
            on_change=_set_language,
            args=(state,),
            required=True,
        )
        st.toggle(
            t.gettext("Presentation mode (large cards)"),
            value=state.presentation,
            key="sidebar_presentation",
            on_change=_set_presentation,
            args=(state,),
        )
        st.caption(t.format("Table: {name}", name=state.rules.name))
    if state.presentation:
        st.markdown(
            "<style>.stMainBlockContainer p, .stMainBlockContainer li {font-size:1.35rem}"
            " .stMainBlockContainer button p {font-size:1.3rem}</style>",
            unsafe_allow_html=True,
        )


def _set_language(state: AppState) -> None:
    chosen = st.session_state.get("sidebar_language")
    if chosen in LANGUAGES:
        state.language = chosen


def _set_presentation(state: AppState) -> None:
    state.presentation = bool(st.session_state.get("sidebar_presentation"))


def show_cards(cards: Sequence[Card | None], state: AppState, *, label: str | None = None) -> None:
    st.markdown(
        hand_html(cards, state.t, large=state.presentation, label=label), unsafe_allow_html=True
    )


def round_view(
    game: Round, state: AppState, seat_name: Callable[[int], str], *, chips: Sequence[str] = ()
) -> None:
    """The dealer's cards (the hole card face down until shown) and every seat's hands."""
    t = state.t
    dealer: list[Card | None] = list(game.visible_dealer_cards)
    if not game.hole_revealed and game.rules.dealer_peeks:
        dealer.append(None)
    dealer_label = t.gettext("Dealer")
    if game.hole_revealed:
        dealer_label += " — " + t.format("total {total}", total=game.dealer_value.total)
    show_cards(dealer, state, label=dealer_label)
    turn = game.to_act()
    columns = st.columns(min(len(game.seats), 4))
    for seat in game.seats:
        with columns[seat.index % len(columns)]:
            for index, hand in enumerate(seat.hands):
                cards: list[Card | None] = [
                    None if card is hand.hidden_card else card for card in hand.cards
                ]
                active = turn is not None and turn.seat == seat.index and turn.hand in (index, None)
                name = seat_name(seat.index)
                if len(seat.hands) > 1:
                    name += " " + t.format("(hand {n})", n=index + 1)
                value = (
                    t.format("total {total}", total=hand.value.total)
                    if hand.hidden_card is None
                    else ""
                )
                bet = t.format("bet {bet}", bet=t.chips(hand.bet))
                parts = [part for part in (value, bet) if part]
                label = ("▶ " if active else "") + name + " — " + ", ".join(parts)
                show_cards(cards, state, label=label)
            if seat.index < len(chips):
                st.caption(chips[seat.index])


def action_buttons(
    legal: frozenset[Action],
    state: AppState,
    on_action: Callable[[Action], None],
    *,
    key: str,
    refusals: dict[Action, tuple[str, dict[str, object]]] | None = None,
    insurance: bool = False,
    show_all: bool = True,
) -> None:
    """One button per action, enabled only when legal; a disabled button says why in its help."""
    t = state.t
    actions = INSURANCE_ACTIONS if insurance else HAND_ACTIONS
    shown = [action for action in actions if show_all or action in legal]
    columns = st.columns(len(shown))
    for column, action in zip(columns, shown, strict=True):
        refusal = (refusals or {}).get(action)
        help_text = t.refusal(*refusal) if refusal is not None and action not in legal else None
        column.button(
            t.action_name(action),
            key=f"{key}-{action.value}",
            on_click=on_action,
            args=(action,),
            disabled=action not in legal,
            help=help_text,
            shortcut=SHORTCUTS[action],
            type="primary" if action in legal else "secondary",
            width="stretch",
        )


def evs_markdown(advice: Advice, t: Translator, chosen: Action | None = None) -> str:
    """The EV of every legal action as a Markdown table, best first."""
    rows = [f"| {t.gettext('Action')} | {t.gettext('Expected value (per bet)')} |", "|---|---:|"]
    for action, ev in sorted(advice.evs.items(), key=lambda item: -item[1]):
        name = t.action_name(action)
        marks = []
        if action is advice.best:
            marks.append(":material/check_circle: " + t.gettext("best"))
        if action is chosen and action is not advice.best:
            marks.append(":material/cancel: " + t.gettext("your choice"))
        elif action is chosen:
            marks.append(t.gettext("your choice"))
        label = f"**{name}**" if action is advice.best else name
        suffix = f" ({', '.join(marks)})" if marks else ""
        rows.append(f"| {label}{suffix} | {t.ev(ev)} |")
    return "\n".join(rows)


def advice_view(advice: Advice, t: Translator, chosen: Action | None = None) -> None:
    if advice.reason.key:
        sentence = t.reason(advice.reason.key, advice.reason.params)
        if sentence:
            st.markdown(":material/lightbulb: " + sentence)
    st.markdown(evs_markdown(advice, t, chosen))


def narration(events: Sequence[Event], t: Translator, seat_name: Callable[[int], str]) -> None:
    """The round told in sentences, in order (a live region for screen readers)."""
    lines = [t.narrate(event, seat_name) for event in events]
    items = "".join(f"<li>{html.escape(line)}</li>" for line in lines if line)
    st.markdown(
        f'<div aria-live="polite"><ol style="margin:0;padding-left:1.3rem">{items}</ol></div>',
        unsafe_allow_html=True,
    )


def question_prompt(quiz: QuizSession, state: AppState) -> None:
    """The question's cards and what is asked."""
    t = state.t
    question = quiz.question
    assert question is not None
    if question.category is Category.TOTALS:
        show_cards(question.cards, state, label=t.gettext("Your hand"))
        st.markdown("**" + t.gettext("What is this hand worth?") + "**")
        return
    if question.category is Category.PAYOUTS:
        show_cards(question.dealer, state, label=t.gettext("Dealer"))
        show_cards(question.cards, state, label=t.gettext("Your hand"))
        what = t.format(
            "You bet {bet} chips{doubled}. What does the hand win (or lose), bet not included?",
            bet=t.chips(question.bet),
            doubled=t.gettext(" and doubled") if question.doubled else "",
        )
        st.markdown("**" + what + "**")
        return
    show_cards(question.dealer, state, label=t.gettext("Dealer shows"))
    show_cards(question.cards, state, label=t.gettext("Your hand"))
    point = question.point
    assert point is not None
    if point.is_insurance_decision:
        st.markdown("**" + t.gettext("The dealer shows an Ace: insurance?") + "**")
    else:
        value = point.value
        kind = t.gettext("soft") if value.soft else t.gettext("hard")
        st.markdown(
            "**" + t.format("{kind} {total}: what do you do?", kind=kind, total=value.total) + "**"
        )


def quiz_answers(
    quiz: QuizSession, state: AppState, *, key: str, on_done: Callable[[], None]
) -> None:
    """The answer buttons of the question shown (actions, or numbers 1 to 4 on the keyboard)."""
    question = quiz.question
    assert question is not None
    answered = quiz.verdict is not None
    t = state.t

    def answer(given: Action | Fraction) -> None:
        quiz.answer(given)
        on_done()

    if question.point is not None:
        if answered:
            return
        action_buttons(
            question.point.legal,
            state,
            answer,
            key=key,
            insurance=question.point.is_insurance_decision,
            show_all=False,
        )
        return
    if answered:
        return
    columns = st.columns(len(question.options))
    for index, (column, option) in enumerate(zip(columns, question.options, strict=True)):
        column.button(
            t.signed_chips(option) if question.category is Category.PAYOUTS else t.chips(option),
            key=f"{key}-option-{index}",
            on_click=answer,
            args=(option,),
            shortcut=str(index + 1),
            width="stretch",
        )


def verdict_view(verdict: Verdict, state: AppState) -> None:
    """Right or wrong, what was best, the EV of every action and the reason."""
    t = state.t
    question = verdict.question
    if verdict.correct:
        st.success(t.gettext("Right!"), icon=":material/check_circle:")
    else:
        st.error(t.gettext("Not quite."), icon=":material/cancel:")
    if question.point is not None:
        advice = verdict.advice
        if advice is None:
            st.info(t.gettext("The strategy cannot judge this decision yet."))
            return
        given = verdict.given
        chosen = given if isinstance(given, Action) else None
        if not verdict.correct:
            st.markdown(
                t.format(
                    "Best play: **{best}**. Your choice gives up {loss} of a bet on average.",
                    best=t.action_name(advice.best),
                    loss=t.number(advice.loss, digits=3),
                )
            )
        advice_view(advice, t, chosen)
        return
    assert question.expected is not None
    if question.category is Category.PAYOUTS and question.outcome is not None:
        st.markdown(
            t.format(
                "The hand is settled as **{outcome}**: {net} chips.",
                outcome=t.outcome_name(question.outcome),
                net=t.signed_chips(question.expected),
            )
        )
    else:
        st.markdown(t.format("The hand is worth **{total}**.", total=t.chips(question.expected)))


def score_line(quiz: QuizSession, t: Translator) -> str:
    score = quiz.score
    return t.format(
        "Score: {right} / {answered} right ({accuracy}), streak {streak}, EV given away {lost}",
        right=score.right,
        answered=score.answered,
        accuracy=t.percent(score.accuracy, digits=0),
        streak=score.streak,
        lost=t.number(score.ev_lost, digits=2),
    )


def refusal_error(error: IllegalActionError, t: Translator) -> str:
    return t.refusal(error.code, error.params)


def is_insurance_phase(game: Round) -> bool:
    return game.phase is Phase.INSURANCE
