"""The served app has one helper (``serving.py``), shared by the tests and the benchmarks: a
benchmark never reaches into the test package, and the helper never needs pytest, so a benchmark
runs where pytest's plugins and the tests' fixtures are not loaded."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _imported(path: Path) -> set[str]:
    """The top-level package of every module a file imports, wherever the import stands."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_no_benchmark_imports_the_test_package() -> None:
    benches = sorted((ROOT / "bench").glob("*.py"))
    assert benches
    offenders = [path.name for path in benches if "tests" in _imported(path)]
    assert offenders == []


def test_the_benchmarks_that_serve_the_app_use_the_shared_helper() -> None:
    """Every benchmark that drives chromium finds it, and starts the app, through ``serving``."""
    drivers = [
        path.name for path in sorted((ROOT / "bench").glob("*.py"))
        if "playwright" in _imported(path)
    ]
    assert drivers
    assert [name for name in drivers if "serving" not in _imported(ROOT / "bench" / name)] == []


def test_the_shared_helper_needs_no_test_tool() -> None:
    assert _imported(ROOT / "serving.py") & {"pytest", "tests", "hypothesis"} == set()
