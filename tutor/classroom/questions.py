"""The hands a class is asked: typed by the teacher, dealt by a drill, or taken from a lesson, and
judged once per table.

Hands typed by a teacher are one per line: the player's cards, a slash, the dealer's up-card, and
``insurance`` at the end to ask the insurance decision rather than the play:

>>> [str(q.dealer_up) for q in parse_hands("10 6 / 10\\nA♠ 7♥ / 9♣")]
['10♣', '9♣']
>>> parse_hands("10 6 / 10\\n10 Z / 9")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tutor.classroom.questions.HandsError: line 2: 'Z' is not a card
>>> parse_hands("8 8 8 / 10")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tutor.classroom.questions.HandsError: line 1: the player's cards make 24, past 21
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import cycle

from tutor.cards import Card, InvalidCardError, Rank, Suit, hand_value, parse_cards
from tutor.decision import Action, DecisionPoint
from tutor.lessons import LOCALES, AskStep, DealStep, DrillStep, Lesson, Translations, localize
from tutor.lessons.lesson import AnyStep, own_table_of
from tutor.lessons.models import ActionAnswer
from tutor.quiz_deal import next_question, offered_point
from tutor.quiz_questions import Category, Hands, unavailable_reason
from tutor.refusal import Refusal, RefusedError
from tutor.rules import PRESETS, TableRules
from tutor.strategy.judge import Judgement
from tutor.table import decision_for

#: A class session of more questions than this is a typing accident, not a lesson.
MAX_QUESTIONS = 60
#: The most a teacher's typed hands may hold: 60 hands with their comments fit several times over
#: (``10♠ 6♥ / 10♣  # a hard 16`` is 26 characters), and a text past it is refused before a line
#: is read, so a megabyte pasted (or sent by a script) costs nothing.
MAX_HANDS_CHARS = 6000
#: The bet a class's costs are stated in (the family table's two chips).
CLASS_BET = 2
_INSURANCE_WORDS = frozenset({"insurance", "assurance", "ins", "i"})


#: The longest question text a class keeps for one hand, in one language: a lesson's question is
#: a sentence or two, and a projector shows a few lines; a longer text (a lesson whose step holds
#: a page of prose) is refused when the class is made, before anything is stored.
MAX_TEXT_CHARS = 600


@dataclass(frozen=True)
class ClassQuestion:
    """One hand to ask: the player's cards against the dealer's up-card (or the insurance offer),
    and, for a question taken from a lesson's step, the step's own table and words.

    ``rules`` is the table this hand is played at when it is not the class's (a lesson's step at
    the French casino in a class at the family table): the judge grades at it, the reveal's
    reason speaks of it, the projector and the phones name it. ``texts`` is the step's question
    in each language, ``(("fr", "…"), ("en", "…"))``; empty for the quiz's own sentence.

    >>> from tutor.rules import PRESETS
    >>> plain = ClassQuestion.parse("K♠ 10♦", "6♥")
    >>> Action.SPLIT in plain.point(PRESETS["family"]).legal  # same rank only at the family table
    False
    >>> at_casino = ClassQuestion.parse("K♠ 10♦", "6♥", rules=PRESETS["french-casino"])
    >>> Action.SPLIT in at_casino.point(PRESETS["family"]).legal  # its own table: same value
    True
    """

    cards: tuple[Card, ...]
    dealer_up: Card
    insurance: bool = False
    rules: TableRules | None = None
    texts: tuple[tuple[str, str], ...] = ()
    #: The moves the lesson offers (its ``actions``), None for every move the table allows: a
    #: class made from a lesson that has not taught doubling offers no Double, and grades among
    #: the moves the lesson offers, as the lesson's own page does (``offered_point``).
    offered: frozenset[Action] | None = None
    #: The step's own explanation in each language, shown at the reveal beside the judge's
    #: figures: the teacher's words for why, not replaced by the generated reason.
    explanations: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        for language, text in (*self.texts, *self.explanations):
            if len(text) > MAX_TEXT_CHARS:
                raise ValueError(
                    f"a question's text has {MAX_TEXT_CHARS} characters at most"
                    f" ({language}: {len(text)})"
                )

    @classmethod
    def parse(
        cls,
        cards: str,
        dealer_up: str,
        *,
        insurance: bool = False,
        rules: TableRules | None = None,
        texts: tuple[tuple[str, str], ...] = (),
    ) -> ClassQuestion:
        return cls(parse_cards(cards), Card.parse(dealer_up), insurance, rules, texts)

    def table(self, class_rules: TableRules) -> TableRules:
        """The table this hand is played at: its own, else the class's."""
        return self.rules if self.rules is not None else class_rules

    def point(self, rules: TableRules) -> DecisionPoint:
        """The decision asked, at this question's own table when it has one (``rules`` is the
        class's), among the moves it offers, so that every reader of a question, the judge
        first, plays it at one table with the same buttons."""
        table = self.table(rules)
        point = decision_for(table, self.cards, self.dealer_up, insurance=self.insurance)
        return offered_point(point, self.offered)

    def text(self, language: str) -> str | None:
        """The step's question in ``language`` (the first language given when it lacks that one),
        or None for a question that has no words of its own."""
        return _in_language(self.texts, language)

    def explanation(self, language: str) -> str | None:
        """The step's explanation in ``language`` (as ``text``), None when it has none."""
        return _in_language(self.explanations, language)


