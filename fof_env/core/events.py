"""Typed event log entries shared by all rulesets.

Each ruleset defines its own frozen dataclasses deriving from :class:`Event`; the
log is append-only and the entries are immutable, so clones share them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """Base class of every event. ``kind`` is the class name in snake case."""

    @property
    def kind(self) -> str:
        name = type(self).__name__
        return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **asdict(self)}


@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    """One die roll: ``sides`` faces, ``value`` rolled, ``purpose`` in words."""

    sides: int
    value: int
    purpose: str
