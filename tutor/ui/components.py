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
from tutor.cell import Cell, Kind
from tutor.decision import HAND_ACTIONS, INSURANCE_ACTIONS, Action, Grade
from tutor.game import Event, Phase, Round
from tutor.quiz import QuizSession
from tutor.quiz_questions import Category, Verdict
from tutor.render.card_pictures import hand_html
from tutor.render.catalogue import LANGUAGES
from tutor.render.explain import ev_sentence
from tutor.render.refusals import refusal_text
from tutor.render.translator import Translator
from tutor.strategy import CLOSE, Judgement, Reference
from tutor.ui.state import settings_changed
from tutor.visit import AppState, RefusedClick

#: Keyboard shortcuts of the actions in each language, the letter taken from the button's own
#: word (Streamlit reserves C and R, so French *Rester* takes its E). Hand and insurance actions
#: are never on screen together; each set's letters differ from one another and from the Hint
#: button's (``HINT_SHORTCUT``).
SHORTCUTS_BY_LANGUAGE: dict[str, dict[Action, str]] = {
    "en": {
        Action.HIT: "H",
        Action.STAND: "S",
        Action.DOUBLE: "D",
        Action.SPLIT: "P",
        Action.SURRENDER: "U",
        Action.INSURE: "I",
        Action.DECLINE_INSURANCE: "N",
        Action.EVEN_MONEY: "E",
    },
    "fr": {
        Action.HIT: "T",
        Action.STAND: "E",
        Action.DOUBLE: "D",
        Action.SPLIT: "S",
        Action.SURRENDER: "A",
        Action.INSURE: "A",
        Action.DECLINE_INSURANCE: "N",
        Action.EVEN_MONEY: "P",
    },
}
#: The English letters, for pages that do not yet ask by language.
SHORTCUTS: dict[Action, str] = SHORTCUTS_BY_LANGUAGE["en"]
#: The Hint button's letter: A (advice) in English, I (*Indice*) in French.
HINT_SHORTCUT: dict[str, str] = {"en": "A", "fr": "I"}


def shortcut(action: Action, t: Translator) -> str:
    """The key that plays ``action`` in the learner's language."""
    return SHORTCUTS_BY_LANGUAGE.get(t.language, SHORTCUTS)[action]


def keys_line(t: Translator) -> str:
    """The hand actions' keys in words, from the same table the buttons use."""
    keys = ", ".join(
        t.format("{key} {action}", key=shortcut(action, t), action=t.action_name(action).lower())
        for action in HAND_ACTIONS
    )
    return t.format("Keys: {keys}, 1–4 numbers, Enter next", keys=keys)


#: Streamlit's own English, hidden from the learner: the "Press Enter to apply" under text
#: inputs (every form here has its own button) and the "Running…/Stop" words of the status
#: widget (its running icon stays).
HIDE_STREAMLIT_ENGLISH = (
    "<style>[data-testid='InputInstructions']{display:none}"
    "[data-testid='stStatusWidget'] label,[data-testid='stStatusWidget'] button"
    "{display:none}"
    # A keyboard letter only where there is a keyboard: not on a touch screen (« Tirer T » on a
    # phone), and never a digit beside a number answer (« 15 1 »): the digits still answer, the
    # keys line under the question says so.
    "@media (hover: none) and (pointer: coarse){button kbd,"
    ".st-key-tutor-keys-line"
    "{display:none !important}}"
    "[class*='-option-'] button kbd{display:none !important}"
    "</style>"
)


def enter_key_css(t: Translator) -> str:
    """The Enter key's name on a button (Streamlit writes ``Enter`` in its ``kbd``) in the
    learner's language: ``Entrée`` in French; nothing to change in English.

    >>> from tutor.render.translator import translator
    >>> "Entrée" in enter_key_css(translator("fr")), enter_key_css(translator("en"))
    (True, '')
    """
    name = t.gettext("Enter")
    if name == "Enter":
        return ""
    quoted = name.replace("\\", "").replace("'", "")
    # The key as Streamlit labels it, and as ``tutor.ui.page_words`` relabels it (« Raccourci
    # Entrée »), whose script also empties the English text, leaving the name below alone.
    said = (t.gettext("Shortcut ") + quoted).replace("\\", "").replace("'", "")
    key = f"kbd:is([aria-label='Shortcut Enter'],[aria-label='{said}'])"
    return f"<style>{key}{{font-size:0}}{key}::after{{content:'{quoted}';font-size:.75rem}}</style>"


