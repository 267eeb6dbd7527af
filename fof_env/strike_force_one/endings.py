"""Why a Strike Force One game ended (:class:`fof_env.core.outcome.Outcome`): it always plays its four
turns (rule 6.0: the towns held at the end of turn 4 decide)."""

from __future__ import annotations

from enum import StrEnum


class Termination(StrEnum):
    TURN_LIMIT = "turn limit"


def termination(state) -> Termination:
    """The reason the finished game ``state`` ended."""
    return Termination.TURN_LIMIT
