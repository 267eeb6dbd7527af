"""Speed against fixed anchors, in one run: ``python -m evaluation.speed`` (``make bench``).

Our engines' decisions/s beside OpenSpiel's C++ chess, backgammon and connect_four (through ``pyspiel``),
our Gymnasium and PettingZoo AEC envs' steps/s beside PettingZoo's pure-Python ``connect_four_v3``, all
measured by the same loops (:mod:`evaluation.bench_worker`: uniformly random legal moves from
``random.Random``, the validated ``apply``, masks read every step) in CPU time (``time.process_time``),
in interleaved rounds: every round measures every item once, so a busy spell on a shared machine costs
all of them alike. Each figure is the median of the rounds with its range [min-max]; each ratio is
taken within a round (ours / the anchor measured beside it), then its median and range.

``--base PATH`` also measures a saved copy of an older tree (e.g. ``git worktree add /tmp/base <commit>``,
kept outside the repository) in its own worker process, in the same rounds, and prints each figure's
ratio to it: "before and after" from one run.

Sections (``--section``, default ``engines envs``):

* ``engines``: decisions/s of every option set the games' specs benchmark (validated ``apply``, a fresh
  legal list per decision);
* ``envs``: Gym learner steps/s per side (random opponent) and AEC turns/s;
* ``search``: ``mcts:200`` (``--search-spec``) simulations/s and ms per decision on positions of a
  heuristic game, for the featured games (:class:`fof_env.core.ruleset.GameSpec`) (long);
* ``train``: ``fof train``'s default PPO set-up (16 envs, the heuristic opponent, one torch thread),
  learner steps/s of CPU over ``--train-steps`` (long);
* ``loadtest``: ``fof loadtest`` against a local server (wall-clock latencies, not CPU; long).

``--check`` (``make bench-check``): the engines section of this tree only, each game's median ratio to
OpenSpiel chess compared with the ratios stored in ``evaluation/bench_ratios.json``; it fails (exit 1)
when any game falls more than 15% below its stored ratio in this run and again in a second run of as
many rounds over the games it flagged and their reference alone (:func:`confirm`: on a shared machine
a busy spell can drag one game's median down once; a slower engine is slower both times). Without
``pyspiel`` it compares the ratios to
PettingZoo ``connect_four_v3`` (pure Python, the fallback reference stored beside them) and says so.
``--store`` rewrites that file from this run. open_spiel is a bench-only dependency (``pip install
'.[bench]'``); a missing reference is skipped with a line saying so.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from fof_env.core.registry import game_specs, make_game

ROOT = Path(__file__).resolve().parent.parent
WORKER = Path(__file__).resolve().parent / "bench_worker.py"
RATIOS_FILE = Path(__file__).resolve().parent / "bench_ratios.json"
CHESS = "OpenSpiel chess"
CONNECT_FOUR = "PettingZoo connect_four_v3"
TOLERANCE = 0.15



def _engines() -> tuple[tuple[str, str, dict[str, Any]], ...]:
    """(label, game, options) of every option set a game's spec benchmarks (its ``bench`` variants)."""
    return tuple((v.label, spec.name, dict(v.options)) for spec in game_specs() for v in spec.bench)


def _featured() -> tuple[tuple[str, str], ...]:
    """(label, game) of the featured games: the label of their first benchmarked option set."""
    return tuple((spec.bench[0].label if spec.bench else spec.title, spec.name)
                 for spec in game_specs() if spec.featured)  # fmt: skip


# (label, game, options): the engines measured; labels are the keys of bench_ratios.json
ENGINES = _engines()
ENV_GAMES = tuple(e for e in ENGINES if not e[2])  # the envs at each game's default options
SPIEL_GAMES = (("OpenSpiel chess", "chess"), ("OpenSpiel backgammon", "backgammon"),
               ("OpenSpiel connect_four", "connect_four"))  # fmt: skip
