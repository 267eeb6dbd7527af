"""Imitation warm start: behaviour cloning of a teacher agent before PPO.

``fof train --imitate heuristic`` first plays ``--imitation-games`` episodes in the
training env with the teacher choosing the learner's actions (the opponents come
from the same pool as in training), records ``(observation, mask, action,
return-to-go)`` at every learner decision, then fits the fresh policy to them:
masked cross-entropy on the teacher's action plus the value head regressed on the
discounted return (so PPO does not start from a random critic). PPO then improves
on the teacher instead of rediscovering the game from random play (the
"kickstarting" idea; the policy is the project's own, trained by ``fof train``).

``--dagger-rounds K`` then corrects the learner where its own mistakes lead it (DAgger, Ross, Gordon
& Bagnell 2011): each round plays ``--imitation-games`` more episodes with the *learner* choosing
(its most probable action) and the teacher only labelling every learner decision, adds them to the
demonstrations and fits the policy to all of them again. Plain behaviour cloning sees only the
states the teacher reaches; a learner that strays from them meets states it was never shown, and
its errors compound (an expected cost up to quadratic in the horizon, where DAgger's grows
linearly).

``--imitation-coef C`` keeps the teacher's demonstrations after the warm start and, after every
PPO update, takes behaviour-cloning steps on them (:func:`anchor_steps`, weight ``C``
decaying linearly to 0 at the run's last step; :class:`training.callbacks.ImitationAnchor`):
an anchor against PPO pulling a good imitation policy apart before its critic is
useful, in the spirit of DAPG's decaying demonstration loss (Rajeswaran et al. 2018).
``--imitation-learning-rate`` gives both their own Adam step size (:func:`learning_rate`), so
PPO can fine-tune with a smaller one than the warm start needs. ``--critic-warmup STEPS``
(:class:`training.callbacks.CriticWarmup`) keeps the actor as the warm start left it while PPO's
first updates fit the critic to the returns of the policy it samples (the warm start fitted it to
the teacher's).

The teacher acts on the state, but the project's bots never read hidden
information (tests in ``tests/agents``), so its choices hold nothing the learner
could not know.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass
class Demonstrations:
    """Teacher decisions in the learner's env: arrays with one row per learner decision."""

    observations: np.ndarray  # float32 (n, obs)
    masks: np.ndarray  # bool (n, actions)
    actions: np.ndarray  # int64 (n,)
    returns: np.ndarray  # float32 (n,): discounted return-to-go of the episode played
    episodes: int
    win_rate: float  # of the side that chose the actions played: the teacher, or the learner (DAgger)

    def __len__(self) -> int:
        return len(self.actions)


def _teacher_for(env, teacher: str, seed: int):
    """The teacher agent for the side ``env`` is playing this episode."""
    from evaluation.match import build_agent

    inner = env.envs[env.player] if hasattr(env, "envs") else env
    return inner, build_agent(teacher, inner.game, inner.player, seed)


