"""The ``python -m tutor`` command line: one argparse subcommand per job.

Each subcommand is registered by its own small ``_add_<name>`` function that declares its
arguments and sets ``run``, so engineers working on different layers can add a command without
touching each other's code. A command's ``run`` returns the process exit code rather than calling
``sys.exit``, which keeps it testable.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

Runner = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tutor", description="Blackjack Tutor command line."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_check(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    run: Runner = args.run
    return run(args)


# -- check: validate lesson files --------------------------------------------------------------


def _add_check(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "check",
        help="validate lesson files and report every mistake as file:line:col",
        description=(
            "Validate lesson files (schema, cards, scripted deals run through the engine, "
            "decisions against basic strategy, prerequisites, translations). Prints each problem "
            "as file:line:col: message and exits 1 if there is any."
        ),
    )
    parser.add_argument(
        "paths",
        nargs="*",
        type=Path,
        help="lesson files or folders of *.yaml files (default: lessons/)",
    )
    parser.add_argument(
        "--bilingual",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=(
            "require every text in both French and English (default: on for the built-in "
            "course in lessons/, off for other paths)"
        ),
    )
    parser.set_defaults(run=_run_check)


def _run_check(args: argparse.Namespace) -> int:
    # Imported here so that other subcommands do not pay for pydantic and the lesson models.
    from tutor.lessons.command import run_check

    return run_check(args.paths, bilingual=args.bilingual, out=sys.stdout, err=sys.stderr)