SEARCH_GAMES = _featured()  # and the training benchmark, each for its first side
SECTIONS = ("engines", "envs", "search", "train", "loadtest")


@dataclass
class Item:
    """One figure: ``label``, its unit, the worker request, whether the base tree measures it too
    (anchors are the same library in every tree) and its anchor's label (None: none)."""

    label: str
    unit: str
    request: dict[str, Any]
    both_trees: bool = True
    anchor: str | None = None
    rounds: dict[str, list[float]] = field(default_factory=dict)  # tree -> rate per round
    extra: dict[str, list[float]] = field(default_factory=dict)  # tree -> ms per decision (search)
    error: str | None = None


class Worker:
    """A :mod:`evaluation.bench_worker` process with ``tree`` first on its path."""

    def __init__(self, tree: Path):
        env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
        self.tree = tree
        self.proc = subprocess.Popen(
            [sys.executable, str(WORKER)], cwd=tree, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True,
        )  # fmt: skip

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the bench worker for {self.tree} died (exit {self.proc.wait()})")
        return json.loads(line)

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


def engine_items(seconds: float, with_anchors: bool = True) -> list[Item]:
    items = []
    if with_anchors:
        items += [Item(label, "decisions/s", {"op": "spiel", "game": name, "seconds": seconds}, both_trees=False)
                  for label, name in SPIEL_GAMES]  # fmt: skip
        items.append(Item(CONNECT_FOUR, "turns/s", {"op": "pettingzoo_connect_four", "seconds": seconds},
                          both_trees=False))  # fmt: skip
    for label, game, options in ENGINES:
        request = {"op": "engine", "game": game, "options": options, "seconds": seconds}
        items.append(Item(label, "decisions/s", request, anchor=CHESS))
    return items


def env_items(seconds: float) -> list[Item]:
    items = [Item(CONNECT_FOUR, "turns/s", {"op": "pettingzoo_connect_four", "seconds": seconds}, both_trees=False)]
    for label, game, options in ENV_GAMES:
        for side in (0, 1):
            request = {"op": "gym", "game": game, "options": options, "side": side, "seconds": seconds}
            items.append(Item(f"{label} Gym, side {side}", "steps/s", request, anchor=CONNECT_FOUR))
        request = {"op": "aec", "game": game, "options": options, "seconds": seconds}
        items.append(Item(f"{label} AEC", "turns/s", request, anchor=CONNECT_FOUR))
    return items


def search_items(spec: str, decisions: int) -> list[Item]:
    return [Item(f"{label} {spec} (player 0)", "simulations/s",
                 {"op": "search", "game": game, "spec": spec, "player": 0, "decisions": decisions, "seed": 3})
            for label, game in SEARCH_GAMES]  # fmt: skip


def train_items(steps: int) -> list[Item]:
    sides = {game: make_game(game).player_names[0] for _, game in SEARCH_GAMES}
    return [Item(f"fof train {label} ({sides[game]})", "steps/s",
                 {"op": "train", "game": game, "side": sides[game], "steps": steps})
            for label, game in SEARCH_GAMES]  # fmt: skip


def measure(items: list[Item], workers: dict[str, Worker], rounds: int, warmup: bool = True,
            progress: bool = True) -> None:
    """``rounds`` interleaved rounds over ``items`` (each tree's worker in turn, the order of the trees
    alternating between rounds); a warm-up round first (imports, caches) is not counted."""
    names = list(workers)
    for r in range(-1 if warmup else 0, rounds):
        order = names if r % 2 == 0 else names[::-1]
        for item in items:
            if item.error:
                continue
            for tree in order:
                if tree != "ours" and not item.both_trees:
                    continue
                request = item.request
                if r < 0 and "seconds" in request:
                    request = {**request, "seconds": min(0.2, request["seconds"])}
                got = workers[tree].ask({**request, "seed": request.get("seed", 0) + max(r, 0)})
                if "error" in got:
                    item.error = f"{tree}: {got['error']}"
                    break
                if r >= 0:
                    item.rounds.setdefault(tree, []).append(got["count"] / got["cpu"])
                    if "decisions" in got:
                        item.extra.setdefault(tree, []).append(1000 * got["cpu"] / got["decisions"])
        if progress and r >= 0:
            print(f"  round {r + 1}/{rounds} done", file=sys.stderr, flush=True)


