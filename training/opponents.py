"""The opponent pool: which agent plays the other side, drawn anew for every training episode.

A pool is a list of agent specs with weights. Specs are those of
:func:`evaluation.match.build_agent` (``random``, ``heuristic``, ``mcts:50``,
``ppo:PATH`` ...) plus ``self``: a past snapshot of the policy being trained
(self-play). ``self`` needs a model that plays the opponent's side too, so it is
only allowed when training ``--side both`` (the games are asymmetric: a Soviet
policy cannot play the U.S.). It draws uniformly among the latest ``recent``
checkpoints in the run's checkpoint folder (from the first episode on, the step-0
checkpoint ``ckpt_0`` that ``fof train`` writes after its first evaluation is there); with
no checkpoint it plays as the first other spec of the pool (or ``random``). A snapshot is read as
data (:func:`agents.policy_io.load_checkpoint_policy`: safetensors tensors and
JSON); an unreadable one, or an old sb3 zip, raises
:class:`agents.policy_io.ModelFileError` (one line) and is never unpickled.

``league`` is prioritised fictitious self-play (PFSP, Vinyals et al., "Grandmaster level in
StarCraft II using multi-agent reinforcement learning", Nature 2019): it draws among *all* kept
snapshots (``fof train --keep-checkpoints``), snapshot ``k`` with weight ``(1 - p_k)^2`` where
``p_k = (learner wins + draws/2 + 1) / (games + 2)`` is the learner's smoothed score against it in
this process's training episodes so far (the env reports each finished episode through
:meth:`OpponentPool.game_over`), so the snapshots the learner still loses to come back most often
and a beaten one fades without vanishing. The scores are shared by every pool of the process
(all envs of ``DummyVecEnv``; each ``SubprocVecEnv`` worker keeps its own), so the draws stay a
function of the episode sequence, hence of the seeds. They live in memory only: a run resumed with
``--resume`` starts them afresh (so its draws differ from an uninterrupted run's). Mixed with the scripted bots by the pool's
weights (``--opponent league heuristic random --opponent-weights 0.6 0.3 0.1``), this is the
``--side both`` league.

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
LEAGUE = "league"
SNAPSHOT_SPECS = (SELF, LEAGUE)  # specs that play snapshots of the policy being trained (--side both)
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


# (checkpoint folder, opponent player) -> snapshot name -> [learner points, games]: see ``league``
_LEAGUE_SCORES: dict[tuple[str, int], dict[str, list[float]]] = {}


def pfsp_weights(scores: dict[str, Sequence[float]], names: Sequence[str]) -> list[float]:
    """PFSP's "hard" weights ``(1 - p)^2`` of ``names``, ``p`` = the learner's smoothed score
    ``(points + 1) / (games + 2)`` from ``scores`` (a snapshot never met: ``p`` = 1/2, weight 1/4).

    >>> [round(w, 4) for w in pfsp_weights({"a": (9.0, 10), "b": (1.0, 10)}, ["a", "b", "c"])]
    [0.0278, 0.6944, 0.25]
    """
    out = []
    for name in names:
        points, games = scores.get(name, (0.0, 0))
        p = (points + 1.0) / (games + 2.0)
        out.append((1.0 - p) ** 2)
    return out


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
        for spec in SNAPSHOT_SPECS:
            if spec in self.specs and self.checkpoint_dir is None:
                raise ValueError(f"opponent {spec!r} needs a checkpoint folder")
        for spec in self.specs:
            if spec not in SNAPSHOT_SPECS:
                build_agent(spec, game, player, 0)  # fail now on a bad spec
        self.current = None
        self.current_spec = ""
        self.seed(0)

    def _snapshot_agent(self, spec: str, seed: int):
        """A snapshot opponent: ``self`` uniformly among the latest ``recent``, ``league`` by PFSP."""
        from agents.policy_io import load_checkpoint_policy
        from agents.ppo import PolicyAgent

        snaps = checkpoints(self.checkpoint_dir)
        if spec == SELF:
            snaps = snaps[-self.recent:]
        if not snaps:
            fallback = next((s for s in self.specs if s not in SNAPSHOT_SPECS), "random")
            return self._build(fallback, self.game, self.player, seed), f"{spec} (no snapshot yet: {fallback})"
        rng = random.Random(seed)
        if spec == SELF:
            snap = snaps[rng.randrange(len(snaps))]
        else:
            snap = rng.choices(snaps, weights=pfsp_weights(self._scores(), [p.name for p in snaps]))[0]
        shape = [int(self.game.observation_shape[0]) + 2]  # a both-sides policy: its side appended
        policy = load_checkpoint_policy(snap, num_actions=self.game.num_actions, observation_shape=shape)
        agent = PolicyAgent(self.game, self.player, policy, seed, deterministic=False, both_sides=True)
        return agent, f"{spec}:{snap.name}"

    def _scores(self) -> dict[str, list[float]]:
        """Snapshot name -> [learner points, games] in this process (shared by its pools)."""
        return _LEAGUE_SCORES.setdefault((str(self.checkpoint_dir), self.player), {})

    def seed(self, seed: int) -> None:
        """Draw this episode's opponent (called by the env at every reset)."""
        rng = random.Random(seed)
        spec = rng.choices(self.specs, weights=self.weights)[0]
        if spec in SNAPSHOT_SPECS:
            self.current, self.current_spec = self._snapshot_agent(spec, seed)
        else:
            self.current, self.current_spec = self._build(spec, self.game, self.player, seed), spec

    def act(self, state) -> int:
        return self.current.act(state)

    def game_over(self, opponent_return: float) -> None:
        """The env's report of a finished episode (``opponent_return``: +1 the pool's side won,
        -1 it lost, 0 a draw): a ``league`` snapshot's score is updated (the learner's points)."""
        if self.current_spec.startswith(LEAGUE + ":"):
            score = self._scores().setdefault(self.current_spec.partition(":")[2], [0.0, 0])
            score[0] += 0.5 - 0.5 * max(-1.0, min(1.0, float(opponent_return)))
            score[1] += 1

    def __repr__(self) -> str:
        return "pool(" + ", ".join(f"{s}={w:g}" for s, w in zip(self.specs, self.weights, strict=True)) + ")"