def _in_language(texts: tuple[tuple[str, str], ...], language: str) -> str | None:
    if not texts:
        return None
    return dict(texts).get(language, texts[0][1])


@lru_cache(maxsize=4096)
def judged(rules: TableRules, question: ClassQuestion, action: Action | None = None) -> Judgement:
    """The judge's verdict on a class's answer (or its advice, for the reveal): the same judge as
    every other page, graded against the chart the class learns. Cached: forty phones polling a
    reveal ask the same verdicts."""
    from tutor.strategy import judge

    return judge(question.point(rules), action, bet=CLASS_BET)


@lru_cache(maxsize=4096)
def legal(rules: TableRules, question: ClassQuestion) -> frozenset[Action]:
    """The plays a student may answer on this hand at this table."""
    return question.point(rules).legal


# -- hands typed by the teacher -------------------------------------------------------------------


@dataclass(frozen=True)
class HandProblem:
    """A typed line that cannot be asked: its number, the text, and why (a code for translation,
    ``detail`` for its parameter: the token that is not a card, the total past 21)."""

    line: int
    text: str
    code: str
    detail: str = ""

    def __str__(self) -> str:
        if self.code == "card":
            return f"line {self.line}: {self.detail!r} is not a card"
        if self.code == "bust":
            return f"line {self.line}: the player's cards make {self.detail}, past 21"
        return f"line {self.line}: {self.detail or self.code}"


class HandsError(RefusedError, ValueError):
    """Typed hands that cannot all be asked; ``problems`` says which line and why (each with its
    own code, worded by the page line by line), the refusal (``hands``) how many lines."""

    codes = ("hands",)

    def __init__(self, problems: Sequence[HandProblem]) -> None:
        message = "; ".join(str(problem) for problem in problems)
        super().__init__(Refusal("hands", {"count": len(problems)}), message)
        self.problems = tuple(problems)


def _card(token: str, suits: Iterator[Suit]) -> Card:
    """A card written with its suit (``10♥``, ``TH``), or a rank alone (``10``, ``A``) given the
    next suit of ``suits`` so that a pair shows two different cards."""
    try:
        return Card.parse(token)
    except InvalidCardError:
        try:
            rank = Rank.parse(token)
        except InvalidCardError:
            raise InvalidCardError(
                token,
                "write a rank (A, 2-10, J, Q, K) with or without a suit, such as 10 or 10♥",
                code="card-rank",
            ) from None
        return Card(rank, next(suits))


