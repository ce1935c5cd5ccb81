"""Strategy benchmark: the solve by rule set and by stage, the whole ``python -m tutor edge``
process cold and warm, ``tutor chart`` against ``tutor edge`` cold, the solve in process, advice,
and peak memory, for one, two, six and eight decks (the ``american-s17`` rules, resplits to four
hands, late surrender, with the number of decks changed).

- ``stage_<stage>_<preset>``: every preset solved cold in a fresh process (imports paid before
  the clock starts, an empty data folder), stage by stage, so that the next step is visible
  (issue 30): ``graph`` the hand graph and the rule set's solvers (which hands may double),
  ``dealer`` the dealer's tables per up-card (the finishing multisets and their
  design), ``hands`` every hand's dealer outcomes and unsplit values together with what the
  pairs split only once read (one batch of shoes and one pass per up-card: neither waits for a
  value), ``splits`` the resplits' dealer outcomes and every split value, ``edge`` the house
  edge's sum, ``chart`` the chart, ``save`` the saved file; ``solve`` their total. CPU seconds
  of the process (``time.process_time``: the solve runs on one thread, and CPU time moves less
  than wall time when other work shares the machine), medians of ``REPEATS`` processes.
- ``import_<module>``: ``python -X importtime -c "import tutor.strategy"`` in a fresh process,
  the cumulative import time of the strategy package and of the heaviest libraries it loads
  (wall seconds as Python reports them, medians of ``REPEATS`` processes): the part of a cold
  start paid before any solve.
- ``cold_chart`` against ``cold_edge``: ``python -m tutor chart`` and ``edge`` processes with an
  empty data folder, ``american-s17`` (CPU, peak memory, and their ratio).

- ``cold``: a fresh process with an empty data folder, so no saved solution: it imports, solves
  every up-card and pair, prints the edge and saves the solution.
- ``warm``: a fresh process whose data folder holds that saved solution.
- ``inprocess``: inside this process, every cache of the strategy cleared first (solutions, the
  dealer's sequences, the hand graph), imports already paid: the solve (``solve`` + house edge +
  chart) from nothing, and from the saved file.

Wall and CPU times of a process and its peak resident memory come from the operating system's
accounting of that child (``os.wait4``). One ``name: value unit`` line per figure, medians of
``REPEATS`` runs (this machine is shared and noisy: quote medians). The package itself keeps
BLAS to one thread (``tutor/__init__.py``); nothing is set here that a user would not set, and a
developer's ``PYTHONDONTWRITEBYTECODE`` is dropped for the timed processes (``user_environment``).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tutor.cards import Card, parse_cards
from tutor.decision import Action
from tutor.rules import PRESETS, TableRules
from tutor.strategy import advise, chart, house_edge, judge, saved
from tutor.strategy import dealer as dealer_module
from tutor.strategy import solution as solution_module
from tutor.strategy import solver as solver_module
from tutor.strategy.chart import _rows_by_hands, build_chart
from tutor.table import decision_for

REPEATS = 5
DECKS = (1, 2, 6, 8)
ROOT = Path(__file__).resolve().parents[1]


def rules_file(folder: Path, decks: int) -> Path:
    path = folder / f"american-s17-{decks}d.toml"
    path.write_text(f'preset = "american-s17"\ndecks = {decks}\n')
    return path


def user_environment(data: Path) -> dict[str, str]:
    """This environment as a user's would be: the data folder set, and Python allowed to keep
    the package's compiled bytecode (a development shell may say ``PYTHONDONTWRITEBYTECODE``;
    an installed package has its bytecode, so compiling the sources again on every run is not
    what a user meets)."""
    env = {**os.environ, "TUTOR_DATA_DIR": str(data)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def compile_package() -> None:
    """Write the package's bytecode before any timed run, as installing it does."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(ROOT / "tutor")], check=True,
        env=user_environment(ROOT / "data"),
    )