def sidebar(state: AppState) -> None:
    """Language and presentation mode, a click away on every page."""
    t = state.t
    with st.sidebar:
        language = st.segmented_control(
            t.gettext("Language"),
            LANGUAGES,
            default=state.language,
            format_func=lambda code: {"fr": "Français", "en": "English"}[code],
            key="sidebar_language",
            required=True,
        )
        _set_language(state, language)
        state.presentation = st.toggle(
            t.gettext("Presentation mode (large cards)"),
            value=state.presentation,
            key="sidebar_presentation",
        )
        st.caption(
            t.format("Table: {name}", name=t.table_name(state.rules)),
            help=t.source_citation(state.rules),
        )
    st.markdown(HIDE_STREAMLIT_ENGLISH + enter_key_css(t), unsafe_allow_html=True)
    if state.presentation:
        st.markdown(
            "<style>.stMainBlockContainer p, .stMainBlockContainer li {font-size:1.35rem}"
            " .stMainBlockContainer button p {font-size:1.3rem}</style>",
            unsafe_allow_html=True,
        )


def _set_language(state: AppState, chosen: object) -> None:
    """The language the switch shows, when the learner picked another: kept, and the page
    drawn again in it (the navigation above is already drawn)."""
    if chosen in LANGUAGES and chosen != state.language:
        state.language = str(chosen)
        settings_changed(state, widgets=("settings-language",))
        st.rerun()


def show_cards(cards: Sequence[Card | None], state: AppState, *, label: str | None = None) -> None:
    st.markdown(
        hand_html(cards, state.t, large=state.presentation, label=label), unsafe_allow_html=True
    )


def show_hands_side_by_side(
    hands: Sequence[tuple[Sequence[Card | None], str]], state: AppState
) -> None:
    """Labelled hands in one row, so that a question's cards and its answers fit one laptop or
    phone screen (issue 17): the first hand (the dealer's up-card) lets its label wrap to stay
    beside the learner's hand on a phone; a long hand goes to the next line."""
    row = "".join(
        hand_html(cards, state.t, large=state.presentation, label=label) for cards, label in hands
    )
    st.markdown(f'<div class="tutor-hands">{row}</div>', unsafe_allow_html=True)


def round_view(
    game: Round, state: AppState, seat_name: Callable[[int], str], *, chips: Sequence[str] = ()
) -> None:
    """The dealer's cards (the hole card face down until shown) and every seat's hands, a card
    doubled face down shown as a card's back, without a total, until the dealer has played.

    A seat's card of the deal dealt face down (the home game) is drawn as its player sees it
    when that player is at the screen (``Round.screen_seat``: during the seat's own turn, or
    always at a table of one seat), with a line saying the others see its back; at any other
    moment it is a card's back and the hand shows no total."""
    t = state.t
    dealer: list[Card | None] = list(game.visible_dealer_cards)
    if not game.hole_revealed and game.rules.dealer_peeks:
        dealer.append(None)
    dealer_label = t.gettext("Dealer")
    if game.hole_revealed:
        total = game.dealer_value
        if game.dealer_has_natural:
            shown = t.gettext("natural")
        elif total.total > 21:
            shown = t.format("{total}, bust", total=total.total)
        else:
            shown = t.value_text(total)  # a dealer's two tens are 20, never a pair to split
        dealer_label += " — " + shown
    show_cards(dealer, state, label=dealer_label)
    turn = game.to_act()
    viewer = game.screen_seat()
    columns = st.columns(min(len(game.seats), 4))
    for seat in game.seats:
        with columns[seat.index % len(columns)]:
            for index, hand in enumerate(seat.hands):
                # A card this screen may not show is a card's back (``PlayerHand.seen_by``).
                cards = game.cards_seen_by(seat.index, index, viewer)
                active = turn is not None and turn.seat == seat.index and turn.hand in (index, None)
                name = seat_name(seat.index)
                if len(seat.hands) > 1:
                    name += " " + t.format("(hand {n})", n=index + 1)
                value = (
                    t.hand_text(hand.cards, natural=hand.is_natural) if None not in cards else ""
                )
                bet = t.format("bet {bet}", bet=t.chips_text(hand.bet))
                parts = [part for part in (value, bet) if part]
                label = ("▶ " if active else "") + name + " — " + ", ".join(parts)
                show_cards(cards, state, label=label)
            if seat.index < len(chips):
                st.caption(chips[seat.index])
            if viewer == seat.index and any(hand.down_card is not None for hand in seat.hands):
                if len(game.seats) == 1:
                    note = t.gettext(
                        "The card dealt face down is for your eyes only: the rest of the table"
                        " sees its back."
                    )
                else:
                    note = t.format(
                        "The card dealt face down is for {name}'s eyes only: the other players"
                        " see its back.",
                        name=seat_name(seat.index),
                    )
                st.caption(":material/visibility: " + note)


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
            t.action_name(action, natural=insurance and Action.EVEN_MONEY in legal),
            key=f"{key}-{action.value}",
            on_click=on_action,
            args=(action,),
            disabled=action not in legal,
            help=help_text,
            shortcut=shortcut(action, t),
            type="primary" if action in legal else "secondary",
            width="stretch",
        )
    # A disabled button's reason is a hover tooltip, which touch cannot reach: on a touch or
    # narrow screen the reasons are also written out (CSS class in tutor.render.style).
    reasons = [
        t.format("{action}: {reason}", action=t.action_name(action), reason=t.refusal(*refusal))
        for action, refusal in (refusals or {}).items()
        if action in shown and action not in legal
    ]
    if reasons:
        items = "".join(f"<li>{html.escape(reason)}</li>" for reason in reasons)
        st.markdown(f'<ul class="tutor-touch-reasons">{items}</ul>', unsafe_allow_html=True)


