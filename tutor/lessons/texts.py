"""Every text of a lesson with where it is: what the translation check, the claims about the
right play and the tests read.

Why a module of its own: the checks (``tutor.lessons.checks``) import the claims
(``tutor.lessons.claims``), and both walk a lesson's texts; kept in either, the other had to
import it inside a function, a circle the import graph did not show.
"""

from __future__ import annotations

from collections.abc import Iterator

from pydantic import BaseModel

from tutor.lessons.fields import PlainText, Translations
from tutor.lessons.source import DataPath


def iter_texts(model: BaseModel, path: DataPath = ()) -> Iterator[tuple[DataPath, object]]:
    """Every text of a lesson with its data path: plain strings and translated mappings."""
    for name in type(model).model_fields:
        value = getattr(model, name)
        yield from _texts_in(value, (*path, name))


def _texts_in(value: object, path: DataPath) -> Iterator[tuple[DataPath, object]]:
    if isinstance(value, PlainText | Translations):
        yield path, value
    elif isinstance(value, BaseModel):
        yield from iter_texts(value, path)
    elif isinstance(value, tuple):
        for index, item in enumerate(value):
            yield from _texts_in(item, (*path, index))
