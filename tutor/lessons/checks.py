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

The rooms: this module holds the passes and the checks of a whole lesson (the drills offered,
claims, words, answers given away, translations); a question's checks are in
``tutor.lessons.checks_ask``, a scripted deal's replay in ``tutor.lessons.checks_deal``, and what
every check returns in ``tutor.lessons.findings``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace

from tutor.decision import Action
from tutor.lessons.checks_ask import (
    _judge,
    _languages,
    _number,
    check_ask,
    check_engine_figure,
)
from tutor.lessons.checks_deal import check_copies, check_deal
from tutor.lessons.claims import PlayCache, check_claim, check_wording, lesson_tables
from tutor.lessons.fields import LOCALES, PlainText, Translations
from tutor.lessons.findings import Checked, Code, Finding, ForStrategy, StrategyFn, why
from tutor.lessons.lesson import (
    AnyStep,
    AskStep,
    DealStep,
    DrillStep,
    Lesson,
    StepCases,
    ask_of,
    nothing,
    own_table_of,
    show_of,
)
from tutor.lessons.models import (
    ActionAnswer,
    Ask,
    Claim,
    Deal,
    Drill,
    DrillCategory,
    EngineFigure,
    Show,
    TotalAnswer,
)
from tutor.lessons.source import DataPath
from tutor.lessons.texts import iter_texts
from tutor.quiz_deal import dealable, offered_point
from tutor.quiz_questions import unavailable_reason
from tutor.rules import PRESETS, TableRules

#: Tables of its own (rules that are none of the presets) one lesson may name: the lesson's, its
#: steps', its engine figures' and its claims' together. Why a bound: each is a strategy solve
#: (a fraction of a second of a core, then a saved file), paid at the check of a new one, and a
#: lesson naming a hundred tables cost a minute of the server at every save. Why four: the
#: built-in lessons name at most one table that is not a preset; four leave a teacher room to
#: compare a house's table with a few of its changes. The presets are never counted: their
#: solutions are kept for every page (``tutor.strategy.solution``), naming them costs nothing.
MAX_OWN_TABLES = 4


def named_tables(
    rules: TableRules,
    steps: Iterable[tuple[int, AnyStep]],
    claims: Iterable[tuple[int, Claim]],
) -> Iterator[tuple[DataPath, TableRules]]:
    """Every table a lesson writes, at the key that writes it, in the file's order: the
    lesson's ``rules``, then each step's (a deal's or a settled question's ``rules``, an engine
    figure's ``edge`` and ``minus``, its claims' ``tables``), then the lesson's claims'."""
    yield ("rules",), rules
    for index, step in steps:
        where: DataPath = ("steps", index, step.kind)
        own = own_table_of(step)
        if own is not None:
            yield (*where, *(("settle",) if isinstance(step, AskStep) else ()), "rules"), own
        ask = ask_of(step)
        engine = getattr(ask.answer, "engine", None) if ask is not None else None
        if isinstance(engine, EngineFigure):
            yield (*where, "answer", "engine", "edge"), engine.edge
            if engine.minus is not None:
                yield (*where, "answer", "engine", "minus"), engine.minus
        for number, claim in enumerate(step.claims):
            for at, table in enumerate(claim.tables or ()):
                yield ("steps", index, "claims", number, "tables", at), table
    for number, claim in claims:
        for at, table in enumerate(claim.tables or ()):
            yield ("claims", number, "tables", at), table


def check_own_tables(
    rules: TableRules,
    steps: Iterable[tuple[int, AnyStep]],
    claims: Iterable[tuple[int, Claim]] = (),
) -> list[Finding]:
    """The key whose table is the first past ``MAX_OWN_TABLES`` tables that are not presets;
    nothing within the bound. Only rules are read, nothing is solved: the checker calls it
    before it leaves anything to the strategy."""
    # Keyed as the solver keys them: a table's name changes nothing it solves.
    presets = {preset.replace(name="") for preset in PRESETS.values()}
    own: set[TableRules] = set()
    for path, named in named_tables(rules, steps, claims):
        table = named.replace(name="")
        if table in presets or table in own:
            continue
        own.add(table)
        if len(own) > MAX_OWN_TABLES:
            return [
                Finding(
                    path,
                    f"a lesson plays at most {MAX_OWN_TABLES} tables of its own besides the"
                    " presets: use a preset here, or one of the lesson's tables",
                    Code.RULES,
                    reason=why("lesson-too-many-tables", most=MAX_OWN_TABLES),
                )
            ]
    return []