def evs_markdown(judgement: Judgement, t: Translator) -> str:
    """The exact EV of every legal action as a Markdown table, best first, with the chart's play,
    the best play for these cards (where it differs) and the learner's choice marked."""
    rows = [f"| {t.gettext('Action')} | {t.gettext('Expected value (per bet)')} |", "|---|---:|"]
    for action, ev in sorted(judgement.evs.items(), key=lambda item: -item[1]):
        name = t.move_name(action, judgement.point)
        marks = []
        if action is judgement.chart_play:
            marks.append(":material/grid_on: " + t.gettext("the chart's play"))
        if judgement.differs and action is judgement.exact_play:
            marks.append(":material/star: " + t.gettext("best for these cards"))
        if action is judgement.chosen:
            marks.append(t.gettext("your choice"))
        label = f"**{name}**" if action is judgement.play else name
        suffix = f" ({', '.join(marks)})" if marks else ""
        rows.append(f"| {label}{suffix} | {t.ev(ev)} |")
    return "\n".join(rows)


def verdict_headline(
    judgement: Judgement, t: Translator, *, who: str = "", figures: bool = True,
    better: bool = True,
) -> str:
    """The verdict in one sentence: right, a close call or a mistake, with the cost (without
    ``figures``, in a lesson before expected values are taught, the grade alone). Without
    ``better`` neither the better play nor the cost is named: they can tell a card face down
    (split was better: the hidden card pairs the one that shows)."""
    prefix = f"{who} — " if who else ""
    play = t.move_name(judgement.play, judgement.point)
    if judgement.chosen is None:
        return prefix + t.format("Advice: **{play}**", play=play)
    chosen = t.move_name(judgement.chosen, judgement.point)
    if not better and judgement.grade is Grade.ACCEPTABLE:
        return prefix + t.format("**{chosen}**: a close call, not a mistake.", chosen=chosen)
    if not better and judgement.grade is Grade.WRONG:
        return prefix + t.format("**{chosen}**: a mistake.", chosen=chosen)
    if not figures and judgement.grade is Grade.ACCEPTABLE:
        return prefix + t.format(
            "**{chosen}**: a close call, not a mistake. **{play}** is only slightly better.",
            chosen=chosen, play=play,
        )
    if not figures and judgement.grade is Grade.WRONG:
        return prefix + t.format(
            "**{chosen}**: a mistake. **{play}** was better.", chosen=chosen, play=play
        )
    loss = t.small(judgement.loss)
    cost = t.plural("{n} chip", "{n} chips", judgement.cost, shown=t.small(judgement.cost))
    if judgement.grade is Grade.RIGHT:
        return prefix + t.format("**{chosen}**: right.", chosen=chosen)
    if judgement.grade is Grade.ACCEPTABLE:
        return prefix + t.format(
            "**{chosen}**: a close call, not a mistake. **{play}** is better by only {loss} of"
            " a bet ({cost} at this bet).",
            chosen=chosen, play=play, loss=loss, cost=cost,
        )
    return prefix + t.format(
        "**{chosen}**: a mistake. **{play}** was better: your choice gives up {loss} of a bet"
        " on average, {cost} at this bet.",
        chosen=chosen, play=play, loss=loss, cost=cost,
    )


