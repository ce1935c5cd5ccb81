"""The one bounded YAML reader (``tutor.yaml_reader``), shared by rules files and lesson files."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tutor.lessons.source import LESSON_BOUNDS
from tutor.rules import RULES_BOUNDS, InvalidRulesError, load_rules
from tutor.yaml_reader import Bounds, Issue, Position, read_yaml

ROOT = Path(__file__).resolve().parents[1]


def test_the_reader_sits_on_the_lowest_floor() -> None:
    """It imports nothing of ``tutor``, so the rules, below the lessons, may use it."""
    tree = ast.parse((ROOT / "tutor" / "yaml_reader.py").read_text("utf-8"))
    imported = {
        node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
    } | {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    assert not {name for name in imported if name.split(".")[0] == "tutor"}


def test_a_rules_file_is_read_within_bounds_no_looser_than_a_lesson_file() -> None:
    assert RULES_BOUNDS.max_bytes <= LESSON_BOUNDS.max_bytes
    assert RULES_BOUNDS.max_depth <= LESSON_BOUNDS.max_depth
    assert RULES_BOUNDS.max_nodes <= LESSON_BOUNDS.max_nodes


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("a: &x 1\n", Issue.ANCHOR),
        ("a: *x\n", Issue.ALIAS),
        ("a: [[[1]]]\n", Issue.DEPTH),
        ("a: [1, 2, 3, 4, 5]\n", Issue.NODES),
        ("a: 2024-02-30\n", Issue.VALUE),
        ("a: [\n", Issue.SYNTAX),
        ("a: \x0c\n", Issue.CHARACTER),
        ("a: " + "x" * 100 + "\n", Issue.SIZE),
    ],
)
def test_each_bound_is_a_problem_of_its_kind_and_never_an_exception(text: str, kind: Issue) -> None:
    read = read_yaml(text, Bounds(max_bytes=64, max_depth=3, max_nodes=5))
    assert read.data is None
    assert read.refused is not None
    assert read.refused.kind is kind
    assert read.refused.position.line >= 1


def test_a_key_given_twice_is_reported_and_the_last_value_kept() -> None:
    read = read_yaml("decks: 1\ndecks: 6\n", RULES_BOUNDS)
    assert read.data == {"decks": 6}
    assert read.refused is None
    (twice,) = read.problems
    assert (twice.kind, twice.detail, twice.position.line) == (Issue.DUPLICATE_KEY, "decks", 2)
    assert twice.first == Position(1, 1)


def test_a_rules_file_of_too_many_values_is_refused_where_the_excess_starts(tmp_path: Path) -> None:
    path = tmp_path / "many.yaml"
    path.write_text("name: [" + ", ".join(["1"] * RULES_BOUNDS.max_nodes) + "]\n", "utf-8")
    with pytest.raises(
        InvalidRulesError, match=r"not more than 1000 values \(line 1, column \d+\)"
    ):
        load_rules(path)


def test_a_rules_file_nesting_past_its_bound_is_refused_at_the_place(tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("name: [[[[[[[[1]]]]]]]]\n", "utf-8")
    with pytest.raises(InvalidRulesError, match=r"nests too deeply \(line 1, column \d+\)"):
        load_rules(path)