def most_probable_actions(policy, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The actions ``policy`` (a MaskableActorCriticPolicy) finds most probable on a batch of
    observations (``B x D``) under their legal masks (``B x num_actions``)."""
    import torch

    with torch.no_grad():
        dist = policy.get_distribution(torch.as_tensor(observations, dtype=torch.float32), action_masks=masks)
        return dist.distribution.probs.argmax(dim=1).numpy()


def most_probable(policy, obs: np.ndarray, mask: np.ndarray) -> int:
    """The action ``policy`` finds most probable on one observation (:func:`most_probable_actions`)."""
    return int(most_probable_actions(policy, obs[None], mask[None])[0])


def collect(env, teacher: str, episodes: int, seed: int, gamma: float, progress: bool = False,
            first: int = 0, learner=None) -> Demonstrations:
    """Play episodes ``first .. first + episodes - 1`` of ``env`` with ``teacher`` choosing the
    learner's actions; episode ``e`` is ``env.reset(seed=seed + e)`` with the teacher seeded
    ``seed + e``, so it depends on its number only (chunks of episodes can be played anywhere).

    With ``learner`` (a policy) the learner plays its most probable action instead and the teacher
    only labels each decision (a DAgger round): the rows hold the teacher's actions on the states the
    learner reaches, the returns and ``win_rate`` are the learner's."""
    obs_rows, mask_rows, actions, returns = [], [], [], []
    wins = 0.0
    bar = _bar(episodes, "imitation games", progress)
    for episode in range(first, first + episodes):
        obs, _ = env.reset(seed=seed + episode)
        inner, agent = _teacher_for(env, teacher, seed + episode)
        rewards = []
        done = False
        while not done:
            action = agent.act(inner.game_state)
            mask = env.action_masks()
            obs_rows.append(obs)
            mask_rows.append(mask)
            actions.append(action)
            if learner is not None:
                action = most_probable(learner, obs, mask)
            obs, reward, terminated, truncated, info = env.step(action)
            rewards.append(reward)
            done = terminated or truncated
        winner = info.get("winner")
        wins += 1.0 if winner == inner.side else 0.5 if winner is None else 0.0
        g = 0.0
        tail = []
        for r in reversed(rewards):
            g = r + gamma * g
            tail.append(g)
        returns.extend(reversed(tail))
        bar.update(1)
    bar.close()
    return Demonstrations(
        observations=np.asarray(obs_rows, dtype=np.float32),
        masks=np.asarray(mask_rows, dtype=bool),
        actions=np.asarray(actions, dtype=np.int64),
        returns=np.asarray(returns, dtype=np.float32),
        episodes=episodes,
        win_rate=wins / max(1, episodes),
    )


def merge(parts: list[Demonstrations]) -> Demonstrations:
    """The demonstrations of consecutive chunks of episodes, as one (rows in chunk order)."""
    episodes = sum(p.episodes for p in parts)
    return Demonstrations(
        observations=np.concatenate([p.observations for p in parts]),
        masks=np.concatenate([p.masks for p in parts]),
        actions=np.concatenate([p.actions for p in parts]),
        returns=np.concatenate([p.returns for p in parts]),
        episodes=episodes,
        win_rate=sum(p.win_rate * p.episodes for p in parts) / max(1, episodes),
    )


CHUNK = 50  # imitation episodes per task on a pool or a cluster


def collect_task(task: tuple) -> Demonstrations:
    """One chunk of :func:`collect` in a worker: ``(env_args, teacher, seed, gamma, first, count,
    learner)``, ``env_args`` being :func:`training.envs.build_env`'s arguments and ``learner`` None
    or the :func:`~agents.policy_io.policy_blob` of the policy that plays, rebuilt here."""
    from agents.policy_io import policy_from_blob
    from training.envs import build_env

    env_args, teacher, seed, gamma, first, count, learner = task
    policy = None if learner is None else policy_from_blob(learner, "the learner's policy")
    return collect(build_env(*env_args), teacher, count, seed, gamma, first=first, learner=policy)


def collect_on(executor, env_args: tuple, teacher: str, episodes: int, seed: int, gamma: float,
               progress: bool = False, first: int = 0, learner: tuple[bytes, str] | None = None) -> Demonstrations:
    """:func:`collect` of episodes ``first .. first + episodes - 1`` as chunks of ``CHUNK`` on
    ``executor`` (:mod:`evaluation.executors`): the same episodes, so the same data, as in one
    process; ``learner`` is the :func:`~agents.policy_io.policy_blob` of the policy that plays a
    DAgger round."""
    tasks = [(env_args, teacher, seed, gamma, start, min(CHUNK, first + episodes - start), learner)
             for start in range(first, first + episodes, CHUNK)]
    bar = _bar(episodes, "imitation games", progress)
    parts = []
    for part in executor.map(collect_task, tasks):
        parts.append(part)
        bar.update(part.episodes)
    bar.close()
    return merge(parts)


def behaviour_clone(policy, data: Demonstrations, epochs: int, batch_size: int = 256, seed: int = 0,
                    value_coef: float = 0.5, progress: bool = False) -> dict[str, Any]:
    """Fit ``policy`` (a MaskableActorCriticPolicy) to ``data``; returns held-out statistics.

    10 % of the decisions are held out; the result reports the policy's agreement
    with the teacher on them (``accuracy``: the most probable action equals the
    teacher's) and the final losses.
    """
    import torch

    rng = np.random.default_rng(seed)
    order = rng.permutation(len(data))
    held = max(1, len(order) // 10)
    test_idx, train_idx = order[:held], order[held:]

    def tensors(idx):
        return (torch.as_tensor(data.observations[idx]), torch.as_tensor(data.actions[idx]),
                torch.as_tensor(data.masks[idx]), torch.as_tensor(data.returns[idx]))

    policy.set_training_mode(True)
    bar = _bar(epochs * math.ceil(len(train_idx) / batch_size), "imitation updates", progress)
    for _ in range(epochs):
        rng.shuffle(train_idx)
        for start in range(0, len(train_idx), batch_size):
            obs, act, mask, ret = tensors(train_idx[start:start + batch_size])
            values, log_prob, _ = policy.evaluate_actions(obs, act, action_masks=mask)
            _descend(policy, -log_prob.mean() + value_coef * torch.nn.functional.mse_loss(values.flatten(), ret))
            bar.update(1)
    bar.close()
    policy.set_training_mode(False)
    with torch.no_grad():
        obs, act, mask, ret = tensors(test_idx)
        values, log_prob, _ = policy.evaluate_actions(obs, act, action_masks=mask)
        chosen = most_probable_actions(policy, data.observations[test_idx], data.masks[test_idx])
        return {
            "decisions": len(data),
            "episodes": data.episodes,
            "teacher_win_rate": round(data.win_rate, 4),
            "epochs": epochs,
            "held_out": int(held),
            "accuracy": round(float((chosen == data.actions[test_idx]).astype(np.float32).mean()), 4),
            "nll": round(float(-log_prob.mean()), 4),
            "value_mse": round(float(torch.nn.functional.mse_loss(values.flatten(), ret)), 4),
        }


def agreement(policy, data: Demonstrations) -> float:
    """The share of ``data``'s decisions on which ``policy``'s most probable action is the one recorded."""
    if not len(data):
        return 0.0
    chosen = most_probable_actions(policy, data.observations, data.masks)
    return round(float((chosen == data.actions).mean()), 4)


def anchor_steps(policy, data: Demonstrations, weight: float, steps: int, batch_size: int,
                 rng: np.random.Generator) -> float:
    """``steps`` gradient steps on ``weight`` times the masked cross-entropy of the teacher's
    actions, each on a minibatch of ``batch_size`` decisions drawn from ``data`` by ``rng``
    (the policy term of :func:`behaviour_clone`, without the value term: during PPO the critic
    learns from the learner's own returns). Returns the mean cross-entropy before each step."""
    import torch

    policy.set_training_mode(True)
    losses = []
    for _ in range(steps):
        idx = rng.integers(0, len(data), size=min(batch_size, len(data)))
        _, log_prob, _ = policy.evaluate_actions(torch.as_tensor(data.observations[idx]),
                                                 torch.as_tensor(data.actions[idx]),
                                                 action_masks=torch.as_tensor(data.masks[idx]))
        nll = -log_prob.mean()
        _descend(policy, weight * nll)
        losses.append(nll.item())
    policy.set_training_mode(False)
    return sum(losses) / max(1, len(losses))


@contextlib.contextmanager
def learning_rate(policy, rate: float) -> Iterator[None]:
    """Inside: the policy's optimizer steps with ``rate``; after: with the step sizes it had
    (PPO sets its own before every update, so this matters between updates)."""
    groups = policy.optimizer.param_groups
    saved = [group["lr"] for group in groups]
    for group in groups:
        group["lr"] = rate
    try:
        yield
    finally:
        for group, rate_before in zip(groups, saved, strict=True):
            group["lr"] = rate_before


def _descend(policy, loss) -> None:
    """One step of the policy's own optimizer on ``loss`` (gradient norm clipped to 0.5, as PPO's)."""
    import torch

    policy.optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
    policy.optimizer.step()


def _bar(total: int, desc: str, progress: bool):
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="", leave=False, disable=not progress)
