"""A lesson being played: which step is shown, what the learner answered, and the deals and
drills in progress. No Streamlit here: the lesson page calls these methods from its callbacks.

A step must be *done* before the learner moves on (an ask answered, a deal played to its end, a
drill's questions answered); explain and show steps are done when seen. Going back never loses
what was done, so a learner can reread an explanation and return.

Deal steps are dealt by ``tutor.lessons.deal_round`` exactly as the checker replayed them. Every
decision is judged by the strategy's one judge, as on every other page; the lesson's script only
says whether the learner is still on it (and, for a deal that shows a mistake on purpose, that the
mistake was the lesson's). Once the learner leaves the script the round goes on from the real
cards, and the page tells what really happened instead of the lesson's scripted commentary.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tutor.decision import Action
from tutor.game import Round
from tutor.lessons import AskStep, DealStep, DrillStep, Lesson, check_answer, deal_round
from tutor.quiz import Category, QuizSession
from tutor.strategy import Judgement, Reference, judge


@dataclass(frozen=True)
class Decision:
    """One decision in a lesson's deal: what the learner did, the lesson's scripted move at that
    point (while the learner was still on the script), and the judge's verdict, the same as on
    every other page."""

    action: Action
    #: The lesson's move here, or None once the learner has left the script.
    expected: Action | None
    judgement: Judgement
    #: The deal shows a mistake on purpose (``follows_strategy: false``).
    on_purpose: bool = False

    @property
    def correct(self) -> bool:
        return self.judgement.is_right

    @property
    def leaves_script(self) -> bool:
        """This move is where the learner left the lesson's script."""
        return self.expected is not None and self.action is not self.expected

    @property
    def scripted_mistake(self) -> bool:
        """A move the lesson asked for to show a mistake: judged a mistake, and said to be one
        the lesson makes on purpose."""
        return self.on_purpose and not self.leaves_script and not self.correct


@dataclass
class DealPlay:
    """A deal step in progress."""

    round: Round
    expected: tuple[Action, ...]
    #: False when the lesson scripts a mistake on purpose.
    follows_strategy: bool = True
    bet: int = 2
    reference: Reference = Reference.CHART
    decisions: list[Decision] = field(default_factory=list)

    @property
    def on_script(self) -> bool:
        """The learner has made every move the lesson scripted so far."""
        return not any(decision.leaves_script for decision in self.decisions) and all(
            decision.expected is not None for decision in self.decisions
        )

    @property
    def left_script(self) -> bool:
        return any(decision.leaves_script for decision in self.decisions)

    def act(self, action: Action) -> Decision:
        game = self.round
        game.verify(action)
        index = len(self.decisions)
        expected = self.expected[index] if self.on_script and index < len(self.expected) else None
        judgement = judge(game.decision_point(), action, reference=self.reference, bet=self.bet)
        decision = Decision(action, expected, judgement, on_purpose=not self.follows_strategy)
        game.act(action)
        self.decisions.append(decision)
        return decision


@dataclass(frozen=True)
class AskResult:
    given: str
    correct: bool


@dataclass
class LessonRun:
    """One learner's pass through one lesson."""

    lesson: Lesson
    step: int = 0
    seed: int = 0
    answers: dict[int, AskResult] = field(default_factory=dict)
    deals: dict[int, DealPlay] = field(default_factory=dict)
    drills: dict[int, QuizSession] = field(default_factory=dict)
    seen: set[int] = field(default_factory=lambda: {0})
    #: What the deals and drills grade against: the chart (the default) or the exact play.
    reference: Reference = Reference.CHART

    @property
    def total(self) -> int:
        return len(self.lesson.steps)

    @property
    def at_end(self) -> bool:
        return self.step == self.total - 1

    def is_done(self, index: int) -> bool:
        step = self.lesson.steps[index]
        if isinstance(step, AskStep):
            return index in self.answers
        if isinstance(step, DealStep):
            play = self.deals.get(index)
            return play is not None and play.round.is_over
        if isinstance(step, DrillStep):
            drill = self.drills.get(index)
            return drill is not None and drill.finished
        return index in self.seen

    @property
    def completed(self) -> int:
        """How many steps are done, for the course list's progress."""
        return sum(1 for index in range(self.total) if self.is_done(index))

    @property
    def finished(self) -> bool:
        return self.completed == self.total

    def can_go_next(self) -> bool:
        return self.is_done(self.step)

    def next(self) -> None:
        if self.can_go_next() and self.step < self.total - 1:
            self.step += 1
            self.seen.add(self.step)
            self._prepare()

    def back(self) -> None:
        if self.step > 0:
            self.step -= 1

    def _prepare(self) -> None:
        """Deal a deal step's round or a drill's first question when the step is reached."""
        step = self.lesson.steps[self.step]
        if isinstance(step, DealStep) and self.step not in self.deals:
            self.deals[self.step] = DealPlay(
                deal_round(step, self.lesson.rules, seed=self.seed),
                tuple(step.deal.expect.decisions),
                follows_strategy=step.deal.follows_strategy,
                bet=step.deal.bet,
                reference=self.reference,
            )
        elif isinstance(step, DrillStep) and self.step not in self.drills:
            drill = step.drill
            self.drills[self.step] = QuizSession(
                Category(drill.category.value),
                self.lesson.rules,
                seed=random.Random(self.seed * 1000 + self.step).randrange(2**32),
                dealer_ups=drill.dealer,
                length=drill.count,
                reference=self.reference,
            )

    def start(self) -> None:
        self._prepare()

    def answer(self, given: str | int) -> AskResult:
        """Judge an ask step's answer (only the first counts)."""
        step = self.lesson.steps[self.step]
        assert isinstance(step, AskStep)
        if self.step not in self.answers:
            self.answers[self.step] = AskResult(str(given), check_answer(step, given))
        return self.answers[self.step]

    def deal_play(self) -> DealPlay | None:
        return self.deals.get(self.step)

    def drill(self) -> QuizSession | None:
        return self.drills.get(self.step)