def finesse_note(judgement: Judgement, t: Translator, *, figures: bool = True) -> str | None:
    """Where the exact play for these cards is not the chart's: the two, and what is at stake."""
    if not judgement.differs:
        return None
    values = {
        "chart": t.action_name(judgement.chart_play),
        "exact": t.action_name(judgement.exact_play),
        "gain": t.small(judgement.finesse),
    }
    if not figures:
        return t.format(
            "The chart says **{chart}**. With exactly these cards, **{exact}** is worth slightly"
            " more: a finesse for advanced players, not a mistake.",
            **values,
        )
    if judgement.reference is Reference.CHART:
        return t.format(
            "The chart says **{chart}**. With exactly these cards, **{exact}** is worth {gain}"
            " of a bet more: a finesse for advanced players, not a mistake.",
            **values,
        )
    return t.format(
        "The chart says **{chart}**, as the lessons teach. With exactly these cards, **{exact}**"
        " is worth {gain} of a bet more, and you chose to be graded on the exact play.",
        **values,
    )


def judgement_view(
    judgement: Judgement, t: Translator, *, who: str = "", table: bool = True,
    figures: bool = True, reason: bool = True,
) -> None:
    """A judged move (or advice) as every page shows it: verdict, reason, finesse, EVs. Without
    ``figures`` (a lesson before expected values are taught) no value is quoted, and no table.
    Without ``reason`` (a move of a seat whose card face down the screen may not show: the
    reason names the hand, the better play can tell the card) only the grade, and a line saying
    when the rest comes."""
    headline = verdict_headline(judgement, t, who=who, figures=figures, better=reason)
    if judgement.grade is Grade.RIGHT:
        st.success(headline, icon=":material/check_circle:")
    elif judgement.grade is Grade.ACCEPTABLE:
        st.warning(headline, icon=":material/balance:")
    elif judgement.grade is Grade.WRONG:
        st.error(headline, icon=":material/cancel:")
    else:
        st.markdown(headline)
    if not reason:
        st.caption(
            ":material/visibility_off: "
            + t.gettext(
                "The better play and its reason will be given once this player's cards are"
                " shown."
            )
        )
        return
    sentence = t.reason(judgement.reason.key, judgement.reason.params, figures=figures)
    if sentence:
        st.markdown(":material/lightbulb: " + sentence)
    note = finesse_note(judgement, t, figures=figures)
    if note:
        st.markdown(":material/grid_on: " + note)
    if table and figures:
        st.markdown(evs_markdown(judgement, t))
        # What the figures mean, right under them, with the table's own best play (issue 17).
        play = judgement.play
        st.caption(ev_sentence(t.action_name(play), judgement.evs[play], t))


def ev_help(t: Translator) -> None:
    """What the figures mean and how moves are graded, once per page, for a beginner."""
    with st.expander(t.gettext("What do these numbers mean?"), icon=":material/help:"):
        st.markdown(
            t.format(
                "The **expected value** of a play is what it wins or loses on average, per chip"
                " bet, if the same hand were played a great many times: {example} means losing"
                " {per100} for every 100 bet. Most hands lose a little whatever you do;"
                " the best play is the one that loses least, or wins most.",
                example=t.ev(-0.3), per100=t.chips_text(30),
            )
        )
        st.markdown(
            t.format(
                "**How moves are graded.** Right: the play of the strategy chart for this hand"
                " (or anything worth as much). A close call: it gives up less than {close} of a"
                " bet, {close100} per 100 bet; it is not counted as a mistake. A mistake:"
                " it gives up more. The chart gives one play per total; with some exact cards"
                " another play is worth slightly more, and the verdict then says so. In"
                " Settings you can choose to be graded on the exact play instead.",
                close=t.number(CLOSE, digits=3), close100=t.chips_text(CLOSE * 100),
            )
        )


