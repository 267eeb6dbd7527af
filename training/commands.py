"""``fof train`` (added to the ``fof`` parser by :mod:`fof_env.app.cli`).

Every refusal is one line on stderr (``fof train: ...``) and exit status 2, before
anything is written: bad numbers (``--steps -1``, ``--final-eval-games 0``,
``--seed -1``), a bad agent spec, an ``--out`` that is a file or not writable, an
unusable checkpoint; a write that fails later (a full disk) is one line too.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from agents.policy_io import WriteError
from fof_env.core.registry import examples
from training.train import RUN_ON, VEC_ENVS, TrainConfig

_DEFAULTS = TrainConfig(game="", side="", out="")

EPILOG = """\
Examples:
{examples}

The run folder holds config.json, progress.json, checkpoints/, tb/ (TensorBoard),
and at the end model.safetensors with its card model.json
(play it: --agents ppo:RUN/model.safetensors).
"""


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Add ``train`` to the ``fof`` parser."""
    d = _DEFAULTS
    p = sub.add_parser(
        "train", help="train a MaskablePPO agent for one side (or both) of a game",
        description="Train a MaskablePPO policy (sb3-contrib) against an opponent pool, with masked "
        "evaluation, checkpoints, TensorBoard logs and a model card.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EPILOG.format(examples="\n".join(f"  {line}" for line in examples("train"))),
    )
    p.add_argument("--game", help="the game (fof list)")
    p.add_argument("--side", help="the side to learn, or 'both' (one policy for both sides)")
    p.add_argument("--out", help="the run folder (default runs/<game>-<side>)")
    p.add_argument("--resume", metavar="RUN", help="continue the run in RUN from its latest checkpoint "
                   "with its own config (only --steps may change it, and --workers/--backend/--address where "
                   "it runs)")
    p.add_argument("--best", action="store_true",
                   help="with --resume: train no further; finish the run (final evaluation, model, card) "
                   "from the kept checkpoint with the best evaluation win rate instead of the latest")
    p.add_argument("--steps", type=int, default=None,
                   help=f"total learner steps (default {d.steps}; 0 with --imitate: the imitation warm start "
                   "alone, no PPO); with --resume: the run's new total, >= 1 "
                   "(at or below the steps done: finish the run from its latest checkpoint; absent: keep it)")
    p.add_argument("--stop-at", type=int, default=None, metavar="STEPS",
                   help="pause once this many steps are done (a checkpoint; go on with --resume, or finish "
                   "with --resume --best), the schedules still running to --steps: unlike a wall-clock "
                   "timeout, the same step however fast the machine")
    p.add_argument("--opponent", nargs="+", default=d.opponents, metavar="SPEC",
                   help="opponent pool, drawn per episode: random, heuristic, mcts:N, ppo:PATH, "
                   "self (recent snapshots; needs --side both), league (every kept snapshot, prioritised "
                   "by how often the learner still loses to it; needs --side both) (default heuristic)")
    p.add_argument("--opponent-weights", nargs="+", type=float, metavar="W",
                   help="sampling weights of the pool (default equal)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option (repeatable)")
    p.add_argument("--envs", type=int, default=d.envs, help=f"environments stepped together (default {d.envs})")
    p.add_argument("--vec-env", choices=VEC_ENVS, default=d.vec_env,
                   help="dummy: step the envs in this process, one batched policy call; subproc: a process "
                   "per env; auto (default): dummy, the faster on 2 cores (python -m training.throughput)")
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--reward", choices=("win", "shaped", "margin"), default=d.reward)
    p.add_argument("--net-arch", type=int, nargs="+", default=d.net_arch, metavar="UNITS",
                   help=f"hidden layers of the policy and value nets (default {d.net_arch})")
    p.add_argument("--learning-rate", type=float, default=d.learning_rate,
                   help=f"Adam step size of PPO (default {d.learning_rate:g}), and of the --imitate warm "
                   "start and --imitation-coef steps unless --imitation-learning-rate is given")
    p.add_argument("--lr-schedule", choices=("constant", "linear"), default=d.lr_schedule,
                   help="linear: decay the learning rate to 0 at the run's last step (default constant)")
    p.add_argument("--n-steps", type=int, default=d.n_steps, help="rollout length per env")
    p.add_argument("--batch-size", type=int, default=d.batch_size)
    p.add_argument("--n-epochs", type=int, default=d.n_epochs)
    p.add_argument("--gamma", type=float, default=d.gamma)
    p.add_argument("--ent-coef", type=float, default=d.ent_coef)
    p.add_argument("--clip-range", type=float, default=d.clip_range)
    p.add_argument("--imitate", metavar="SPEC", help="warm start by behaviour cloning this agent (e.g. heuristic)")
    p.add_argument("--learner-setup", metavar="SPEC",
                   help="this agent (e.g. heuristic) plays the learner's unseen placements (a set-up made while no "
                   "enemy unit is on the table, or in secret) in training and evaluation, so the policy learns to "
                   "play from its mixed set-ups, as the ppo agent plays them by default (default: the policy makes them)")
    p.add_argument("--init", metavar="MODEL",
                   help="start from this model's policy instead of random weights: 'ppo' (the model shipped "
                   "for the side) or a model.safetensors with its card; the same game, side and --net-arch. "
                   "The optimizer starts afresh; the card records the model and the commands that made it")
    p.add_argument("--imitation-games", type=int, default=d.imitation_games)
    p.add_argument("--imitation-epochs", type=int, default=d.imitation_epochs)
    p.add_argument("--dagger-rounds", type=int, default=d.dagger_rounds, metavar="K",
                   help="with --imitate: after the warm start, K rounds of DAgger: --imitation-games more "
                   "games played by the learner, each of its decisions labelled by the teacher, then a "
                   "fit on all the games so far, so it learns what to do where its own mistakes lead "
                   f"(default {d.dagger_rounds}: none)")
    p.add_argument("--imitation-coef", type=float, default=d.imitation_coef, metavar="C",
                   help="with --imitate: after every PPO update, behaviour-cloning steps on its games with "
                   "weight C, decaying linearly to 0 at --steps, to keep PPO from pulling the imitation "
                   f"policy apart (default {d.imitation_coef:g}: none)")
    p.add_argument("--imitation-learning-rate", type=float, default=None, metavar="RATE",
                   help="with --imitate: Adam step size of the warm start and the --imitation-coef steps "
                   "(default: PPO's, as --learning-rate and --lr-schedule set it), so PPO can fine-tune with a smaller one")
    p.add_argument("--critic-warmup", type=int, default=d.critic_warmup, metavar="STEPS",
                   help="PPO's updates up to this step train only the critic, the policy staying as it "
                   "starts (the --imitate warm start): the critic learns the returns of the policy "
                   "before they move it (default 0: none)")
    p.add_argument("--eval-opponent", nargs="+", default=d.eval_opponents, metavar="SPEC", dest="eval_opponents",
                   help="opponents of the masked evaluation (default heuristic); with several, each point and "
                   "the final evaluation play each, and --resume --best chooses by their mean win rate")
    p.add_argument("--eval-every", type=int, default=d.eval_every)
    p.add_argument("--eval-games", type=int, default=d.eval_games, help="games per evaluation point")
    p.add_argument("--final-eval-games", type=int, default=d.final_eval_games)
    p.add_argument("--checkpoint-every", type=int, default=d.checkpoint_every)
    p.add_argument("--keep-checkpoints", type=int, default=d.keep_checkpoints,
                   help=f"checkpoints kept (default {d.keep_checkpoints}): the snapshots the 'league' opponent draws from")
    p.add_argument("--torch-threads", type=int, default=d.torch_threads)
    p.add_argument("--workers", type=int, default=d.workers,
                   help="processes (or Ray CPUs) that play the imitation games and masked evaluations "
                   f"(default {d.workers}: this process; the results do not depend on it)")
    p.add_argument("--backend", choices=("local", "ray"), default=d.backend,
                   help="where --workers run: local processes, or Ray (see fof evaluate --backend)")
    p.add_argument("--address", metavar="HOST:PORT", help="with --backend ray: a running Ray cluster")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.set_defaults(run=run_train, parser=p)


