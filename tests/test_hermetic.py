"""The test run's kept solutions (``tests.hermetic``) are never another solver's: the folder they
are kept in is named by a hash of every source file a solve can read, so a change to the solver,
the rules or legality starts from an empty folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests import hermetic


def _copy_of_the_package(tmp_path: Path) -> Path:
    """The package's Python sources, copied where a test may change them."""
    copy = tmp_path / "tutor"
    for source in hermetic.PACKAGE.rglob("*.py"):
        target = copy / source.relative_to(hermetic.PACKAGE)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    return copy


def test_the_key_covers_the_solver_the_rules_and_legality() -> None:
    named = {str(path.relative_to(hermetic.PACKAGE)) for path in hermetic.solver_sources()}
    strategy = {f"strategy/{path.name}" for path in (hermetic.PACKAGE / "strategy").glob("*.py")}
    rules = {path.name for path in hermetic.PACKAGE.glob("rules*.py")}
    assert strategy | rules | {"legality.py", "cards.py", "decision.py"} <= named
    assert not any(name.startswith(("ui/", "render/")) for name in named)  # the solve draws nothing


@pytest.mark.parametrize("changed", ["legality.py", "rules_kinds.py", "strategy/solver.py"])
def test_a_changed_source_gives_another_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, changed: str
) -> None:
    copy = _copy_of_the_package(tmp_path)
    monkeypatch.setattr(hermetic, "PACKAGE", copy)
    before = hermetic.solutions_key()
    assert hermetic.solutions_key() == before  # the same sources, the same folder
    with (copy / changed).open("a", encoding="utf-8") as source:
        source.write("\n# one more line\n")
    assert hermetic.solutions_key() != before


def test_a_module_imported_inside_a_function_is_a_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = _copy_of_the_package(tmp_path)
    (copy / "late.py").write_text("LATE = 1\n", encoding="utf-8")
    with (copy / "strategy" / "solver.py").open("a", encoding="utf-8") as source:
        source.write("\n\ndef _late() -> int:\n    from tutor.late import LATE\n\n"
                     "    return LATE\n")
    monkeypatch.setattr(hermetic, "PACKAGE", copy)
    assert copy / "late.py" in hermetic.solver_sources()
