"""Speed benchmark: ``python -m evaluation.bench`` (``make bench-detail``).

Prints, for one process on one core, for every option set a game's spec benchmarks
(:class:`fof_env.core.ruleset.Variant`; ``--game`` picks one game):

* engine decisions/s: uniformly random legal actions through the validated ``apply``
  (and through ``apply_unchecked``, the search fast path), and games/s, with the set's target
  for the validated rate where it has one;
* the median wall time of one whole random game (set-up to the end, validated ``apply``) over
  ``--median-games`` games, in ms, with its target where it has one;
* Gymnasium env steps/s: ``fof_env/<Game>-v0`` with a random learner that
  reads ``action_masks()`` every step, against the random opponent (opponent
  decisions happen inside ``step`` and are not counted as steps), for each learner side;
* the heuristic bots' mean ms per decision (both sides heuristic, a few games): a
  figure to watch, not a test (timing thresholds fail at random on a shared machine);
* as a reference measured in the same run, PettingZoo ``connect_four_v3``
  random-play turns/s (reading the action mask every turn).

Each rate is the best of ``--repeats`` timed runs of ``--seconds`` seconds.

``--game search``: the search's iterations/s with the shipped PPO model as prior and critic
(``mcts:...,prior=ppo,evaluation=ppo,rollout_limit=0``: every leaf valued by the critic, as AlphaZero
does) unbatched and with ``batch=8`` (network calls made together, :mod:`agents.mcts`), on positions of
heuristic games of the featured games, for each side; the ratio is printed beside.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

import fof_env
from agents.heuristic import has_heuristic
from fof_env.core.registry import game_specs
from fof_env.core.ruleset import GameSpec, Variant


def _best_rate(run: Callable[[float], tuple[int, float]], seconds: float, repeats: int) -> float:
    """Best count/second over ``repeats`` runs of ``run(seconds) -> (count, elapsed)``."""
    best = 0.0
    for _ in range(repeats):
        count, elapsed = run(seconds)
        best = max(best, count / elapsed)
    return best


def engine_rates(
    game_name: str, options: dict, seconds: float, repeats: int, checked: bool
) -> tuple[float, float]:
    """(decisions/s, games/s) of random play through the engine."""
    game = fof_env.make_game(game_name, **options)
    rng = np.random.default_rng(0)
    games_done = [0.0]

    def run(budget: float) -> tuple[int, float]:
        decisions = games = 0
        seed = 0
        start = time.perf_counter()
        while time.perf_counter() - start < budget:
            state = game.new_initial_state(seed)
            seed += 1
            apply = state.apply if checked else state.apply_unchecked
            while not state.is_terminal:
                legal = state.legal_actions()
                apply(legal[rng.integers(len(legal))])
                decisions += 1
            games += 1
        elapsed = time.perf_counter() - start
        games_done[0] = max(games_done[0], games / elapsed)
        return decisions, elapsed

    return _best_rate(run, seconds, repeats), games_done[0]


def median_game_ms(game_name: str, options: dict, games: int) -> float:
    """Median wall time (ms) of one whole random game through the validated ``apply``."""
    game = fof_env.make_game(game_name, **options)
    game.new_initial_state(0)  # build the cached template outside the timing
    rng = np.random.default_rng(0)
    times = []
    for seed in range(games):
        start = time.perf_counter()
        state = game.new_initial_state(seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def gym_rate(env_id: str, options: dict, seconds: float, repeats: int, side: int = 0) -> float:
    """Learner steps/s of the Gymnasium env with masks, random learner and opponent."""
    import gymnasium as gym

    env = gym.make(env_id, side=side, opponent="random", **options)
    rng = np.random.default_rng(0)

    def run(budget: float) -> tuple[int, float]:
        steps = 0
        seed = 0
        env.reset(seed=seed)
        start = time.perf_counter()
        while time.perf_counter() - start < budget:
            legal = np.flatnonzero(env.unwrapped.action_masks())
            _, _, terminated, truncated, _ = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if terminated or truncated:
                seed += 1
                env.reset(seed=seed)
        return steps, time.perf_counter() - start

    rate = _best_rate(run, seconds, repeats)
    env.close()
    return rate


def connect_four_rate(seconds: float, repeats: int) -> float:
    """PettingZoo connect_four_v3 random-play turns/s (the reference)."""
    from pettingzoo.classic import connect_four_v3

    env = connect_four_v3.env()
    rng = np.random.default_rng(0)

    def run(budget: float) -> tuple[int, float]:
        turns = 0
        seed = 0
        start = time.perf_counter()
        while time.perf_counter() - start < budget:
            env.reset(seed=seed)
            seed += 1
            for _agent in env.agent_iter():
                obs, _, termination, truncation, _ = env.last()
                if termination or truncation:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
                turns += 1
        return turns, time.perf_counter() - start

    rate = _best_rate(run, seconds, repeats)
    env.close()
    return rate


def bot_ms_per_decision(game_name: str, options: dict, games: int) -> float:
    """Mean ms one heuristic bot spends per decision, both sides heuristic, over ``games`` games."""
    from agents.heuristic import make_heuristic

    game = fof_env.make_game(game_name, **options)
    bots = [make_heuristic(game, p, seed=p) for p in (0, 1)]
    spent, decisions = 0.0, 0
    for seed in range(games):
        state = game.new_initial_state(seed)
        while not state.is_terminal:
            start = time.perf_counter()
            action = bots[state.current_player].act(state)
            spent += time.perf_counter() - start
            decisions += 1
            state.apply(action)
    return 1000 * spent / max(1, decisions)


def _verdict(ok: bool, target: str) -> str:
    return f"target {target}: {'met' if ok else 'NOT MET'}"


def variant_rows(spec: GameSpec, variant: Variant, seconds: float, repeats: int,
                 median_games: int) -> list[tuple[str, float, str]]:
    """One benchmarked option set's rows: engine decisions/s (validated, against its target when it has
    one, and unchecked), random games/s, the median random game (against its target when it has one),
    Gym steps/s for each learner side and the heuristic's ms per decision (where the game has one)."""
    name, options = variant.label, dict(variant.options)
    checked, games = engine_rates(spec.name, options, seconds, repeats, checked=True)
    unchecked, _ = engine_rates(spec.name, options, seconds, repeats, checked=False)
    median = median_game_ms(spec.name, options, median_games)
    target, median_target = variant.decisions_target, variant.median_ms_target
    rows = [
        (f"{name}: engine decisions/s (validated apply)", checked,
         "" if target is None else _verdict(checked >= target, f">= {target:,}")),
        (f"{name}: engine decisions/s (apply_unchecked)", unchecked, ""),
        (f"{name}: random games/s", games, ""),
        (f"{name}: median ms per random game ({median_games} games)", median,
         "" if median_target is None else _verdict(median < median_target, f"< {median_target:.0f} ms")),
    ]  # fmt: skip
    gym_id = f"fof_env/{spec.gym_name}-v0"
    for side, side_name in enumerate(fof_env.make_game(spec.name, **options).player_names):
        steps = gym_rate(gym_id, options, seconds, repeats, side=side)
        rows.append((f"{name}: Gym env steps/s with masks ({side_name} learner)", steps, ""))
    if has_heuristic(spec.name):
        rows.append((f"{name}: heuristic bot ms per decision (4 games)", bot_ms_per_decision(spec.name, options, 4), ""))
    return rows


