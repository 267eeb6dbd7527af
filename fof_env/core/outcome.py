"""How a game ended: :class:`Outcome` (termination, winner, returns), as python-chess's ``Outcome``.

Every terminal state has one (:meth:`fof_env.core.game.State.outcome`): ``termination`` says why
the game ended, in words that are also its key (a :class:`Termination` or one of its ruleset's own,
listed in its :class:`~fof_env.core.ruleset.Ruleset`'s ``terminations``), ``winner`` is the winning
player (None: a draw) and ``returns`` each player's result. Records keep it in their ``final`` block,
views and the environments' infos show it, tournaments log it per game and reports count it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Termination(StrEnum):
    """Reasons any game may end: the rules' own end (``GAME_OVER`` for a ruleset that does not say
    which) and the two endings imposed from outside the rules, a side resigning (a front end) and an
    illegal action played under ``illegal_action="loss"`` (the environments)."""

    GAME_OVER = "game over"
    RESIGNATION = "resignation"
    ILLEGAL_ACTION = "illegal action"


@dataclass(frozen=True, slots=True)
class Outcome:
    """Why a game ended, who won (player index, None for a draw) and each player's result."""

    termination: str
    winner: int | None
    returns: tuple[float, float]

    def to_dict(self, player_names: tuple[str, str] | list[str]) -> dict[str, Any]:
        """As JSON data: ``termination``, ``winner`` (the side's name, None for a draw) and ``returns``."""
        return {
            "termination": str(self.termination),
            "winner": None if self.winner is None else player_names[self.winner],
            "returns": [float(self.returns[0]), float(self.returns[1])],
        }

    @classmethod
    def forfeit(cls, loser: int, termination: str) -> Outcome:
        """``loser`` lost outside the rules (it resigned, it played an illegal action): -1 to it, +1 to the other."""
        returns = [1.0, 1.0]
        returns[loser] = -1.0
        return cls(termination, 1 - loser, (returns[0], returns[1]))