def parse_hand_line(text: str, rules: TableRules, *, line: int = 1) -> ClassQuestion:
    """One typed line, ``10 6 / 10`` or ``A♠ A♥ / 6♦`` or ``A 10 / A insurance``, as a question
    the table can ask; ``HandsError`` with the line's problem otherwise."""

    def problem(code: str, detail: str = "") -> HandsError:
        return HandsError([HandProblem(line, text.strip(), code, detail)])

    if text.count("/") != 1:
        raise problem("slash", "write the player's cards, a slash, the dealer's card")
    player_text, dealer_text = (part.replace(",", " ").split() for part in text.split("/"))
    insurance = bool(dealer_text) and dealer_text[-1].lower() in _INSURANCE_WORDS
    if insurance:
        dealer_text = dealer_text[:-1]
    if len(player_text) < 2:
        raise problem("player-cards", "the player needs at least two cards")
    if len(dealer_text) != 1:
        raise problem("dealer-card", "the dealer shows exactly one card")
    suits = cycle((Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS))
    try:
        cards = tuple(_card(token, suits) for token in player_text)
        dealer_up = _card(dealer_text[0], suits)
    except InvalidCardError as error:
        raise problem("card", error.token) from None
    total = hand_value(cards).total
    if total > 21:  # said as such: "no decision to make" hid what was wrong with the line
        raise problem("bust", str(total))
    question = ClassQuestion(cards, dealer_up, insurance)
    try:
        question.point(rules)
    except ValueError as error:
        raise problem("no-decision", str(error)) from None
    return question


def parse_hands(text: str, rules: TableRules | None = None) -> list[ClassQuestion]:
    """Every non-empty line of ``text`` (``#`` starts a comment) as a question; all the lines'
    problems at once, so a teacher fixes them in one go.

    Bounded before any work: a text longer than ``MAX_HANDS_CHARS`` is refused on its length
    alone, and reading stops at the first hand past ``MAX_QUESTIONS`` (the lines after it are
    never parsed):

    >>> parse_hands("10 6 / 10\\n" * 61)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tutor.classroom.questions.HandsError: line 0: at most 60 hands
    """
    if len(text) > MAX_HANDS_CHARS:
        raise HandsError([HandProblem(0, "", "too-long", f"at most {MAX_HANDS_CHARS} characters")])
    table = rules if rules is not None else PRESETS["family"]
    questions: list[ClassQuestion] = []
    problems: list[HandProblem] = []
    hands = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        hands += 1
        if hands > MAX_QUESTIONS:  # the first line past the limit: the rest is not read
            raise HandsError([HandProblem(0, "", "too-many", f"at most {MAX_QUESTIONS} hands")])
        try:
            questions.append(parse_hand_line(line, table, line=number))
        except HandsError as error:
            problems.extend(error.problems)
    if problems:
        raise HandsError(problems)
    if not questions:
        raise HandsError([HandProblem(0, "", "empty", "type at least one hand")])
    return questions


# -- hands from a drill or a lesson ---------------------------------------------------------------


def askable(question: ClassQuestion, rules: TableRules) -> bool:
    try:
        question.point(rules)
    except ValueError:
        return False
    return True


def _unique(questions: Iterable[ClassQuestion]) -> list[ClassQuestion]:
    seen: set[ClassQuestion] = set()
    kept = []
    for question in questions:
        if question not in seen:
            seen.add(question)
            kept.append(question)
    return kept


def drill_questions(
    category: Category,
    count: int,
    rules: TableRules,
    *,
    seed: int,
    dealer_ups: Sequence[int] | None = None,
    hands: Hands | None = None,
) -> list[ClassQuestion]:
    """``count`` different decision hands of ``category`` dealt by the quiz at this table (fewer
    when the category has fewer different hands). ``ValueError`` when the table cannot ask it."""
    if not category.is_decision:
        raise ValueError(f"{category.value} questions are not decisions")
    why = unavailable_reason(category, rules)
    if why is not None:
        raise ValueError(f"this table cannot ask {category.value} questions ({why})")
    rng = random.Random(seed)
    questions: list[ClassQuestion] = []
    for _ in range(count * 20):
        if len(questions) >= count:
            break
        dealt = next_question(category, rules, rng, dealer_ups=dealer_ups, hands=hands)
        assert dealt.point is not None
        question = ClassQuestion(dealt.cards, dealt.dealer[0], dealt.point.is_insurance_decision)
        if question not in questions and askable(question, rules):
            questions.append(question)
    return questions


