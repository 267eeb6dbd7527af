"""Scenario rule module ``out_of_contact`` (003 "Out of Contact Movement"): a unit of the scenario's
Out of Contact side that no initiative unit can see may move anywhere it can reach unseen.

003: "Out of Contact Movement is generally only allowed to one side in a scenario and may only be used
while that side is the non-initiative force. A unit capable of Out of Contact Movement that is not
currently visible to any initiative unit, i.e., no initiative unit has an open Line of Sight to it, may
move anywhere on the table as long as it can trace a path from its current position to the spot it
wishes to move to without crossing any initiative unit's line of sight." and "Units utilizing Out of
Contact Movement must end their movement before they enter an initiative unit's line of sight."

How it is played (rulings R40-R41): the scenario names the side (``rules.out_of_contact.side``); all its
units may use it. When such a unit activates while its side does not have the initiative, the
destinations of its move (:meth:`~fof_env.force_on_force.movement.Movement._move_choices`) are its usual
ones within 12" plus :meth:`OutOfContact.out_of_contact_points`: every grid point joined to its own point
by a chain of orthogonally adjacent grid points (2" steps) none of which an initiative unit sees, the
start and the destination included. "Initiative unit" means an active one (on the table with an
effective figure; pinned ones still see) that the mover's side knows of. The move is an ordinary
activation move in every other way (Rapid if it is more than 6" in a straight line, its reaction window,
a slowed unit's TQ check to move faster than Tactical); reaction moves and the Tactical move after
firing do not use it.

Performance: the lines of sight of a table are turned once into one Python ``int`` bit set per point
(:class:`_Geometry`, cached per table); the unseen points are the complement of the OR of the
initiative units' rows, and the reachable ones a flood fill by bit shifts: about 20 microseconds per
move decision.
"""

from __future__ import annotations

import weakref

import numpy as np

from fof_env.force_on_force.rule_module import RuleModule

_GEOMETRY: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # table -> _Geometry


class _Geometry:
    """A table's lines of sight as bit sets, for flood fills on its grid (bit ``p`` = point ``p``)."""

    __slots__ = ("los", "all", "not_west", "not_east", "ncols")

    def __init__(self, table):
        self.ncols = table.ncols
        n = table.n
        self.los = [int.from_bytes(np.packbits(row, bitorder="little").tobytes(), "little") for row in table.los_np]
        self.all = (1 << n) - 1
        west = sum(1 << p for p in range(0, n, table.ncols))
        east = sum(1 << p for p in range(table.ncols - 1, n, table.ncols))
        self.not_west = self.all & ~west  # where a step east may land
        self.not_east = self.all & ~east  # where a step west may land

    def reachable(self, start: int, free: int) -> int:
        """Bits of every point joined to ``start`` (a bit) by orthogonal steps through ``free``."""
        reach = start
        ncols, not_west, not_east = self.ncols, self.not_west, self.not_east
        while True:
            grown = (reach | ((reach << 1) & not_west) | ((reach >> 1) & not_east) | (reach << ncols)
                     | (reach >> ncols)) & free  # fmt: skip
            if grown == reach:
                return reach
            reach = grown


def geometry(table) -> _Geometry:
    """The bit-set geometry of ``table`` (built once per table)."""
    geo = _GEOMETRY.get(table)
    if geo is None:
        geo = _Geometry(table)
        _GEOMETRY[table] = geo
    return geo


def _points(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


class OutOfContact:
    """Mixin of :class:`~fof_env.force_on_force.state.ForceOnForceState` (see the module docstring)."""

    __slots__ = ()

    def unseen_by_initiative(self, player: int) -> int:
        """Bit set of the points no initiative unit known to ``player`` sees (the whole table if none)."""
        geo = geometry(self.sc.table)
        seen = 0
        los = geo.los
        for t in self.SIDE_UNITS[self.initiative]:
            if self.pos[t] >= 0 and self.active(t) and self.visible_to(t, player):
                seen |= los[self.pos[t]]
        return geo.all & ~seen

    def out_of_contact_points(self, u: int) -> list[int]:
        """Destinations of an Out of Contact move of unit ``u`` now (empty: it may not make one): ``u``'s
        side is the scenario's Out of Contact side and not the initiative side, no initiative unit sees
        ``u``, and the points are reached from ``u``'s point through unseen points (rulings R40, R41).
        Points held by an enemy unit ``u``'s side can see are left out (rulings R4)."""
        side = self.UNIT_SIDE[u]
        if side != self.sc.out_of_contact_side or side == self.initiative or self.pos[u] < 0:
            return []
        free = self.unseen_by_initiative(side)
        start = 1 << self.pos[u]
        if not free & start:
            return []  # seen: in contact
        for t in self.SIDE_UNITS[side ^ 1]:  # a held point an initiative unit does not see: an inactive unit
            if self.pos[t] >= 0 and not self.hidden[t]:
                free &= ~(1 << self.pos[t])
        return _points(geometry(self.sc.table).reachable(start, free) & ~start)


MODULE = RuleModule("out_of_contact", OutOfContact)
