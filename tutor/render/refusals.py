"""Why something was refused, as one sentence in the learner's language: the one door every
page goes through to explain a refused click, whatever refused it.

Why one door: the domain's refusals all carry a ``tutor.refusal.Refusal`` (code and
parameters), but three families keep words of their own: the rules' mistakes come several at
once (``InvalidRulesError.refusals``), class mode's refusals and a refused nickname say what to
do next (``error_message``), and the seating form's name its slider (``seating_message``). A
page that asked each family itself would, sooner or later, show ``str(error)`` (English) on a
French page.

>>> from tutor.render.translator import translator
>>> from tutor.rules import TableRules
>>> try:
...     TableRules(decks=9, max_hands=5)
... except ValueError as error:
...     print(refusal_text(error, translator("fr")))
Un sabot contient de 1 à 8 jeux, pas 9. Une place tient de 1 à 4 mains après séparation, pas 5.
"""

from __future__ import annotations

from tutor.classroom.errors import ClassroomError
from tutor.practice import SeatingError
from tutor.refusal import RefusedError
from tutor.render.class_messages import error_message
from tutor.render.reasons import seating_message
from tutor.render.translator import Translator
from tutor.rules_errors import InvalidRulesError
from tutor.store.errors import InvalidNicknameError


def refusal_text(error: Exception, t: Translator) -> str:
    """The sentence for ``error`` in ``t``'s language; an error that carries no refusal (a bug,
    not a refusal) keeps its own text."""
    if isinstance(error, SeatingError):
        return seating_message(error, t)
    if isinstance(error, InvalidRulesError):
        return " ".join(t.refusal(r.code, r.params) for r in error.refusals)
    if isinstance(error, ClassroomError | InvalidNicknameError):
        return error_message(error, t)
    if isinstance(error, RefusedError):
        return t.refusal(error.code, error.params)
    return str(error)
