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
from training.opponents import _LEAGUE_SCORES, OpponentPool, parse_pool, pfsp_weights  # noqa: E402
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
                         opponents=["self", "league", "random"], n_steps=256, batch_size=128, n_epochs=1,
                         net_arch=[32], eval_every=768, eval_games=2, final_eval_games=2,
                         checkpoint_every=512, keep_checkpoints=10, torch_threads=1)
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

    # the league draws among every kept snapshot, most often the ones the learner still loses to
    league = OpponentPool(game, 1, parse_pool(["league"], None), run / "checkpoints")
    names = sorted({_draw(league, s) for s in range(60)})
    assert names == ["league:ckpt_0.safetensors", "league:ckpt_1024.safetensors",
                     "league:ckpt_1536.safetensors", "league:ckpt_512.safetensors",
                     "league:ckpt_768.safetensors"]  # 768: the evaluation point's checkpoint
    scores = _LEAGUE_SCORES[(str(run / "checkpoints"), 1)]  # shared with the training run's pools
    trained = sum(g for _, g in scores.values())
    assert trained > 0  # the training episodes against league snapshots were counted
    _LEAGUE_SCORES.clear()
    for seed in range(200):  # the learner beats every snapshot but ckpt_512, which beats it
        name = _draw(league, seed)
        league.game_over(1.0 if name == "league:ckpt_512.safetensors" else -1.0)
    scores = _LEAGUE_SCORES[(str(run / "checkpoints"), 1)]
    assert sum(g for _, g in scores.values()) == 200
    assert scores["ckpt_512.safetensors"][0] == 0.0  # learner points against it
    later = [_draw(league, s) for s in range(1000, 1100)]
    assert later.count("league:ckpt_512.safetensors") > 80  # weights (1-p)^2: about 0.9 of the draws


def _draw(pool: OpponentPool, seed: int) -> str:
    pool.seed(seed)
    return pool.current_spec


def test_pfsp_weights_favour_the_snapshots_the_learner_loses_to():
    # p = (points + 1) / (games + 2): 10/12, 2/12 and 1/2 (never met); weight (1 - p)^2
    assert pfsp_weights({"a": (9.0, 10), "b": (1.0, 10)}, ["a", "b", "c"]) == pytest.approx(
        [1 / 36, 25 / 36, 1 / 4])


class _Listener:
    """A random opponent that records what the env tells it at the end of each episode."""

    def __init__(self, game, player):
        self.player, self.heard = player, []
        self.inner = make_agent("random", game, player, seed=0)

    def act(self, state):
        return self.inner.act(state)

    def game_over(self, result):
        self.heard.append(result)


def test_the_env_tells_an_opponent_with_game_over_its_own_return():
    from fof_env.envs.gym_env import WargameEnv

    game = make_game("strike_force_one")
    listener = _Listener(game, 1)
    env = WargameEnv(game, side=0, opponent=listener)
    rng = np.random.default_rng(0)
    for seed in range(3):
        env.reset(seed=seed)
        done = False
        while not done:
            _, _, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            done = done or truncated
        assert listener.heard[-1] == info["returns"][1]
    assert len(listener.heard) == 3
