"""Scenario rule modules of the WWII supplement (seed ``004_fa8d850a9c124bb3.txt``) for infantry:
``wwii_first_aid`` (the WWII First Aid and Medic tables, calling a medic, walking wounded) and
``wwii_mg_teams`` (MG weapon teams). Rulings R43-R49.

``wwii_first_aid``. 004: "To determine the seriousness of a casualty's injuries, roll for each figure hit
by enemy fire on the First Aid table" (Standard First Aid Table (WWII): 1-2 Dead, 3-4 Serious wound, 5 Light
wound, walking wounded, 6 OK, gets back up!; the Medic table: 1 Dead, 2-3 Serious, 4-5 walking wounded,
6 OK). The checks are made when the engine makes its casualty checks: at the start of the next turn, after
initiative (000 "players with casualties check their status"; 004: "Units who are making a first aid check
for casualties at the start of a turn may call for a medic"), and the casualties still unassessed at the end
of the game (rulings R43). Per unit with casualties, in unit order (:meth:`WwiiInfantry._st_first_aid`):

1. a unit able to make its check (000: an effective figure left, or a friendly unit within 1") that no
   medic attached to it treats may call a medic unit of its side within Rapid Movement distance (12") that
   has treated nobody this turn: the ``call_medic`` decision of its owner (legal: the medic units, ``pass``).
   The medic is placed on the unit's point at once (rulings R45);
2. one D6 per casualty on the Medic table (a medic called, or attached: a ``medic`` figure in the unit, or
   the Fog of War medic flag) or the standard WWII table;
3. Dead (KIA): one TQ check for the unit (one die, 4+); failed: the unit "may only react fire to fire this
   turn". Serious: the unit may only react to fire this turn (no check). The ``react_only`` flag: the unit
   is not selected, takes no Overwatch, and in a reaction window may only fire: at a unit that fires at it
   or declared a fire, or back when fired on (rulings R44);
4. each walking wounded: the ``walking_wounded`` decision of the owner: ``hold`` (stays and fights, a
   light wound: the unit suffers the Casualty penalty, the TQ check to move faster than Tactical) or
   ``exit`` (makes his way to the rear: removed from play, state ``gone``, no penalty, scores no VP;
   rulings R46).

A medic treats one unit per turn (``aid_used``). Medic figures (role ``medic``) do not shoot (rulings R47).

``wwii_mg_teams``. 004: "The following modifiers should be applied to WWII MG Weapon teams": a figure's
``mg`` (``box`` +1, ``belt_lmg`` +2, ``strip_mmg`` +2, ``mmg`` +2, ``hmg`` +3) replaces its ``support`` class
(Light, Medium, Medium, Medium, Heavy: 003's classes with their movement rules, rulings R48); the engine adds
the dice where 003 adds Support Weapon dice (:func:`mg_support_class`).
"""

from __future__ import annotations

from fof_env.force_on_force import combat
from fof_env.force_on_force import events as ev
from fof_env.force_on_force.constants import (
    CONTACT_IN,
    D_CALL_MEDIC,
    D_WALKING_WOUNDED,
    DOWN,
    EVAC_DOWN,
    EVAC_KIA,
    EVAC_SERIOUS,
    GONE,
    KIA,
    LIGHT,
    OK,
    RAPID_IN,
    SERIOUS,
    ST_FIRST_AID,
    W_FIRE,
)
from fof_env.force_on_force.rule_module import (
    LIST,
    TURN,
    DecisionKind,
    ObservationPiece,
    RuleModule,
    Slot,
    actor_side,
    unit_flag,
)

# 004 "World War Two Weapon Teams": the weapon-team dice of each kind of MG, and the 003 support class
# that gives those dice (rulings R48)
MG_DICE = {"box": 1, "belt_lmg": 2, "strip_mmg": 2, "mmg": 2, "hmg": 3}
MG_CLASS = {"box": "light", "belt_lmg": "medium", "strip_mmg": "medium", "mmg": "medium", "hmg": "heavy"}
MEDIC_ROLE = "medic"
FIRST_AID_FEATURES = 2  # per unit in the observation's ``first_aid`` piece: react_only, medic unit

# results of a first aid check
DEAD, SERIOUS_WOUND, WALKING_WOUNDED, BACK_UP = "dead", "serious", "walking_wounded", "ok"
# 004 "Standard First Aid Table (WWII)" and the medics' table, by D6 score (index 0 unused)
STANDARD_TABLE = ("", DEAD, DEAD, SERIOUS_WOUND, SERIOUS_WOUND, WALKING_WOUNDED, BACK_UP)
MEDIC_TABLE = ("", DEAD, SERIOUS_WOUND, SERIOUS_WOUND, WALKING_WOUNDED, WALKING_WOUNDED, BACK_UP)


def mg_support_class(mg: str | None, support: str | None) -> str | None:
    """The support class of a figure under ``wwii_mg_teams``: its MG's (rulings R48), else its own."""
    return MG_CLASS[mg] if mg else support


