"""RLlib (``make test-rllib``, in ``.venv-rllib`` with the gymnasium ``ray[rllib]`` pins).

Not collected by ``make test``: ``tests/rllib/conftest.py`` ignores it unless FOF_RLLIB_TESTS=1. Ray starts once per module.
"""

from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np
import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("ray.rllib")

import torch  # noqa: E402
from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

from fof_env.envs.rllib import rllib_env  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("strike_force_one", "lost_and_found")


@pytest.fixture(scope="module")
def ray_session():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    yield
    ray.shutdown()


@pytest.mark.parametrize("game", GAMES)
def test_rllib_env_passes_rllibs_env_check_only_with_illegal_action_loss(game):
    env = rllib_env(game=game)
    obs, _ = env.reset(seed=0)
    (agent,) = obs
    assert set(obs[agent]) == {"observations", "action_mask"}
    assert obs[agent]["action_mask"].dtype == np.int8 and obs[agent]["action_mask"].any()
    assert env.observation_space[agent]["observations"].contains(obs[agent]["observations"])
    for _ in range(5):  # the checker resets, then steps one unmasked random action
        check_multiagent_environments(rllib_env(game=game))
    raising = rllib_env(game=game, illegal_action="raise")
    raising.reset(seed=0)
    with pytest.raises(Exception, match="illegal action|abide"):
        for _ in range(20):  # an unmasked random action is illegal almost surely within 20 tries
            check_multiagent_environments(raising)


def _play(algo, game: str, seed: int) -> tuple[int, dict]:
    """One game, each side by its trained module (greedy); returns (decisions, final infos)."""
    env = rllib_env(game=game)
    obs, _ = env.reset(seed=seed)
    decisions, infos = 0, {}
    while obs:
        (agent,) = obs
        batch = {"obs": {k: torch.as_tensor(v)[None] for k, v in obs[agent].items()}}
        logits = algo.get_module(agent).forward_inference(batch)["action_dist_inputs"][0]
        action = int(logits.argmax())
        assert obs[agent]["action_mask"][action] == 1, f"{agent} chose an illegal action {action}"
        obs, rewards, terminated, truncated, infos = env.step({agent: action})
        decisions += 1
        if terminated["__all__"] or truncated["__all__"]:
            break
    return decisions, infos


def test_ppo_with_the_action_masking_module_trains_and_plays_legal_moves(ray_session):
    build_config = runpy.run_path(str(ROOT / "docs" / "examples" / "rllib_ppo.py"))["build_config"]
    algo = build_config("strike_force_one", batch=256, minibatch=64, epochs=1).build_algo()
    try:
        result = algo.train()
        runners = result["env_runners"]
        assert runners["num_env_steps_sampled_lifetime"] >= 256
        assert runners["num_episodes_lifetime"] >= 1
        assert set(runners["agent_episode_returns_mean"]) == {"soviet", "us"}
        assert set(result["learners"]) >= {"soviet", "us"}
        for seed in range(2):
            decisions, infos = _play(algo, "strike_force_one", seed)
            assert decisions > 20 and all(info["illegal"] == 0 for info in infos.values())
    finally:
        algo.stop()


def test_the_readme_rllib_recipe_runs(ray_session):
    from tests.integrations.recipes import readme_recipes

    namespace = {"__name__": "__recipe__"}
    exec(compile(readme_recipes()["rllib"], "docs/rl_libraries.md (recipe: rllib)", "exec"), namespace)
    assert namespace["result"]["env_runners"]["num_env_steps_sampled_lifetime"] > 0
    namespace["algo"].stop()
