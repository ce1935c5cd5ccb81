"""The questions of a lesson, checked: an answer the table allows, a settlement the engine agrees
with, a number the engine computes, and a play judged against the strategy.

A module of its own for the ask steps and the engine's figures, which are the lesson's
arithmetic; the course-wide checks (``tutor.lessons.checks``) dispatch to it step by step.
"""

from __future__ import annotations

import re
from fractions import Fraction

from tutor.cards import format_cards, hand_value
from tutor.decision import Action, DecisionPoint
from tutor.game import money
from tutor.lessons.checks_deal import (
    _chips,
    _dealer_count_message,
    _dealer_count_reason,
    _goes_on,
    _play_script,
    _Script,
    _story,
    _story_reason,
    _unused_cards,
    check_copies,
)
from tutor.lessons.fields import LOCALES, Translations
from tutor.lessons.findings import Code, Figure, Finding, ForStrategy, Play, StrategyFn, why
from tutor.lessons.models import (
    ActionAnswer,
    Ask,
    ChipsAnswer,
    EngineFigure,
    LossAnswer,
    NumberAnswer,
    TotalAnswer,
)
from tutor.lessons.source import DataPath
from tutor.refusal import Refusal, RefusedError
from tutor.rules import TableRules
from tutor.table import decision_for

# -- ask ----------------------------------------------------------------------------------------


def check_ask(
    ask: Ask, rules: TableRules, where: DataPath, pending: ForStrategy | None
) -> list[Finding]:
    findings = check_copies(rules, where, {"cards": ask.cards or (), "dealer": ask.dealer or ()})
    findings += check_numbers(ask, rules, where, pending)
    if ask.settle is not None:
        findings += check_settle(ask, rules, where, pending)
    if findings or not isinstance(ask.answer, ActionAnswer) or not ask.cards or not ask.dealer:
        return findings
    action = ask.answer.action
    answer_path = (*where, "answer", "action")
    try:
        point = decision_for(
            rules, ask.cards, ask.dealer[0], insurance=action.is_insurance_decision
        )
    except ValueError as error:
        reason = error.refusal if isinstance(error, RefusedError) else why(
            "lesson-schema", detail=str(error)
        )
        return [Finding(answer_path, str(error), Code.DEAL, reason=reason)]
    if action not in point.legal:
        legal = ", ".join(sorted(a.value for a in point.legal))
        return [
            Finding(
                answer_path,
                f"{action.value} is not allowed here at the {rules.name} "
                f"table; the legal actions are: {legal}",
                Code.DEAL,
                reason=why(
                    "lesson-answer-illegal", action=action.value, table=rules.name, legal=legal
                ),
            )
        ]
    if ask.follows_strategy and pending is not None:
        pending.plays.append(Play(point, action, answer_path))
    return findings


def check_settle(
    ask: Ask, rules: TableRules, where: DataPath, pending: ForStrategy | None
) -> list[Finding]:
    """A money question about a round: play the round, and the answer must be its settlement.

    The round's decisions are judged by the strategy as a deal's are (a question should not
    teach a bad play without saying so: ``follows_strategy: false``).
    """
    settle = ask.settle
    assert settle is not None
    here = (*where, "settle")
    rules = settle.rules or rules
    answer = ask.answer
    if not isinstance(answer, ChipsAnswer | LossAnswer):
        return [
            Finding(
                (*where, "answer"),
                "a question about a settled round ('settle') is answered in chips: "
                "{chips: …} for what the seat wins or loses (negative for a loss), or "
                "{loss: …} for a question that asks how much is lost",
                Code.SCHEMA,
                reason=why("lesson-settle-in-chips"),
            )
        ]
    findings = check_copies(
        rules, here, {"player": settle.player, "dealer": settle.dealer, "then": settle.then}
    )
    wanted = 2 if rules.dealer_peeks else 1
    if len(settle.dealer) != wanted:
        findings.append(
            Finding(
                (*here, "dealer"),
                _dealer_count_message(rules, settle.dealer),
                Code.DEAL,
                reason=_dealer_count_reason(rules, settle.dealer),
            )
        )
    if findings:
        return findings
    game, findings = _play_script(
        _Script(settle.player, settle.dealer, settle.then, settle.bet, settle.decisions),
        rules,
        here,
        (*here, "decisions"),
        pending if ask.follows_strategy else None,
    )
    if game is None:
        return findings
    if not game.is_over:
        stated = (*here, "decisions") if settle.decisions else here
        return [*findings, _goes_on(game, stated)]
    findings += _unused_cards(game, here)
    net = money(game.results[0].net)
    story = f"{_story(game)}; bet {settle.bet}"
    if isinstance(answer, ChipsAnswer) and money(answer.chips) != net:
        findings.append(
            Finding(
                (*where, "answer", "chips"),
                f"the engine settles this round at {_chips(net)} chips, not "
                f"{_chips(answer.chips)} ({story})",
                Code.DEAL,
                reason=why(
                    "lesson-settle-chips",
                    net=_chips(net),
                    stated=_chips(answer.chips),
                    story=_story_reason(game),
                    bet=settle.bet,
                ),
            )
        )
    if isinstance(answer, LossAnswer) and money(answer.loss) != -net:
        lost = f"a loss of {_chips(-net).lstrip('+')}" if net < 0 else f"{_chips(net)} chips"
        findings.append(
            Finding(
                (*where, "answer", "loss"),
                f"the engine settles this round at {lost}, not a loss of "
                f"{_chips(answer.loss).lstrip('+')} ({story})",
                Code.DEAL,
                reason=why(
                    "lesson-settle-loss" if net < 0 else "lesson-settle-loss-gain",
                    net=_chips(-net).lstrip("+") if net < 0 else _chips(net),
                    stated=_chips(answer.loss).lstrip("+"),
                    story=_story_reason(game),
                    bet=settle.bet,
                ),
            )
        )
    return findings