# What a --resume may be given besides the run: the rest is the run's config.json.
_RESUME_OPTIONS = frozenset({"help", "resume", "best", "steps", "stop_at", "no_progress", *RUN_ON})


def _given(args: argparse.Namespace, action: argparse.Action) -> bool:
    """Whether the command line gave ``action``'s option: typed (even with its default value) or
    parsed to another value than its default."""
    typed = any(token == flag or token.startswith(flag + "=") for token in args.argv for flag in action.option_strings)
    return typed or getattr(args, action.dest, action.default) != action.default


def _config_options_given(args: argparse.Namespace) -> list[str]:
    """The config options the command line gave (``--resume`` would ignore them)."""
    return [next(s for s in action.option_strings if s.startswith("--"))
            for action in args.parser._actions
            if action.option_strings and action.dest not in _RESUME_OPTIONS and _given(args, action)]


def run_train(args: argparse.Namespace, out: TextIO) -> int:
    from evaluation.executors import ExecutorUnavailable
    from fof_env.core.options import parse_assignments
    from training.train import command_line, train

    def log(text: str) -> None:
        print(text, file=out, flush=True)

    def refuse(message: str) -> int:
        print(f"fof train: {message}", file=sys.stderr)
        return 2

    if args.best and not args.resume:
        args.parser.error("--best finishes an existing run: use it with --resume RUN")
    if args.resume and args.steps is not None and args.steps < 1:  # 0 would silently mean "keep"
        return refuse(f"--steps must be an integer >= 1 with --resume, got {args.steps}")
    if args.stop_at is not None and args.stop_at < 1:
        return refuse(f"--stop-at must be an integer >= 1, got {args.stop_at}")
    if args.resume:
        given = _config_options_given(args)
        if given:
            args.parser.error(f"--resume takes the run's own config (only --steps, and where it runs: --workers, "
                              f"--backend, --address, may change); drop {', '.join(given)}")
        config = TrainConfig(game="", side="", out=args.resume, steps=args.steps or 0)  # 0: keep the run's
        run_on = {action.dest: getattr(args, action.dest) for action in args.parser._actions
                  if action.dest in RUN_ON and _given(args, action)}
    else:
        run_on = None
        if not args.game or not args.side:
            args.parser.error("--game and --side are required (or --resume RUN)")
        config = TrainConfig(
            game=args.game, side=args.side, out=args.out or f"runs/{args.game}-{args.side}",
            options=parse_assignments(args.option, "--option") if args.option else {},
            steps=_DEFAULTS.steps if args.steps is None else args.steps, opponents=args.opponent, opponent_weights=args.opponent_weights,
            envs=args.envs, vec_env=args.vec_env, seed=args.seed, reward=args.reward, net_arch=args.net_arch,
            learning_rate=args.learning_rate, lr_schedule=args.lr_schedule, n_steps=args.n_steps, batch_size=args.batch_size,
            n_epochs=args.n_epochs, gamma=args.gamma, ent_coef=args.ent_coef, clip_range=args.clip_range,
            imitate=args.imitate, learner_setup=args.learner_setup, init=args.init, imitation_games=args.imitation_games,
            imitation_epochs=args.imitation_epochs, dagger_rounds=args.dagger_rounds,
            imitation_coef=args.imitation_coef,
            imitation_learning_rate=args.imitation_learning_rate, critic_warmup=args.critic_warmup,
            eval_opponents=args.eval_opponents,
            eval_every=args.eval_every, eval_games=args.eval_games, final_eval_games=args.final_eval_games,
            checkpoint_every=args.checkpoint_every, keep_checkpoints=args.keep_checkpoints,
            torch_threads=args.torch_threads,
            workers=args.workers, backend=args.backend, address=args.address,
        )
    try:
        train(config, command_line(args.argv), resume=bool(args.resume), best=args.best,
              stop_at=args.stop_at, run_on=run_on, progress=not args.no_progress, log=log)
    except (ValueError, FileExistsError, FileNotFoundError, WriteError, ExecutorUnavailable) as exc:
        return refuse(" ".join(str(exc).split()))
    except OSError as exc:  # any other failed file operation: one line, no traceback
        return refuse(f"{exc.filename}: {exc.strerror}" if exc.filename and exc.strerror else str(exc))
    except KeyboardInterrupt:
        return 130
    return 0
