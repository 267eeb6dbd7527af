"""The ``info`` dicts of both adapters, in their two modes (``infos="full"`` / ``"minimal"``).

``"full"`` is for people and logs: the decision's kind as a string, the winner's side name,
and keys that appear only once the game is over (``winner``, ``returns``, ``termination``: why it
ended, the game's :class:`~fof_env.core.outcome.Outcome` or ``"illegal action"``; ``score``).

``"minimal"`` is for libraries that turn every info entry into a tensor (TorchRL's
``PettingZooWrapper`` and ``GymWrapper.auto_register_info_dict``, RLlib): every value is a
NumPy scalar (``int64`` counts and flags, ``float32`` results) or the boolean mask array
(TorchRL reads each value's ``dtype``), and every step of every episode has the same keys.

Gymnasium env (:class:`~fof_env.envs.gym_env.WargameEnv`), ``infos="minimal"``:

* ``action_mask``: ``bool[num_actions]``, as in ``"full"``;
* ``opponent_actions``, ``auto_actions``: ``int``, decisions the env played since the learner's
  last action;
* ``result``: ``float``, the learner's game result (+1 / -1 / 0) once the episode is over,
  0.0 before;
* ``illegal``: ``int``, 1 if the episode ended on the learner's illegal action
  (``illegal_action="loss"``), else 0.

PettingZoo AEC env (:class:`~fof_env.envs.aec_env.WargameAECEnv`), ``infos="minimal"``, per agent:

* ``acting``: ``int``, 1 for the agent that makes the current decision, else 0;
* ``result``: ``float``, the agent's game result once the game is over, 0.0 before;
* ``illegal``: ``int``, 1 if the game ended on an illegal action (``illegal_action="loss"``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import numpy as np

from fof_env.core.game import State
from fof_env.core.outcome import Outcome, Termination

INFO_MODES = ("full", "minimal")
_ATOMIC = (int, float, str, bool, type(None), np.int64, np.float32, np.bool_)


class StepInfo(dict):
    """The Gymnasium env's info dict, cheap to deep-copy: Stable-Baselines3's ``DummyVecEnv`` deep-copies
    every env's info every step, and the generic ``copy.deepcopy`` of a dict holding a NumPy mask cost
    microseconds per entry. Its ``__deepcopy__`` copies the mask array, shares the immutable values and
    deep-copies anything else (the end-of-game ``score``), so the copy is as independent as before."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict) -> StepInfo:
        out = StepInfo()
        for key, value in self.items():
            kind = type(value)
            if kind is np.ndarray:
                out[key] = value.copy()
            elif kind in _ATOMIC:
                out[key] = value
            else:
                out[key] = copy.deepcopy(value, memo)
        return out


@dataclass(frozen=True)
class EpisodeEnd:
    """How an episode ended: the game's :class:`~fof_env.core.outcome.Outcome` (or a forfeit's), the
    winning side's name (None: a draw) and, when an illegal action ended it (``illegal_action="loss"``),
    that action's message."""

    outcome: Outcome
    winner: str | None
    illegal: str | None = None

    @property
    def returns(self) -> tuple[float, float]:
        return self.outcome.returns


def game_outcome(state: State) -> EpisodeEnd | None:
    """The end of a finished game (None while it runs)."""
    outcome = state.outcome()
    if outcome is None:
        return None
    names = state.game.player_names
    return EpisodeEnd(outcome, None if outcome.winner is None else names[outcome.winner])


def forfeit_outcome(state: State, loser: int, message: str) -> EpisodeEnd:
    """``loser`` lost by playing the illegal action ``message`` describes (-1 to it, +1 to the other)."""
    outcome = Outcome.forfeit(loser, Termination.ILLEGAL_ACTION)
    return EpisodeEnd(outcome, state.game.player_names[1 - loser], message)


def _end_keys(state: State, outcome: EpisodeEnd) -> dict[str, Any]:
    """``winner``, ``returns``, ``termination``, ``score`` (when the game keeps one) and ``illegal_action``."""
    keys: dict[str, Any] = {"winner": outcome.winner, "returns": outcome.returns,
                            "termination": str(outcome.outcome.termination)}  # fmt: skip
    score = getattr(state, "score", None)
    if score is not None:
        keys["score"] = dict(score) if isinstance(score, dict) else score
    if outcome.illegal is not None:
        keys["illegal_action"] = outcome.illegal
    return keys


def gym_info(
    mode: str,
    state: State,
    player: int,
    mask: np.ndarray,
    counts: tuple[int, int],
    episode_seed: int | None,
    outcome: EpisodeEnd | None,
) -> dict[str, Any]:
    """The Gymnasium env's info for the learner ``player`` (see the module docstring)."""
    opponent_actions, auto_actions = counts
    if mode == "minimal":
        return StepInfo(
            action_mask=mask,
            opponent_actions=np.int64(opponent_actions),
            auto_actions=np.int64(auto_actions),
            result=np.float32(0.0 if outcome is None else outcome.returns[player]),
            illegal=np.int64(outcome is not None and outcome.illegal is not None),
        )
    info: dict[str, Any] = StepInfo(
        action_mask=mask,
        decision=state.decision_kind,
        opponent_actions=opponent_actions,
        auto_actions=auto_actions,
        episode_seed=episode_seed,
    )
    if outcome is not None:
        info.update(_end_keys(state, outcome))
    return info


def aec_infos(
    mode: str, state: State, agents: list[str], acting: str, outcome: EpisodeEnd | None, live: bool
) -> dict[str, dict[str, Any]]:
    """Every live agent's info (see the module docstring); ``acting`` is ``agent_selection``,
    ``live`` False once the game is over or truncated (then no agent is ``acting``)."""
    names = list(state.game.player_names)
    if mode == "minimal":
        illegal = np.int64(outcome is not None and outcome.illegal is not None)
        return {
            a: {
                "acting": np.int64(live and a == acting),
                "result": np.float32(0.0 if outcome is None else outcome.returns[names.index(a)]),
                "illegal": illegal,
            }
            for a in agents
        }
    infos = {}
    for a in agents:
        info: dict[str, Any] = {"decision": state.decision_kind if a == acting else None}
        if outcome is not None:
            info.update(_end_keys(state, outcome))
        infos[a] = info
    return infos
