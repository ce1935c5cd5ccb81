"""What the lesson player needs at run time: a deal step's round, and judging an ask step's answer.

The checker and the player share these functions, so a deal is dealt in the app exactly as it was
replayed when the lesson was checked.
"""

from __future__ import annotations

import re
from fractions import Fraction

from tutor.cards import Card
from tutor.decision import HAND_ACTIONS, INSURANCE_ACTIONS, Action
from tutor.exact import read_exact
from tutor.game import Round
from tutor.lessons.fields import Translations
from tutor.lessons.lesson import AskStep, DealStep
from tutor.lessons.models import (
    ActionAnswer,
    Ask,
    ChipsAnswer,
    ChoiceAnswer,
    Deal,
    LossAnswer,
    NumberAnswer,
    Settle,
)
from tutor.rules import TableRules
from tutor.table import deal_order, decision_for, scripted_round


def deal_script(deal: Deal | DealStep, rules: TableRules) -> list[Card]:
    """The shoe's order for a deal: player card 1, dealer up, player card 2, hole card (American
    deal only), then the ``then`` cards.

    >>> from tutor.rules import PRESETS
    >>> from tutor.lessons.models import Deal
    >>> deal = Deal.model_validate({"player": "A♠ 6♥", "dealer": "9♣ 7♦", "then": "9♦",
    ...                             "expect": {"outcome": "win", "net": 2}})
    >>> " ".join(str(card) for card in deal_script(deal, PRESETS["family"]))
    'A♠ 9♣ 6♥ 7♦ 9♦'
    """
    body = deal.deal if isinstance(deal, DealStep) else deal
    return deal_order(body.rules or rules, [body.player], body.dealer, body.then)


def table_of(deal: Deal | DealStep | Settle, lesson_rules: TableRules) -> TableRules:
    """The table a deal or a settled question is played at: its own ``rules``, or the lesson's."""
    body = deal.deal if isinstance(deal, DealStep) else deal
    return body.rules or lesson_rules


def deal_round(
    deal: Deal | DealStep, rules: TableRules, *, strict: bool = False, seed: int | None = None
) -> Round:
    """A ready ``Round`` for the learner to play, dealt from the lesson's script.

    ``strict`` is off by default because the learner may not follow the lesson's decisions: a
    learner who hits where the lesson stands needs a card the script does not hold, and gets a
    random one from the rest of the shoe (``seed`` makes it reproducible). The checker plays the
    stated decisions with ``strict=True``.
    """
    body = deal.deal if isinstance(deal, DealStep) else deal
    return scripted_round(
        body.rules or rules,
        [body.player],
        body.dealer,
        body.then,
        bets=[body.bet],
        strict=strict,
        seed=seed,
    )


def settle_round(settle: Settle, rules: TableRules) -> Round:
    """The round a money question is about, played with its decisions on a strict shoe.

    The checker and the page both call this, so the cards the learner sees with the question are
    the ones whose settlement the answer was checked against. Raises what the engine raises
    (``ShoeExhaustedError``, ``IllegalActionError``) when the script is wrong; the checker turns
    that into a problem with its line, and a checked course never raises here.
    """
    game = scripted_round(
        settle.rules or rules,
        [settle.player],
        settle.dealer,
        settle.then,
        bets=[settle.bet],
        strict=True,
    )
    for action in settle.decisions:
        game.act(action)
    return game


def ask_actions(
    ask: Ask, rules: TableRules, offered: frozenset[Action]
) -> tuple[Action, ...]:
    """The buttons of a question answered by a move, in their order: the moves the lesson offers
    that the table allows on the question's hand against its up-card (no Split on 10-3, no
    Surrender at a table without it), the insurance answers for an insurance question. Without
    a hand and an up-card there is no table position to ask: every move offered.

    >>> from tutor.rules import PRESETS
    >>> ask = Ask.model_validate({"question": "?", "cards": "10♠ 3♥", "dealer": "7♣",
    ...                           "answer": {"action": "hit"}, "explanation": "."})
    >>> [a.value for a in ask_actions(ask, PRESETS["family"], frozenset(Action))]
    ['hit', 'stand', 'double']
    """
    insurance = isinstance(ask.answer, ActionAnswer) and ask.answer.action.is_insurance_decision
    pool = INSURANCE_ACTIONS if insurance else HAND_ACTIONS
    moves = tuple(action for action in pool if action in offered)
    if not ask.cards or not ask.dealer:
        return moves
    try:
        legal = decision_for(rules, ask.cards, ask.dealer[0], insurance=insurance).legal
    except ValueError:  # a hand the checker refuses is never played; said for safety
        return moves
    return tuple(action for action in moves if action in legal)


