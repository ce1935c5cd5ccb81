"""Solved rule sets kept on disk, so that a rule set solved once is instant in every process.

Where: ``<data folder>/solutions/`` (the data folder is ``TUTOR_DATA_DIR``, default ``./data``, the
one the database lives in). One file per rule set and shoe, named by a hash of its key: the
rules (the table's name and source aside, as they change no EV), the shoe (a full shoe of the
rules' decks, or the infinite deck) and the solver's version, which is a hash of the solver's own
source (:mod:`.solver`, :mod:`.dealer`, :mod:`.hands`, :mod:`.patterns`): a changed solver never
reads an older solution.

What: each up-card's dealer outcomes for every initial and drawn hand, and every split value the
house edge and the chart ask for (:meth:`tutor.strategy.solver.UpCardSolver.snapshot`); the hand
values follow from those in a few milliseconds. About 1.1 MB per rule set, uncompressed:
compressing took longer than reading the larger file saves.

Safe when several processes (the app's servers, a command run beside them) write at once: a file
is written under a temporary name in the same folder and renamed over the final one
(``os.replace`` is atomic), so a reader sees a whole file or none. A file that cannot be read, or
that holds another key, is left alone with a line in the log and the rule set is solved again; a
folder that cannot be written to only costs the saving. The folder holds the presets' files and at
most ``KEEP`` others: the least recently used of those go first, the presets' never.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import tempfile
import zipfile
from functools import lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from tutor.rules import PRESETS, TableRules
from tutor.strategy.dealer import Composition, full_shoe

log = logging.getLogger(__name__)

#: At most this many saved rule sets (about 1.1 MB each); the least recently used are removed.
KEEP = 64
#: Bumped by hand when the meaning of a saved file changes without the solver's source changing.
FORMAT = 1

Arrays = dict[str, npt.NDArray[np.generic]]


def folder() -> Path:
    """``<TUTOR_DATA_DIR or ./data>/solutions``, read at each call (tests point it elsewhere)."""
    return Path(os.environ.get("TUTOR_DATA_DIR", "data")) / "solutions"


@lru_cache(maxsize=1)
def solver_version() -> str:
    """A hash of the solver's source: any change to how values are computed gives a new key."""
    digest = hashlib.sha256(f"format {FORMAT}".encode())
    here = Path(__file__).resolve().parent
    for name in ("solver.py", "dealer.py", "hands.py", "patterns.py"):
        digest.update((here / name).read_bytes())
    return digest.hexdigest()[:16]


def key_text(rules: TableRules, shoe: Composition | None) -> str:
    """The rule set, shoe and solver version as one line of JSON (stored in the file too)."""
    options = {
        name: value for name, value in rules.as_dict().items() if name not in ("name", "source")
    }
    return json.dumps(
        {"rules": options, "shoe": None if shoe is None else list(shoe),
         "solver": solver_version()},
        sort_keys=True,
    )


def path_for(key: str) -> Path:
    return folder() / f"{hashlib.sha256(key.encode()).hexdigest()[:32]}.npz"


def load(rules: TableRules, shoe: Composition | None) -> Arrays | None:
    """The saved arrays of this rule set and shoe, or None (never saved, unreadable, foreign)."""
    key = key_text(rules, shoe)
    path = path_for(key)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays: Arrays = {name: data[name] for name in data.files}
    except FileNotFoundError:
        return None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        log.warning("saved solution %s unreadable, solving again: %s", path, error)
        return None
    stored = arrays.pop("key", None)
    if stored is None or str(stored) != key:
        log.warning("saved solution %s holds another rule set, solving again", path)
        return None
    with contextlib.suppress(OSError):
        os.utime(path)  # recently used: kept longest
    return arrays


def save(rules: TableRules, shoe: Composition | None, arrays: Arrays) -> None:
    """Save atomically (temporary file, then rename); a failure is logged, never raised."""
    key = key_text(rules, shoe)
    path = path_for(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".saving-", suffix=".npz")
        try:
            with os.fdopen(handle, "wb") as out:
                np.savez(out, key=np.array(key), **arrays)  # type: ignore[arg-type]
            os.chmod(temporary, 0o644)  # mkstemp's 0600 would hide it from another server user
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
        _trim(path.parent)
    except OSError as error:
        log.warning("could not save the solution of %s in %s: %s", rules.name, path.parent, error)


def preset_paths() -> frozenset[Path]:
    """The files of the presets' solutions (a full shoe and the infinite deck): never trimmed,
    whatever other tables are saved after them, since every page and class plays at them."""
    return frozenset(
        path_for(key_text(rules, shoe))
        for rules in PRESETS.values()
        for shoe in (full_shoe(rules.decks), None)
    )


def _trim(where: Path) -> None:
    """Keep the ``KEEP`` most recently used files besides the presets' (``preset_paths``), and
    no stale temporary file of a crash."""
    pinned = {path.name for path in preset_paths()}
    entries = []
    for entry in where.iterdir():
        try:
            stat = entry.stat()
        except OSError:
            continue
        if entry.name.startswith(".saving-"):
            # Another process may be writing it now: only a file an hour old is abandoned.
            if stat.st_mtime < _now() - 3600:
                with contextlib.suppress(OSError):
                    entry.unlink()
            continue
        if entry.suffix == ".npz" and entry.name not in pinned:
            entries.append((stat.st_mtime, entry))
    entries.sort(reverse=True)
    for _, entry in entries[KEEP:]:
        with contextlib.suppress(OSError):
            entry.unlink()


def _now() -> float:
    import time

    return time.time()
