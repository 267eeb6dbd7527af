"""Training callbacks: masked evaluation against a fixed opponent, and checkpoints.

sb3's plain ``EvalCallback`` ignores action masks (a masked policy evaluated
without its mask plays illegal moves), so evaluation here plays whole games
through the engine with :class:`agents.ppo.PolicyAgent`, which always passes the
mask: :func:`evaluate_policy` and :class:`MaskedEvalCallback`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from agents.policy_io import policy_blob
from agents.ppo import BOTH_SIDES, PolicyAgent
from evaluation.match import build_agent, play_game
from evaluation.stats import wilson_interval
from training.opponents import checkpoint_name, checkpoint_steps, checkpoints


def sides_of(game, side: str) -> list[int]:
    """The players a model trained for ``side`` (a side name or ``"both"``) plays."""
    return [0, 1] if side == BOTH_SIDES else [game.player_index(side)]


EVAL_CHUNK = 25  # games per task when an evaluation runs on a pool or a cluster


def evaluate_policy(game, side: str, policy, opponent: str, games: int, seed: int,
                    executor=None, setup: str | None = None) -> list[dict[str, Any]]:
    """Play ``games`` games per side of the policy (most probable action) against ``opponent``;
    with ``setup`` (an agent spec, as ``fof train --learner-setup``), that agent plays the policy's
    unseen placements, seeded per game.

    Game ``i`` uses dice seed ``seed_i`` from ``SeedSequence(seed)``, the same for
    every call with the same ``seed`` (common random numbers along a learning
    curve). Returns one dict per side played: side, opponent, games, wins, draws,
    losses, win_rate, low/high (Wilson 95 % of the win rate) and, in a game that counts victory
    points, vp_margin (the mean of the policy's VP minus the opponent's, rounded to 0.01).

    ``executor`` (:mod:`evaluation.executors`) with more than one worker plays the games
    as tasks of ``EVAL_CHUNK`` games: each task carries the policy as safetensors bytes
    and its architecture (data, no pickled module), rebuilt once per worker; the games
    and their seeds are the same as in this process, so are the results.
    """
    was_training = policy.training
    policy.set_training_mode(False)
    seeds = [int(s) for s in np.random.SeedSequence(seed).generate_state(games, dtype=np.uint32)]
    both = side == BOTH_SIDES
    out = []
    for player in sides_of(game, side):
        if executor is None or executor.parallelism <= 1:
            learner = PolicyAgent(game, player, policy, both_sides=both)  # deterministic: no state
            ends = [_play_eval_game(game, learner, player, opponent, s, setup) for s in seeds]
        else:
            blob = policy_blob(policy, both)
            tasks = [(game.name, game.options, blob, player, opponent, seeds[i:i + EVAL_CHUNK], setup)
                     for i in range(0, games, EVAL_CHUNK)]
            ends = [end for chunk in executor.map(_eval_chunk, tasks) for end in chunk]
        winners = [winner for winner, _ in ends]
        margins = [vp[player] - vp[1 - player] for _, vp in ends if vp is not None]
        tally = [sum(w == player for w in winners), sum(w is None for w in winners), 0]
        tally[2] = games - tally[0] - tally[1]
        low, high = wilson_interval(tally[0], games)
        point = {
            "side": game.player_names[player], "opponent": opponent, "games": games,
            "wins": tally[0], "draws": tally[1], "losses": tally[2],
            "win_rate": round(tally[0] / games, 4), "low": round(low, 4), "high": round(high, 4),
        }
        if len(margins) == games:
            point["vp_margin"] = round(sum(margins) / games, 2)
        out.append(point)
    policy.set_training_mode(was_training)
    return out


def _play_eval_game(game, learner, player: int, opponent: str, seed: int,
                    setup: str | None = None) -> tuple[int | None, tuple[int, int] | None]:
    """``(winner, victory points per side or None)`` of one evaluation game: ``learner`` on
    ``player`` against ``opponent`` (``setup`` playing the learner's unseen placements)."""
    learner.reseed(seed + 2)  # its unseen placements are sampled: from the game's seed, not from entropy
    learner.setup_bot = None if setup is None else build_agent(setup, game, player, seed + 2)
    other = build_agent(opponent, game, 1 - player, seed + 1)
    agents = [learner, other] if player == 0 else [other, learner]
    result = play_game(game, agents, seed, record=False)
    return result.winner, None if result.vp is None else tuple(result.vp)


_WORKER_POLICIES: dict[str, Any] = {}  # a worker's rebuilt policies, by the hash of their bytes


def _eval_chunk(task: tuple) -> list[tuple[int | None, tuple[int, int] | None]]:
    """Worker side of :func:`evaluate_policy`: a chunk of evaluation games' winners and VP."""
    import hashlib

    from agents.policy_io import policy_from_blob
    from fof_env.core.registry import make_game

    game_name, options, (weights, arch), player, opponent, seeds, setup = task
    key = hashlib.sha256(weights).hexdigest()
    policy = _WORKER_POLICIES.get(key)
    if policy is None:
        policy = policy_from_blob((weights, arch), "an evaluation task")
        _WORKER_POLICIES.clear()  # one policy at a time: each evaluation point has new weights
        _WORKER_POLICIES[key] = policy
    game = make_game(game_name, **options)
    learner = PolicyAgent(game, player, policy, both_sides=json.loads(arch)["both_sides"])
    return [_play_eval_game(game, learner, player, opponent, s, setup) for s in seeds]


class MaskedEvalCallback(BaseCallback):
    """Every ``every`` steps, :func:`evaluate_policy` against each of ``opponents``; log and keep the curve.

    ``curve`` collects the points (each with ``timesteps`` and ``wall_seconds``);
    ``on_point(curve)`` is called after each evaluation. TensorBoard gets ``eval/win_rate``
    (``eval/win_rate_<side>`` when training both sides) against the first opponent, and
    ``eval/win_rate[_<side>]_vs_<opponent>`` against each further one (and ``eval/vp_margin...``
    likewise in a game that counts victory points). ``setup``: as
    :func:`evaluate_policy`'s.
    """

    def __init__(self, game, side: str, opponents: list[str], games: int, every: int, seed: int,
                 curve: list[dict[str, Any]], clock: Callable[[], float],
                 on_point: Callable[[list[dict[str, Any]]], None] | None = None, executor=None,
                 setup: str | None = None):
        super().__init__()
        self.executor, self.setup = executor, setup
        self.game, self.side, self.opponents = game, side, list(opponents)
        self.games, self.every, self.seed = games, every, seed
        self.curve, self.clock, self.on_point = curve, clock, on_point
        last = curve[-1]["timesteps"] if curve else 0
        self._next = (last // every + 1) * every

    def _on_step(self) -> bool:
        if self.num_timesteps >= self._next:
            self._next = (self.num_timesteps // self.every + 1) * self.every
            self.evaluate()
        return True

    def evaluate(self, model=None) -> list[dict[str, Any]]:
        """Evaluate ``model`` (default: the model being trained) now; add the points to the curve."""
        own = getattr(self, "model", None)
        model = model or own
        points = [point for opponent in self.opponents
                  for point in evaluate_policy(self.game, self.side, model.policy, opponent, self.games,
                                               self.seed, self.executor, self.setup)]
        for point in points:
            point.update(timesteps=int(model.num_timesteps), wall_seconds=round(self.clock(), 1))
            if model is own:
                suffix = f"_{point['side']}" if self.side == BOTH_SIDES else ""
                if point["opponent"] != self.opponents[0]:
                    suffix += f"_vs_{point['opponent']}"
                self.logger.record(f"eval/win_rate{suffix}", point["win_rate"])
                self.logger.record(f"eval/loss_rate{suffix}", point["losses"] / point["games"])
                if "vp_margin" in point:
                    self.logger.record(f"eval/vp_margin{suffix}", point["vp_margin"])
        self.curve.extend(points)
        if self.on_point is not None:
            self.on_point(self.curve)
        return points


class Checkpointer(BaseCallback):
    """Every ``every`` steps save ``ckpt_<steps>.safetensors`` (policy with optimizer state and
    counters, :func:`save_checkpoint`) in ``folder``, keep the latest ``keep``, and call
    ``on_save(path)``. ``both_sides``: the policy plays both sides (recorded in the file).

    Each step count is written once, with the first policy saved there: :meth:`save` skips a
    model at the step it has just saved. So a step that is both an evaluation point (whose
    callback saves too) and a checkpoint step is written once, and an evaluation point's
    checkpoint stays the policy it scored, not the one after the PPO update that ends ``learn``
    or the half-made update that Ctrl-C interrupts (a resume from it repeats that update's
    rollout)."""

    def __init__(self, folder: Path, every: int, keep: int, on_save: Callable[[Path], None], *,
                 both_sides: bool = False, curve: list[dict[str, Any]] | None = None):
        super().__init__()
        self.folder, self.every, self.keep, self.on_save = folder, every, keep, on_save
        self.both_sides, self.curve = both_sides, curve
        self._next = every
        self._saved: tuple[int, Path] | None = None  # num_timesteps, path

    def _init_callback(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self._next = (self.model.num_timesteps // self.every + 1) * self.every

    def _on_step(self) -> bool:
        if self.num_timesteps >= self._next:
            self._next = (self.num_timesteps // self.every + 1) * self.every
            self.save()
        return True

    def save(self, model=None) -> Path:
        """Checkpoint ``model`` now (default: the model this callback trains with, known once
        ``learn`` has started), then call ``on_save``; returns the checkpoint's path."""
        model = self.model if model is None else model
        steps = int(model.num_timesteps)
        if self._saved is not None and self._saved[0] == steps:
            return self._saved[1]  # this step's checkpoint, already written (and on_save called)
        path = save_checkpoint(model, self.folder, self.keep, both_sides=self.both_sides, curve=self.curve)
        self._saved = (steps, path)
        self.on_save(path)
        return path


class StopAt(BaseCallback):
    """``--stop-at``: end ``learn`` once ``steps`` learner steps are done (``reached`` says it did),
    whatever total ``learn`` was given, so its schedules keep their horizon. Put it after the
    callbacks that evaluate or checkpoint at that step: sb3 runs every callback of a step, then stops."""

    def __init__(self, steps: int):
        super().__init__()
        self.steps, self.reached = steps, False

    def _on_step(self) -> bool:
        self.reached = self.num_timesteps >= self.steps
        return not self.reached


class ImitationAnchor(BaseCallback):
    """``--imitation-coef``: after every PPO update, behaviour-cloning steps on the imitation
    demonstrations (:func:`training.imitation.anchor_steps`), so PPO improves on the teacher
    from near it instead of first pulling the imitation policy apart.

    The weight is ``coef * (1 - steps / total_steps)`` (0 from ``total_steps`` on); each update
    takes ``steps_per_update`` minibatches of ``batch_size`` decisions, drawn from a generator
    seeded by ``(seed, steps)`` (a resumed run draws the same ones), with Adam's step size
    ``rate`` (None: the one PPO's last update used). TensorBoard gets
    ``imitation/weight`` and ``imitation/nll`` (the cross-entropy of the teacher's actions).
    Until step ``after`` (``--critic-warmup``: the actor stays as imitation left it) it takes none.
    """

    def __init__(self, data, coef: float, total_steps: int, steps_per_update: int, batch_size: int,
                 seed: int, rate: float | None = None, after: int = 0):
        super().__init__()
        self.data, self.coef, self.total_steps = data, coef, total_steps
        self.steps_per_update, self.batch_size, self.seed, self.rate = steps_per_update, batch_size, seed, rate
        self.after = after

    def weight(self) -> float:
        """The anchor's weight at the current step."""
        return self.coef * max(0.0, 1.0 - self.num_timesteps / self.total_steps)

    def _on_rollout_start(self) -> None:  # sb3 calls it after each update, before the next rollout
        from training.imitation import anchor_steps, learning_rate

        weight = self.weight()
        if weight <= 0.0 or self.model._n_updates == 0 or self.num_timesteps <= self.after:
            return
        rng = np.random.default_rng([self.seed, self.num_timesteps])
        policy = self.model.policy
        rate = policy.optimizer.param_groups[0]["lr"] if self.rate is None else self.rate
        with learning_rate(policy, rate):
            nll = anchor_steps(policy, self.data, weight, self.steps_per_update, self.batch_size, rng)
        self.logger.record("imitation/weight", weight)
        self.logger.record("imitation/nll", nll)

    def _on_step(self) -> bool:
        return True


class CriticWarmup(BaseCallback):
    """``--critic-warmup STEPS``: every PPO update whose rollout ends at or before the learner's
    step ``steps`` trains the critic alone; the actor (every parameter outside the value branch:
    :func:`actor_parameters`) keeps the weights imitation gave it, so the critic first learns the
    returns of the policy PPO samples (the warm start fitted it to the teacher's) before its
    advantages move the actor. Whether an update is critic-only depends on the step count only, so
    a resumed run does the same. TensorBoard gets ``train/critic_only`` (1 or 0) per update."""

    def __init__(self, steps: int):
        super().__init__()
        self.steps = steps

    def _on_rollout_end(self) -> None:  # sb3 calls it after each rollout, before the update
        critic_only = self.num_timesteps <= self.steps
        for param in actor_parameters(self.model.policy):
            param.requires_grad_(not critic_only)
        self.logger.record("train/critic_only", float(critic_only))

    def _on_training_end(self) -> None:
        for param in actor_parameters(self.model.policy):
            param.requires_grad_(True)

    def _on_step(self) -> bool:
        return True


def actor_parameters(policy) -> list:
    """The parameters of ``policy`` (a MaskableActorCriticPolicy) that are not the critic's
    (``mlp_extractor.value_net`` and ``value_net``): the policy branch and its action head, and a
    features extractor shared with the critic (none has parameters here: ``FlattenExtractor``)."""
    critic = {id(p) for module in (policy.mlp_extractor.value_net, policy.value_net) for p in module.parameters()}
    return [p for p in policy.parameters() if id(p) not in critic]


def evaluation_scores(curve: list[dict[str, Any]]) -> dict[int, float]:
    """Timesteps -> the mean win rate of the evaluation points there (over the sides and opponents
    evaluated)."""
    scores: dict[int, list[float]] = {}
    for point in curve:
        scores.setdefault(point["timesteps"], []).append(point["win_rate"])
    return {steps: sum(rates) / len(rates) for steps, rates in scores.items()}


def best_evaluated(paths: list[Path], curve: list[dict[str, Any]]) -> tuple[float, int, Path] | None:
    """``(score, steps, path)`` of the checkpoint in ``paths`` whose evaluation scored best (ties: the
    later one); None when none has an evaluation point."""
    scores = evaluation_scores(curve)
    kept = [(scores[checkpoint_steps(p)], checkpoint_steps(p), p) for p in paths if checkpoint_steps(p) in scores]
    return max(kept) if kept else None


def save_checkpoint(model, folder: Path, keep: int, *, both_sides: bool = False,
                    curve: list[dict[str, Any]] | None = None) -> Path:
    """Save ``model`` as ``folder/ckpt_<steps>.safetensors`` and delete all but the latest ``keep``
    and, given the run's evaluation ``curve``, the best evaluated one (what ``--resume --best``
    finishes from: never pruned).

    The file holds tensors and JSON only (:func:`agents.policy_io.write_checkpoint`): the
    policy (float32), Adam's state, and ``num_timesteps``/``_n_updates``; it is written to a
    temp file and renamed, so it is never half-written. :func:`training.train.restore`
    reads it back into a model rebuilt from the run's config.
    """
    from agents.policy_io import write_checkpoint

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / checkpoint_name(model.num_timesteps)
    counters = {"num_timesteps": int(model.num_timesteps), "_n_updates": int(model._n_updates)}
    write_checkpoint(path, model.policy, counters, both_sides)
    found = checkpoints(folder)
    best = best_evaluated(found, curve) if curve else None
    for old in found[:-keep]:
        if best is None or old != best[2]:
            old.unlink(missing_ok=True)
    return path


def stopwatch(offset: float = 0.0) -> Callable[[], float]:
    """A clock reading ``offset`` plus the seconds since it was made."""
    start = time.perf_counter()
    return lambda: offset + time.perf_counter() - start
