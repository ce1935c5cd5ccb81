"""The one bounded YAML reader (``tutor.yaml_reader``), shared by rules files and lesson files."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tutor.lessons.source import MAX_BYTES, MAX_DEPTH, MAX_NODES, parse_yaml
from tutor.rules import InvalidRulesError
from tutor.rules_file import MAX_RULES_BYTES, load_rules
from tutor.yaml_reader import BOUNDS, Bounds, Issue, Position, read_yaml

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


def test_rules_files_and_lesson_files_are_read_within_the_same_bounds(tmp_path: Path) -> None:
    """One reader, one set of bounds (a lesson may hold more bytes): what is too deep for a
    lesson is too deep for a rules file, and the deepest a lesson goes (8) is within them."""
    assert (BOUNDS.max_depth, BOUNDS.max_nodes) == (MAX_DEPTH, MAX_NODES)
    assert BOUNDS.max_bytes == MAX_RULES_BYTES
    assert BOUNDS.max_bytes <= MAX_BYTES, "a lesson may hold more text than a rules file"
    deepest = "a: " + "[" * (MAX_DEPTH - 2) + "1" + "]" * (MAX_DEPTH - 2) + "\n"
    too_deep = "a: " + "[" * (MAX_DEPTH - 1) + "1" + "]" * (MAX_DEPTH - 1) + "\n"
    assert not parse_yaml(deepest, "deepest.yaml").problems
    assert "nest more than" in parse_yaml(too_deep, "deep.yaml").problems[0].message
    path = tmp_path / "deep.yaml"
    path.write_text(too_deep, "utf-8")
    with pytest.raises(InvalidRulesError, match="nests too deeply"):
        load_rules(path)


def test_the_deepest_lesson_of_the_course_is_within_the_nesting_bound() -> None:
    deepest = max(
        len(where)
        for path in (ROOT / "lessons").glob("*.yaml")
        for where in parse_yaml(path.read_text("utf-8"), path.name).places
    )
    assert deepest + 1 == MAX_DEPTH  # the root is one level: no lesson goes deeper than 8


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
    read = read_yaml("decks: 1\ndecks: 6\n")
    assert read.data == {"decks": 6}
    assert read.refused is None
    (twice,) = read.problems
    assert (twice.kind, twice.detail, twice.position.line) == (Issue.DUPLICATE_KEY, "decks", 2)
    assert twice.first == Position(1, 1)


def test_a_rules_file_of_too_many_values_is_refused_where_the_excess_starts(tmp_path: Path) -> None:
    path = tmp_path / "many.yaml"
    path.write_text("name: [" + ", ".join(["1"] * BOUNDS.max_nodes) + "]\n", "utf-8")
    with pytest.raises(
        InvalidRulesError, match=r"not more than 10,000 values \(line 1, column \d+\)"
    ):
        load_rules(path)


def test_a_rules_file_nesting_past_its_bound_is_refused_at_the_place(tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("name: [[[[[[[[1]]]]]]]]\n", "utf-8")
    with pytest.raises(InvalidRulesError, match=r"nests too deeply \(line 1, column \d+\)"):
        load_rules(path)
