"""MaskablePPO training for any registered game and side: :func:`train` (``fof train``).

A run lives in one folder (``--out``)::

    config.json          the TrainConfig and the exact command (and every --resume command)
    progress.json        steps, wall time, learning curve; rewritten at every checkpoint/evaluation
    checkpoints/         ckpt_<steps>.safetensors: policy + optimizer tensors, counters in its
                         metadata, at every evaluation point (ckpt_0: the policy as imitation
                         left it) and every --checkpoint-every steps (agents.policy_io)
    tb/                  TensorBoard logs (tensorboard --logdir RUN/tb)
    model.safetensors    the final policy (float16 tensors, no optimizer state: small, for playing)
    model.json           its card (agents.ppo reads it; mandatory): see :func:`write_card`

Every file is data (safetensors tensors and JSON); nothing is pickled or unpickled.
A resumed run rebuilds MaskablePPO from ``config.json`` (schedules included) and
loads the checkpoint's tensors, optimizer state and counters into it (:func:`restore`).

Steps: ``total_timesteps`` counts the learner's decisions (env steps). The loop:
optional imitation warm start (:mod:`training.imitation`), then PPO on
``envs`` environments (stepped in this process by ``DummyVecEnv``, one batched policy call for
all of them; ``vec_env="subproc"`` gives each its own process) against the
opponent pool (:mod:`training.opponents`), with a masked evaluation against
each of ``eval_opponents`` every ``eval_every`` steps and a checkpoint every
``checkpoint_every`` steps. Ctrl-C (or SIGTERM) saves a checkpoint before stopping;
``fof train --resume RUN`` continues from the latest checkpoint with the run's
own config (the env seeds of the continued part derive from the seed and the
step count, so a resumed run is reproducible but not identical to an
uninterrupted one). ``stop_at`` (``--stop-at``) pauses the run the same way at a
given step, the schedules still running to ``steps``: the run up to there is the
uninterrupted one's, where a wall-clock ``timeout`` cuts it wherever the machine's
speed has got it. Bit for bit only on the same kind of processor: torch's kernels
choose their float arithmetic by the instruction set (the card's ``platform``).

Before anything is written, :meth:`TrainConfig.validate` checks the whole config
(every agent spec built for every side it plays, the output folder writable), the
checkpoint to resume from is read and the envs and model are built: a refused
run leaves no run folder or ``config.json`` behind. A failed write raises
:class:`agents.policy_io.WriteError` (``cannot write PATH: REASON``).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import math
import os
import platform
import shlex
import shutil
import signal
import sys
import threading
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from agents.policy_io import CARD_FORMAT, Checkpoint, ModelFileError, WriteError, write_atomic
from agents.ppo import BOTH_SIDES, scenario_id
from evaluation.executors import BACKENDS, make_executor
from training.opponents import SNAPSHOT_SPECS, checkpoints, parse_pool

CONFIG = "config.json"
LR_SCHEDULES = ("constant", "linear")
# How the envs are vectorised: "dummy" steps them in this process (one batched policy call for all of
# them), "subproc" runs each in its own process (SubprocVecEnv). "auto" is "dummy": on 2 cores the
# engine's step is too cheap to pay for inter-process messages (python -m training.throughput).
VEC_ENVS = ("auto", "dummy", "subproc")
PROGRESS = "progress.json"
MODEL = "model.safetensors"
CARD = "model.json"
_AT_LEAST_ONE = ("envs", "n_steps", "batch_size", "n_epochs", "eval_every", "eval_games",
                 "final_eval_games", "checkpoint_every", "keep_checkpoints", "torch_threads",
                 "imitation_games", "imitation_epochs", "workers")

# Float options: (name, low, high, low included); high is always included.
_NUMBER_RANGES = (("learning_rate", 0.0, math.inf, False), ("gamma", 0.0, 1.0, False),
                  ("ent_coef", 0.0, math.inf, True),
                  ("clip_range", 0.0, math.inf, False), ("imitation_coef", 0.0, math.inf, True))


def _check_number(name: str, value: Any, low: float, high: float, low_included: bool) -> None:
    """Refuse ``value`` (of the option ``--name``) unless it is a finite number in its range."""
    flag = "--" + name.replace("_", "-")
    if high == math.inf:
        wanted = f"a finite number {'>=' if low_included else '>'} {low:g}"
    else:
        wanted = f"a number in {'[' if low_included else '('}{low:g}, {high:g}]"
    number = not isinstance(value, bool) and isinstance(value, int | float)
    if not (number and math.isfinite(value) and (value >= low if low_included else value > low)
            and value <= high):
        raise ValueError(f"{flag} must be {wanted}, got {value!r}")


@dataclass
class TrainConfig:
    """Everything a run needs; stored in ``config.json`` (``--resume`` reads it back)."""

    game: str
    side: str
    out: str
    options: dict[str, Any] = field(default_factory=dict)
    steps: int = 500_000
    opponents: list[str] = field(default_factory=lambda: ["heuristic"])
    opponent_weights: list[float] | None = None
    envs: int = 16
    vec_env: str = "auto"  # VEC_ENVS
    seed: int = 0
    reward: str = "win"
    net_arch: list[int] = field(default_factory=lambda: [128, 128])
    learning_rate: float = 3e-4
    lr_schedule: str = "constant"  # or "linear": decays to 0 at the end of the run
    n_steps: int = 128  # per env: 16 x 128 = 2,048 steps per update (the old default: 2 x 1,024)
    batch_size: int = 256
    n_epochs: int = 5
    gamma: float = 0.99
    gae_lambda: float = 0.95
    ent_coef: float = 0.01
    clip_range: float = 0.2
    imitate: str | None = None
    # An agent spec ("heuristic") that plays the learner's unseen placements (a set-up made while no
    # enemy unit is on the table, or in secret) in training and in the evaluations, so the policy learns
    # to play from that agent's mixed set-ups (what PPOAgent's default setup="heuristic" plays).
    learner_setup: str | None = None
    # A model (weights + card) the policy starts from instead of random weights: "ppo" (the model
    # shipped for the side) or a path; its optimizer starts afresh (resolve_init).
    init: str | None = None
    imitation_games: int = 1000
    imitation_epochs: int = 10
    # > 0: after the warm start, rounds of DAgger (training.imitation): imitation_games episodes the
    # learner plays, the teacher labelling its decisions, then a fit on all the demonstrations.
    dagger_rounds: int = 0
    # > 0: behaviour-cloning steps on the demonstrations after every PPO update, with this weight
    # decaying linearly to 0 at the last step (training.callbacks.ImitationAnchor); needs imitate.
    imitation_coef: float = 0.0
    # Adam step size of the warm start and the anchor's steps; None: PPO's (learning_rate, as
    # lr_schedule sets it at the time).
    imitation_learning_rate: float | None = None
    # > 0: PPO's updates up to this step train the critic alone (training.callbacks.CriticWarmup).
    critic_warmup: int = 0
    # Opponents of the masked evaluation; the best checkpoint (--resume --best) is chosen by the mean
    # win rate over them, so "heuristic random" selects for both strength bars at once.
    eval_opponents: list[str] = field(default_factory=lambda: ["heuristic"])
    eval_every: int = 50_000
    eval_games: int = 100
    final_eval_games: int = 400
    checkpoint_every: int = 50_000
    keep_checkpoints: int = 5
    torch_threads: int = 1
    workers: int = 1  # processes (or Ray CPUs) for imitation games and masked evaluations
    backend: str = "local"  # "local" or "ray" (evaluation.executors)
    address: str | None = None  # a Ray cluster (backend "ray")

    def validate(self) -> None:
        """Check the whole config before anything is created; raises ``ValueError`` (one line).

        Counts must be >= 1, the seed and the critic warm-up >= 0; step sizes, discount and coefficients finite and in
        range (``_NUMBER_RANGES``); the game, side and options must exist;
        every opponent spec, the evaluation opponent and the imitation teacher are built
        for every side they will play (so a ``ppo:PATH`` model for the wrong side fails
        here, not after training); ``out`` must be a folder (or not exist yet) under a
        writable one (:class:`~agents.policy_io.WriteError` if not writable).
        """
        from evaluation.match import build_agent
        from fof_env.core.registry import make_game

        for name in _AT_LEAST_ONE:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"--{name.replace('_', '-')} must be an integer >= 1, got {value!r}")
        for name in ("steps", "seed", "critic_warmup", "dagger_rounds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"--{name.replace('_', '-')} must be an integer >= 0, got {value!r}")
        if not self.net_arch or any(isinstance(n, bool) or not isinstance(n, int) or n < 1 for n in self.net_arch):
            raise ValueError(f"--net-arch must be one or more layer sizes >= 1, got {self.net_arch!r}")
        if self.vec_env not in VEC_ENVS:
            raise ValueError(f"--vec-env must be one of {', '.join(VEC_ENVS)}, got {self.vec_env!r}")
        if self.lr_schedule not in LR_SCHEDULES:
            raise ValueError(f"lr_schedule must be one of {LR_SCHEDULES}, got {self.lr_schedule!r}")
        if self.backend not in BACKENDS:
            raise ValueError(f"--backend must be one of {', '.join(BACKENDS)}, got {self.backend!r}")
        if self.address is not None and self.backend != "ray":
            raise ValueError("--address needs --backend ray")
        for name, low, high, low_included in _NUMBER_RANGES:
            _check_number(name, getattr(self, name), low, high, low_included)
        if self.imitation_learning_rate is not None:
            _check_number("imitation_learning_rate", self.imitation_learning_rate, 0.0, math.inf, False)
        if self.imitation_coef > 0 and self.imitate is None:
            raise ValueError("--imitation-coef needs --imitate SPEC: it keeps PPO near that teacher's "
                             "demonstrations")
        if self.imitation_learning_rate is not None and self.imitate is None:
            raise ValueError("--imitation-learning-rate needs --imitate SPEC: it is the step size of "
                             "behaviour cloning that teacher")
        if self.steps == 0 and self.imitate is None:
            raise ValueError("--steps 0 trains no PPO step: it needs --imitate SPEC (the model is then the "
                             "imitation warm start)")
        if self.dagger_rounds > 0 and self.imitate is None:
            raise ValueError("--dagger-rounds needs --imitate SPEC: in each round that teacher labels the "
                             "decisions the learner makes")
        if self.init is not None and self.imitate is not None:
            raise ValueError("--init and --imitate both choose the starting policy: give one of them")
        if not self.eval_opponents or not all(isinstance(s, str) for s in self.eval_opponents):
            raise ValueError(f"--eval-opponent must name one or more agents, got {self.eval_opponents!r}")
        game = make_game(self.game, **self.options)
        learners = [0, 1] if self.side == BOTH_SIDES else [game.player_index(self.side)]
        pool = parse_pool(self.opponents, self.opponent_weights)
        for spec in SNAPSHOT_SPECS:
            if spec in self.opponents and self.side != BOTH_SIDES:
                raise ValueError(
                    f"opponent {spec!r} (snapshots of the policy) needs --side both: the sides of "
                    f"{self.game} are asymmetric, so a {self.side} policy cannot play the other side. "
                    "Use ppo:PATH with a model of the other side instead."
                )
        for player in learners:
            for spec in [s for s, _ in pool if s not in SNAPSHOT_SPECS] + self.eval_opponents:
                build_agent(spec, game, 1 - player, 0)
            if self.imitate is not None:
                build_agent(self.imitate, game, player, 0)
            if self.learner_setup is not None:
                build_agent(self.learner_setup, game, player, 0)
        if self.init is not None:
            resolve_init(self, game)
        check_out_folder(Path(self.out))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TrainConfig:
        """The config of a ``config.json``; one written before ``eval_opponents`` (its single
        ``eval_opponent``) reads as that one opponent."""
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        if "eval_opponents" not in data and "eval_opponent" in data:
            values["eval_opponents"] = [data["eval_opponent"]]
        return cls(**values)


def resolve_init(config: TrainConfig, game) -> tuple[Path, dict[str, Any]]:
    """The model ``config.init`` names (``ppo``: the one shipped for the side, else a path) and its
    card, refused (``ModelFileError``, one line) unless it plays the run's game and side with the
    run's layout and ``--net-arch`` and its weights load."""
    from agents.policy_io import load_model_policy, read_model_card
    from agents.ppo import check_card, shipped_model_path

    if config.init == "ppo":
        if config.side == BOTH_SIDES:
            raise ValueError("--init ppo names the model shipped for one side; with --side both give a "
                             "path to a both-sides model")
        path = shipped_model_path(config.game, config.side)
    else:
        path = Path(config.init)
    if not path.exists():
        raise FileNotFoundError(f"--init: no model {path}")
    card = read_model_card(path)
    load_model_policy(path)  # its weights: the card's sha256, the tensors of its architecture
    learners = [0, 1] if config.side == BOTH_SIDES else [game.player_index(config.side)]
    for player in learners:
        if check_card(card, game, player, str(path)) != (config.side == BOTH_SIDES):
            raise ModelFileError(f"cannot use model {path} here: it plays both sides, the run learns "
                                 f"{config.side!r}")
    arch = card["architecture"]["net_arch"]
    if arch != {"pi": list(config.net_arch), "vf": list(config.net_arch)}:
        sizes = " ".join(map(str, arch["pi"]))
        raise ModelFileError(f"cannot start from model {path}: its network is {sizes}, the run's --net-arch "
                             f"is {' '.join(map(str, config.net_arch))}; give --net-arch {sizes}")
    return path, card


