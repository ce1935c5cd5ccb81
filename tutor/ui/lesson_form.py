"""The form editor of « Mes leçons »: the lesson's head and steps in boxes and lists, written
as the same YAML the text editor holds.

Streamlit only: every change is ``tutor.authoring_form``'s (a text in, a text out), saved and
checked by the page's ``save`` like a text typed in the editor.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import streamlit as st

from tutor import authoring_form as form
from tutor.authoring_form import CARDS, MOVES, FormError, FormView
from tutor.cards import parse_cards
from tutor.decision import Action
from tutor.render.catalogue import N_
from tutor.render.lesson_problems import table_words
from tutor.render.translator import Translator
from tutor.rules import PRESETS

#: What the form says when it cannot write a step, by ``FormError.code``.
FORM_ERRORS: dict[str, str] = {
    "form-too-large": N_("The lesson is too large for the form: shorten it in the text."),
    "form-not-a-mapping": N_(
        "The form cannot read this text: fix it in the YAML text (the checker says where),"
        " and the form comes back."
    ),
    "form-empty-text": N_("A text is empty: write it, then add the step."),
    "form-preset": N_("Choose the table from the list."),
    "form-too-many-steps": N_("A lesson holds at most {most} steps."),
    "form-two-options": N_("A question with choices needs at least two options."),
    "form-right-option": N_("The right option is one of the options written."),
    "form-two-cards": N_("Pick the hand's two cards."),
    "form-dealer-cards": N_("Pick the dealer's cards."),
    "form-move-not-offered": N_(
        "This move is not offered on this hand: choose one of the moves listed."
    ),
    "form-card-twice": N_(
        "{card} is picked more often than the table's decks hold it: pick another card."
    ),
    "form-deal-long": N_("This round does not end: pick other cards."),
    "form-deal-cards": N_("The decks run out for this round: pick other cards."),
    "form-too-many-cards": N_("Name at most {most} next cards."),
}

#: The kinds of step the form adds.
KINDS: dict[str, str] = {
    "explain": N_("An explanation"),
    "choice": N_("A question with choices"),
    "action": N_("A question on a move"),
    "deal": N_("A deal to play"),
}
#: A step's kind as the list names it.
STEP_KINDS: dict[str, str] = {
    "explain": N_("Explanation"),
    "show": N_("Cards shown"),
    "ask": N_("Question"),
    "deal": N_("Deal"),
    "drill": N_("Drill"),
}
LEVELS = {1: N_("beginner"), 2: N_("intermediate"), 3: N_("advanced")}
#: The options a choice question's form offers boxes for.
OPTION_BOXES = 4
RANDOM = ""


def card_label(card: str, t: Translator) -> str:
    """A card as the lists name it: « D♥ · Dame de cœur »."""
    parsed = parse_cards(card)[0]
    return f"{t.card_index_text(parsed)} · {t.card_name(parsed)}"


def form_error_text(error: FormError, t: Translator) -> str:
    template = FORM_ERRORS.get(error.code)
    if template is None:
        return str(error)
    params = {k: v for k, v in error.params.items() if isinstance(v, str | int)}
    return t.format(template, **params)


def lesson_form(
    text: str,
    t: Translator,
    *,
    key: str,
    write: Callable[[str], None],
) -> None:
    """The form of a lesson ``text``; ``write`` saves and checks the text a change makes."""
    _ = t.gettext
    try:
        view = form.read_form(text, t.language)
    except FormError as error:
        st.warning(form_error_text(error, t), icon=":material/edit_note:")
        return

    def apply(change: Callable[[], str]) -> None:
        try:
            new = change()
        except FormError as error:
            st.session_state[f"{key}-error"] = form_error_text(error, t)
            return
        st.session_state.pop(f"{key}-error", None)
        write(new)

    _head(view, text, t, key=key, apply=apply)
    _steps(view, text, t, key=key, apply=apply)
    _add(text, t, key=key, apply=apply)
    said = st.session_state.get(f"{key}-error")
    if said:
        st.error(said, icon=":material/error:")


def _head(
    view: FormView,
    text: str,
    t: Translator,
    *,
    key: str,
    apply: Callable[[Callable[[], str]], None],
) -> None:
    _ = t.gettext
    with st.container(border=True, key=f"{key}-head"):
        st.markdown("**" + _("The lesson") + "**")
        title = st.text_input(_("Title"), value=view.title, key=f"{key}-title", max_chars=120)
        goal = st.text_input(
            _("What the learner can do afterwards"),
            value=view.goal,
            key=f"{key}-goal",
            max_chars=300,
        )
        level_col, table_col = st.columns(2)
        level = level_col.selectbox(
            _("Level"),
            options=list(LEVELS),
            index=view.level - 1,
            format_func=lambda n: t.gettext(LEVELS[n]),
            key=f"{key}-level",
        )
        presets = list(PRESETS)
        preset = table_col.selectbox(
            _("Table"),
            options=presets,
            index=presets.index(view.preset) if view.preset in presets else 0,
            format_func=t.preset_name,
            key=f"{key}-table",
            disabled=view.preset is None,
            help=None
            if view.preset is not None
            else _("A table of its own: change it in the text."),
        )
        moves = st.multiselect(
            _("Moves offered"),
            options=list(MOVES),
            default=list(view.actions) if view.actions is not None else list(MOVES),
            format_func=t.action_name,
            key=f"{key}-moves",
        )
        if st.button(_("Apply"), key=f"{key}-head-apply", icon=":material/check:"):
            chosen = tuple(moves)
            actions = None if set(chosen) == set(MOVES) else chosen
            apply(
                lambda: form.set_head(
                    text,
                    title=str(title),
                    level=int(level),
                    preset=str(preset) if view.preset is not None else None,
                    actions=actions,
                    goal=str(goal),
                    language=t.language,
                )
            )


def _steps(
    view: FormView,
    text: str,
    t: Translator,
    *,
    key: str,
    apply: Callable[[Callable[[], str]], None],
) -> None:
    _ = t.gettext
    with st.container(border=True, key=f"{key}-steps"):
        st.markdown("**" + t.plural("{n} step", "{n} steps", len(view.steps)) + "**")
        for index, step in enumerate(view.steps):
            kind = STEP_KINDS.get(step.kind)
            words = t.gettext(kind) if kind else step.kind
            line, up, down, remove = st.columns([5, 1, 1, 1], vertical_alignment="center")
            title = f" · {step.title}" if step.title else ""
            line.markdown(t.format("**Step {n}**", n=index + 1) + f" · {words}" + _escaped(title))
            if up.button("↑", key=f"{key}-up-{index}", disabled=index == 0, help=_("Move up")):
                apply(functools.partial(form.move_step, text, index, -1))
            if down.button(
                "↓",
                key=f"{key}-down-{index}",
                disabled=index == len(view.steps) - 1,
                help=_("Move down"),
            ):
                apply(functools.partial(form.move_step, text, index, 1))
            if remove.button(
                "✕", key=f"{key}-remove-{index}", help=t.format("Remove step {n}", n=index + 1)
            ):
                apply(functools.partial(form.remove_step, text, index))


def _escaped(text: str) -> str:
    return "".join("\\" + c if c in "\\`*_{}[]()#+-.!|<>~$" else c for c in text)


def _add(text: str, t: Translator, *, key: str, apply: Callable[[Callable[[], str]], None]) -> None:
    _ = t.gettext
    with st.container(border=True, key=f"{key}-add"):
        st.markdown("**" + _("Add a step") + "**")
        kind = st.selectbox(
            _("Kind of step"),
            options=list(KINDS),
            format_func=lambda k: t.gettext(KINDS[k]),
            key=f"{key}-kind",
        )
        if kind == "explain":
            body = st.text_area(_("The explanation (Markdown)"), key=f"{key}-explain", height=120)
            if st.button(_("Add the step"), key=f"{key}-add-explain", icon=":material/add:"):
                apply(lambda: form.add_explain(text, str(body)))
        elif kind == "choice":
            _choice(text, t, key=key, apply=apply)
        elif kind == "action":
            _action(text, t, key=key, apply=apply)
        else:
            _deal(text, t, key=key, apply=apply)


def _choice(
    text: str, t: Translator, *, key: str, apply: Callable[[Callable[[], str]], None]
) -> None:
    _ = t.gettext
    question = st.text_input(_("Question"), key=f"{key}-c-question", max_chars=300)
    options = [
        st.text_input(t.format("Option {n}", n=n + 1), key=f"{key}-c-option-{n}", max_chars=200)
        for n in range(OPTION_BOXES)
    ]
    right = st.selectbox(
        _("The right option"),
        options=list(range(OPTION_BOXES)),
        format_func=lambda n: t.format("Option {n}", n=n + 1),
        key=f"{key}-c-right",
    )
    explanation = st.text_input(
        _("Explanation, shown once answered"), key=f"{key}-c-why", max_chars=500
    )
    if st.button(_("Add the step"), key=f"{key}-add-choice", icon=":material/add:"):
        written = [str(o) for o in options]
        kept = [o for o in written if o.strip()]
        chosen = str(written[int(right)]).strip()
        place = kept.index(chosen) if chosen and chosen in kept else -1
        apply(lambda: form.add_choice(text, str(question), kept, place, str(explanation)))


def _card_box(label: str, t: Translator, *, key: str, index: int, column: object = None) -> str:
    where = column if column is not None else st
    return str(
        where.selectbox(  # type: ignore[attr-defined]
            label,
            options=list(CARDS),
            index=index,
            format_func=lambda c: card_label(c, t),
            key=key,
        )
    )


def _action(
    text: str, t: Translator, *, key: str, apply: Callable[[Callable[[], str]], None]
) -> None:
    _ = t.gettext
    question = st.text_input(
        _("Question"), value=_("What do you do?"), key=f"{key}-a-question", max_chars=300
    )
    first, second = st.columns(2)
    card1 = _card_box(_("Card 1"), t, key=f"{key}-a-card1", index=9, column=first)
    card2 = _card_box(_("Card 2"), t, key=f"{key}-a-card2", index=18, column=second)
    up, _free = st.columns(2)
    dealer = _card_box(_("Dealer's up-card"), t, key=f"{key}-a-up", index=35, column=up)
    rules = form.lesson_rules(text)
    hand = parse_cards(f"{card1} {card2}")
    moves = form.ask_moves(rules, hand, parse_cards(dealer)[0], form.offered_moves(text))
    if not moves:
        st.info(_("This hand has no decision to make (21): pick other cards."))
        return
    best = form.best_move(rules, hand, parse_cards(dealer)[0], moves)
    st.caption(
        t.format(
            "Basic strategy plays **{move}** here, at the {table} table.",
            move=t.action_name(best),
            table=table_words(rules.name, t),
        )
    )
    move = st.selectbox(
        _("The right move"),
        options=list(moves),
        index=moves.index(best),
        format_func=t.action_name,
        key=f"{key}-a-move-{card1}-{card2}-{dealer}",
    )
    explanation = st.text_input(
        _("Explanation, shown once answered"), key=f"{key}-a-why", max_chars=500
    )
    if st.button(_("Add the step"), key=f"{key}-add-action", icon=":material/add:"):
        apply(
            lambda: form.add_action(
                text, str(question), [card1, card2], dealer, Action(move), str(explanation)
            )
        )


def _deal(
    text: str, t: Translator, *, key: str, apply: Callable[[Callable[[], str]], None]
) -> None:
    _ = t.gettext
    rules = form.lesson_rules(text)
    intro = st.text_input(
        _("Introduction"), value=_("Your turn."), key=f"{key}-d-intro", max_chars=300
    )
    first, second = st.columns(2)
    card1 = _card_box(_("Your card 1"), t, key=f"{key}-d-card1", index=9, column=first)
    card2 = _card_box(_("Your card 2"), t, key=f"{key}-d-card2", index=19, column=second)
    up_col, hole_col = st.columns(2)
    up = _card_box(_("Dealer's up-card"), t, key=f"{key}-d-up", index=34, column=up_col)
    hole: str | None = None
    if rules.dealer_peeks:
        hole = (
            str(
                hole_col.selectbox(
                    _("Dealer's hole card"),
                    options=[RANDOM, *CARDS],
                    format_func=lambda c: (
                        _("drawn by the engine") if c == RANDOM else card_label(c, t)
                    ),
                    key=f"{key}-d-hole",
                )
            )
            or None
        )
    later = st.multiselect(
        _("The next cards, in order (the engine draws the rest)"),
        options=list(CARDS),
        format_func=lambda c: card_label(c, t),
        key=f"{key}-d-then",
        max_selections=form.MAX_THEN,
    )
    st.caption(
        _(
            "The learner's moves are basic strategy's among the moves offered; the outcome and"
            " the chips won or lost are the engine's."
        )
    )
    explanation = st.text_input(
        _("Explanation, shown at the end of the round"), key=f"{key}-d-why", max_chars=500
    )
    if st.button(_("Add the step"), key=f"{key}-add-deal", icon=":material/add:"):
        apply(
            lambda: form.add_deal(
                text,
                [card1, card2],
                up,
                hole,
                [str(c) for c in later],
                intro=str(intro),
                explanation=str(explanation),
            )
        )
