"""Why class mode refuses a request: one exception per reason, each with a ``code`` the interface
translates and the ``params`` its sentence needs (seconds to wait, the taken nickname...)."""

from __future__ import annotations


class ClassroomError(Exception):
    """A refused class-mode request; ``code`` lets the interface translate it."""

    code = "classroom"

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message)
        self.params = params


class UnknownSessionError(ClassroomError):
    code = "unknown-session"


class ExpiredSessionError(UnknownSessionError):
    """A session past its retention: deleted, or about to be."""

    code = "expired"


class TooManyJoinsError(ClassroomError):
    """Joining too often from one browser or into one class; ``seconds`` to wait."""

    code = "too-many-joins"


class TooManyClassesError(TooManyJoinsError):
    """Creating classes too often from one browser or on the server; ``seconds`` to wait."""

    code = "too-many-classes"


class ClassFullError(ClassroomError):
    """The class already seats ``MAX_SEATS`` students."""

    code = "class-full"


class ClassLockedError(ClassroomError):
    """The teacher has locked the class: nobody new takes a seat (a seated student still gets
    theirs back after a reload)."""

    code = "locked"


class WrongPatternError(ClassroomError):
    """The symbols tapped are not the pattern the projector shows (the class's second join
    step); every attempt counts as a join in the limits."""

    code = "wrong-pattern"


class PatternNeededError(WrongPatternError):
    """The class asks for the projector's pattern and none was tapped (a script with the code
    alone, or a phone that did not know it had to)."""

    code = "pattern-needed"


class WrongKeyError(ClassroomError):
    code = "wrong-key"


class NotYourClassError(WrongKeyError):
    """A class reopened without its key from a browser that did not create it."""

    code = "not-your-class"


class SlowDownError(ClassroomError):
    code = "slow-down"


class SessionFinishedError(ClassroomError):
    code = "finished"


class NotOpenError(ClassroomError):
    code = "not-open"


class MovedOnError(NotOpenError):
    """A teacher's step aimed at a question the class has already left (a stale or racing
    click): nothing was changed."""

    code = "moved-on"


class AlreadyAnsweredError(ClassroomError):
    code = "already-answered"


class NicknameTakenError(ClassroomError):
    code = "nickname-taken"


class UnknownStudentError(ClassroomError):
    code = "unknown-student"


class IllegalAnswerError(ClassroomError):
    code = "illegal-answer"
