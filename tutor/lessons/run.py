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
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tutor.decision import Action
from tutor.exact import parse_exact
from tutor.game import IllegalActionError, Round
from tutor.lessons import AskStep, DealStep, DrillStep, Lesson, check_answer, deal_round
from tutor.lessons.lesson import StepCases, ask_of, nothing
from tutor.lessons.models import ChoiceAnswer
from tutor.quiz import QuizSession
from tutor.quiz_deal import offered_point
from tutor.quiz_questions import Category
from tutor.refusal import Refusal, RefusedError
from tutor.store import Learner, LessonRecord, StepKind, StepRecord, Store
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


class NotOfferedError(RefusedError, ValueError):
    """A move the lesson does not offer yet (its ``actions``), though the table would allow it:
    ``not-offered``, with the action's and the offered actions' values."""

    codes = ("not-offered",)

    def __init__(self, action: Action, offered: frozenset[Action]) -> None:
        values = tuple(sorted(a.value for a in offered))
        refusal = Refusal("not-offered", {"action": action.value, "offered": values})
        names = ", ".join(values)
        super().__init__(refusal, f"this lesson does not offer {action.value} (it offers {names})")
        self.action = action


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
    #: The moves the lesson offers (its ``actions``): a lesson on hitting and standing shows no
    #: Double button, so a learner is never asked about a move not yet taught.
    offered: frozenset[Action] = frozenset(Action)

    def legal_actions(self) -> frozenset[Action]:
        """The buttons to light: what the table allows now, among what the lesson offers. The
        lesson checker makes sure this is never empty while the round waits for a decision."""
        return self.round.legal_actions() & self.offered

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
        """Play the learner's move; a move the lesson does not offer is refused like an illegal
        one (``NotOfferedError``), so no path through the page reaches an untaught move."""
        game = self.round
        if action not in self.offered:
            raise NotOfferedError(action, self.offered)
        game.verify(action)
        index = len(self.decisions)
        expected = self.expected[index] if self.on_script and index < len(self.expected) else None
        point = offered_point(game.decision_point(), self.offered)
        judgement = judge(point, action, reference=self.reference, bet=self.bet)
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
    #: Each drill's answers in the order given, so that a drill can be replayed when resumed.
    drill_answers: dict[int, list[str]] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return len(self.lesson.steps)

    @property
    def shows_values(self) -> bool:
        """Whether verdicts show every move's expected value: only in a lesson that teaches them
        or comes after the one that does (the lesson's ``expected_values``), never before."""
        return self.lesson.expected_values

    @property
    def at_end(self) -> bool:
        return self.step == self.total - 1

    def is_done(self, index: int) -> bool:
        play, drill = self.deals.get(index), self.drills.get(index)
        done: StepCases[bool] = StepCases(
            ask=lambda step: index in self.answers,
            deal=lambda step: play is not None and play.round.is_over,
            drill=lambda step: drill is not None and drill.finished,
            otherwise=lambda step: index in self.seen,
        )
        return done(self.lesson.steps[index])

    @property
    def completed(self) -> int:
        """How many steps are done, for the course list's progress."""
        return sum(1 for index in range(self.total) if self.is_done(index))

    @property
    def finished(self) -> bool:
        return self.completed == self.total

    def score(self) -> tuple[int, int]:
        """How the learner did: (right answers, answers) over the questions asked, the moves of
        the deals (a mistake the lesson scripts on purpose is the lesson's, not counted) and the
        drills' answers, each graded as on every other page (a close call is not right)."""
        right = sum(result.correct for result in self.answers.values())
        given = len(self.answers)
        for play in self.deals.values():
            counted = [d for d in play.decisions if not d.scripted_mistake]
            right += sum(decision.correct for decision in counted)
            given += len(counted)
        for quiz in self.drills.values():
            right += quiz.score.right
            given += quiz.score.answered
        return right, given

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
        self._prepare_at(self.step)

    def _prepare_at(self, index: int) -> None:
        prepare: StepCases[None] = StepCases(
            deal=lambda step: self._prepare_deal(index, step),
            drill=lambda step: self._prepare_drill(index, step),
            otherwise=nothing,
        )
        prepare(self.lesson.steps[index])

    def _prepare_deal(self, index: int, step: DealStep) -> None:
        if index not in self.deals:
            self.deals[index] = DealPlay(
                deal_round(step.deal, self.lesson.rules, seed=self.seed),
                tuple(step.deal.expect.decisions),
                follows_strategy=step.deal.follows_strategy,
                bet=step.deal.bet,
                reference=self.reference,
                offered=self.lesson.offered,
            )

    def _prepare_drill(self, index: int, step: DrillStep) -> None:
        if index not in self.drills:
            drill = step.drill
            self.drill_answers[index] = []
            self.drills[index] = QuizSession(
                Category(drill.category.value),
                self.lesson.rules,
                seed=random.Random(self.seed * 1000 + index).randrange(2**32),
                dealer_ups=drill.dealer,
                hands=drill.hands,
                length=drill.count,
                reference=self.reference,
                actions=self.lesson.offered,
            )

    def start(self) -> None:
        self._prepare()

    def answer(self, given: str | int) -> AskResult:
        """Judge an ask step's answer (only the first counts)."""
        ask = ask_of(self.lesson.steps[self.step])
        assert ask is not None, "only an ask step is answered"
        if self.step not in self.answers:
            self.answers[self.step] = AskResult(str(given), check_answer(ask, given))
        return self.answers[self.step]

    def choice_order(self, index: int) -> tuple[int, ...]:
        """The order step ``index``'s options are shown in (indices into the lesson's options).

        An author writes the right option somewhere, and authors lean to the same places (six
        of the course's eight two-option choices put it second): shown in the author's order,
        a learner could learn the place instead of the rule. So each run shows
        them shuffled with its own seed (the same order again when the run is resumed: the seed
        is stored), and the answer is still the option the learner pressed, by its index in the
        lesson, so the check and the stored answer do not depend on the order shown. An empty
        tuple for a step that asks no choice.
        """
        ask = ask_of(self.lesson.steps[index])
        if ask is None or not isinstance(ask.answer, ChoiceAnswer):
            return ()
        order = list(range(len(ask.answer.options)))
        random.Random(f"choice:{self.seed}:{index}").shuffle(order)
        return tuple(order)

    def deal_play(self) -> DealPlay | None:
        return self.deals.get(self.step)

    def drill(self) -> QuizSession | None:
        return self.drills.get(self.step)

    # -- remembering a run: records to store, and a run rebuilt from them by replay --
    def note_drill_answer(self) -> None:
        """Keep the answer just given to the drill on screen (call after ``QuizSession.answer``)."""
        quiz = self.drill()
        given = self.drill_answers.setdefault(self.step, [])
        if quiz is not None and quiz.verdict is not None and len(given) < quiz.score.answered:
            answer = quiz.verdict.given
            given.append(answer.value if isinstance(answer, Action) else str(answer))

    def step_record(self, index: int) -> tuple[StepKind, dict[str, Any], bool] | None:
        """What the learner did on step ``index``, as the store keeps it (None: nothing yet)."""
        record: StepCases[tuple[StepKind, dict[str, Any], bool] | None] = StepCases(
            ask=lambda step: self._ask_record(index),
            deal=lambda step: self._deal_record(index),
            drill=lambda step: self._drill_record(index),
            otherwise=nothing,
        )
        return record(self.lesson.steps[index])

    def _ask_record(self, index: int) -> tuple[StepKind, dict[str, Any], bool] | None:
        if index not in self.answers:
            return None
        result = self.answers[index]
        return "ask", {"answer": result.given, "right": result.correct}, True

    def _deal_record(self, index: int) -> tuple[StepKind, dict[str, Any], bool] | None:
        play = self.deals.get(index)
        if not play or not play.decisions:
            return None
        game = play.round
        net = str(game.results[0].net) if game.is_over else None
        actions = [d.action.value for d in play.decisions]
        return "deal", {"actions": actions, "net": net}, game.is_over

    def _drill_record(self, index: int) -> tuple[StepKind, dict[str, Any], bool] | None:
        quiz = self.drills.get(index)
        answers = self.drill_answers.get(index, [])
        if quiz is None or not answers:
            return None
        return "drill", {"answers": answers, "next": quiz.verdict is None}, quiz.finished

    @classmethod
    def restore(
        cls, lesson: Lesson, record: LessonRecord, *, reference: Reference = Reference.CHART
    ) -> LessonRun:
        """The run a learner left, rebuilt: each deal and drill replayed from the same seed with
        the same moves, so the cards, the verdicts and the results come back exactly. A record
        that no longer fits the lesson (a teacher edited it since) is dropped, step by step."""
        run = cls(lesson, seed=record.seed, reference=reference,
                  seen={index for index in record.seen if index < len(lesson.steps)} or {0})
        for index, saved in sorted(record.steps.items()):
            if index >= run.total:
                continue
            try:
                run._replay(index, saved)
            except (ValueError, KeyError, TypeError, IllegalActionError):  # NotOfferedError too
                run.answers.pop(index, None)
                run.deals.pop(index, None)
                run.drills.pop(index, None)
                run.drill_answers.pop(index, None)
        run.step = min(max(record.step, 0), run.total - 1)
        while run.step > 0 and not all(run.is_done(i) for i in range(run.step)):
            run.step -= 1  # never resume past a step that is no longer done
        run.seen.add(run.step)
        run._prepare()
        return run

    def _replay(self, index: int, saved: StepRecord) -> None:
        step = self.lesson.steps[index]
        if saved.kind != step.kind:  # the lesson was edited since: nothing to replay here
            return
        replay: StepCases[None] = StepCases(
            ask=lambda ask: self._replay_ask(index, ask, saved.data),
            deal=lambda deal: self._replay_deal(index, saved.data),
            drill=lambda drill: self._replay_drill(index, saved.data),
            otherwise=nothing,
        )
        replay(step)

    def _replay_ask(self, index: int, step: AskStep, data: Mapping[str, Any]) -> None:
        given = str(data["answer"])
        self.answers[index] = AskResult(given, check_answer(step.ask, given))

    def _replay_deal(self, index: int, data: Mapping[str, Any]) -> None:
        self._prepare_at(index)
        play = self.deals[index]
        for action in data["actions"]:
            play.act(Action(action))

    def _replay_drill(self, index: int, data: Mapping[str, Any]) -> None:
        self._prepare_at(index)
        quiz = self.drills[index]
        answers = [str(answer) for answer in data["answers"]]
        for number, answer in enumerate(answers):
            quiz.answer(_parse_given(answer))
            self.drill_answers[index].append(answer)
            if number < len(answers) - 1 or (data.get("next") and not quiz.finished):
                quiz.next()


def _parse_given(text: str) -> Action | Fraction:
    """A stored drill answer: an action's value, or an exact number (bounded, as any typed one)."""
    try:
        return Action(text)
    except ValueError:
        return parse_exact(text)


def load_run(
    store: Store, learner: Learner, lesson: Lesson, *, reference: Reference
) -> LessonRun | None:
    """The learner's saved run of this lesson, resumed; None when they never started it."""
    record = store.lesson_record(learner, lesson.id)
    return None if record is None else LessonRun.restore(lesson, record, reference=reference)


def save_run(store: Store, learner: Learner, run: LessonRun, index: int | None = None) -> None:
    """Store where the learner is in ``run`` and, with ``index``, what they did on that step."""
    store.save_lesson(
        learner, run.lesson.id, seed=run.seed, step=run.step, seen=run.seen,
        completed=run.completed,
    )
    if index is not None and (saved := run.step_record(index)) is not None:
        kind, data, done = saved
        store.save_lesson_step(learner, run.lesson.id, index, kind=kind, data=data, done=done)