def _step_texts(text: str | Translations | None) -> tuple[tuple[str, str], ...]:
    """A step's question (a lesson's text, plain or per language) as the class keeps it: its
    words in each language a lesson is read in, as a learner of that language reads the step."""
    if text is None:
        return ()
    return tuple((language, localize(text, language)) for language in LOCALES)


def _step_question(step: AnyStep, offered: frozenset[Action] | None) -> ClassQuestion | None:
    """The hand a lesson's step asks a decision on, with its words and the moves the lesson
    offers: a question on a hand whose answer is a play, or a scripted deal's first decision
    (its introduction as the question); the step's explanation either way."""
    if isinstance(step, AskStep):
        ask = step.ask
        if isinstance(ask.answer, ActionAnswer) and ask.cards and ask.dealer:
            insurance = ask.answer.action.is_insurance_decision
            return ClassQuestion(
                ask.cards,
                ask.dealer[0],
                insurance,
                texts=_step_texts(ask.question),
                offered=offered,
                explanations=_step_texts(ask.explanation),
            )
    elif isinstance(step, DealStep):
        deal = step.deal
        decisions = deal.expect.decisions
        insurance = bool(decisions) and decisions[0].is_insurance_decision
        return ClassQuestion(
            deal.player,
            deal.dealer[0],
            insurance,
            texts=_step_texts(deal.intro),
            offered=offered,
            explanations=_step_texts(deal.explanation),
        )
    return None


def lesson_questions(
    lesson: Lesson, rules: TableRules | None = None, *, seed: int
) -> list[ClassQuestion]:
    """The decisions a lesson holds, in its order: its questions on a hand, its scripted deals'
    first decision, and its drills dealt by the quiz. Hands a table cannot ask (a surrender
    question at a table without surrender, a natural) are left out.

    From any lesson, a built-in file or a teacher's own: without ``rules``, each question keeps
    its step's table (the step's own, else the lesson's) and its step's words, so a deal at the
    French casino is asked there, in the lesson's sentence. With ``rules`` (the teacher chose
    another table for the whole class) every hand is asked at that table in the quiz's words: a
    step's sentence may name its table, and would then say what the class does not play.

    Either way each question offers the moves the lesson offers (its ``actions``), and is graded
    among them: a lesson that has not taught doubling asks no class to double.
    """
    offered = None if lesson.actions is None else lesson.offered
    questions: list[ClassQuestion] = []
    for index, step in enumerate(lesson.steps):
        table = rules or own_table_of(step) or lesson.rules
        question = _step_question(step, offered)
        if question is not None:
            questions.append(
                question_at(question, table)
                if rules is None
                else replace(question, texts=(), explanations=())
            )
        elif isinstance(step, DrillStep):
            category = Category(step.drill.category.value)
            if category.is_decision and unavailable_reason(category, table) is None:
                dealt = drill_questions(
                    category,
                    step.drill.count,
                    table,
                    seed=seed + index,
                    dealer_ups=step.drill.dealer,
                    hands=step.drill.hands,
                )
                questions.extend(
                    replace(question_at(q, table) if rules is None else q, offered=offered)
                    for q in dealt
                )
    class_rules = rules or lesson.rules
    return [q for q in _unique(questions) if askable(q, class_rules)][:MAX_QUESTIONS]


def question_at(question: ClassQuestion, table: TableRules) -> ClassQuestion:
    """``question`` asked at ``table``, named as its own."""
    return replace(question, rules=table)
