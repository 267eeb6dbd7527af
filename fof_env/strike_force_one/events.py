"""Strike Force One events (see :mod:`fof_env.core.events`). Hexes are CCRR names."""

from __future__ import annotations

from dataclasses import dataclass

from fof_env.core.events import Event


@dataclass(frozen=True, slots=True)
class PhaseStarted(Event):
    turn: int
    phase: str


@dataclass(frozen=True, slots=True)
class UnitMoved(Event):
    unit: str
    origin: str
    destination: str


@dataclass(frozen=True, slots=True)
class AttackResolved(Event):
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    target: str
    differential: int
    column: str
    roll: int
    result: str


@dataclass(frozen=True, slots=True)
class UnitRetreated(Event):
    unit: str
    origin: str
    destination: str


@dataclass(frozen=True, slots=True)
class UnitEliminated(Event):
    unit: str
    hex: str
    reason: str


@dataclass(frozen=True, slots=True)
class UnitAdvanced(Event):
    unit: str
    origin: str
    destination: str


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    winner: str
    soviet_towns: int
