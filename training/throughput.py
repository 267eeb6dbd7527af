"""Training throughput: learner steps/s of ``fof train``'s PPO loop under several vectorisations, in one run.

    python -m training.throughput                                  # the featured games, every setting
    python -m training.throughput --game GAME --steps 16384

Each setting builds the model ``fof train`` builds (its default hyperparameters and opponent, the
heuristic) and times ``learn`` over ``--steps`` learner steps: rollouts, masking, the opponent's moves and
the PPO updates, everything a run pays for. Settings (``VEC:ENVS[:n_steps=N][:threads=N]``); every default
setting collects 2,048 steps per PPO update (``envs x n_steps``), so all make the same updates:

* ``subproc:2:n_steps=1024`` - the reference: ``fof train``'s old default (two
  ``SubprocVecEnv`` workers, 1,024 steps each);
* ``dummy:1:n_steps=2048`` - one env, no vectorisation;
* ``dummy:N`` - N envs stepped in this process, one batched policy call per step
  (``dummy:16:n_steps=128`` is the new default);
* ``subproc:N`` - a process per env;
* ``...:threads=0`` - torch's own default thread count instead of ``fof train``'s one thread (what a
  raw Stable-Baselines3 script gets; it crawls on small networks, see the README).

The table prints steps/s and each ratio to the reference, measured in the same run: compare ratios,
not absolute rates, across machines.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REFERENCE = "subproc:2:n_steps=1024"
DEFAULT_SETTINGS = (REFERENCE, "dummy:1:n_steps=2048", "dummy:4:n_steps=512", "dummy:8:n_steps=256",
                    "dummy:16:n_steps=128", "subproc:16:n_steps=128", "dummy:16:n_steps=128:threads=0")


def parse_setting(text: str) -> tuple[str, int, int | None, int]:
    """``"dummy:8"`` -> ("dummy", 8, None, 1); ``"dummy:16:n_steps=128:threads=0"`` -> ("dummy", 16, 128, 0)
    (n_steps None: ``fof train``'s default; threads 0: torch's default)."""
    parts = text.split(":")
    try:
        vec, envs = parts[0], int(parts[1])
        extras = {"n_steps": None, "threads": 1}
        for extra in parts[2:]:
            key, _, value = extra.partition("=")
            if key not in extras:
                raise ValueError
            extras[key] = int(value)
    except (IndexError, ValueError):
        raise ValueError(f"setting {text!r}: expected VEC:ENVS[:n_steps=N][:threads=N], e.g. dummy:16 or "
                         "subproc:2:n_steps=1024") from None
    n_steps, threads = extras["n_steps"], extras["threads"]
    if vec not in ("dummy", "subproc") or envs < 1 or threads < 0 or (n_steps is not None and n_steps < 2):
        raise ValueError(f"setting {text!r}: VEC is dummy or subproc, ENVS >= 1, n_steps >= 2, threads >= 0")
    return vec, envs, n_steps, threads


def steps_per_second(game: str, side: str, setting: str, steps: int, seed: int = 0) -> float:
    """Learner steps/s of ``learn(steps)`` for one setting (construction not timed)."""
    import torch

    from training.train import TrainConfig, _make_vec_env, _new_model

    vec, envs, n_steps, threads = parse_setting(setting)
    saved_threads = torch.get_num_threads()
    with tempfile.TemporaryDirectory() as tmp:
        config = TrainConfig(game=game, side=side, out=tmp, envs=envs, vec_env=vec, seed=seed, steps=steps)
        config.n_steps = n_steps or config.n_steps
        if threads:
            torch.set_num_threads(threads)
        venv = _make_vec_env(config, Path(tmp), seed)
        try:
            model = _new_model(config, venv, Path(tmp))
            model.tensorboard_log = None
            start = time.perf_counter()
            model.learn(total_timesteps=steps, progress_bar=False)
            elapsed = time.perf_counter() - start
            return model.num_timesteps / elapsed
        finally:
            venv.close()
            torch.set_num_threads(saved_threads)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", nargs="+", default=None,
                        help="games (default: the featured games, GameSpec.featured), each for its first side")
    parser.add_argument("--setting", nargs="+", default=list(DEFAULT_SETTINGS), metavar="VEC:ENVS",
                        help=f"settings to time; {REFERENCE} (the reference) is always added")
    parser.add_argument("--steps", type=int, default=8192,
                        help="learner steps timed per setting (default 8192: four updates of 2,048 steps)")
    args = parser.parse_args(argv)
    settings = [REFERENCE] + [s for s in args.setting if s != REFERENCE]
    try:
        for s in settings:
            parse_setting(s)
    except ValueError as exc:
        parser.error(str(exc))
    import torch

    print(f"# fof train throughput: learner steps/s, {args.steps} steps per setting, heuristic opponent; "
          f"torch default threads here: {torch.get_num_threads()}")
    print("\n| game | setting | steps/s | x reference |\n|---|---|---:|---:|")
    for game in args.game or featured_games():
        side = _first_side(game)
        rates = {}
        for setting in settings:
            rates[setting] = steps_per_second(game, side, setting, args.steps)
            print(f"| {game} ({side}) | {setting} | {rates[setting]:,.0f} | {rates[setting] / rates[REFERENCE]:.2f} |",
                  flush=True)
    return 0


def featured_games() -> list[str]:
    from fof_env.core.registry import game_specs

    return [spec.name for spec in game_specs() if spec.featured]


def _first_side(game: str) -> str:
    from fof_env.core.registry import make_game

    return make_game(game).player_names[0]


if __name__ == "__main__":
    sys.exit(main())
