"""WWII tanks and other AFVs as units (004 "WWII Vehicle Design Guidelines", "TANKS FIRING ON INFANTRY
(WWII)", "Bail Outs (WWII)", "AFVs Spotting Infantry (WWII)"; 003's vehicle moves). Rulings R80-R89.

A scenario unit with a ``vehicle`` block is an AFV; its figures are its crew::

    "vehicle": {"defense": "medium", "main_gun": "class3_3d", "mgs": true,
                "applied_armour": false, "crew_confidence": "confident"}

An infantry unit with ``"at_weapon": "bazooka"`` (``piat``, ``panzerschreck``, ``panzerfaust``, or an AT
or infantry gun: ``at_gun_class2_3d`` ... ``at_gun_class3_5d``, ``infantry_gun``) may fire at AFVs with that
weapon's class dice. Everything is off (and no hook costs more than one test of an empty tuple) in a
scenario without AFVs: ``state.sc.vehicles`` is then ``()``.

For other rules: fire at an AFV goes through the engine's ``_attack`` (``shooter_pos=-1``, fire from
above such as an air attack, meets the deck armour, R81); :meth:`WWIIVehicles.strike_vehicle` rolls a
column of the Vehicle Damage Results chart directly (004's Fog of War: "roll on the 2 Hits column").

Per AFV the state keeps one immutable :class:`VehicleState` (slot ``veh``): damage, bail-out,
applied armour, hatch, facing and the buttoned-up spotting of this turn.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, NamedTuple

from fof_env.core.errors import PositionError
from fof_env.force_on_force import combat
from fof_env.force_on_force import events as ev
from fof_env.force_on_force.constants import D_ACTION, KIA, LIGHT, OK, TACTICAL_IN
from fof_env.force_on_force.rule_module import LIST, ObservationPiece, PositionKeys, RuleModule, Slot

# 004 "GUIDELINES FOR SETTING WWII VEHICLE DEFENSE": (dice, die type)
DEFENSE = {"protected": (2, 6), "light": (3, 6), "medium": (3, 8), "heavy": (4, 10), "extra_heavy": (5, 12)}
# 004 "GUIDELINES FOR SETTING WWII VEHICLE FIREPOWER": (class, dice)
GUNS = {"class0_2d": (0, 2), "class1_3d": (1, 3), "class2_3d": (2, 3), "class2_4d": (2, 4), "class3_3d": (3, 3),
        "class3_4d": (3, 4), "class3_5d": (3, 5)}  # fmt: skip
# 004: "Class 3 (3d) ... PIAT, Bazooka", "Class 3 (4d) ... PzFaust, Pzschreck"
AT_WEAPONS = {"bazooka": "class3_3d", "piat": "class3_3d", "panzerschreck": "class3_4d", "panzerfaust": "class3_4d",
              # AT and infantry guns (a unit of gun crew): 004 "This restriction doesn't apply to Hidden AT or
              # Infantry Guns" (R86); their class as 004's guidelines give it
              "at_gun_class2_3d": "class2_3d", "at_gun_class2_4d": "class2_4d", "at_gun_class3_3d": "class3_3d",
              "at_gun_class3_4d": "class3_4d", "at_gun_class3_5d": "class3_5d", "infantry_gun": "class3_3d"}
GUN_WEAPONS = frozenset(w for w in AT_WEAPONS if w.startswith(("at_gun", "infantry_gun")))
CREW_CONFIDENCE = ("low", "confident", "high")
TANK_MG_DICE = 3  # 004: "A WWII tank may only make a 3d Firepower attack with its machineguns"
VEHICLE_TACTICAL_IN, VEHICLE_RAPID_IN = 10.0, 20.0  # 003: "Vehicles may make a Tactical move of up to 10”"
FACINGS = ("east", "northeast", "north", "northwest", "west", "southwest", "south", "southeast")
START_FACING = {"west": 0, "north": 6, "east": 4, "south": 2}  # facing away from the friendly edge (R81)
HATCH_USED = 64  # ``free_used`` bit: the hatch was opened or closed in this activation
VEHICLE_FEATURES = 10  # observation features per unit when a scenario has AFVs


@dataclass(frozen=True)
class VehicleSpec:
    """An AFV of the order of battle (the scenario's ``vehicle`` block)."""

    defense: str
    main_gun: str | None
    mgs: bool
    applied_armour: bool
    crew_confidence: str
    buttoned: bool = True


class VehicleState(NamedTuple):
    """One AFV's state (0/1 flags; ``facing`` an index of FACINGS; ``spotted`` a bitmask of unit indices)."""

    immobilised: int = 0
    gun_out: int = 0
    knocked_out: int = 0
    bailed: int = 0
    applied: int = 0
    buttoned: int = 1
    facing: int = 0
    spot_used: int = 0
    spotted: int = 0


def vehicle_spec(block: dict[str, Any] | None) -> VehicleSpec | None:
    """The :class:`VehicleSpec` of a schema-checked ``vehicle`` block (None: not an AFV)."""
    if block is None:
        return None
    return VehicleSpec(block["defense"], block.get("main_gun"), block.get("mgs", True),
                       block.get("applied_armour", False), block.get("crew_confidence", "confident"),
                       block.get("buttoned", True))  # fmt: skip


def vehicle_flags(units) -> tuple[bool, ...]:
    """By unit of a scenario: an AFV; () when none is (the scenario's layout stays as it was)."""
    flags = tuple(u.vehicle is not None for u in units)
    return flags if any(flags) else ()


def initial_state(spec: VehicleSpec, edge: str) -> VehicleState:
    return VehicleState(applied=int(spec.applied_armour), buttoned=int(spec.buttoned), facing=START_FACING[edge])


@cache
def damage_chart() -> dict[str, Any]:
    """``data/vehicle_damage.json``: the reconstructed Vehicle Damage Results chart (R82)."""
    text = resources.files("fof_env.force_on_force").joinpath("data", "vehicle_damage.json").read_text("utf-8")
    return json.loads(text)


def octant(dx: float, dy: float) -> int:
    """The FACINGS index nearest the direction (dx, dy) in table inches (y grows southward)."""
    return round(math.atan2(-dy, dx) / (math.pi / 4)) % 8


class WWIIVehicles:
    """Mixin of :class:`~fof_env.force_on_force.state.ForceOnForceState` (see the module docstring)."""

    __slots__ = ()

    # ------------------------------------------------------------------ queries
    def is_afv(self, u: int) -> bool:
        """An AFV still crewed (a bailed-out crew is an infantry unit: R84)."""
        v = self.sc.vehicles
        return bool(v) and v[u] is not None and not self.veh[u].bailed

    def at_dice(self, u: int) -> int:
        """Dice ``u`` throws at an AFV: its main gun of Class 1+ (not damaged), or its infantry AT weapon."""
        if self.is_afv(u):
            gun = self.sc.vehicles[u].main_gun
            if gun is None or self.veh[u].gun_out or GUNS[gun][0] < 1:
                return 0  # 004: "All Class 0 weapons throw 2d vs. infantry and soft skin vehicles only."
            return GUNS[gun][1]
        weapon = self.sc.at_weapons[u] if self.sc.at_weapons else None
        return GUNS[AT_WEAPONS[weapon]][1] if weapon else 0

    def afv_soft_dice(self, u: int) -> int:
        """Dice AFV ``u`` throws at infantry: the greater of its MGs (3d) and its working main gun (R81)."""
        spec = self.sc.vehicles[u]
        dice = TANK_MG_DICE if spec.mgs else 0
        if spec.main_gun is not None and not self.veh[u].gun_out:
            dice = max(dice, GUNS[spec.main_gun][1])
        return dice

    def afv_fire_capacity(self, u: int) -> int:
        if not self.active(u):
            return 0
        return max(0, max(self.afv_soft_dice(u), self.at_dice(u)) - self._penalties(u))

    def afv_firepower(self, u: int, t: int, first: bool) -> int | None:
        """Firepower of ``u`` at ``t`` when an AFV is involved; None: ordinary infantry fire (including
        infantry fire at an unbuttoned tank's commander, R87)."""
        if self.is_afv(t):
            if not self.is_afv(u) and not self.at_dice(u):
                return None
            dice = self.at_dice(u)
        elif self.is_afv(u):
            dice = self.afv_soft_dice(u)
        else:
            return None
        return max(0, dice - (self._penalties(u) if first else 0))

    def afv_may_target(self, s: int, t: int) -> bool:
        """Whether ``s`` may fire at ``t`` as far as AFVs go: only AT weapons hurt an AFV (or any infantry
        fire its open hatch, R87); a buttoned-up tank sees concealed infantry only once spotted (R85)."""
        if self.is_afv(t):
            return self.at_dice(s) > 0 or (not self.is_afv(s) and not self.veh[t].buttoned)
        if self.is_afv(s):
            return self.afv_sees(s, t)
        return True

    def afv_filter_targets(self, s: int, targets: list[int]) -> list[int]:
        return [t for t in targets if self.afv_may_target(s, t)]

    def concealed_from(self, s: int, t: int) -> bool:
        """004: "if any concealing terrain ... is in between the tank and an infantry unit" (R85): the
        target has cover dice against the tank, and is not Exposed."""
        table = self.sc.table
        p = self.pos[t]
        return bool(table.cover_from[self.pos[s]][p]) and not table.exposed[p]

    def afv_sees(self, s: int, t: int) -> bool:
        st = self.veh[s]
        return not st.buttoned or bool(st.spotted >> t & 1) or not self.concealed_from(s, t)

    def afv_intervening(self, t: int, shooter_pos: int) -> int:
        """1 if fire from ``shooter_pos`` at ``t`` passes over an AFV (crewed or knocked out, not hidden, on
        another point, within half a grid step of the line of fire strictly between them), else 0 (R89)."""
        table = self.sc.table
        here = self.pos[t]
        (ax, ay), (bx, by) = table.xy[shooter_pos], table.xy[here]
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        if not length2:
            return 0
        reach = table.spacing_in / 2 + 1e-9
        specs = self.sc.vehicles
        for v, spec in enumerate(specs):
            p = self.pos[v]
            if spec is None or p < 0 or p in (shooter_pos, here) or self.veh[v].bailed or self.hidden[v]:
                continue
            px, py = table.xy[p]
            k = ((px - ax) * dx + (py - ay) * dy) / length2
            if 0 < k < 1 and math.hypot(ax + k * dx - px, ay + k * dy - py) <= reach:
                return 1
        return 0

    def afv_immobile(self, u: int) -> bool:
        return self.is_afv(u) and bool(self.veh[u].immobilised)

    def in_front_arc(self, t: int, shooter_pos: int, at: int = -1) -> bool:
        """Whether ``shooter_pos`` is in AFV ``t``'s front arc (``t`` at its point, or at ``at``): within 45
        degrees of its facing (R81)."""
        x0, y0 = self.sc.table.xy[self.pos[t] if at < 0 else at]
        x1, y1 = self.sc.table.xy[shooter_pos]
        if (x0, y0) == (x1, y1):
            return True
        facing = self.veh[t].facing * math.pi / 4
        angle = math.atan2(-(y1 - y0), x1 - x0) - facing
        angle = (angle + math.pi) % (2 * math.pi) - math.pi
        return abs(angle) <= math.pi / 4 + 1e-9

    def afv_defense(self, t: int, shooter_pos: int, at: int = -1) -> tuple[int, int]:
        """(dice, die type) of AFV ``t`` (at its point, or at ``at``) against fire from ``shooter_pos``
        (-1: no shooter's point, from above or a blast: the deck, R75). An Excellent Position adds its die
        while ``t`` stays where it is (R74)."""
        spec, st = self.sc.vehicles[t], self.veh[t]
        dice, die = DEFENSE[spec.defense]
        if shooter_pos < 0:
            dice -= 2  # 004: "AFV deck armor is -2 dice"
        elif not self.in_front_arc(t, shooter_pos, at):
            dice -= 1  # 004: "Side and rear armor is -1 die"
        dice += st.applied  # 004: "Side or applied armor ... +1 dice until first hit"
        home = at < 0 or at == self.pos[t]  # "an additional Defense die over and above any ... Armor dice"
        return max(1, dice) + (self.excellent[t] if home else 0), die

    # ------------------------------------------------------------------ fire at an AFV
    def _attack_afv(self, t: int, fp: int, tq: int, shooter_pos: int, shooter: str) -> None:
        s = self.UNIT_NAMES.index(shooter) if shooter in self.UNIT_NAMES else -1
        if s >= 0 and not self.is_afv(s) and not self.at_dice(s):
            self._attack_commander(t, fp, tq, shooter)
            return
        name = self.UNIT_NAMES[t]
        dfn, die = self.afv_defense(t, shooter_pos)
        roll = self.roll
        attack = [roll(tq, f"firepower of {shooter}") for _ in range(fp)]
        defense = [roll(die, f"armour of {name}") for _ in range(dfn)]
        hits = combat.casualties(attack, defense)
        self.events.append(ev.FireResolved(shooter, name, fp, dfn, tuple(attack), tuple(defense), hits))
        if hits:
            self.strike_vehicle(t, hits)
        if s >= 0 and self.is_afv(t) and self.active(t):
            self._spot_shooter(t, s)

    def strike_vehicle(self, t: int, hits: int) -> str:
        """AFV ``t`` takes ``hits`` (at least 1): its applied armour is gone, one D6 on the Vehicle Damage
        Results column of ``hits`` (R82), the result applied and the bail-out check made (R83, R84). Also
        for other rules that strike a vehicle (004's Fog of War: "roll on the 2 Hits column"). Returns the
        result."""
        self.veh[t] = self.veh[t]._replace(applied=0)
        chart = damage_chart()
        column = chart["columns"][str(min(hits, len(chart["columns"])))]
        result = column[self.roll(chart["die"], f"vehicle damage of {self.UNIT_NAMES[t]} ({hits} hits)") - 1]
        self._vehicle_hit(t, result)
        return result

    def _vehicle_hit(self, t: int, result: str) -> None:
        """Apply a Vehicle Damage result, then the bail-out check (R83, R84)."""
        name = self.UNIT_NAMES[t]
        st = self.veh[t]
        damaging = False
        if result == "knocked_out":
            self.veh[t] = st._replace(knocked_out=1, buttoned=1)
            f = self.figs[t]
            f[KIA] += f[OK] + f[LIGHT]
            f[OK] = f[LIGHT] = 0
            self.events.append(ev.Note(f"{name} is knocked out"))
            return
        if result == "immobilised" and not st.immobilised:
            self.veh[t] = st._replace(immobilised=1)
            damaging = True
        elif result == "main_gun_damaged" and not st.gun_out:
            self.veh[t] = st._replace(gun_out=1)
            damaging = True
        self.events.append(ev.Note(f"{name} is hit: {result if damaging else 'no damage'}"))
        self._bail_out_check(t, damaging)

    def _bail_out_check(self, t: int, damaging: bool) -> None:
        """004: "Low Confidence and Confident WWII AFV crews must make a Morale Check any time their vehicle
        is hit, whether the hit causes damage or not. Only High Confidence units will ignore non-damaging
        hits." The check is 003's Morale Check of the crew's effective figures (R84)."""
        if not damaging and self.sc.vehicles[t].crew_confidence == "high":
            return
        name = self.UNIT_NAMES[t]
        crew = self.effective(t)
        if not crew:
            return
        rolls = [self.roll(self.morale[t], f"morale of {name} (bail out?)") for _ in range(crew)]
        passed = combat.morale_passed(rolls)
        self.events.append(ev.MoraleChecked(name, tuple(rolls), passed))
        if not passed:
            self.veh[t] = self.veh[t]._replace(bailed=1, buttoned=0, spotted=0)
            self.pin(t)  # the crew on foot, pinned like any infantry unit (the unit_pinned hooks run)
            self.events.append(ev.Note(f"the crew of {name} bails out"))

    def _attack_commander(self, t: int, fp: int, tq: int, shooter: str) -> None:
        """Infantry fire at an unbuttoned tank: the exposed commander defends with one die of the crew's TQ;
        a hit puts one crew figure down, the tank buttons up and the crew checks for bail-out (R87)."""
        name = self.UNIT_NAMES[t]
        attack = [self.roll(tq, f"firepower of {shooter}") for _ in range(fp)]
        defense = [self.roll(self.tq[t], f"defense of the commander of {name}")]
        hits = min(1, combat.casualties(attack, defense))
        self.events.append(ev.FireResolved(shooter, name, fp, 1, tuple(attack), tuple(defense), hits))
        if hits:
            self._take_hits(t, 1)
            self.veh[t] = self.veh[t]._replace(buttoned=1)
            self.events.append(ev.Note(f"the commander of {name} is hit; {name} buttons up"))
            self._bail_out_check(t, True)

    # ------------------------------------------------------------------ buttoned-up spotting
    def _spot_candidates(self, u: int) -> list[int]:
        """Enemy infantry a buttoned-up tank cannot see yet but may try to spot (not truly Hidden: R86)."""
        los = self.sc.table.los[self.pos[u]]
        st = self.veh[u]
        side = self.UNIT_SIDE[u]
        return [t for t in range(self.NUM_UNITS)
                if self.UNIT_SIDE[t] != side and self.active(t) and not self.hidden[t] and not self.is_afv(t)
                and los[self.pos[t]] and not st.spotted >> t & 1 and self.concealed_from(u, t)]  # fmt: skip

    def _afv_spot(self, u: int) -> None:
        """The ``spot`` action of an activated buttoned-up tank (R85)."""
        self._afv_spot_attempt(u)
        self.kind = D_ACTION

    def is_gun(self, u: int) -> bool:
        """A unit serving an AT or infantry gun (its ``at_weapon`` is one: R86)."""
        return bool(self.sc.at_weapons) and self.sc.at_weapons[u] in GUN_WEAPONS

    def _hidden_guns(self, u: int) -> list[int]:
        """Hidden enemy guns AFV ``u`` may spot as 000's spotting allows: in line of sight, within its TQ in
        inches (R86). Read only when the attempt is rolled: the mask must not tell they are there."""
        table = self.sc.table
        here = self.pos[u]
        return [t for t in range(self.NUM_UNITS)
                if self.hidden[t] and self.UNIT_SIDE[t] != self.UNIT_SIDE[u] and self.is_gun(t) and self.active(t)
                and table.los[here][self.pos[t]] and table.dist[here][self.pos[t]] <= self.tq[u] + 1e-9]  # fmt: skip

    def _afv_spot_attempt(self, u: int) -> None:
        """The buttoned-up tank's one spotting attempt of the turn: a TQ check; success spots every
        concealed enemy infantry unit in its line of sight (R85) and reveals Hidden guns (R86)."""
        st = self.veh[u]
        spotted = st.spotted
        name = self.UNIT_NAMES[u]
        if self.roll(self.tq[u], f"spotting TQ check of {name}") >= combat.SUCCESS:
            guns = self._hidden_guns(u)
            for t in guns:
                self.hidden[t] = 0
            for t in sorted({*self._spot_candidates(u), *guns}):
                spotted |= 1 << t
                self.events.append(ev.Note(f"{name} spots {self.UNIT_NAMES[t]}"))
        self.veh[u] = st._replace(spot_used=1, spotted=spotted)

    def afv_may_react_at(self, r: int, t: int) -> bool:
        """Whether ``r`` may declare fire at ``t`` in a reaction: it may target it, or ``r`` is a buttoned-up
        tank with its spotting attempt of the turn left and ``t`` concealed infantry (R85)."""
        if self.afv_may_target(r, t):
            return True
        return self.is_afv(r) and not self.veh[r].spot_used and t in self._spot_candidates(r)

    def _afv_defensive_spot(self, u: int, t: int) -> bool:
        """A buttoned-up tank reacting to concealed infantry ``t`` it has not spotted makes its attempt of
        the turn first (004: "... or when it takes a Defensive Action"; R85). Always True."""
        if self.is_afv(u) and self.veh[u].buttoned and not self.veh[u].spot_used and t in self._spot_candidates(u):
            self._afv_spot_attempt(u)
        return True

    def _spot_shooter(self, t: int, s: int) -> None:
        """004: "Tanks may always attempt to spot infantry units or guns firing at them" (R85): a free TQ
        check of the buttoned-up tank ``t`` against its concealed shooter ``s``."""
        st = self.veh[t]
        if not st.buttoned or self.is_afv(s) or st.spotted >> s & 1 or not self.concealed_from(t, s):
            return
        name = self.UNIT_NAMES[t]
        if self.roll(self.tq[t], f"{name} tries to spot {self.UNIT_NAMES[s]}") >= combat.SUCCESS:
            self.veh[t] = st._replace(spotted=st.spotted | 1 << s)
            self.events.append(ev.Note(f"{name} spots {self.UNIT_NAMES[s]}"))

    def _afv_hatch(self, u: int) -> None:
        """Open or close the commander's hatch (a free choice of the activated tank's owner, R87)."""
        st = self.veh[u]
        self.veh[u] = st._replace(buttoned=1 - st.buttoned)
        self.free_used |= HATCH_USED
        word = "unbuttons" if st.buttoned else "buttons up"
        self.events.append(ev.Note(f"{self.UNIT_NAMES[u]} {word}"))
        self.kind = D_ACTION

    # ------------------------------------------------------------------ hooks of the turn
    def afv_action_choices(self, u: int, out: list[int]) -> list[int]:
        """The activated AFV's actions: no move when immobilised; ``spot`` for its one attempt of the
        turn while buttoned up; ``yes`` opens / closes the hatch once per activation."""
        if not self.is_afv(u):
            return out
        st = self.veh[u]
        out = [a for a in out if not (a == self.MOVE and st.immobilised) and a != self.ESCORT]  # crew stays in
        if st.buttoned:
            out = [a for a in out if a != self.SPOT]
            hunting = self.ambush_on and self.UNIT_SIDE[u] != self.sc.ambush_side  # Hidden guns may be about
            if not st.spot_used and (hunting or self._spot_candidates(u)):
                out.append(self.SPOT)
        if not self.free_used & HATCH_USED:
            out.append(self.YES)
        return sorted(out)

    def afv_move_limit(self, u: int, limit: float) -> float:
        """003: vehicles move 10" Tactical, 20" Rapid."""
        if not self.is_afv(u):
            return limit
        return VEHICLE_TACTICAL_IN if limit <= TACTICAL_IN + 1e-9 else VEHICLE_RAPID_IN

    def tactical_reach(self, u: int) -> float:
        return VEHICLE_TACTICAL_IN if self.sc.vehicles and self.is_afv(u) else TACTICAL_IN

    def _afv_moved(self, u: int, here: int, dest: int) -> None:
        """An AFV faces the way it last moved (R81)."""
        if here >= 0 and dest >= 0 and here != dest and self.is_afv(u):
            (x0, y0), (x1, y1) = self.sc.table.xy[here], self.sc.table.xy[dest]
            self.veh[u] = self.veh[u]._replace(facing=octant(x1 - x0, y1 - y0))

    def _afv_end_turn(self) -> None:
        for u, v in enumerate(self.veh):
            if v is not None and (v.spot_used or v.spotted):
                self.veh[u] = v._replace(spot_used=0, spotted=0)


# ---------------------------------------------------------------------- positions and observations
_POSITION_KEYS = ("immobilised", "main_gun_damaged", "knocked_out", "bailed_out", "applied_armour", "buttoned",
                  "spot_used")  # fmt: skip
_FIELDS = ("immobilised", "gun_out", "knocked_out", "bailed", "applied", "buttoned", "spot_used")


def read_vehicle(s, u: int, spec: Any) -> None:
    """The ``vehicle`` block of a position's unit (keys of _POSITION_KEYS, ``facing``, ``spotted``)."""
    name = s.UNIT_NAMES[u]
    if not s.sc.vehicles or s.sc.vehicles[u] is None:
        raise PositionError(f"unit {name}.vehicle: {name} is not an AFV in this scenario")
    allowed = {*_POSITION_KEYS, "facing", "spotted"}
    if not isinstance(spec, dict) or set(spec) - allowed:
        raise PositionError(f"unit {name}.vehicle must be a dict with keys from {sorted(allowed)}")
    st = s.veh[u]
    changes: dict[str, int] = {}
    for key, field in zip(_POSITION_KEYS, _FIELDS, strict=True):
        if key in spec:
            if not isinstance(spec[key], bool):
                raise PositionError(f"unit {name}.vehicle.{key} must be true or false, got {spec[key]!r}")
            changes[field] = int(spec[key])
    if "facing" in spec:
        if spec["facing"] not in FACINGS:
            raise PositionError(f"unit {name}.vehicle.facing must be one of {FACINGS}, got {spec['facing']!r}")
        changes["facing"] = FACINGS.index(spec["facing"])
    if "spotted" in spec:
        spotted = spec["spotted"]
        enemies = [s.UNIT_NAMES[t] for t in s.SIDE_UNITS[1 - s.UNIT_SIDE[u]]]
        if not isinstance(spotted, list) or not all(isinstance(n, str) and n in enemies for n in spotted):
            raise PositionError(f"unit {name}.vehicle.spotted must list enemy units from {enemies}")
        changes["spotted"] = sum(1 << s.UNIT_NAMES.index(n) for n in set(spotted))
    s.veh[u] = st._replace(**changes)


def write_vehicle(s, u: int) -> dict[str, Any]:
    st = s.veh[u]
    out: dict[str, Any] = {key: bool(getattr(st, field)) for key, field in zip(_POSITION_KEYS, _FIELDS, strict=True)}
    out["facing"] = FACINGS[st.facing]
    out["spotted"] = [s.UNIT_NAMES[t] for t in range(s.NUM_UNITS) if st.spotted >> t & 1]
    return out


def vehicle_words(s, u: int) -> list[str]:
    """Words for AFV ``u`` in the text picture: "bailed out", or its facing, hatch and damage."""
    st = s.veh[u]
    if st.bailed:
        return ["bailed out (crew on foot)"]
    words = [f"AFV facing {FACINGS[st.facing]}", "buttoned up" if st.buttoned else "unbuttoned"]
    words += [w for w, flag in (("knocked out", st.knocked_out), ("immobilised", st.immobilised),
                                ("main gun damaged", st.gun_out), ("applied armour", st.applied)) if flag]  # fmt: skip
    return words


_FACING_COS_SIN = tuple((math.cos(f * math.pi / 4), math.sin(f * math.pi / 4)) for f in range(len(FACINGS)))


def encode_vehicles(s, player: int, order, hidden_from_player) -> list[float]:
    """Per unit in ``order``: AFV, defence dice/5, immobilised, main gun damaged, knocked out, bailed out,
    applied armour, buttoned up, cos and sin of its facing; zeros for others, for hidden enemies and for an
    AFV not in play (a card reserve not yet drawn, rulings R70)."""
    out: list[float] = []
    specs = s.sc.vehicles
    for u in order:
        spec = specs[u]
        if spec is None or hidden_from_player(u) or not any(s.figs[u]):
            out += (0.0,) * VEHICLE_FEATURES
            continue
        st = s.veh[u]
        cos, sin = _FACING_COS_SIN[st.facing]
        out += (1.0, DEFENSE[spec.defense][0] / 5, st.immobilised, st.gun_out, st.knocked_out, st.bailed,
                st.applied, st.buttoned, cos, sin)  # fmt: skip
    return out


def _initial_vehicles(s) -> list[VehicleState | None]:
    """By unit: an AFV's VehicleState as the scenario sets it up, None for other units."""
    specs = s.sc.vehicles
    if not specs:
        return [None] * s.NUM_UNITS
    return [initial_state(v, s.sc.edges[s.UNIT_SIDE[u]]) if v is not None else None for u, v in enumerate(specs)]


def _vehicles_piece(s, player: int, order) -> list[float]:
    return encode_vehicles(s, player, order, lambda u: s.UNIT_SIDE[u] != player and s.hidden[u])


def _read_unit(s, u: int, spec: dict[str, Any]) -> None:
    if "vehicle" in spec:
        read_vehicle(s, u, spec["vehicle"])


def _write_unit(s, u: int, out: dict[str, Any]) -> None:
    if s.sc.vehicles and s.sc.vehicles[u] is not None:
        out["vehicle"] = write_vehicle(s, u)


MODULE = RuleModule(
    "wwii_vehicles",
    WWIIVehicles,
    slots=(Slot("veh", LIST, per_unit=True, default=_initial_vehicles),),
    pieces=(ObservationPiece("vehicles", lambda layout: VEHICLE_FEATURES * layout.num_units if layout.vehicles
                             else 0, _vehicles_piece),),
    position=PositionKeys(unit_keys=("vehicle",), read_unit=_read_unit, write_unit=_write_unit),
    # an AFV faces the way it moved (R81); buttoned-up tanks spot anew each turn (R85)
    hooks={"unit_moved": WWIIVehicles._afv_moved, "turn_ended": WWIIVehicles._afv_end_turn},
    active=lambda sc: bool(sc.vehicles),
)

__all__ = ["WWIIVehicles", "VehicleSpec", "VehicleState", "vehicle_spec", "initial_state", "damage_chart",
           "DEFENSE", "GUNS", "AT_WEAPONS", "CREW_CONFIDENCE"]  # fmt: skip
