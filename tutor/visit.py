"""The app's state for one browser session: one typed object, kept in ``st.session_state["app"]``.

Why one object: scattered session keys drift apart (a language set here, a stale table there);
one dataclass says everything a session holds, and a test seeds any state by building it.
Plain Python, no Streamlit (its examples run as doctests, a test builds any state without a
page): ``tutor.ui.state.app_state`` makes it and keeps it in the session.

The database (SQLAlchemy), the lesson player and the practice table are imported where they are
used, not here: the first page a newcomer sees builds an ``AppState`` and needs none of them
(issue 17).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from tutor.identity import new_token
from tutor.quiz import QuizSession
from tutor.quiz_questions import Category, Verdict
from tutor.render.catalogue import DEFAULT_LANGUAGE, LANGUAGES
from tutor.render.translator import Translator, translator
from tutor.rules import PRESETS, InvalidRulesError, TableRules
from tutor.strategy import Reference

if TYPE_CHECKING:
    from tutor.authoring import Checked, LessonHandle
    from tutor.classroom import Reveal, SessionInfo, Student, Teacher
    from tutor.homework import Assignment, GroupTeacher, Membership
    from tutor.lessons import Lesson
    from tutor.lessons.run import LessonRun
    from tutor.practice import PracticeTable
    from tutor.simulate import SimulationResult
    from tutor.simulate_codes import F64
    from tutor.store import Learner, Origin, Settings, Store
    from tutor.strategy import Judgement

#: Bits of a session's random seed.
SEED_BITS = 62


def parse_seed(raw: object) -> int | None:
    """A seed given in the address (``?seed=123``): decimal digits, at most 18 of them so that
    it stays below 2**62. Anything else is ignored (None), never an error: it comes from a URL.

    >>> parse_seed("123"), parse_seed("-1"), parse_seed("1e9999"), parse_seed("9" * 19)
    (123, None, None, None)
    """
    if not isinstance(raw, str) or not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        return None
    return int(raw)


def rules_setting(rules: TableRules) -> dict[str, object]:
    """The table as the learner's settings keep it: a preset by its name, an edited table by
    every option (``TableRules.as_dict``), so that a change of a preset's definition reaches a
    learner who picked it, and an edited table comes back exactly as edited.

    >>> rules_setting(PRESETS["french-casino"])
    {'preset': 'french-casino'}
    >>> rules_setting(PRESETS["family"].replace(name="family*", decks=2))["decks"]
    2
    """
    preset = PRESETS.get(rules.name)
    if preset is not None and preset == rules:
        return {"preset": rules.name}
    return rules.as_dict()


def rules_from_setting(data: object) -> TableRules | None:
    """The table a saved setting names, or None when it names none any more (a preset renamed,
    an option removed): the learner then keeps the table in use rather than an error.

    >>> rules_from_setting({"preset": "french-casino"}) == PRESETS["french-casino"]
    True
    >>> rules_from_setting({"preset": "gone"}), rules_from_setting({"decks": "many"})
    (None, None)
    """
    if not isinstance(data, dict):
        return None
    if set(data) == {"preset"}:
        return PRESETS.get(str(data["preset"]))
    try:
        return TableRules.from_mapping(data)
    except (InvalidRulesError, TypeError, ValueError):
        return None


@dataclass
class TeacherDesk:
    """The teacher's side of a class in one browser session: the key-checked handle and what the
    projector shows."""

    teacher: Teacher
    #: The teacher key, kept only until the teacher says it is written down (then never shown).
    key: str | None = None
    #: The reveal of the question on screen, fetched once (answers are closed once revealed).
    reveal: Reveal | None = None
    reveal_position: int = -1
    #: When this desk first showed each question (``time.monotonic``): the projector's timer.
    #: Kept with the desk, not in the database: a reloaded projector restarts its clock, and no
    #: other screen needs it.
    shown_at: dict[int, float] = field(default_factory=dict)
    #: The names the teacher's last click removed, to say how many went (None: nothing to say).
    removed: list[str] | None = None
    #: The names chosen to remove are gone: the box is emptied before it is drawn again.
    clear_chosen: bool = False

    def seconds_on(self, position: int, now: float) -> float:
        """How long question ``position`` has been on this desk's screen."""
        return now - self.shown_at.setdefault(position, now)

    def shown_reveal(self, info: SessionInfo) -> Reveal | None:
        if self.reveal is not None and self.reveal_position == info.current and info.revealed:
            return self.reveal
        return None


@dataclass
class StudentSeat:
    """A student's place in a class: the ``Student`` handle (its token is the capability) and the
    last refusal to explain, as a translated message."""

    student: Student
    message: str | None = None
    #: The student came back to a seat they held (a reload): said until their next answer.
    welcome: bool = False


