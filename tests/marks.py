"""The pytest marks the browser tests share (``pytestmark = BROWSER``), kept on the test side: the
served app and the page helpers they drive are in ``serving.py``, which imports no pytest so that
the benchmarks can use it too."""

from __future__ import annotations

import importlib.util

import pytest

from serving import CHROMIUM

#: The marks of every browser test module: skipped, saying why, where chromium or Playwright is
#: missing.
BROWSER = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's chromium is not installed (/usr/bin/chromium): apt-get install chromium",
    ),
    pytest.mark.skipif(
        importlib.util.find_spec("playwright") is None, reason="Playwright is not installed"
    ),
]