def is_medic(role: str) -> bool:
    return role.strip().lower() == MEDIC_ROLE


class WwiiInfantry:
    """Mixin of :class:`~fof_env.force_on_force.state.ForceOnForceState` (see the module docstring)."""

    __slots__ = ()

    # ------------------------------------------------------------------ medics
    def attached_medic(self, u: int) -> bool:
        """Whether a medic is with unit ``u`` (a ``medic`` figure of it, or the Fog of War medic) and has
        treated nobody else this turn: "Units with medics attached automatically benefit from his presence"."""
        medics = self.sc.medics
        return (
            bool((medics and medics[u]) or self.medic[u]) and self.effective(u) > 0 and u not in self.aid_used
        )

    def medic_units(self, u: int) -> list[int]:
        """The medics unit ``u`` may call now: units of its side made only of medic figures, active, within
        Rapid Movement distance (12") of ``u`` and not yet treating this turn (rulings R45)."""
        here = self.pos[u]
        if here < 0 or not self.sc.medic_units:
            return []
        dist = self.sc.table.dist[here]
        return [m for m in self.SIDE_UNITS[self.UNIT_SIDE[u]]
                if m != u and self.sc.medic_units[m] and self.active(m) and m not in self.aid_used
                and dist[self.pos[m]] <= RAPID_IN + 1e-9]  # fmt: skip

    def _may_check(self, u: int) -> bool:
        """000: "To check casualties, the unit must have at least one figure remaining effective -or- another
        friendly unit must be within 1" of the unit" (off the table: always, as the engine does)."""
        here = self.pos[u]
        if here < 0 or self.effective(u):
            return True
        dist = self.sc.table.dist[here]
        return any(t != u and self.active(t) and dist[self.pos[t]] <= CONTACT_IN + 1e-9
                   for t in self.SIDE_UNITS[self.UNIT_SIDE[u]])  # fmt: skip

    # ------------------------------------------------------------------ the turn-start checks
    def _start_first_aid(self) -> None:
        """Queue the units with casualties to check (unit order) and run the checks."""
        self.aid_queue = [u for u in range(self.NUM_UNITS) if self.figs[u][DOWN] or self.figs[u][EVAC_DOWN]]
        self.aid_used = []
        self.aid_phase = 0
        self.aid_ww = 0
        self._auto(ST_FIRST_AID)

    def _st_first_aid(self) -> None:
        while self.aid_queue:
            u = self.aid_queue[0]
            if self.aid_ww:
                self.actor = u
                self.kind = D_WALKING_WOUNDED
                return
            if self.aid_phase == 0:
                self.aid_phase = 1
                able = self.figs[u][DOWN] and self._may_check(u)
                if able and not self.attached_medic(u) and self.medic_units(u):
                    self.actor = u
                    self.kind = D_CALL_MEDIC
                    return
                self._first_aid(u, -1)
                if self.aid_ww:
                    continue
            self.aid_queue.pop(0)
            self.aid_phase = 0
        self.actor = -1
        self.aid_used = []
        self._after_casualty_checks()

    def _call_medic_actions(self) -> list[int]:
        """``call_medic``: which medic treats the unit, or none (rulings R45)."""
        return [self.UNIT0 + m for m in self.medic_units(self.actor)] + [self.PASS]

    def _walking_wounded_actions(self) -> list[int]:
        """``walking_wounded``: stay and fight, or make his way to the rear (rulings R46)."""
        return [self.HOLD, self.EXIT]

    def _on_call_medic(self, action: int) -> None:
        u = self.actor
        medic = -1
        if action != self.PASS:
            medic = action - self.UNIT0
            here, there = self.pos[medic], self.pos[u]
            rapid = self.sc.table.dist[here][there] > 6.0 + 1e-9
            self.pos[medic] = there
            self.events.append(
                ev.UnitMoved(self.UNIT_NAMES[medic], self.point_name(here), self.point_name(there), rapid)
            )
            self.events.append(
                ev.Note(f"{self.UNIT_NAMES[medic]} treats the wounded of {self.UNIT_NAMES[u]}")
            )
        self._first_aid(u, medic)
        self._auto(ST_FIRST_AID)

    def _on_walking_wounded(self, action: int) -> None:
        u = self.actor
        if action == self.EXIT:  # "the figure can make its way to the rear area for treatment"
            f = self.figs[u]
            f[LIGHT] -= 1
            f[GONE] += 1
            self.events.append(
                ev.Note(f"a walking wounded of {self.UNIT_NAMES[u]} makes his way to the rear")
            )
        self.aid_ww -= 1
        self._auto(ST_FIRST_AID)

    def _first_aid(self, u: int, medic: int, final: bool = False) -> None:
        """Roll the first aid checks of unit ``u`` (``medic``: the medic unit treating it, -1: none)."""
        f = self.figs[u]
        if medic >= 0:
            self.aid_used.append(medic)
            table = MEDIC_TABLE
        elif f[DOWN] and self.attached_medic(u) and self._may_check(u):
            self.aid_used.append(u)
            table = MEDIC_TABLE
        else:
            table = STANDARD_TABLE
        name = self.UNIT_NAMES[u]
        dead = serious = 0
        if f[DOWN] and (final or self._may_check(u)):
            for _ in range(f[DOWN]):
                result = table[self.roll(6, f"first aid check of {name}")]
                f[DOWN] -= 1
                if result == DEAD:
                    f[KIA] += 1
                    dead += 1
                elif result == SERIOUS_WOUND:
                    f[SERIOUS] += 1
                    serious += 1
                elif result == WALKING_WOUNDED:
                    f[LIGHT] += 1  # stays unless his owner sends him to the rear (walking_wounded)
                    self.aid_ww += 0 if final else 1
                else:
                    f[OK] += 1
        for _ in range(f[EVAC_DOWN]):  # escorted off the table: the standard table, no choices
            result = STANDARD_TABLE[self.roll(6, f"first aid check of {name}")]
            f[EVAC_DOWN] -= 1
            f[EVAC_KIA if result == DEAD else EVAC_SERIOUS if result == SERIOUS_WOUND else GONE] += 1
        if final or not self.active(u):
            return
        if serious:
            self.react_only[u] = 1  # "Unit may only react to fire this turn."
        elif dead and self.roll(self.tq[u], f"TQ check of {name} after a man killed") < combat.SUCCESS:
            self.react_only[u] = 1  # "If not, it may only react fire to fire this turn"
        if self.react_only[u]:
            self.events.append(ev.Note(f"{name} may only react to fire this turn"))

    def _final_first_aid(self) -> None:
        """At the end of the game the casualties not yet assessed roll on the WWII tables (no calls, no
        choices: rulings R43)."""
        self.aid_used = []
        self.aid_ww = 0
        for u in range(self.NUM_UNITS):
            if self.figs[u][DOWN] or self.figs[u][EVAC_DOWN]:
                self._first_aid(u, -1, final=True)

    # ------------------------------------------------------------------ reacting only to fire
    def react_only_choices(self, r: int, out: list[int]) -> list[int]:
        """A ``react_only`` unit's choices in a reaction window: fire at a unit that fires (the actor of a
        declared fire, or the Overwatch unit whose fire it may interrupt), never a move (rulings R44)."""
        if self.interrupted >= 0 or self.win_kind == W_FIRE:
            return [a for a in out if a != self.INT_MOVE]
        return [a for a in out if a == self.PASS]


