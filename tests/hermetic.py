"""A pytest plugin (``-p tests.hermetic`` in pyproject's addopts): the run's data folder is a
temporary one, so no test reads or writes the repository's ``data/`` (the database's default
home and the saved strategy solutions, ``tutor.strategy.saved``). Fixtures that need a folder of
their own (``open_app``, the served app) still set ``TUTOR_DATA_DIR`` themselves; everything else,
the command line run in a subprocess included, shares this one, so a rule set is solved once per
run rather than once per test process.
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest


def pytest_configure(config: pytest.Config) -> None:
    folder = tempfile.mkdtemp(prefix="tutor-test-data-")
    previous = os.environ.get("TUTOR_DATA_DIR")
    os.environ["TUTOR_DATA_DIR"] = folder

    def restore() -> None:
        if previous is None:
            os.environ.pop("TUTOR_DATA_DIR", None)
        else:
            os.environ["TUTOR_DATA_DIR"] = previous
        shutil.rmtree(folder, ignore_errors=True)

    config.add_cleanup(restore)