def run_edge(rules: Path | str, data: Path, command: str = "edge") -> tuple[float, float, float]:
    """One ``python -m tutor edge`` (or ``command``) process: wall seconds, CPU seconds, peak
    RSS in MiB."""
    env = user_environment(data)
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "tutor", command, "--rules", str(rules)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    errors = child.stderr.read().decode() if child.stderr else ""
    if child.stderr:
        child.stderr.close()
    if child.returncode:
        raise RuntimeError(f"tutor {command} failed: {errors}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def clear_caches() -> None:
    """Forget every solution and every table the strategy builds once per process."""
    solution_module._solve.cache_clear()
    dealer_module._all_sequences.cache_clear()
    dealer_module._design.cache_clear()
    solver_module.hand_graph.cache_clear()
    solver_module._may_double.cache_clear()
    solver_module._LAYOUTS.clear()
    _rows_by_hands.cache_clear()


def median_of(call: Callable[[], object]) -> float:
    """The median wall time of ``REPEATS`` calls."""
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def processes(folder: Path) -> None:
    for decks in DECKS:
        rules = rules_file(folder, decks)
        cold = []
        for repeat in range(REPEATS):
            data = folder / f"cold-{decks}-{repeat}"
            cold.append(run_edge(rules, data))
        warm_data = folder / f"cold-{decks}-0"  # holds the solution its cold run saved
        warm = [run_edge(rules, warm_data) for _ in range(REPEATS)]
        for name, runs in (("cold", cold), ("warm", warm)):
            print(f"{name}_wall_{decks}d: {statistics.median(r[0] for r in runs):.3f} s")
            print(f"{name}_cpu_{decks}d: {statistics.median(r[1] for r in runs):.3f} s")
            print(f"{name}_peak_rss_{decks}d: {max(r[2] for r in runs):.1f} MiB")


def solve_from_nothing(rules: TableRules, data: Path) -> None:
    clear_caches()
    for path in (data / "solutions").glob("*.npz"):
        path.unlink()
    house_edge(rules)
    chart(rules)


def solve_from_saved(rules: TableRules) -> None:
    solution_module._solve.cache_clear()
    house_edge(rules)
    chart(rules)


def in_process(folder: Path) -> None:
    for decks in DECKS:
        rules = PRESETS["american-s17"].replace(decks=decks)
        data = folder / f"inprocess-{decks}"
        os.environ["TUTOR_DATA_DIR"] = str(data)
        solve = median_of(lambda rules=rules, data=data: solve_from_nothing(rules, data))
        print(f"inprocess_solve_{decks}d: {solve:.3f} s")
        print(f"inprocess_saved_{decks}d: "
              f"{median_of(lambda rules=rules: solve_from_saved(rules)):.3f} s")
        size = sum(path.stat().st_size for path in (data / "solutions").glob("*.npz"))
        print(f"saved_file_{decks}d: {size / 2**20:.2f} MiB")
    print(f"solver_version: {saved.solver_version()} id")


def advice() -> None:
    rules = PRESETS["american-s17"]
    point = decision_for(rules, parse_cards("9S 7H"), Card.parse("TD"))
    judge(point, Action.HIT)
    for name, call in (("warm_advice", lambda: advise(point)),
                       ("warm_judgement", lambda: judge(point, Action.HIT))):
        samples = []
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(200):
                call()
            samples.append((time.perf_counter() - start) / 200)
        print(f"{name}: {statistics.median(samples) * 1000:.4f} ms")


STAGES = ("graph", "dealer", "hands", "splits", "edge", "chart", "save")


def stages_here(name: str) -> dict[str, float]:
    """Solve preset ``name`` from nothing in this (fresh) process, timing each stage in the
    order ``Solution.prepare`` runs them; the caches then make a later stage free of the work
    of an earlier one."""
    rules = PRESETS[name]
    times: dict[str, float] = {}

    def stage(stage_name: str, call: Callable[[], object]) -> None:
        start = time.process_time()
        call()
        times[stage_name] = time.process_time() - start

    made: list[solution_module.Solution] = []
    stage("graph", lambda: made.append(
        solution_module.Solution(rules, dealer_module.full_shoe(rules.decks))
    ))
    solution = made[0]

    stage("dealer", lambda: [
        dealer_module._design(up, rules.dealer_hits_soft_17, solver.conditioned)
        for up, solver in solution.ups.items()
    ])
    stage("hands", solution.prepare_hands)
    stage("splits", solution.prepare_splits)
    stage("edge", solution.house_edge)
    stage("chart", lambda: solution.cached("chart", lambda: build_chart(solution)))
    stage("save", lambda: saved.save(rules, solution.shoe, solution.snapshot()))
    return times


def stages(folder: Path) -> None:
    """Every preset's cold solve by stage, each run in a fresh process (see the docstring)."""
    for name in PRESETS:
        runs = []
        for repeat in range(REPEATS):
            done = subprocess.run(
                [sys.executable, str(Path(__file__).resolve()), "--stages", name], cwd=ROOT,
                env=user_environment(folder / f"stages-{name}-{repeat}"), capture_output=True,
                text=True, check=True,
            )
            runs.append(json.loads(done.stdout.splitlines()[-1]))
        for stage_name in STAGES:
            median = statistics.median(run[stage_name] for run in runs)
            print(f"stage_{stage_name}_{name}: {median:.4f} s")
        print(f"stage_solve_{name}: {statistics.median(sum(run.values()) for run in runs):.4f} s")


IMPORTED = ("tutor.strategy", "tutor.rules", "numpy", "pydantic")


def import_times() -> None:
    """The strategy package's import in a fresh process (``python -X importtime``), and the
    cumulative share of the heaviest modules it loads."""
    runs: dict[str, list[float]] = {module: [] for module in IMPORTED}
    for _ in range(REPEATS):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", "import tutor.strategy"], cwd=ROOT,
            env=user_environment(ROOT / "data"), capture_output=True, text=True, check=True,
        )
        seen: dict[str, float] = {}
        for line in done.stderr.splitlines():
            parts = line.split("|")
            if len(parts) == 3 and parts[1].strip().isdigit():
                seen.setdefault(parts[2].strip(), int(parts[1]) / 1e6)
        for module in IMPORTED:
            runs[module].append(seen.get(module, 0.0))
    for module, times in runs.items():
        print(f"import_{module}: {statistics.median(times):.4f} s")


def chart_against_edge(folder: Path) -> None:
    """Cold ``tutor chart`` and ``tutor edge`` processes on ``american-s17`` (issue 30: within
    10 % of each other, under 80 MiB)."""
    figures = {}
    for command in ("chart", "edge"):
        runs = [run_edge("american-s17", folder / f"{command}-{repeat}", command)
                for repeat in range(REPEATS)]
        figures[command] = (statistics.median(r[1] for r in runs), max(r[2] for r in runs))
        print(f"cold_{command}_cpu: {figures[command][0]:.3f} s")
        print(f"cold_{command}_peak_rss: {figures[command][1]:.1f} MiB")
    print(f"cold_chart_over_edge_cpu: {figures['chart'][0] / figures['edge'][0]:.3f} ratio")


def main() -> None:
    if sys.argv[1:2] == ["--stages"]:  # a child of ``stages``: one cold solve, one JSON line
        print(json.dumps(stages_here(sys.argv[2])))
        return
    with tempfile.TemporaryDirectory(prefix="bench-strategy-") as temporary:
        folder = Path(temporary)
        compile_package()
        import_times()
        stages(folder)
        chart_against_edge(folder)
        processes(folder)
        in_process(folder)
        advice()


if __name__ == "__main__":
    main()
