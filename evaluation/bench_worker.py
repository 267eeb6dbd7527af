"""One measuring process of :mod:`evaluation.speed`: reads requests (JSON lines) on stdin, answers on stdout.

Run as a script with one source tree first on ``PYTHONPATH`` (``python evaluation/bench_worker.py``); it
imports ``fof_env`` (and ``agents``, ``training``) from that tree. So that a saved copy of older engines
can be measured by the same loops, it uses only what every tree has had: ``make_game``,
``new_initial_state``, ``legal_actions``, ``apply``, ``is_terminal``, the Gymnasium and PettingZoo
adapters' constructors, ``agents.base.make_agent``, ``evaluation.match.build_agent`` (agent specs such as
``mcts:200``) and ``training.train``'s model builders. It imports nothing else of this repository.

Each request names a measurement (``op``) and a CPU budget (``seconds``); the answer is ``{"count": n,
"cpu": s}``: ``n`` units (decisions, steps, simulations) in ``s`` seconds of this process's CPU time
(``time.process_time``), or ``{"error": "..."}``. Moves are uniformly random legal actions from
``random.Random(seed)``, for our games and the references alike. The clock is read between games
(engines, references) or every 64 steps (envs), so a measurement runs slightly over its budget.
"""

from __future__ import annotations

import json
import random
import sys
import time
import traceback
from typing import Any

_cache: dict[Any, Any] = {}


def _game(name: str, options: dict[str, Any]):
    import fof_env

    key = ("game", name, json.dumps(options, sort_keys=True))
    if key not in _cache:
        _cache[key] = fof_env.make_game(name, **options)
    return _cache[key]


def engine(game: str, options: dict[str, Any], seconds: float, seed: int = 0) -> tuple[int, float]:
    """Decisions of random games through the validated ``apply`` (a fresh legal list each decision)."""
    g = _game(game, options)
    rng = random.Random(seed)
    randrange = rng.randrange
    count = 0
    game_seed = seed * 100_003
    clock = time.process_time
    start = clock()
    while clock() - start < seconds:
        state = g.new_initial_state(game_seed)
        game_seed += 1
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[randrange(len(legal))])
            count += 1
    return count, clock() - start


def gym(game: str, options: dict[str, Any], side: int, seconds: float, seed: int = 0) -> tuple[int, float]:
    """Learner steps of the Gymnasium env against the random opponent, reading ``action_masks()`` every
    step; one seeded ``reset`` then unseeded ones, as a training loop resets."""
    import numpy as np

    from fof_env.envs.gym_env import WargameEnv

    key = ("gym", game, json.dumps(options, sort_keys=True), side)
    env = _cache.get(key)
    if env is None:
        env = _cache[key] = WargameEnv(game=game, side=side, opponent="random", **options)
        env.reset(seed=seed)
    rng = random.Random(seed)
    randrange = rng.randrange
    flatnonzero = np.flatnonzero
    count = 0
    clock = time.process_time
    start = clock()
    while clock() - start < seconds:
        for _ in range(64):
            legal = flatnonzero(env.action_masks())
            _, _, terminated, truncated, _ = env.step(int(legal[randrange(len(legal))]))
            count += 1
            if terminated or truncated:
                env.reset()
    return count, clock() - start


def _aec_turns(env, rng: random.Random, seconds: float) -> tuple[int, float]:
    """Turns of random play in a PettingZoo AEC env (mask read from each observation)."""
    import numpy as np

    randrange = rng.randrange
    flatnonzero = np.flatnonzero
    count = 0
    clock = time.process_time
    start = clock()
    while clock() - start < seconds:
        env.reset(seed=randrange(2**31))
        for _agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = flatnonzero(obs["action_mask"])
            env.step(int(legal[randrange(len(legal))]))
            count += 1
    return count, clock() - start


def aec(game: str, options: dict[str, Any], seconds: float, seed: int = 0) -> tuple[int, float]:
    """Turns of our PettingZoo AEC env (both sides random, the mask read from every observation)."""
    from fof_env.envs.aec_env import env as make_env

    key = ("aec", game, json.dumps(options, sort_keys=True))
    if key not in _cache:
        _cache[key] = make_env(game=game, **options)
    return _aec_turns(_cache[key], random.Random(seed), seconds)


