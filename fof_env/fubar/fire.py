"""Firing: who may fire at whom, target choice and split fire, the dice, cover, saves, hit allocation,
and what hits do to vehicles. Mixed into :class:`fof_env.fubar.state.FubarState`.

A fire (step ``OP_FIRE``) asks the shooter's owner for a target (``fire_target``; every figure that can
hit it fires at it), then lets him re-target figures one at a time (``split_fire``: ``f<i>`` then
``split_target``; ``fire`` resolves), then rolls target by target (``OP_RESOLVE``): one die per Fire
Point per figure against the firer's Expertise plus the target's cover (never worse than 6+), the
target's saves, and the unsaved hits: allocated by the target's owner (``allocate_hits``) on an
infantry unit, rolled on the damage table for a vehicle.
"""

from __future__ import annotations

import math

from fof_env.fubar import events as ev
from fof_env.fubar.constants import (
    CAS,
    D_ALLOCATE,
    D_SPLIT,
    D_SPLIT_TARGET,
    D_TARGET,
    D_WEAPON,
    D_WEAPON_LOST,
    F_AIMED,
    F_NO_SPLIT,
    F_ONE,
    F_REACT,
    F_WALK,
    LOST,
    OK,
    OP_ALLOC,
    OP_DAMAGE,
    OP_PASSENGERS,
    OP_RESOLVE,
    SUPP,
)
from fof_env.fubar.tables import (
    ARMOUR_NAMES,
    DAMAGE_DICE,
    DESTROYED,
    EFFECT_NAMES,
    FACING_NAMES,
    FRONT,
    HARD,
    IMMOBILISED,
    PERSONAL_ARMOUR,
    REAR,
    SIDE,
    STUNNED,
    WEAPON_DESTROYED,
    damage_effect,
    succeeds,
)

_EPS = 1e-9
BEHIND_IN = 3.0  # "troops ... directly behind it": within 3" of the vehicle (rulings F40)
BEHIND_LINE_IN = 1.5  # and the vehicle within 1.5" of the line of fire


def _better_save(a: int, b: int) -> int:
    """The better of two save numbers (0: no save)."""
    if not a:
        return b
    if not b:
        return a
    return min(a, b)


