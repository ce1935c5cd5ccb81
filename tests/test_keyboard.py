"""The keyboard a typed answer opens on a phone (``tutor.ui.keyboard``)."""

from __future__ import annotations

import pytest

from tests.conftest import builtin_lessons
from tutor.lessons import AskStep
from tutor.lessons.models import Ask, ChipsAnswer, LossAnswer, NumberAnswer
from tutor.ui.keyboard import keyboard_for, keyboard_script


def test_every_typed_answer_of_the_course_opens_the_decimal_keyboard() -> None:
    asks = [
        step.ask
        for file in builtin_lessons().files
        if file.lesson is not None
        for step in file.lesson.steps
        if isinstance(step, AskStep)
        and isinstance(step.ask.answer, NumberAnswer | ChipsAnswer | LossAnswer)
    ]
    assert len(asks) >= 20
    assert {keyboard_for(ask.answer) for ask in asks} == {"decimal"}


@pytest.mark.parametrize(
    ("answer", "mode"),
    [({"number": 17}, "decimal"), ({"chips": "3/2"}, "decimal"), ({"loss": 2}, "decimal"),
     ({"chips": -2}, "text"), ({"number": -1}, "text")],
)
def test_only_a_key_below_zero_needs_the_keyboard_with_a_minus_sign(
    answer: dict[str, object], mode: str
) -> None:
    ask = Ask.model_validate({"question": "?", "answer": answer, "explanation": "!"})
    assert keyboard_for(ask.answer) == mode


@pytest.mark.parametrize("key", ["a key", "x'];alert(1);//", "", "é"])
def test_the_script_takes_only_a_widget_key_never_other_text(key: str) -> None:
    with pytest.raises(ValueError, match="not a widget key"):
        keyboard_script(key, "decimal")
