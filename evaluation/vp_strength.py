"""Strength of a game's bots, with victory points: ``python -m evaluation.vp_strength --game GAME``.

Plays, for one game (``--game``, with ``--option KEY=VALUE`` options), ``--games`` games per pairing
with dice seeds ``seed .. seed + games - 1`` (agents seeded from the same number):

* heuristic on the first side vs random on the second,
* random vs heuristic,
* heuristic vs heuristic (and random vs random for reference),

and prints per pairing: wins / draws / losses of each side with Wilson 95 % intervals
(``evaluation.stats``), mean and median VP per side, how the games ended (each game's
:class:`~fof_env.core.outcome.Outcome`: its termination, in the words of the game's spec where it
has them), a VP histogram, and the average time per heuristic decision. The game's states must count
``victory_points()``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from agents.base import make_agent
from evaluation.stats import format_rate
from fof_env.core.options import parse_assignments
from fof_env.core.registry import game_spec, make_game

PAIRINGS = (
    ("heuristic", "random"),
    ("random", "heuristic"),
    ("heuristic", "heuristic"),
    ("random", "random"),
)
BINS = ((0, 0), (1, 2), (3, 4), (5, 6), (7, 9), (10, 12), (13, 15), (16, 19), (20, 24), (25, 99))


@dataclass
class Tally:
    """Results of one pairing."""

    agents: tuple[str, str]
    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    vp: list[list[int]] = field(default_factory=lambda: [[], []])
    endings: Counter = field(default_factory=Counter)
    bot_seconds: float = 0.0
    bot_decisions: int = 0
    decisions: int = 0


def play(game, agents: tuple[str, str], seed: int, tally: Tally) -> None:
    """One game with dice ``seed``; adds its result to ``tally``."""
    bots = [make_agent(kind, game, p, seed=seed * 2 + p) for p, kind in enumerate(agents)]
    timed = [kind == "heuristic" for kind in agents]
    state = game.new_initial_state(seed)
    while not state.is_terminal:
        p = state.current_player
        t0 = time.perf_counter()
        action = bots[p].act(state)
        if timed[p]:
            tally.bot_seconds += time.perf_counter() - t0
            tally.bot_decisions += 1
        state.apply(action)
        tally.decisions += 1
    tally.games += 1
    outcome = state.outcome()
    if outcome.winner is None:
        tally.draws += 1
    else:
        tally.wins[outcome.winner] += 1
    for p, points in enumerate(state.victory_points()):
        tally.vp[p].append(points)
    spec = game_spec(game)
    words = spec.endings if spec is not None else {}
    tally.endings[words.get(outcome.termination, str(outcome.termination))] += 1


def run(game, games: int, seed: int, pairings=PAIRINGS) -> list[Tally]:
    out = []
    for agents in pairings:
        tally = Tally(agents)
        for g in range(seed, seed + games):
            play(game, agents, g, tally)
        out.append(tally)
    return out


def _histogram(t: Tally, names: tuple[str, str]) -> list[str]:
    rows = [f"| VP    | {names[0]} | {names[1]} |", "|-------|---:|---:|"]
    for lo, hi in BINS:
        label = f"{lo}" if lo == hi else (f"{lo}-{hi}" if hi < 99 else f"{lo}+")
        counts = [sum(1 for v in t.vp[p] if lo <= v <= hi) for p in (0, 1)]
        rows.append(f"| {label:<5} | {counts[0]} | {counts[1]} |")
    return rows


def report(tallies: list[Tally], title: str, names: tuple[str, str]) -> list[str]:
    a, b = names
    lines = [
        f"## {title}: win/draw/loss with Wilson 95% intervals",
        "",
        f"| {a} | {b} | games | {a} wins | {a} win rate [95% CI] | draws | {b} wins | {b} win rate [95% CI] "
        "| ms/decision |",
        "|---|---|---:|---:|:---|---:|---:|:---|---:|",
    ]
    for t in tallies:
        ms = f"{1000 * t.bot_seconds / t.bot_decisions:.3f}" if t.bot_decisions else "-"
        lines.append(
            f"| {t.agents[0]} | {t.agents[1]} | {t.games} | {t.wins[0]} | {format_rate(t.wins[0], t.games)} | "
            f"{t.draws} | {t.wins[1]} | {format_rate(t.wins[1], t.games)} | {ms} |"
        )
    lines += ["", "VP per side (mean / median) and how the games ended:", ""]
    for t in tallies:
        means = [statistics.fmean(t.vp[p]) if t.vp[p] else 0.0 for p in (0, 1)]
        medians = [statistics.median(t.vp[p]) if t.vp[p] else 0.0 for p in (0, 1)]
        endings = ", ".join(f"{k}: {v}" for k, v in sorted(t.endings.items()))
        lines.append(
            f"* {t.agents[0]} {a} vs {t.agents[1]} {b}: {a} VP {means[0]:.2f} / {medians[0]:g}, "
            f"{b} VP {means[1]:.2f} / {medians[1]:g}; {endings}"
        )
    for t in tallies:
        lines += ["", f"VP histogram, {t.agents[0]} {a} vs {t.agents[1]} {b}:", "", *_histogram(t, names)]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.vp_strength", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, help="a game whose states count victory points (fof list)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option (repeatable)")
    parser.add_argument("--games", type=int, default=300, help="games per pairing (default 300)")
    parser.add_argument("--seed", type=int, default=0, help="first dice seed (default 0)")
    parser.add_argument(
        "--pairings",
        default="all",
        help="comma list of pairings, first side's agent - second side's, e.g. heuristic-random,random-heuristic "
        "(default all)",
    )
    args = parser.parse_args(argv)
    game = make_game(args.game, **parse_assignments(args.option, "--option"))
    pairings = PAIRINGS
    if args.pairings != "all":
        pairings = tuple(tuple(p.split("-")) for p in args.pairings.split(","))  # type: ignore[misc]
    start = time.perf_counter()
    tallies = run(game, args.games, args.seed, pairings)
    opts = ", ".join(f"{k}={v}" for k, v in game.options.items())
    print("\n".join(report(tallies, f"{args.game} ({opts})" if opts else args.game, tuple(game.player_names))))
    print(f"\n({sum(t.games for t in tallies)} games in {time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
