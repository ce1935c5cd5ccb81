"""The form editor's rules (``tutor.authoring_form``): what the form writes is the YAML the text
editor holds, it loads as a lesson and passes the checker; an edit of the text shows in the form;
an action question offers only the moves legal on its hand and offered by the lesson; a problem's
place and its moves and tables are said in the teacher's words."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor import authoring_form as form
from tutor.authoring import TEMPLATE, check_text
from tutor.authoring_form import FormError
from tutor.cards import parse_cards
from tutor.decision import Action
from tutor.lessons import Code, Problem
from tutor.lessons.lesson import AskStep, DealStep, ExplainStep
from tutor.lessons.models import ActionAnswer, ChoiceAnswer
from tutor.refusal import Refusal
from tutor.render.lesson_problems import place_text, problem_sentence
from tutor.render.translator import translator
from tutor.rules import PRESETS

FR, EN = translator("fr"), translator("en")


def _empty(text: str = TEMPLATE) -> str:
    """The template with its steps removed by the form, one by one."""
    for _step in range(len(form.read_form(text).steps)):
        text = form.remove_step(text, 0)
    return text


def _three_steps(preset: str = "family", actions: tuple[Action, ...] | None = None) -> str:
    text = form.set_head(
        _empty(),
        title="Tirer ou rester",
        level=1,
        preset=preset,
        actions=actions,
        goal="Savoir quand tirer sur 16.",
    )
    text = form.add_explain(text, "Sous 17, on tire souvent ; sur 17 et plus, on reste.")
    text = form.add_choice(
        text, "Combien de cartes compte un jeu ?", ["52", "32"], 0, "Un jeu compte 52 cartes."
    )
    return form.add_deal(
        text, ["10♣", "6♦"], "10♥", None, ["5♠"], intro="À vous.", explanation="Bien joué."
    )


@pytest.mark.parametrize(
    ("preset", "actions"),
    [
        ("family", None),
        ("family", (Action.HIT, Action.STAND)),
        ("french-casino", None),
        ("american-s17", (Action.HIT, Action.STAND, Action.DOUBLE)),
    ],
)
def test_a_lesson_written_with_the_form_only_loads_and_passes_the_checker(
    preset: str, actions: tuple[Action, ...] | None
) -> None:
    text = _three_steps(preset, actions)
    checked = check_text(text)
    assert checked.problems == ()
    lesson = checked.lesson
    assert lesson is not None
    assert [type(step) for step in lesson.steps] == [ExplainStep, AskStep, DealStep]
    assert lesson.rules.name == preset
    assert lesson.actions == actions
    assert form.read_form(text).title == "Tirer ou rester"
    assert form.read_form(text).goal == "Savoir quand tirer sur 16."


def test_the_form_writes_the_text_the_editor_holds_and_reads_an_edit_of_it() -> None:
    text = _three_steps()
    assert form.dump(form._data(text)) == text  # the form's YAML is stable: written once
    assert "actions" not in text  # every move: no key
    edited = text.replace('title: "Tirer ou rester"', 'title: "Seize contre dix"')
    view = form.read_form(edited)
    assert view.title == "Seize contre dix"
    assert [step.kind for step in view.steps] == ["explain", "ask", "deal"]
    assert view.steps[1].title == "Combien de cartes compte un jeu ?"


def test_a_deal_is_played_by_basic_strategy_and_settled_by_the_engine() -> None:
    text = _three_steps()
    deal = check_text(text).lesson.steps[2].deal  # type: ignore[union-attr]
    # 16 against a 10 at the family table: hit; the 5 makes 21, which stands by itself.
    assert deal.expect.decisions == (Action.HIT,)
    assert [str(card) for card in deal.then][:1] == ["5♠"]
    assert check_text(text).is_ok


def test_a_deal_offered_only_hit_and_stand_never_doubles() -> None:
    text = form.set_head(
        _empty(), title="T", level=1, preset="family", actions=(Action.HIT, Action.STAND)
    )
    text = form.add_deal(text, ["6♣", "5♦"], "6♥", "10♠")  # 11 against 6: the chart doubles
    deal = form._data(text)["steps"][0]["deal"]
    assert "double" not in deal["expect"]["decisions"]


def test_an_action_question_is_written_with_its_hand_and_move() -> None:
    text = form.add_action(
        _empty(), "Que faites-vous ?", ["10♠", "6♥"], "7♣", Action.HIT, "On tire."
    )
    step = check_text(text).lesson.steps[0]  # type: ignore[union-attr]
    assert isinstance(step, AskStep)
    assert isinstance(step.ask.answer, ActionAnswer)
    assert step.ask.answer.action is Action.HIT


def test_a_choice_question_keeps_its_right_option() -> None:
    text = form.add_choice(_empty(), "Q ?", ["a", "b", "c"], 2, "c.")
    answer = form._data(text)["steps"][0]["ask"]["answer"]
    assert answer == {"choice": 2, "options": ["a", "b", "c"]}
    step = check_text(text).lesson.steps[0]  # type: ignore[union-attr]
    assert isinstance(step, AskStep)
    assert isinstance(step.ask.answer, ChoiceAnswer)


@pytest.mark.parametrize(
    ("preset", "cards", "up", "offered", "expected"),
    [
        ("family", "10♠ 3♥", "7♣", None, ["hit", "stand", "double"]),  # no Split on 10-3
        ("family", "8♠ 8♥", "10♣", None, ["hit", "stand", "double", "split"]),  # no Surrender
        ("american-s17", "10♠ 6♥", "10♣", None, ["hit", "stand", "double", "surrender"]),
        ("american-s17", "10♠ 6♥", "10♣", ["hit", "stand"], ["hit", "stand"]),
        ("family", "5♠ 4♥", "6♣", ["hit", "stand"], ["hit", "stand"]),
    ],
)
def test_an_action_question_offers_only_the_moves_legal_and_offered(
    preset: str, cards: str, up: str, offered: list[str] | None, expected: list[str]
) -> None:
    moves = frozenset(Action) if offered is None else frozenset(map(Action, offered))
    found = form.ask_moves(PRESETS[preset], parse_cards(cards), parse_cards(up)[0], moves)
    assert [action.value for action in found] == expected


def test_a_move_the_hand_does_not_offer_is_refused_by_the_form() -> None:
    with pytest.raises(FormError) as refused:
        form.add_action(_empty(), "?", ["10♠", "3♥"], "7♣", Action.SPLIT, "Non.")
    assert refused.value.code == "form-move-not-offered"


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda t: form.add_explain(t, "   "), "form-empty-text"),
        (lambda t: form.add_choice(t, "Q ?", ["seule"], 0, "."), "form-two-options"),
        (lambda t: form.add_deal(t, ["A♠", "A♠"], "9♣", "7♦"), "form-card-twice"),
        (lambda t: form.set_head(t, title="T", level=1, preset="nowhere", actions=None),
         "form-preset"),
    ],
)
def test_the_form_refuses_what_it_cannot_write_with_a_reason(change: object, code: str) -> None:
    with pytest.raises(FormError) as refused:
        change(TEMPLATE)  # type: ignore[operator]
    assert refused.value.code == code


def test_steps_move_and_go_away_in_the_text() -> None:
    moved = form.move_step(TEMPLATE, 0, 1)
    assert [s.kind for s in form.read_form(moved).steps] == ["show", "explain", "ask", "deal"]
    assert [s.kind for s in form.read_form(form.remove_step(moved, 3)).steps] == [
        "show", "explain", "ask"
    ]


def test_a_text_that_is_no_lesson_yet_leaves_the_form_waiting() -> None:
    with pytest.raises(FormError):
        form.read_form("- juste une liste\n")


# -- problems said as a teacher reads them ------------------------------------------------


@pytest.mark.parametrize(
    ("label", "language", "expected"),
    [
        ("steps[1].ask.answer.action", "fr", "étape 2 « Que faites-vous ? », réponse"),
        ("steps[1].ask", "fr", "étape 2 « Que faites-vous ? »"),
        ("steps[1].ask", "en", "step 2 “Que faites-vous ?”"),
        ("steps[2].deal.expect.net", "fr", "étape 3, gain net"),
        ("steps[0]", "en", "step 1"),
        ("title", "fr", "le titre"),
        ("actions", "en", "the moves offered"),
        ("something[3]", "en", "something[3]"),
    ],
)
def test_a_problem_is_placed_at_its_step_and_title(
    label: str, language: str, expected: str
) -> None:
    shown = place_text(label, ["", "Que faites-vous ?", ""], translator(language))
    assert shown.replace("\u00a0", " ").replace("\u202f", " ") == expected


def test_the_step_titles_come_from_the_text() -> None:
    assert form.step_titles(TEMPLATE, "fr")[2] == "Combien vaut cette main ?"


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("fr", "la stratégie de base à la table famille joue Rester, pas Tirer"),
        ("en", "basic strategy at the family table plays Stand, not Hit"),
    ],
)
def test_moves_and_tables_are_named_in_the_sentences_language(
    language: str, expected: str
) -> None:
    reason = Refusal(
        "lesson-against-strategy",
        {"table": "family", "best": "stand", "chosen": "hit", "cards": "10♠ 7♥",
         "hand": Refusal("lesson-hand-hard", {"total": 17}), "up": "10"},
    )
    sentence = problem_sentence(reason, translator(language)).replace("\u00a0", " ")
    assert sentence.startswith(expected)


def test_a_french_problem_names_the_moves_offered_in_french() -> None:
    reason = Refusal(
        "lesson-answer-illegal",
        {"action": "split", "table": "french-casino", "legal": "double, hit, stand"},
    )
    sentence = problem_sentence(reason, FR).replace("\u00a0", " ")
    assert sentence == (
        "Séparer est interdit ici à la table casino français ; les actions permises sont :"
        " Doubler, Tirer, Rester"
    )
    assert "split" not in sentence
    assert "hit" not in sentence


def test_a_checked_lesson_s_problem_reads_in_french_end_to_end() -> None:
    text = form.add_action(
        _empty(), "Que faites-vous ?", ["10♠", "6♥"], "7♣", Action.STAND, "Non."
    )
    problems = check_text(text).problems
    assert [p.code for p in problems] == [Code.STRATEGY]
    problem: Problem = problems[0]
    assert place_text(problem.label, form.step_titles(text, "fr"), FR).startswith("étape 1")
    sentence = problem_sentence(problem.reason, FR)  # type: ignore[arg-type]
    assert "famille joue Tirer, pas Rester" in sentence.replace("\u00a0", " ")


def test_the_format_guide_is_there_in_french_and_in_english() -> None:
    french, english = form.format_guide("fr"), form.format_guide("en")
    assert "## Écrire des leçons" in french
    assert "## Writing lessons" in english
    assert Path(form._ROOT / "LESSON_FORMAT.fr.md").is_file()


def test_the_french_guide_shows_the_english_guide_s_checked_example() -> None:
    def example(text: str) -> str:
        return text.split("```yaml\n", 1)[1].split("```", 1)[0]

    root = form._ROOT
    english = (root / "LESSON_FORMAT.md").read_text(encoding="utf-8")
    french = (root / "LESSON_FORMAT.fr.md").read_text(encoding="utf-8")
    assert example(french) == example(english)
