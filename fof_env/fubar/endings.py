"""Why a FUBAR game ended (:class:`fof_env.core.outcome.Outcome`): the scenario's last turn played, a
side's automatic victory (the downed pilot still on the table at the deadline) or the pilot's air
strike called in (it ends the game at once)."""

from __future__ import annotations

from enum import StrEnum


class Termination(StrEnum):
    TURN_LIMIT = "turn limit"
    AUTO_VICTORY = "auto victory"
    AIR_STRIKE = "air strike"


def termination(state) -> Termination:
    """The reason the finished game ``state`` ended."""
    if state.auto_win >= 0:
        return Termination.AUTO_VICTORY
    if state.airstrike:
        return Termination.AIR_STRIKE
    return Termination.TURN_LIMIT
