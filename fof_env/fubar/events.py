"""FUBAR events (see :mod:`fof_env.core.events`). Units by id (``tal.1``), points as ``xNNyNN``."""

from __future__ import annotations

from dataclasses import dataclass

from fof_env.core.events import Event


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    turn: int
    initiative: str


@dataclass(frozen=True, slots=True)
class InitiativeRolled(Event):
    """Each player's die plus the scenario modifier; ``winner`` is None for a tie (rerolled)."""

    rolls: tuple[int, int]
    totals: tuple[int, int]
    winner: str | None


@dataclass(frozen=True, slots=True)
class ActivationRolled(Event):
    unit: str
    die: int
    modified: int
    need: int
    success: bool
    purpose: str  # "activation", "withdraw from close combat", "follow up", "get out of the way"


@dataclass(frozen=True, slots=True)
class UnitMoved(Event):
    unit: str
    origin: str
    destination: str  # a point, or "off table"
    how: str  # walk, run, duck_weave, gone_to_ground, assault, withdraw, vehicle, ...


@dataclass(frozen=True, slots=True)
class FireHits(Event):
    """One unit's fire at one target: the dice, the number each needed, hits, saves, unsaved hits."""

    shooter: str
    target: str
    dice: tuple[int, ...]
    need: int
    hits: int
    save: int  # the save number (0: no save)
    saves: tuple[int, ...]
    unsaved: int


@dataclass(frozen=True, slots=True)
class HitTaken(Event):
    """One unsaved hit allocated: ``figure`` (index in its unit) became a casualty or Suppressed."""

    unit: str
    figure: int
    result: str  # "casualty" | "suppressed"


@dataclass(frozen=True, slots=True)
class CloseCombat(Event):
    """One strike of close combat: ``unit``'s dice against ``target`` (``late``: the suppressed strike last)."""

    unit: str
    target: str
    dice: tuple[int, ...]
    need: int
    hits: int
    save: int
    saves: tuple[int, ...]
    unsaved: int
    late: bool


@dataclass(frozen=True, slots=True)
class VehicleDamaged(Event):
    unit: str
    facing: str
    rolls: tuple[int, ...]
    effect: str


@dataclass(frozen=True, slots=True)
class Note(Event):
    """A rule effect in words: On Guard, withdrawal, contact with the pilot, capture, bail-out ..."""

    text: str
