"""The store's refusals: a nickname it will not keep, a learner it does not know.

A module of its own, low in the package, so that the nickname rules (``tutor.store.nickname``),
the statements (``tutor.store.learners``) and the pages catch one class each, imported from the
face ``tutor.store``, without any of them importing another.
"""

from __future__ import annotations

from typing import Literal, get_args

from tutor.refusal import Refusal, RefusedError

NicknameProblem = Literal[
    "empty", "too-long", "invisible", "compatibility", "characters", "mixed-scripts"
]


class InvalidNicknameError(RefusedError, ValueError):
    """A nickname that is empty, too long, or made of characters a name does not need.

    ``code`` says why, for the page to say it in the learner's language: ``empty``,
    ``too-long``, ``invisible`` (a character that draws as nothing), ``compatibility``
    (full-width or styled letters, such as ｆｕｌｌ or 𝐛𝐨𝐥𝐝), ``characters`` (anything but letters,
    digits, spaces, dots, hyphens and apostrophes), ``mixed-scripts`` (Latin mixed with Greek or
    Cyrillic letters: a look-alike of another name).
    """

    codes = get_args(NicknameProblem)

    def __init__(
        self, message: str, code: NicknameProblem = "characters", **params: object
    ) -> None:
        super().__init__(Refusal(code, params), message)


class UnknownLearnerError(RefusedError, LookupError):
    """A learner who is not (or no longer) in the database: erased in another tab, say."""

    codes = ("unknown-learner",)

    def __init__(self, message: str) -> None:
        super().__init__(Refusal("unknown-learner"), message)


class TeacherLessonError(RefusedError, ValueError):
    """A teacher's lesson the store will not keep or open: a text over the lesson file's bound
    (``lesson-too-large``, with ``most`` and ``size`` in KB), one lesson too many for this
    teacher (``too-many-lessons``, with ``most``), a link or a key that opens none
    (``unknown-lesson``, ``wrong-lesson-key``), a lesson that is not this browser's
    (``not-your-lesson``), or a text the checker refuses to publish (``lesson-has-problems``,
    with ``count``); too many lessons created this minute (``lessons-too-fast``), this minute's
    checking spent (``lesson-checks-spent``), too many wrong links or keys this minute
    (``lesson-tries``), each with the ``seconds`` to wait."""

    codes = (
        "lesson-too-large",
        "too-many-lessons",
        "unknown-lesson",
        "wrong-lesson-key",
        "not-your-lesson",
        "lesson-has-problems",
        "lessons-too-fast",
        "lesson-checks-spent",
        "lesson-tries",
    )

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(Refusal(code, params), message)
