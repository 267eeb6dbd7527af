"""FUBAR rules engine: one :class:`FubarState` per position, for any FUBAR scenario.

Seed: ``002_b69cb091b8d89aa2.txt`` (FUBAR 4th edition, one page). Every reading of it is in
``rulings.md`` beside this file (F1 ...).

**Players** are the scenario's two sides, in file order (Lost & Found: 0 ``taliban``, 1 ``usmc``).
**Units** are named by their scenario ids (``tal.1``, ``usmc.A``, ``pat.V``); a unit stands on one point
of the table grid and its figures are tracked one by one (``ok`` / ``suppressed`` / ``casualty``; a
vehicle's weapons ``ok`` / ``destroyed``). Distances, ranges, line of sight and cover are inches between
points (:mod:`fof_env.fubar.geometry`).

**Action space** ``Discrete(P + U + 3M + 15)`` (P points, U units, M the most members of a unit; see
:mod:`fof_env.fubar.setup`): points ``xNNyNN``, units (their ids), ``f<i>`` (a member), ``c<i>`` /
``s<i>`` (member i takes a hit as a casualty / is Suppressed), and the words ``pass``, ``walk``, ``run``,
``duck_weave``, ``on_guard``, ``gone_to_ground``, ``aimed_fire``, ``assault``, ``move``, ``fire``,
``fight``, ``withdraw``, ``exit``, ``yes``, ``handoff``.

**Decisions** (``state.decision.kind``), each owned by the player who makes it:

* set-up: ``deploy`` (a point of the unit's deployment zone), ``attach_leader`` (the unit an attachable
  leader joins);
* each turn: ``call_airstrike`` (the pilot's side: ``yes``/``pass``); close combat going on:
  ``close_combat`` (``fight``/``withdraw``, the initiative side's unit first), ``withdraw_point``,
  ``follow_up`` (the opponent: ``yes``/``pass``);
* activations: ``select_unit`` (the player holding the initiative picks a unit that has not tried yet;
  the engine rolls its activation), ``choose_action`` (``walk``, ``run``, ``duck_weave``,
  ``on_guard``, ``gone_to_ground``, ``aimed_fire``, ``assault``, ``handoff``; a vehicle ``move``,
  ``fire``, ``aimed_fire``, ``on_guard``, ``assault``), ``move_target`` (a point, or ``exit`` off
  the side's table edge), ``fire_point`` (where along a Walk or a vehicle's move it fires, or
  ``pass``), ``choose_weapon`` (a moving vehicle's one weapon), ``fire_target``, ``split_fire``
  (``f<i>``: re-target a figure, ``fire``: resolve), ``split_target``, ``assault_target``,
  ``handoff_target``, ``withdraw_target`` (a failed unit above 50% casualties);
* reactions and hits: ``on_guard`` (an On Guard enemy unit: the path point where it fires at a moving
  unit, or ``pass``), ``allocate_hits`` (the target's owner: ``c<i>``/``s<i>`` per unsaved hit),
  ``move_up`` (the defender of an assault: ``f<i>`` moves a figure into the fight, ``pass`` stops),
  ``weapon_destroyed`` (the vehicle's owner), ``get_out_of_the_way`` (infantry run at by a vehicle).

Choices with nothing to choose (one legal action: a single kind of figure left to take a hit, one
target in sight, one deployment point) are taken by the engine; every other choice is asked, and
declining is always an explicit action where the rules allow it. All dice come from ``state.dice``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fof_env.core.downed_pilot import flee_point, within
from fof_env.core.game import Decision, State
from fof_env.fubar import events as ev
from fof_env.fubar.close_combat import CloseCombatMixin
from fof_env.fubar.constants import (
    AUTO,
    CAPT,
    CAS,
    D_ACTION,
    D_AIRSTRIKE,
    D_ALLOCATE,
    D_ASSAULT,
    D_ATTACH,
    D_CC_CHOICE,
    D_CC_FOLLOW,
    D_CC_WITHDRAW,
    D_DEPLOY,
    D_DODGE,
    D_FIRE_POINT,
    D_HANDOFF,
    D_MOVE,
    D_MOVE_UP,
    D_ON_GUARD,
    D_SELECT,
    D_SPLIT,
    D_SPLIT_TARGET,
    D_TARGET,
    D_WEAPON,
    D_WEAPON_LOST,
    D_WITHDRAW,
    F_AIMED,
    F_ONE,
    F_WALK,
    KIND_NAMES,
    M_ASSAULT,
    M_DW,
    M_GTG,
    M_OVERRUN,
    M_RUN,
    M_VEHICLE,
    M_WALK,
    M_WITHDRAW,
    OK,
    OP_ADVANCE,
    OP_AIRSTRIKE,
    OP_ALLOC,
    OP_CC_ALL,
    OP_CC_CHECK,
    OP_CC_PAIR,
    OP_CC_ROUND,
    OP_CC_START,
    OP_CC_STRIKE,
    OP_DAMAGE,
    OP_END_ACT,
    OP_END_TURN,
    OP_FIRE,
    OP_MOVE_DONE,
    OP_OVERRUN,
    OP_PASSENGERS,
    OP_REACT,
    OP_RESOLVE,
    OP_SELECT,
    OP_SETUP,
    OP_TURN,
    OP_WALK_FIRE,
    SUPP,
    TERMINAL,
)
from fof_env.fubar.fire import FireMixin
from fof_env.fubar.movement import MovementMixin
from fof_env.fubar.setup import (
    W_AIMED_FIRE,
    W_ASSAULT,
    W_DUCK_WEAVE,
    W_FIRE,
    W_GONE_TO_GROUND,
    W_HANDOFF,
    W_MOVE,
    W_ON_GUARD,
    W_RUN,
    W_WALK,
    WORDS,
)
from fof_env.fubar.tables import (
    ASSAULT_IN,
    COHESION_IN,
    DUCK_WEAVE_IN,
    RUN_IN,
    STUN_PENALTY,
    VEHICLE_OPEN_IN,
    WALK_IN,
    WITHDRAW_IN,
    succeeds,
)

_EPS = 1e-9
CHOICE_KINDS = frozenset({
    D_DEPLOY, D_ATTACH, D_CC_WITHDRAW, D_MOVE, D_FIRE_POINT, D_WEAPON, D_TARGET, D_SPLIT_TARGET, D_WEAPON_LOST,
    D_WITHDRAW, D_DODGE, D_ASSAULT, D_HANDOFF,
})  # fmt: skip  (decisions among ``state.choices``, taken by the method ``state.pending`` names: ``_ask``)


class FubarState(CloseCombatMixin, FireMixin, MovementMixin, State):
    """A FUBAR position; see the module docstring for the actions and decisions."""

    __slots__ = (
        # static
        "game", "sc",
        # figures and units
        "fs", "members", "pos", "gone", "carried", "tried", "guard", "reacted", "gtg", "dw", "engaged", "wreck",
        "facing", "stunned", "immob", "effects", "oot", "home", "attached", "up",
        # turn
        "turn", "first", "active", "kind", "stack", "ask", "choices", "pending", "actor",
        # a move
        "mover", "mmode", "mdest", "path", "mexit", "fire_idx", "reacts", "rqueue", "path_of_overrun", "ovehicle",
        "otarget",
        # a fire and its hits
        "fshooter", "fmode", "fassign", "fredir", "fweapon", "fsel", "aunit", "ahits", "about", "acc", "aallowed",
        # close combat
        "cca", "ccb", "ccchosen", "ccstage",
        # scenario rules and the end
        "pilot_pos", "pilot_unit", "contact", "pilot_exit", "auto_win", "airstrike",
        # bookkeeping
        "dice", "history", "events", "_rolls", "_start", "_legal_cache", "_mask_cache",
    )  # fmt: skip

    _LISTS = (
        "fs", "pos", "gone", "carried", "tried", "guard", "reacted", "gtg", "dw", "engaged", "wreck", "facing",
        "stunned", "immob", "effects", "oot", "home", "attached", "up", "stack", "choices", "reacts", "rqueue",
        "fassign", "fredir", "about", "ccchosen",
    )  # fmt: skip
    _SCALARS = (
        "sc", "turn", "first", "active", "kind", "ask", "pending", "actor", "mover", "mmode", "mdest", "path", "mexit",
        "fire_idx", "path_of_overrun", "ovehicle", "otarget", "fshooter", "fmode", "fweapon", "fsel", "aunit", "ahits", "acc",
        "aallowed", "cca", "ccb", "ccstage", "pilot_pos", "pilot_unit", "contact", "pilot_exit", "auto_win",
        "airstrike",
    )  # fmt: skip
    _UNIT_LISTS = ("pos", "gone", "carried", "tried", "guard", "reacted", "gtg", "dw", "engaged", "wreck", "facing",
                   "stunned", "immob", "effects", "oot", "home", "attached")  # fmt: skip

    def clone(self) -> FubarState:
        other = FubarState.__new__(FubarState)
        other._copy_bookkeeping(self)
        for name in self._LISTS:
            setattr(other, name, getattr(self, name)[:])
        for name in self._SCALARS:
            setattr(other, name, getattr(self, name))
        other.members = [m[:] for m in self.members]
        return other

    # ================================================================ queries
    @property
    def table(self):
        return self.sc.table

    @property
    def is_terminal(self) -> bool:
        return self.kind == TERMINAL

    @property
    def current_player(self) -> int | None:
        return None if self.kind == TERMINAL else self._owner()

    def _owner(self) -> int:
        k = self.kind
        side = self.sc.unit_side
        if k == D_SELECT:
            return self.active
        if k in (D_ACTION, D_ASSAULT, D_HANDOFF):
            return side[self.actor]
        if k == D_AIRSTRIKE:
            return self.sc.scenario.pilot.side
        if k == D_ALLOCATE:
            return side[self.aunit]
        if k in (D_SPLIT, D_WEAPON, D_TARGET, D_SPLIT_TARGET):
            return side[self.fshooter]
        if k == D_FIRE_POINT:
            return side[self.actor]
        return side[self.ask]

    @property
    def decision_kind(self) -> str:
        return KIND_NAMES[self.kind]

    def is_unseen_placement(self) -> bool:
        """Whether the current decision is a unit's set-up point chosen while no enemy unit is on the
        table (the side that sets up first: what it chooses, the other side meets). Bots draw these
        from a mixed strategy (``agents.mixed_setup``)."""
        if self.kind != D_DEPLOY:
            return False
        pos = self.pos
        return not any(pos[t] >= 0 for t in self.sc.side_units[1 - self.sc.unit_side[self.ask]])

    @property
    def decision(self) -> Decision:
        k = self.kind
        ids = self.sc.unit_ids
        ctx: dict[str, Any] = {"turn": self.turn}
        if k == TERMINAL:
            return Decision("terminal", -1, ctx)
        if self.turn:
            ctx["initiative"] = self.game.player_names[self.first]
        if k in (D_ACTION, D_ASSAULT, D_HANDOFF, D_FIRE_POINT) and self.actor >= 0:
            ctx["unit"] = ids[self.actor]
        elif k in (D_SPLIT, D_WEAPON, D_TARGET, D_SPLIT_TARGET):
            ctx["unit"] = ids[self.fshooter]
            if k == D_SPLIT:
                ctx["targets"] = sorted({ids[t] for t in self.fassign if t >= 0})
        elif k == D_ALLOCATE:
            ctx["unit"] = ids[self.aunit]
            ctx["hits"] = self.ahits
            ctx["close_combat"] = bool(self.acc)
        elif k != D_SELECT and k != D_AIRSTRIKE and self.ask >= 0:
            ctx["unit"] = ids[self.ask]
        if k == D_ON_GUARD:
            ctx["mover"] = ids[self.mover]
        if k in (D_CC_CHOICE, D_CC_FOLLOW, D_MOVE_UP) and self.ccb >= 0:
            ctx["opponent"] = ids[self.ccb] if k != D_MOVE_UP else ids[self.cca]
        return Decision(KIND_NAMES[k], self._owner(), ctx)

    def standing(self, u: int) -> int:
        """Members of ``u`` not casualties (``ok`` or Suppressed; a vehicle: its intact weapons)."""
        return self.up[u]

    def recount(self, u: int) -> None:
        """Refresh ``up[u]`` (standing members) after ``u``'s members or their statuses changed."""
        fs = self.fs
        self.up[u] = sum(1 for f in self.members[u] if fs[f] <= SUPP)

    def suppressed(self, u: int) -> int:
        fs = self.fs
        return sum(1 for f in self.members[u] if fs[f] == SUPP)

    def casualties(self, u: int) -> int:
        fs = self.fs
        return sum(1 for f in self.members[u] if fs[f] == CAS or fs[f] == CAPT)

    def is_veh(self, u: int) -> bool:
        return self.sc.vehicle[u] and not self.wreck[u]

    def live(self, u: int) -> bool:
        """On the table (or aboard a vehicle on it) and able to act: a vehicle not destroyed, or a unit
        with a figure standing."""
        if self.pos[u] < 0 or self.gone[u]:
            return False
        return self.up[u] > 0 or (self.sc.vehicle[u] and not self.wreck[u])

    def point_name(self, p: int) -> str:
        return "off table" if p < 0 else self.sc.table.name(p)

    def visible_enemy(self, u: int) -> bool:
        """Whether an enemy unit on the table is in line of sight of ``u`` ("if there are no visible enemy")."""
        los = self.sc.geo.fire_los[self.pos[u]]
        for t in self.sc.side_units[1 - self.sc.unit_side[u]]:
            if self.carried[t] < 0 and self.live(t) and los[self.pos[t]]:
                return True
        return False

    def activation_need(self, u: int) -> int:
        """The Activation number: the unit's training, or a standing leader's if better."""
        need = self.sc.activation[u]
        lead = self.sc.lead
        fs = self.fs
        for f in self.members[u]:
            if lead[f] and fs[f] <= SUPP and lead[f] < need:
                need = lead[f]
        return need

    def activation_modifier(self, u: int) -> int:
        """+1 with no visible enemy, -1 per Suppressed figure, -1 per figure out of touch, -2 once after
        "Crew Stunned"."""
        mod = 0 if self.visible_enemy(u) else 1
        mod -= self.suppressed(u) + self.oot[u]
        if self.stunned[u]:
            mod -= STUN_PENALTY
        return mod

    def activation_roll(self, u: int, purpose: str) -> bool:
        """Roll ``u``'s activation; its Suppressed figures stand up after the roll, a stun is spent."""
        need = self.activation_need(u)
        mod = self.activation_modifier(u)
        r = self.roll(6, f"{purpose} of {self.sc.unit_ids[u]}")
        ok = succeeds(r, r + mod, need)
        self.events.add(ev.ActivationRolled, (self.sc.unit_ids[u], r, r + mod, need, ok, purpose))
        fs = self.fs
        for f in self.members[u]:
            if fs[f] == SUPP:
                fs[f] = OK
        self.stunned[u] = 0
        self.oot[u] = 0
        return ok

    def broken(self, u: int) -> bool:
        """More than 50% casualties (infantry)."""
        n = len(self.members[u])
        return n > 0 and 2 * self.casualties(u) > n

    # ---------------------------------------------------------------- scoring
    def victory_points(self) -> tuple[int, int]:
        """(side 0 VP, side 1 VP) as the scenario's terms count them now."""
        sc = self.sc
        vp = [0, 0]
        exit_best = [0, 0]
        fs = self.fs
        for term in sc.scenario.terms:
            kind = term.kind
            if kind == "casualties" or kind == "captured":
                want = CAS if kind == "casualties" else CAPT
                n = sum(1 for u in sc.side_units[term.of] for f in self.members[u] if fs[f] == want)
                vp[term.side] += term.vp * n
            elif kind == "units_broken":
                n = sum(1 for u in sc.side_units[term.of]
                        if sc.present[u] and not sc.vehicle[u] and not sc.attachable[u] and self.pos[u] >= 0
                        and (not self.standing(u) or self.broken(u)))  # fmt: skip
                vp[term.side] += term.vp * n
            elif kind == "vehicles_destroyed":
                vp[term.side] += term.vp * sum(1 for u in sc.side_units[term.of] if self.wreck[u])
            elif kind == "vehicles_immobilised":
                vp[term.side] += term.vp * sum(1 for u in sc.side_units[term.of] if self.immob[u] and not self.wreck[u])
            elif kind == "hold":
                if self._holds(term.side, term.feature) and not self._holds(1 - term.side, term.feature):
                    vp[term.side] += term.vp
            elif kind == "pilot_contact":
                vp[term.side] += term.vp if self.contact else 0
            elif kind == "pilot_exit" and self.pilot_exit and self.pilot_exit < (term.before_turn or 10**6):
                exit_best[term.side] = max(exit_best[term.side], term.vp)
        return vp[0] + exit_best[0], vp[1] + exit_best[1]

    def _holds(self, side: int, feature: str) -> bool:
        f = self.sc.table.feature_by_id[feature]
        xy = self.sc.table.xy
        return any(self.carried[u] < 0 and self.live(u) and f.contains(*xy[self.pos[u]]) for u in self.sc.side_units[side])

    @property
    def score(self) -> dict[str, int]:
        names = self.game.player_names
        vp = self.victory_points()
        out = {f"{names[0]}_vp": vp[0], f"{names[1]}_vp": vp[1]}
        auto = self.sc.scenario.auto_pilot
        if auto is not None:
            out[f"{names[auto[0]]}_auto_victory"] = int(self.auto_win == auto[0])
        return out

    def returns(self) -> tuple[float, float]:
        if self.kind != TERMINAL:
            return (0.0, 0.0)
        if self.auto_win >= 0:
            return (1.0, -1.0) if self.auto_win == 0 else (-1.0, 1.0)
        a, b = self.victory_points()
        if a > b:
            return (1.0, -1.0)
        if b > a:
            return (-1.0, 1.0)
        return (0.0, 0.0)

    def observation(self, player: int) -> np.ndarray:
        from fof_env.fubar.observation import encode

        return encode(self, player)

    # ============================================================ action text
    def action_to_str(self, action: int) -> str:
        sc = self.sc
        if 0 <= action < sc.n_points:
            return sc.table.name(action)
        if sc.unit0 <= action < sc.fig0:
            return sc.unit_ids[action - sc.unit0]
        if sc.fig0 <= action < sc.cas0:
            return f"f{action - sc.fig0}"
        if sc.cas0 <= action < sc.sup0:
            return f"c{action - sc.cas0}"
        if sc.sup0 <= action < sc.word0:
            return f"s{action - sc.sup0}"
        if sc.word0 <= action < sc.num_actions:
            return WORDS[action - sc.word0]
        raise ValueError(f"action {action!r} is not in [0, {sc.num_actions})")

    def str_to_action(self, text: str) -> int:
        sc = self.sc
        if not isinstance(text, str):
            raise ValueError(f"an action text is a string, got {text!r}")
        if text in WORDS:
            return sc.word0 + WORDS.index(text)
        if text in sc.unit_ids:
            return sc.unit0 + sc.unit_ids.index(text)
        if len(text) >= 2 and text[0] in "fcs" and text[1:].isascii() and text[1:].isdigit():
            i = int(text[1:])
            if str(i) == text[1:] and i < sc.m:
                return {"f": sc.fig0, "c": sc.cas0, "s": sc.sup0}[text[0]] + i
        try:
            return sc.table.index(text)
        except ValueError:
            raise ValueError(
                f"cannot read action {text!r}: use a point like {sc.table.names[0]!r}, a unit id like "
                f"{sc.unit_ids[0]!r}, a member 'f0'..'f{sc.m - 1}' / 'c0' / 's0', or one of {', '.join(WORDS)}"
            ) from None

    # ========================================================= legal actions
    def _legal_actions(self) -> list[int]:
        k = self.kind
        if k in CHOICE_KINDS:
            return list(self.choices)
        sc = self.sc
        if k == D_SELECT:
            return [sc.unit0 + u for u in self.selectable(self.active)]
        if k == D_ACTION:
            return self._action_choices(self.actor)
        if k == D_ALLOCATE:
            return self.alloc_actions()
        if k == D_SPLIT:
            return self._split_actions()
        if k == D_ON_GUARD:
            path = self.path
            return sorted({path[i] for i in self.react_points(self.rqueue[0], self.mover)}) + [sc.word0]
        if k == D_MOVE_UP:
            return self.move_up_actions()
        if k == D_CC_CHOICE:
            return [sc.word("fight"), sc.word("withdraw")]
        if k in (D_CC_FOLLOW, D_AIRSTRIKE):
            return [sc.word0, sc.word("yes")]
        return []

    def selectable(self, player: int) -> list[int]:
        """Units of ``player`` that have not tried to activate this turn and can."""
        tried, engaged, pos, gone, up, vehicle, wreck = (
            self.tried, self.engaged, self.pos, self.gone, self.up, self.sc.vehicle, self.wreck)  # fmt: skip
        return [
            u
            for u in self.sc.side_units[player]
            if not tried[u] and engaged[u] < 0 and pos[u] >= 0 and not gone[u] and (up[u] or vehicle[u] and not wreck[u])
        ]

    def _action_choices(self, u: int) -> list[int]:
        sc = self.sc
        w = sc.word0
        out = []
        if self.is_veh(u):
            if not self.immob[u] and (self.vehicle_can_move(u) or self.can_exit(u, VEHICLE_OPEN_IN)):
                out.append(w + W_MOVE)
            if self.fire_targets(u):
                out += [w + W_FIRE, w + W_AIMED_FIRE]
            out.append(w + W_ON_GUARD)
            if not self.immob[u] and self.assault_targets(u):
                out.append(w + W_ASSAULT)
            return sorted(out)
        carried = self.carried[u] >= 0
        exits = sc.may_exit[sc.unit_side[u]]
        near = self._nearest_free(u)  # inches to the nearest point it may move to
        if not carried or near <= WALK_IN + _EPS:
            out.append(w + W_WALK)  # staying put is a Walk of 0" (carried: it must leave the vehicle)
        if near <= RUN_IN + _EPS or (exits and self.can_exit(u, RUN_IN)):
            out.append(w + W_RUN)
        if near <= DUCK_WEAVE_IN + _EPS or (exits and self.can_exit(u, DUCK_WEAVE_IN)):
            out.append(w + W_DUCK_WEAVE)
        out.append(w + W_ON_GUARD)
        if not carried:
            out.append(w + W_GONE_TO_GROUND)
            if self.fire_targets(u):
                out.append(w + W_AIMED_FIRE)
        if self.assault_targets(u):
            out.append(w + W_ASSAULT)
        if self._handoff_targets(u):
            out.append(w + W_HANDOFF)
        return sorted(out)

    def _nearest_free(self, u: int) -> float:
        """Inches to the nearest point other than its own that ``u`` could move to (inf: none within 12")."""
        here = self.pos[u]
        occ = self.occupied(u)
        board = not self.is_veh(u) and self.carried[u] < 0
        for p in self.sc.geo.nearest_first(here, RUN_IN):  # the first point move_points would offer
            if p not in occ or board and self._carrier_at(u, p) >= 0:
                return self.sc.table.dist[here][p]
        return float("inf")

    def _leave_points(self, u: int, limit: float) -> list[int]:
        """Move destinations other than staying put."""
        return [p for p in self.move_points(u, limit, stay=False) if p != self.pos[u]]

    def _handoff_targets(self, u: int) -> list[int]:
        pilot = self.sc.scenario.pilot
        if pilot is None or not pilot.handoff or self.pilot_unit != u:
            return []
        dist = self.sc.table.dist[self.pos[u]]
        return [
            t
            for t in self.sc.side_units[self.sc.unit_side[u]]
            if t != u and not self.is_veh(t) and self.live(t) and within(dist, self.pos[t], COHESION_IN)
        ]

    # ============================================================ decisions
    def _apply(self, action: int) -> None:
        k = self.kind
        self.kind = AUTO
        if k in CHOICE_KINDS:
            then = self.pending
            self.pending = ""
            self.choices = []
            getattr(self, then)(action)
        else:
            _HANDLERS[k](self, action)
        self._run()

    def _on_select(self, action: int) -> None:
        u = action - self.sc.unit0
        self.stack.append((OP_SELECT,))
        self.tried[u] = 1
        self.guard[u] = self.gtg[u] = self.dw[u] = 0
        if self.activation_roll(u, "activation"):
            self.actor = u
            self.kind = D_ACTION
            return
        # "He can continue to activate units until he fails an activation, then the initiative passes"
        self.active = 1 - self.sc.unit_side[u]
        if self.carried[u] < 0 and not self.is_veh(u) and self.broken(u):
            points = self._withdraw_points(u)
            if points:
                self.events.append(ev.Note(f"{self.sc.unit_ids[u]} fails to activate and withdraws"))
                self._ask(u, points, D_WITHDRAW, "_withdraw_to")
                return
            self.events.append(ev.Note(f"{self.sc.unit_ids[u]} fails to activate and has nowhere to withdraw"))
            return
        self.guard[u] = 1  # "Units that fail to activate are On Guard."
        self.events.append(ev.Note(f"{self.sc.unit_ids[u]} fails to activate: On Guard"))

    def _withdraw_points(self, u: int) -> list[int]:
        """"Withdraw 6" away from the nearest visible enemy, or towards their deployment point if there
        are none visible": free points within 6" farther from that enemy (closer to the deployment point)."""
        table = self.sc.table
        here = self.pos[u]
        los = self.sc.geo.fire_los[here]
        dist = table.dist
        seen = [
            self.pos[t]
            for t in self.sc.side_units[1 - self.sc.unit_side[u]]
            if self.carried[t] < 0 and self.live(t) and los[self.pos[t]]
        ]
        occ = self.occupied(u)
        cands = [p for p in table.within(here, WITHDRAW_IN) if p not in occ]
        if seen:
            near = min(seen, key=lambda p: (dist[here][p], p))
            return [p for p in cands if dist[p][near] > dist[here][near] + _EPS]
        home = self.home[u]
        if home < 0:
            return []
        return [p for p in cands if dist[p][home] < dist[here][home] - _EPS]

    def _withdraw_to(self, p: int) -> None:
        u = self.ask
        self.ask = -1
        self._start_move(u, p, M_WITHDRAW)

    def _on_action(self, action: int) -> None:
        u = self.actor
        sc = self.sc
        word = WORDS[action - sc.word0]
        if word == "handoff":
            self._ask(u, [sc.unit0 + t for t in self._handoff_targets(u)], D_HANDOFF, "_handoff_to")
            return
        self.stack.append((OP_END_ACT, u))
        exit_word = sc.word("exit")
        exits = sc.may_exit[sc.unit_side[u]]
        if word == "walk":
            acts = self.move_points(u, WALK_IN, stay=True) + ([exit_word] if exits and self.can_exit(u, WALK_IN) else [])
            if self.carried[u] >= 0:
                acts = [a for a in acts if a != self.pos[u]]
            self._ask(u, acts, D_MOVE, "_walk_to")
        elif word in ("run", "duck_weave"):
            limit = RUN_IN if word == "run" else DUCK_WEAVE_IN
            if word == "duck_weave":
                self.dw[u] = 1  # "Figures count as being in Soft Cover."
            acts = self._leave_points(u, limit) + ([exit_word] if exits and self.can_exit(u, limit) else [])
            self._ask(u, acts, D_MOVE, "_run_to" if word == "run" else "_dw_to")
        elif word == "on_guard":
            self.guard[u] = 1
            self.events.append(ev.Note(f"{sc.unit_ids[u]} is On Guard"))
        elif word == "gone_to_ground":
            self.gtg[u] = 1
            points = self.gone_to_ground_points(u)
            if points and points != [self.pos[u]]:
                self._ask(u, points, D_MOVE, "_gtg_to")
            else:
                self.events.append(ev.Note(f"{sc.unit_ids[u]} goes to ground where it is"))
        elif word == "aimed_fire":
            self.stack.append((OP_FIRE, u, F_AIMED, -1))
        elif word == "fire":
            self.stack.append((OP_FIRE, u, 0, -1))
        elif word == "assault":
            self._ask(u, [sc.unit0 + t for t in self.assault_targets(u)], D_ASSAULT, "_assault_target")
        elif word == "move":
            points, _rough = self.vehicle_points(u)
            acts = points + ([exit_word] if self.can_exit(u, VEHICLE_OPEN_IN) else [])
            self._ask(u, acts, D_MOVE, "_vehicle_to")
        else:  # pragma: no cover - the mask offers no other word
            raise AssertionError(word)

    def _handoff_to(self, action: int) -> None:
        t = action - self.sc.unit0
        u = self.actor
        self.pilot_unit = t
        self.pilot_pos = self.pos[t]
        self.events.append(ev.Note(f"the pilot goes from {self.sc.unit_ids[u]} to {self.sc.unit_ids[t]}"))
        self.kind = D_ACTION

    def _fire_points(self, u: int, dest: int, one: bool) -> list[int]:
        """Points of the move from which ``u`` would have a target (where it may fire)."""
        target = self.exit_point(u) if dest < 0 else dest
        path = self.sc.geo.path(self.pos[u], target) if target != self.pos[u] else (self.pos[u],)
        slots = self.able(u)
        out = []
        for p in path:
            if self.fire_targets(u, ps=p, slots=slots, walking=not one):
                out.append(p)
        return out

    def _walk_to(self, action: int) -> None:
        u = self.actor
        dest = -1 if action == self.sc.word("exit") else action
        self._ask_fire_point(u, dest, M_WALK)

    def _ask_fire_point(self, u: int, dest: int, mode: int) -> None:
        """Ask where along the move the unit fires (a Walk, a vehicle out of Moderate Cover), then move."""
        points = self._fire_points(u, dest, mode == M_VEHICLE)
        self.ask = u
        self.fire_idx = -1
        if not points:
            self._start_move(u, dest, mode)
            return
        self.mover = u
        self.mmode = mode
        self.mexit = 1 if dest < 0 else 0
        self.choices = sorted(points + [self.sc.word0])
        self.mdest = dest
        self.pending = "_fire_at"
        self.kind = D_FIRE_POINT

    def _fire_at(self, action: int) -> None:
        u, mode, dest = self.mover, self.mmode, self.mdest
        self.mdest = -1
        target = self.exit_point(u) if dest < 0 else dest
        path = self.sc.geo.path(self.pos[u], target) if target != self.pos[u] else (self.pos[u],)
        idx = -1 if action == self.sc.word0 else path.index(action)
        self._start_move(u, dest, mode, idx)

    def _run_to(self, action: int) -> None:
        self._start_move(self.actor, -1 if action == self.sc.word("exit") else action, M_RUN)

    def _dw_to(self, action: int) -> None:
        self._start_move(self.actor, -1 if action == self.sc.word("exit") else action, M_DW)

    def _gtg_to(self, action: int) -> None:
        self._start_move(self.actor, action, M_GTG)

    def _vehicle_to(self, action: int) -> None:
        v = self.actor
        if action == self.sc.word("exit"):
            self._start_move(v, -1, M_VEHICLE)
            return
        _points, rough = self.vehicle_points(v)
        if action in rough:  # "can move 6" through Moderate Cover but cannot fire if they do"
            self._start_move(v, action, M_VEHICLE)
            return
        self._ask_fire_point(v, action, M_VEHICLE)

    def _assault_target(self, action: int) -> None:
        u = self.actor
        t = action - self.sc.unit0
        if self.is_veh(u):
            self.stack.append((OP_OVERRUN, u, t))
            self._start_move(u, self.pos[t], M_OVERRUN)
            self.path_of_overrun = self.path
            self.ovehicle = u
            return
        p = self.contact_point(u, t, ASSAULT_IN)
        self.stack.append((OP_CC_START, u, t))
        if p != self.pos[u] or self.carried[u] >= 0:
            self._start_move(u, p, M_ASSAULT)

    def _on_airstrike(self, action: int) -> None:
        if action != self.sc.word("yes"):
            return
        pilot = self.sc.scenario.pilot
        r = self.roll(6, "the pilot calls the air strike")
        ok = succeeds(r, r, pilot.training.activation)
        self.events.append(ev.ActivationRolled("pilot", r, r, pilot.training.activation, ok, "air strike"))
        if ok:
            self.airstrike = 1
            self.events.append(ev.Note("air strike called in: the scenario ends"))
            self._finish()

    # ============================================================ the driver
    def _run(self) -> None:
        """Advance through every step that needs no decision; stop at the next decision."""
        stack = self.stack
        while self.kind == AUTO:
            step = stack.pop()
            _STEPS[step[0]](self, *step[1:])

    def _op_setup(self, i: int) -> None:
        sc = self.sc
        while i < sc.n_units:
            if not sc.present[i] or sc.carrier0[i] >= 0:
                i += 1
                continue
            if sc.attachable[i]:
                if self.attached[i] < 0:
                    side = sc.unit_side[i]
                    hosts = [sc.unit0 + t for t in sc.side_units[side]
                             if sc.present[t] and not sc.vehicle[t] and not sc.attachable[t]]  # fmt: skip
                    self.stack.append((OP_SETUP, i + 1))
                    self._ask(i, hosts, D_ATTACH, "_attach_to")
                    return
                i += 1
                continue
            if self.pos[i] < 0:
                occ = self.occupied()
                points = [p for p in sc.deploy_points[i] if p not in occ]
                if not points:
                    raise RuntimeError(f"no free deployment point for {sc.unit_ids[i]}")
                self.stack.append((OP_SETUP, i + 1))
                self._ask(i, points, D_DEPLOY, "_deploy_to")
                return
            i += 1
        for u in range(sc.n_units):
            c = sc.carrier0[u]
            if sc.present[u] and c >= 0 and self.pos[u] < 0 and self.pos[c] >= 0:
                self.carried[u] = c
                self.pos[u] = self.pos[c]
                self.home[u] = self.home[c]
        self.stack.append((OP_TURN,))

    def _deploy_to(self, p: int) -> None:
        u = self.ask
        self.pos[u] = p
        self.home[u] = p
        self.ask = -1
        self.events.append(ev.UnitMoved(self.sc.unit_ids[u], "off table", self.point_name(p), "deploy"))

    def _attach_to(self, action: int) -> None:
        leader = self.ask
        t = action - self.sc.unit0
        self.members[t] = self.members[t] + self.members[leader]
        self.members[leader] = []
        self.recount(t)
        self.recount(leader)
        self.attached[leader] = t
        self.ask = -1
        self.events.append(ev.Note(f"{self.sc.unit_ids[leader]} joins {self.sc.unit_ids[t]}"))

    def _op_turn(self) -> None:
        sc = self.sc
        self.turn += 1
        n = sc.n_units
        self.tried = [0] * n
        self.reacted = [0] * n
        self.effects = [0] * n
        first = sc.scenario.first_turn if self.turn == 1 else None
        if first is None:
            first = self._roll_initiative()
        self.first = self.active = first
        self.events.append(ev.TurnStarted(self.turn, self.game.player_names[first]))
        self.stack.append((OP_END_TURN,))
        self.stack.append((OP_SELECT,))
        self.stack.append((OP_CC_ALL,))
        if sc.scenario.airstrike_from is not None and self.turn >= sc.scenario.airstrike_from and self.pilot_pos >= 0:
            self.stack.append((OP_AIRSTRIKE,))

    def _roll_initiative(self) -> int:
        """"each player rolls 1D6 & adds any scenario modifiers. Reroll any ties.\""""
        mods = self.sc.scenario.initiative_modifiers
        names = self.game.player_names
        while True:
            a = self.roll(6, f"{names[0]} initiative")
            b = self.roll(6, f"{names[1]} initiative")
            ta, tb = a + mods[0], b + mods[1]
            winner = None if ta == tb else (0 if ta > tb else 1)
            self.events.append(ev.InitiativeRolled((a, b), (ta, tb), None if winner is None else names[winner]))
            if winner is not None:
                return winner

    def _op_airstrike(self) -> None:
        if self.pilot_pos >= 0:
            self.ask = -1
            self.kind = D_AIRSTRIKE

    def _op_select(self) -> None:
        """"The initiative passes to & fro as players pass and fail Activation rolls, until they have all
        had a chance to try & activate each Unit in their command.\""""
        if not self.selectable(self.active):
            self.active = 1 - self.active
            if not self.selectable(self.active):
                return
        self.kind = D_SELECT

    def _op_end_act(self, u: int) -> None:
        self.actor = -1
        self.ask = -1

    def _op_walk_fire(self, u: int) -> None:
        self._op_fire(u, F_ONE if self.is_veh(u) else F_WALK, -1)

    def _op_end_turn(self) -> None:
        auto = self.sc.scenario.auto_pilot
        if auto is not None and self.turn >= auto[1] and self.pilot_pos >= 0:
            self.auto_win = auto[0]
            self.events.append(ev.Note(f"the pilot is still on the table at the end of turn {self.turn}"))
            self._finish()
            return
        if self.turn >= self.sc.scenario.turns:
            self._finish()
            return
        self.stack.append((OP_TURN,))

    def _finish(self) -> None:
        a, b = self.victory_points()
        names = self.game.player_names
        self.events.append(ev.Note(f"scenario over: {names[0]} {a} VP, {names[1]} {b} VP"))
        self.stack = []
        self.kind = TERMINAL

    def _after_losses(self, t: int) -> None:
        """A unit that has just lost figures: the pilot leaves a unit wiped out (rulings F47)."""
        if self.pilot_unit == t and not self.standing(t):
            self._pilot_flees()

    def _pilot_flees(self) -> None:
        """"If a unit the pilot is with is wiped out, the pilot will move to the nearest cover that takes
        him away from the nearest Taliban unit" (:func:`fof_env.core.downed_pilot.flee_point`; cover: a
        point with a cover level)."""
        self.pilot_unit = -1
        sc = self.sc
        table = sc.table
        enemies = [self.pos[t] for t in sc.side_units[1 - sc.scenario.pilot.side] if self.carried[t] < 0 and self.live(t)]
        best = flee_point(table.dist, self.pilot_pos, enemies, sc.geo.level)
        if best >= 0:
            self.pilot_pos = best
            self.events.append(ev.Note(f"the pilot's unit is wiped out: he moves to cover at {table.name(best)}"))

    # ============================================================ views
    def __str__(self) -> str:
        from fof_env.fubar.render import render_text

        return render_text(self)

    def view_text(self, player: int) -> str:
        from fof_env.fubar.render import render_text

        return render_text(self, viewer=player)

    def to_position(self) -> dict[str, Any]:
        from fof_env.fubar.position import to_position

        return to_position(self)


