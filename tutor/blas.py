"""One BLAS thread for the numpy this package loads, set before numpy is imported.

Why: the strategy's matrix products are many and small. OpenBLAS's default pool of one thread per
core gains nothing on them and, on a busy machine, spins for its share of every core (a cold
``tutor edge`` took 8.5-15.5 s of CPU instead of 1.5 s; ``TOOLING.md``). Before numpy is
imported, the environment says so (``OPENBLAS_NUM_THREADS``, inherited by the processes we start);
if numpy came first (a script, a test module or Streamlit importing it before us), the pool is
limited at run time with ``threadpoolctl``. A value the user set is left as it is.

Where: every module that loads numpy (or pandas, which loads it) at import time imports this
module first, before its numpy import (``tutor.strategy``'s package, so every strategy module;
the simulator's modules; ``tutor.progress``; ``tutor.spreadsheet``); ``tests/test_blas.py``
checks that none is missing. ``import tutor`` alone loads no numpy, and so sets nothing.
"""

from __future__ import annotations

import os
import sys

BLAS_THREADS = "OPENBLAS_NUM_THREADS"


def one_blas_thread() -> None:
    """Ask for one BLAS thread, unless the user chose a number: through the environment when
    numpy is not loaded yet, else through ``threadpoolctl``."""
    if BLAS_THREADS in os.environ:
        return
    os.environ[BLAS_THREADS] = "1"
    if "numpy" in sys.modules:
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=1, user_api="blas")


one_blas_thread()