@dataclass
class ClassPages:
    """Everything class mode keeps in the app's state for one browser session."""

    desk: TeacherDesk | None = None
    seat: StudentSeat | None = None
    #: The address students type or scan, when the teacher corrected the one guessed.
    base_url: str = ""
    #: What the last attempt to create or open a session said, translated.
    message: str | None = None
    problems: list[str] = field(default_factory=list)
    #: The class being joined asks for the projector's symbols (told by a refused join).
    pattern_needed: bool = False
    #: A teacher key was tried: its box is emptied before it is drawn again, so that a key stays
    #: on the page no longer than its try.
    clear_key: bool = False


@dataclass
class HomeworkPages:
    """What homework keeps for one browser session: the teacher's open group (and its key, shown
    once after creating it), and the student's drill in progress for an assignment."""

    teacher: GroupTeacher | None = None
    key_shown: str | None = None
    message: str | None = None
    #: The student's drill of an assignment: the assignment, their place in the group, the drill.
    assignment: Assignment | None = None
    membership: Membership | None = None
    drill: QuizSession | None = None
    #: When the question on screen was shown (``time.monotonic``), for the time spent.
    shown_at: float = 0.0
    #: The lesson last timed for homework and when (``time.monotonic``): a step's time is the
    #: time since the previous step of the same lesson.
    lesson_timed: tuple[str, float] | None = None


@dataclass
class AuthoringPages:
    """What « Mes leçons » keeps for one browser session: the lesson open in the editor, its key
    while it is shown once, the last check of its text, and the lessons reopened here by key."""

    open: LessonHandle | None = None
    #: The new lesson's key, shown once, until the teacher says it is written down.
    key: str | None = None
    #: What the checker found in the text last saved (None before the first save).
    checked: Checked | None = None
    #: What the last click said (a publication, a refusal), translated.
    message: str | None = None
    #: Whether the message is good news (drawn green) rather than a refusal.
    success: bool = False
    #: Lessons this session opened with their link and key (another browser's).
    reopened: list[LessonHandle] = field(default_factory=list)
    #: The preview is playing on the lessons page: its closing comes back here.
    previewing: bool = False
    #: Bumped when the text is replaced from outside the box (a file, a lesson opened), so that
    #: the box shows the new text rather than the one it held.
    editor_round: int = 0
    #: Bumped when the form editor adds a step, so that its boxes start empty for the next one.
    form_round: int = 0


@dataclass
class SimulationRuns:
    """What the Simulation page last computed, kept for the session (a widget's change reruns
    the page; the runs are drawn again, not computed again)."""

    #: The run in progress, as far as it went (a Stop keeps it).
    running: SimulationResult | None = None
    #: The main run and the exact house edge of its rules.
    main: tuple[SimulationResult, float] | None = None
    #: Chips after each round of many sessions: the family table's, a long evening's.
    family: F64 | None = None
    evening: F64 | None = None
    #: The compared rules with one row per strategy, then per single-rule variant.
    strategies: tuple[TableRules, list[dict[str, Any]]] | None = None
    variants: tuple[TableRules, list[dict[str, Any]]] | None = None


class QuizMode(StrEnum):
    """How the quiz picks its hands (a text enum: the mode chooser's values are its words)."""

    #: As the shoe deals.
    DEALT = "dealt"
    #: Leaning towards the learner's mistakes (their weak items weigh more).
    FOCUS = "focus"
    #: The items due for review first (``tutor.srs``).
    DUE = "due"


@dataclass(frozen=True)
class RefusedClick:
    """A click the table or the rules refused, kept to be explained where it was made
    (``tutor.ui.components.refusal_note``): ``place`` names the buttons (``table``, a lesson's
    ``deal-3``, ``rules-form``); ``error`` is the refusal, translated when it is drawn, so that a
    change of language tells it again in the new one."""

    place: str
    error: Exception


