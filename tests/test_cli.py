"""The command line (issue 14): every mistake is one line ``error: …`` and exit code 2.

The probe's 105 runs ended 9 times in a traceback; these are those mistakes and their kin, run
through ``main`` (what a test sees) and, for a few, through a real ``python -m tutor`` process
(what a shell sees).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tutor.cards import Rank
from tutor.cli import main, shoe_shortfall

ROOT = Path(__file__).resolve().parents[1]

BAD = [
    ([], "the following arguments are required: COMMAND"),
    (["bogus"], "invalid choice: 'bogus'"),
    (["ev"], "the following arguments are required: --rules, --hand, --dealer"),
    (["ev", "--rules", "family", "--hand", "A 7"], "required: --dealer"),
    (["ev", "--rules", "family", "--hand", "A 7", "--dealer", ""], "the dealer's up-card as one"),
    (["ev", "--rules", "family", "--hand", "A 7", "--dealer", "A 7"], "as one card"),
    (["ev", "--rules", "family", "--hand", "A", "--dealer", "9"], "at least two cards"),
    (["ev", "--rules", "family", "--hand", "Z 7", "--dealer", "9"], "'Z' is not a card"),
    (["ev", "--rules", "family", "--hand", "A 7", "--dealer", "Z"], "'Z' is not a card"),
    (["ev", "--rules", "family", "--hand", "T A", "--dealer", "9"], "no decision to make"),
    (["ev", "--rules", "family", "--hand", "A " * 11, "--dealer", "9"],
     "the hand and the up-card hold 11 Aces, but 1 deck holds only 4"),
    (["ev", "--rules", "family", "--hand", "2 2 2 2 3", "--dealer", "2"],
     "hold 5 Twos, but 1 deck holds only 4"),
    (["ev", "--rules", "american-s17", "--hand", "K " * 25, "--dealer", "5"],
     "hold 25 Kings, but 6 decks hold only 24"),
    (["ev", "--rules", "vegas", "--hand", "A 7", "--dealer", "9"], "neither a preset"),
    (["ev", "--rules", "family", "--hand", "A 7", "--dealer", "9", "--extra"],
     "unrecognized arguments: --extra"),
    (["chart", "--rules", "family", "--format", "pdf"], "invalid choice: 'pdf'"),
    (["edge"], "required: --rules"),
    (["edge", "--rules", "/"], "neither a preset"),
]


@pytest.mark.parametrize(("argv", "message"), BAD, ids=[" ".join(a)[:40] for a, _ in BAD])
def test_a_bad_argument_is_one_error_line_and_exit_code_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith("error: ")
    assert message in line


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("no.toml", 'preset = "family"\ndealer_hits_soft_17 = "no"\n', "must be true or false"),
        ("half.toml", 'preset = "family"\nmax_hands = 2.5\n', "max_hands must be a whole number"),
        ("syntax.toml", "preset = \n", "the TOML does not parse"),
        ("bomb.yaml", "a: &a [1, 1]\nb: [*a, *a]\n", "aliases and anchors are not allowed"),
        ("ff.yaml", "decks: \x0c\n", "the YAML does not parse"),
    ],
)
def test_a_bad_rules_file_is_one_error_line(
    tmp_path: Path, name: str, content: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    assert main(["edge", "--rules", str(path)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"error: {path}: ")
    assert message in line


def test_four_aces_from_one_deck_are_a_hand_not_an_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["ev", "--rules", "family", "--hand", "A A A", "--dealer", "A"]) == 0
    assert "A A A against A" in capsys.readouterr().out


def test_the_shortfall_names_the_card_and_the_shoe() -> None:
    assert shoe_shortfall([Rank.TEN] * 5, Rank.TEN, decks=1) == (
        "the hand and the up-card hold 6 Tens, but 1 deck holds only 4"
    )
    assert shoe_shortfall([Rank.TEN] * 4, Rank.JACK, decks=1) is None


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tutor", *argv],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )


def test_a_real_process_prints_one_error_line_and_exits_2() -> None:
    for argv in (["ev", "--rules", "family", "--hand", "A 7", "--dealer", ""], ["nothing"]):
        done = _run(*argv)
        assert done.returncode == 2
        assert "Traceback" not in done.stderr
        (line,) = done.stderr.splitlines()
        assert line.startswith("error: ")


def test_a_real_process_refuses_eleven_aces_naming_the_card() -> None:
    done = _run("ev", "--rules", "family", "--hand", "A A A A A A A A A A A", "--dealer", "9")
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "error: the hand and the up-card hold 11 Aces, but 1 deck holds only 4"
    )
    assert done.stdout == ""


LONG = [
    (["edge", "--rules", "x" * 300], "(300 characters): File name too long"),
    (["chart", "--rules", "r" * 256], "(256 characters): File name too long"),
    (["check", "/tmp/" + "a" * 300], "(305 characters): File name too long"),
    (["check", "a/" * 600], "an argument of 1200 characters is too long (at most 1024)"),
    (["ev", "--rules", "family", "--hand", "A " * 600, "--dealer", "9"], "is too long"),
    (["edge", "--rules", "y" * 10_000_000], "an argument of 10000000 characters is too long"),
]


@pytest.mark.parametrize(("argv", "message"), LONG, ids=[a[0] + str(len(a[-1])) for a, _ in LONG])
def test_a_name_too_long_is_one_short_error_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A rules name or a path longer than the system takes (255 bytes a part on Linux) or than
    any real one (1024 characters): one line that quotes only its start, never a traceback."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    (line,) = captured.err.splitlines()
    assert line.startswith("error: ")
    assert message in line
    assert len(line) < 200


def test_a_real_process_says_a_long_rules_name_in_one_line() -> None:
    done = _run("edge", "--rules", "x" * 300)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("error: 'xxx")


@pytest.mark.parametrize(
    "content",
    ["root:x:0:0:s3cr3t-hash:/root:/bin/bash\n", "12345678\n", "- s3cr3t-one\n- two\n"],
)
def test_check_on_a_file_that_is_no_lesson_never_quotes_it(
    content: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tutor check`` may be given any readable file (a password file): its error names the
    file and what it holds by kind, never its content."""
    path = tmp_path / "shadow"
    path.write_text(content, encoding="utf-8")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr()
    said = out.out + out.err
    assert f"{path}:1:1: a lesson file is a mapping of keys" in said
    assert "s3cr3t" not in said
    assert "12345678" not in said
