"""What the lesson player needs at run time: a deal step's round, and judging an ask step's answer.

The checker and the player share these functions, so a deal is dealt in the app exactly as it was
replayed when the lesson was checked.
"""

from __future__ import annotations

from fractions import Fraction

from tutor.cards import Card
from tutor.decision import Action
from tutor.game import Round
from tutor.lessons.models import (
    ActionAnswer,
    Ask,
    AskStep,
    ChipsAnswer,
    ChoiceAnswer,
    Deal,
    DealStep,
    NumberAnswer,
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
    return deal_order(rules, [body.player], body.dealer, body.then)


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
        rules, [body.player], body.dealer, body.then, bets=[body.bet], strict=strict, seed=seed
    )


def check_answer(step: Ask | AskStep, given: object) -> bool:
    """Whether ``given`` is the right answer to an ask step.

    Numbers and chips compare exactly (``"3/2"``, ``1.5`` and ``Fraction(3, 2)`` are the same
    answer); an action may be an ``Action`` or its name or letter (``"h"``, ``"double"``); a
    choice is the 0-based index of the option. An answer that does not even parse is wrong,
    never an exception: it comes from a learner's keyboard.

    >>> from tutor.lessons.models import Ask
    >>> ask = Ask.model_validate({"question": "Pays?", "answer": {"chips": "3/2"},
    ...                           "explanation": "3:2"})
    >>> check_answer(ask, "1.5"), check_answer(ask, 1)
    (True, False)
    """
    body = step.ask if isinstance(step, AskStep) else step
    answer = body.answer
    if isinstance(answer, NumberAnswer | ChipsAnswer):
        expected = answer.number if isinstance(answer, NumberAnswer) else answer.chips
        value = _exact(given)
        return value is not None and value == expected
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
    if isinstance(given, bool):
        return None
    if isinstance(given, Fraction | int):
        return Fraction(given)
    if isinstance(given, float):
        return Fraction(str(given))
    if isinstance(given, str):
        try:
            return Fraction(given.strip().replace(",", ".").replace(" ", ""))
        except ValueError:
            return None
    return None
