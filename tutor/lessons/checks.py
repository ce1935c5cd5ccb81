"""The meaning of a lesson: checks the schema cannot make, because they need the engine.

A lesson that parses can still lie: its deal may ask for a second Ace of spades from one deck,
state a decision the table forbids, promise a win the dealer's cards turn into a loss, or teach a
play that basic strategy contradicts. Each check here returns ``Finding``s that carry the data path
of the offending value (and, for cards, which token), never a position: turning paths into
``file:line:col`` is the loader's job, which keeps these checks usable on lessons built in code.

The scripted deals are replayed through the real engine (``tutor.table.scripted_round`` with a
strict shoe), so the lesson and the app can never disagree about what a deal does.

Two passes. The structural pass (``check_lesson``, ``check_valid_steps``) needs only the engine
and is quick; what it would ask the strategy (each play a lesson teaches at a decision point, each
engine figure a key gives, each claim about the right play) it does not ask, but collects in a
``ForStrategy``. The strategy pass (``check_against_strategy``) judges those, and only those: the
lesson is never parsed, replayed or checked a second time, so the app can list a course at once
and judge it afterwards from the same result.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from tutor.cards import Card, ShoeExhaustedError, format_cards, hand_value
from tutor.decision import Action, DecisionPoint
from tutor.game import IllegalActionError, Money, Outcome, Round, money
from tutor.lessons.claims import PlayCache, check_claim, check_wording, lesson_tables
from tutor.lessons.models import (
    LOCALES,
    ActionAnswer,
    AnyStep,
    Ask,
    AskStep,
    ChipsAnswer,
    Claim,
    Deal,
    DealStep,
    Drill,
    DrillCategory,
    DrillStep,
    EngineFigure,
    Lesson,
    LossAnswer,
    NumberAnswer,
    PlainText,
    Show,
    StepCases,
    TotalAnswer,
    Translations,
    nothing,
    show_of,
)
from tutor.lessons.source import DataPath
from tutor.lessons.texts import iter_texts
from tutor.quiz import dealable, unavailable_reason
from tutor.rules import TableRules
from tutor.table import decision_for, scripted_round

#: The strategy's answer to a decision point: the chart's play (``course.chart_play``).
StrategyFn = Callable[[DecisionPoint], Action]


class Code(Enum):
    """The kind of a problem, so the app and the tests can tell problems apart without parsing."""

    YAML = "yaml"
    SCHEMA = "schema"
    CARD = "card"
    COPIES = "copies"
    RULES = "rules"
    DEAL = "deal"
    STRATEGY = "strategy"
    TRANSLATION = "translation"
    DUPLICATE_ID = "duplicate-id"
    PREREQUISITE = "prerequisite"
    CYCLE = "cycle"
    FILE = "file"
    CONTENT = "content"
    #: A claim about the right play that a table's chart contradicts.
    CLAIM = "claim"
    #: Free text that states a rule no claim backs, or gives away a question's answer.
    WORDING = "wording"
    #: A number key that the cards shown or the engine's figure contradict.
    NUMBER = "number"


@dataclass(frozen=True)
class Play:
    """A play the lesson teaches at a decision point, for the strategy pass to judge."""

    point: DecisionPoint
    chosen: Action
    path: DataPath


@dataclass(frozen=True)
class Figure:
    """A key the lesson says is an engine's figure (a house edge), for the strategy pass."""

    figure: EngineFigure
    key: Fraction
    path: DataPath


@dataclass
class ForStrategy:
    """What the structural pass leaves to the strategy pass, in the order it met them."""

    plays: list[Play] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    #: The claims about the right play, each with its data path (a lesson whose schema passed).
    claims: list[tuple[DataPath, Claim]] = field(default_factory=list)
    #: Every table the lesson plays at or names, where each claim is checked.
    tables: Sequence[TableRules] = ()


