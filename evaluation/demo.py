"""The demo: ``python -m evaluation.demo`` (``make demo``).

1. One Strike Force One game, heuristic against heuristic, printed turn by turn
   (the map at each phase start, every decision, every combat result), through
   the same narration as ``fof play``.
2. A table of random and heuristic agents on both sides: all four pairings
   (Soviet in {random, heuristic} x U.S. in {random, heuristic}), ``--games``
   games each (default 200), under the basic rules and under the optional rules,
   with win rates and Wilson 95 % intervals.
3. Force on Force "Lost & Found" (full rules): the same four pairings of Taliban
   and USMC bots, ``--lf-games`` games each (default 100), with win/draw/loss,
   intervals, VP statistics and how the games ended
   (:mod:`evaluation.lost_and_found_strength`).

Runs in about a minute on one core.
"""

from __future__ import annotations

import argparse
import sys
import time

from evaluation import lost_and_found_strength
from evaluation.match import play_series
from evaluation.stats import format_rate
from fof_env import cli

KINDS = ("random", "heuristic")


def strength_table(games: int, seed: int, optional_rules: bool) -> list[str]:
    """Rows of the four-pairing table for one rules mode."""
    rows = []
    for soviet in KINDS:
        for us in KINDS:
            r = play_series("strike_force_one", {"optional_rules": optional_rules}, (soviet, us), games, seed=seed)
            rows.append(
                f"| {soviet:<9} | {us:<9} | {r.games:>5} | {r.wins[0]:>4} | {format_rate(r.wins[0], r.games):<24} "
                f"| {r.wins[1]:>4} | {format_rate(r.wins[1], r.games):<24} |"
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.demo", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing and rules mode (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the shown game and of the series")
    parser.add_argument("--no-game", action="store_true", help="skip the printed game")
    parser.add_argument("--lf-games", type=int, default=100, help="Lost & Found games per pairing (default 100)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if not args.no_game:
        print("## One game: Soviet heuristic vs U.S. heuristic (basic rules)\n")
        cli.main(["play", "strike_force_one", "--soviet", "heuristic", "--us", "heuristic", "--seed", str(args.seed)])
        print()
    header = (
        "| Soviet    | U.S.      | games | Sov. | Soviet win rate [95% CI] | U.S. | U.S. win rate [95% CI]   |\n"
        "|-----------|-----------|------:|-----:|:-------------------------|-----:|:-------------------------|"
    )
    for optional in (False, True):
        t0 = time.perf_counter()
        mode = "optional rules 7.0-9.0" if optional else "basic rules"
        print(f"## Strike Force One, {mode}: {args.games} games per pairing (Wilson 95% intervals)\n")
        print(header)
        for row in strength_table(args.games, args.seed, optional):
            print(row)
        print(f"\n({4 * args.games} games in {time.perf_counter() - t0:.1f} s)\n")
        sys.stdout.flush()
    if args.lf_games > 0:
        t0 = time.perf_counter()
        print(f"## Force on Force \"Lost & Found\", full rules: {args.lf_games} games per pairing\n")
        tallies = lost_and_found_strength.run(args.lf_games, args.seed, "full")
        print("\n".join(lost_and_found_strength.report(tallies, "full")))
        print(f"\n({len(tallies) * args.lf_games} games in {time.perf_counter() - t0:.1f} s)\n")
    print(f"Demo finished in {time.perf_counter() - start:.1f} s.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
