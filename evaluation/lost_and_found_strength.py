"""Strength of the "Lost & Found" heuristic bots: ``python -m evaluation.lost_and_found_strength``.

Plays, for one rules mode (``--rules full|quick``), ``--games`` games per pairing
with dice seeds ``seed .. seed + games - 1`` (agents seeded from the same number):

* heuristic Taliban vs random USMC,
* random Taliban vs heuristic USMC,
* heuristic vs heuristic (and random vs random for reference),

and prints per pairing: wins / draws / losses of each side with Wilson 95 %
intervals (``evaluation.stats``), mean and median VP per side, how the games
ended (air strike, Taliban automatic victory, turn 9), a VP histogram, and the
average time per bot decision.
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
from fof_env.core.registry import make_game

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
    w = state.winner
    if w is None:
        tally.draws += 1
    else:
        tally.wins[w] += 1
    tal, usmc = state.victory_points()
    tally.vp[0].append(tal)
    tally.vp[1].append(usmc)
    if state.airstrike:
        tally.endings[f"air strike (turn {state.turn})"] += 1
    elif state.auto_win:
        tally.endings["pilot on table end of turn 8"] += 1
    else:
        tally.endings["turn 9 ended"] += 1


def run(games: int, seed: int, rules: str, pairings=PAIRINGS) -> list[Tally]:
    game = make_game("lost_and_found", rules=rules)
    out = []
    for agents in pairings:
        tally = Tally(agents)
        for g in range(seed, seed + games):
            play(game, agents, g, tally)
        out.append(tally)
    return out


def _histogram(t: Tally) -> list[str]:
    rows = ["| VP    | Taliban | USMC |", "|-------|--------:|-----:|"]
    for lo, hi in BINS:
        label = f"{lo}" if lo == hi else (f"{lo}-{hi}" if hi < 99 else f"{lo}+")
        counts = [sum(1 for v in t.vp[p] if lo <= v <= hi) for p in (0, 1)]
        rows.append(f"| {label:<5} | {counts[0]:>7} | {counts[1]:>4} |")
    return rows


def report(tallies: list[Tally], rules: str) -> list[str]:
    lines = [
        f"## Lost & Found, rules={rules}: win/draw/loss with Wilson 95% intervals",
        "",
        "| Taliban   | USMC      | games | Tal. wins | Taliban win rate [95% CI] | draws | USMC wins "
        "| USMC win rate [95% CI]   | ms/decision |",
        "|-----------|-----------|------:|----------:|:--------------------------|------:|----------:"
        "|:-------------------------|------------:|",
    ]
    for t in tallies:
        ms = f"{1000 * t.bot_seconds / t.bot_decisions:.3f}" if t.bot_decisions else "-"
        lines.append(
            f"| {t.agents[0]:<9} | {t.agents[1]:<9} | {t.games:>5} | {t.wins[0]:>9} | "
            f"{format_rate(t.wins[0], t.games):<25} | {t.draws:>5} | {t.wins[1]:>9} | "
            f"{format_rate(t.wins[1], t.games):<24} | {ms:>11} |"
        )
    lines += ["", "VP per side (mean / median) and how the games ended:", ""]
    for t in tallies:
        means = [statistics.fmean(t.vp[p]) if t.vp[p] else 0.0 for p in (0, 1)]
        medians = [statistics.median(t.vp[p]) if t.vp[p] else 0.0 for p in (0, 1)]
        endings = ", ".join(f"{k}: {v}" for k, v in sorted(t.endings.items()))
        lines.append(
            f"* {t.agents[0]} Taliban vs {t.agents[1]} USMC: Taliban VP {means[0]:.2f} / {medians[0]:g}, "
            f"USMC VP {means[1]:.2f} / {medians[1]:g}; {endings}"
        )
    for t in tallies:
        lines += ["", f"VP histogram, {t.agents[0]} Taliban vs {t.agents[1]} USMC:", "", *_histogram(t)]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evaluation.lost_and_found_strength", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--games", type=int, default=300, help="games per pairing (default 300)")
    parser.add_argument("--seed", type=int, default=0, help="first dice seed (default 0)")
    parser.add_argument("--rules", choices=("full", "quick"), default="full")
    parser.add_argument(
        "--pairings",
        default="all",
        help="comma list of taliban-usmc pairings, e.g. heuristic-random,random-heuristic (default all)",
    )
    args = parser.parse_args(argv)
    pairings = PAIRINGS
    if args.pairings != "all":
        pairings = tuple(tuple(p.split("-")) for p in args.pairings.split(","))  # type: ignore[misc]
    start = time.perf_counter()
    tallies = run(args.games, args.seed, args.rules, pairings)
    print("\n".join(report(tallies, args.rules)))
    print(f"\n({sum(t.games for t in tallies)} games in {time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