@dataclass(frozen=True)
class Checked:
    """The structural pass's result: its findings, and what it leaves for the strategy."""

    findings: list[Finding]
    pending: ForStrategy


@dataclass(frozen=True)
class Finding:
    """A problem at a data path; ``token`` picks one card in a cards value, ``at_key`` the key."""

    path: DataPath
    message: str
    code: Code
    token: int | None = None
    at_key: bool = False
    #: A word of the text at ``path``: the word and how many times it comes before (from 0).
    word: tuple[str, int] | None = None


def check_lesson(lesson: Lesson, *, bilingual: bool) -> Checked:
    """Every semantic problem of one lesson that needs no strategy (the schema has already
    passed), and what is left for the strategy to judge (``check_against_strategy``)."""
    findings: list[Finding] = []
    pending = ForStrategy(tables=lesson_tables(lesson))
    for index, step in enumerate(lesson.steps):
        findings += check_step(step, index, lesson.rules, pending)
    pending.claims += [(("claims", n), claim) for n, claim in enumerate(lesson.claims)]
    for index, step in enumerate(lesson.steps):
        pending.claims += [(("steps", index, "claims", n), c) for n, c in enumerate(step.claims)]
    findings += check_words(lesson, pending.tables)
    findings += check_giveaways(lesson)
    if not any(step.practises for step in lesson.steps):
        findings.append(
            Finding(
                ("steps",),
                "a lesson is not only text: add at least one ask, deal or drill "
                "step so the learner practises what it explains",
                Code.CONTENT,
            )
        )
    findings += check_offered(lesson)
    if bilingual:
        findings += check_translations(lesson)
    return Checked(findings, pending)


def check_against_strategy(pending: ForStrategy, strategy: StrategyFn) -> list[Finding]:
    """The strategy pass over a structural pass's result: every play taught, engine figure and
    claim it collected, judged by ``strategy``."""
    findings = [
        finding
        for play in pending.plays
        if (finding := _judge(strategy, play.point, play.chosen, play.path)) is not None
    ]
    for figure in pending.figures:
        findings += check_engine_figure(figure.figure, figure.key, figure.path)
    findings += check_claims(pending.claims, pending.tables, strategy)
    return findings


#: The move a decision drill's right answers need: such a drill belongs after that move is taught.
_DRILL_NEEDS: dict[DrillCategory, Action] = {
    DrillCategory.DOUBLING: Action.DOUBLE,
    DrillCategory.PAIRS: Action.SPLIT,
    DrillCategory.SURRENDER: Action.SURRENDER,
    DrillCategory.INSURANCE: Action.INSURE,
}


def check_offered(lesson: Lesson) -> list[Finding]:
    """A lesson's ``actions`` restriction: everything the lesson scripts or asks stays within it,
    and no decision point is ever left without a button.

    Every hand decision can stand, so a list holding ``stand`` always leaves a button on a hand;
    the only other decision, the insurance offer, comes first in a round and so is always on the
    lesson's script, whose decisions must be offered. Together these two rules guarantee a button
    at every point, even for a learner who leaves the script.
    """
    if lesson.actions is None:
        return []
    offered = lesson.offered
    shown = ", ".join(action.value for action in lesson.actions)
    findings: list[Finding] = []
    if Action.STAND not in offered:
        findings.append(
            Finding(
                ("actions",),
                f"the lesson offers only {shown}: add stand, which every hand may do, so that "
                "no decision is ever left without a button",
                Code.CONTENT,
            )
        )

    def outside(action: Action, path: DataPath, what: str) -> None:
        if action not in offered:
            findings.append(
                Finding(
                    path,
                    f"{what} {action.value}, which this lesson does not offer (actions: {shown}): "
                    f"add {action.value} to the lesson's 'actions' or leave it for a later lesson",
                    Code.CONTENT,
                )
            )

    def offered_in(index: int) -> StepCases[None]:
        def deal(step: DealStep) -> None:
            where: DataPath = ("steps", index, "deal", "expect", "decisions")
            for number, action in enumerate(step.deal.expect.decisions):
                outside(action, (*where, number), "the deal plays")

        def ask(step: AskStep) -> None:
            ask = step.ask
            if isinstance(ask.answer, ActionAnswer):
                path: DataPath = ("steps", index, "ask", "answer", "action")
                outside(ask.answer.action, path, "the answer is")
            if ask.settle is not None:
                where: DataPath = ("steps", index, "ask", "settle", "decisions")
                for number, action in enumerate(ask.settle.decisions):
                    outside(action, (*where, number), "the question's round plays")

        def drill(step: DrillStep) -> None:
            if need := _DRILL_NEEDS.get(step.drill.category):
                path: DataPath = ("steps", index, "drill", "category")
                outside(need, path, f"a {step.drill.category.value} drill asks about")

        return StepCases(deal=deal, ask=ask, drill=drill, otherwise=nothing)

    for index, step in enumerate(lesson.steps):
        offered_in(index)(step)
    return findings