def spread(values: list[float]) -> tuple[float, float, float]:
    """(median, min, max)."""
    return statistics.median(values), min(values), max(values)


def fmt_rate(values: list[float]) -> str:
    med, lo, hi = spread(values)
    if med >= 1000:
        return f"{med / 1000:,.1f}k [{lo / 1000:,.1f}-{hi / 1000:,.1f}k]"
    return f"{med:,.1f} [{lo:,.1f}-{hi:,.1f}]"


def fmt_ratio(values: list[float]) -> str:
    med, lo, hi = spread(values)
    return f"{med:.2f} [{lo:.2f}-{hi:.2f}]"


def ratios(num: list[float], den: list[float]) -> list[float]:
    """Per-round ratios of two figures measured in the same rounds."""
    return [a / b for a, b in zip(num, den, strict=True)]


def table(items: list[Item], has_base: bool) -> list[str]:
    """The markdown table of ``items``: figure, its ratio to its anchor, and (with a base tree) the base
    tree's figure and ours / base."""
    by_label = {item.label: item for item in items}
    head = "| item | unit | ours, median [range] | ÷ anchor |"
    rule = "|---|---|---:|---|"
    if has_base:
        head += " before (base tree) | after ÷ before |"
        rule += "---:|---|"
    lines = [head, rule]
    for item in items:
        if item.error:
            lines.append(f"| {item.label} | {item.unit} | skipped: {item.error} | |" + (" | |" if has_base else ""))
            continue
        ours = item.rounds["ours"]
        anchor = by_label.get(item.anchor) if item.anchor else None
        versus = ""
        if anchor is not None and not anchor.error:
            versus = f"{fmt_ratio(ratios(ours, anchor.rounds['ours']))} of {anchor.label}"
        elif item.anchor:
            versus = f"({item.anchor} not measured)"
        rate = fmt_rate(ours)
        if item.extra.get("ours"):
            rate += f"; {statistics.median(item.extra['ours']):,.1f} ms/decision"
        line = f"| {item.label} | {item.unit} | {rate} | {versus} |"
        if has_base:
            base = item.rounds.get("base")
            if base:
                before = fmt_rate(base)
                if item.extra.get("base"):
                    before += f"; {statistics.median(item.extra['base']):,.1f} ms/decision"
                line += f" {before} | {fmt_ratio(ratios(ours, base))} |"
            else:
                line += " | |"
        lines.append(line)
    return lines


def reference_ratios(items: list[Item], reference: str) -> dict[str, float]:
    """Each engine's median per-round ratio to ``reference`` (ours only)."""
    by_label = {item.label: item for item in items}
    ref = by_label[reference].rounds["ours"]
    return {item.label: round(statistics.median(ratios(item.rounds["ours"], ref)), 4)
            for item in items if item.request["op"] == "engine" and not item.error}  # fmt: skip


def regressions(measured: dict[str, float], stored: dict[str, float], tolerance: float = TOLERANCE) -> list[str]:
    """One line per game whose measured ratio is more than ``tolerance`` below its stored ratio (a game
    stored but not measured is a problem too; a game measured but not stored is ignored)."""
    problems = []
    for label in regressed(measured, stored, tolerance):
        got, want = measured.get(label), stored[label]
        if got is None:
            problems.append(f"{label}: not measured (stored ratio {want:.3f})")
        else:
            problems.append(f"{label}: ratio {got:.3f} is {100 * (1 - got / want):.0f}% below the stored {want:.3f}")
    return problems