def check_lesson(lesson: Lesson, *, bilingual: bool) -> Checked:
    """Every semantic problem of one lesson that needs no strategy (the schema has already
    passed), and what is left for the strategy to judge (``check_against_strategy``).

    A lesson past ``MAX_OWN_TABLES`` is refused there and leaves nothing to the strategy: its
    checking costs no solve."""
    too_many = check_own_tables(lesson.rules, enumerate(lesson.steps), enumerate(lesson.claims))
    if too_many:
        return Checked(too_many, ForStrategy())
    findings: list[Finding] = []
    pending = ForStrategy(tables=lesson_tables(lesson))
    for index, step in enumerate(lesson.steps):
        findings += check_step(step, index, lesson.rules, pending)
    if lesson.actions is not None:
        # Judged among the moves the lesson offers, as its page and a class made from it grade
        # them: 16 against a 10 is a hit in a lesson of hit and stand, whatever surrender is worth.
        pending.plays[:] = [
            replace(play, point=offered_point(play.point, lesson.offered))
            for play in pending.plays
        ]
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
                reason=why("lesson-only-text"),
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
                reason=why("lesson-offers-no-stand", offered=shown),
            )
        )

    def outside(action: Action, path: DataPath, what: str, code: str) -> None:
        if action not in offered:
            findings.append(
                Finding(
                    path,
                    f"{what} {action.value}, which this lesson does not offer (actions: {shown}): "
                    f"add {action.value} to the lesson's 'actions' or leave it for a later lesson",
                    Code.CONTENT,
                    reason=why(code, action=action.value, offered=shown, what=what),
                )
            )

    def offered_in(index: int) -> StepCases[None]:
        def deal(step: DealStep) -> None:
            where: DataPath = ("steps", index, "deal", "expect", "decisions")
            for number, action in enumerate(step.deal.expect.decisions):
                outside(action, (*where, number), "the deal plays", "lesson-deal-not-offered")

        def ask(step: AskStep) -> None:
            ask = step.ask
            if isinstance(ask.answer, ActionAnswer):
                path: DataPath = ("steps", index, "ask", "answer", "action")
                outside(ask.answer.action, path, "the answer is", "lesson-answer-not-offered")
            if ask.settle is not None:
                where: DataPath = ("steps", index, "ask", "settle", "decisions")
                for number, action in enumerate(ask.settle.decisions):
                    outside(
                        action, (*where, number), "the question's round plays",
                        "lesson-round-not-offered",
                    )

        def drill(step: DrillStep) -> None:
            if need := _DRILL_NEEDS.get(step.drill.category):
                path: DataPath = ("steps", index, "drill", "category")
                outside(
                    need, path, f"a {step.drill.category.value} drill asks about",
                    "lesson-drill-not-offered",
                )

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
                reason=why(
                    f"lesson-drill-{refusal}", category=category.value, table=rules.name
                ),
            )
        ]
    if category is DrillCategory.INSURANCE and drill.dealer is not None and 1 not in drill.dealer:
        return [
            Finding(
                (*where, "dealer"),
                "insurance is only offered when the dealer shows an Ace: include A in 'dealer'",
                Code.CONTENT,
                reason=why("lesson-drill-insurance-ace"),
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
                reason=why(
                    "lesson-drill-undealable",
                    category=category.value,
                    hands=why(f"lesson-hands-{drill.hands.value}") if drill.hands else None,
                    against=why("lesson-against-ups", ups=shown) if shown else None,
                    table=rules.name,
                ),
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
    too_many = check_own_tables(rules, sorted(steps.items()))
    if too_many:  # refused before any solve, as a whole lesson is
        return Checked(too_many, ForStrategy())
    findings: list[Finding] = []
    for index, step in sorted(steps.items()):
        findings += check_step(step, index, rules, pending)
    return Checked(findings, pending)


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
            reason = why("lesson-claim-unjudged", error=str(error))
            findings.append(Finding(path, message, Code.STRATEGY, reason=reason))
            continue
        findings += [Finding(f.path, f.message, Code.CLAIM, reason=f.reason) for f in found]
    return findings


def check_words(lesson: Lesson, tables: Sequence[TableRules]) -> list[Finding]:
    """The lesson's absolute words about a play against its claims: they need no strategy."""
    return [
        Finding(f.path, f.message, Code.WORDING, word=(f.word, f.occurrence), reason=f.reason)
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
                reason=why("lesson-deal-asks-count"),
            )
        )
    return findings



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
                reason=why(
                    "lesson-caption-states-total" if what == "the caption"
                    else "lesson-question-states-total",
                    total=total,
                ),
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
                    reason=why("lesson-translation-plain"),
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
                    reason=why(f"lesson-translation-no-{text.missing()[0]}"),
                )
            )
    return findings
