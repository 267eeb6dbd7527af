"""Movement: where a unit may go, and a move step by step along its path with On Guard reactions.

Mixed into :class:`fof_env.fubar.state.FubarState`. A move goes straight from the unit's point to its
destination through the grid points of :meth:`fof_env.fubar.geometry.Geometry.path`; every enemy unit
On Guard that has not reacted this turn and could hit the mover at one of those points is asked
(``on_guard``) at which point it fires, or ``pass``; then the mover walks the path point by point, and
the reactions (and a Walk's own fire) happen where they were declared (rulings F15, F16).
"""

from __future__ import annotations

from fof_env.core.downed_pilot import within
from fof_env.fubar import events as ev
from fof_env.fubar.constants import (
    D_ON_GUARD,
    F_REACT,
    M_CC,
    M_DODGE,
    M_GTG,
    M_OVERRUN,
    M_VEHICLE,
    MOVE_NAMES,
    OP_ADVANCE,
    OP_FIRE,
    OP_MOVE_DONE,
    OP_REACT,
    OP_WALK_FIRE,
    REACTABLE,
)
from fof_env.fubar.tables import COHESION_IN, GONE_TO_GROUND_IN, VEHICLE_COVER_IN, VEHICLE_OPEN_IN

_EPS = 1e-9