def check_numbers(
    ask: Ask, rules: TableRules, where: DataPath, pending: ForStrategy | None
) -> list[Finding]:
    """Every number key the question's cards or the engine give: a hand's total is the engine's
    count of the cards shown, a money question about cards shown is a settled round (checked by
    ``check_settle``), and a key that gives an engine's figure is that figure to the tenth.

    A number on cards shown is ambiguous (a total? how many cards?), so it is written as what it
    is: ``{total: …}`` for the hand's total, which is counted; any other number is asked
    without cards.
    """
    answer = ask.answer
    here = (*where, "answer")
    if isinstance(answer, TotalAnswer):
        if not ask.cards:
            return [
                Finding(
                    (*here, "total"),
                    "a total is the total of the question's cards: give them in 'cards'",
                    Code.NUMBER,
                    reason=why("lesson-total-no-cards"),
                )
            ]
        value = hand_value(ask.cards)
        if answer.total != value.total:
            return [
                Finding(
                    (*here, "total"),
                    f"the cards shown ({format_cards(ask.cards)}) make "
                    f"{'soft ' if value.soft else ''}{value.total}, not {_number(answer.total)}",
                    Code.NUMBER,
                    reason=why(
                        "lesson-total-soft" if value.soft else "lesson-total-hard",
                        cards=format_cards(ask.cards),
                        total=value.total,
                        stated=_number(answer.total),
                    ),
                )
            ]
        return []
    if isinstance(answer, NumberAnswer) and ask.cards:
        value = hand_value(ask.cards)
        return [
            Finding(
                (*here, "number"),
                "this question shows cards and its answer is a number: if it asks what the "
                f"hand is worth, write {{total: {value.total}}} (the engine's count of "
                f"{format_cards(ask.cards)}) so the checker compares it with the cards, and a "
                f"number the cards do not give is asked without 'cards'",
                Code.NUMBER,
                reason=why(
                    "lesson-number-on-cards",
                    answer=f"{{total: {value.total}}}",
                    cards=format_cards(ask.cards),
                ),
            )
        ]
    if (
        isinstance(answer, ChipsAnswer | LossAnswer)
        and ask.settle is None
        and (ask.cards or ask.dealer)
    ):
        return [
            Finding(
                here,
                "a money question about the cards shown names its round in 'settle' (bet, "
                "player, dealer, then, decisions) instead of 'cards' and 'dealer', so the "
                "engine settles it and the answer is checked against that settlement",
                Code.NUMBER,
                reason=why("lesson-money-on-cards"),
            )
        ]
    if (
        isinstance(answer, NumberAnswer | ChipsAnswer)
        and answer.engine is None
        and ask.settle is None
        and any(_AVERAGE.search(text) for _path, text in _languages(ask.question, ()))
    ):
        return [
            Finding(
                here,
                'this question asks for an average or a share (« en moyenne », "on average", '
                "%), which is a figure of the engine, not of the cards: name it in 'engine' "
                "(edge, minus, times) so the checker compares the key with the engine's value",
                Code.NUMBER,
                reason=why("lesson-average-no-engine"),
            )
        ]
    # The figure is the strategy layer's: the strategy pass computes it.
    if isinstance(answer, NumberAnswer) and answer.engine is not None and pending is not None:
        pending.figures.append(Figure(answer.engine, answer.number, (*here, "number")))
    if isinstance(answer, ChipsAnswer) and answer.engine is not None and pending is not None:
        pending.figures.append(Figure(answer.engine, answer.chips, (*here, "chips")))
    return []