class FireMixin:
    __slots__ = ()

    # ------------------------------------------------------------------ who may fire
    def able(self, s: int) -> list[int]:
        """Member slots of ``s`` that may fire now: not Suppressed ("A figure cannot fire if they are
        Suppressed"), not a casualty, a vehicle's intact weapons; an infantry HMG only with a second
        crewman, who then does not fire himself (rulings F24)."""
        fs = self.fs
        members = self.members[s]
        out = [i for i, f in enumerate(members) if fs[f] == OK]
        if self.is_veh(s) or len(out) < 1:
            return out
        is_hmg = self.sc.hmg
        hmg = [i for i in out if is_hmg[members[i]]]
        if not hmg:
            return out
        figs = self.sc.figs
        helpers = sorted((i for i in out if not is_hmg[members[i]]),
                         key=lambda i: (figs[members[i]].fire(0.0)[0], i))  # fmt: skip
        for i in hmg:
            if helpers:
                out.remove(helpers.pop(0))
            else:
                out.remove(i)
        return out

    def friend_sees(self, side: int, q: int) -> bool:
        """Whether a unit of ``side`` on the table has line of sight to ``q`` (mortars: rulings F23)."""
        los = self.sc.geo.fire_los
        for u in self.sc.side_units[side]:
            if self.carried[u] < 0 and self.live(u) and los[self.pos[u]][q]:
                return True
        return False

    def targetable(self, t: int) -> bool:
        """An enemy unit that may be fired on: on the table, not inside a vehicle, not locked in close
        combat (rulings F28)."""
        return (
            self.carried[t] < 0
            and self.engaged[t] < 0
            and self.pos[t] >= 0
            and not self.gone[t]
            and (self.up[t] > 0 or (self.sc.vehicle[t] and not self.wreck[t]))
        )

    def figure_can_hit(self, s: int, f: int, ps: int, pt: int, walking: bool = False) -> bool:
        """Whether figure ``f`` of ``s`` at ``ps`` can hit a unit at ``pt`` (in range and in sight, or a
        mortar's target some friend sees; ``walking``: small arms and grenades only)."""
        table = self.sc.table
        d = table.dist[ps][pt]
        fp, _ign, indirect = self.sc.figs[f].fire(d, walking)
        if not fp:
            return False
        if self.sc.geo.fire_los[ps][pt]:
            return True
        return indirect and self.friend_sees(self.sc.unit_side[s], pt)

    def member_targets(self, s: int, i: int, ps: int | None = None, walking: bool = False) -> list[int]:
        """Enemy units member slot ``i`` of ``s`` can hit from ``ps`` (default: where ``s`` stands)."""
        ps = self.pos[s] if ps is None else ps
        sc = self.sc
        fire = sc.figs[self.members[s][i]].fire
        dist, los = sc.table.dist[ps], sc.geo.fire_los[ps]
        pos, carried, engaged, gone, up, vehicle, wreck = (
            self.pos, self.carried, self.engaged, self.gone, self.up, sc.vehicle, self.wreck)  # fmt: skip
        side = sc.unit_side[s]
        out = []
        for t in sc.side_units[1 - side]:  # targetable(t) and figure_can_hit(s, f, ps, pos[t]), inlined
            pt = pos[t]
            if carried[t] >= 0 or engaged[t] >= 0 or pt < 0 or gone[t] or not (up[t] > 0 or vehicle[t] and not wreck[t]):
                continue
            fp, _ignores, indirect = fire(dist[pt], walking)
            if fp and (los[pt] or indirect and self.friend_sees(side, pt)):
                out.append(t)
        return out

    def fire_targets(
        self, s: int, ps: int | None = None, slots: list[int] | None = None, walking: bool = False
    ) -> list[int]:
        """Every enemy unit some able member (or ``slots``) of ``s`` can hit from ``ps``, sorted."""
        ps = self.pos[s] if ps is None else ps
        slots = self.able(s) if slots is None else slots
        if not slots:
            return []
        sc = self.sc
        members = self.members[s]
        reach_of = sc.walk_reach if walking else sc.reach
        reach = max(reach_of[members[i]] for i in slots) + _EPS
        indirect = not walking and any(sc.indirect[members[i]] for i in slots)
        dist = sc.table.dist[ps]
        los = sc.geo.fire_los[ps]
        pos, carried, engaged = self.pos, self.carried, self.engaged
        out = []
        for t in sc.side_units[1 - sc.unit_side[s]]:
            pt = pos[t]
            if pt < 0 or dist[pt] > reach or carried[t] >= 0 or engaged[t] >= 0 or not self.live(t):
                continue
            if los[pt] or (indirect and any(self.figure_can_hit(s, members[i], ps, pt) for i in slots)):
                out.append(t)
        return out

    # ------------------------------------------------------------------ declaring a fire
    def _op_fire(self, s: int, mode: int, forced: int) -> None:
        """Start a fire of ``s``: a reaction (``F_REACT``) at ``forced``, a moving vehicle's one weapon
        (``F_ONE``), or a free choice of target and split."""
        slots = self.able(s)  # none for a unit wiped out meanwhile
        if not slots:
            return
        self.fshooter = s
        self.fmode = mode
        self.fassign = [-1] * len(self.members[s])
        self.fredir = []
        if mode & F_REACT:
            if self.targetable(forced):
                for i in slots:
                    if forced in self.member_targets(s, i):
                        self.fassign[i] = forced
            self._resolve_fire()
            return
        if mode & F_ONE:
            usable = [i for i in slots if self.member_targets(s, i)]  # a vehicle: any of its weapons
            if not usable:
                self._clear_fire()
                return
            choices = self._distinct(s, usable)
            self._ask(s, [self.sc.fig0 + i for i in choices], D_WEAPON, "_on_weapon")
            return
        targets = self.fire_targets(s, slots=slots, walking=bool(mode & F_WALK))
        if not targets:
            self._clear_fire()
            return
        self._ask(s, [self.sc.unit0 + t for t in targets], D_TARGET, "_on_target")

    def _distinct(self, s: int, slots: list[int]) -> list[int]:
        """The first slot of each kind of interchangeable member (same figure class and status)."""
        members = self.members[s]
        seen = set()
        out = []
        for i in slots:
            key = (self.sc.fig_class[members[i]], self.fs[members[i]], self.fassign[i] if self.fassign else -1)
            if key not in seen:
                seen.add(key)
                out.append(i)
        return out

    def _on_weapon(self, action: int) -> None:
        s = self.fshooter
        i = action - self.sc.fig0
        self.fweapon = i
        targets = self.member_targets(s, i)
        self._ask(s, [self.sc.unit0 + t for t in targets], D_TARGET, "_on_target")

    def _on_target(self, action: int) -> None:
        s = self.fshooter
        t = action - self.sc.unit0
        slots = [self.fweapon] if self.fmode & F_ONE else self.able(s)
        walking = bool(self.fmode & F_WALK)
        for i in slots:
            if t in self.member_targets(s, i, walking=walking):
                self.fassign[i] = t
        self._split_or_fire()

    def _split_candidates(self) -> list[int]:
        s = self.fshooter
        if self.fmode & (F_ONE | F_NO_SPLIT | F_REACT):
            return []
        walking = bool(self.fmode & F_WALK)
        out = []
        for i in self.able(s):
            if i in self.fredir:
                continue
            if any(t != self.fassign[i] for t in self.member_targets(s, i, walking=walking)):
                out.append(i)
        return out

    def _split_or_fire(self) -> None:
        """"It can split its fire amongst more than one target": offer the figures that could fire at
        another target, one at a time (each figure once), until ``fire`` (rulings F21)."""
        cands = self._split_candidates()
        if not cands:
            self._resolve_fire()
            return
        self.ask = self.fshooter
        self.kind = D_SPLIT

    def _split_actions(self) -> list[int]:
        fig0 = self.sc.fig0
        return sorted([fig0 + i for i in self._distinct(self.fshooter, self._split_candidates())] + [self.sc.word("fire")])

    def _on_split(self, action: int) -> None:
        if action == self.sc.word("fire"):
            self._resolve_fire()
            return
        s = self.fshooter
        i = action - self.sc.fig0
        self.fsel = i
        targets = [t for t in self.member_targets(s, i, walking=bool(self.fmode & F_WALK)) if t != self.fassign[i]]
        self._ask(s, [self.sc.unit0 + t for t in targets], D_SPLIT_TARGET, "_on_split_target")

    def _on_split_target(self, action: int) -> None:
        i = self.fsel
        self.fassign[i] = action - self.sc.unit0
        self.fredir.append(i)
        self.fsel = -1
        self._split_or_fire()

    def _resolve_fire(self) -> None:
        """Push the resolution of each target of the declared fire (in unit order) and forget the declaration."""
        s = self.fshooter
        members = self.members[s]
        mode = self.fmode & (F_AIMED | F_WALK)
        by_target: dict[int, list[int]] = {}
        for i, t in enumerate(self.fassign):
            if t >= 0:
                by_target.setdefault(t, []).append(members[i])
        for t in sorted(by_target, reverse=True):
            self.stack.append((OP_RESOLVE, s, t, mode, tuple(by_target[t])))
        self._clear_fire()

    def _clear_fire(self) -> None:
        self.fshooter = -1
        self.fmode = 0
        self.fassign = []
        self.fredir = []
        self.fweapon = -1
        self.fsel = -1

    # ------------------------------------------------------------------ resolving
    def cover_level(self, t: int, ps: int, direct: bool) -> int:
        """The cover of target ``t`` against fire from ``ps``: its terrain or a wall ("At least half of
        a unit has to be in cover": a unit is on one point, all in or all out), Duck & Weave at least
        Soft, Gone to Ground one level better (at most Hard)."""
        geo = self.sc.geo
        pt = self.pos[t]
        level = geo.cover_from[ps][pt] if direct else geo.level[pt]
        if not self.is_veh(t):
            if self.dw[t] and level < 1:
                level = 1
            if self.gtg[t]:
                level = min(HARD, level + 1)
        return level

    def unit_save(self, t: int, ps: int = -1) -> int:
        """The save of infantry unit ``t``: "the majority type in the Unit" among its standing figures
        (a tie: the lighter armour), or the armour save of a friendly vehicle it stands directly
        behind when that is better (rulings F25, F40). 0: no save."""
        fs = self.fs
        armour = self.sc.armour
        counts = [0] * len(ARMOUR_NAMES)
        for f in self.members[t]:
            if fs[f] == OK or fs[f] == SUPP:
                counts[ARMOUR_NAMES.index(armour[f])] += 1
        best = max(range(len(counts)), key=lambda k: (counts[k], -k))
        save = PERSONAL_ARMOUR[ARMOUR_NAMES[best]] if counts[best] else 0
        if ps >= 0:
            save = _better_save(save, self._behind_vehicle(t, ps))
        return save

    def _behind_vehicle(self, t: int, ps: int) -> int:
        sc = self.sc
        pt = self.pos[t]
        table = sc.table
        (sx, sy), (tx, ty) = table.xy[ps], table.xy[pt]
        best = 0
        for v in sc.side_units[sc.unit_side[t]]:
            if not sc.vehicle[v] or not self.is_veh(v) or self.carried[v] >= 0 or self.pos[v] < 0 or self.gone[v]:
                continue
            pv = self.pos[v]
            if pv == pt or table.dist[pv][pt] > BEHIND_IN + _EPS or table.dist[ps][pv] >= table.dist[ps][pt]:
                continue
            vx, vy = table.xy[pv]
            dx, dy = tx - sx, ty - sy
            length = math.hypot(dx, dy)
            off = abs(dx * (vy - sy) - dy * (vx - sx)) / length if length else 0.0
            if off <= BEHIND_LINE_IN + _EPS:
                best = _better_save(best, sc.vsave[v])
        return best

    def _roll_saves(self, n: int, save: int, purpose: str) -> tuple[int, ...]:
        if not save:
            return ()
        return tuple(self.roll(6, purpose) for _ in range(n))

    def _op_resolve(self, s: int, t: int, mode: int, figs: tuple[int, ...]) -> None:
        """One unit's fire at one target: dice, saves, and what the unsaved hits do."""
        if not self.targetable(t) or not self.live(s):
            return
        aimed = 1 if mode & F_AIMED else 0
        walking = bool(mode & F_WALK)
        sc = self.sc
        fs = self.fs
        ps, pt = self.pos[s], self.pos[t]
        d = sc.table.dist[ps][pt]
        los = sc.geo.fire_los[ps][pt]
        expertise = sc.expertise[s]
        cover_direct = cover_indirect = -1
        dice: list[int] = []
        hits = 0
        shown_need = 0
        name = sc.unit_ids[s]
        for f in figs:
            if fs[f] != OK:
                continue
            fp, ignores, indirect = sc.figs[f].fire(d, walking)
            if not fp or (not los and not indirect):
                continue
            if ignores:
                level = 0
            elif los:
                if cover_direct < 0:
                    cover_direct = self.cover_level(t, ps, True)
                level = cover_direct
            else:
                if cover_indirect < 0:
                    cover_indirect = self.cover_level(t, ps, False)
                level = cover_indirect
            need = min(6, expertise + level)
            shown_need = max(shown_need, need)
            for _ in range(fp):
                r = self.roll(6, f"fire of {name}")
                dice.append(r)
                if succeeds(r, r + aimed, need):
                    hits += 1
        if not dice:
            return
        target = sc.unit_ids[t]
        if self.is_veh(t):
            save = sc.vsave[t]
            saves = self._roll_saves(hits, save, f"armour save of {target}")
            unsaved = hits - sum(1 for r in saves if succeeds(r, r, save))
            self.events.append(ev.FireHits(name, target, tuple(dice), shown_need, hits, save, saves, unsaved))
            if unsaved:
                arc = self.arc(t, ps)
                if any(self.carried[c] == t for c in range(sc.n_units)):
                    self.stack.append((OP_PASSENGERS, t, unsaved))
                for _ in range(unsaved):
                    self.stack.append((OP_DAMAGE, t, arc))
            return
        save = self.unit_save(t, ps)
        saves = self._roll_saves(hits, save, f"armour save of {target}")
        unsaved = hits - sum(1 for r in saves if succeeds(r, r, save))
        self.events.append(ev.FireHits(name, target, tuple(dice), shown_need, hits, save, saves, unsaved))
        if unsaved:
            self.stack.append((OP_ALLOC, t, unsaved, 0, ()))

    # ------------------------------------------------------------------ allocation
    def _op_alloc(self, t: int, hits: int, cc: int, allowed: tuple[int, ...]) -> None:
        """"Unsaved hits against a Unit must be taken as casualties, suppressed figures, or a combination
        of both to the allowable limits": the target's owner allocates them one at a time."""
        self.aunit = t
        self.ahits = hits
        self.about = []
        self.acc = cc
        self.aallowed = allowed
        self._alloc_next()

    def alloc_actions(self) -> list[int]:
        """``c<i>``/``s<i>`` for each kind of figure that can still take a hit of this bout: a figure
        not yet hit in this bout ("cannot be made both suppressed and a casualty from the same bout"),
        Suppressed only while the unit is under its Suppress limit, never in close combat."""
        t = self.aunit
        sc = self.sc
        fs = self.fs
        members = self.members[t]
        supp = sum(1 for f in members if fs[f] == SUPP)
        may_suppress = not self.acc and supp < sc.suppress[t]
        seen = set()
        out = []
        for i, f in enumerate(members):
            st = fs[f]
            if st > SUPP or f in self.about or (self.aallowed and f not in self.aallowed):
                continue
            key = (sc.fig_class[f], st)
            if key in seen:
                continue
            seen.add(key)
            out.append(sc.cas0 + i)
            if may_suppress and st == OK:
                out.append(sc.sup0 + i)
        out.sort()
        return out

    def _alloc_next(self) -> None:
        while self.ahits > 0:
            legal = self.alloc_actions()
            if not legal:
                break  # nobody left to take the hit
            if len(legal) > 1:
                self.ask = self.aunit
                self.kind = D_ALLOCATE
                return
            self._take_hit(legal[0])
        t = self.aunit
        self.aunit = -1
        self.ahits = 0
        self.about = []
        self.acc = 0
        self.aallowed = ()
        self.ask = -1
        self._after_losses(t)

    def _take_hit(self, action: int) -> None:
        sc = self.sc
        t = self.aunit
        if action >= sc.sup0:
            i = action - sc.sup0
            result = SUPP
        else:
            i = action - sc.cas0
            result = CAS
        f = self.members[t][i]
        self.fs[f] = result
        if result == CAS:
            self.up[t] -= 1
        self.about.append(f)
        self.ahits -= 1
        self.events.add(ev.HitTaken, (sc.unit_ids[t], i, "suppressed" if result == SUPP else "casualty"))

    def _on_allocate(self, action: int) -> None:
        self._take_hit(action)
        self._alloc_next()

    # ------------------------------------------------------------------ vehicles
    def bearing_index(self, p: int, q: int) -> int:
        """The compass direction (0 north .. 7 north-west) from point p to point q."""
        (ax, ay), (bx, by) = self.sc.table.xy[p], self.sc.table.xy[q]
        bearing = math.degrees(math.atan2(bx - ax, ay - by)) % 360.0
        return int(round(bearing / 45.0)) % 8

    def arc(self, v: int, ps: int) -> int:
        """Which face of vehicle ``v`` fire from ``ps`` hits: front within 45 degrees of its facing, rear
        within 45 degrees of its back, side otherwise (rulings F41)."""
        pv = self.pos[v]
        if ps == pv:
            return SIDE
        (ax, ay), (bx, by) = self.sc.table.xy[pv], self.sc.table.xy[ps]
        bearing = math.degrees(math.atan2(bx - ax, ay - by)) % 360.0
        diff = abs((bearing - 45.0 * self.facing[v] + 180.0) % 360.0 - 180.0)
        if diff <= 45.0 + 1e-6:
            return FRONT
        if diff >= 135.0 - 1e-6:
            return REAR
        return SIDE

    def _op_damage(self, v: int, arc: int) -> None:
        """One unsaved hit on a vehicle: the damage table, 2 dice the better on the front, 1 on the side,
        2 the worse on the rear; an effect already suffered this turn becomes the next one up."""
        if not self.is_veh(v):
            return
        name = self.sc.unit_ids[v]
        rolls = tuple(self.roll(6, f"damage to {name}") for _ in range(DAMAGE_DICE[arc]))
        r = min(rolls) if arc == FRONT else max(rolls) if arc == REAR else rolls[0]
        effect = damage_effect(r)
        while self.effects[v] >> effect & 1 and effect < DESTROYED:
            effect += 1
        if effect < DESTROYED:  # a wreck suffers nothing more: no need to remember it
            self.effects[v] |= 1 << effect
        self.events.append(ev.VehicleDamaged(name, FACING_NAMES[arc], rolls, EFFECT_NAMES[effect]))
        if effect == STUNNED:
            self.stunned[v] = 1
        elif effect == WEAPON_DESTROYED:
            intact = [i for i, f in enumerate(self.members[v]) if self.fs[f] == OK]
            if intact:
                self.ask = v
                self._ask(v, [self.sc.fig0 + i for i in self._distinct_mounts(v, intact)], D_WEAPON_LOST,
                          "_on_weapon_lost")  # fmt: skip
        elif effect == IMMOBILISED:
            self.immob[v] = 1
        else:
            self._bail_out(v)

    def _distinct_mounts(self, v: int, slots: list[int]) -> list[int]:
        members = self.members[v]
        seen = set()
        out = []
        for i in slots:
            key = self.sc.fig_class[members[i]]
            if key not in seen:
                seen.add(key)
                out.append(i)
        return out

    def _on_weapon_lost(self, action: int) -> None:
        v = self.ask if self.ask >= 0 else -1
        i = action - self.sc.fig0
        if v < 0:
            return
        f = self.members[v][i]
        self.fs[f] = LOST
        self.recount(v)
        self.ask = -1
        self.events.append(ev.Note(f"{self.sc.unit_ids[v]} loses its {self.sc.figs[f].weapons[0].name}"))

    def _bail_out(self, v: int) -> None:
        """"Vehicle Destroyed. All crew/passengers must bail out & each figure takes one hit." Crew and
        passengers cannot be Suppressed: a hit not saved is a casualty (rulings F43)."""
        sc = self.sc
        self.wreck[v] = 1
        self.guard[v] = 0
        self.stunned[v] = 0
        for f in self.members[v]:  # its weapons leave play: no status of theirs stays behind (a position
            if f not in sc.crew_figs[v]:  # rebuilt from this one has none), so equal positions are equal states
                self.fs[f] = OK
        self.members[v] = list(sc.crew_figs[v])  # counted by _bail_hits below
        here = self.pos[v]
        table = sc.table
        if here in self.occupied(v):  # knocked out passing another unit: the crew get out beside it
            free = [p for p in table.within(here, 4.0) if p not in self.occupied(v)]
            if free:
                self.pos[v] = min(free, key=lambda p: (table.dist[here][p], p))
        self.events.append(ev.Note(f"{sc.unit_ids[v]} is destroyed: the crew bail out at {self.point_name(self.pos[v])}"))
        self._bail_hits(v)
        for c in range(sc.n_units):
            if self.carried[c] != v:
                continue
            self.carried[c] = -1
            occ = self.occupied(c)
            free = [p for p in table.within(here, 4.0) if p not in occ] or [here]
            spot = min(free, key=lambda p: (table.dist[here][p], p))
            self.pos[c] = spot
            if self.pilot_unit == c:
                self.pilot_pos = spot
            self.events.append(ev.Note(f"{sc.unit_ids[c]} bails out to {self.point_name(spot)}"))
            self._bail_hits(c)
        if not self.members[v] or not self.standing(v):
            self._after_losses(v)

    def _bail_hits(self, u: int) -> None:
        save = self.unit_save(u)
        name = self.sc.unit_ids[u]
        for i, f in enumerate(self.members[u]):
            if self.fs[f] not in (OK, SUPP):
                continue
            if save:
                r = self.roll(6, f"bail-out save of {name}")
                if succeeds(r, r, save):
                    continue
            self.fs[f] = CAS
            self.events.append(ev.HitTaken(name, i, "casualty"))
        self.recount(u)
        self._after_losses(u)

    def _op_passengers(self, v: int, n: int) -> None:
        """"If the vehicle makes its save, passengers inside do not have to": the hits it failed to save
        fall on its passengers too, who save with their own armour (rulings F39)."""
        if not self.is_veh(v):
            return
        for c in range(self.sc.n_units):
            if self.carried[c] == v and self.live(c):
                save = self.unit_save(c)
                saves = self._roll_saves(n, save, f"armour save of {self.sc.unit_ids[c]}")
                unsaved = n - sum(1 for r in saves if succeeds(r, r, save))
                if unsaved:
                    self.stack.append((OP_ALLOC, c, unsaved, 0, ()))
