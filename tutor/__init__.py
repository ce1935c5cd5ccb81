"""Blackjack Tutor: lessons, a real rules engine, exact basic strategy and a decision quiz.

One BLAS thread, set here once for the whole package (the command line, the app's pages, the
class server, the tests and the benchmarks). The strategy's matrix products are many and small:
OpenBLAS's default pool of one thread per core gains nothing on them and, on a busy machine,
spins for its share of every core (a cold ``tutor edge`` took 8.5-15.5 s of CPU instead of 1.5 s).
Before numpy is imported, the environment says so (``OPENBLAS_NUM_THREADS``, inherited by the
processes we start); if numpy came first (a script or a test module importing it before the
package), the pool is limited at run time with ``threadpoolctl``. The app's server loads numpy
only through the package (measured with ``-X importtime``: Streamlit 1.67 itself does not import
it before running ``app.py``). A value the user set is left as it is.
"""

from __future__ import annotations

import os
import sys

_BLAS_THREADS = "OPENBLAS_NUM_THREADS"


def _one_blas_thread() -> None:
    if _BLAS_THREADS in os.environ:
        return
    os.environ[_BLAS_THREADS] = "1"
    if "numpy" in sys.modules:
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=1, user_api="blas")


_one_blas_thread()