def check(items: list[Item], stored: dict[str, Any], tolerance: float = TOLERANCE) -> tuple[str, list[str]]:
    """(the reference used, the regressions) of this run against ``stored`` (bench_ratios.json)."""
    by_label = {item.label: item for item in items}
    chess = by_label.get(CHESS)
    if chess is not None and not chess.error:
        return CHESS, regressions(reference_ratios(items, CHESS), stored["ratios"][CHESS], tolerance)
    c4 = by_label.get(CONNECT_FOUR)
    if c4 is None or c4.error:
        return "none", ["neither OpenSpiel chess nor PettingZoo connect_four_v3 could be measured"]
    return CONNECT_FOUR, regressions(reference_ratios(items, CONNECT_FOUR), stored["ratios"][CONNECT_FOUR], tolerance)


def regressed(measured: dict[str, float], stored: dict[str, float], tolerance: float = TOLERANCE) -> list[str]:
    """The stored games whose measured ratio is more than ``tolerance`` below the stored one, or missing."""
    return [label for label, want in stored.items()
            if measured.get(label) is None or measured[label] < want * (1 - tolerance)]  # fmt: skip


def confirm(items: list[Item], reference: str, stored: dict[str, Any], measure_again,
            tolerance: float = TOLERANCE) -> tuple[list[str], list[str]]:
    """(the regressions this run found, those a second run confirms). ``measure_again(items)`` measures
    fresh copies of ``reference`` and the flagged engines in as many rounds; a game counts only if both
    runs put it more than ``tolerance`` below its stored ratio."""
    table = stored["ratios"][reference]
    measured = reference_ratios(items, reference)
    first, flagged = regressions(measured, table, tolerance), regressed(measured, table, tolerance)
    if not flagged:
        return first, []
    again = [replace(item, rounds={}, extra={}, error=None) for item in items if item.label in {reference, *flagged}]
    measure_again(again)
    if next(item for item in again if item.label == reference).error:
        return first, first
    second = reference_ratios(again, reference)
    return first, regressions(second, {label: table[label] for label in flagged}, tolerance)


