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

from agents.mixed_setup import best_point_setups
from evaluation.match import play_game
from evaluation.setup_spread import seeded_agent
from evaluation.tallies import WDL
from fof_env.core.registry import make_game


def describe(tally: WDL) -> str:
    """``W/D/L won R% [low, high]``: the win rate with its Wilson 95% interval."""
    low, high = tally.win_interval
    return f"{tally.wins}/{tally.draws}/{tally.losses} won {tally.win_rate:.1%} [{low:.1%}, {high:.1%}]"


def play(game_name: str, side: str, agent: str, opponent: str, seeds: list[int], best_point: bool) -> WDL:
    """``side``'s results in the games ``seeds``, with best-point set-ups or mixed ones."""
    game = make_game(game_name)
    me = game.player_index(side)
    specs = {me: agent, 1 - me: opponent}
    kept: dict[int, object] = {}
    tally = WDL()
    for seed in seeds:
        bots = [seeded_agent(kept, specs[p], game, p, 2 * seed + p) for p in (0, 1)]
        if best_point:
            with best_point_setups():
                result = play_game(game, bots, seed, record=False)
        else:
            result = play_game(game, bots, seed, record=False)
        tally += WDL(int(result.winner == me), int(result.winner is None), int(result.winner == 1 - me))
    return tally


def _play(job: tuple) -> WDL:
    return play(*job)


def compare(game_name: str, side: str, agent: str, opponent: str, seeds: list[int],
            workers: int = 1) -> tuple[WDL, WDL]:
    """``side``'s results with best-point set-ups and with mixed ones, on the same games."""
    pieces = max(1, min(len(seeds), 4 * workers))
    chunks = [seeds[i::pieces] for i in range(pieces)]
    jobs = [(game_name, side, agent, opponent, chunk, best) for best in (True, False) for chunk in chunks]
    if workers <= 1:
        tallies = [_play(job) for job in jobs]
    else:
        with ProcessPoolExecutor(workers) as pool:
            tallies = list(pool.map(_play, jobs))
    best_point = sum(tallies[:pieces], WDL())
    mixed = sum(tallies[pieces:], WDL())
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
    low, high = best_point.win_interval
    rate = mixed.win_rate
    verdict = "inside" if low <= rate <= high else ("above" if rate > high else "below")
    print(f"{args.game}: {args.side} = {args.agent} against {args.opponent}, {args.games} games each")
    print(f"  best-point set-up: {describe(best_point)}")
    print(f"  mixed set-up:      {describe(mixed)} ({verdict} the best-point interval)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