class MovementMixin:
    __slots__ = ()

    # ------------------------------------------------------------------ destinations
    def occupied(self, exclude: int = -1) -> set[int]:
        """Points held by a unit on the table (not inside a vehicle), ``exclude`` left out."""
        pos, carried = self.pos, self.carried
        return {pos[u] for u in range(self.sc.n_units) if u != exclude and carried[u] < 0 and self.live(u)}

    def _carrier_at(self, u: int, p: int) -> int:
        """The friendly vehicle at ``p`` that can take unit ``u`` aboard, or -1."""
        sc = self.sc
        side = sc.unit_side[u]
        need = self.standing(u)
        for v in sc.side_units[side]:
            if (
                v != u
                and self.pos[v] == p
                and self.is_veh(v)
                and self.carried[v] < 0
                and sc.capacity[v] >= need
                and not any(self.carried[c] == v for c in range(sc.n_units))
            ):
                return v
        return -1

    def move_points(self, u: int, limit: float, stay: bool) -> list[int]:
        """Free points within ``limit`` inches of ``u`` (its own point too if ``stay``), and the points
        of friendly vehicles that can carry it (boarding) for an infantry unit."""
        here = self.pos[u]
        occ = self.occupied(u)
        out = []
        infantry = not self.is_veh(u)
        for p in self.sc.table.within(here, limit):
            if p not in occ or infantry and self.carried[u] < 0 and self._carrier_at(u, p) >= 0:
                out.append(p)
        if stay and self.carried[u] < 0:
            out.append(here)
            out.sort()
        return out

    def vehicle_points(self, v: int) -> tuple[list[int], list[int]]:
        """(points a vehicle may move to, those of them it reaches only through Moderate Cover): 12"
        in the open, 6" through Soft Cover, 6" through Moderate Cover for medium and heavy tanks,
        never through Hard Cover (rulings F37)."""
        here = self.pos[v]
        occ = self.occupied(v)
        going = self.sc.geo.going(here)
        dist = self.sc.table.dist[here]
        tank = self.sc.tank[v]
        out, rough = [], []
        for p in self.sc.table.within(here, VEHICLE_OPEN_IN):
            if p in occ:
                continue
            g = going[p]
            if g == 0 or (dist[p] <= VEHICLE_COVER_IN + _EPS and (g == 1 or (g == 2 and tank))):
                out.append(p)
                if g == 2:
                    rough.append(p)
        return out, rough

    def vehicle_can_move(self, v: int) -> bool:
        """Whether :meth:`vehicle_points` has any point (without listing them)."""
        here = self.pos[v]
        occ = self.occupied(v)
        going = self.sc.geo.going(here)
        dist = self.sc.table.dist[here]
        tank = self.sc.tank[v]
        for p in self.sc.table.within(here, VEHICLE_OPEN_IN):
            g = going[p]
            if p not in occ and (g == 0 or (dist[p] <= VEHICLE_COVER_IN + _EPS and (g == 1 or (g == 2 and tank)))):
                return True
        return False

    def vehicle_reach(self, v: int, p: int) -> bool:
        """Whether vehicle ``v`` could drive onto point ``p`` (ignoring who stands there)."""
        here = self.pos[v]
        d = self.sc.table.dist[here][p]
        g = self.sc.geo.going(here)[p]
        if d > VEHICLE_OPEN_IN + _EPS:
            return False
        return g == 0 or (d <= VEHICLE_COVER_IN + _EPS and (g == 1 or (g == 2 and self.sc.tank[v])))

    def can_exit(self, u: int, limit: float) -> bool:
        side = self.sc.unit_side[u]
        return self.sc.may_exit[side] and self.sc.table.distance_to_edge(self.pos[u], self.sc.edges[side]) <= limit + _EPS

    def exit_point(self, u: int) -> int:
        """The point on the unit's own table edge straight out from it (where it leaves)."""
        t = self.sc.table
        c, r = t.col_row(self.pos[u])
        edge = self.sc.edges[self.sc.unit_side[u]]
        if edge == "west":
            c = 0
        elif edge == "east":
            c = t.ncols - 1
        elif edge == "north":
            r = 0
        else:
            r = t.nrows - 1
        return r * t.ncols + c

    def gone_to_ground_points(self, u: int) -> list[int]:
        """"Drop into nearest cover": the nearest free points within 3" in an area of cover (the unit's
        own point if it is in one); empty when there is none (it drops where it is, rulings F13)."""
        geo = self.sc.geo
        here = self.pos[u]
        if geo.level[here] and self.carried[u] < 0:
            return [here]
        occ = self.occupied(u)
        dist = self.sc.table.dist[here]
        cands = [p for p in self.sc.table.within(here, GONE_TO_GROUND_IN) if geo.level[p] and p not in occ]
        if not cands:
            return []
        best = min(dist[p] for p in cands)
        return [p for p in cands if dist[p] <= best + _EPS]

    # ------------------------------------------------------------------ moving
    def _start_move(self, u: int, dest: int, mode: int, fire_idx: int = -1) -> None:
        """Move ``u`` to ``dest`` (-1: off its table edge) in ``mode``; its fire (a Walk, a moving vehicle)
        at path index ``fire_idx``. Pushes the reactions and the steps of the move."""
        start = self.pos[u]
        target = self.exit_point(u) if dest < 0 else dest
        path = self.sc.geo.path(start, target) if target != start else (start,)
        self.mover = u
        self.mmode = mode
        self.path = path
        self.mexit = 1 if dest < 0 else 0
        self.fire_idx = fire_idx
        self.reacts = []
        self.events.add(ev.UnitMoved, (self.sc.unit_ids[u], self.point_name(start),
                                       "off table" if dest < 0 else self.point_name(target), MOVE_NAMES[mode]))  # fmt: skip
        if self.carried[u] >= 0:
            self.carried[u] = -1  # "dismount": it leaves the vehicle's point with this move
        self.stack.append((OP_MOVE_DONE, u))
        self.stack.append((OP_ADVANCE, u, 0))
        if mode in REACTABLE:
            side = self.sc.unit_side[u]
            queue = [
                r
                for r in self.sc.side_units[1 - side]
                if self.guard[r] and not self.reacted[r] and self.engaged[r] < 0 and self.carried[r] < 0 and self.live(r)
            ]
            if queue:
                self.rqueue = queue
                self.stack.append((OP_REACT,))

    def react_points(self, r: int, u: int) -> list[int]:
        """Path indices at which On Guard unit ``r`` could fire at mover ``u``."""
        slots = self.able(r)
        if not slots:
            return []
        sc = self.sc
        members = self.members[r]
        pr = self.pos[r]
        reach = max(sc.reach[members[i]] for i in slots) + 1e-9
        indirect = any(sc.indirect[members[i]] for i in slots)
        dist = sc.table.dist[pr]
        los = sc.geo.fire_los[pr]
        out = []
        for i, p in enumerate(self.path):
            if dist[p] > reach:
                continue
            if los[p] or (indirect and any(self.figure_can_hit(r, members[k], pr, p) for k in slots)):
                out.append(i)
        return out

    def _op_react(self) -> None:
        """Ask the next On Guard candidate where along the path it fires (or to pass)."""
        while self.rqueue:
            r = self.rqueue[0]
            if self.react_points(r, self.mover):
                self.ask = r
                self.kind = D_ON_GUARD
                return
            self.rqueue.pop(0)
        self.ask = -1

    def _on_on_guard(self, action: int) -> None:
        r = self.rqueue.pop(0)
        if action != self.sc.word0:  # not "pass": a point of the path
            idx = self.path.index(action)
            self.reacts.append((idx, r))
            self.reacted[r] = 1
            self.events.append(ev.Note(f"{self.sc.unit_ids[r]} (On Guard) fires at {self.sc.unit_ids[self.mover]} "
                                       f"at {self.point_name(action)}"))  # fmt: skip
        self.stack.append((OP_REACT,))

    def _op_advance(self, u: int, i: int) -> None:
        path = self.path
        if i >= len(path):
            return
        if not self.live(u) or (self.mmode in (M_VEHICLE, M_OVERRUN) and not self.is_veh(u)):
            return  # wiped out or knocked out on the way: it stops where it is
        p = path[i]
        self._place(u, p)
        self.stack.append((OP_ADVANCE, u, i + 1))
        if i == self.fire_idx:
            self.stack.append((OP_WALK_FIRE, u))
        for idx, r in reversed(self.reacts):
            if idx == i:
                self.stack.append((OP_FIRE, r, F_REACT, u))

    def _place(self, u: int, p: int) -> None:
        """Put ``u`` (and whatever rides with it: passengers, the pilot) on point ``p``."""
        self.pos[u] = p
        if self.is_veh(u):
            for c in range(self.sc.n_units):
                if self.carried[c] == u:
                    self.pos[c] = p
                    if self.pilot_unit == c:
                        self.pilot_pos = p
        if self.pilot_unit == u:
            self.pilot_pos = p

    def _op_move_done(self, u: int) -> None:
        """The end of a move: off the table, aboard a vehicle, facing, contact with the pilot, capture."""
        path = self.path
        start = path[0]
        self.mover = -1
        self.mmode = 0
        self.path = ()
        self.reacts = []
        self.fire_idx = -1
        if not self.live(u):
            self.mexit = 0
            return
        here = self.pos[u]
        if self.mexit:
            self.mexit = 0
            if here == path[-1]:  # it reached the edge
                self._leave_table(u)
                return
        if self.is_veh(u) and here != start:
            self.facing[u] = self.bearing_index(start, here)
        elif not self.is_veh(u) and self.carried[u] < 0:
            v = self._carrier_at(u, here)
            if v >= 0:
                self.carried[u] = v
                self.guard[u] = self.gtg[u] = self.dw[u] = 0
                self.events.append(ev.Note(f"{self.sc.unit_ids[u]} boards {self.sc.unit_ids[v]}"))
        self._after_move(u)

    def _leave_table(self, u: int) -> None:
        self.events.append(ev.Note(f"{self.sc.unit_ids[u]} leaves the table"))
        riders = [c for c in range(self.sc.n_units) if self.carried[c] == u]
        for c in riders:
            self.gone[c] = 1
            self.pos[c] = -1
        self.gone[u] = 1
        self.pos[u] = -1
        self.guard[u] = self.gtg[u] = self.dw[u] = 0
        if self.pilot_unit == u or self.pilot_unit in riders:
            self.pilot_exit = self.turn
            self.pilot_pos = -1
            self.pilot_unit = -1
            self.events.append(ev.Note(f"{self.sc.unit_ids[u]} escorts the pilot off the table in turn {self.turn}"))

    def _after_move(self, u: int) -> None:
        """Contact with the pilot and capture, checked where a unit ends a move (rulings F47, F48)."""
        sc = self.sc
        pilot = sc.scenario.pilot
        here = self.pos[u]
        dist = sc.table.dist[here]
        side = sc.unit_side[u]
        rescuer = pilot is not None and side == pilot.side and not self.is_veh(u)
        if rescuer and self.pilot_unit < 0 and within(dist, self.pilot_pos, COHESION_IN):
            self.pilot_unit = u
            self.pilot_pos = here
            self.contact = 1
            self.events.append(ev.Note(f"{sc.unit_ids[u]} makes contact with the pilot"))
        capture = sc.scenario.capture
        if capture is not None and side == capture[0] and not self.is_veh(u):
            fs = self.fs
            for m in sc.side_units[capture[1]]:
                if self.pos[m] < 0 or self.gone[m] or self.carried[m] >= 0 or self.standing(m):
                    continue
                if dist[self.pos[m]] <= COHESION_IN + _EPS:
                    taken = [f for f in self.members[m] if fs[f] == 2]
                    for f in taken:
                        fs[f] = 4
                    if taken:
                        self.events.append(ev.Note(f"{sc.unit_ids[u]} captures {len(taken)} of {sc.unit_ids[m]}"))

    def _simple_move(self, u: int, p: int, mode: int) -> None:
        """A move with no reactions (close combat withdrawal and follow-up, getting out of the way)."""
        assert mode in (M_CC, M_DODGE, M_GTG) or mode not in REACTABLE
        self.events.append(ev.UnitMoved(self.sc.unit_ids[u], self.point_name(self.pos[u]), self.point_name(p),
                                        MOVE_NAMES[mode]))  # fmt: skip
        self._place(u, p)
        self._after_move(u)

    def _ask(self, u: int, actions: list[int], kind: int, then: str) -> None:
        """A decision of ``u``'s owner among ``actions`` (sorted); ``then`` names the method that takes
        the chosen action. With one action there is nothing to choose: it is taken at once, for ``u``
        (the handlers that read ``self.ask`` act for it)."""
        self.ask = u
        if len(actions) == 1:
            getattr(self, then)(actions[0])
            return
        self.choices = sorted(actions)
        self.pending = then
        self.kind = kind
