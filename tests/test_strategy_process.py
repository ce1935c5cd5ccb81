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


def test_chart_and_ev_never_import_pandas(tmp_path: Path) -> None:
    # Issue 30: pandas was 94 % of what a cold ``tutor chart`` cost beyond ``tutor edge``; the
    # chart's tables are plain data, and ``ev`` (whose judge reads the chart) gets them too.
    code = (
        "import sys; from tutor.cli import main; "
        "main(['chart', '--rules', 'family']); "
        "main(['chart', '--rules', 'family', '--format', 'csv']); "
        "main(['chart', '--rules', 'family', '--format', 'html']); "
        "main(['chart', '--rules', 'family', '--format', 'json']); "
        "main(['ev', '--rules', 'family', '--hand', 'A 7', '--dealer', '9']); "
        "print('pandas' in sys.modules)"
    )
    output = _python(code, TUTOR_DATA_DIR=str(tmp_path))
    assert output.splitlines()[-1] == "False"


def test_a_preset_solved_from_the_command_line_never_imports_pydantic(tmp_path: Path) -> None:
    # Issue 30 (cold): pydantic is for reading a rules mapping; a preset's solve needs none of it.
    code = (
        "import sys; from tutor.cli import main; main(['edge', '--rules', 'family']); "
        "print('pydantic' in sys.modules)"
    )
    output = _python(code, TUTOR_DATA_DIR=str(tmp_path))
    assert output.splitlines()[-1] == "False"


def test_a_rules_mapping_is_still_read_strictly_once_pydantic_is_loaded_on_first_use() -> None:
    code = (
        "import sys; from tutor.rules import TableRules, InvalidRulesError; "
        "print('pydantic' in sys.modules); "
        "print(TableRules.from_mapping({'preset': 'family', 'decks': 2}).decks)\n"
        "try:\n    TableRules.from_mapping({'decks': 2.5})\n"
        "except InvalidRulesError as error:\n    print(error.problems[0].message)"
    )
    assert _python(code).splitlines() == [
        "False", "2", "decks must be a whole number, not 2.5",
    ]
