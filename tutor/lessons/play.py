"""What the lesson player needs at run time: a deal step's round, and judging an ask step's answer.

The checker and the player share these functions, so a deal is dealt in the app exactly as it was
replayed when the lesson was checked.
"""

from __future__ import annotations

import re
from fractions import Fraction

from tutor.cards import Card
from tutor.decision import Action
from tutor.exact import read_exact
from tutor.game import Round
from tutor.lessons.models import (
    ActionAnswer,
    Ask,
    AskStep,
    ChipsAnswer,
    ChoiceAnswer,
    Deal,
    DealStep,
    LossAnswer,
    NumberAnswer,
    Settle,
)
from tutor.rules import TableRules
from tutor.table import deal_order, scripted_round


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


def check_answer(step: Ask | AskStep, given: object) -> bool:
    """Whether ``given`` is the right answer to an ask step.

    Numbers and chips compare exactly (``"3/2"``, ``1.5`` and ``Fraction(3, 2)`` are the same
    answer), and a typed number may carry its unit (``"3 jetons"``, ``"3 chips"``) and a typed
    minus sign (``"−2"``); a loss accepts the amount lost and the signed net (``"2"`` and
    ``"-2"`` both answer ``{loss: 2}``), not a gain written ``"+2"``. An action may be an
    ``Action`` or its name or letter (``"h"``, ``"double"``); a choice is the 0-based index of
    the option. An answer that does not even parse, or is too long or too large to be an answer
    (``1e9999999``), is wrong, never an exception and never slow: it comes from a learner's
    keyboard.

    >>> from tutor.lessons.models import Ask
    >>> ask = Ask.model_validate({"question": "Pays?", "answer": {"chips": "3/2"},
    ...                           "explanation": "3:2"})
    >>> check_answer(ask, "1.5"), check_answer(ask, 1)
    (True, False)
    >>> lost = Ask.model_validate({"question": "How much do you lose?", "answer": {"loss": 2},
    ...                            "explanation": "half of 4"})
    >>> [check_answer(lost, given) for given in ("2", "-2", "2 jetons", "+2", "4")]
    [True, True, True, False, False]
    """
    body = step.ask if isinstance(step, AskStep) else step
    answer = body.answer
    if isinstance(answer, NumberAnswer | ChipsAnswer):
        expected = answer.number if isinstance(answer, NumberAnswer) else answer.chips
        value = _exact(given)
        return value is not None and value == expected
    if isinstance(answer, LossAnswer):
        value = _exact(given)
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


def _exact(given: object) -> Fraction | None:
    """A learner's answer as an exact number, or None when it is not one within the bounds.

    The raw text is measured before anything else (before even the unit is looked for), and
    the number itself goes through ``tutor.exact.read_exact``, which refuses an exponent, more
    than 24 characters or a value beyond a million without computing it: ``1e9999999`` typed in
    a lesson once froze the whole server while ``Fraction`` built a ten-million-digit integer.
    """
    if isinstance(given, bool):
        return None
    if isinstance(given, str):
        if len(given) > MAX_TYPED:
            return None
        text = _UNIT.sub("", given.strip().lower()).replace("\u2212", "-")
        given = text.replace(",", ".").replace(" ", "").replace("\u00a0", "")
    if isinstance(given, int | float | Fraction | str):
        return read_exact(given)
    return None


#: The longest answer a learner may type, unit and spaces included ("-1 000 000,5 jetons").
MAX_TYPED = 40

#: The unit a learner may type after an amount: "3 jetons", "3 chips" are the number 3.
_UNIT = re.compile(r"\s*(jetons?|chips?)\.?$")
