"""Speed benchmark: ``python -m evaluation.bench`` (``make bench``).

Prints, for one process on one core:

* engine decisions/s: uniformly random legal actions through the validated ``apply``
  (and through ``apply_unchecked``, the search fast path), and games/s;
* Gymnasium env steps/s: ``fof_env/StrikeForceOne-v0`` with a random learner that
  reads ``action_masks()`` every step, against the random opponent (opponent
  decisions happen inside ``step`` and are not counted as steps);
* as a reference measured in the same run, PettingZoo ``connect_four_v3``
  random-play turns/s (reading the action mask every turn).

Each figure is the best of ``--repeats`` timed runs of ``--seconds`` seconds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable

import numpy as np

import fof_env


def _best_rate(run: Callable[[float], tuple[int, float]], seconds: float, repeats: int) -> float:
    """Best count/second over ``repeats`` runs of ``run(seconds) -> (count, elapsed)``."""
    best = 0.0
    for _ in range(repeats):
        count, elapsed = run(seconds)
        best = max(best, count / elapsed)
    return best


def engine_rates(game_name: str, options: dict, seconds: float, repeats: int, checked: bool) -> tuple[float, float]:
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


def gym_rate(env_id: str, options: dict, seconds: float, repeats: int) -> float:
    """Learner steps/s of the Gymnasium env with masks, random learner and opponent."""
    import gymnasium as gym

    env = gym.make(env_id, side=0, opponent="random", **options)
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per figure (best is reported)")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    rows = []
    for options in ({"optional_rules": False}, {"optional_rules": True}):
        label = "optional rules" if options["optional_rules"] else "basic rules"
        checked, games = engine_rates("strike_force_one", options, args.seconds, args.repeats, checked=True)
        unchecked, _ = engine_rates("strike_force_one", options, args.seconds, args.repeats, checked=False)
        steps = gym_rate("fof_env/StrikeForceOne-v0", options, args.seconds, args.repeats)
        rows.append((f"Strike Force One, {label}: engine decisions/s (validated apply)", checked))
        rows.append((f"Strike Force One, {label}: engine decisions/s (apply_unchecked)", unchecked))
        rows.append((f"Strike Force One, {label}: random games/s", games))
        rows.append((f"Strike Force One, {label}: Gym env steps/s with masks", steps))
    rows.append(("PettingZoo connect_four_v3 (reference): random turns/s", connect_four_rate(args.seconds, args.repeats)))
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value:>10,.0f}", flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({name: round(value, 1) for name, value in rows}, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
