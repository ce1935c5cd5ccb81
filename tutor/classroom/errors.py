"""Why class mode refuses a request: one exception per reason, each with a ``code`` the interface
translates and the ``params`` its sentence needs (seconds to wait, the taken nickname...).

Each class names its one code (``codes``), so a raise site gives only the English message and the
parameters: the reason is the class itself."""

from __future__ import annotations

from tutor.refusal import Refusal, RefusedError


class ClassroomError(RefusedError):
    """A refused class-mode request; its ``refusal`` (the class's code, the request's
    parameters) lets the interface translate it."""

    def __init__(self, message: str, **params: object) -> None:
        # Each subclass is one reason, so it names exactly one code (this base names none: it is
        # only caught, never raised).
        (code,) = type(self).codes
        super().__init__(Refusal(code, params), message)


class UnknownSessionError(ClassroomError):
    codes = ("unknown-session",)


class ExpiredSessionError(UnknownSessionError):
    """A session past its retention: deleted, or about to be."""

    codes = ("expired",)


class TooManyJoinsError(ClassroomError):
    """Joining too often from one browser or into one class, or too many wrong codes or
    patterns from one guesser; ``seconds`` to wait."""

    codes = ("too-many-joins",)


class TooManyClassesError(TooManyJoinsError):
    """Creating classes too often from one browser or one network client; ``seconds`` to
    wait."""

    codes = ("too-many-classes",)


class TooManyUnusedClassesError(TooManyClassesError):
    """The network client already holds ``most`` classes that were never started: one of them
    must be started (or expire) before another is created from there."""

    codes = ("too-many-unused-classes",)


class ClassFullError(ClassroomError):
    """The class already seats ``MAX_SEATS`` students."""

    codes = ("class-full",)


class ClassLockedError(ClassroomError):
    """The teacher has locked the class: nobody new takes a seat (a seated student still gets
    theirs back after a reload)."""

    codes = ("locked",)


class WrongPatternError(ClassroomError):
    """The symbols tapped are not the pattern the projector shows (the class's second join
    step); every attempt counts as a join in the limits."""

    codes = ("wrong-pattern",)


class PatternNeededError(WrongPatternError):
    """The class asks for the projector's pattern and none was tapped (a script with the code
    alone, or a phone that did not know it had to)."""

    codes = ("pattern-needed",)


class WrongKeyError(ClassroomError):
    codes = ("wrong-key",)


class NotYourClassError(WrongKeyError):
    """A class reopened without its key from a browser that did not create it."""

    codes = ("not-your-class",)


class SlowDownError(ClassroomError):
    codes = ("slow-down",)


class SessionFinishedError(ClassroomError):
    codes = ("finished",)


class NotOpenError(ClassroomError):
    codes = ("not-open",)


class MovedOnError(NotOpenError):
    """A teacher's step aimed at a question the class has already left (a stale or racing
    click): nothing was changed."""

    codes = ("moved-on",)


class AlreadyAnsweredError(ClassroomError):
    codes = ("already-answered",)


class NicknameTakenError(ClassroomError):
    codes = ("nickname-taken",)


class UnknownStudentError(ClassroomError):
    codes = ("unknown-student",)


class IllegalAnswerError(ClassroomError):
    codes = ("illegal-answer",)
