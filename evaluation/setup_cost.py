"""What a mixed set-up costs a bot: ``python -m evaluation.setup_cost``.

``python -m evaluation.setup_cost --game GAME --side SIDE [--agent heuristic] [--opponent heuristic]
[--games 400] [--seed 0] [--workers 1]`` plays the same ``--games`` games twice (dice seed ``seed + i``,
the agents seeded ``2 * (seed + i) + side`` as :mod:`evaluation.setup_spread` does): once with every bot
taking its best point at its unseen placements too (:func:`agents.mixed_setup.best_point_setups`, the
set-ups before they were mixed), once as the bots play now, drawing those placements from their mixed
strategy. It prints ``--side``'s wins/draws/losses, win rate and Wilson 95% interval for both, and
whether the mixed win rate lies inside, above or below the interval of the best-point one.
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from agents.mixed_setup import best_point_setups
from evaluation.match import play_game
from evaluation.setup_spread import seeded_agent
from evaluation.stats import wilson_interval
from fof_env.core.registry import make_game


@dataclass(frozen=True)
class Tally:
    """``side``'s results over some games."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.wins + other.wins, self.draws + other.draws, self.losses + other.losses)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def __str__(self) -> str:
        low, high = wilson_interval(self.wins, self.games)
        return f"{self.wins}/{self.draws}/{self.losses} won {self.rate:.1%} [{low:.1%}, {high:.1%}]"


def play(game_name: str, side: str, agent: str, opponent: str, seeds: list[int], best_point: bool) -> Tally:
    """``side``'s results in the games ``seeds``, with best-point set-ups or mixed ones."""
    game = make_game(game_name)
    me = game.player_index(side)
    specs = {me: agent, 1 - me: opponent}
    kept: dict[int, object] = {}
    tally = Tally()
    for seed in seeds:
        bots = [seeded_agent(kept, specs[p], game, p, 2 * seed + p) for p in (0, 1)]
        if best_point:
            with best_point_setups():
                result = play_game(game, bots, seed, record=False)
        else:
            result = play_game(game, bots, seed, record=False)
        tally += Tally(int(result.winner == me), int(result.winner is None), int(result.winner == 1 - me))
    return tally


def _play(job: tuple) -> Tally:
    return play(*job)


def compare(game_name: str, side: str, agent: str, opponent: str, seeds: list[int],
            workers: int = 1) -> tuple[Tally, Tally]:
    """``side``'s results with best-point set-ups and with mixed ones, on the same games."""
    pieces = max(1, min(len(seeds), 4 * workers))
    chunks = [seeds[i::pieces] for i in range(pieces)]
    jobs = [(game_name, side, agent, opponent, chunk, best) for best in (True, False) for chunk in chunks]
    if workers <= 1:
        tallies = [_play(job) for job in jobs]
    else:
        with ProcessPoolExecutor(workers) as pool:
            tallies = list(pool.map(_play, jobs))
    best_point = sum(tallies[:pieces], Tally())
    mixed = sum(tallies[pieces:], Tally())
    return best_point, mixed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.setup_cost", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--side", required=True, help="the side whose win rate is measured")
    parser.add_argument("--agent", default="heuristic", help="that side's agent spec (default heuristic)")
    parser.add_argument("--opponent", default="heuristic", help="the other side's agent spec (default heuristic)")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")
    seeds = list(range(args.seed, args.seed + args.games))
    best_point, mixed = compare(args.game, args.side, args.agent, args.opponent, seeds, args.workers)
    low, high = wilson_interval(best_point.wins, best_point.games)
    verdict = "inside" if low <= mixed.rate <= high else ("above" if mixed.rate > high else "below")
    print(f"{args.game}: {args.side} = {args.agent} against {args.opponent}, {args.games} games each")
    print(f"  best-point set-up: {best_point}")
    print(f"  mixed set-up:      {mixed} ({verdict} the best-point interval)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
