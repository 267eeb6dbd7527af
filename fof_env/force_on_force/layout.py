"""The action space and unit order of one Force on Force scenario (:class:`Layout`).

Every scenario lays its flat action space out the same way, sized from its table and its
order of battle (``P`` grid points, ``U`` units, ``K`` = ``MAX_COUNT`` split counts)::

    [0, P)              point p (a grid point: deployment, move destination, reinforcement point)
    [P, P + U)          unit u (the unit to activate, a fire target, the team taking the pilot ...)
    [P + U, P + U + K)  "n1" .. "n11": dice given to an extra target when splitting fire
    P + U + K           pass
    then                move, fire, hold, spot, escort, handoff, interrupt_fire, interrupt_move,
                        exit, yes

Units are numbered in the scenario file's order (side 0's units first). Lost & Found
(324 points, 8 units) keeps the indices the engine always had (354 actions), so records and
trained models made before scenarios became data still fit. A state class is made once per
layout (:func:`state_class`): the layout's numbers are class attributes of the state
(``state.PASS``, ``state.UNIT0``, ``state.UNIT_NAMES`` ...), read as fast as module constants.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

MAX_COUNT = 11  # split-fire counts "n1".."n11"
NAMED = ("pass", "move", "fire", "hold", "spot", "escort", "handoff", "interrupt_fire", "interrupt_move", "exit",
         "yes")  # fmt: skip


@dataclass(frozen=True)
class Layout:
    """Unit order and action index ranges of a scenario (see the module docstring)."""

    sides: tuple[str, str]
    unit_names: tuple[str, ...]
    unit_side: tuple[int, ...]
    num_points: int
    extra_kinds: int = 0  # decision kinds after "terminal" its rule modules use (wwii_first_aid: 2)
    vehicles: tuple[bool, ...] = ()  # by unit: a WWII AFV (rules/wwii_vehicles.py); () in a scenario without
    fog_deck: bool = False  # the scenario draws the WWII Fog of War deck (rules/wwii_fog.py)

    @property
    def num_units(self) -> int:
        return len(self.unit_names)

    @property
    def side_units(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return tuple(tuple(u for u, s in enumerate(self.unit_side) if s == side) for side in (0, 1))  # type: ignore[return-value]

    @property
    def unit0(self) -> int:
        return self.num_points

    @property
    def count0(self) -> int:
        return self.num_points + self.num_units

    @property
    def named0(self) -> int:
        return self.count0 + MAX_COUNT

    @property
    def num_actions(self) -> int:
        return self.named0 + len(NAMED)

    def class_attributes(self) -> dict[str, Any]:
        """The layout as the state class's attributes."""
        named = {name.upper(): self.named0 + i for i, name in enumerate(NAMED)}
        named["INT_FIRE"], named["INT_MOVE"] = named.pop("INTERRUPT_FIRE"), named.pop("INTERRUPT_MOVE")
        by_index = {self.named0 + i: name for i, name in enumerate(NAMED)}
        return {
            "LAYOUT": self,
            "SIDES": self.sides,
            "NUM_UNITS": self.num_units,
            "UNIT_NAMES": self.unit_names,
            "UNIT_SIDE": self.unit_side,
            "SIDE_UNITS": self.side_units,
            "NUM_POINTS": self.num_points,
            "UNIT0": self.unit0,
            "COUNT0": self.count0,
            "MAX_COUNT": MAX_COUNT,
            "NUM_ACTIONS": self.num_actions,
            "NAMED": by_index,
            "NAMED_BY_TEXT": {v: k for k, v in by_index.items()},
            **named,
        }


@functools.lru_cache(maxsize=32)
def state_class(layout: Layout) -> type:
    """The state class of ``layout``: :class:`~fof_env.force_on_force.state.ForceOnForceState` with the
    layout's numbers as class attributes (one class per layout, shared by every game that has it)."""
    from fof_env.force_on_force.state import ForceOnForceState

    name = f"ForceOnForceState_{len(layout.unit_names)}u{layout.num_points}p"
    return type(name, (ForceOnForceState,), {"__slots__": (), "__module__": ForceOnForceState.__module__,
                                             **layout.class_attributes()})