_HANDLERS = {
    D_SELECT: FubarState._on_select,
    D_ACTION: FubarState._on_action,
    D_ALLOCATE: FubarState._on_allocate,
    D_SPLIT: FubarState._on_split,
    D_ON_GUARD: FubarState._on_on_guard,
    D_MOVE_UP: FubarState._on_move_up,
    D_CC_CHOICE: FubarState._on_cc_choice,
    D_CC_FOLLOW: FubarState._on_cc_follow,
    D_AIRSTRIKE: FubarState._on_airstrike,
}
_STEPS = {
    OP_SETUP: FubarState._op_setup,
    OP_TURN: FubarState._op_turn,
    OP_CC_ALL: FubarState._op_cc_all,
    OP_CC_PAIR: FubarState._op_cc_pair,
    OP_CC_ROUND: FubarState._op_cc_round,
    OP_CC_STRIKE: FubarState._op_cc_strike,
    OP_CC_CHECK: FubarState._op_cc_check,
    OP_SELECT: FubarState._op_select,
    OP_END_TURN: FubarState._op_end_turn,
    OP_REACT: FubarState._op_react,
    OP_ADVANCE: FubarState._op_advance,
    OP_MOVE_DONE: FubarState._op_move_done,
    OP_FIRE: FubarState._op_fire,
    OP_RESOLVE: FubarState._op_resolve,
    OP_ALLOC: FubarState._op_alloc,
    OP_DAMAGE: FubarState._op_damage,
    OP_PASSENGERS: FubarState._op_passengers,
    OP_END_ACT: FubarState._op_end_act,
    OP_CC_START: FubarState._op_cc_start,
    OP_OVERRUN: FubarState._op_overrun,
    OP_WALK_FIRE: FubarState._op_walk_fire,
    OP_AIRSTRIKE: FubarState._op_airstrike,
}
