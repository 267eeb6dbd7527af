"""The imitation anchor (``fof train --imitation-coef``): behaviour-cloning steps on the teacher's
demonstrations between PPO updates, with a weight that decays to 0 at the run's last step."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch  # noqa: E402

from agents.policy_io import build_policy  # noqa: E402
from fof_env.core.registry import make_game  # noqa: E402
from training.callbacks import ImitationAnchor  # noqa: E402
from training.envs import build_env  # noqa: E402
from training.imitation import anchor_steps, collect  # noqa: E402


def _fresh_policy_and_demonstrations():
    game = make_game("strike_force_one")
    arch = {"policy": "MaskableActorCriticPolicy", "net_arch": {"pi": [16], "vf": [16]}, "activation": "Tanh",
            "features_extractor": "FlattenExtractor", "share_features_extractor": True,
            "observation_shape": list(game.observation_shape), "num_actions": game.num_actions,
            "both_sides": False}  # fmt: skip
    torch.manual_seed(0)
    policy = build_policy(arch, lambda _progress: 1e-3)
    env = build_env("strike_force_one", "soviet", {}, [("random", 1.0)], "win", None)
    return policy, collect(env, "heuristic", 3, 0, 0.99)


def test_anchor_steps_fit_the_policy_to_the_teachers_actions_and_leave_the_critic_alone():
    policy, data = _fresh_policy_and_demonstrations()
    critic = {name: p.detach().clone() for name, p in policy.named_parameters() if "value" in name}
    actor = {name: p.detach().clone() for name, p in policy.named_parameters() if "value" not in name}
    rng = np.random.default_rng(0)
    first = anchor_steps(policy, data, 1.0, 20, 64, rng)
    second = anchor_steps(policy, data, 1.0, 20, 64, rng)
    assert second < first  # the mean cross-entropy of the teacher's actions falls
    now = dict(policy.named_parameters())
    assert critic and all(torch.equal(now[name], before) for name, before in critic.items())
    assert any(not torch.equal(now[name], before) for name, before in actor.items())


def test_the_anchor_weight_decays_linearly_to_zero_at_the_last_step():
    anchor = ImitationAnchor(None, 2.0, 1000, 8, 256, 0)
    for steps, weight in [(0, 2.0), (250, 1.5), (500, 1.0), (1000, 0.0), (1500, 0.0)]:
        anchor.num_timesteps = steps
        assert anchor.weight() == pytest.approx(weight)
