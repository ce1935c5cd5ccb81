"""Why homework refuses a request: one exception per reason, each with its ``code`` (the
interface's sentence) and the ``params`` that sentence needs, as class mode's errors do."""

from __future__ import annotations

from tutor.refusal import Refusal, RefusedError


class HomeworkError(RefusedError):
    """A refused homework request (only caught, never raised itself)."""

    def __init__(self, message: str, **params: object) -> None:
        (code,) = type(self).codes
        super().__init__(Refusal(code, params), message)


class UnknownGroupError(HomeworkError):
    """No group has this code (or it expired), or the key does not open it."""

    codes = ("unknown-group",)


class GroupFullError(HomeworkError):
    """The group already has ``most`` members."""

    codes = ("group-full",)


class TooManyGroupsError(HomeworkError):
    """This teacher's browser already keeps ``most`` groups."""

    codes = ("too-many-groups",)


class GroupsTooFastError(HomeworkError):
    """Groups created too often this minute from one browser or one network client: they wait
    ``seconds``; nobody elsewhere does."""

    codes = ("groups-too-fast",)


class TooMuchWorkError(HomeworkError):
    """The group already has ``most`` assignments."""

    codes = ("too-much-work",)


class NameTakenError(HomeworkError):
    """Another member of the group already goes by this ``nickname``."""

    codes = ("group-name-taken",)


class MergeRefusedError(HomeworkError):
    """Two members the teacher cannot merge: the same one twice, one not of the group, or one
    merged already."""

    codes = ("group-merge-refused",)


class InvalidWorkError(HomeworkError):
    """An assignment the tutor cannot give: ``what`` names the field (the due date, the number of
    hands, the category, the lesson)."""

    codes = ("invalid-work",)


class GroupKeyLockError(HomeworkError):
    """This guesser typed wrong keys for this group: they wait ``seconds`` before the next try
    (``tutor.classroom.access.lock_for``); the group's teacher, in another browser, does not."""

    codes = ("group-key-locked",)


class TooManyTriesError(HomeworkError):
    """This browser or network client tried too many group codes (or keys) this minute: they
    wait ``seconds``; nobody else does."""

    codes = ("group-too-many-tries",)
