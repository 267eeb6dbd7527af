"""The imitation anchor (``fof train --imitation-coef``): behaviour-cloning steps on the teacher's
demonstrations between PPO updates, with a weight that decays to 0 at the run's last step; and the
DAgger rounds (``fof train --dagger-rounds``): games the learner plays, the teacher labelling them."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch  # noqa: E402

from agents.policy_io import build_policy, policy_blob  # noqa: E402
from evaluation.executors import make_executor  # noqa: E402
from evaluation.match import build_agent  # noqa: E402
from fof_env.core.registry import make_game  # noqa: E402
from tests.training.policies import tiny_arch  # noqa: E402
from training.callbacks import ImitationAnchor  # noqa: E402
from training.envs import build_env  # noqa: E402
from training.imitation import (  # noqa: E402
    Demonstrations,
    agreement,
    anchor_steps,
    collect,
    collect_on,
    most_probable,
)


def _fresh_policy_and_demonstrations():
    game = make_game("strike_force_one")
    arch = tiny_arch(game)
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


def test_a_dagger_round_follows_the_learner_and_records_the_teachers_actions():
    """With a learner, every row is a state the learner's own moves led to, labelled with the
    teacher's choice there; the learner's moves are not the teacher's (else this proves nothing)."""
    policy, _ = _fresh_policy_and_demonstrations()
    env = build_env("strike_force_one", "soviet", {}, [("random", 1.0)], "win", None)
    data = collect(env, "heuristic", 2, 0, 0.99, first=5, learner=policy)
    row, differing = 0, 0
    for episode in (5, 6):
        obs, _ = env.reset(seed=episode)
        teacher = build_agent("heuristic", env.game, env.player, episode)
        done = False
        while not done:
            assert np.array_equal(obs, data.observations[row])
            assert np.array_equal(env.action_masks(), data.masks[row])
            assert data.actions[row] == teacher.act(env.game_state)
            move = most_probable(policy, obs, data.masks[row])
            differing += move != data.actions[row]
            obs, _, terminated, truncated, info = env.step(move)
            done = terminated or truncated
            row += 1
    assert row == len(data) and differing > 0
    assert data.episodes == 2 and data.win_rate in (0.0, 0.25, 0.5, 0.75, 1.0)


def test_a_dagger_round_on_worker_processes_collects_the_same_rows():
    policy, _ = _fresh_policy_and_demonstrations()
    env_args = ("strike_force_one", "soviet", {}, [("random", 1.0)], "win", None)
    here = collect(build_env(*env_args), "heuristic", 3, 0, 0.99, first=4, learner=policy)
    with make_executor("local", 2) as executor:
        there = collect_on(executor, env_args, "heuristic", 3, 0, 0.99, first=4,
                           learner=policy_blob(policy, False))
    for field in ("observations", "masks", "actions", "returns"):
        assert np.array_equal(getattr(here, field), getattr(there, field)), field
    assert (here.episodes, here.win_rate) == (there.episodes, there.win_rate)


def test_agreement_is_the_share_of_rows_where_the_policys_choice_is_the_recorded_action():
    policy, data = _fresh_policy_and_demonstrations()
    chosen = np.array([most_probable(policy, o, m) for o, m in zip(data.observations, data.masks, strict=True)])
    other = np.array([np.flatnonzero(m & (np.arange(len(m)) != c))[0] if (m.sum() > 1) else c
                      for m, c in zip(data.masks, chosen, strict=True)])
    forced = int((data.masks.sum(axis=1) == 1).sum())

    def relabel(actions):
        return Demonstrations(data.observations, data.masks, actions, data.returns, data.episodes, data.win_rate)

    assert agreement(policy, relabel(chosen)) == 1.0
    assert agreement(policy, relabel(other)) == round(forced / len(data), 4)