def check_step(
    step: AnyStep, index: int, rules: TableRules, pending: ForStrategy | None
) -> list[Finding]:
    """The semantic problems of one step, at the lesson's table; what the strategy must judge is
    added to ``pending`` (nothing is kept when it is None)."""
    where: DataPath = ("steps", index, step.kind)
    cases: StepCases[list[Finding]] = StepCases(
        explain=lambda explain: [],
        show=lambda show: check_copies(
            rules, where, {"cards": show.show.cards, "dealer": show.show.dealer or ()}
        ),
        ask=lambda ask: check_ask(ask.ask, rules, where, pending),
        deal=lambda deal: check_deal(deal.deal, rules, where, pending),
        drill=lambda drill: check_drill(drill.drill, rules, where),
    )
    return cases(step)


def check_drill(drill: Drill, rules: TableRules, where: DataPath) -> list[Finding]:
    """A drill the lesson's table cannot deal: surrender where none is offered, and so on."""
    category = drill.category
    refusal = unavailable_reason(category, rules)
    if refusal is not None:
        missing = {
            "no-surrender": "does not offer surrender",
            "no-insurance": "does not offer insurance",
            "no-split": "does not allow splitting",
        }.get(refusal, refusal)
        return [
            Finding(
                (*where, "category"),
                f"a {category.value} drill needs a table that offers it, and the {rules.name} "
                f"table {missing}: change the lesson's rules or the category",
                Code.CONTENT,
            )
        ]
    if category is DrillCategory.INSURANCE and drill.dealer is not None and 1 not in drill.dealer:
        return [
            Finding(
                (*where, "dealer"),
                "insurance is only offered when the dealer shows an Ace: include A in 'dealer'",
                Code.CONTENT,
            )
        ]
    if (drill.hands is not None or drill.dealer is not None) and not dealable(
        category, rules, dealer_ups=drill.dealer, hands=drill.hands
    ):
        # The quiz deals by rejection: a restriction no hand meets would fail in the app.
        hands = f" on a hand {drill.hands.description}" if drill.hands is not None else ""
        ups = ["A" if up == 1 else str(up) for up in drill.dealer or ()]
        shown = " or ".join([", ".join(ups[:-1]), ups[-1]] if len(ups) > 1 else ups)
        against = f" against the dealer's {shown}" if shown else ""
        return [
            Finding(
                (*where, "hands" if drill.hands is not None else "dealer"),
                f"no {category.value} question{hands} can be dealt{against} at the "
                f"{rules.name} table: change 'hands', 'dealer' or the category",
                Code.CONTENT,
            )
        ]
    return []


