"""The fast lane's configuration, checked: ``make check`` runs every test not marked slow or
browser on two workers, the marks stand in the test files (no hook adds or removes one at
collection), and what the tests keep once per process (``tests/conftest.py``) is kept there and
only there: the app itself hashes teacher keys at its own cost."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from streamlit.components.v2 import manifest_scanner
from streamlit.testing.v1 import AppTest, app_test

from tests.conftest import TEST_SCRYPT, _ScriptsCompiledOnce
from tutor.classroom import access

ROOT = Path(__file__).resolve().parents[1]


def _recipe(target: str) -> str:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    found = re.search(rf"^{target}:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert found is not None, f"no {target} target in the Makefile"
    return found.group(1).replace("\\\n", " ")


def test_make_check_runs_the_unmarked_tests_on_two_workers() -> None:
    recipe = _recipe("check")
    assert "TUTOR_FAST_LANE=1" in recipe
    assert re.search(r"-n 2\b", recipe)
    assert "--dist worksteal" in recipe
    assert '-m "not slow and not browser"' in recipe


def test_make_test_runs_everything() -> None:
    recipe = _recipe("test")
    assert "pytest" in recipe
    assert "pytest -m" not in recipe
    assert ' -m "' not in recipe
    assert "-k " not in recipe
    assert "TUTOR_FAST_LANE" not in recipe


def test_no_hook_marks_or_drops_tests_at_collection() -> None:
    """A test is slow because its file says so: no plugin of ours changes the lane's list."""
    for source in [ROOT / "tests" / "conftest.py", ROOT / "tests" / "hermetic.py"]:
        tree = ast.parse(source.read_text(encoding="utf-8"))
        hooks = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        assert not hooks & {"pytest_collection_modifyitems", "pytest_itemcollected",
                            "pytest_deselected", "pytest_ignore_collect"}, source


def test_the_app_hashes_keys_at_its_own_cost_and_the_tests_at_theirs() -> None:
    assert access.SCRYPT_COST["n"] == 2**14
    assert access.SCRYPT_COST["r"] == 8
    assert access._SCRYPT is TEST_SCRYPT
    assert TEST_SCRYPT["n"] < access.SCRYPT_COST["n"]
    # the module as the app imports it (no test has touched it) uses the app's cost
    source = (ROOT / "tutor" / "classroom" / "access.py").read_text(encoding="utf-8")
    assert re.search(r"^_SCRYPT: Mapping\[str, int\] = SCRYPT_COST$", source, re.MULTILINE)
    stored = access.hash_key("ABCDE-FGHJK-MNPQR")
    assert access.key_matches("ABCDE-FGHJK-MNPQR", stored)
    assert not access.key_matches("ABCDE-FGHJK-MNPQS", stored)


@pytest.mark.usefixtures("real_scrypt")
def test_a_test_can_ask_for_the_apps_cost() -> None:
    assert access._SCRYPT is access.SCRYPT_COST
    stored = access.hash_key("ABCDE-FGHJK-MNPQR")
    assert access.key_matches("ABCDE-FGHJK-MNPQR", stored)


def test_the_component_scan_is_made_once_per_process() -> None:
    """Each ``AppTest`` scans the installed packages for Streamlit components; the tests keep
    the scan's answer (no package is installed while they run)."""
    scan = manifest_scanner.scan_component_manifests
    assert hasattr(scan, "cache_info")
    assert scan() == scan()
    assert scan.cache_info().hits >= 1


def test_a_script_changed_between_runs_is_compiled_again(tmp_path: Path) -> None:
    """The compiled scripts the tests keep (``_ScriptsCompiledOnce``) are kept per file state."""
    script = tmp_path / "page.py"
    script.write_text('import streamlit as st\nst.write("one")\n', encoding="utf-8")
    first = AppTest.from_file(str(script)).run()
    assert [block.value for block in first.markdown] == ["one"]
    script.write_text('import streamlit as st\nst.write("two, then")\n', encoding="utf-8")
    second = AppTest.from_file(str(script)).run()
    assert [block.value for block in second.markdown] == ["two, then"]
    assert app_test.ScriptCache is _ScriptsCompiledOnce
