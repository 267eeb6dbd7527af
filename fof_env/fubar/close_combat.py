"""Close combat: the Assault, the defender moving up, the simultaneous strikes, combat continuing at the
start of each turn, withdrawing and following up; and a vehicle assaulting infantry.
Mixed into :class:`fof_env.fubar.state.FubarState` (rulings F29-F35, F38).
"""

from __future__ import annotations

from fof_env.fubar import events as ev
from fof_env.fubar.constants import (
    D_CC_CHOICE,
    D_CC_FOLLOW,
    D_CC_WITHDRAW,
    D_DODGE,
    D_MOVE_UP,
    M_CC,
    M_DODGE,
    OK,
    OP_ALLOC,
    OP_CC_CHECK,
    OP_CC_PAIR,
    OP_CC_ROUND,
    OP_CC_STRIKE,
    SUPP,
)
from fof_env.fubar.tables import ASSAULT_IN, COHESION_IN, succeeds

_EPS = 1e-9
CONTACT_IN = COHESION_IN  # units 3" apart or less are in base contact (rulings F29)


class CloseCombatMixin:
    __slots__ = ()

    # ------------------------------------------------------------------ assault targets
    def contact_point(self, u: int, t: int, limit: float) -> int:
        """The free point within 3" of ``t`` nearest to ``u`` and at most ``limit`` inches from it
        (``u``'s own point when it is already in contact); -1 if there is none."""
        table = self.sc.table
        here = self.pos[u]
        there = self.pos[t]
        if self.carried[u] < 0 and table.dist[here][there] <= CONTACT_IN + _EPS:
            return here
        occ = self.occupied(u)
        dist = table.dist[here]
        best, best_d = -1, 0.0
        for p in table.within(there, CONTACT_IN):
            if p in occ or dist[p] > limit + _EPS:
                continue
            if best < 0 or dist[p] < best_d - _EPS:
                best, best_d = p, dist[p]
        return best

    def assault_targets(self, u: int) -> list[int]:
        """Enemy infantry units ``u`` can assault: in sight, not already in close combat, and reachable
        (an infantry unit: a free point in contact within 8"; a vehicle: their point within its move)."""
        sc = self.sc
        here = self.pos[u]
        los = sc.geo.fire_los[here]
        out = []
        vehicle = self.is_veh(u)
        dist = sc.table.dist[here]
        for t in sc.side_units[1 - sc.unit_side[u]]:
            if not self.targetable(t) or self.is_veh(t) or not los[self.pos[t]] or dist[self.pos[t]] > 12.0 + _EPS:
                continue
            if vehicle:
                if self.vehicle_reach(u, self.pos[t]):
                    out.append(t)
            elif self.contact_point(u, t, ASSAULT_IN) >= 0:
                out.append(t)
        return out

    # ------------------------------------------------------------------ starting a combat
    def _op_cc_start(self, a: int, t: int) -> None:
        """After the Assault move: the combat begins if both units still stand and are in contact."""
        if not self.live(a) or not self.live(t) or self.engaged[t] >= 0:
            return
        if self.sc.table.dist[self.pos[a]][self.pos[t]] > CONTACT_IN + _EPS:
            return
        self.engaged[a] = t
        self.engaged[t] = a
        self.tried[t] = 1  # a unit locked in close combat does not activate (rulings F32)
        self.guard[t] = self.gtg[t] = self.dw[t] = 0
        self.events.append(ev.Note(f"{self.sc.unit_ids[a]} assaults {self.sc.unit_ids[t]}: close combat"))
        self.cca, self.ccb = a, t
        self.ccchosen = []
        self._move_up_next()

    def _move_up_candidates(self) -> list[int]:
        t = self.ccb
        fs = self.fs
        return [i for i, f in enumerate(self.members[t]) if fs[f] in (OK, SUPP) and f not in self.ccchosen]

    def _move_up_need(self) -> int:
        """Figures of the defender in base contact: one per attacking figure, as far as they go."""
        return min(self.standing(self.cca), self.standing(self.ccb))

    def move_up_actions(self) -> list[int]:
        sc = self.sc
        t = self.ccb
        members = self.members[t]
        seen = set()
        out = []
        for i in self._move_up_candidates():
            key = (sc.fig_class[members[i]], self.fs[members[i]])
            if key not in seen:
                seen.add(key)
                out.append(sc.fig0 + i)
        if len(self.ccchosen) >= self._move_up_need():
            out.append(sc.word0)  # pass: no more figures move up
        return sorted(out)

    def _move_up_next(self) -> None:
        """"The attacking Unit moves its figures into base contact with enemy figures ... Then the opponent
        can move up any unengaged figures": the defender picks the figures that fight, one by one."""
        while self._move_up_candidates():
            cands = self._move_up_candidates()
            if len(self.ccchosen) + len(cands) <= self._move_up_need():  # all of them must fight
                self.ccchosen.extend(self.members[self.ccb][i] for i in cands)
                break
            legal = self.move_up_actions()
            if len(legal) > 1:
                self.ask = self.ccb
                self.kind = D_MOVE_UP
                return
            if legal[0] == self.sc.word0:
                break
            self.ccchosen.append(self.members[self.ccb][legal[0] - self.sc.fig0])
        a, b, chosen = self.cca, self.ccb, tuple(self.ccchosen)
        self.cca = self.ccb = -1
        self.ccchosen = []
        self.ask = -1
        self.stack.append((OP_CC_ROUND, a, b, chosen))

    def _on_move_up(self, action: int) -> None:
        if action == self.sc.word0:
            a, b, chosen = self.cca, self.ccb, tuple(self.ccchosen)
            self.cca = self.ccb = -1
            self.ccchosen = []
            self.ask = -1
            self.stack.append((OP_CC_ROUND, a, b, chosen))
            return
        self.ccchosen.append(self.members[self.ccb][action - self.sc.fig0])
        self._move_up_next()

    # ------------------------------------------------------------------ a round
    def _standing_members(self, u: int) -> tuple[int, ...]:
        fs = self.fs
        return tuple(f for f in self.members[u] if fs[f] in (OK, SUPP))

    def _op_cc_round(self, a: int, b: int, chosen: tuple[int, ...]) -> None:
        """One round: every engaged figure not Suppressed strikes at once; then the figures Suppressed
        before this attack that are still standing strike; casualties only; cover has no effect."""
        if self.engaged[a] != b or not self.live(a) or not self.live(b):
            return
        ea = self._standing_members(a)
        eb = chosen if chosen else self._standing_members(b)
        late_a = tuple(f for f in ea if self.fs[f] == SUPP)
        late_b = tuple(f for f in eb if self.fs[f] == SUPP)
        self.stack.append((OP_CC_CHECK, a, b))
        self.stack.append((OP_CC_STRIKE, a, b, late_a, late_b, ea, eb, 1))
        self.stack.append((OP_CC_STRIKE, a, b, ea, eb, ea, eb, 0))

    def _op_cc_strike(self, a, b, sa, sb, ea, eb, late) -> None:
        fs = self.fs
        want = SUPP if late else OK
        strikers_a = [f for f in sa if fs[f] == want]
        strikers_b = [f for f in sb if fs[f] == want]
        if not strikers_a and not strikers_b:
            return
        hits_on_b, dice_a = self._cc_dice(a, len(strikers_a))
        hits_on_a, dice_b = self._cc_dice(b, len(strikers_b))
        unsaved_b = self._cc_saves(a, b, dice_a, hits_on_b, bool(late))
        unsaved_a = self._cc_saves(b, a, dice_b, hits_on_a, bool(late))
        if unsaved_a:
            self.stack.append((OP_ALLOC, a, unsaved_a, 1, ea))
        if unsaved_b:
            self.stack.append((OP_ALLOC, b, unsaved_b, 1, eb))

    def _cc_dice(self, u: int, n: int) -> tuple[int, tuple[int, ...]]:
        need = self.sc.expertise[u]
        name = self.sc.unit_ids[u]
        dice = tuple(self.roll(6, f"close combat of {name}") for _ in range(n))
        return sum(1 for r in dice if succeeds(r, r, need)), dice

    def _cc_saves(self, s: int, t: int, dice: tuple[int, ...], hits: int, late: bool) -> int:
        if not dice:
            return 0
        save = self.unit_save(t)
        saves = self._roll_saves(hits, save, f"armour save of {self.sc.unit_ids[t]}")
        unsaved = hits - sum(1 for r in saves if succeeds(r, r, save))
        self.events.append(ev.CloseCombat(self.sc.unit_ids[s], self.sc.unit_ids[t], dice, self.sc.expertise[s], hits,
                                          save, saves, unsaved, late))  # fmt: skip
        return unsaved

    def _op_cc_check(self, a: int, b: int) -> None:
        if self.engaged[a] == b and (not self.live(a) or not self.live(b)):
            self._disengage(a, b)
            self.events.append(ev.Note(f"the close combat of {self.sc.unit_ids[a]} and {self.sc.unit_ids[b]} is over"))

    def _disengage(self, a: int, b: int) -> None:
        self.engaged[a] = -1
        self.engaged[b] = -1

    # ------------------------------------------------------------------ later turns
    def _op_cc_all(self) -> None:
        """"The combat continues at the beginning of each subsequent turn. The units involved
        automatically activate at that point. They cannot subsequently activate in that turn.\""""
        pairs = sorted({(min(u, v), max(u, v)) for u, v in enumerate(self.engaged) if v >= 0})
        for a, b in reversed(pairs):
            self.stack.append((OP_CC_PAIR, a, b))

    def _op_cc_pair(self, a: int, b: int) -> None:
        if self.engaged[a] != b:
            return
        self.tried[a] = self.tried[b] = 1
        if not self.live(a) or not self.live(b):
            self._disengage(a, b)
            return
        first = a if self.sc.unit_side[a] == self.first else b
        self.cca, self.ccb = first, b if first == a else a
        self.ccstage = 1
        self.ask = first
        self.kind = D_CC_CHOICE

    def _on_cc_choice(self, action: int) -> None:
        u, v = self.cca, self.ccb
        if action == self.sc.word("fight"):
            if self.ccstage == 1:
                self.cca, self.ccb = v, u
                self.ccstage = 2
                self.ask = v
                self.kind = D_CC_CHOICE
                return
            self._cc_fight(u, v)
            return
        # withdraw: "a Unit must make a successful Activation roll & then move 1D6" away"
        if not self.activation_roll(u, "withdraw from close combat"):
            self._cc_fight(u, v)
            return
        d = self.roll(6, f"withdrawal of {self.sc.unit_ids[u]}")
        table = self.sc.table
        occ = self.occupied(u)
        now = table.dist[self.pos[u]][self.pos[v]]
        away = [p for p in table.within(self.pos[u], float(d)) if p not in occ and table.dist[p][self.pos[v]] > now + _EPS]
        if not away:
            self.events.append(ev.Note(f"{self.sc.unit_ids[u]} has nowhere to withdraw to"))
            self._cc_fight(u, v)
            return
        self._ask(u, away, D_CC_WITHDRAW, "_cc_withdraw_to")

    def _cc_fight(self, u: int, v: int) -> None:
        self.cca = self.ccb = -1
        self.ccstage = 0
        self.ask = -1
        a, b = min(u, v), max(u, v)
        self.stack.append((OP_CC_ROUND, a, b, ()))

    def _cc_withdraw_to(self, p: int) -> None:
        u, v = self.cca, self.ccb
        self._disengage(u, v)
        self._simple_move(u, p, M_CC)
        self.ccstage = 0
        if self.live(v):
            self.cca, self.ccb = v, u  # the opponent may follow up
            self.ask = v
            self.kind = D_CC_FOLLOW
            return
        self.cca = self.ccb = -1
        self.ask = -1

    def _on_cc_follow(self, action: int) -> None:
        o, w = self.cca, self.ccb
        self.cca = self.ccb = -1
        self.ask = -1
        if action != self.sc.word("yes"):
            return
        if not self.activation_roll(o, "follow up"):
            return
        e = self.roll(6, f"follow-up of {self.sc.unit_ids[o]}")
        table = self.sc.table
        gap = table.dist[self.pos[o]][self.pos[w]] - CONTACT_IN
        spot = self.contact_point(o, w, float(e)) if gap <= e + _EPS else -1
        if spot >= 0:
            if spot != self.pos[o]:
                self._simple_move(o, spot, M_CC)
            self.engaged[o] = w
            self.engaged[w] = o
            self.events.append(ev.Note(f"{self.sc.unit_ids[o]} catches {self.sc.unit_ids[w]}: the combat goes on"))
            a, b = min(o, w), max(o, w)
            self.stack.append((OP_CC_ROUND, a, b, ()))
            return
        occ = self.occupied(o)
        here = self.pos[o]
        dist_w = table.dist[self.pos[w]]
        closer = [p for p in table.within(here, float(e)) if p not in occ and dist_w[p] < dist_w[here] - _EPS]
        if closer:
            spot = min(closer, key=lambda p: (dist_w[p], p))
            self._simple_move(o, spot, M_CC)

    # ------------------------------------------------------------------ vehicles assaulting infantry
    def _op_overrun(self, v: int, t: int) -> None:
        """"If a Vehicle assaults infantry, they make an Activation roll to get out of the way, and move
        figures out of vehicle's path. If they fail each figure in the vehicle's path is hit. Make saves
        as normal." (rulings F38)"""
        if not self.is_veh(v) or not self.targetable(t) or self.pos[v] != self.pos[t]:
            self._overrun_place(v)
            return
        self.ovehicle = v
        self.otarget = t
        if self.activation_roll(t, "get out of the way"):
            occ = self.occupied(t)
            path = set(self.path_of_overrun)
            room = [p for p in self.sc.table.within(self.pos[t], CONTACT_IN) if p not in occ and p not in path]
            if room:
                self._ask(t, room, D_DODGE, "_dodge_to")
                return
            self.events.append(ev.Note(f"{self.sc.unit_ids[t]} has nowhere to go"))
        self._run_down(v, t)

    def _dodge_to(self, p: int) -> None:
        t, v = self.otarget, self.ovehicle
        self.otarget = -1
        self.ask = -1
        self._simple_move(t, p, M_DODGE)
        self._overrun_place(v)

    def _run_down(self, v: int, t: int) -> None:
        fs = self.fs
        n = sum(1 for f in self.members[t] if fs[f] in (OK, SUPP))
        save = self.unit_save(t)
        name = self.sc.unit_ids[t]
        saves = self._roll_saves(n, save, f"armour save of {name}")
        unsaved = n - sum(1 for r in saves if succeeds(r, r, save))
        self.events.append(ev.Note(f"{self.sc.unit_ids[v]} runs down {name}: {n} hits, {unsaved} not saved"))
        self._overrun_place(v)
        if unsaved:
            self.stack.append((OP_ALLOC, t, unsaved, 0, ()))

    def _overrun_place(self, v: int) -> None:
        """The vehicle ends on its target's point if it is free, else on the last free point of its path."""
        path = self.path_of_overrun
        self.path_of_overrun = ()
        self.ovehicle = -1
        if not self.is_veh(v) or self.pos[v] < 0:  # knocked out on the way: its crew stay where they got out
            return
        occ = self.occupied(v)
        for p in reversed(path):
            if p not in occ:
                if p != self.pos[v]:
                    self._place(v, p)
                return