def check_valid_steps(rules: TableRules | None, steps: Mapping[int, AnyStep]) -> Checked:
    """The semantic problems of the steps that pass the schema, in a lesson that does not
    (``models.validate_lesson`` gives the parts that passed: no step is validated again).

    A teacher fixing a typo in one step should not discover only afterwards that another
    step's deal is wrong: whatever can be checked is checked (at the lesson's table, so
    nothing when the table itself is wrong).
    """
    pending = ForStrategy()
    if rules is None:
        return Checked([], pending)
    findings: list[Finding] = []
    for index, step in sorted(steps.items()):
        findings += check_step(step, index, rules, pending)
    return Checked(findings, pending)


# -- cards --------------------------------------------------------------------------------------


def check_copies(
    rules: TableRules, where: DataPath, fields: dict[str, Sequence[Card]]
) -> list[Finding]:
    """More copies of a card in one deal than the table's decks hold (one per deck)."""
    seen: Counter[Card] = Counter()
    reported: set[Card] = set()
    findings = []
    for name, cards in fields.items():
        for index, card in enumerate(cards):
            seen[card] += 1
            if seen[card] > rules.decks and card not in reported:
                reported.add(card)
                decks = "one deck holds" if rules.decks == 1 else f"{rules.decks} decks hold"
                findings.append(
                    Finding(
                        (*where, name),
                        f"{card} appears {seen[card]} times here, but {decks} only "
                        f"{rules.decks} {card} ({rules.name} table)",
                        Code.COPIES,
                        token=index,
                    )
                )
    return findings


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
        return [Finding(answer_path, str(error), Code.DEAL)]
    if action not in point.legal:
        legal = ", ".join(sorted(a.value for a in point.legal))
        return [
            Finding(
                answer_path,
                f"{action.value} is not allowed here at the {rules.name} "
                f"table; the legal actions are: {legal}",
                Code.DEAL,
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
            )
        ]
    findings = check_copies(
        rules, here, {"player": settle.player, "dealer": settle.dealer, "then": settle.then}
    )
    wanted = 2 if rules.dealer_peeks else 1
    if len(settle.dealer) != wanted:
        findings.append(
            Finding((*here, "dealer"), _dealer_count_message(rules, settle.dealer), Code.DEAL)
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
        return Finding(path, f"the strategy could not judge this decision: {error}", Code.STRATEGY)
    if best is chosen:
        return None
    return Finding(
        path,
        f"basic strategy at the {point.rules.name} table plays {best.value}, not "
        f"{chosen.value}, with {format_cards(point.cards)} ({_describe(point)}) against "
        f"{point.dealer_up}; set follows_strategy: false if the lesson shows this mistake "
        "on purpose",
        Code.STRATEGY,
    )


def _describe(point: DecisionPoint) -> str:
    value = point.value
    if point.is_insurance_decision:
        return "insurance offered"
    if point.is_pair:
        return "a pair"
    return f"{'soft' if value.soft else 'hard'} {value.total}"


# -- deal ---------------------------------------------------------------------------------------


def check_deal(
    deal: Deal, rules: TableRules, where: DataPath, pending: ForStrategy | None
) -> list[Finding]:
    """Replay the scripted deal through the engine and compare with what the lesson states."""
    rules = deal.rules or rules
    findings = check_copies(
        rules, where, {"player": deal.player, "dealer": deal.dealer, "then": deal.then}
    )
    wanted = 2 if rules.dealer_peeks else 1
    if len(deal.dealer) != wanted:
        message = _dealer_count_message(rules, deal.dealer)
        findings.append(Finding((*where, "dealer"), message, Code.DEAL))
    if findings:
        return findings
    return replay(deal, rules, where, pending)


def _dealer_count_message(rules: TableRules, dealer: Sequence[Card]) -> str:
    if rules.dealer_peeks:
        return (
            f"with the American deal ({rules.name} table) give the dealer's up-card and hole "
            f'card, such as "9♣ 7♦"; found {len(dealer)} card'
        )
    return (
        f"with the European deal ({rules.name} table) the dealer has no hole card: give only "
        "the up-card here, and the dealer's second card in 'then' after the learner's cards"
    )


def replay(
    deal: Deal, rules: TableRules, where: DataPath, pending: ForStrategy | None
) -> list[Finding]:
    """Play the deal's stated decisions on a strict scripted shoe; report where the lesson errs.

    The deal is played at its own table when it names one, the lesson's otherwise."""
    rules = deal.rules or rules
    decisions_path = (*where, "expect", "decisions")
    game, findings = _play_script(
        _Script(deal.player, deal.dealer, deal.then, deal.bet, deal.expect.decisions),
        rules,
        where,
        decisions_path,
        pending if deal.follows_strategy else None,
    )
    if game is None:
        return findings
    if not game.is_over:
        stated = decisions_path if deal.expect.decisions else (*where, "expect")
        findings.append(_goes_on(game, stated))
        return findings
    findings += _compare_result(deal, game, where)
    findings += _unused_cards(game, where)
    return findings


@dataclass(frozen=True)
class _Script:
    """The cards and decisions of a scripted round, a deal's or a settled question's."""

    player: Sequence[Card]
    dealer: Sequence[Card]
    then: Sequence[Card]
    bet: int
    decisions: Sequence[Action]


_OUT_OF_CARDS = (
    "the scripted cards run out {when}: add the cards still to be dealt to 'then', in "
    "dealing order (the learner's cards first, then the dealer's)"
)


def _play_script(
    script: _Script,
    rules: TableRules,
    where: DataPath,
    decisions_path: DataPath,
    pending: ForStrategy | None,
) -> tuple[Round | None, list[Finding]]:
    """Deal a script on a strict shoe and play its decisions; the round, or None when the script
    cannot be played to the end of its decisions, with what went wrong on the way.

    Each decision is left to the strategy pass (in ``pending``) unless a later decision cannot be
    played at all: the script's mistake then is the only finding, as it is what must be fixed."""
    plays: list[Play] = []
    try:
        game = scripted_round(
            rules, [script.player], script.dealer, script.then, bets=[script.bet], strict=True
        )
    except ShoeExhaustedError:
        out = Finding((*where, "then"), _OUT_OF_CARDS.format(when="at the deal"), Code.DEAL)
        return None, [out]
    findings: list[Finding] = []
    for number, action in enumerate(script.decisions):
        path = (*decisions_path, number)
        if game.is_over:
            return None, [
                Finding(
                    path,
                    f"the round is already over ({_state(game)}), so decision "
                    f"{number + 1} ({action.value}) never comes",
                    Code.DEAL,
                )
            ]
        try:
            game.verify(action)
        except IllegalActionError as error:
            return None, [
                Finding(
                    path,
                    f"decision {number + 1} ({action.value}) is not allowed at the "
                    f"{rules.name} table with {_state(game)}: {error}",
                    Code.DEAL,
                )
            ]
        if pending is not None:
            plays.append(Play(game.decision_point(), action, path))
        try:
            game.act(action)
        except ShoeExhaustedError:
            when = f"after decision {number + 1} ({action.value})"
            out = Finding((*where, "then"), _OUT_OF_CARDS.format(when=when), Code.DEAL)
            if pending is not None:
                pending.plays += plays
            return None, [*findings, out]
    if pending is not None:
        pending.plays += plays
    return game, findings


def _goes_on(game: Round, path: DataPath) -> Finding:
    legal = ", ".join(sorted(a.value for a in game.legal_actions()))
    return Finding(
        path,
        f"the stated decisions end but the round goes on: {_state(game)} still has "
        f"to choose among {legal}",
        Code.DEAL,
    )


def _unused_cards(game: Round, where: DataPath) -> list[Finding]:
    left = game.shoe.scripted_left
    if not left:
        return []
    unused = format_cards(game.shoe.remaining[:left])
    return [
        Finding(
            (*where, "then"),
            f"{left} scripted card(s) are never dealt ({unused}): the "
            "round ends before them; remove them or check the decisions",
            Code.DEAL,
        )
    ]


def _compare_result(deal: Deal, game: Round, where: DataPath) -> list[Finding]:
    findings = []
    result = game.results[0]
    actual = tuple(hand.outcome for hand in result.hands)
    expected = deal.expect.outcome
    story = _story(game)
    if expected != actual:
        shown = _outcomes_text(actual)
        if len(expected) != len(actual):
            message = (
                f"the round ends with {len(actual)} hand(s), so give {len(actual)} outcome(s): "
                f"the engine finds {shown} ({story})"
            )
        else:
            message = f"the engine finds {shown}, not {_outcomes_text(expected)} ({story})"
        findings.append(Finding((*where, "expect", "outcome"), message, Code.DEAL))
    if money(deal.expect.net) != result.net:
        findings.append(
            Finding(
                (*where, "expect", "net"),
                f"the seat's net is {_chips(result.net)} chips, not "
                f"{_chips(deal.expect.net)} ({story}; bet {deal.bet})",
                Code.DEAL,
            )
        )
    return findings


def _outcomes_text(outcomes: Sequence[Outcome]) -> str:
    if len(outcomes) == 1:
        return outcomes[0].value
    return "[" + ", ".join(outcome.value for outcome in outcomes) + "]"


def _chips(amount: Money) -> str:
    value = money(amount)
    return f"{value:+d}" if isinstance(value, int) else f"{'+' if value > 0 else ''}{value}"


def _state(game: Round) -> str:
    """The learner's hands and the dealer's visible cards, for a message."""
    seat = game.seats[0]
    hands = "; ".join(f"{format_cards(hand.cards)} ({hand.value.total})" for hand in seat.hands)
    dealer = format_cards(game.visible_dealer_cards)
    return f"hand {hands} against the dealer's {dealer}"


def _story(game: Round) -> str:
    seat = game.seats[0]
    hands = "; ".join(f"{format_cards(hand.cards)} = {hand.value.total}" for hand in seat.hands)
    dealer = game.dealer_value
    return f"player {hands}, dealer {format_cards(game.dealer)} = {dealer.total}"


# -- claims and the words of the text ------------------------------------------------------------


def check_claims(
    claims: Sequence[tuple[DataPath, Claim]], tables: Sequence[TableRules], strategy: StrategyFn
) -> list[Finding]:
    """The lesson's claims against the strategy of its tables (see ``tutor.lessons.claims``)."""
    findings: list[Finding] = []
    cache: PlayCache = {}
    for path, claim in claims:
        try:
            found = check_claim(claim, path, tables, strategy, cache)
        except Exception as error:  # the strategy is another layer: report, never crash
            message = f"the strategy could not judge this claim: {error}"
            findings.append(Finding(path, message, Code.STRATEGY))
            continue
        findings += [Finding(f.path, f.message, Code.CLAIM) for f in found]
    return findings


def check_words(lesson: Lesson, tables: Sequence[TableRules]) -> list[Finding]:
    """The lesson's absolute words about a play against its claims: they need no strategy."""
    return [
        Finding(f.path, f.message, Code.WORDING, word=(f.word, f.occurrence))
        for f in check_wording(lesson, list(tables))
    ]


#: A deal's intro that asks the learner to count the hand, which the table labels with its total.
_COUNT_ASKED = re.compile(
    r"(?<!\w)(?:comptez|combien vaut|count (?:your|the|this)|what is (?:your|this) hand worth"
    r"|how much is (?:your|this) hand worth)(?!\w)",
    re.I,
)


def check_giveaways(lesson: Lesson) -> list[Finding]:
    """Texts that give away the answer of the question they go with.

    A total asked about cards is not to be read beside them: the question (« Combien vaut ce
    17 ? ») or the caption of the cards shown just before must not state it. And the table of a
    deal labels the learner's hand with its total (« 19 dur »), so a deal cannot ask the learner
    to count: the count is asked in an ask step, and the deal asks for the play.
    """
    findings: list[Finding] = []
    for index, step in enumerate(lesson.steps):
        before = show_of(lesson.steps[index - 1]) if index else None
        findings += _giveaways(index, before)(step)
    return findings


def _giveaways(index: int, before: Show | None) -> StepCases[list[Finding]]:
    return StepCases(
        ask=lambda step: _total_given_away(step.ask, index, before),
        deal=lambda step: _count_asked(step.deal, index),
        otherwise=lambda step: [],
    )


def _total_given_away(ask: Ask, index: int, before: Show | None) -> list[Finding]:
    """The total an ask step asks for, stated by its question or the caption just before."""
    if not isinstance(ask.answer, TotalAnswer):
        return []
    total = _number(ask.answer.total)
    where: DataPath = ("steps", index, "ask", "question")
    findings = _states(ask.question, where, total, "the question")
    if (
        before is not None
        and before.caption is not None
        and ask.cards is not None
        and Counter(before.cards) == Counter(ask.cards)
    ):
        caption: DataPath = ("steps", index - 1, "show", "caption")
        findings += _states(before.caption, caption, total, "the caption")
    return findings


def _count_asked(deal: Deal, index: int) -> list[Finding]:
    """A deal's intro that asks the learner to count the hand the table labels with its total."""
    if deal.intro is None:
        return []
    findings: list[Finding] = []
    intro: DataPath = ("steps", index, "deal", "intro")
    for path, text in _languages(deal.intro, intro):
        match = _COUNT_ASKED.search(text)
        if match is None:
            continue
        word = match.group()
        occurrence = len(
            re.findall(rf"(?<!\w){re.escape(word)}(?!\w)", text[: match.start()], re.I)
        )
        findings.append(
            Finding(
                path,
                "the table labels the learner's hand with its total (« 19 dur »), so "
                "a deal that asks to count the hand gives the answer away: ask the "
                "total in an ask step before the deal (answer {total: …}) and let "
                "the deal ask for the play",
                Code.WORDING,
                word=(word, occurrence),
            )
        )
    return findings


def _languages(text: str | Translations, path: DataPath) -> list[tuple[DataPath, str]]:
    if isinstance(text, Translations):
        return [((*path, code), getattr(text, code)) for code in LOCALES if getattr(text, code)]
    return [(path, str(text))]


def _states(text: str | Translations, path: DataPath, total: str, what: str) -> list[Finding]:
    found = []
    for where, words in _languages(text, path):
        numbers = re.compile(rf"(?<![\w,.]){total}(?!\w|[,.]\d)")  # 16, not 1,6 or 16,5
        match = numbers.search(words)
        if match is None:
            continue
        occurrence = len(re.findall(rf"(?<!\w){total}(?!\w)", words[: match.start()]))
        found.append(
            Finding(
                where,
                f"{what} states the total the learner is asked for ({total}) beside the "
                "cards: the learner reads the answer instead of counting; leave it for the "
                "explanation",
                Code.WORDING,
                word=(total, occurrence),
            )
        )
    return found


# -- translations -------------------------------------------------------------------------------


def check_translations(lesson: Lesson) -> list[Finding]:
    """The built-in course speaks French and English everywhere: every text gives both."""
    findings = []
    both = " and ".join(LOCALES)
    for path, text in iter_texts(lesson):
        if isinstance(text, PlainText):
            findings.append(
                Finding(
                    path,
                    f"missing translation: this text is a plain string; the built-in "
                    f'course gives every text in {both}, as {{fr: "…", en: "…"}}',
                    Code.TRANSLATION,
                )
            )
        elif isinstance(text, Translations) and text.missing():
            missing = " and ".join(text.missing())
            findings.append(
                Finding(
                    path,
                    f"missing translation: no {missing} text here; the built-in course "
                    f"gives every text in {both}",
                    Code.TRANSLATION,
                )
            )
    return findings
