"""Speed benchmark: ``python -m evaluation.bench`` (``make bench``).

Prints, for one process on one core, for Strike Force One (basic and optional
rules) and Force on Force "Lost & Found" (full and quick rules); ``--game`` picks one:

* engine decisions/s: uniformly random legal actions through the validated ``apply``
  (and through ``apply_unchecked``, the search fast path), and games/s;
* Lost & Found and FUBAR: the median wall time of one whole random game (set-up to the
  end, validated ``apply``) over ``--median-games`` games, in ms;
* Gymnasium env steps/s: ``fof_env/<Game>-v0`` with a random learner that
  reads ``action_masks()`` every step, against the random opponent (opponent
  decisions happen inside ``step`` and are not counted as steps); Lost & Found
  for either learner side;
* the heuristic bots' mean ms per decision (both sides heuristic, a few games): a
  figure to watch, not a test (timing thresholds fail at random on a shared machine);
* as a reference measured in the same run, PettingZoo ``connect_four_v3``
  random-play turns/s (reading the action mask every turn).

Each rate is the best of ``--repeats`` timed runs of ``--seconds`` seconds.
Lost & Found targets (checked and printed): >= 10,000 engine decisions/s
(validated) and < 50 ms median per random game; FUBAR (both scenarios, ``--game fubar``):
>= 20,000 decisions/s and < 20 ms; Force on Force WWII "Hedgerow Hamlet" (``--game wwii``, with its
tanks, the P-47, the card deck, the card reserves and the Asset Cards): >= 10,000 decisions/s.

``--game search``: the search's iterations/s with the shipped PPO model as prior and critic
(``mcts:...,prior=ppo,evaluation=ppo,rollout_limit=0``: every leaf valued by the critic, as AlphaZero
does) unbatched and with ``batch=8`` (network calls made together, :mod:`agents.mcts`), on positions of
heuristic games of Strike Force One and Lost & Found, for each side; the ratio is printed beside.
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


LAF_DECISIONS_TARGET = 10_000
LAF_MEDIAN_MS_TARGET = 50.0


def strike_force_one_rows(seconds: float, repeats: int) -> list[tuple[str, float, str]]:
    rows = []
    for options in ({"optional_rules": False}, {"optional_rules": True}):
        label = "optional rules" if options["optional_rules"] else "basic rules"
        checked, games = engine_rates("strike_force_one", options, seconds, repeats, checked=True)
        unchecked, _ = engine_rates("strike_force_one", options, seconds, repeats, checked=False)
        steps = gym_rate("fof_env/StrikeForceOne-v0", options, seconds, repeats)
        rows.append((f"Strike Force One, {label}: engine decisions/s (validated apply)", checked, ""))
        rows.append((f"Strike Force One, {label}: engine decisions/s (apply_unchecked)", unchecked, ""))
        rows.append((f"Strike Force One, {label}: random games/s", games, ""))
        rows.append((f"Strike Force One, {label}: Gym env steps/s with masks", steps, ""))
        ms = bot_ms_per_decision("strike_force_one", options, 5)
        rows.append((f"Strike Force One, {label}: heuristic bot ms per decision (5 games)", ms, ""))
    return rows


def _verdict(ok: bool, target: str) -> str:
    return f"target {target}: {'met' if ok else 'NOT MET'}"


def lost_and_found_rows(seconds: float, repeats: int, median_games: int) -> list[tuple[str, float, str]]:
    rows = []
    for options in ({"rules": "full"}, {"rules": "quick"}):
        label = f"{options['rules']} rules"
        name = f"Lost & Found, {label}"
        checked, games = engine_rates("lost_and_found", options, seconds, repeats, checked=True)
        unchecked, _ = engine_rates("lost_and_found", options, seconds, repeats, checked=False)
        median = median_game_ms("lost_and_found", options, median_games)
        rows.append(
            (
                f"{name}: engine decisions/s (validated apply)",
                checked,
                _verdict(checked >= LAF_DECISIONS_TARGET, f">= {LAF_DECISIONS_TARGET:,}"),
            )
        )
        rows.append((f"{name}: engine decisions/s (apply_unchecked)", unchecked, ""))
        rows.append((f"{name}: random games/s", games, ""))
        rows.append(
            (
                f"{name}: median ms per random game ({median_games} games)",
                median,
                _verdict(median < LAF_MEDIAN_MS_TARGET, f"< {LAF_MEDIAN_MS_TARGET:.0f} ms"),
            )
        )
        for side, side_name in ((0, "taliban"), (1, "usmc")):
            steps = gym_rate("fof_env/LostAndFound-v0", options, seconds, repeats, side=side)
            rows.append((f"{name}: Gym env steps/s with masks ({side_name} learner)", steps, ""))
        ms = bot_ms_per_decision("lost_and_found", options, 4)
        rows.append((f"{name}: heuristic bot ms per decision (4 games)", ms, ""))
    return rows


FUBAR_DECISIONS_TARGET = 20_000
FUBAR_MEDIAN_MS_TARGET = 20.0
FUBAR_GAMES = (
    ("fubar_lost_and_found", "FUBAR Lost & Found", "fof_env/FubarLostAndFound-v0", ("taliban", "usmc")),
    (
        "fubar_village_patrol",
        "FUBAR Village Patrol",
        "fof_env/FubarVillagePatrol-v0",
        ("patrol", "insurgents"),
    ),
)


def scenario_rows(game_name: str, name: str, env_id: str, sides: tuple[str, ...], seconds: float, repeats: int,
                  median_games: int, decisions_target: int,
                  median_target_ms: float | None = None) -> list[tuple[str, float, str]]:
    """One scenario game's rows: engine decisions/s (validated, against ``decisions_target``, and unchecked),
    random games/s, the median random game (against ``median_target_ms`` when given), Gym steps/s for each
    learner side of ``sides`` and the heuristic's ms per decision."""
    checked, games = engine_rates(game_name, {}, seconds, repeats, checked=True)
    unchecked, _ = engine_rates(game_name, {}, seconds, repeats, checked=False)
    median = median_game_ms(game_name, {}, median_games)
    median_note = "" if median_target_ms is None else _verdict(median < median_target_ms, f"< {median_target_ms:.0f} ms")
    rows = [
        (f"{name}: engine decisions/s (validated apply)", checked,
         _verdict(checked >= decisions_target, f">= {decisions_target:,}")),
        (f"{name}: engine decisions/s (apply_unchecked)", unchecked, ""),
        (f"{name}: random games/s", games, ""),
        (f"{name}: median ms per random game ({median_games} games)", median, median_note),
    ]  # fmt: skip
    for side, side_name in enumerate(sides):
        steps = gym_rate(env_id, {}, seconds, repeats, side=side)
        rows.append((f"{name}: Gym env steps/s with masks ({side_name} learner)", steps, ""))
    rows.append((f"{name}: heuristic bot ms per decision (4 games)", bot_ms_per_decision(game_name, {}, 4), ""))
    return rows