def loadtest(trees: dict[str, Path], games: int, duration: float, rounds: int) -> list[str]:
    """``fof loadtest`` in each tree, alternating, ``rounds`` times: its JSON report's key figures."""
    lines = ["| tree | requests/s | play p50 / p99 ms | bot p50 / p99 ms | new p50 ms | games finished |",
             "|---|---:|---:|---:|---:|---:|"]  # fmt: skip
    for r in range(rounds):
        for name, tree in (trees.items() if r % 2 == 0 else reversed(trees.items())):
            env = {**os.environ, "PYTHONPATH": str(tree)}
            cmd = [sys.executable, "-m", "fof_env.cli", "loadtest", "--games", str(games), "--duration", str(duration)]
            done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, timeout=duration + 120)
            try:
                rep = json.loads(done.stdout)
            except json.JSONDecodeError:
                lines.append(f"| {name} | failed: {done.stderr.strip()[-200:]} | | | | |")
                continue
            play, bot, new = rep["play"], rep["bot"], rep["new"]
            lines.append(f"| {name} | {rep['requests_per_s']:,.0f} | {play['p50_ms']} / {play['p99_ms']} | "
                         f"{bot['p50_ms']} / {bot['p99_ms']} | {new['p50_ms']} | {rep['games_finished']} |")
            print(f"  loadtest {name} round {r + 1} done", file=sys.stderr, flush=True)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.speed", description=__doc__.split("\n\n")[0])
    parser.add_argument("--section", nargs="+", choices=SECTIONS, default=["engines", "envs"])
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds (9)")
    parser.add_argument("--seconds", type=float, default=0.5, help="CPU seconds per item per round (0.5)")
    parser.add_argument("--base", type=Path, help="a saved older tree to measure beside this one")
    parser.add_argument("--search-spec", default="mcts:200", help="the search measured (mcts:200)")
    parser.add_argument("--search-decisions", type=int, default=8, help="positions searched per round (8)")
    parser.add_argument("--train-steps", type=int, default=8192, help="learner steps per round (8192)")
    parser.add_argument("--loadtest-games", type=int, default=50)
    parser.add_argument("--loadtest-duration", type=float, default=20.0)
    parser.add_argument("--check", action="store_true", help="compare with evaluation/bench_ratios.json")
    parser.add_argument("--store", action="store_true", help="rewrite evaluation/bench_ratios.json")
    parser.add_argument("--json", type=Path, help="also write every round's figures here")
    parser.add_argument("--only", nargs="+", metavar="TEXT",
                        help="measure only the items whose label contains one of these (and their anchors)")
    args = parser.parse_args(argv)
    if args.check or args.store:
        args.section, args.base = ["engines"], None
    trees = {"ours": ROOT} if args.base is None else {"ours": ROOT, "base": args.base.resolve()}
    print(f"# speed: {args.rounds} interleaved rounds, CPU time (time.process_time), median [min-max]; "
          f"python {platform.python_version()}, {platform.machine()}; trees: "
          + ", ".join(f"{k}={v}" for k, v in trees.items()), flush=True)  # fmt: skip
    items: list[Item] = []
    if "engines" in args.section:
        items += engine_items(args.seconds)
    if "envs" in args.section:
        items += [i for i in env_items(args.seconds) if i.label not in {x.label for x in items}]
    if "search" in args.section:
        items += search_items(args.search_spec, args.search_decisions)
    if "train" in args.section:
        items += train_items(args.train_steps)
    if args.only:
        wanted = [i for i in items if any(text in i.label for text in args.only)]
        anchors = {i.anchor for i in wanted}
        items = [i for i in items if i in wanted or i.label in anchors]
    workers = {name: Worker(tree) for name, tree in trees.items()}
    try:
        if items:
            measure(items, workers, args.rounds)
        for item in items:
            if item.error:
                print(f"skipped {item.label}: {item.error}", flush=True)
        if items:
            print("\n".join(table(items, "base" in trees)))
        if args.check:  # while the workers live: a flagged game is measured again
            return _check(items, workers, args.rounds)
    finally:
        for worker in workers.values():
            worker.close()
    if "loadtest" in args.section:
        print("\n".join(loadtest(trees, args.loadtest_games, args.loadtest_duration, max(1, args.rounds // 4))))
    if args.json:
        args.json.write_text(json.dumps({i.label: {"rounds": i.rounds, "ms_per_decision": i.extra, "error": i.error}
                                         for i in items}, indent=1) + "\n")  # fmt: skip
    if args.store:
        stored = {"how": "python -m evaluation.speed --store", "tolerance": TOLERANCE, "ratios": {}}
        for reference in (CHESS, CONNECT_FOUR):
            ref = next(i for i in items if i.label == reference)
            if not ref.error:
                stored["ratios"][reference] = reference_ratios(items, reference)
        RATIOS_FILE.write_text(json.dumps(stored, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {RATIOS_FILE.relative_to(ROOT)}")
    return 0


def _check(items: list[Item], workers: dict[str, Worker], rounds: int) -> int:
    """``--check``: the regressions against the stored ratios, confirmed by a second run."""
    stored = json.loads(RATIOS_FILE.read_text(encoding="utf-8"))
    tolerance = stored.get("tolerance", TOLERANCE)
    reference, problems = check(items, stored, tolerance)
    if reference == CONNECT_FOUR:
        print("open_spiel is not installed: the check compares ratios to PettingZoo connect_four_v3 instead")
    if reference in stored["ratios"] and problems:
        print(f"flagged, measured again ({rounds} rounds): " + "; ".join(problems), flush=True)
        _, problems = confirm(items, reference, stored, lambda again: measure(again, workers, rounds), tolerance)
        if not problems:
            print("the second run put every flagged game within the tolerance: noise, not a regression")
    for line in problems:
        print(f"REGRESSION {line}")
    print(f"bench-check against {reference}: {'FAILED' if problems else 'ok'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
