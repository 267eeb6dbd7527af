"""Force on Force events (see :mod:`fof_env.core.events`). Units by name, points as ``xNNyNN``."""

from __future__ import annotations

from dataclasses import dataclass

from fof_env.core.events import Event


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    turn: int
    initiative: str


@dataclass(frozen=True, slots=True)
class UnitMoved(Event):
    unit: str
    origin: str
    destination: str  # a point, or "off table"
    rapid: bool


@dataclass(frozen=True, slots=True)
class ReactionTest(Event):
    unit: str
    role: str
    die: int
    modified: int
    passed: bool


@dataclass(frozen=True, slots=True)
class FireResolved(Event):
    shooter: str
    target: str
    firepower: int
    defense: int
    attack: tuple[int, ...]
    defense_rolls: tuple[int, ...]
    casualties: int


@dataclass(frozen=True, slots=True)
class MoraleChecked(Event):
    unit: str
    rolls: tuple[int, ...]
    passed: bool


@dataclass(frozen=True, slots=True)
class FogOfWar(Event):
    roll: int
    result: str
    unit: str


@dataclass(frozen=True, slots=True)
class Note(Event):
    """A rule effect in words: contact with the pilot, capture, spotting, air strike ..."""

    text: str
