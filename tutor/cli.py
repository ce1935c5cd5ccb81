"""The ``python -m tutor`` command line: one argparse subcommand per job.

Each subcommand is registered by its own small ``_add_<name>`` function that declares its
arguments and sets ``run``, so engineers working on different layers can add a command without
touching each other's code. A command's ``run`` returns the process exit code rather than calling
``sys.exit``, which keeps it testable.

Every mistake in the arguments, argparse's own included, is one line ``error: …`` on standard
error and exit code 2, never a traceback or a usage block: ``main`` returns 2 rather than raising
``SystemExit``, so a test sees the same thing a shell does.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn, cast

from tutor.cards import Card, Rank, Suit

_SUITS = tuple(Suit)

Runner = Callable[[argparse.Namespace], int]

#: The longest argument read: a path, a preset's name or a hand is far shorter, and an argument
#: past it is refused before any work (a file name past the system's own limit, 255 bytes a part
#: on Linux, is told in one line too, when the system refuses it).
MAX_ARGUMENT = 1024


class UsageError(Exception):
    """Arguments argparse refused; ``main`` prints the message on one line and returns 2."""


class _Parser(argparse.ArgumentParser):
    """An argparse parser whose errors raise ``UsageError`` instead of printing a usage block
    and exiting; subcommand parsers are of this class too (argparse copies the parent's)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m tutor", description="Blackjack Tutor command line.")
    commands = cast(
        "argparse._SubParsersAction[argparse.ArgumentParser]",
        parser.add_subparsers(dest="command", required=True, metavar="COMMAND"),
    )
    _add_check(commands)
    _add_chart(commands)
    _add_ev(commands)
    _add_edge(commands)
    _add_warm(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns its exit code (2 for any mistake in the arguments)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    for argument in arguments:
        if len(argument) > MAX_ARGUMENT:
            return _error(
                f"an argument of {len(argument)} characters is too long (at most {MAX_ARGUMENT}):"
                f" {_shortened(argument)}"
            )
    try:
        args = build_parser().parse_args(arguments)
    except UsageError as error:
        return _error(str(error))
    except SystemExit as done:  # --help printed its text
        return done.code if isinstance(done.code, int) else 0
    run: Runner = args.run
    try:
        return run(args)
    except BrokenPipeError:
        # The reader went away (``| head``): not an error of ours, and no traceback. Point
        # stdout at nothing so that Python's final flush does not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        return 130
    except OSError as error:  # a name the system refuses (too long, a loop of links): one line
        name = _shortened(str(error.filename)) if error.filename is not None else "a file"
        return _error(f"{name}: {error.strerror or error}")


def _shortened(text: str, most: int = 60) -> str:
    """``text`` quoted, cut to its first ``most`` characters: a line of error, not a screen.

    >>> _shortened("x" * 100, most=5)
    "'xxxxx…' (100 characters)"
    """
    if len(text) <= most:
        return repr(text)
    return f"{text[:most]!r}"[:-1] + f"…' ({len(text)} characters)"


def _error(message: str) -> int:
    """Print ``error: message`` as one line on standard error; the exit code for bad input."""
    print(f"error: {' '.join(message.split())}", file=sys.stderr)
    return 2


# -- warm: the simulator's machine code, ready before a learner waits for it --------------------


def _add_warm(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "warm",
        help="compile the simulator's loop now (run by make install and deploy/school start)",
        description=(
            "Compile the simulator's loop, or load it from numba's cache, so that the first "
            "simulation after an install plays at full speed. Prints the seconds it took."
        ),
    )
    parser.set_defaults(run=_run_warm)


def _run_warm(args: argparse.Namespace) -> int:
    from tutor.simulate import warm

    print(f"simulator ready: {warm():.1f} s")
    return 0


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
        help=(
            "lesson files or folders of *.yaml files, checked beside the built-in course and the"
            " folders of TUTOR_LESSONS_DIR (default: those)"
        ),
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
    parser.add_argument(
        "--lang",
        choices=("fr", "en"),
        default=None,
        help="the language of the messages (default: the environment's, from LC_ALL or LANG)",
    )
    parser.set_defaults(run=_run_check)


def _run_check(args: argparse.Namespace) -> int:
    # Imported here so that other subcommands do not pay for pydantic and the lesson models.
    from tutor.lessons.command import language_from_environment, run_check

    language = args.lang or language_from_environment()
    if language == "en":  # the checker's own English, as the logs and LESSON_FORMAT.md word it
        return run_check(args.paths, bilingual=args.bilingual, out=sys.stdout, err=sys.stderr)
    from tutor.render.lesson_problems import problem_text
    from tutor.render.translator import translator

    t = translator(language)
    return run_check(
        args.paths,
        bilingual=args.bilingual,
        out=sys.stdout,
        err=sys.stderr,
        say=lambda problem: problem_text(problem, t),
        t=t,
    )


# -- strategy: chart, ev, edge -------------------------------------------------------------------

_RULES_HELP = "a preset name or a TOML/YAML rules file (preset = ... plus overrides)"


def _add_chart(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "chart", help="print the basic-strategy chart computed for a rule set",
        description="Basic-strategy chart derived from exact EVs: hard, soft, pairs, surrender.",
    )
    parser.add_argument("--rules", required=True, help=_RULES_HELP)
    parser.add_argument("--format", choices=("text", "csv", "html", "json"), default="text")
    parser.set_defaults(run=_run_chart)


def _run_chart(args: argparse.Namespace) -> int:
    # No pandas on this path (issue 30): the tables are plain data, laid out by chart_formats.
    import json

    from tutor.rules import InvalidRulesError
    from tutor.rules_file import load_rules
    from tutor.strategy import chart
    from tutor.strategy.chart_formats import as_csv, as_html, as_text

    try:
        rules = load_rules(args.rules)
    except InvalidRulesError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    tables = chart(rules).codes
    if args.format == "json":
        data = {name: table.as_dict() for name, table in tables.items()}
        print(json.dumps({"rules": rules.name, **data}, indent=2))
        return 0
    for name, table in tables.items():
        if args.format == "csv":
            print(f"# {name}")
            print(as_csv(table), end="")
        elif args.format == "html":
            print(f"<h2>{name}</h2>")
            print(as_html(table))
        else:
            print(f"{name} ({rules.name})")
            print(as_text(table) if len(table) else "(none)")
            print()
    return 0


def _add_ev(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "ev", help="exact EV of every action for one hand against one up-card",
        description="EVs per unit bet, composition-dependent, given no natural after a peek.",
    )
    parser.add_argument("--rules", required=True, help=_RULES_HELP)
    parser.add_argument("--hand", required=True, help='the player\'s cards, e.g. "A 7" or "T 6"')
    parser.add_argument("--dealer", required=True, help="the dealer's up-card, e.g. 9 or A")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=_run_ev)


def _run_ev(args: argparse.Namespace) -> int:
    import json

    from tutor.cards import InvalidCardError, parse_ranks
    from tutor.rules import InvalidRulesError
    from tutor.rules_file import load_rules
    from tutor.strategy import judge
    from tutor.table import decision_for

    try:
        rules = load_rules(args.rules)
        ranks = parse_ranks(args.hand)
        dealer = parse_ranks(args.dealer)
    except (InvalidRulesError, InvalidCardError, ValueError) as error:
        return _error(str(error))
    if len(dealer) != 1:
        return _error(f"give the dealer's up-card as one card, such as 9 or A, not {args.dealer!r}")
    (up,) = dealer
    if len(ranks) < 2:
        return _error("give at least two cards")
    impossible = shoe_shortfall(ranks, up, decks=rules.decks)
    if impossible is not None:
        return _error(impossible)
    cards, up_card = _with_suits(ranks, up)
    try:
        # The engine deals the hand and says which actions are legal, as at the table.
        point = decision_for(rules, cards, up_card)
    except ValueError as error:
        return _error(str(error))
    advice = judge(point)
    if args.json:
        print(json.dumps({
            "rules": rules.name, "hand": args.hand, "dealer": up.symbol,
            "evs": {a.value: ev for a, ev in advice.evs.items()}, "best": advice.exact_play.value,
            "chart": advice.chart_play.value,
            "reason": {"key": advice.reason.key, "params": dict(advice.reason.params)},
        }, indent=2))
        return 0
    conditioned = rules.dealer_peeks and (up is Rank.ACE or up.points == 10)
    note = " (given no dealer natural)" if conditioned else ""
    print(f"{args.hand} against {up.symbol}, {rules.name}{note}:")
    for action, ev in sorted(advice.evs.items(), key=lambda item: -item[1]):
        marks = []
        if action is advice.exact_play:
            marks.append("best for these cards")
        if action is advice.chart_play:
            marks.append("the chart's play")
        mark = f"  <- {', '.join(marks)}" if marks else ""
        print(f"  {action.value:<10} {ev:+.6f}{mark}")
    return 0


def shoe_shortfall(ranks: Sequence[Rank], up: Rank, *, decks: int) -> str | None:
    """Why the shoe cannot hold this hand and up-card (a sentence naming the card), or None.

    A deck holds four cards of each rank, so eleven Aces cannot come from one deck; the EV of
    such a hand would be a number about a game that cannot happen.

    >>> from tutor.cards import Rank
    >>> shoe_shortfall([Rank.ACE] * 11, Rank.NINE, decks=1)
    'the hand and the up-card hold 11 Aces, but 1 deck holds only 4'
    >>> shoe_shortfall([Rank.ACE] * 3, Rank.ACE, decks=1) is None
    True
    """
    counts = Counter([*ranks, up])
    for rank, count in counts.items():
        held = 4 * decks
        if count > held:
            plural = "deck holds" if decks == 1 else "decks hold"
            return (
                f"the hand and the up-card hold {count} {_rank_name(rank, count)}, but {decks} "
                f"{plural} only {held}"
            )
    return None


def _rank_name(rank: Rank, count: int) -> str:
    name = rank.name.capitalize()  # ACE -> Ace, TWO -> Two
    return name + ("s" if count != 1 else "")


def _with_suits(ranks: Sequence[Rank], up: Rank) -> tuple[tuple[Card, ...], Card]:
    """The cards with suits dealt in turn per rank, so four Aces from one deck are four cards."""
    seen: Counter[Rank] = Counter()
    cards: list[Card] = []
    for rank in [*ranks, up]:
        cards.append(Card(rank, _SUITS[seen[rank] % 4]))
        seen[rank] += 1
    return tuple(cards[:-1]), cards[-1]


def _add_edge(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "edge", help="the exact house edge of a rule set",
        description="House edge: first round from a full shoe, composition-dependent optimal play.",
    )
    parser.add_argument("--rules", required=True, help=_RULES_HELP)
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(run=_run_edge)


EDGE_CONVENTION = (
    "first round from a full shoe; each initial hand played composition-dependent optimally "
    "(stand/hit/double/split/surrender); one split: split hands played optimally for the shoe "
    "without the pair; resplits: exact, every split hand's cards out as dealt, split hands "
    "played as unsplit hands; no insurance"
)


def _run_edge(args: argparse.Namespace) -> int:
    import json

    from tutor.rules import InvalidRulesError
    from tutor.rules_file import load_rules
    from tutor.strategy import house_edge

    try:
        rules = load_rules(args.rules)
    except InvalidRulesError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    edge = house_edge(rules)
    if args.json:
        print(json.dumps({"rules": rules.name, "house_edge": edge, "convention": EDGE_CONVENTION}))
        return 0
    print(f"{rules.name}: house edge {edge * 100:.4f} % of the initial bet")
    print(f"convention: {EDGE_CONVENTION}")
    return 0
