"""Lesson files: every kind of mistake is reported with its file and line, and never stops the rest.

Each bad file under ``tests/lessons_bad/`` holds exactly one kind of mistake; the tests name the
line (and, for a card, the column) where a teacher must look.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import builtin_lessons
from tutor.cli import main
from tutor.decision import Action, DecisionPoint
from tutor.lessons import Code, Problem, load_course
from tutor.lessons.command import run_check
from tutor.lessons.course import default_strategy

HERE = Path(__file__).parent
BAD = HERE / "lessons_bad"
FORMAT = HERE.parent / "LESSON_FORMAT.md"


def stand_on_17(point: DecisionPoint) -> Action:
    """A stand-in strategy for tests that must not depend on the real one.

    Hit a hard total under 17 and a soft total under 18, stand otherwise, never insure.
    """
    if point.is_insurance_decision:
        return Action.DECLINE_INSURANCE
    value = point.value
    return Action.STAND if value.total >= (18 if value.soft else 17) else Action.HIT


def problems_of(path: Path, **options: object) -> list[Problem]:
    options.setdefault("strategy", stand_on_17)
    course = load_course([path], **options)  # type: ignore[arg-type]
    return course.problems


def only_problem(path: Path, **options: object) -> Problem:
    problems = problems_of(path, **options)
    assert len(problems) == 1, "\n".join(map(str, problems))
    return problems[0]


def lesson_text(lesson_id: str, *, requires: str = "[]", extra_step: str = "") -> str:
    """A small valid lesson, for tests that need good files."""
    return (
        f"id: {lesson_id}\n"
        f"title: {{fr: 'Leçon {lesson_id}', en: 'Lesson {lesson_id}'}}\n"
        "level: 1\n"
        "goals: [{fr: 'Compter', en: 'Count'}]\n"
        f"requires: {requires}\n"
        "steps:\n"
        "  - ask:\n"
        "      question: {fr: 'Combien ?', en: 'How much?'}\n"
        "      cards: 'A♠ 6♥'\n"
        "      answer: {total: 17}\n"
        "      explanation: {fr: 'Dix-sept.', en: 'Seventeen.'}\n" + extra_step
    )


# -- one test per kind of mistake ---------------------------------------------------------------


def test_an_unknown_step_kind_is_reported_at_its_key() -> None:
    problem = only_problem(BAD / "unknown-step-kind.yaml")
    assert (problem.path.name, problem.line, problem.column) == ("unknown-step-kind.yaml", 7, 5)
    assert "unknown step kind 'quiz'" in problem.message
    assert "explain, show, ask, deal, drill" in problem.message


def test_a_card_that_does_not_parse_is_reported_at_the_token_itself() -> None:
    problem = only_problem(BAD / "bad-card-token.yaml")
    assert (problem.path.name, problem.line, problem.column) == ("bad-card-token.yaml", 7, 19)
    assert problem.code is Code.CARD
    assert "'1X' is not a card" in problem.message


def test_more_copies_of_a_card_than_the_decks_hold_is_reported_at_the_extra_copy() -> None:
    problem = only_problem(BAD / "too-many-copies.yaml")
    assert (problem.path.name, problem.line, problem.column) == ("too-many-copies.yaml", 10, 17)
    assert problem.code is Code.COPIES
    assert "A♠ appears 2 times" in problem.message


def test_a_deal_whose_outcome_and_net_the_engine_contradicts() -> None:
    problems = problems_of(BAD / "deal-outcome-contradicted.yaml")
    assert [(p.path.name, p.line, p.code) for p in problems] == [
        ("deal-outcome-contradicted.yaml", 12, Code.DEAL),
        ("deal-outcome-contradicted.yaml", 13, Code.DEAL),
    ]
    assert "the engine finds lose, not win" in problems[0].message
    assert "net is -2 chips, not +2" in problems[1].message


def test_a_decision_the_table_forbids_is_reported_with_the_engines_reason() -> None:
    problem = only_problem(BAD / "deal-illegal-decision.yaml")
    assert (problem.path.name, problem.line) == ("deal-illegal-decision.yaml", 12)
    assert "decision 2 (double) is not allowed" in problem.message
    assert "cannot double after a split" in problem.message


def test_a_decision_the_strategy_contradicts_is_reported_at_that_decision() -> None:
    problem = only_problem(BAD / "decision-against-strategy.yaml")
    assert (problem.path.name, problem.line, problem.code) == (
        "decision-against-strategy.yaml",
        12,
        Code.STRATEGY,
    )
    assert "plays stand, not hit" in problem.message
    assert "follows_strategy: false" in problem.message


@pytest.mark.slow
def test_the_real_strategy_also_refuses_to_hit_a_hard_20() -> None:
    strategy = default_strategy()
    problem = only_problem(BAD / "decision-against-strategy.yaml", strategy=strategy)
    assert (problem.line, problem.code) == (12, Code.STRATEGY)


def test_without_a_strategy_the_same_deal_is_only_checked_by_the_engine() -> None:
    assert problems_of(BAD / "decision-against-strategy.yaml", strategy=None) == []


def test_a_prerequisite_that_does_not_exist() -> None:
    problem = only_problem(BAD / "missing-prerequisite.yaml")
    assert (problem.path.name, problem.line, problem.code) == (
        "missing-prerequisite.yaml",
        6,
        Code.PREREQUISITE,
    )
    assert "'no-such-lesson'" in problem.message


def test_prerequisites_that_form_a_cycle_are_reported_in_every_lesson_of_the_cycle() -> None:
    problems = problems_of(BAD / "cycle")
    assert [(p.path.name, p.line, p.code) for p in problems] == [
        ("01-chicken.yaml", 5, Code.CYCLE),
        ("02-egg.yaml", 5, Code.CYCLE),
    ]
    assert "chicken → egg → chicken" in problems[0].message


def test_a_missing_translation_is_reported_in_the_built_in_course_mode() -> None:
    problem = only_problem(BAD / "missing-translation.yaml", bilingual=True)
    assert (problem.path.name, problem.line, problem.code) == (
        "missing-translation.yaml",
        10,
        Code.TRANSLATION,
    )
    assert "no en text" in problem.message


def test_a_teachers_lesson_may_be_in_one_language() -> None:
    assert problems_of(BAD / "missing-translation.yaml") == []
    assert problems_of(BAD / "missing-prerequisite.yaml", bilingual=False)[0].code is not (
        Code.TRANSLATION
    )


def test_a_plain_string_is_a_missing_translation_in_the_built_in_course_mode() -> None:
    problems = problems_of(BAD / "unknown-step-kind.yaml", bilingual=True)
    # The schema failed, so texts are not judged yet: only the step kind is reported.
    assert [p.code for p in problems] == [Code.SCHEMA]
    problems = problems_of(BAD / "missing-prerequisite.yaml", bilingual=True)
    lines = sorted(p.line for p in problems if p.code is Code.TRANSLATION)
    assert lines == [2, 4, 8, 8]  # title, goal, question and explanation


def test_a_duplicate_id_is_reported_in_the_second_file() -> None:
    course = load_course([BAD / "duplicate"], strategy=None)
    (problem,) = course.problems
    assert (problem.path.name, problem.line, problem.code) == ("02-twin.yaml", 2, Code.DUPLICATE_ID)
    assert "01-twin.yaml already uses it" in problem.message
    assert [lesson.id for lesson in course.lessons] == ["twin"]


@pytest.mark.parametrize(
    ("name", "line", "column", "words"),
    [
        ("bad-rules.yaml", 6, 3, "unknown table rule 'dealer_hits_soft'"),
        ("bad-preset.yaml", 4, 8, "unknown preset 'famly'"),
        ("impossible-rules.yaml", 4, 8, "a shoe holds 1 to 8 decks, not 9"),
    ],
)
def test_bad_table_rules(name: str, line: int, column: int, words: str) -> None:
    problem = only_problem(BAD / name)
    assert (problem.path.name, problem.line, problem.column, problem.code) == (
        name,
        line,
        column,
        Code.RULES,
    )
    assert words in problem.message


def test_a_misspelt_key_is_reported_with_the_nearest_right_one() -> None:
    problems = problems_of(BAD / "misspelt-key.yaml")
    assert [(p.line, p.column) for p in problems] == [(7, 7), (9, 7)]
    assert "missing required key 'explanation'" in problems[0].message
    assert "did you mean 'explanation'?" in problems[1].message


def test_a_key_given_twice_is_reported_though_yaml_would_accept_it() -> None:
    problem = only_problem(BAD / "duplicate-key.yaml")
    assert (problem.line, problem.column, problem.code) == (7, 1, Code.YAML)
    assert "first at line 3" in problem.message


def test_a_yaml_syntax_error_is_a_problem_not_an_exception() -> None:
    problem = only_problem(BAD / "yaml-syntax.yaml")
    assert (problem.line, problem.code) == (7, Code.YAML)
    assert "starts at line 6" in problem.message


def test_every_bad_file_is_reported_and_none_stops_the_others() -> None:
    course = load_course([BAD, BAD / "cycle", BAD / "duplicate"], strategy=stand_on_17)
    broken = {file.path.name for file in course.broken}
    expected = {path.name for path in BAD.glob("*.yaml")} - {"missing-translation.yaml"}
    assert expected <= broken
    assert {"01-chicken.yaml", "02-egg.yaml", "02-twin.yaml"} <= broken


# -- all errors at once, precisely placed ---------------------------------------------------------


def test_all_schema_mistakes_of_a_file_are_reported_at_once(tmp_path: Path) -> None:
    path = tmp_path / "many.yaml"
    path.write_text(
        "id: many\n"
        "title: 5\n"
        "level: 4\n"
        "goals: [ok]\n"
        "steps:\n"
        "  - deal:\n"
        "      player: 'A♠ 6♥'\n"
        "      dealer: '9♣ 7♦'\n"
        "      bett: 2\n"
        "      expect: {outcome: wn, net: 2}\n"
        "  - deal:\n"
        "      player: 'A♠ A♠'\n"
        "      dealer: '9♣ 7♦'\n"
        "      expect: {decisions: [stand], outcome: win, net: 2}\n",
        encoding="utf-8",
    )
    problems = problems_of(path)
    assert [(p.line, p.column) for p in problems] == [(2, 8), (3, 8), (9, 7), (10, 25), (12, 19)]
    assert "found 5" in problems[0].message
    assert "did you mean 'bet'?" in problems[2].message
    assert "'wn' is not an outcome" in problems[3].message
    # The second deal passed the schema, so its meaning was checked too.
    assert problems[4].code is Code.COPIES


def test_cards_may_be_a_yaml_list_and_the_token_is_still_found(tmp_path: Path) -> None:
    path = tmp_path / "listed.yaml"
    path.write_text(lesson_text("listed").replace("'A♠ 6♥'", "[AS, 6H, ZZ]"), encoding="utf-8")
    problem = only_problem(path)
    assert (problem.line, problem.column, problem.code) == (9, 23, Code.CARD)


def test_the_round_must_end_with_the_stated_decisions(tmp_path: Path) -> None:
    step = (
        "  - deal:\n"
        "      player: '10♠ 2♥'\n"
        "      dealer: '10♣ 7♦'\n"
        "      then: '3♠ 4♦'\n"
        "      expect: {decisions: [hit], outcome: lose, net: -2}\n"
    )
    path = tmp_path / "short.yaml"
    path.write_text(lesson_text("short", extra_step=step), encoding="utf-8")
    problems = problems_of(path, strategy=None)
    assert len(problems) == 1
    assert "the round goes on" in problems[0].message
    assert problems[0].line == 16


def test_cards_never_dealt_and_cards_missing_are_both_reported(tmp_path: Path) -> None:
    too_many = (
        "  - deal:\n"
        "      player: '10♠ 9♥'\n"
        "      dealer: '10♣ 7♦'\n"
        "      then: '3♠ 4♦'\n"
        "      expect: {decisions: [stand], outcome: win, net: 2}\n"
    )
    too_few = (
        "  - deal:\n"
        "      player: '10♠ 2♥'\n"
        "      dealer: '5♣ 7♦'\n"
        "      expect: {decisions: [stand], outcome: win, net: 2}\n"
    )
    path = tmp_path / "cards.yaml"
    path.write_text(lesson_text("cards", extra_step=too_many + too_few), encoding="utf-8")
    problems = problems_of(path, strategy=None)
    assert [p.line for p in problems] == [15, 18]  # no 'then': the deal itself
    assert "never dealt (3♠ 4♦)" in problems[0].message
    assert "run out" in problems[1].message


def test_the_european_deal_takes_only_the_up_card(tmp_path: Path) -> None:
    step = (
        "  - deal:\n"
        "      player: '10♠ 9♥'\n"
        "      dealer: '10♣ 7♦'\n"
        "      expect: {decisions: [stand], outcome: win, net: 2}\n"
    )
    path = tmp_path / "european.yaml"
    text = lesson_text("european", extra_step=step)
    text = text.replace("level: 1", "level: 1\nrules: french-casino")
    path.write_text(text, encoding="utf-8")
    problem = only_problem(path, strategy=None)
    assert problem.line == 15
    assert "European deal" in problem.message


def test_an_action_answer_must_be_legal_and_the_best_play(tmp_path: Path) -> None:
    asks = (
        "  - ask:\n"
        "      question: Q\n"
        "      cards: '10♠ 9♥'\n"
        "      dealer: '6♣'\n"
        "      answer: {action: hit}\n"
        "      explanation: E\n"
        "  - ask:\n"
        "      question: Q\n"
        "      cards: '10♠ 9♥'\n"
        "      dealer: '6♣'\n"
        "      answer: {action: surrender}\n"
        "      explanation: E\n"
        "  - ask:\n"
        "      question: Q\n"
        "      cards: '10♠ 9♥'\n"
        "      dealer: '6♣'\n"
        "      answer: {action: hit}\n"
        "      explanation: E\n"
        "      follows_strategy: false\n"
    )
    path = tmp_path / "asks.yaml"
    path.write_text(lesson_text("asks", extra_step=asks), encoding="utf-8")
    problems = problems_of(path)
    assert [(p.line, p.code) for p in problems] == [(16, Code.STRATEGY), (22, Code.DEAL)]
    assert "does not offer surrender" in problems[1].message or "not allowed" in problems[1].message


def test_the_file_name_must_carry_the_lessons_id(tmp_path: Path) -> None:
    path = tmp_path / "03-other-name.yaml"
    path.write_text(lesson_text("the-id"), encoding="utf-8")
    problem = only_problem(path)
    assert (problem.line, problem.code) == (1, Code.FILE)
    assert "NN-the-id.yaml" in problem.message


def test_a_lesson_is_not_only_text(tmp_path: Path) -> None:
    path = tmp_path / "talk.yaml"
    path.write_text(
        "id: talk\ntitle: T\nlevel: 1\ngoals: [G]\nsteps:\n  - explain: Only words.\n",
        encoding="utf-8",
    )
    assert only_problem(path).code is Code.CONTENT


def test_a_drill_the_lessons_table_cannot_deal(tmp_path: Path) -> None:
    drills = (
        "  - drill: {category: surrender, count: 3}\n"
        "  - drill: {category: insurance, dealer: [2, 3]}\n"
        "  - drill: {category: hard, dealer: [2, A]}\n"
    )
    path = tmp_path / "drills.yaml"
    path.write_text(lesson_text("drills", extra_step=drills), encoding="utf-8")
    problems = problems_of(path)
    assert [(p.line, p.code) for p in problems] == [(12, Code.CONTENT), (13, Code.CONTENT)]
    assert "family table does not offer surrender" in problems[0].message


# -- the course ---------------------------------------------------------------------------------


def test_good_files_load_while_a_broken_one_sits_beside_them(tmp_path: Path) -> None:
    (tmp_path / "01-first.yaml").write_text(lesson_text("first"), encoding="utf-8")
    (tmp_path / "02-second.yaml").write_text(
        lesson_text("second", requires="[first]"), encoding="utf-8"
    )
    shutil.copy(BAD / "bad-card-token.yaml", tmp_path / "bad-card-token.yaml")
    course = load_course(tmp_path, strategy=None)
    assert [lesson.id for lesson in course.lessons] == ["first", "second"]
    assert [file.path.name for file in course.broken] == ["bad-card-token.yaml"]
    assert course.path_of("second").name == "02-second.yaml"


def test_a_lesson_comes_after_its_prerequisites_whatever_its_number(tmp_path: Path) -> None:
    (tmp_path / "01-late.yaml").write_text(lesson_text("late", requires="[early]"), "utf-8")
    (tmp_path / "02-early.yaml").write_text(lesson_text("early"), encoding="utf-8")
    (tmp_path / "03-last.yaml").write_text(lesson_text("last"), encoding="utf-8")
    course = load_course(tmp_path, strategy=None)
    assert [lesson.id for lesson in course.lessons] == ["early", "late", "last"]


def test_a_missing_path_is_a_problem_not_an_exception(tmp_path: Path) -> None:
    course = load_course([tmp_path / "nowhere"], strategy=None)
    assert [p.code for p in course.problems] == [Code.FILE]


def test_the_format_guide_example_is_a_valid_lesson(tmp_path: Path) -> None:
    """LESSON_FORMAT.md and the loader stay in sync: its example must load without a problem."""
    match = re.search(r"## A complete lesson.*?```yaml\n(.*?)```", FORMAT.read_text("utf-8"), re.S)
    assert match is not None
    (tmp_path / "01-card-values.yaml").write_text(lesson_text("card-values"), encoding="utf-8")
    (tmp_path / "02-soft-hands.yaml").write_text(match.group(1), encoding="utf-8")
    course = load_course(tmp_path, bilingual=True, strategy=default_strategy())
    assert [str(p) for p in course.problems] == []
    assert [lesson.id for lesson in course.lessons] == ["card-values", "soft-hands"]


# -- the command ----------------------------------------------------------------------------------


def test_check_prints_file_line_col_and_exits_non_zero(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", str(BAD / "bad-card-token.yaml")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert re.match(r".*bad-card-token\.yaml:7:19: steps\[0\]\.deal\.player: '1X'", out[0])
    assert "1 problem(s) in 1 file(s)" in out[-1]


def test_a_clean_check_says_how_many_lessons_and_steps_it_checked(tmp_path: Path) -> None:
    (tmp_path / "01-first.yaml").write_text(lesson_text("first"), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert run_check([tmp_path], bilingual=None, out=out, err=err) == 0
    assert out.getvalue().strip() == "checked 1 file(s): 1 lesson(s), 1 step(s); no problems"


def test_check_of_an_empty_folder_fails(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run_check([tmp_path], bilingual=None, out=out, err=err) == 1
    assert "no lesson files" in err.getvalue()


# -- a drill's hands: the lesson's topic -------------------------------------------------------


def test_a_hands_value_outside_the_vocabulary_is_reported_with_the_allowed_values(
    tmp_path: Path,
) -> None:
    path = tmp_path / "ace.yaml"
    path.write_text(
        lesson_text("ace", extra_step="  - drill: {category: totals, hands: ace}\n"), "utf-8"
    )
    problem = only_problem(path)
    assert (problem.path.name, problem.line, problem.column, problem.code) == (
        "ace.yaml",
        12,
        38,
        Code.SCHEMA,
    )
    assert "steps[1].drill.hands" in str(problem)
    for value in ("'aces'", "'no-aces'", "'naturals'", "'stiff'", "'double-totals'"):
        assert value in problem.message
    assert "found 'ace'" in problem.message


@pytest.mark.parametrize(
    ("rules", "drill", "words"),
    [
        ("family", "{category: hard, hands: aces}", "no hard question on a hand holding an Ace"),
        ("family", "{category: soft, hands: no-aces}", "no soft question on a hand holding no"),
        ("family", "{category: hard, hands: naturals}", "on a hand that is a natural"),
        ("family", "{category: doubling, hands: stiff}", "on a hand of hard 12 to 16"),
        ("american-s17", "{category: surrender, hands: double-totals}", "of hard 9 to 11"),
        ("american-s17", "{category: surrender, dealer: [2, 3]}", "against the dealer's 2 or 3"),
    ],
)
def test_a_drill_whose_hands_no_deal_can_meet_is_reported_at_that_key(
    tmp_path: Path, rules: str, drill: str, words: str
) -> None:
    path = tmp_path / "never.yaml"
    line = f"  - drill: {drill}\n"
    text = lesson_text("never", extra_step=line)
    path.write_text(text.replace("level: 1", f"level: 1\nrules: {rules}"), "utf-8")
    problem = only_problem(path)
    key = "hands" if "hands" in drill else "dealer"
    column = line.index(f"{key}: ") + len(key) + 3  # the value, counted from 1
    assert (problem.line, problem.column, problem.code) == (13, column, Code.CONTENT)
    assert f"drill.{key}" in str(problem)
    assert words in problem.message
    assert f"at the {rules} table" in problem.message


@pytest.mark.parametrize(
    "drill",
    [
        "{category: totals, hands: aces}",
        "{category: totals, hands: no-aces}",
        "{category: payouts, hands: naturals}",
        "{category: hard, hands: stiff, dealer: [7, 8, 9, 10, A]}",
        "{category: doubling, hands: double-totals}",
        "{category: soft, hands: aces}",
        "{category: pairs, hands: aces}",
        "{category: insurance, hands: naturals}",
    ],
)
def test_a_drill_restricted_to_hands_the_table_deals_is_accepted(
    tmp_path: Path, drill: str
) -> None:
    path = tmp_path / "fine.yaml"
    path.write_text(lesson_text("fine", extra_step=f"  - drill: {drill}\n"), "utf-8")
    assert problems_of(path) == []


@pytest.mark.slow
def test_the_built_in_course_checks_clean_from_the_command_line() -> None:
    """``python -m tutor check lessons/``, as a teacher runs it, with the real strategy."""
    done = subprocess.run(
        [sys.executable, "-m", "tutor", "check", "lessons/"],
        cwd=HERE.parent,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("; no problems")


# -- settled questions, a deal's own table, a lesson's actions (issue 13) -----------------------


def _lesson_with(tmp_path: Path, head: str, steps: str, name: str = "x") -> list[Problem]:
    path = tmp_path / f"{name}.yaml"
    path.write_text(
        f"id: {name}\ntitle: T\nlevel: 1\ngoals: [G]\n{head}steps:\n{steps}", encoding="utf-8"
    )
    return problems_of(path, strategy=None)


_SURRENDER_4 = "{bet: 4, player: '10♠ 6♥', dealer: '10♣ 7♦', decisions: [surrender]}"


@pytest.mark.parametrize(
    ("rules", "settle", "answer", "wrong"),
    [
        # 004: "pour deux jetons misés, récupère ta mise plus trois jetons"
        ("family", "{player: 'A♣ K♥', dealer: '10♦ Q♠'}", "{chips: 3}", None),
        ("family", "{player: 'A♣ K♥', dealer: '10♦ Q♠'}", "{chips: 2}", "+3 chips, not +2"),
        # 001: "La banque récupère alors la moitié de sa mise" (late surrender at this table)
        ("american-s17", _SURRENDER_4, "{loss: 2}", None),
        ("american-s17", _SURRENDER_4, "{loss: 4}", "a loss of 2, not a loss of 4"),
        ("american-s17", _SURRENDER_4, "{chips: -2}", None),
        ("american-s17", _SURRENDER_4, "{number: 2}", "answered in chips"),
        ("family", "{player: '10♠ 6♥', dealer: '10♣ 7♦'}", "{chips: -2}", "round goes on"),
        (
            "family",
            "{player: '10♠ 6♥', dealer: '10♣ 7♦', decisions: [stand, hit]}",
            "{chips: -2}",
            "never comes",
        ),
        (
            "family",
            "{player: '10♠ 6♥', dealer: '10♣ 7♦', decisions: [hit]}",
            "{chips: -2}",
            "run out",
        ),
        (
            "family",
            "{player: '10♠ 6♥', dealer: '10♣ 7♦', then: '5♣', decisions: [stand]}",
            "{chips: -2}",
            "never dealt",
        ),
        (
            "{preset: family, blackjack_pays: '6/5'}",
            "{bet: 10, player: 'A♥ Q♦', dealer: '9♣ 8♠'}",
            "{chips: 12}",
            None,
        ),
    ],
)
def test_a_settled_questions_answer_is_the_engines_net(
    tmp_path: Path, rules: str, settle: str, answer: str, wrong: str | None
) -> None:
    steps = (
        "  - ask:\n      question: Q\n      explanation: E\n"
        f"      settle: {settle}\n      answer: {answer}\n"
    )
    problems = _lesson_with(tmp_path, f"rules: {rules}\n", steps)
    if wrong is None:
        assert problems == []
    else:
        assert len(problems) == 1, problems
        assert wrong in problems[0].message
        assert problems[0].line >= 6  # at the step, not at the top of the file


def test_a_settled_round_may_be_played_at_another_table(tmp_path: Path) -> None:
    # 003: "En cas d'assurance le joueur ne peut ni doubler, ni séparer."
    settle = (
        "{rules: online-six-deck, player: '5♠ 6♦', dealer: 'A♣ 7♥', decisions: [insure, double]}"
    )
    steps = (
        "  - ask:\n      question: Q\n      explanation: E\n"
        f"      settle: {settle}\n      answer: {{chips: 4}}\n"
    )
    [problem] = _lesson_with(tmp_path, "", steps)
    assert "decision 2 (double) is not allowed at the online-six-deck table" in problem.message


@pytest.mark.parametrize(
    ("deal", "wrong"),
    [
        # 001: "S'il sépare ou double il devra reverser l'assurance au titre du second jeu."
        (
            "{rules: french-casino, player: '6♠ 5♦', dealer: 'A♣', then: 'K♥ 10♦', "
            "expect: {decisions: [insure, double], outcome: lose, net: 0}}",
            None,
        ),
        (
            "{rules: french-casino, player: '6♠ 5♦', dealer: 'A♣', then: 'K♥ 10♦', "
            "expect: {decisions: [insure, double], outcome: lose, net: -2}}",
            "net is +0 chips",
        ),
        # 003: insurance forbids doubling at the online table
        (
            "{rules: online-six-deck, player: '5♠ 6♦', dealer: 'A♣ 7♥', then: '9♣', "
            "expect: {decisions: [insure, double], outcome: win, net: 3}}",
            "not allowed",
        ),
        # 001: "certains autorisent deux jeux maximum, d'autres trois jeux maximum"
        (
            "{rules: french-casino, player: '8♠ 8♦', dealer: '6♣', then: '8♥ 10♣ 9♠ 8♣ 10♦ 7♣', "
            "expect: {decisions: [split, split, stand, stand, stand], outcome: [win, win, win], "
            "net: 6}}",
            None,
        ),
        (
            "{rules: french-casino, player: '8♠ 8♦', dealer: '6♣', then: '8♥ 10♣ 9♠ 8♣ 10♦ 7♣', "
            "expect: {decisions: [split, split, stand, stand, split], outcome: [win, win, win], "
            "net: 6}}",
            "at most 3 hands",
        ),
        (
            "{player: '8♠ 8♦', dealer: '6♣ 10♦', then: '8♥ 10♣', "
            "expect: {decisions: [split, split], outcome: [win, win], net: 4}}",
            "not allowed",
        ),
    ],
)
def test_a_deal_may_be_played_at_its_own_table(
    tmp_path: Path, deal: str, wrong: str | None
) -> None:
    problems = _lesson_with(tmp_path, "", f"  - deal: {deal}\n")
    if wrong is None:
        assert problems == []
    else:
        assert len(problems) == 1, problems
        assert wrong in problems[0].message


_HIT_DEAL = (
    "  - deal: {player: '10♠ 2♥', dealer: '9♣ 7♦', then: '9♠ 10♥',"
    " expect: {decisions: [hit], outcome: win, net: 2}}\n"
)
_DOUBLE_DEAL = (
    "  - deal: {player: '6♠ 5♥', dealer: '7♣ 10♦', then: '9♦',"
    " expect: {decisions: [double], outcome: win, net: 4}}\n"
)
_ACE_DEAL = (
    "  - deal: {player: '10♥ 9♣', dealer: 'A♠ 6♦',"
    " expect: {decisions: [decline-insurance, stand], outcome: win, net: 2}}\n"
)
_DOUBLE_ASK = (
    "  - ask: {question: Q, explanation: E, cards: '6♠ 5♥', dealer: '7♣',"
    " answer: {action: double}}\n"
)
_DOUBLE_SETTLE = (
    "  - ask: {question: Q, explanation: E, settle: {player: '6♠ 5♥', dealer: '7♣ 10♦',"
    " then: '9♦', decisions: [double]}, answer: {chips: 4}}\n"
)
_PAIRS_DRILL = "  - drill: {category: pairs}\n"


@pytest.mark.parametrize(
    ("actions", "steps", "wrong"),
    [
        ("[hit, stand]", _HIT_DEAL, None),
        ("[hit, stand]", _DOUBLE_DEAL, "the deal plays double, which this lesson does not offer"),
        ("[hit, stand]", _ACE_DEAL, "the deal plays decline-insurance"),
        ("[hit, stand, decline-insurance]", _ACE_DEAL, None),
        ("[hit]", _HIT_DEAL, "add stand"),
        ("[hit, stand]", _DOUBLE_ASK, "the answer is double"),
        ("[hit, stand]", _DOUBLE_SETTLE, "the question's round plays double"),
        ("[hit, stand]", _PAIRS_DRILL, "a pairs drill asks about split"),
        ("[hit, stand, double, split]", _DOUBLE_DEAL + _DOUBLE_ASK + _PAIRS_DRILL, None),
    ],
)
def test_a_lesson_offers_only_its_actions(
    tmp_path: Path, actions: str, steps: str, wrong: str | None
) -> None:
    problems = _lesson_with(tmp_path, f"actions: {actions}\n", steps)
    if wrong is None:
        assert problems == []
    else:
        assert len(problems) == 1, problems
        assert wrong in problems[0].message


def test_a_loss_is_written_without_a_sign(tmp_path: Path) -> None:
    steps = "  - ask: {question: Q, explanation: E, answer: {loss: -2}}\n"
    [problem] = _lesson_with(tmp_path, "", steps)
    assert "loss: 2, not -2" in problem.message


def test_each_step_kind_is_dispatched_to_its_own_case_in_one_place() -> None:
    """``StepCases`` is the one switch on a step's kind: every kind of the format reaches its own
    case, and a switch that forgets a kind is refused when it is built, not skipped later."""
    from tutor.lessons.lesson import STEP_KINDS, StepCases

    def named(kind: str) -> Callable[[object], str]:
        return lambda step: kind

    cases = StepCases[str](**{kind: named(kind) for kind in STEP_KINDS})
    steps = [step for lesson in builtin_lessons().lessons for step in lesson.steps]
    assert {cases(step) for step in steps} == set(STEP_KINDS)
    assert all(cases(step) == step.kind for step in steps)
    with pytest.raises(TypeError, match="no case for the step kind"):
        StepCases[str](**{kind: named(kind) for kind in STEP_KINDS[1:]})


def test_a_broken_lessons_parts_are_each_validated_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The schema pass validates the table and every step once, and the lesson around them
    keeps those parts: the valid steps of a broken lesson are still checked (its deal replayed),
    without being validated a second time for it."""
    from tutor.lessons import lesson as lesson_module

    validated: list[object] = []

    class Counting:
        def __init__(self, adapter: Any) -> None:
            self.adapter = adapter

        def validate_python(self, raw: object) -> Any:
            validated.append(raw)
            return self.adapter.validate_python(raw)

    monkeypatch.setattr(
        lesson_module, "_STEP_ADAPTER", Counting(lesson_module._STEP_ADAPTER)
    )
    path = tmp_path / "broken.yaml"
    path.write_text(
        "id: broken\ntitle: Broken\nlevel: 1\ngoals: [g]\nsteps:\n"
        "  - explain: Hello\n"
        "  - ask: {question: Total, answer: {number: 4}, explaination: Four}\n"
        "  - deal: {player: 10♠ 9♥, dealer: 10♣ 7♦,\n"
        "           expect: {decisions: [stand], outcome: win, net: 5}}\n",
        "utf-8",
    )
    (file,) = load_course([path], strategy=None).files
    assert file.lesson is None
    messages = [problem.message for problem in file.problems]
    assert any("unknown key 'explaination'" in message for message in messages), messages
    assert any("the seat's net is +2 chips, not +5" in message for message in messages), messages
    steps = file.document.data["steps"] if file.document is not None else []
    assert [id(raw) for raw in validated] == [id(raw) for raw in steps]