def check_out_folder(run: Path) -> None:
    """Refuse an ``out`` that is a file (or under one), or whose nearest existing folder is not
    writable (``WriteError``: ``cannot write RUN: Permission denied``)."""
    if run.exists() and not run.is_dir():
        raise ValueError(f"--out {run} is a file, not a folder")
    probe = run
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        raise ValueError(f"--out {run}: {probe} is a file, not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise WriteError(errno.EACCES, os.strerror(errno.EACCES), str(run))


def _write_json(path: Path, data: Any) -> None:
    """Write ``data`` as JSON atomically (temp file, fsync, rename); ``WriteError`` on failure."""
    write_atomic(path, (json.dumps(data, indent=2) + "\n").encode())


def _read_json(path: Path) -> Any:
    """A run's JSON file (``ValueError`` naming it if it is not valid JSON)."""
    text = path.read_text()
    try:
        return json.loads(text)
    except ValueError as exc:
        raise ValueError(f"cannot read {path}: not valid JSON ({exc})") from exc


def _start_run(run: Path, record: dict[str, Any]) -> None:
    """Create the run folder and write ``config.json``; if that fails, remove a folder made here."""
    created = not run.exists()
    try:
        run.mkdir(parents=True, exist_ok=True)
        _write_json(run / CONFIG, record)
    except OSError as exc:
        if created:
            shutil.rmtree(run, ignore_errors=True)
        if isinstance(exc, WriteError):
            raise
        raise WriteError(exc.errno, exc.strerror or str(exc), str(exc.filename or run)) from exc


def _versions() -> dict[str, str]:
    import sb3_contrib
    import stable_baselines3
    import torch

    return {"python": platform.python_version(), "torch": torch.__version__,
            "stable_baselines3": stable_baselines3.__version__, "sb3_contrib": sb3_contrib.__version__}


def _platform() -> dict[str, str]:
    """The processor the run trained on. torch's kernels (MKL's among them) choose their float
    arithmetic by the instruction set they find, so the same command, seed and packages give the
    same weights bit for bit only on processors of the same kind."""
    import torch

    return {"machine": platform.machine(), "cpu": _cpu_name(),
            "torch_cpu_capability": torch.backends.cpu.get_cpu_capability()}


def _cpu_name() -> str:
    """The first processor's model name, family and model number (Linux), else what ``platform`` says."""
    try:
        first = Path("/proc/cpuinfo").read_text(encoding="utf-8").split("\n\n", 1)[0]
    except OSError:
        return platform.processor() or "unknown"
    found = {key.strip(): value.strip() for key, _, value in (line.partition(":") for line in first.splitlines())}
    return f"{found.get('model name', 'unknown')} (family {found.get('cpu family', '?')}, model {found.get('model', '?')})"


def _make_vec_env(config: TrainConfig, run: Path, seed: int):
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    from training.envs import env_factory, in_one_thread

    pool = parse_pool(config.opponents, config.opponent_weights)
    ckpt_dir = str(run / "checkpoints")
    fns = [env_factory(config.game, config.side, config.options, pool, config.reward, ckpt_dir, config.learner_setup)
           for _ in range(config.envs)]
    if config.vec_env == "subproc" and config.envs > 1:
        venv = SubprocVecEnv([functools.partial(in_one_thread, fn) for fn in fns])
    else:
        venv = DummyVecEnv(fns)
    venv.seed(seed)
    return VecMonitor(venv)


@dataclass(frozen=True)
class LinearSchedule:
    """sb3 learning-rate schedule: ``start * progress_remaining`` (1 at the start, 0 at the end)."""

    start: float

    def __call__(self, progress_remaining: float) -> float:
        return self.start * progress_remaining


def _new_model(config: TrainConfig, venv, run: Path):
    from sb3_contrib import MaskablePPO

    arch = list(config.net_arch)
    lr = LinearSchedule(config.learning_rate) if config.lr_schedule == "linear" else config.learning_rate
    return MaskablePPO(
        "MlpPolicy", venv, learning_rate=lr, n_steps=config.n_steps,
        batch_size=config.batch_size, n_epochs=config.n_epochs, gamma=config.gamma,
        gae_lambda=config.gae_lambda, ent_coef=config.ent_coef, clip_range=config.clip_range,
        policy_kwargs={"net_arch": {"pi": arch, "vf": arch}}, tensorboard_log=str(run / "tb"),
        seed=config.seed, device="cpu", verbose=0,
    )


def _demonstrations(config: TrainConfig, progress: bool, executor, dagger_round: int = 0, learner=None):
    """The teacher's ``imitation_games`` games in the training env (the same for the same config);
    with ``learner`` (a policy), DAgger round ``dagger_round``'s: the next ``imitation_games``
    episodes, played by the learner and labelled by the teacher."""
    from agents.policy_io import policy_blob
    from training.envs import build_env
    from training.imitation import collect, collect_on

    pool = parse_pool([s for s in config.opponents if s not in SNAPSHOT_SPECS] or ["random"], None)
    env_args = (config.game, config.side, config.options, pool, config.reward, None, config.learner_setup)
    first = dagger_round * config.imitation_games
    if executor.parallelism > 1:
        blob = None if learner is None else policy_blob(learner, config.side == BOTH_SIDES)
        return collect_on(executor, env_args, config.imitate, config.imitation_games, config.seed,
                          config.gamma, progress, first=first, learner=blob)
    return collect(build_env(*env_args), config.imitate, config.imitation_games, config.seed,
                   config.gamma, progress, first=first, learner=learner)


def _imitate(config: TrainConfig, model, data, progress: bool, executor, log) -> dict[str, Any]:
    """Behaviour-clone ``data`` into ``model``'s policy, then run ``config.dagger_rounds`` rounds of
    DAgger; the statistics the card records (the warm start's, and per round the learner's win rate
    and its agreement with the teacher on the states it reached, before that round's fit)."""
    from training.imitation import agreement, behaviour_clone, learning_rate, merge

    with learning_rate(model.policy, imitation_rate(config)):
        stats = behaviour_clone(model.policy, data, config.imitation_epochs, config.batch_size, config.seed,
                                progress=progress)
        stats["teacher"] = config.imitate
        log(f"  agreement with {config.imitate} on held-out decisions: {stats['accuracy']}")
        rounds = []
        for number in range(1, config.dagger_rounds + 1):
            played = _demonstrations(config, progress, executor, number, model.policy)
            rounds.append({"round": number, "games": played.episodes, "learner_win_rate": round(played.win_rate, 4),
                           "agreement": agreement(model.policy, played)})
            data = merge([data, played])
            behaviour_clone(model.policy, data, config.imitation_epochs, config.batch_size, config.seed + number,
                            progress=progress)
            rounds[-1]["decisions"] = len(data)
            log(f"  DAgger round {number}: the learner won {rounds[-1]['learner_win_rate']:.3f} of its "
                f"{played.episodes} games and agreed with {config.imitate} on {rounds[-1]['agreement']} of "
                f"its decisions; refitted on {len(data)} decisions")
        if rounds:
            stats["dagger"] = rounds
    return stats


def imitation_rate(config: TrainConfig) -> float:
    """The Adam step size of the warm start: ``imitation_learning_rate``, else PPO's first one
    (``learning_rate``; the anchor's steps without ``imitation_learning_rate`` follow PPO's current
    one, which ``--lr-schedule linear`` decays)."""
    if config.imitation_learning_rate is None:
        return config.learning_rate
    return config.imitation_learning_rate


def round_to_half(policy) -> None:
    """Round the policy's weights to float16 precision (kept as float32): the network then
    computes exactly what the float16 file :func:`export_model` writes will compute once loaded."""
    import torch

    with torch.no_grad():
        for param in policy.parameters():
            param.copy_(param.half().float())


def export_model(model, path: Path) -> dict[str, Any]:
    """Save ``model``'s policy to play: its state dict as float16 tensors in a safetensors file
    (rounded first by :func:`round_to_half`, so nothing changes), no optimizer state: a sixth of
    a checkpoint. Returns the card's ``weights`` block (file, sha256, dtype, bytes); the policy
    is rebuilt from the card's architecture and loaded as float32 (:mod:`agents.policy_io`)."""
    from agents.policy_io import export_weights

    return export_weights(model.policy, path, "float16")


def _require_architecture(model, architecture: dict[str, Any], where: str, both_sides: bool) -> None:
    """Refuse (``ModelFileError``) tensors from ``where`` made for another architecture than ``model``'s."""
    from agents.policy_io import describe_policy

    mine = describe_policy(model.policy, both_sides)
    if architecture != mine:
        raise ModelFileError(f"cannot use {where}: its architecture {architecture} is not the run's {mine}")


def start_from(model, config: TrainConfig, game, both_sides: bool) -> dict[str, Any]:
    """Load the policy of the model ``config.init`` names into ``model`` (:func:`resolve_init`;
    another architecture raises ``ModelFileError``); the optimizer and counters start afresh.
    Returns the card's ``init`` block: the spec, the file, its sha256 and the commands that made it."""
    from agents.policy_io import load_model_policy, load_tensors

    path, card = resolve_init(config, game)
    where = f"model {path}"
    _require_architecture(model, card["architecture"], where, both_sides)
    load_tensors(model.policy, load_model_policy(path).state_dict(), where)
    return {"spec": config.init, "file": path.name, "sha256": card["weights"]["sha256"],
            "commands": [card.get("command"), *card.get("resume_commands", [])]}


def restore(model, checkpoint: Checkpoint, source: Path, both_sides: bool) -> None:
    """Load a checkpoint into ``model`` (rebuilt from the run's config): policy tensors,
    optimizer state and counters. Another architecture raises ``ModelFileError``."""
    from agents.policy_io import load_tensors, restore_optimizer

    where = f"checkpoint {source}"
    _require_architecture(model, checkpoint.architecture, where, both_sides)
    if not {"num_timesteps", "_n_updates"} <= set(checkpoint.counters):
        raise ModelFileError(f"cannot use {where}: its counters lack num_timesteps/_n_updates")
    load_tensors(model.policy, checkpoint.policy_state, where)
    restore_optimizer(model.policy.optimizer, checkpoint, where)
    model.num_timesteps = checkpoint.counters["num_timesteps"]
    model._n_updates = checkpoint.counters["_n_updates"]


def write_card(path: Path, config: TrainConfig, game, progress: dict[str, Any],
               final: list[dict[str, Any]], commands: list[str], architecture: dict[str, Any],
               weights: dict[str, Any]) -> dict[str, Any]:
    """The model card (``model.json``, format ``fof-model-card/2``); returns it. ``architecture``
    (:func:`agents.policy_io.describe_policy`) and ``weights`` (:func:`export_model`) let a loader
    rebuild the network from data and check the weights' sha256."""
    wall = progress["wall_seconds"]
    # A run finished by --best holds an earlier policy than the steps its wall time paid for.
    trained = progress["steps_trained"]
    card = {
        "format": CARD_FORMAT,
        "game": config.game,
        "side": config.side,
        "options": game.options if hasattr(game, "options") else config.options,
        "scenario": scenario_id(game),
        "observation_version": getattr(game, "observation_version", None),
        "observation_shape": [int(game.observation_shape[0]) + (2 if config.side == BOTH_SIDES else 0)],
        "num_actions": game.num_actions,
        "algorithm": "MaskablePPO (sb3-contrib)",
        "architecture": architecture,
        "weights": weights,
        "timesteps": progress["timesteps"],
        "steps_trained": trained,
        "wall_seconds": round(wall, 1),
        "steps_per_second": round(trained / wall, 1) if wall else None,
        "seed": config.seed,
        "command": commands[0],
        "resume_commands": commands[1:],
        "config": asdict(config),
        "imitation": progress.get("imitation"),
        "init": progress.get("init"),
        "selected": progress.get("selected"),
        "final_evaluation": final,
        "curve": progress["curve"],
        "versions": _versions(),
        "platform": _platform(),
    }
    _write_json(path, card)
    return card


def best_checkpoint(folder: Path, curve: list[dict[str, Any]]) -> tuple[Path, dict[str, Any]]:
    """The kept checkpoint whose evaluation point scored best (mean win rate over the sides and
    opponents evaluated; ties: the later one), with what was chosen."""
    from training.callbacks import best_evaluated

    chosen = best_evaluated(checkpoints(folder), curve)
    if chosen is None:
        raise ValueError(f"no checkpoint in {folder} has an evaluation point to choose by")
    score, steps, path = chosen
    return path, {"checkpoint": path.name, "timesteps": steps, "eval_win_rate": round(score, 4)}


# What a resumed run may run on instead of its own: where its games are played, not what they are.
RUN_ON = ("workers", "backend", "address")


def train(config: TrainConfig, command: str, *, resume: bool = False, progress: bool = True,
          best: bool = False, stop_at: int | None = None, run_on: dict[str, Any] | None = None,
          log=print) -> Path:
    """Train (or, with ``resume``, continue) the run in ``config.out``; returns the model path,
    or with ``stop_at`` the checkpoint it paused at.

    ``command`` is the exact command line, recorded in the config and the card.

    With ``resume``, only ``config.out`` and ``config.steps`` are read: a new total (0
    keeps the run's own) extends the run, or, at or below the steps already done,
    finishes it there (final evaluation, ``model.safetensors`` and card from the latest
    checkpoint); ``run_on`` (keys of :data:`RUN_ON`) replaces where its imitation games and
    evaluations run, which their results do not depend on. A run stopped before its first checkpoint starts over. ``best`` (with
    ``resume``) finishes the run from the kept checkpoint with the best evaluation point
    instead (:func:`best_checkpoint`; recorded in the card as ``selected``).

    ``stop_at`` (below ``config.steps``, above the steps already done) pauses the run once that
    many steps are done, as an interruption would: a checkpoint, no model or card, ``resume``
    goes on. The learning-rate schedule and the ``imitation_coef`` decay still run to
    ``config.steps``, so the policies up to ``stop_at`` are those of the run left to go on.

    Raises ``ValueError`` (a bad config, or a checkpoint that cannot be used:
    :class:`~agents.policy_io.ModelFileError`), ``FileExistsError``/``FileNotFoundError``
    (no run to resume, or a run already there) or :class:`~agents.policy_io.WriteError`,
    all before anything is written when they come from the config or the checkpoint.
    """
    import torch

    from agents.policy_io import describe_policy, read_checkpoint
    from fof_env.core.registry import make_game
    from training.callbacks import (
        Checkpointer,
        CriticWarmup,
        ImitationAnchor,
        MaskedEvalCallback,
        StopAt,
        evaluate_policy,
        stopwatch,
    )

    run = Path(config.out)
    if best and not resume:
        raise ValueError("best finishes an existing run: use it with resume")
    fresh = {"timesteps": 0, "steps_trained": 0, "wall_seconds": 0.0, "curve": [], "imitation": None}
    if resume:
        if not (run / CONFIG).exists():
            raise FileNotFoundError(f"no run to resume in {run} (no {CONFIG})")
        saved = _read_json(run / CONFIG)
        extra_steps = config.steps
        config = TrainConfig.from_dict(saved["config"])
        config.out = str(run)  # the run is where it is now, even if it was moved
        if extra_steps:
            config.steps = extra_steps
        for key, value in (run_on or {}).items():
            if key not in RUN_ON:
                raise ValueError(f"a resumed run keeps its {key}: only {', '.join(RUN_ON)} may change")
            setattr(config, key, value)
        commands = saved["commands"] + [command]
        has_checkpoint = bool(checkpoints(run / "checkpoints")) and (run / PROGRESS).exists()
        state = _read_json(run / PROGRESS) if has_checkpoint else dict(fresh)
    else:
        if (run / CONFIG).exists():
            raise FileExistsError(f"{run} already holds a run: continue it with `fof train --resume {run}` "
                                  "or choose another --out")
        commands = [command]
        state = dict(fresh)
    try:
        config.validate()
    except ValueError as exc:
        if not resume:
            raise
        raise ValueError(f"the run's {run / CONFIG}: {exc}") from exc
    if stop_at is not None and best:
        raise ValueError("--stop-at pauses training and --best trains no further: give one of them")
    if stop_at is not None and stop_at >= config.steps:
        raise ValueError(f"--stop-at ({stop_at}) must be below --steps ({config.steps}): the run ends "
                         "there anyway; to end it earlier, give a smaller --steps")
    if not resume and config.critic_warmup > 0 and config.critic_warmup >= config.steps:
        raise ValueError(f"--critic-warmup ({config.critic_warmup}) must be below --steps ({config.steps}): "
                         "the policy would never be trained")
    ckpt_dir = run / "checkpoints"
    both = config.side == BOTH_SIDES
    latest = checkpoints(ckpt_dir)[-1:] if resume else []
    if best:  # finish from the best evaluated checkpoint, training no further
        chosen, state["selected"] = best_checkpoint(ckpt_dir, state["curve"])
        latest = [chosen]
    checkpoint = read_checkpoint(latest[0]) if latest else None  # refused here if it is not one
    done = int(checkpoint.counters.get("num_timesteps", 0)) if checkpoint is not None else 0
    if stop_at is not None and stop_at <= done:
        raise ValueError(f"--stop-at ({stop_at}) must be above the {done} steps {run} has done")
    torch.set_num_threads(config.torch_threads)
    game = make_game(config.game, **config.options)
    clock = stopwatch(state["wall_seconds"])

    def save_progress(model) -> None:
        trained = max(state.get("steps_trained", state["timesteps"]), int(model.num_timesteps))
        state.update(timesteps=int(model.num_timesteps), steps_trained=trained, wall_seconds=round(clock(), 1))
        _write_json(run / PROGRESS, state)

    executor = make_executor(config.backend, config.workers, config.address)
    try:
        venv = _make_vec_env(config, run, config.seed + state["timesteps"])
    except BaseException:
        executor.close()
        raise
    try:
        model = _new_model(config, venv, run)
        if checkpoint is not None:
            restore(model, checkpoint, latest[0], both)
        elif config.init is not None:
            state["init"] = start_from(model, config, game, both)
            log(f"starting from model {config.init} ({state['init']['file']}, sha256 "
                f"{state['init']['sha256'][:16]}...)")
        _start_run(run, {"config": asdict(config), "commands": commands})
        remaining = 0 if best else config.steps - model.num_timesteps
        if best:
            chosen = state["selected"]
            log(f"finishing {run} from its best evaluated checkpoint, {chosen['checkpoint']} (step "
                f"{chosen['timesteps']}, evaluation win rate {chosen['eval_win_rate']:.3f})")
        elif checkpoint is not None and remaining <= 0:
            log(f"finishing {run} from its latest checkpoint, {latest[0].name} ({model.num_timesteps} steps)")
        elif checkpoint is not None:
            log(f"resuming {run} from {latest[0].name} ({model.num_timesteps} steps)")
        demonstrations = None
        if checkpoint is None and config.imitate and state["imitation"] is None:
            log(f"imitation warm start: {config.imitation_games} games of {config.imitate}")
            demonstrations = _demonstrations(config, progress, executor)
            state["imitation"] = _imitate(config, model, demonstrations, progress, executor, log)
        elif config.imitation_coef > 0 and remaining > 0:
            log(f"replaying the {config.imitation_games} imitation games for --imitation-coef")
            demonstrations = _demonstrations(config, progress, executor)
        checkpointer = Checkpointer(ckpt_dir, config.checkpoint_every, config.keep_checkpoints,
                                    on_save=lambda _path: save_progress(model), both_sides=both,
                                    curve=state["curve"])
        # Every evaluation point gets a checkpoint of the policy it scored (ckpt_0 for step 0, the
        # policy as imitation left it), so --best can finish from any point, whatever --eval-every
        # and --checkpoint-every are.
        evaluator = MaskedEvalCallback(game, config.side, config.eval_opponents, config.eval_games,
                                       config.eval_every, config.seed + 1, state["curve"], clock,
                                       on_point=lambda _curve: checkpointer.save(model), executor=executor,
                                       setup=config.learner_setup)
        if not state["curve"]:
            for point in evaluator.evaluate(model):
                margin = f", VP margin {point['vp_margin']:+.2f}" if "vp_margin" in point else ""
                log(f"  step 0: {point['side']} vs {point['opponent']} win rate {point['win_rate']:.3f}{margin}")
        callbacks = [evaluator, checkpointer]
        if config.critic_warmup > 0:
            if model.num_timesteps < config.critic_warmup and remaining > 0:
                log(f"critic warm-up: PPO trains the critic alone until step {config.critic_warmup}")
            callbacks.append(CriticWarmup(config.critic_warmup))
        if config.imitation_coef > 0:
            callbacks.append(ImitationAnchor(demonstrations, config.imitation_coef, config.steps,
                                             math.ceil(config.envs * config.n_steps / config.batch_size),
                                             config.batch_size, config.seed + 3, config.imitation_learning_rate,
                                             after=config.critic_warmup))
        pause = None
        if stop_at is not None:
            pause = StopAt(stop_at)
            callbacks.append(pause)  # last: the step's evaluation and checkpoint come first
        try:
            if remaining > 0:
                with _sigterm_as_interrupt():
                    model.learn(remaining, callback=callbacks,
                                reset_num_timesteps=checkpoint is None, tb_log_name="ppo", progress_bar=progress)
        except KeyboardInterrupt:
            path = checkpointer.save(model)
            save_progress(model)
            log(f"\ninterrupted: saved {path}; continue with: fof train --resume {run}")
            raise
        path = checkpointer.save(model)
        save_progress(model)  # the wall time, when the last step's checkpoint was already written
        if pause is not None and pause.reached:
            log(f"paused at step {model.num_timesteps} (--stop-at {stop_at}): saved {path}; continue with: "
                f"fof train --resume {run}, or finish from the best evaluated point: fof train --resume {run} --best")
            return path
        round_to_half(model.policy)  # the final evaluation plays the weights model.safetensors ships
        final = [point for opponent in config.eval_opponents
                 for point in evaluate_policy(game, config.side, model.policy, opponent,
                                              config.final_eval_games, config.seed + 2, executor,
                                              config.learner_setup)]
        weights = export_model(model, run / MODEL)
        card = write_card(run / CARD, config, game, state, final, commands,
                          describe_policy(model.policy, both), weights)
        for point in final:
            log(f"final: {point['side']} vs {point['opponent']}: {point['wins']}/{point['games']} won "
                f"({100 * point['win_rate']:.1f}% [{100 * point['low']:.1f}, {100 * point['high']:.1f}]), "
                f"{point['draws']} drawn, {point['losses']} lost"
                + (f", VP margin {point['vp_margin']:+.2f}" if "vp_margin" in point else ""))
        kept = "" if card["timesteps"] == card["steps_trained"] else f", the policy of step {card['timesteps']}"
        log(f"{card['steps_trained']} steps in {card['wall_seconds']:.0f} s "
            f"({card['steps_per_second']} steps/s); model {run / MODEL}{kept}")
    except BaseException:
        executor.abort()
        raise
    finally:
        executor.close()
        venv.close()
    return run / MODEL


@contextlib.contextmanager
def _sigterm_as_interrupt():
    """Inside: SIGTERM (``kill``, a batch scheduler) stops training like Ctrl-C, checkpoint first."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(_signum, _frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def command_line(argv: list[str] | None = None) -> str:
    """The command as typed (``fof train ...``), shell-quoted."""
    args = sys.argv[1:] if argv is None else argv
    return "fof " + " ".join(shlex.quote(a) for a in args)