def pettingzoo_connect_four(seconds: float, seed: int = 0) -> tuple[int, float]:
    """Turns of PettingZoo's ``connect_four_v3`` (pure Python), the same loop as :func:`aec`."""
    from pettingzoo.classic import connect_four_v3

    if "pz_c4" not in _cache:
        _cache["pz_c4"] = connect_four_v3.env()
    return _aec_turns(_cache["pz_c4"], random.Random(seed), seconds)


def spiel(game: str, seconds: float, seed: int = 0) -> tuple[int, float]:
    """Player decisions of random OpenSpiel games through pyspiel (C++); chance outcomes (backgammon's
    dice) are sampled by their probabilities and not counted."""
    import pyspiel

    key = ("spiel", game)
    if key not in _cache:
        _cache[key] = pyspiel.load_game(game)
    g = _cache[key]
    rng = random.Random(seed)
    randrange, rand = rng.randrange, rng.random
    count = 0
    clock = time.process_time
    start = clock()
    while clock() - start < seconds:
        state = g.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                x, chosen = rand(), outcomes[-1][0]
                for outcome, p in outcomes:
                    x -= p
                    if x <= 0:
                        chosen = outcome
                        break
                state.apply_action(chosen)
                continue
            legal = state.legal_actions()
            state.apply_action(legal[randrange(len(legal))])
            count += 1
    return count, clock() - start


def search(game: str, spec: str, player: int, decisions: int, seed: int = 0) -> dict[str, float]:
    """``spec``'s search (e.g. ``mcts:200``) as ``player`` on the first ``decisions`` positions of a
    heuristic game where it has a choice and that are not unseen placements (the search draws those; a
    tree older than ``State.is_unseen_placement`` keeps them): simulations (``last_search.iterations``)
    and CPU seconds."""
    from agents.base import make_agent
    from evaluation.match import build_agent

    g = _game(game, {})
    key = ("positions", game, player, decisions, seed)
    if key not in _cache:
        bots = [make_agent("heuristic", g, p, seed=seed + p) for p in (0, 1)]
        state, positions = g.new_initial_state(seed), []
        unseen = hasattr(state, "is_unseen_placement")  # not in old trees
        while not state.is_terminal and len(positions) < decisions:
            if state.current_player == player and len(state.legal_actions()) > 1 \
                    and not (unseen and state.is_unseen_placement()):  # drawn, not searched (mcts setup=draw)
                positions.append(state.clone())
            state.apply(bots[state.current_player].act(state))
        _cache[key] = positions
    positions = _cache[key]
    agent = build_agent(spec, g, player, seed)
    sims = 0
    start = time.process_time()
    for position in positions:
        agent.act(position)
        sims += agent.last_search.iterations
    return {"count": sims, "cpu": time.process_time() - start, "decisions": len(positions)}


def train(game: str, side: str, steps: int, seed: int = 0) -> tuple[int, float]:
    """Learner steps of ``fof train``'s default PPO set-up (its default vector env and the heuristic
    opponent, one torch thread) over ``steps`` steps; construction not timed."""
    import tempfile
    from pathlib import Path

    import torch

    from training.train import TrainConfig, _make_vec_env, _new_model

    torch.set_num_threads(1)
    with tempfile.TemporaryDirectory() as tmp:
        config = TrainConfig(game=game, side=side, out=tmp, seed=seed, steps=steps)
        venv = _make_vec_env(config, Path(tmp), seed)
        try:
            model = _new_model(config, venv, Path(tmp))
            model.tensorboard_log = None
            start = time.process_time()
            model.learn(total_timesteps=steps, progress_bar=False)
            return model.num_timesteps, time.process_time() - start
        finally:
            venv.close()


OPS = {
    "engine": engine,
    "gym": gym,
    "aec": aec,
    "pettingzoo_connect_four": pettingzoo_connect_four,
    "spiel": spiel,
    "search": search,
    "train": train,
}


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """The measurement ``request`` asks for, as a JSON-ready dict."""
    args = dict(request)
    op = OPS[args.pop("op")]
    try:
        result = op(**args)
    except ImportError as exc:
        return {"error": f"missing: {exc}"}
    except Exception as exc:  # reported to the parent, which prints it and skips the figure
        return {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc(limit=4)}
    if isinstance(result, dict):
        return result
    count, cpu = result
    return {"count": count, "cpu": cpu}


def main() -> int:
    sys.setrecursionlimit(10_000)
    for line in sys.stdin:
        if not line.strip():
            continue
        print(json.dumps(answer(json.loads(line))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