def fubar_rows(seconds: float, repeats: int, median_games: int) -> list[tuple[str, float, str]]:
    """FUBAR (targets: >= 20,000 engine decisions/s validated, < 20 ms median per random game)."""
    rows = []
    for game_name, name, gid, sides in FUBAR_GAMES:
        rows += scenario_rows(game_name, name, gid, sides, seconds, repeats, median_games,
                              FUBAR_DECISIONS_TARGET, FUBAR_MEDIAN_MS_TARGET)  # fmt: skip
    return rows


def compound_raid_rows(seconds: float, repeats: int, median_games: int) -> list[tuple[str, float, str]]:
    """Compound Raid: the same Force on Force engine as Lost & Found, so held to its targets
    (>= 10,000 validated decisions/s, < 50 ms median per random game); both learner sides."""
    return scenario_rows("compound_raid", "Compound Raid", "fof_env/CompoundRaid-v0", ("british", "militia"),
                         seconds, repeats, median_games, LAF_DECISIONS_TARGET, LAF_MEDIAN_MS_TARGET)  # fmt: skip


WWII_DECISIONS_TARGET = 10_000


def wwii_rows(seconds: float, repeats: int, median_games: int) -> list[tuple[str, float, str]]:
    """Hedgerow Hamlet (target: >= 10,000 engine decisions/s, validated ``apply``; the US learner)."""
    return scenario_rows("wwii_hedgerow_hamlet", "WWII Hedgerow Hamlet", "fof_env/WwiiHedgerowHamlet-v0", ("us",),
                         seconds, repeats, median_games, WWII_DECISIONS_TARGET)  # fmt: skip


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
        if state.current_player == player and len(state.legal_actions()) > 1:
            positions.append(state.clone())
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
    each side (a side without a shipped model takes the heuristic's choice as its prior)."""
    rows = []
    for game_name, name in (("strike_force_one", "Strike Force One"), ("lost_and_found", "Lost & Found")):
        for player, side in enumerate(fof_env.make_game(game_name).player_names):
            single = search_rate(game_name, player, 1, seconds, repeats)
            batched = search_rate(game_name, player, 8, seconds, repeats)
            label = f"{name} {side} search (PPO prior+critic): iterations/s"
            rows.append((f"{label}, batch=1", single, ""))
            rows.append((f"{label}, batch=8", batched, f"x{batched / single:.2f} of batch=1"))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per figure (best is reported)")
    parser.add_argument(
        "--game",
        choices=["all", "strike_force_one", "lost_and_found", "compound_raid", "fubar", "wwii", "search"],
        default="all",
        help="what to measure",
    )
    parser.add_argument(
        "--median-games", type=int, default=200, help="Lost & Found games timed for the median game time"
    )
    parser.add_argument("--json", help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    rows: list[tuple[str, float, str]] = []
    if args.game in ("all", "strike_force_one"):
        rows += strike_force_one_rows(args.seconds, args.repeats)
    if args.game in ("all", "lost_and_found"):
        rows += lost_and_found_rows(args.seconds, args.repeats, args.median_games)
    if args.game in ("all", "compound_raid"):
        rows += compound_raid_rows(args.seconds, args.repeats, args.median_games)
    if args.game in ("all", "fubar"):
        rows += fubar_rows(args.seconds, args.repeats, args.median_games)
    if args.game in ("all", "wwii"):
        rows += wwii_rows(args.seconds, args.repeats, args.median_games)
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
