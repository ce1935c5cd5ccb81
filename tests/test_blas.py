"""One BLAS thread wherever the package loads numpy (``tutor.blas``): every module that imports
numpy, pandas or numba when it loads imports ``tutor.blas`` before them, or lives in a package
whose ``__init__`` does."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tutor"
NUMERIC = {"numpy", "pandas", "numba"}


def _top_level_imports(path: Path) -> list[str]:
    """The modules ``path`` imports when it loads, in order (not those put off into a function
    or kept for the type checker)."""
    names: list[str] = []
    for node in ast.parse(path.read_text(), str(path)).body:
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def _sets_one_thread_first(path: Path) -> bool:
    """Whether ``tutor.blas`` is imported before any numeric library, by the module itself or by
    the ``__init__`` of a package it lives in (which Python runs first)."""
    imports = _top_level_imports(path)
    numeric = [i for i, name in enumerate(imports) if name.split(".")[0] in NUMERIC]
    if "tutor.blas" in imports and (not numeric or imports.index("tutor.blas") < numeric[0]):
        return True
    folders = [path.parent, *path.parent.parents]
    packages = folders[: folders.index(PACKAGE)] if PACKAGE in folders else []
    return any(
        (folder / "__init__.py").exists()
        and "tutor.blas" in _top_level_imports(folder / "__init__.py")
        for folder in packages
    )


def _loading_numeric() -> list[Path]:
    """The modules below the interface that import a numeric library when they load (the
    interface's pages run under Streamlit, which has loaded numpy before them)."""
    return [
        path
        for path in sorted(PACKAGE.rglob("*.py"))
        if "ui" not in path.relative_to(PACKAGE).parts
        and any(name.split(".")[0] in NUMERIC for name in _top_level_imports(path))
    ]


def test_the_walk_finds_the_modules_that_load_numpy() -> None:
    found = {path.relative_to(PACKAGE).as_posix() for path in _loading_numeric()}
    assert {"simulate.py", "progress.py", "strategy/solver.py"} <= found


@pytest.mark.parametrize("path", _loading_numeric(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_module_that_loads_numpy_asks_for_one_blas_thread_first(path: Path) -> None:
    assert _sets_one_thread_first(path), (
        f"{path.relative_to(ROOT)} imports numpy/pandas/numba without importing tutor.blas "
        "before them (one BLAS thread: see tutor/blas.py)"
    )


def test_the_check_sees_a_numpy_import_before_the_setting(tmp_path: Path) -> None:
    late = tmp_path / "late.py"
    late.write_text("import numpy\nimport tutor.blas\n")
    early = tmp_path / "early.py"
    early.write_text("import tutor.blas\n# isort: split\nimport numpy\n")
    assert _top_level_imports(late) == ["numpy", "tutor.blas"]
    assert not _sets_one_thread_first(late)
    assert _sets_one_thread_first(early)


def test_the_simulator_runs_on_one_blas_thread() -> None:
    code = (
        "import tutor.simulate; from threadpoolctl import threadpool_info; "
        "print(max(i['num_threads'] for i in threadpool_info() if i['user_api'] == 'blas'))"
    )
    environment = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True,
        timeout=300, check=True,
    )
    assert done.stdout.strip().splitlines()[-1] == "1"
