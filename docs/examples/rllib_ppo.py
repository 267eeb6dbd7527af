"""RLlib PPO on the PettingZoo AEC env, one action-masking RLModule per side.

Needs ``ray[rllib]``, which pins its own gymnasium (1.2.2 for ray 2.60): ``make test-rllib``
builds ``.venv-rllib`` with it and runs this at a tiny budget. By hand::

    .venv-rllib/bin/python docs/examples/rllib_ppo.py --iterations 20

What it takes to make RLlib work with these envs (all in :func:`build_config`):

* the observation keys: RLlib's ``ActionMaskingTorchRLModule`` reads ``"observations"`` and
  ``"action_mask"``; :func:`fof_env.envs.rllib.rllib_env` renames ours;
* env checking: RLlib's checker steps unmasked random actions, so the env is built with
  ``illegal_action="loss"`` (the checker stays on);
* turns do not alternate: ``PettingZooEnv`` reports only the agent to act, RLlib's
  multi-agent episodes take that; each side maps to its own module (``policy_mapping_fn``).
"""

from __future__ import annotations

import argparse
from typing import Any

import fof_env


def build_config(game: str = "strike_force_one", *, batch: int = 4000, minibatch: int = 500,
                 epochs: int = 5, hidden: int = 128, env_runners: int = 0, **env_kwargs: Any):
    """A ``PPOConfig`` training one ``ActionMaskingTorchRLModule`` per side of ``game``
    (``env_kwargs`` go to the AEC env: ``reward="shaped"``, game options ...)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    from fof_env.envs.rllib import rllib_env

    name = f"fof_env_{game}"
    register_env(name, lambda config: rllib_env(game=game, **config))
    sides = list(fof_env.make_game(game).player_names)
    module = RLModuleSpec(
        module_class=ActionMaskingTorchRLModule,
        model_config={"head_fcnet_hiddens": [hidden, hidden], "head_fcnet_activation": "tanh"},
    )
    return (
        PPOConfig()
        .environment(name, env_config=env_kwargs)
        .env_runners(num_env_runners=env_runners)
        .multi_agent(policies=set(sides), policy_mapping_fn=lambda agent_id, episode, **kw: agent_id)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={side: module for side in sides}))
        .training(train_batch_size_per_learner=batch, minibatch_size=minibatch, num_epochs=epochs)
    )


def main(argv: list[str] | None = None) -> list[dict]:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", default="strike_force_one")
    p.add_argument("--iterations", type=int, default=1)
    p.add_argument("--batch", type=int, default=4000, help="env steps per training iteration")
    p.add_argument("--minibatch", type=int, default=500)
    p.add_argument("--epochs", type=int, default=5)
    args = p.parse_args(argv)

    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    algo = build_config(args.game, batch=args.batch, minibatch=args.minibatch, epochs=args.epochs).build_algo()
    results = []
    for i in range(args.iterations):
        result = algo.train()
        runners = result["env_runners"]
        print(
            f"iteration {i + 1}: {runners['num_env_steps_sampled_lifetime']} env steps, "
            f"{runners.get('num_episodes_lifetime', 0)} episodes, "
            f"returns per side {runners.get('agent_episode_returns_mean', {})}"
        )
        results.append(result)
    algo.stop()
    return results


if __name__ == "__main__":
    main()
