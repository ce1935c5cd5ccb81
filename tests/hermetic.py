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
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

#: Set by the process that made the run's folder, for the xdist workers it starts.
OWNER = "TUTOR_TEST_HERMETIC_DIR"


def pytest_configure(config: pytest.Config) -> None:
    inherited = os.environ.get(OWNER)
    if inherited is not None and os.environ.get("PYTEST_XDIST_WORKER"):
        os.environ["TUTOR_DATA_DIR"] = inherited  # the run's folder, made by the controller
        return
    folder = tempfile.mkdtemp(prefix="tutor-test-data-")
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
