"""Class mode: a teacher runs a live quiz that students answer from their own phones.

The rooms of this package, each named for what it holds:

- ``session``: a class from creation to its end (the teacher's steps, the students' seats and
  answers, what each screen may see) and the rules that keep it fair under races;
- ``questions``: the hands a class is asked (typed, dealt by a drill, taken from a lesson) and
  their judgement by the strategy;
- ``joinstep``: the optional second join step, a pattern of symbols shown on the projector;
- ``access``: join codes, teacher keys and their hashes, lock-outs, rate limits, retention;
- ``results``: what the answers say afterwards, per student and per question;
- ``errors``: why a request is refused, as codes the interface translates.

Every SQL statement is in ``tutor.store.classes``, beside the tables; the pages are in
``tutor/ui/class_mode`` and ``tutor/ui/pages/class_*.py``.
"""

from tutor.classroom.access import (
    ANONYMOUS,
    CODE_ALPHABET,
    CODE_LENGTH,
    CREATES_PER_MINUTE,
    JOINS_PER_MINUTE,
    KEY_LENGTH,
    MAX_LOCK,
    MAX_LOCK_EXPONENT,
    MAX_SEATS,
    RETENTION,
    UNSTARTED_RETENTION,
    UNUSED_CLASSES_PER_CLIENT,
    canonical_key,
    client_key,
    new_code,
    new_key,
    normalise_code,
)
from tutor.classroom.errors import (
    AlreadyAnsweredError,
    ClassFullError,
    ClassLockedError,
    ClassroomError,
    ExpiredSessionError,
    IllegalAnswerError,
    MovedOnError,
    NicknameTakenError,
    NotOpenError,
    NotYourClassError,
    PatternNeededError,
    SessionFinishedError,
    SlowDownError,
    TooManyClassesError,
    TooManyJoinsError,
    TooManyUnusedClassesError,
    UnknownSessionError,
    UnknownStudentError,
    WrongKeyError,
    WrongPatternError,
)
from tutor.classroom.handles import FinalScore, Reveal, Seat, Student, StudentView, Teacher
from tutor.classroom.info import SessionInfo
from tutor.classroom.joinstep import (
    PATTERN_LENGTH,
    SYMBOLS,
    WRONG_PATTERNS_PER_MINUTE,
    pattern_odds,
)
from tutor.classroom.questions import (
    CLASS_BET,
    MAX_HANDS_CHARS,
    MAX_QUESTIONS,
    ClassQuestion,
    HandProblem,
    HandsError,
    drill_questions,
    lesson_questions,
    parse_hand_line,
    parse_hands,
)
from tutor.classroom.results import (
    AnswerRow,
    ClassResults,
    QuestionResult,
    StudentResult,
)
from tutor.classroom.session import Classroom
from tutor.classroom.tries import WRONG_CODES_PER_MINUTE

__all__ = [
    "ANONYMOUS",
    "CLASS_BET",
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "CREATES_PER_MINUTE",
    "JOINS_PER_MINUTE",
    "KEY_LENGTH",
    "MAX_HANDS_CHARS",
    "MAX_LOCK",
    "MAX_LOCK_EXPONENT",
    "MAX_QUESTIONS",
    "MAX_SEATS",
    "PATTERN_LENGTH",
    "RETENTION",
    "SYMBOLS",
    "UNSTARTED_RETENTION",
    "UNUSED_CLASSES_PER_CLIENT",
    "WRONG_CODES_PER_MINUTE",
    "WRONG_PATTERNS_PER_MINUTE",
    "AlreadyAnsweredError",
    "AnswerRow",
    "ClassFullError",
    "ClassLockedError",
    "ClassQuestion",
    "ClassResults",
    "Classroom",
    "ClassroomError",
    "ExpiredSessionError",
    "FinalScore",
    "HandProblem",
    "HandsError",
    "IllegalAnswerError",
    "MovedOnError",
    "NicknameTakenError",
    "NotOpenError",
    "NotYourClassError",
    "PatternNeededError",
    "QuestionResult",
    "Reveal",
    "Seat",
    "SessionFinishedError",
    "SessionInfo",
    "SlowDownError",
    "Student",
    "StudentResult",
    "StudentView",
    "Teacher",
    "TooManyClassesError",
    "TooManyJoinsError",
    "TooManyUnusedClassesError",
    "UnknownSessionError",
    "UnknownStudentError",
    "WrongKeyError",
    "WrongPatternError",
    "canonical_key",
    "client_key",
    "drill_questions",
    "lesson_questions",
    "new_code",
    "new_key",
    "normalise_code",
    "parse_hand_line",
    "parse_hands",
    "pattern_odds",
]
