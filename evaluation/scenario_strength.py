"""Strength of a Force on Force game's bots, per side: ``python -m evaluation.scenario_strength``.

``python -m evaluation.scenario_strength --game GAME --games 200 [--seed 0] [--agent heuristic]
[--opponent random] [--workers 2]`` plays ``--games`` games with ``--agent`` as each side against
``--opponent`` on the other (dice seeds ``seed .. seed + games - 1``; the agents are seeded from the
game's seed), then random v random for reference, and prints per pairing: wins / draws / losses of
the agent's side with a Wilson 95 % interval (``evaluation.stats``), the mean VP of each side, the
mean decisions per game, the time per game and decisions per second (agents' time included: with
``--agent random --opponent random`` it is the engine's speed). Any game built by ``make_game`` whose states have
``victory_points()`` (every Force on Force scenario) can be measured.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field

from agents.base import make_agent
from evaluation.executors import make_executor
from evaluation.stats import format_rate
from fof_env.core.registry import make_game


@dataclass
class Tally:
    """Results of one pairing (``agents[p]`` plays side ``p``)."""

    agents: tuple[str, str]
    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    vp: list[int] = field(default_factory=lambda: [0, 0])
    decisions: int = 0
    seconds: float = 0.0

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.draws += other.draws
        self.vp = [a + b for a, b in zip(self.vp, other.vp, strict=True)]
        self.decisions += other.decisions
        self.seconds += other.seconds


def play(game_name: str, agents: tuple[str, str], seeds: list[int], options: dict | None = None) -> Tally:
    """Games with dice seeds ``seeds``; agents seeded ``2 * seed + side``."""
    game = make_game(game_name, **(options or {}))
    tally = Tally(agents)
    for seed in seeds:
        bots = [make_agent(kind, game, p, seed=2 * seed + p) for p, kind in enumerate(agents)]
        t0 = time.perf_counter()
        state = game.new_initial_state(seed)
        while not state.is_terminal:
            state.apply(bots[state.current_player].act(state))
            tally.decisions += 1
        tally.seconds += time.perf_counter() - t0
        tally.games += 1
        w = state.winner
        if w is None:
            tally.draws += 1
        else:
            tally.wins[w] += 1
        vp = state.victory_points()
        tally.vp = [tally.vp[0] + vp[0], tally.vp[1] + vp[1]]
    return tally


def run(game_name: str, agents: tuple[str, str], games: int, seed: int, workers: int,
        options: dict | None = None) -> Tally:
    seeds = list(range(seed, seed + games))
    if workers <= 1:
        return play(game_name, agents, seeds, options)
    tasks = [(game_name, agents, seeds[i::workers], options) for i in range(workers)]
    total = Tally(agents)
    with make_executor("local", workers) as executor:
        for part in executor.map(_play_task, tasks):
            total.add(part)
    return total


def _play_task(task: tuple) -> Tally:
    """:func:`play` of ``(game_name, agents, seeds, options)`` in a pool worker."""
    return play(*task)


def describe(tally: Tally, side: int, sides: tuple[str, str]) -> str:
    """One line: the agent of ``side``'s record, interval and both sides' mean VP."""
    n = tally.games
    wins, losses = tally.wins[side], tally.wins[1 - side]
    rate = format_rate(wins, n)
    vp = " ".join(f"{sides[p]} {tally.vp[p] / n:.2f}" for p in (0, 1))
    return (f"{tally.agents[0]} ({sides[0]}) v {tally.agents[1]} ({sides[1]}): {n} games, {sides[side]} "
            f"W/D/L {wins}/{tally.draws}/{losses}, win rate {rate}; mean VP {vp}; "
            f"{tally.decisions / n:.0f} decisions/game, {1000 * tally.seconds / n:.1f} ms/game, "
            f"{tally.decisions / max(tally.seconds, 1e-9):,.0f} decisions/s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.scenario_strength", description=__doc__.split("\n")[0])
    parser.add_argument("--game", required=True, help="a game whose states count victory points (fof list)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agent", default="heuristic")
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option (true/false/numbers are read as such)")
    args = parser.parse_args(argv)
    options = {}
    for item in args.option:
        key, _, value = item.partition("=")
        low = value.lower()
        options[key] = True if low == "true" else False if low == "false" else int(value) if value.isdigit() else value
    sides = tuple(make_game(args.game, **options).player_names)
    for side in (0, 1):
        agents = (args.agent, args.opponent) if side == 0 else (args.opponent, args.agent)
        tally = run(args.game, agents, args.games, args.seed, args.workers, options)
        print(describe(tally, side, sides), flush=True)
    tally = run(args.game, ("random", "random"), args.games, args.seed, args.workers, options)
    print(describe(tally, 0, sides), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