def check_engine_figure(figure: EngineFigure, key: Fraction, path: DataPath) -> list[Finding]:
    """A key that gives an engine's figure is that figure rounded to the tenth at most."""
    from tutor.strategy import house_edge  # the figures are the strategy layer's

    edge = house_edge(figure.edge)
    minus = house_edge(figure.minus) if figure.minus is not None else 0.0
    value = (edge - minus) * float(figure.times)
    if abs(float(key) - value) <= ENGINE_TOLERANCE:
        return []
    parts = f"house edge {edge:.4%} at {figure.edge.name}"
    if figure.minus is not None:
        parts += f" minus {minus:.4%} at {figure.minus.name}"
    if figure.times != 1:
        parts += f", times {_number(figure.times)}"
    return [
        Finding(
            path,
            f"the engine's figure is {value:.4f} ({parts}), so the key {_number(key)} is "
            f"not it: write {round(value, 1):g} (a key gives the engine's figure to the "
            "tenth), and the same figure in the texts that lead to it",
            Code.NUMBER,
            reason=why(
                "lesson-engine-figure",
                value=f"{value:.4f}",
                parts=why(
                    "lesson-figure-parts",
                    edge=f"{edge:.4%}",
                    table=figure.edge.name,
                    minus=why("lesson-figure-minus", edge=f"{minus:.4%}", table=figure.minus.name)
                    if figure.minus is not None
                    else None,
                    times=why("lesson-figure-times", times=_number(figure.times))
                    if figure.times != 1
                    else None,
                ),
                key=_number(key),
                rounded=f"{round(value, 1):g}",
            ),
        )
    ]


#: A question that asks for an average or a share: its key is a figure of the engine.
_AVERAGE = re.compile(r"en moyenne|on average|\d\s*%|pour cent|per cent|percent", re.I)

#: How far a key may round an engine's figure: to the tenth (13.6 for 13.597, never 14).
ENGINE_TOLERANCE = 0.05


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(value)


def _judge(
    strategy: StrategyFn, point: DecisionPoint, chosen: Action, path: DataPath
) -> Finding | None:
    """A finding when the strategy's best play differs from the one the lesson teaches."""
    try:
        best = strategy(point)
    except Exception as error:  # the strategy is another layer; report, never crash the check
        return Finding(
            path,
            f"the strategy could not judge this decision: {error}",
            Code.STRATEGY,
            reason=why("lesson-decision-unjudged", error=str(error)),
        )
    if best is chosen:
        return None
    return Finding(
        path,
        f"basic strategy at the {point.rules.name} table plays {best.value}, not "
        f"{chosen.value}, with {format_cards(point.cards)} ({_describe(point)}) against "
        f"{point.dealer_up}; set follows_strategy: false if the lesson shows this mistake "
        "on purpose",
        Code.STRATEGY,
        reason=why(
            "lesson-against-strategy",
            table=point.rules.name,
            best=best.value,
            chosen=chosen.value,
            cards=format_cards(point.cards),
            hand=_describe_reason(point),
            up=str(point.dealer_up),
        ),
    )


def _describe_reason(point: DecisionPoint) -> Refusal:
    """``_describe`` as data."""
    if point.is_insurance_decision:
        return why("lesson-hand-insurance")
    if point.is_pair:
        return why("lesson-hand-pair")
    value = point.value
    return why("lesson-hand-soft" if value.soft else "lesson-hand-hard", total=value.total)


def _describe(point: DecisionPoint) -> str:
    value = point.value
    if point.is_insurance_decision:
        return "insurance offered"
    if point.is_pair:
        return "a pair"
    return f"{'soft' if value.soft else 'hard'} {value.total}"


def _languages(text: str | Translations, path: DataPath) -> list[tuple[DataPath, str]]:
    if isinstance(text, Translations):
        return [((*path, code), getattr(text, code)) for code in LOCALES if getattr(text, code)]
    return [(path, str(text))]