@dataclass
class AppState:
    """Everything one learner's session holds."""

    language: str = DEFAULT_LANGUAGE
    #: The table rules chosen in Settings (a preset, maybe edited), used by every page.
    rules: TableRules = PRESETS["family"]
    #: Large cards and text for a classroom projector.
    presentation: bool = False
    #: Steps done per lesson id (the best pass), for the course list.
    progress: dict[str, int] = field(default_factory=dict)
    lesson: LessonRun | None = None
    quiz: QuizSession | None = None
    quiz_category: Category = Category.HARD
    quiz_mode: QuizMode = QuizMode.DEALT
    #: The due items the quiz's "To review" chip counted on the page the learner saw.
    due_shown: tuple[str, ...] | None = None
    #: A teacher's restriction of the drill: dealer up-cards (1 = Ace) and hand totals; empty = any.
    quiz_ups: tuple[int, ...] = ()
    quiz_totals: tuple[int, ...] = ()
    #: This browser's private learner token (``tutor.identity``): read from its cookie, or new.
    learner_token: str = field(default_factory=new_token)
    #: Whether the browser's cookie already holds ``learner_token`` (else the page writes it).
    token_in_browser: bool = False
    #: The learner's rows in the store, once there is anything to keep (None before).
    learner: Learner | None = None
    #: Why the last nickname was refused, shown under the name box (None when it was fine).
    quiz_error: str | None = None
    #: What the last recovery code or erasure did, told once on the "My data" panel.
    data_notice: str | None = None
    #: A scanned QR code handed its recovery code over in a cookie: the page deletes it.
    restore_handed: bool = False
    practice: PracticeTable | None = None
    #: The rule set the strategy page compares with.
    compare_preset: str = ""
    #: The chart cell last clicked on the Strategy page (part, hand, up-card): a click moves the
    #: cell explained once, and a hand chosen in the boxes after it stands though the grid keeps
    #: the click selected.
    chart_click: tuple[str, str, str] | None = None
    #: Where the lessons come from: the built-in course when None (tests and teachers add files).
    lesson_paths: tuple[str, ...] | None = None
    #: Where this session's deals start: drawn from ``secrets`` so two visitors never see the
    #: same cards, or given (``?seed=`` in the address, a test) to replay a session's deals.
    seed: int = field(default_factory=lambda: secrets.randbits(SEED_BITS))
    #: What every page grades moves against: the chart (the default) or, for an advanced
    #: learner, the exact play for the cards dealt.
    reference: Reference = Reference.CHART
    #: The last click refused, told under its buttons until the next click there.
    refused: RefusedClick | None = None
    #: Class mode's part of the session: the teacher's desk or the student's seat.
    classes: ClassPages = field(default_factory=ClassPages)
    #: The Simulation page's last runs.
    simulation: SimulationRuns = field(default_factory=SimulationRuns)
    homework: HomeworkPages = field(default_factory=HomeworkPages)
    #: « Mes leçons »: the teacher's lesson in the editor.
    authoring: AuthoringPages = field(default_factory=AuthoringPages)

    @property
    def t(self) -> Translator:
        return translator(self.language)

    def next_seed(self) -> int:
        self.seed += 1
        return self.seed

    # -- the learner --
    def ensure_learner(self, store: Store) -> Learner:
        """The learner's rows, created the first time there is something to keep."""
        if self.learner is None:
            learner = store.learner_for_token(self.learner_token)
            assert learner is not None
            self.learner = learner
        return self.learner

    def keep(self, store: Store, write: Callable[[Learner], object]) -> None:
        """``write`` something of this learner's to the store, their rows made if need be. A
        learner erased in another tab meanwhile: this browser starts afresh, and writes again."""
        from tutor.store import UnknownLearnerError

        try:
            write(self.ensure_learner(store))
        except UnknownLearnerError:
            self.learner = None
            write(self.ensure_learner(store))

    def load_progress(self, store: Store) -> None:
        """The course list's progress, from what the store keeps for this learner."""
        if self.learner is not None:
            self.progress = {
                lesson: saved.completed
                for lesson, saved in store.lesson_progress(self.learner).items()
            }

    # -- settings: the learner's, kept with their code --
    def settings(self) -> Settings:
        """What this session would keep of the learner's choices."""
        from tutor.store import Settings

        return Settings(self.language, self.reference.value, rules_setting(self.rules))

    def save_settings(self, store: Store) -> None:
        """Keep the learner's settings in the store, at once (a reload, another visit or another
        device with the code finds them). Choosing a setting is something to keep: it makes the
        learner's rows if there were none."""
        settings = self.settings()
        self.keep(store, lambda learner: store.save_settings(learner, settings))

    def load_settings(self, store: Store) -> bool:
        """Take the learner's saved settings, if any (a returning browser, a recovery code);
        whatever no longer reads as a setting is left as it is. Whether any were saved."""
        if self.learner is None:
            return False
        saved = store.settings(self.learner)
        if saved is None:
            return False
        if saved.language in LANGUAGES:
            self.language = saved.language
        if saved.reference in {reference.value for reference in Reference}:
            self.set_reference(Reference(saved.reference))
        rules = rules_from_setting(dict(saved.rules))
        if rules is not None:
            self.set_rules(rules)
        return True

    def adopt_token(self, token: str, learner: Learner | None) -> None:
        """Continue as the learner of ``token`` (a recovery code typed here, or erasing one's
        data and starting afresh): what this tab holds of the previous learner is dropped."""
        self.learner_token = token
        self.token_in_browser = False
        self.learner = learner
        self.progress = {}
        self.lesson = None
        self.quiz = None

    # -- every hand counts --
    def keep_judgement(
        self, store: Store, judgement: Judgement, rules: TableRules, origin: Origin
    ) -> None:
        """Keep a move judged at the practice table or in a lesson's deal with the learner's
        answers (its item rescheduled), so that My progress and To review include it."""
        from datetime import UTC, datetime

        from tutor.progress import record_judgement

        now = datetime.now(UTC)
        self.keep(
            store,
            lambda learner: record_judgement(store, learner, judgement, rules, now, origin),
        )

    def keep_verdict(
        self, store: Store, verdict: Verdict, rules: TableRules, origin: Origin
    ) -> None:
        """Keep a lesson drill's answer with the learner's answers, as a quiz answer is."""
        from datetime import UTC, datetime

        from tutor.progress import record

        now = datetime.now(UTC)
        self.keep(store, lambda learner: record(store, learner, verdict, rules, now, origin))

    def weak_hands(self, store: Store) -> list[str]:
        """The hands "my mistakes" deals again: due ones first, then the most missed."""
        from datetime import UTC, datetime

        from tutor.progress import TABLE_CATEGORIES, weak_items

        if self.learner is None:
            return []
        return weak_items(store, self.learner, datetime.now(UTC), TABLE_CATEGORIES)

    # -- lessons --
    def open_lesson(self, lesson: Lesson, store: Store | None = None) -> None:
        """Open a lesson where the learner left it (replayed from the store), or afresh."""
        from tutor.lessons.run import LessonRun, load_run

        run = None
        if store is not None and self.learner is not None:
            run = load_run(store, self.learner, lesson, reference=self.reference)
        if run is None:
            run = LessonRun(lesson, seed=self.next_seed(), reference=self.reference)
            run.start()
        self.lesson = run
        self.record_progress(store)

    def restart_lesson(self, lesson: Lesson, store: Store | None = None) -> None:
        """Start a lesson again on purpose: its saved run is forgotten, new cards are dealt."""
        from tutor.lessons.run import LessonRun

        if store is not None and self.learner is not None:
            store.reset_lesson(self.learner, lesson.id)
        self.progress.pop(lesson.id, None)
        self.lesson = LessonRun(lesson, seed=self.next_seed(), reference=self.reference)
        self.lesson.start()
        self.record_progress(store)

    def close_lesson(self, store: Store | None = None) -> None:
        self.record_progress(store)
        self.lesson = None

    def record_progress(self, store: Store | None = None, index: int | None = None) -> None:
        """Keep the open lesson's progress: in this tab, and in the store when one is given
        (with ``index``, what was done on that step)."""
        from tutor.lessons.run import save_run

        if self.lesson is None:
            return
        lesson_id = self.lesson.lesson.id
        self.progress[lesson_id] = max(self.progress.get(lesson_id, 0), self.lesson.completed)
        if store is None:
            return
        run = self.lesson
        self.keep(store, lambda learner: save_run(store, learner, run, index))

    # -- quiz --
    def start_quiz(
        self,
        category: Category,
        *,
        weight: Callable[[str], float] | None = None,
        items: list[str] | None = None,
    ) -> None:
        """A new drill of ``category`` at the chosen table, with the page's restrictions.

        For a signed-in learner it leans towards weak items (``weight``) or asks the due
        ``items`` first."""
        self.quiz_category = category
        self.quiz = QuizSession(
            category,
            self.rules,
            seed=self.next_seed(),
            dealer_ups=self.quiz_ups or None,
            totals=self.quiz_totals or None,
            weight=weight,
            items=list(items or []),
            length=len(items) if items else None,
            reference=self.reference,
        )

    def set_reference(self, reference: Reference) -> None:
        """Grade against the chart or the exact play from now on, on every page (a drill or a
        table in progress follows at once)."""
        self.reference = reference
        if self.quiz is not None:
            self.quiz.reference = reference
        if self.practice is not None:
            self.practice.reference = reference
        if self.lesson is not None:
            self.lesson.reference = reference

    # -- rules --
    def set_rules(self, rules: TableRules) -> None:
        """New table rules: the quiz and the practice table restart at the new table."""
        if rules != self.rules:
            self.rules = rules
            self.quiz = None
            self.practice = None