def bench_games() -> list[GameSpec]:
    """The games with benchmarked option sets."""
    return [spec for spec in game_specs() if spec.bench]


SEARCH_SPEC = {"prior": "ppo", "evaluation": "ppo", "rollout_limit": 0, "simulations": 32}


def search_rate(game_name: str, player: int, batch: int, seconds: float, repeats: int) -> float:
    """Iterations/s of ``player``'s PPO-guided search with ``batch`` on its decisions in one heuristic
    game (32 iterations each, in turn until ``seconds`` pass)."""
    from agents.heuristic import make_heuristic
    from agents.mcts import MCTSAgent

    game = fof_env.make_game(game_name)
    state, positions = game.new_initial_state(seed=3), []
    bots = [make_heuristic(game, p, seed=p) for p in (0, 1)]
    while not state.is_terminal and len(positions) < 40:
        if state.current_player == player and len(state.legal_actions()) > 1 and not state.is_unseen_placement():
            positions.append(state.clone())  # an unseen placement is drawn, not searched (mcts setup=draw)
        state.apply(bots[state.current_player].act(state))
    searcher = MCTSAgent(game, player, seed=1, batch=batch, **SEARCH_SPEC)

    def run(budget: float) -> tuple[int, float]:
        iterations = 0
        start = time.perf_counter()
        while time.perf_counter() - start < budget:
            for position in positions:
                searcher.act(position)
                iterations += searcher.last_search.iterations
        return iterations, time.perf_counter() - start

    return _best_rate(run, seconds, repeats)


def search_rows(seconds: float, repeats: int) -> list[tuple[str, float, str]]:
    """The search with the PPO prior and critic, network calls one at a time against batches of 8, for
    each side of each featured game (a side without a shipped model takes the heuristic's choice as its
    prior)."""
    rows = []
    for spec in game_specs():
        if not spec.featured:
            continue
        for player, side in enumerate(fof_env.make_game(spec.name).player_names):
            single = search_rate(spec.name, player, 1, seconds, repeats)
            batched = search_rate(spec.name, player, 8, seconds, repeats)
            label = f"{spec.title} {side} search (PPO prior+critic): iterations/s"
            rows.append((f"{label}, batch=1", single, ""))
            rows.append((f"{label}, batch=8", batched, f"x{batched / single:.2f} of batch=1"))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per figure (best is reported)")
    parser.add_argument("--game", choices=["all", "search", *(spec.name for spec in bench_games())], default="all",
                        help="what to measure: a game's benchmarked option sets, the search, or all")  # fmt: skip
    parser.add_argument(
        "--median-games", type=int, default=200, help="games timed for the median game time"
    )
    parser.add_argument("--json", help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    rows: list[tuple[str, float, str]] = []
    for spec in bench_games():
        if args.game in ("all", spec.name):
            for variant in spec.bench:
                rows += variant_rows(spec, variant, args.seconds, args.repeats, args.median_games)
    if args.game in ("all", "search"):
        rows += search_rows(args.seconds, args.repeats)
    rows.append(
        (
            "PettingZoo connect_four_v3 (reference): random turns/s",
            connect_four_rate(args.seconds, args.repeats),
            "",
        )
    )
    width = max(len(name) for name, _, _ in rows)
    for name, value, note in rows:
        shown = f"{value:>10,.1f}" if value < 100 else f"{value:>10,.0f}"
        print(f"{name:<{width}}  {shown}  {note}".rstrip(), flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({name: round(value, 1) for name, value, _ in rows}, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
