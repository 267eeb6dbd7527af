"""Self-play: one policy for both sides (`--side both`) whose snapshots are its own opponents."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from agents.base import make_agent  # noqa: E402
from evaluation.match import play_game  # noqa: E402
from fof_env.core.registry import make_game  # noqa: E402
from training.envs import build_env  # noqa: E402
from training.opponents import OpponentPool, parse_pool  # noqa: E402
from training.train import TrainConfig, train  # noqa: E402


def test_two_sided_env_plays_both_sides_and_flags_the_side():
    env = build_env("strike_force_one", "both", {}, parse_pool(["random"], None), "win", None)
    seen = set()
    for seed in range(8):
        obs, info = env.reset(seed=seed)
        assert obs.shape == (752,) and env.observation_space.contains(obs)
        player = env.player
        assert np.array_equal(obs[-2:], np.eye(2, dtype=np.float32)[player])
        assert info["side"] == ("soviet", "us")[player]
        assert np.array_equal(env.action_masks(), env.envs[player].game_state.legal_mask())
        seen.add(player)
    assert seen == {0, 1}


def test_the_pool_draws_its_opponent_from_the_episode_seed():
    game = make_game("strike_force_one")
    pool = OpponentPool(game, 1, parse_pool(["random", "heuristic"], [1, 3]))
    draws = []
    for seed in range(40):
        pool.seed(seed)
        draws.append(pool.current_spec)
    again = []
    for seed in range(40):
        pool.seed(seed)
        again.append(pool.current_spec)
    assert draws == again and set(draws) == {"random", "heuristic"}
    assert draws.count("heuristic") > draws.count("random")


def test_self_play_run_uses_its_snapshots_and_plays_both_sides(tmp_path):
    run = tmp_path / "both"
    config = TrainConfig(game="strike_force_one", side="both", out=str(run), steps=1536, envs=1,
                         opponents=["self", "random"], n_steps=256, batch_size=128, n_epochs=1,
                         net_arch=[32], eval_every=768, eval_games=2, final_eval_games=2,
                         checkpoint_every=512, torch_threads=1)
    train(config, "fof train (self-play)", progress=False, log=lambda _t: None)
    card = json.loads((run / "model.json").read_text())
    assert card["side"] == "both" and card["observation_shape"] == [752]
    assert {p["side"] for p in card["final_evaluation"]} == {"soviet", "us"}

    game = make_game("strike_force_one")
    pool = OpponentPool(game, 1, parse_pool(["self"], None), run / "checkpoints")
    pool.seed(0)
    assert pool.current_spec.startswith("self:ckpt_") and pool.current_spec.endswith(".safetensors")
    assert pool.current.both_sides and pool.current.deterministic is False
    agents = [make_agent("ppo", game, p, seed=0, path=str(run / "model.safetensors")) for p in (0, 1)]
    assert all(a.both_sides for a in agents)
    assert play_game(game, agents, 3).decisions > 0
