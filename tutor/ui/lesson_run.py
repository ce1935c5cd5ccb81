"""A lesson being played: which step is shown, what the learner answered, and the deals and
drills in progress. No Streamlit here: the lesson page calls these methods from its callbacks.

A step must be *done* before the learner moves on (an ask answered, a deal played to its end, a
drill's questions answered); explain and show steps are done when seen. Going back never loses
what was done, so a learner can reread an explanation and return.

Deal steps are dealt by ``tutor.lessons.deal_round`` exactly as the checker replayed them, and each
decision is judged against the lesson's expected decision while the learner follows the script,
then against the strategy once the hand has gone its own way.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tutor.decision import Action
from tutor.game import Round
from tutor.lessons import AskStep, DealStep, DrillStep, Lesson, check_answer, deal_round
from tutor.quiz import Category, QuizSession
from tutor.strategy import Advice, advise


@dataclass(frozen=True)
class Decision:
    """One decision in a lesson's deal: what the learner did and what was expected."""

    action: Action
    expected: Action | None
    advice: Advice | None

    @property
    def correct(self) -> bool:
        if self.expected is not None:
            return self.action is self.expected
        return self.advice is None or self.advice.loss <= 1e-9


@dataclass
class DealPlay:
    """A deal step in progress."""

    round: Round
    expected: tuple[Action, ...]
    decisions: list[Decision] = field(default_factory=list)

    @property
    def on_script(self) -> bool:
        return all(d.action is d.expected for d in self.decisions)

    def act(self, action: Action) -> Decision:
        game = self.round
        game.verify(action)
        index = len(self.decisions)
        expected = self.expected[index] if self.on_script and index < len(self.expected) else None
        advice = None if expected is not None else advise(game.decision_point(), action)
        decision = Decision(action, expected, advice)
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
            )
        elif isinstance(step, DrillStep) and self.step not in self.drills:
            drill = step.drill
            self.drills[self.step] = QuizSession(
                Category(drill.category.value),
                self.lesson.rules,
                seed=random.Random(self.seed * 1000 + self.step).randrange(2**32),
                dealer_ups=drill.dealer,
                length=drill.count,
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
