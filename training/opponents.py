"""The opponent pool: which agent plays the other side, drawn anew for every training episode.

A pool is a list of agent specs with weights. Specs are those of
:func:`evaluation.match.build_agent` (``random``, ``heuristic``, ``mcts:50``,
``ppo:PATH`` ...) plus ``self``: a past snapshot of the policy being trained
(self-play). ``self`` needs a model that plays the opponent's side too, so it is
only allowed when training ``--side both`` (the games are asymmetric: a Soviet
policy cannot play the U.S.). It draws uniformly among the latest ``recent``
checkpoints in the run's checkpoint folder; before the first checkpoint exists it
plays as the first other spec of the pool (or ``random``). A snapshot is read as
data (:func:`agents.policy_io.load_checkpoint_policy`: safetensors tensors and
JSON); an unreadable one, or an old sb3 zip, raises
:class:`agents.policy_io.ModelFileError` (one line) and is never unpickled.

The pool is an Agent object for :class:`fof_env.envs.gym_env.WargameEnv`: the
env calls ``seed(s)`` at every reset with a seed derived from the game seed, the
pool draws the member from ``random.Random(s)`` and builds it with seed ``s``, so
an episode is reproducible from its seed (given the same snapshots on disk).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from pathlib import Path

SELF = "self"
CHECKPOINT_SUFFIX = ".safetensors"
# ckpt_<steps>.safetensors, and the .zip of older fof versions: listed so that resuming
# such a run is refused with a clear message (never loaded) rather than silently restarted
_CHECKPOINT_NAME = re.compile(r"ckpt_(\d+)\.(safetensors|zip)")


def parse_pool(specs: Sequence[str], weights: Sequence[float] | None) -> list[tuple[str, float]]:
    """Validate specs and weights; returns ``[(spec, weight), ...]`` (weights default to equal)."""
    if not specs:
        raise ValueError("the opponent pool is empty: give at least one agent spec")
    if weights is None:
        weights = [1.0] * len(specs)
    if len(weights) != len(specs):
        raise ValueError(f"{len(specs)} opponents but {len(weights)} weights")
    if any(w < 0 for w in weights) or sum(weights) <= 0:
        raise ValueError(f"opponent weights must be >= 0 and not all 0, got {list(weights)}")
    return [(str(s), float(w)) for s, w in zip(specs, weights, strict=True)]


def checkpoint_name(steps: int) -> str:
    """The file name of the checkpoint at ``steps``: ``ckpt_<steps>.safetensors``."""
    return f"ckpt_{steps}{CHECKPOINT_SUFFIX}"


def checkpoint_steps(path: Path) -> int:
    """The step count in a checkpoint's name: ``ckpt_50000.safetensors`` -> 50000."""
    return int(path.stem.rpartition("_")[2])


def checkpoints(folder: Path) -> list[Path]:
    """Checkpoint files in ``folder`` (``ckpt_<steps>.safetensors``, and old ``ckpt_<steps>.zip``
    ones, which every loader refuses), oldest first by the step count in the name."""
    if not folder.is_dir():
        return []
    found = [p for p in folder.iterdir() if _CHECKPOINT_NAME.fullmatch(p.name)]
    return sorted(found, key=lambda p: (checkpoint_steps(p), p.suffix == CHECKPOINT_SUFFIX))


class OpponentPool:
    """Plays ``player`` of ``game`` with an agent drawn from the pool at every ``seed()`` call.

    Args:
        game: the game.
        player: the side the opponents play.
        pool: ``[(spec, weight), ...]`` from :func:`parse_pool`.
        checkpoint_dir: where ``self`` finds snapshots.
        recent: how many of the latest snapshots ``self`` draws from.
    """

    def __init__(self, game, player: int, pool: list[tuple[str, float]],
                 checkpoint_dir: str | Path | None = None, recent: int = 5):
        from evaluation.match import build_agent

        self.game = game
        self.player = player
        self.specs = [s for s, _ in pool]
        self.weights = [w for _, w in pool]
        self.checkpoint_dir = Path(checkpoint_dir) if checkpoint_dir else None
        self.recent = recent
        self._build = build_agent
        if SELF in self.specs and self.checkpoint_dir is None:
            raise ValueError("opponent 'self' needs a checkpoint folder")
        for spec in self.specs:
            if spec != SELF:
                build_agent(spec, game, player, 0)  # fail now on a bad spec
        self.current = None
        self.current_spec = ""
        self.seed(0)

    def _self_agent(self, seed: int):
        from agents.policy_io import load_checkpoint_policy
        from agents.ppo import PolicyAgent

        snaps = checkpoints(self.checkpoint_dir)[-self.recent:]
        if not snaps:
            fallback = next((s for s in self.specs if s != SELF), "random")
            return self._build(fallback, self.game, self.player, seed), f"self (no snapshot yet: {fallback})"
        snap = snaps[random.Random(seed).randrange(len(snaps))]
        shape = [int(self.game.observation_shape[0]) + 2]  # a both-sides policy: its side appended
        policy = load_checkpoint_policy(snap, num_actions=self.game.num_actions, observation_shape=shape)
        agent = PolicyAgent(self.game, self.player, policy, seed, deterministic=False, both_sides=True)
        return agent, f"self:{snap.name}"

    def seed(self, seed: int) -> None:
        """Draw this episode's opponent (called by the env at every reset)."""
        rng = random.Random(seed)
        spec = rng.choices(self.specs, weights=self.weights)[0]
        if spec == SELF:
            self.current, self.current_spec = self._self_agent(seed)
        else:
            self.current, self.current_spec = self._build(spec, self.game, self.player, seed), spec

    def act(self, state) -> int:
        return self.current.act(state)

    def __repr__(self) -> str:
        return "pool(" + ", ".join(f"{s}={w:g}" for s, w in zip(self.specs, self.weights, strict=True)) + ")"