def encode_first_aid(s, player: int, order) -> list[float]:
    """The observation's ``first_aid`` piece: per unit in ``order``, may only react to fire this turn (R44) and
    is a medic unit that may be called (R45); zeros for a unit not in play and a hidden enemy unit."""
    out = [0.0] * (FIRST_AID_FEATURES * len(order))
    medic_units = s.sc.medic_units
    unit_side = s.UNIT_SIDE
    for i, u in enumerate(order):
        if any(s.figs[u]) and (unit_side[u] == player or not s.hidden[u]):
            out[FIRST_AID_FEATURES * i] = s.react_only[u]
            out[FIRST_AID_FEATURES * i + 1] = float(bool(medic_units) and medic_units[u])
    return out


def _call_medic_context(state, ctx) -> None:
    ctx["unit"] = state.UNIT_NAMES[state.actor]
    ctx["casualties"] = state.figs[state.actor][DOWN]


def _walking_wounded_context(state, ctx) -> None:
    ctx["unit"] = state.UNIT_NAMES[state.actor]
    ctx["walking_wounded"] = state.aid_ww


MODULE = RuleModule(
    "wwii_first_aid",
    WwiiInfantry,
    kinds=(
        DecisionKind(D_CALL_MEDIC, WwiiInfantry._call_medic_actions, WwiiInfantry._on_call_medic, actor_side,
                     _call_medic_context),
        DecisionKind(D_WALKING_WOUNDED, WwiiInfantry._walking_wounded_actions, WwiiInfantry._on_walking_wounded,
                     actor_side, _walking_wounded_context),
    ),
    steps={ST_FIRST_AID: WwiiInfantry._st_first_aid},
    pieces=(ObservationPiece("first_aid", lambda layout: FIRST_AID_FEATURES * layout.num_units if layout.extra_kinds
                             else 0, encode_first_aid),),
    slots=(
        unit_flag("react_only", TURN),  # may only react to fire this turn (R44)
        Slot("aid_queue", LIST, default=()),  # units still to make their first aid checks
        Slot("aid_used", LIST, default=()),  # medics (and units with one attached) that treated this turn
        Slot("aid_phase", default=0),  # 1: the head unit's medic call is settled
        Slot("aid_ww", default=0),  # walking wounded of the head unit still to decide
    ),
)  # fmt: skip
