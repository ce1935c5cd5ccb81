"""What a ``tutor`` process costs beyond the arithmetic: BLAS threads, and what ``edge`` imports."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _python(code: str, **env: str) -> str:
    environment = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    environment.update(env)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True,
        timeout=300, check=True,
    )
    return done.stdout.strip()


THREADS = (
    "from threadpoolctl import threadpool_info; "
    "print(max(i['num_threads'] for i in threadpool_info() if i['user_api'] == 'blas'))"
)


def test_one_blas_thread_when_tutor_comes_before_numpy() -> None:
    assert _python(f"import tutor.strategy, numpy; {THREADS}") == "1"


def test_one_blas_thread_when_numpy_came_first() -> None:
    # Streamlit imports numpy before the app's code: the pool is limited at run time.
    assert _python(f"import numpy, tutor.strategy; {THREADS}") == "1"


def test_a_thread_count_the_user_set_is_kept() -> None:
    assert _python(f"import tutor.strategy, numpy; {THREADS}", OPENBLAS_NUM_THREADS="2") == "2"


def test_edge_never_imports_pandas(tmp_path: Path) -> None:
    code = (
        "import sys; from tutor.cli import main; main(['edge', '--rules', 'family']); "
        "print('pandas' in sys.modules)"
    )
    output = _python(code, TUTOR_DATA_DIR=str(tmp_path))
    assert output.splitlines()[-1] == "False"