def narration(events: Sequence[Event], t: Translator, seat_name: Callable[[int], str]) -> None:
    """The round told in sentences, in order (a live region for screen readers)."""
    lines = t.narrate_events(events, seat_name)
    items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
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
        # Two whole sentences, not a fragment glued in: each language words its own.
        bet = t.chips_text(question.bet)
        if question.doubled:
            what = t.format(
                "You bet {bet} and doubled. What does the hand win (or lose), bet not"
                " included?",
                bet=bet,
            )
        else:
            what = t.format(
                "You bet {bet}. What does the hand win (or lose), bet not included?",
                bet=bet,
            )
        st.markdown("**" + what + "**")
        return
    show_hands_side_by_side(
        [(question.dealer, t.gettext("Dealer shows")), (question.cards, t.gettext("Your hand"))],
        state,
    )
    point = question.point
    assert point is not None
    if point.is_insurance_decision:
        st.markdown("**" + t.gettext("The dealer shows an Ace: insurance?") + "**")
    else:
        # Named as the heat map names its cell: two bûches filed as a pair are « paire de 10 ».
        hand = t.hand_text(point.cards, pair=Cell.of(point).kind is Kind.PAIRS)
        st.markdown("**" + t.format("{hand}: what do you do?", hand=hand[:1].upper() + hand[1:])
                    + "**")


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
    """A decision judged by the judge (as every page shows it), or a number right or wrong."""
    t = state.t
    question = verdict.question
    if verdict.judgement is not None:
        judgement_view(verdict.judgement, t)
        return
    # The answer pressed stays in sight with its verdict, written as its button was.
    assert isinstance(verdict.given, Fraction)
    payout = question.category is Category.PAYOUTS
    given = t.signed_chips(verdict.given) if payout else t.chips(verdict.given)
    st.markdown(t.format("Your answer: **{answer}**", answer=given))
    if verdict.correct:
        st.success(t.gettext("Right!"), icon=":material/check_circle:")
    else:
        st.error(t.gettext("Not quite."), icon=":material/cancel:")
    assert question.expected is not None
    if question.category is Category.PAYOUTS and question.outcome is not None:
        st.markdown(
            t.format(
                "The hand is settled as **{outcome}**: {net}.",
                outcome=t.outcome_name(question.outcome),
                net=t.chips_text(question.expected, signed=True),
            )
        )
    else:
        st.markdown(t.format("The hand is worth **{total}**.", total=t.chips(question.expected)))


def score_line(quiz: QuizSession, t: Translator, *, values: bool = True) -> str:
    """The running score; ``values`` False leaves out the EV given away, for a lesson that has
    not taught expected values yet (``LessonRun.shows_values``)."""
    score = quiz.score
    if not values:
        return t.format(
            "Score: {right} / {answered} right ({accuracy}), streak {streak}",
            right=score.right,
            answered=score.answered,
            accuracy=t.percent(score.accuracy, digits=0),
            streak=score.streak,
        )
    return t.format(
        "Score: {right} / {answered} right ({accuracy}), streak {streak}, EV given away {lost}",
        right=score.right,
        answered=score.answered,
        accuracy=t.percent(score.accuracy, digits=0),
        streak=score.streak,
        lost=t.number(score.ev_lost, digits=2),
    )


def refuse(state: AppState, place: str, error: Exception) -> None:
    """Keep a refused click to be explained at ``place`` (a callback cannot draw)."""
    state.refused = RefusedClick(place, error)


def clear_refusal(state: AppState, place: str) -> None:
    """A new click at ``place``: the previous refusal there is no longer the news."""
    if state.refused is not None and state.refused.place == place:
        state.refused = None


def refusal_note(state: AppState, place: str) -> None:
    """The sentence of the click last refused at ``place``, where the click was: every page
    with a move that can be refused draws this under its buttons."""
    refused = state.refused
    if refused is not None and refused.place == place:
        st.error(refusal_text(refused.error, state.t), icon=":material/block:")


def is_insurance_phase(game: Round) -> bool:
    return game.phase is Phase.INSURANCE
