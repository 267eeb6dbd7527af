"""Masked PPO in one file, CleanRL style, on a fof_env Gymnasium env (default: Strike Force One).

Read it top to bottom and copy what you need: a ``gymnasium.vector.SyncVectorEnv`` of
``fof_env/<Game>-v0`` envs, an actor-critic MLP whose policy logits are masked with
``infos["action_mask"]``, PPO's clipped objective with GAE, then a greedy evaluation against
the random opponent with a Wilson 95% interval::

    python docs/examples/cleanrl_masked_ppo.py --total-timesteps 100000
    python docs/examples/cleanrl_masked_ppo.py --game lost_and_found --side usmc --total-timesteps 20000

Masks. The vector env runs in ``AutoresetMode.SAME_STEP``: the step that ends an episode
resets that sub-env at once, so every row of ``infos["action_mask"]`` is the mask of the
decision that the next action answers (the finished episode's info is in
``infos["final_info"]``). ``NEXT_STEP`` is safe too (a finished sub-env reports the next
episode's first mask), but it adds one ignored "reset step" per episode that PPO would have
to drop from its batch.

Prints one line per update and, at the end, ``win rate vs random: ...``; ``--out FILE``
also writes the result as JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import gymnasium as gym
import torch
from torch import nn

import fof_env  # registers the fof_env/<Game>-v0 ids
from fof_env.envs.registration import env_id


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", default="strike_force_one")
    p.add_argument("--side", default=None, help="the learner's side (default: the game's first)")
    p.add_argument("--opponent", default="random", help="training opponent (an agent kind)")
    p.add_argument("--total-timesteps", type=int, default=100_000)
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--num-steps", type=int, default=128, help="steps per env per update")
    p.add_argument("--learning-rate", type=float, default=2.5e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--num-minibatches", type=int, default=4)
    p.add_argument("--update-epochs", type=int, default=4)
    p.add_argument("--clip-coef", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--eval-games", type=int, default=200, help="greedy games against random at the end")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    p.add_argument("--out", type=Path, default=None, help="write the result as JSON here")
    return p.parse_args(argv)


class Agent(nn.Module):
    """Actor-critic MLP; ``dist(obs, mask)`` is a Categorical over the legal actions only."""

    def __init__(self, n_obs: int, n_actions: int, hidden: int):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_obs, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.actor = nn.Linear(hidden, n_actions)
        self.critic = nn.Linear(hidden, 1)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(self.body(obs)).squeeze(-1)

    def dist(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.distributions.Categorical, torch.Tensor]:
        h = self.body(obs)
        logits = self.actor(h).masked_fill(~mask, -1e9)  # illegal actions get probability 0
        return torch.distributions.Categorical(logits=logits), self.critic(h).squeeze(-1)


def make_env(game: str, side: str, opponent: str):
    return lambda: gym.make(env_id(game), side=side, opponent=opponent)


def train(args: argparse.Namespace) -> tuple[Agent, float, int]:
    """PPO for ``args.total_timesteps`` learner steps; returns the agent, seconds, steps."""
    torch.manual_seed(args.seed)
    envs = gym.vector.SyncVectorEnv(
        [make_env(args.game, args.side, args.opponent) for _ in range(args.num_envs)],
        autoreset_mode=gym.vector.AutoresetMode.SAME_STEP,
    )
    n_obs = envs.single_observation_space.shape[0]
    n_act = envs.single_action_space.n
    agent = Agent(n_obs, n_act, args.hidden)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    n, t = args.num_envs, args.num_steps
    obs_buf = torch.zeros((t, n, n_obs))
    mask_buf = torch.zeros((t, n, n_act), dtype=torch.bool)
    act_buf = torch.zeros((t, n), dtype=torch.long)
    logp_buf, rew_buf, done_buf, val_buf = (torch.zeros((t, n)) for _ in range(4))

    obs, infos = envs.reset(seed=args.seed)
    next_obs = torch.as_tensor(obs)
    next_mask = torch.as_tensor(infos["action_mask"])
    next_done = torch.zeros(n)
    updates = max(1, args.total_timesteps // (n * t))
    batch = n * t
    minibatch = batch // args.num_minibatches
    wins = episodes = 0
    start = time.perf_counter()
    for update in range(1, updates + 1):
        for step in range(t):  # ---- rollout
            obs_buf[step], mask_buf[step], done_buf[step] = next_obs, next_mask, next_done
            with torch.no_grad():
                dist, value = agent.dist(next_obs, next_mask)
                action = dist.sample()
            act_buf[step], logp_buf[step], val_buf[step] = action, dist.log_prob(action), value
            obs, reward, terminated, truncated, infos = envs.step(action.numpy())
            rew_buf[step] = torch.as_tensor(reward, dtype=torch.float32)
            next_obs = torch.as_tensor(obs)
            next_mask = torch.as_tensor(infos["action_mask"])
            next_done = torch.as_tensor(terminated | truncated, dtype=torch.float32)
            episodes += int(next_done.sum())
            wins += int((reward > 0).sum())  # reward="win": +1 only on a won game's last step

        with torch.no_grad():  # ---- GAE
            next_value = agent.value(next_obs)
            adv = torch.zeros((t, n))
            last = torch.zeros(n)
            for s in reversed(range(t)):
                nonterminal = 1.0 - (next_done if s == t - 1 else done_buf[s + 1])
                following = next_value if s == t - 1 else val_buf[s + 1]
                delta = rew_buf[s] + args.gamma * following * nonterminal - val_buf[s]
                last = delta + args.gamma * args.gae_lambda * nonterminal * last
                adv[s] = last
            ret = adv + val_buf

        b_obs, b_mask = obs_buf.reshape(batch, n_obs), mask_buf.reshape(batch, n_act)
        b_act, b_logp = act_buf.reshape(batch), logp_buf.reshape(batch)
        b_adv, b_ret = adv.reshape(batch), ret.reshape(batch)
        for _ in range(args.update_epochs):  # ---- PPO update
            for idx in torch.randperm(batch).split(minibatch):
                dist, value = agent.dist(b_obs[idx], b_mask[idx])
                ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
                a = b_adv[idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg_loss = torch.max(-a * ratio, -a * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
                v_loss = 0.5 * ((value - b_ret[idx]) ** 2).mean()
                loss = pg_loss + args.vf_coef * v_loss - args.ent_coef * dist.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        rate = wins / episodes if episodes else float("nan")
        print(f"update {update}/{updates}  steps {update * batch}  episodes {episodes}  train win rate {rate:.2f}")
        wins = episodes = 0
    envs.close()
    return agent, time.perf_counter() - start, updates * batch


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a win rate (95% by default)."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (centre - half, centre + half)


def evaluate(agent: Agent, args: argparse.Namespace) -> tuple[int, int, int]:
    """Greedy (argmax over legal actions) games against random: (wins, draws, games)."""
    env = make_env(args.game, args.side, "random")()
    wins = draws = 0
    for game in range(args.eval_games):
        obs, info = env.reset(seed=10_000 + game)
        done = False
        while not done:
            with torch.no_grad():
                dist, _ = agent.dist(torch.as_tensor(obs)[None], torch.as_tensor(info["action_mask"])[None])
            obs, reward, terminated, truncated, info = env.step(int(dist.probs.argmax()))
            done = terminated or truncated
        wins += reward > 0
        draws += reward == 0
    env.close()
    return wins, draws, args.eval_games


def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    if args.side is None:
        args.side = fof_env.make_game(args.game).player_names[0]
    torch.set_num_threads(args.threads)
    agent, seconds, steps = train(args)
    wins, draws, games = evaluate(agent, args)
    low, high = wilson(wins, games)
    result = {
        "game": args.game, "side": args.side, "opponent": args.opponent, "steps": steps,
        "train_seconds": round(seconds, 1), "eval_games": games, "wins": wins, "draws": draws,
        "win_rate": wins / games if games else None, "wilson95": [round(low, 3), round(high, 3)],
    }  # fmt: skip
    print(
        f"win rate vs random: {wins}/{games} = {wins / max(games, 1):.3f} "
        f"(Wilson 95% {low:.3f}-{high:.3f}); {steps} steps in {seconds:.1f} s"
    )
    if args.out is not None:
        args.out.write_text(json.dumps(result, indent=2) + "\n")
    return result


if __name__ == "__main__":
    main()