def check_answer(step: Ask | AskStep, given: object) -> bool:
    """Whether ``given`` is the right answer to an ask step.

    Numbers and chips compare exactly (``"3/2"``, ``1.5`` and ``Fraction(3, 2)`` are the same
    answer), and a typed number may carry a typed minus sign (``"−2"``) and its noun: the unit of
    the answer (``"3 jetons"``, ``"3 chips"`` for chips; ``"17 points"`` for a hand shown), or
    what the question counts (``"16 bûches"`` for « combien … de bûches ? », in either language:
    ``"16 tens"``), singular or plural, with a full stop or not. The nouns come from a bounded
    list (``NOUNS``) and must be named by the question or be its unit: ``"16 oranges"`` is no
    answer. A loss accepts the amount lost and the signed net (``"2"`` and ``"-2"`` both answer
    ``{loss: 2}``), not a gain written ``"+2"``. An action may be an ``Action`` or its name or
    letter (``"h"``, ``"double"``); a choice is the 0-based index of the option. An answer that
    does not even parse, or is too long or too large to be an answer (``1e9999999``), is wrong,
    never an exception and never slow: it comes from a learner's keyboard.

    >>> from tutor.lessons.models import Ask
    >>> ask = Ask.model_validate({"question": "Pays?", "answer": {"chips": "3/2"},
    ...                           "explanation": "3:2"})
    >>> check_answer(ask, "1.5"), check_answer(ask, 1)
    (True, False)
    >>> lost = Ask.model_validate({"question": "How much do you lose?", "answer": {"loss": 2},
    ...                            "explanation": "half of 4"})
    >>> [check_answer(lost, given) for given in ("2", "-2", "2 jetons", "+2", "4")]
    [True, True, True, False, False]
    >>> tens = Ask.model_validate({
    ...     "question": {"fr": "Combien un jeu de 52 cartes contient-il de bûches ?",
    ...                  "en": "How many ten-valued cards does a 52-card deck hold?"},
    ...     "answer": {"number": 16}, "explanation": "4 × 4"})
    >>> [check_answer(tens, given) for given in ("16 bûches", "16 Bûches.", "16 tens", "16")]
    [True, True, True, True]
    >>> [check_answer(tens, given) for given in ("16 oranges", "16 jetons", "15 bûches")]
    [False, False, False]
    """
    body = step.ask if isinstance(step, AskStep) else step
    answer = body.answer
    if isinstance(answer, NumberAnswer | ChipsAnswer):
        expected = answer.number if isinstance(answer, NumberAnswer) else answer.chips
        value = _exact(given, nouns_of(body))
        return value is not None and value == expected
    if isinstance(answer, LossAnswer):
        value = _exact(given, nouns_of(body))
        if value is None or (isinstance(given, str) and given.strip().startswith("+")):
            return False
        return abs(value) == answer.loss
    if isinstance(answer, ActionAnswer):
        if isinstance(given, Action):
            return given is answer.action
        try:
            return Action.parse(str(given)) is answer.action
        except ValueError:
            return False
    assert isinstance(answer, ChoiceAnswer)
    if isinstance(given, bool):
        return False
    if isinstance(given, int):
        return given == answer.choice
    if isinstance(given, str) and given.strip().isdigit():
        return int(given.strip()) == answer.choice
    return False


def _exact(given: object, nouns: frozenset[str] = frozenset({"chips"})) -> Fraction | None:
    """A learner's answer as an exact number, or None when it is not one within the bounds.

    ``nouns`` are the kinds of things (keys of ``NOUNS``) the number may be followed by. The raw
    text is measured before anything else (before even the noun is looked for), and the number
    itself goes through ``tutor.exact.read_exact``, which refuses an exponent, more than 24
    characters or a value beyond a million without computing it: ``1e9999999`` typed in a
    lesson once froze the whole server while ``Fraction`` built a ten-million-digit integer.
    """
    if isinstance(given, bool):
        return None
    if isinstance(given, str):
        if len(given) > MAX_TYPED:
            return None
        text = given.strip().lower()
        unit = _UNIT.search(text)
        if unit is not None:
            if _NOUN_KIND[unit.group("noun")] not in nouns:
                return None  # a noun this question does not count: not a number it asked for
            text = text[: unit.start()]
        text = text.replace("\u2212", "-")
        given = text.replace(",", ".").replace(" ", "").replace("\u00a0", "")
    if isinstance(given, int | float | Fraction | str):
        return read_exact(given)
    return None


#: The longest answer a learner may type, noun and spaces included ("-1 000 000,5 jetons").
MAX_TYPED = 40

#: The nouns a learner may type after a number, by the kind of thing they count, in both
#: languages, singular and plural (and the French without its accent). A closed list on
#: purpose: a question accepts its unit and the kinds its own text names, never "any word".
#: Only things the course's questions count: "jeu" (a deck) or "mise" (a bet) would be named
#: by « un jeu de 52 cartes » or « une mise de 4 jetons » without being what is counted.
NOUNS: dict[str, tuple[str, ...]] = {
    "chips": ("jeton", "jetons", "chip", "chips"),
    "points": ("point", "points", "pt", "pts"),
    "cards": ("carte", "cartes", "card", "cards"),
    "tens": ("bûche", "bûches", "buche", "buches", "ten", "tens", "ten-valued card",
             "ten-valued cards"),
    "times": ("fois", "time", "times"),
    "hands": ("main", "mains", "hand", "hands"),
}
_NOUN_KIND = {form: kind for kind, forms in NOUNS.items() for form in forms}
_FORMS = "|".join(re.escape(form) for form in sorted(_NOUN_KIND, key=len, reverse=True))

#: A noun at the end of a typed answer, after the number ("3 jetons", "16 bûches.", "17pts").
_UNIT = re.compile(rf"\s*(?P<noun>{_FORMS})\s*\.?$")
_NAMED = re.compile(rf"(?<!\w)(?:{_FORMS})(?!\w)")


def nouns_of(ask: Ask) -> frozenset[str]:
    """The kinds of things a typed answer to ``ask`` may name after its number: its unit (chips
    for an amount, points for the total of the cards shown) and every kind its question names,
    in any of its languages (« combien … de bûches » accepts « 16 bûches » and "16 tens").

    >>> from tutor.lessons.models import Ask
    >>> sorted(nouns_of(Ask.model_validate({"question": "Combien de jetons en tout ?",
    ...     "answer": {"number": 280}, "explanation": "..."})))
    ['chips']
    """
    question = ask.question
    texts = [question.fr or "", question.en or ""] if isinstance(question, Translations) else [
        str(question)
    ]
    named = {_NOUN_KIND[match] for text in texts for match in _NAMED.findall(text.lower())}
    if isinstance(ask.answer, ChipsAnswer | LossAnswer):
        named.add("chips")
    if ask.cards:
        named.add("points")
    return frozenset(named)
