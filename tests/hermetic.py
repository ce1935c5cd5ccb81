"""A pytest plugin (``-p tests.hermetic`` in pyproject's addopts): the run's data folder is a
temporary one, so no test reads or writes the repository's ``data/`` (the database's default
home and the saved strategy solutions, ``tutor.strategy.saved``). Fixtures that need a folder of
their own (``open_app``, the served app) still set ``TUTOR_DATA_DIR`` themselves; everything else,
the command line run in a subprocess included, shares this one, so a rule set is solved once per
run rather than once per test process.

Under pytest-xdist (``make check`` runs ``-n 2``) the workers are processes started by the run's
first one after it has made the folder: they inherit its ``TUTOR_DATA_DIR`` and keep it (saved
solutions are written atomically, so two workers may save at once), and only the process that made
the folder removes it.

Solved rule sets outlive the run: the folder's ``solutions`` is a link to
``.pytest_cache/d/tutor-solutions/<key>/``, where the key is a hash of every source file a solve
can read (the strategy package and every ``tutor`` module it imports, at load time or inside a
function, found by reading their imports; a change to any of them gives a new, empty folder, so a
changed solver, rule or legality never reads a table solved before the change), with numpy's and
Python's versions. Each saved file also names its rule set and the solver's own hash
(``tutor.strategy.saved``), which are checked when it is read. ``-p no:cacheprovider`` leaves
the solutions in the run's folder, as before.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

#: Set by the process that made the run's folder, for the xdist workers it starts.
OWNER = "TUTOR_TEST_HERMETIC_DIR"
#: The package whose solves are kept between runs, and the folders of older keys kept beside.
PACKAGE = Path(__file__).resolve().parents[1] / "tutor"
KEEP_KEYS = 3


def pytest_configure(config: pytest.Config) -> None:
    inherited = os.environ.get(OWNER)
    if inherited is not None and os.environ.get("PYTEST_XDIST_WORKER"):
        os.environ["TUTOR_DATA_DIR"] = inherited  # the run's folder, made by the controller
        return
    folder = tempfile.mkdtemp(prefix="tutor-test-data-")
    cache = getattr(config, "cache", None)  # the cacheprovider plugin, configured before us
    if cache is not None:
        kept = cache.mkdir("tutor-solutions")
        _forget_old_keys(kept)
        here = kept / solutions_key()
        here.mkdir(exist_ok=True)
        os.utime(here)  # the most recently used key is kept longest
        os.symlink(here, Path(folder) / "solutions", target_is_directory=True)
    previous = os.environ.get("TUTOR_DATA_DIR")
    os.environ["TUTOR_DATA_DIR"] = folder
    os.environ[OWNER] = folder

    def restore() -> None:
        os.environ.pop(OWNER, None)
        if previous is None:
            os.environ.pop("TUTOR_DATA_DIR", None)
        else:
            os.environ["TUTOR_DATA_DIR"] = previous
        shutil.rmtree(folder, ignore_errors=True)

    config.add_cleanup(restore)


def solver_sources() -> list[Path]:
    """Every source file a solve can read: ``tutor/strategy/*.py`` and, transitively, each module
    of ``tutor`` they import (the package ``__init__`` files on the way included), whether the
    import is at the top of the file or inside a function."""
    seen: set[Path] = set()
    looked_up: set[tuple[str, ...]] = set()  # a name (or its package) is looked for on disk once
    todo = sorted((PACKAGE / "strategy").glob("*.py"))
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        relative = path.relative_to(PACKAGE.parent).with_suffix("")
        package = tuple(relative.parts[:-1])  # where a relative import starts, __init__ or not
        for name in _imported_names(path.read_bytes(), package):
            parts = name.split(".")
            if parts[0] != PACKAGE.name:
                continue
            for end in range(1, len(parts) + 1):
                if tuple(parts[:end]) in looked_up:
                    continue
                looked_up.add(tuple(parts[:end]))
                found = _module_file(parts[:end])
                if found is not None and found not in seen:
                    todo.append(found)
    return sorted(seen)


@functools.lru_cache(maxsize=1024)
def _imported_names(source: bytes, package: tuple[str, ...]) -> tuple[str, ...]:
    """The modules (or modules' names) a source imports, wherever the import stands. Kept per
    source text, which is all the answer depends on: the key of a copy of the package with one
    file changed parses that file again, not the others."""
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1]) if node.level else []
            module = [*base, *(node.module.split(".") if node.module else [])]
            names.append(".".join(module))
            names += [".".join([*module, alias.name]) for alias in node.names]
    return tuple(names)


def _module_file(parts: list[str]) -> Path | None:
    where = PACKAGE.parent.joinpath(*parts)
    if (where / "__init__.py").is_file():
        return where / "__init__.py"
    if where.with_suffix(".py").is_file():
        return where.with_suffix(".py")
    return None  # a name imported from a module, not a module


def solutions_key() -> str:
    """A hash of the solver's sources (names and bytes), numpy's version and Python's."""
    import numpy

    digest = hashlib.sha256(f"{numpy.__version__} {sys.version}".encode())
    for path in solver_sources():
        digest.update(str(path.relative_to(PACKAGE.parent)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:24]


def _forget_old_keys(kept: Path) -> None:
    """Remove the folders of all but the ``KEEP_KEYS - 1`` most recently used keys."""
    folders = sorted(
        (entry for entry in kept.iterdir() if entry.is_dir()),
        key=lambda entry: entry.stat().st_mtime,
        reverse=True,
    )
    for old in folders[KEEP_KEYS - 1:]:
        shutil.rmtree(old, ignore_errors=True)
