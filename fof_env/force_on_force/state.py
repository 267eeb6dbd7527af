"""Force on Force "Lost & Found" rules engine: one :class:`ForceOnForceState` per position.

Seeds: ``000_294bccfd88f0ebda.txt`` (quick start + scenario) and
``003_b1b2d2a6d4b3bab2.txt`` (full infantry rules). Every departure or gap is in
``rulings.md`` beside this file.

Players: 0 = Taliban, 1 = USMC. Units: ``tal.1``-``tal.4`` (0-3), ``tal.R``
(4, reinforcements raised by Fog of War), ``usmc.A``/``usmc.B``/``usmc.C`` (5-7).
A unit stands on one point of the table grid (2" spacing, 18 x 18 points); all
distances, ranges, line of sight and cover are measured in inches between points.

Action space ``Discrete(354)``; the mask says which entries mean something now:

================  ==============================================================
``[0, 324)``      point ``p`` (``x01y01`` ... ``x35y35``): a deployment point, a
                  move destination, a reinforcement point
``[324, 332)``    unit ``u``: the unit to activate / put on Overwatch / hide, a
                  fire target, the fire team taking the pilot ...
``[332, 343)``    ``n1``-``n11``: firepower dice given to the second target when
                  splitting fire
``343`` pass      decline: end the activations, no interrupt, no return fire,
                  do not split, no Overwatch, do not call the air strike
``344``-``349``   ``move``, ``fire``, ``hold``, ``spot``, ``escort``, ``handoff``
                  (what an activated unit does)
``350``/``351``   ``interrupt_fire`` (fire at the acting unit; for its target:
                  fire back) / ``interrupt_move`` (reaction move)
``352`` exit      move off the unit's friendly table edge
``353`` yes       call the air strike
================  ==============================================================

Decisions (``state.decision.kind``), each owned by the player who makes it:
``deploy``, ``declare_hidden``, ``attach_leader``, ``call_airstrike``,
``declare_overwatch``, ``select_unit``, ``choose_action``, ``move_target``,
``fire_target`` (also after a move: ``pass`` declines), ``split_target``,
``split_dice``, ``split_support``, ``handoff_target``, ``declare_interrupt``,
``overwatch_fire``, ``return_fire``, ``fog_of_war_unit``, ``reinforce_point``.
Choices with nothing to choose (a reactor that can do nothing, a portion with no
unit able to act) are skipped by the engine; declining is always an explicit action.
"""

from __future__ import annotations

import random
import re
from typing import Any

import numpy as np

from fof_env.core.game import Decision, State
from fof_env.force_on_force import combat
from fof_env.force_on_force import events as ev

# ------------------------------------------------------------------ constants
TALIBAN, USMC = 0, 1
SIDES = ("taliban", "usmc")
NUM_UNITS = 8
UNIT_NAMES = ("tal.1", "tal.2", "tal.3", "tal.4", "tal.R", "usmc.A", "usmc.B", "usmc.C")
UNIT_SIDE = (0, 0, 0, 0, 0, 1, 1, 1)
SIDE_UNITS = ((0, 1, 2, 3, 4), (5, 6, 7))
REINFORCEMENTS = 4

NUM_POINTS = 324
UNIT0 = NUM_POINTS
COUNT0 = UNIT0 + NUM_UNITS
MAX_COUNT = 11
PASS = COUNT0 + MAX_COUNT
MOVE, FIRE, HOLD, SPOT, ESCORT, HANDOFF, INT_FIRE, INT_MOVE, EXIT, YES = range(PASS + 1, PASS + 11)
NUM_ACTIONS = YES + 1
NAMED = {
    PASS: "pass", MOVE: "move", FIRE: "fire", HOLD: "hold", SPOT: "spot", ESCORT: "escort",
    HANDOFF: "handoff", INT_FIRE: "interrupt_fire", INT_MOVE: "interrupt_move", EXIT: "exit", YES: "yes",
}  # fmt: skip
NAMED_BY_TEXT = {v: k for k, v in NAMED.items()}
_COUNT_TEXT = re.compile(r"n[1-9][0-9]?", re.ASCII)  # "n1" .. "n11": a split-fire count

# decisions
(
    D_DEPLOY, D_HIDE, D_ATTACH, D_AIRSTRIKE, D_OVERWATCH, D_SELECT, D_ACTION, D_MOVE, D_TARGET,
    D_SPLIT_TARGET, D_SPLIT_COUNT, D_SPLIT_SUPPORT, D_HANDOFF, D_DECLARE, D_OW, D_RETURN, D_FOW_UNIT,
    D_FOW_POINT, TERMINAL,
) = range(19)  # fmt: skip
KIND_NAMES = (
    "deploy", "declare_hidden", "attach_leader", "call_airstrike", "declare_overwatch", "select_unit",
    "choose_action", "move_target", "fire_target", "split_target", "split_dice", "split_support",
    "handoff_target", "declare_interrupt", "overwatch_fire", "return_fire", "fog_of_war_unit",
    "reinforce_point", "terminal",
)  # fmt: skip

# figure states (counts per unit). "down": hit this turn, not yet assessed; "gone": an
# escort that left the table; ``evac_*``: casualties escorted off the table.
OK, LIGHT, DOWN, SERIOUS, KIA, CAPTURED, GONE, EVAC_DOWN, EVAC_SERIOUS, EVAC_KIA = range(10)
FIGURE_STATES = (
    "ok", "light", "down", "serious", "kia", "captured", "gone", "evac_down", "evac_serious", "evac_kia",
)  # fmt: skip

# roles in a reaction window
R_ACTOR, R_INT_FIRE, R_INT_MOVE, R_RETURN, R_OW = range(5)
ROLE_NAMES = ("actor", "interrupt_fire", "interrupt_move", "return_fire", "overwatch_fire")
W_MOVE, W_FIRE = 1, 2

# automatic steps of the turn machine (``kind == AUTO``)
AUTO = -1
(
    ST_SETUP, ST_TURN_START, ST_OVERWATCH, ST_SELECT, ST_END_ACTIVATION, ST_DECLARE, ST_OW, ST_ROLL,
    ST_RESOLVE, ST_RETURNS, ST_AFTER_WINDOW, ST_END_TURN,
) = range(12)  # fmt: skip

TACTICAL_IN, RAPID_IN = 6.0, 12.0
CONTACT_IN = 2.0  # "within 1 inch"/cohesion between two units standing on points 2" apart (rulings.md)

FOW_RESULTS = (
    "", "excellent_position_usmc", "excellent_position_taliban", "medic_usmc", "reinforcements_taliban",
    "amped_up", "tougher_than_they_look", "incoming_usmc", "mad_minute_usmc", "incoming_taliban",
    "ammunition_usmc",
)  # fmt: skip


class ForceOnForceState(State):
    """A Force on Force position; see the module docstring for actions and decisions."""

    __slots__ = (
        # static for the game
        "game", "sc", "full", "fow_on", "capture_on", "ambush_on",
        # per unit, persistent
        "pos", "figs", "tq", "morale", "armor", "support", "supply", "excellent", "medic", "ammo", "tough",
        # per unit, this turn
        "activated", "moved", "fires", "rmoves", "failed", "reacted", "pinned", "overwatch", "hidden",
        "in_cover", "mad",
        # side and game
        "amped", "turn", "initiative", "portion", "first_fire", "pilot_pos", "pilot_unit", "contact",
        "pilot_exit", "leader_unit", "kind", "step", "setup_stage", "auto_win", "airstrike",
        # decision context
        "queue", "actor", "free_used", "mover", "move_reaction", "tactical_only", "targets", "split_counts",
        "split_alloc", "win_kind", "win_dest", "entries", "qi", "ret_queue", "fow_queue", "after_move",
        "exchanged",
        # bookkeeping
        "dice", "history", "events", "_rolls", "_start", "_legal_cache", "_mask_cache",
    )  # fmt: skip

    _LIST_SLOTS = (
        "pos", "tq", "morale", "armor", "supply", "excellent", "medic", "ammo", "tough", "activated",
        "moved", "fires", "rmoves", "failed", "reacted", "pinned", "overwatch", "hidden", "in_cover", "mad",
        "amped", "queue", "targets", "split_counts", "split_alloc", "entries", "ret_queue", "fow_queue", "exchanged",
    )  # fmt: skip
    _SCALAR_SLOTS = (
        "sc", "full", "fow_on", "capture_on", "ambush_on", "support", "turn", "initiative", "portion",
        "first_fire", "pilot_pos", "pilot_unit", "contact", "pilot_exit", "leader_unit", "kind", "step",
        "setup_stage", "auto_win", "airstrike", "actor", "free_used", "mover", "move_reaction",
        "tactical_only", "win_kind", "win_dest", "qi", "after_move",
    )  # fmt: skip

    # per-unit flags and counts a unit's history sets (cleared for a re-sampled hidden unit)
    _UNIT_FLAGS = (
        "excellent", "medic", "ammo", "tough", "activated", "moved", "fires", "rmoves", "failed", "reacted",
        "pinned", "overwatch", "in_cover", "mad",
    )  # fmt: skip

    def clone(self) -> ForceOnForceState:
        other = ForceOnForceState.__new__(ForceOnForceState)
        other._copy_bookkeeping(self)
        for name in self._LIST_SLOTS:
            setattr(other, name, getattr(self, name)[:])
        for name in self._SCALAR_SLOTS:
            setattr(other, name, getattr(self, name))
        other.figs = [f[:] for f in self.figs]
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
        if k in (D_DEPLOY, D_DECLARE, D_OW):
            return UNIT_SIDE[self.queue[0]]
        if k == D_HIDE:
            return TALIBAN
        if k in (D_ATTACH, D_AIRSTRIKE):
            return USMC
        if k == D_OVERWATCH:
            return self.initiative
        if k == D_SELECT:
            return self.initiative ^ self.portion
        if k == D_MOVE:
            return UNIT_SIDE[self.mover]
        if k == D_RETURN:
            return UNIT_SIDE[self.ret_queue[0][1]]
        if k in (D_FOW_UNIT, D_FOW_POINT):
            return self.fow_queue[0][1]
        return UNIT_SIDE[self.actor]

    @property
    def decision_kind(self) -> str:
        return KIND_NAMES[self.kind]

    @property
    def decision(self) -> Decision:
        k = self.kind
        ctx: dict[str, Any] = {"turn": self.turn, "initiative": SIDES[self.initiative]}
        if k in (D_DEPLOY, D_DECLARE, D_OW):
            ctx["unit"] = UNIT_NAMES[self.queue[0]]
        elif k in (D_ACTION, D_TARGET, D_SPLIT_TARGET, D_SPLIT_COUNT, D_SPLIT_SUPPORT, D_HANDOFF):
            ctx["unit"] = UNIT_NAMES[self.actor]
        elif k == D_MOVE:
            ctx["unit"] = UNIT_NAMES[self.mover]
            ctx["reaction"] = bool(self.move_reaction)
            ctx["tactical_only"] = bool(self.tactical_only)
        elif k == D_RETURN:
            ctx["fired_on_by"] = UNIT_NAMES[self.ret_queue[0][0]]
            ctx["unit"] = UNIT_NAMES[self.ret_queue[0][1]]
        elif k in (D_FOW_UNIT, D_FOW_POINT):
            ctx["result"] = FOW_RESULTS[self.fow_queue[0][0]]
        if k in (D_DECLARE, D_OW):
            ctx["actor"] = UNIT_NAMES[self.actor]
            ctx["action"] = "move" if self.win_kind == W_MOVE else "fire"
            ctx["targets"] = [UNIT_NAMES[t] for t in self.targets]
        if k == D_TARGET:
            ctx["after_move"] = bool(self.after_move)
        if k == D_SPLIT_SUPPORT:
            ctx["weapon"] = combat.SUPPORT_NAMES[self.usable_support(self.actor)[len(self.split_alloc)]]
        return Decision(KIND_NAMES[k], -1 if k == TERMINAL else self._owner(), ctx)

    def effective(self, u: int) -> int:
        f = self.figs[u]
        return f[OK] + f[LIGHT]

    def active(self, u: int) -> bool:
        """On the table with an effective figure ("so long as the unit has active figures")."""
        return self.pos[u] >= 0 and self.figs[u][OK] + self.figs[u][LIGHT] > 0

    def point_name(self, p: int) -> str:
        return "off table" if p < 0 else self.sc.table.name(p)

    def visible_to(self, u: int, player: int) -> bool:
        """Whether ``player`` may know where unit ``u`` is (hidden enemy units are unknown)."""
        return UNIT_SIDE[u] == player or not self.hidden[u]

    # ---------------------------------------------------------------- scoring
    def victory_points(self) -> tuple[int, int]:
        """(Taliban VP, USMC VP) as the scenario counts them now (000 "Victory Points")."""
        usmc = 3 if self.contact else 0
        if self.pilot_exit:
            usmc += 10 if self.pilot_exit < self.sc.early_escort_before_turn else 7
        tal = 0
        for u in SIDE_UNITS[USMC]:
            f = self.figs[u]
            tal += 2 * (f[KIA] + f[EVAC_KIA]) + f[SERIOUS] + f[EVAC_SERIOUS] + 3 * f[CAPTURED]
        return tal, usmc

    @property
    def score(self) -> dict[str, int]:
        tal, usmc = self.victory_points()
        return {"taliban_vp": tal, "usmc_vp": usmc, "taliban_auto_victory": int(self.auto_win)}

    def returns(self) -> tuple[float, float]:
        if self.kind != TERMINAL:
            return (0.0, 0.0)
        if self.auto_win:
            return (1.0, -1.0)
        tal, usmc = self.victory_points()
        if tal > usmc:
            return (1.0, -1.0)
        if usmc > tal:
            return (-1.0, 1.0)
        return (0.0, 0.0)

    def observation(self, player: int) -> np.ndarray:
        from fof_env.force_on_force.observation import encode

        return encode(self, player)

    # ============================================================ action text
    def action_to_str(self, action: int) -> str:
        if 0 <= action < NUM_POINTS:
            return self.sc.table.name(action)
        if UNIT0 <= action < COUNT0:
            return UNIT_NAMES[action - UNIT0]
        if COUNT0 <= action < PASS:
            return f"n{action - COUNT0 + 1}"
        if action in NAMED:
            return NAMED[action]
        raise ValueError(f"action {action!r} is not in [0, {NUM_ACTIONS})")

    def str_to_action(self, text: str) -> int:
        if text in NAMED_BY_TEXT:
            return NAMED_BY_TEXT[text]
        if text in UNIT_NAMES:
            return UNIT0 + UNIT_NAMES.index(text)
        if not isinstance(text, str):
            raise ValueError(f"an action text is a string, got {text!r}")
        if _COUNT_TEXT.fullmatch(text) and int(text[1:]) <= MAX_COUNT:  # canonical only: not "n01", "n١"
            return COUNT0 + int(text[1:]) - 1
        try:
            return self.sc.table.index(text)
        except ValueError:
            table = self.sc.table
            raise ValueError(
                f"cannot read action {text!r}: use a point like {table.names[0]!r}..{table.names[-1]!r}, a unit "
                f"like 'tal.1' or 'usmc.A', a count 'n1'..'n{MAX_COUNT}', or one of {', '.join(NAMED.values())}"
            ) from None

    # ========================================================== unit numbers
    def shooting_figures(self, u: int) -> int:
        """Effective figures that shoot (a Corpsman does not: Fog of War result 3)."""
        return max(0, self.effective(u) - self.medic[u])

    def usable_support(self, u: int) -> list[int]:
        """Support weapons in use: one per effective figure, best first (rulings.md)."""
        return list(self.support[u][: self.effective(u)])

    def _support_dice(self, u: int, weapons: list[int]) -> int:
        m = self.moved[u]
        return combat.support_dice(weapons, moved=m > 0, rapid=m == 2, full_rules=self.full)

    def _penalties(self, u: int) -> int:
        p = self.fires[u] + self.ammo[u]
        if self.moved[u] == 2:
            p += 1
        if self.full:
            p += self.rmoves[u]
            if self.supply[u] < 0:
                p += 1
        return p

    def _bonuses(self, u: int, t: int) -> int:
        b = self.mad[u]
        if self.full:
            b += self.sc.table.exposed[self.pos[t]] + (self.moved[t] == 2) + (self.supply[u] > 0)
        return b

    def fire_capacity(self, u: int) -> int:
        """Firepower before target-dependent bonuses; 0 means the unit may not fire this turn.

        The same sum as ``combat.firepower(figures, combat.support_dice(...), ...)``, inlined:
        observations and masks ask it for every unit (a test checks the two agree).
        """
        f = self.figs[u]
        eff = f[OK] + f[LIGHT]
        if not eff:
            return 0
        moved = self.moved[u]
        dice = 0
        for cls in self.support[u][:eff]:  # a class's dice equal its number (light 1 ...)
            dice += (0 if moved == 2 else 1) if moved and self.full and cls >= combat.MEDIUM else cls
        raw = max(0, eff - self.medic[u]) + dice + self.mad[u]
        return max(0, min(combat.FIREPOWER_CAP, raw) - self._penalties(u))

    def attack_firepower(self, u: int, t: int, figures: int, weapons: list[int], first: bool = True) -> int:
        """Firepower dice of ``figures`` shooters plus ``weapons`` of unit ``u`` against ``t``.

        Optimum Range: every weapon used within TQ inches (support weapons twice that).
        Unit-wide penalties fall on the first portion of a split fire only (rulings.md).
        """
        d = self.sc.table.dist[self.pos[u]][self.pos[t]]
        tq = self.tq[u]
        riflemen = figures - len(weapons)  # the gunners fire with their weapons' range (R24)
        optimum = (riflemen <= 0 or d <= tq + 1e-9) and (not weapons or d <= 2 * tq + 1e-9)
        return combat.firepower(
            figures,
            self._support_dice(u, weapons),
            optimum=optimum,
            bonuses=self._bonuses(u, t),
            penalties=self._penalties(u) if first else 0,
        )

    def cover_dice(self, t: int, shooter_pos: int) -> int:
        """Cover dice of unit ``t`` against fire from ``shooter_pos`` (-1: no line, e.g. mortars)."""
        table = self.sc.table
        here = self.pos[t]
        cover = (
            table.terrain_cover[here] if shooter_pos < 0 else table.cover_from[shooter_pos][here]
        ) + self.excellent[t]
        if self.full and (self.in_cover[t] or (self.moved[t] == 0 and not table.exposed[here])):
            cover += 1
        return cover

    def defense_dice(self, t: int, shooter_pos: int, incoming: int) -> int:
        """Defence dice of unit ``t`` fired on from ``shooter_pos`` with ``incoming`` dice."""
        penalties = 1 if (not self.full and self.moved[t] == 2) else 0
        return combat.defense(
            self.effective(t),
            incoming,
            armor=self.armor[t],
            cover=self.cover_dice(t, shooter_pos),
            penalties=penalties,
        )

    def fire_targets(self, u: int, exclude: tuple[int, ...] = ()) -> list[int]:
        """Enemy units ``u`` may fire on now: active, not hidden, in line of sight."""
        los = self.sc.table.los[self.pos[u]]
        side = UNIT_SIDE[u]
        pos, hidden = self.pos, self.hidden
        return [
            t
            for t in range(NUM_UNITS)
            if UNIT_SIDE[t] != side and t not in exclude and self.active(t) and not hidden[t] and los[pos[t]]
        ]

    def can_shoot_at(self, s: int, t: int) -> bool:
        return (
            self.active(s)
            and not self.pinned[s]
            and self.active(t)
            and not self.hidden[t]
            and bool(self.sc.table.los[self.pos[s]][self.pos[t]])
            and self.fire_capacity(s) > 0
        )

    def move_points(self, u: int, limit: float) -> list[int]:
        """Points within ``limit`` inches of ``u`` not held by an enemy unit its side can see.

        A hidden enemy unit's point stays open (the mask must not give it away); moving
        onto it reveals that unit (rulings.md R4, R27).
        """
        side = UNIT_SIDE[u]
        pos, hidden = self.pos, self.hidden
        enemy = {pos[t] for t in range(NUM_UNITS) if UNIT_SIDE[t] != side and pos[t] >= 0 and not hidden[t]}
        return [p for p in self.sc.table.within(self.pos[u], limit) if p not in enemy]

    def _edge(self, u: int) -> str:
        return self.sc.usmc_edge if UNIT_SIDE[u] == USMC else self.sc.taliban_edge

    def _is_rapid(self, u: int, dest: int) -> bool:
        """Whether moving ``u`` to ``dest`` (-1: off its friendly edge) is more than 6": Rapid."""
        table = self.sc.table
        here = self.pos[u]
        dist = table.distance_to_edge(here, self._edge(u)) if dest < 0 else table.dist[here][dest]
        return dist > TACTICAL_IN + 1e-9

    def can_exit(self, u: int, limit: float) -> bool:
        return self.sc.table.distance_to_edge(self.pos[u], self._edge(u)) <= limit + 1e-9

    def casualties_carried(self, u: int) -> int:
        f = self.figs[u]
        return f[DOWN] + f[SERIOUS] + f[KIA]

    def _slowed(self, u: int) -> bool:
        """Wounded figures or dependents force a TQ check to move faster than Tactical (000)."""
        f = self.figs[u]
        return f[LIGHT] + f[DOWN] + f[SERIOUS] > 0

    # ========================================================= legal actions
    def _legal_actions(self) -> list[int]:
        k = self.kind
        if k == D_DEPLOY:
            return sorted(self._deploy_points(self.queue[0]))
        if k == D_HIDE:
            return [UNIT0 + u for u in self._hide_candidates()] + [PASS]
        if k == D_ATTACH:
            return [UNIT0 + u for u in SIDE_UNITS[USMC] if self.pos[u] >= 0 or self.setup_stage == 2]
        if k == D_AIRSTRIKE:
            return [PASS, YES]
        if k == D_OVERWATCH:
            return [UNIT0 + u for u in self._overwatch_candidates()] + [PASS]
        if k == D_SELECT:  # no "pass" while the Taliban must open fire (R11)
            return [UNIT0 + u for u in self._selectable()] + ([] if self.first_fire else [PASS])
        if k == D_ACTION:
            return self._action_choices()
        if k == D_MOVE:
            return self._move_choices()
        if k == D_TARGET:
            out = [UNIT0 + t for t in self.fire_targets(self.actor)]
            return out + [PASS] if self.after_move else out
        if k == D_SPLIT_TARGET:
            return [UNIT0 + t for t in self.fire_targets(self.actor, exclude=tuple(self.targets))] + [PASS]
        if k == D_SPLIT_COUNT:
            return [COUNT0 + n - 1 for n in self._split_counts()]
        if k == D_SPLIT_SUPPORT:
            return sorted(UNIT0 + t for t in self.targets)
        if k == D_HANDOFF:
            return [UNIT0 + t for t in self._handoff_targets()]
        if k == D_DECLARE:
            return self._declare_choices(self.queue[0])
        if k == D_OW:
            return [UNIT0 + t for t in self._ow_targets(self.queue[0])] + [PASS]
        if k == D_RETURN:
            return [PASS, INT_FIRE]
        if k == D_FOW_UNIT:
            return [UNIT0 + u for u in self._fow_unit_choices()]
        if k == D_FOW_POINT:
            return sorted(self.sc.table.edge_points(self.sc.taliban_edge))
        return []

    def _deploy_points(self, u: int) -> list[int]:
        if UNIT_SIDE[u] == USMC:
            return list(self.sc.usmc_entry_points)
        return list(self.sc.taliban_deploy_points[u + 1])

    def _hide_candidates(self) -> list[int]:
        woods = self.sc.table.in_woods
        return [
            u for u in SIDE_UNITS[TALIBAN] if self.active(u) and not self.hidden[u] and woods[self.pos[u]]
        ]

    def _overwatch_candidates(self) -> list[int]:
        out = [
            u
            for u in SIDE_UNITS[self.initiative]
            if self.active(u) and not self.overwatch[u] and not self.pinned[u]
        ]
        if self.first_fire:  # keep a unit free to open fire (R11)
            shooters = [u for u in out if self.fire_capacity(u) > 0 and self.fire_targets(u)]
            if len(shooters) == 1:
                out.remove(shooters[0])
        return out

    def _selectable(self) -> list[int]:
        out = []
        for u in SIDE_UNITS[self.initiative ^ self.portion]:
            if not self.active(u) or self.activated[u] or self.pinned[u]:
                continue
            if self.overwatch[u] if self.portion == 0 else self.reacted[u]:
                continue
            if self.first_fire and not (self.fire_capacity(u) > 0 and self.fire_targets(u)):
                continue
            out.append(u)
        return out

    def _action_choices(self) -> list[int]:
        u = self.actor
        if self.first_fire:
            return [FIRE]
        out = [MOVE]
        if self.fire_capacity(u) > 0 and self.fire_targets(u):
            out.append(FIRE)
        out.append(HOLD)
        free = self.free_used
        if UNIT_SIDE[u] == USMC and self.ambush_on and not free & 1:
            out.append(SPOT)
        if (
            not free & 2
            and self.casualties_carried(u)
            and self.effective(u) >= 2
            and self.can_exit(u, TACTICAL_IN)
        ):
            out.append(ESCORT)
        if not free & 4 and self.pilot_unit == u and self._handoff_targets():
            out.append(HANDOFF)
        return out

    def _move_choices(self) -> list[int]:
        u = self.mover
        limit = TACTICAL_IN if self.tactical_only else RAPID_IN
        out = self.move_points(u, limit)
        if self.can_exit(u, limit):
            out.append(EXIT)
        return out

    def _split_counts(self) -> list[int]:
        """Figures' dice the newest extra target may get: the first target keeps at least one
        figure unless the unit has support weapons to give it."""
        left = self.shooting_figures(self.actor) - sum(self.split_counts)
        hi = left if self.usable_support(self.actor) else left - 1
        return list(range(1, min(hi, MAX_COUNT) + 1))

    def _may_add_target(self) -> bool:
        """Another target for a split fire: TQ allows it (003 "Targets Engaged by Quality"),
        figures are left to give it, and an enemy unit is in sight."""
        a = self.actor
        if not self.full or len(self.targets) >= combat.SPLIT_TARGETS.get(self.tq[a], 1):
            return False
        left = self.shooting_figures(a) - sum(self.split_counts)
        if left < (1 if self.usable_support(a) else 2):
            return False
        return bool(self.fire_targets(a, exclude=tuple(self.targets)))

    def _handoff_targets(self) -> list[int]:
        u = self.actor
        dist = self.sc.table.dist[self.pos[u]]
        return [
            t
            for t in SIDE_UNITS[USMC]
            if t != u and self.active(t) and dist[self.pos[t]] <= CONTACT_IN + 1e-9
        ]

    def _declare_choices(self, r: int) -> list[int]:
        out = [PASS]
        if self._may_fire_at_actor(r):
            out.append(INT_FIRE)
        if UNIT_SIDE[r] != self.initiative and not self.rmoves[r] and not self.failed[r]:
            out.append(INT_MOVE)  # "Reaction movement only once per turn"; Overwatch units may not move
        return out

    def _may_fire_at_actor(self, r: int) -> bool:
        if self.fire_capacity(r) <= 0:
            return False
        los = self.sc.table.los[self.pos[r]]
        if los[self.pos[self.actor]]:
            return True
        return self.win_kind == W_MOVE and self.win_dest >= 0 and bool(los[self.win_dest])

    def _ow_targets(self, o: int) -> list[int]:
        los = self.sc.table.los[self.pos[o]]
        out = []
        for r, role, _t, _a in self.entries:
            if role != R_ACTOR and UNIT_SIDE[r] != UNIT_SIDE[o] and r not in out and los[self.pos[r]]:
                out.append(r)
        return sorted(out)

    def _fow_unit_choices(self) -> list[int]:
        result = self.fow_queue[0][0]
        if result == 6:
            return [u for u in SIDE_UNITS[TALIBAN] if self.active(u) and not self.tough[u]]
        if result == 3:
            return [u for u in SIDE_UNITS[USMC] if self.active(u) and not self.medic[u]]
        return [u for u in SIDE_UNITS[USMC if result == 1 else TALIBAN] if self.active(u)]

    # ============================================================ decisions
    def _apply(self, action: int) -> None:
        _HANDLERS[self.kind](self, action)
        self._run()

    def _auto(self, step: int) -> None:
        self.kind = AUTO
        self.step = step

    def _on_deploy(self, action: int) -> None:
        u = self.queue.pop(0)
        self.pos[u] = action
        self.events.append(ev.UnitMoved(UNIT_NAMES[u], "off table", self.point_name(action), False))
        self._auto(ST_SETUP)

    def _on_hide(self, action: int) -> None:
        if action == PASS:
            self.setup_stage += 1
        else:
            self.hidden[action - UNIT0] = 1
        self._auto(ST_SETUP)

    def _on_attach(self, action: int) -> None:
        u = action - UNIT0
        self.leader_unit = u
        self.figs[u][OK] += 1
        self.events.append(ev.Note(f"squad leader attached to {UNIT_NAMES[u]}"))
        self._auto(ST_SETUP)

    def _on_airstrike(self, action: int) -> None:
        self._auto(ST_OVERWATCH)
        if action == YES:
            if self.roll(self.sc.usmc.tq, "pilot's TQ check to call the air strike") >= combat.SUCCESS:
                self.events.append(ev.Note("air strike called in: the scenario ends"))
                self.airstrike = 1
                self._finish()
            else:
                self.events.append(ev.Note("the pilot's air strike call fails"))

    def _on_overwatch(self, action: int) -> None:
        if action == PASS:
            self.portion = 0
            self._auto(ST_SELECT)
        else:
            self.overwatch[action - UNIT0] = 1
            self._auto(ST_OVERWATCH)

    def _on_select(self, action: int) -> None:
        if action == PASS:
            self._end_portion()
            return
        self.actor = action - UNIT0
        self.free_used = 0
        self.kind = D_ACTION

    def _on_action(self, action: int) -> None:
        u = self.actor
        if action == MOVE:
            self._ask_move(u, reaction=False)
        elif action == FIRE:
            self.after_move = 0
            self.kind = D_TARGET
        elif action == HOLD:
            exposed = self.full and self.sc.table.exposed[self.pos[u]]
            if exposed and self.roll(self.tq[u], "quality check to get In Cover") >= combat.SUCCESS:
                self.in_cover[u] = 1
            self._auto(ST_END_ACTIVATION)
        elif action == SPOT:
            self.free_used |= 1
            self._spot(u)
        elif action == ESCORT:
            self.free_used |= 2
            self._escort(u)
        else:  # HANDOFF
            self.free_used |= 4
            self.kind = D_HANDOFF

    def _on_handoff(self, action: int) -> None:
        t = action - UNIT0
        self.pilot_unit = t
        self.pilot_pos = self.pos[t]
        self.events.append(ev.Note(f"pilot handed off from {UNIT_NAMES[self.actor]} to {UNIT_NAMES[t]}"))
        self.kind = D_ACTION

    def _ask_move(self, u: int, reaction: bool) -> None:
        self.mover = u
        self.move_reaction = 1 if reaction else 0
        self.tactical_only = 0
        self.kind = D_MOVE

    def _on_move(self, action: int) -> None:
        u = self.mover
        dest = -1 if action == EXIT else action
        rapid = self._is_rapid(u, dest)
        checked = rapid and self._slowed(u) and not self.tactical_only
        if checked and self.roll(self.tq[u], "TQ check to move faster than Tactical") < combat.SUCCESS:
            self.events.append(ev.Note(f"{UNIT_NAMES[u]} fails its TQ check: Tactical move only"))
            self.tactical_only = 1
            return  # the same decision again, Tactical destinations only
        if self.move_reaction:
            self._do_move(u, dest, rapid)
            self.rmoves[u] += 1
            self.reacted[u] = 1
            self.mover = -1
            self.move_reaction = self.tactical_only = 0
            self._auto(ST_RESOLVE)
            return
        self.hidden[u] = 0  # "They remain Hidden so long as they do not move or fire."
        self.win_kind = W_MOVE
        self.win_dest = dest
        self.targets = []
        self._open_window()

    def _on_target(self, action: int) -> None:
        if action == PASS:
            self._auto(ST_END_ACTIVATION)
            return
        self.targets = [action - UNIT0]
        self.split_counts = []
        self.split_alloc = []
        if self._may_add_target():
            self.kind = D_SPLIT_TARGET
        else:
            self._declare_fire()

    def _on_split_target(self, action: int) -> None:
        if action == PASS:
            self._next_split_support()
            return
        self.targets.append(action - UNIT0)
        self.kind = D_SPLIT_COUNT

    def _on_split_count(self, action: int) -> None:
        self.split_counts.append(action - COUNT0 + 1)
        if self._may_add_target():
            self.kind = D_SPLIT_TARGET
        else:
            self._next_split_support()

    def _on_split_support(self, action: int) -> None:
        self.split_alloc.append(action - UNIT0)
        self._next_split_support()

    def _next_split_support(self) -> None:
        """Each support weapon goes to one target ("Support Weapon dice must be allocated to one
        target"); then targets left with nothing are dropped and the fire is declared."""
        a = self.actor
        if len(self.targets) > 1 and len(self.split_alloc) < len(self.usable_support(a)):
            self.kind = D_SPLIT_SUPPORT
            return
        shares = self._portions(a)
        kept = [i for i, (_t, figs, weapons) in enumerate(shares) if figs + len(weapons)]
        if len(kept) < len(self.targets):  # a target got nothing: it is not engaged after all
            # the first kept target takes the figures left over (all of them if the old first had none)
            self.split_counts = [self.split_counts[i - 1] for i in kept[1:]]
            self.targets = [self.targets[i] for i in kept]
            self.split_alloc = [t for t in self.split_alloc if t in self.targets]
        if len(self.targets) == 1:
            self.split_counts = []
            self.split_alloc = []
        self._declare_fire()

    def _portions(self, a: int) -> list[tuple[int, int, list[int]]]:
        """(target, figures, weapons) shares of the actor's fire, from its current strength:
        casualties taken since the declaration come off the first target's figures."""
        weapons = self.usable_support(a)
        figs = self.shooting_figures(a)
        if len(self.targets) == 1:
            return [(self.targets[0], figs, weapons)]
        alloc = self.split_alloc[: len(weapons)]
        shares = []
        left = figs
        for t, n in zip(self.targets[1:], self.split_counts, strict=True):
            n = min(n, left)
            left -= n
            shares.append((t, n, [w for w, to in zip(weapons, alloc, strict=False) if to == t]))
        t0 = self.targets[0]
        return [(t0, left, [w for w, to in zip(weapons, alloc, strict=False) if to == t0]), *shares]

    def _declare_fire(self) -> None:
        self.first_fire = 0
        self.win_kind = W_FIRE
        self.win_dest = -1
        self._open_window()

    def _on_declare(self, action: int) -> None:
        r = self.queue.pop(0)
        if action != PASS:
            ambush = 0
            if self.hidden[r]:
                self.hidden[r] = 0  # declaring fire or a move gives the position away
                ambush = 1 if action == INT_FIRE else 0
            if action == INT_FIRE:
                self.entries.append((r, R_RETURN if r in self.targets else R_INT_FIRE, self.actor, ambush))
            else:
                self.entries.append((r, R_INT_MOVE, -1, 0))
        self._auto(ST_DECLARE)

    def _on_ow(self, action: int) -> None:
        o = self.queue.pop(0)
        if action != PASS:
            self.entries.append((o, R_OW, action - UNIT0, 0))
        self._auto(ST_OW)

    def _on_return(self, action: int) -> None:
        f, t = self.ret_queue.pop(0)
        if action == INT_FIRE:
            self._fire(t, [(f, self.shooting_figures(t), self.usable_support(t))], returning=True)
        self._auto(ST_RETURNS)

    def _on_fow_unit(self, action: int) -> None:
        result, _side = self.fow_queue.pop(0)
        u = action - UNIT0
        if result in (1, 2):
            self.excellent[u] = 1
        elif result == 3:
            self.medic[u] = 1
        else:  # 6
            self.tough[u] = 1
            self.tq[u] = max(self.tq[u], 8)
        self.events.append(ev.FogOfWar(result, FOW_RESULTS[result], UNIT_NAMES[u]))
        self._auto(ST_RESOLVE)

    def _on_fow_point(self, action: int) -> None:
        self.fow_queue.pop(0)
        self._reinforce(action)
        self._auto(ST_RESOLVE)

    # ============================================================ the driver
    def _run(self) -> None:
        """Advance through everything that needs no decision; stop at the next decision."""
        while self.kind == AUTO:
            if self.fow_queue:
                self._resolve_fow()
            else:
                _STEPS[self.step](self)

    def _st_setup(self) -> None:
        stage = self.setup_stage
        if stage == 0:  # Taliban teams deploy around their marked positions
            if self.queue:
                self.kind = D_DEPLOY
                return
            self.setup_stage = 1
        elif stage == 1:  # Ambush: "any of his units starting in the woods are Hidden"
            if self.ambush_on and self._hide_candidates():
                self.kind = D_HIDE
                return
            self.setup_stage = 2
        elif stage == 2:  # the squad leader joins a fire team
            if self.leader_unit < 0 and self.sc.squad_leader:
                self.kind = D_ATTACH
                return
            self.setup_stage = 3
            self.queue = [u for u in SIDE_UNITS[USMC] if self.figs[u][OK] and self.pos[u] < 0]
        elif stage == 3:  # USMC fire teams enter on the West edge
            if self.queue:
                self.kind = D_DEPLOY
                return
            self.setup_stage = 4
            self.turn = 1
            self.initiative = TALIBAN
            self.first_fire = 1 if self.sc.must_fire_first else 0
            self.events.append(ev.TurnStarted(1, SIDES[TALIBAN]))
            self.step = ST_OVERWATCH

    def _st_turn_start(self) -> None:
        self.turn += 1
        self._roll_initiative()
        self.events.append(ev.TurnStarted(self.turn, SIDES[self.initiative]))
        self._check_casualties()
        if self.pilot_pos >= 0:  # the pilot is never injured, so always effective (rulings.md)
            self.kind = D_AIRSTRIKE
        else:
            self.step = ST_OVERWATCH

    def _st_overwatch(self) -> None:
        if self._overwatch_candidates():
            self.kind = D_OVERWATCH
        else:
            self.portion = 0
            self.step = ST_SELECT

    def _st_select(self) -> None:
        if self.first_fire and self.portion == 0 and not self._selectable():
            self.first_fire = 0  # nobody can open fire: the restriction lapses (rulings.md)
        if self._selectable():
            self.kind = D_SELECT
        else:
            self._end_portion()

    def _end_portion(self) -> None:
        self.first_fire = 0
        if self.portion == 0:
            self.portion = 1
            self._auto(ST_SELECT)
        else:
            self._auto(ST_END_TURN)

    def _st_end_activation(self) -> None:
        if self.actor >= 0:
            self.activated[self.actor] = 1
        self._clear_context()
        self.step = ST_SELECT

    def _clear_context(self) -> None:
        """Forget the finished activation, so equal positions give equal states."""
        self.actor = self.mover = -1
        self.free_used = self.move_reaction = self.tactical_only = self.after_move = 0
        self.targets = []
        self.entries = []
        self.exchanged = []
        self.split_counts = []
        self.split_alloc = []
        self.win_kind = 0
        self.win_dest = -1
        self.qi = 0

    def _st_end_turn(self) -> None:
        """End Phase: pins, Overwatch and lost firepower recover (000 turn sequence)."""
        for name in ("activated", "moved", "fires", "rmoves", "failed", "reacted", "pinned", "overwatch",
                     "in_cover", "mad"):  # fmt: skip
            setattr(self, name, [0] * NUM_UNITS)
        if self.turn >= self.sc.pilot_deadline_turn and self.pilot_pos >= 0:
            self.auto_win = 1  # "Pilot still on table at end of Turn 8: VICTORY!"
            self.events.append(ev.Note(f"the pilot is still on the table at the end of turn {self.turn}"))
            self._finish()
        elif self.turn >= self.sc.turns:
            self._finish()
        else:
            self.step = ST_TURN_START

    # ---- reaction window
    def _open_window(self) -> None:
        """The actor has declared a move or fire: queue every unit that may react to it."""
        a = self.actor
        # "A Hidden unit may open fire ... If it rolls a 4+, it automatically fires first."
        ambush = 1 if self.hidden[a] and self.win_kind == W_FIRE else 0
        self.hidden[a] = 0
        self.entries = [(a, R_ACTOR, self.targets[0] if self.targets else -1, ambush)]
        self.exchanged = []
        react_side = UNIT_SIDE[a] ^ 1
        queue = []
        for r in SIDE_UNITS[react_side]:
            if not self.active(r) or self.pinned[r]:
                continue
            if r in self.targets:
                queue.append(r)  # a target may always defend itself by firing back
            elif react_side == self.initiative:
                if self.overwatch[r]:
                    queue.append(r)  # Overwatch "may also fire during the non-initiative player's portion"
            elif not self.failed[r]:
                queue.append(r)  # "non-initiative units that have not rolled less than a 4"
        self.queue = queue
        self._auto(ST_DECLARE)

    def _st_declare(self) -> None:
        while self.queue:
            if len(self._declare_choices(self.queue[0])) > 1:
                self.kind = D_DECLARE
                return
            self.queue.pop(0)
        # initiative Overwatch units "may only react to non-initiative interrupting units"
        if UNIT_SIDE[self.actor] == self.initiative and len(self.entries) > 1:
            self.queue = [
                o
                for o in SIDE_UNITS[self.initiative]
                if self.overwatch[o] and self.active(o) and not self.pinned[o] and self.fire_capacity(o) > 0
            ]
            self.step = ST_OW
        else:
            self.step = ST_ROLL

    def _st_ow(self) -> None:
        while self.queue:
            if self._ow_targets(self.queue[0]):
                self.kind = D_OW
                return
            self.queue.pop(0)
        self.step = ST_ROLL

    def _st_roll(self) -> None:
        """Everyone involved rolls one TQ die; order high to low (000 "Can more than one unit ...")."""
        entries = self.entries
        self.qi = 0
        self.step = ST_RESOLVE
        if len(entries) == 1:
            return
        ranked = []
        for idx, (u, role, target, ambush) in enumerate(entries):
            die = self.roll(self.tq[u], f"reaction test of {UNIT_NAMES[u]}")
            side = UNIT_SIDE[u]
            modified = die + self.amped[side] - (1 if self.full and self.moved[u] == 2 else 0)
            passed = modified >= combat.SUCCESS
            self.events.append(ev.ReactionTest(UNIT_NAMES[u], ROLE_NAMES[role], die, modified, passed))
            if die == 1 and self.fow_on:
                self._fog_of_war(side)
            if not passed and side != self.initiative and role in (R_INT_FIRE, R_INT_MOVE):
                self.failed[u] = 1  # "If the non-initiative unit rolls less than a 4, no interruption"
                continue
            first = 1 if ambush and passed else 0  # "If it rolls a 4+, it automatically fires first."
            init = 1 if side == self.initiative else 0
            ranked.append(((first, passed, modified if passed else 0, init, -idx), (u, role, target, ambush)))
        ranked.sort(key=lambda item: item[0], reverse=True)
        self.entries = [e for _, e in ranked]

    def _st_resolve(self) -> None:
        if self.qi >= len(self.entries):
            self.step = ST_AFTER_WINDOW
            return
        u, role, target, _ambush = self.entries[self.qi]
        if role == R_INT_MOVE:
            if self.active(u) and not self.pinned[u]:
                self._ask_move(u, reaction=True)
                self.qi += 1
            else:
                self.qi += 1
            return
        self.qi += 1
        if not self.active(u) or self.pinned[u]:
            return  # wiped out or pinned: "may conduct no further actions until the end of the turn"
        if role == R_ACTOR:
            if self.win_kind == W_MOVE:
                self._do_move(u, self.win_dest, self._is_rapid(u, self.win_dest))
            else:
                self._actor_fire(u)
        elif self.can_shoot_at(u, target):
            self._fire(u, [(target, self.shooting_figures(u), self.usable_support(u))])
            if UNIT_SIDE[u] != self.initiative:
                self.reacted[u] = 1
        if self.ret_queue:
            self.step = ST_RETURNS

    def _actor_fire(self, a: int) -> None:
        portions = [p for p in self._portions(a) if self.active(p[0]) and not self.hidden[p[0]]
                    and self.sc.table.los[self.pos[a]][self.pos[p[0]]]]  # fmt: skip
        if portions and self.fire_capacity(a) > 0:
            self._fire(a, portions)

    def _shot_queued(self, t: int, s: int) -> bool:
        """Whether unit ``t`` still has a shot at ``s`` to come in this window."""
        for u, role, target, _ambush in self.entries[self.qi :]:
            if u != t or role == R_INT_MOVE:
                continue
            if target == s or (role == R_ACTOR and self.win_kind == W_FIRE and s in self.targets):
                return True
        return False

    def _st_returns(self) -> None:
        """Units fired on may fire back at the firer, once per exchange (rulings.md)."""
        while self.ret_queue:
            f, t = self.ret_queue[0]
            if self.can_shoot_at(t, f):
                self.kind = D_RETURN
                return
            self.ret_queue.pop(0)
        self.step = ST_RESOLVE

    def _st_after_window(self) -> None:
        a = self.actor
        self.entries = []
        may_fire = self.win_kind == W_MOVE and self.active(a) and not self.pinned[a]
        if may_fire and self.fire_capacity(a) > 0 and self.fire_targets(a):
            self.after_move = 1
            self.kind = D_TARGET  # "move then shoot"
            return
        self.step = ST_END_ACTIVATION

    # ============================================================ mechanics
    def _fire(self, s: int, portions: list[tuple[int, int, list[int]]], returning: bool = False) -> None:
        """Resolve one fire of unit ``s``: each portion is (target, figures, weapons)."""
        shooter_pos = self.pos[s]
        for i, (t, figures, weapons) in enumerate(portions):
            fp = self.attack_firepower(s, t, figures, weapons, first=i == 0)
            if fp <= 0:
                continue
            self._attack(t, fp, self.tq[s], shooter_pos, UNIT_NAMES[s])
            answered = (t, s) in self.exchanged  # t fired first: this shot completes the round
            self.exchanged.append((s, t))
            if (
                not returning
                and not answered
                and not self._shot_queued(t, s)
                and (s, t) not in self.ret_queue
            ):
                self.ret_queue.append((s, t))
        self.fires[s] += 1
        self.hidden[s] = 0

    def _attack(self, t: int, fp: int, tq: int, shooter_pos: int, shooter: str) -> None:
        """Roll ``fp`` dice of type ``tq`` against unit ``t``; casualties, then its morale check."""
        dfn = self.defense_dice(t, shooter_pos, fp)
        roll = self.roll
        attack = [roll(tq, f"firepower of {shooter}") for _ in range(fp)]
        defense = [roll(self.tq[t], f"defense of {UNIT_NAMES[t]}") for _ in range(dfn)]
        hits = min(combat.casualties(attack, defense), self.effective(t))
        self.events.append(
            ev.FireResolved(shooter, UNIT_NAMES[t], fp, dfn, tuple(attack), tuple(defense), hits)
        )
        if hits:
            self._take_hits(t, hits)
            left = self.effective(t)
            if left:
                rolls = [roll(self.morale[t], f"morale of {UNIT_NAMES[t]}") for _ in range(left)]
                passed = combat.morale_passed(rolls)
                self.events.append(ev.MoraleChecked(UNIT_NAMES[t], tuple(rolls), passed))
                if not passed:
                    self.pinned[t] = 1
            elif self.pilot_unit == t:
                self._pilot_flees()

    def _take_hits(self, t: int, hits: int) -> None:
        f = self.figs[t]
        for _ in range(hits):
            if f[OK] and f[LIGHT]:
                light = self.roll(f[OK] + f[LIGHT], f"which figure of {UNIT_NAMES[t]} is hit") > f[OK]
            else:
                light = f[LIGHT] > 0
            f[LIGHT if light else OK] -= 1
            f[DOWN] += 1

    def _do_move(self, u: int, dest: int, rapid: bool) -> None:
        here = self.pos[u]
        self.events.append(ev.UnitMoved(UNIT_NAMES[u], self.point_name(here), self.point_name(dest), rapid))
        self.moved[u] = max(self.moved[u], 2 if rapid else 1)
        self.excellent[u] = 0
        self.in_cover[u] = 0
        self.hidden[u] = 0
        self.pos[u] = dest
        if self.pilot_unit == u:
            self.pilot_pos = dest
            if dest < 0:
                self.pilot_exit = self.turn
                self.pilot_unit = -1
                self.events.append(
                    ev.Note(f"{UNIT_NAMES[u]} escorts the pilot off the table in turn {self.turn}")
                )
        if dest < 0 or not self.active(u):
            return
        dist = self.sc.table.dist[dest]
        for t in range(NUM_UNITS):
            if self.hidden[t] and self.pos[t] == dest and UNIT_SIDE[t] != UNIT_SIDE[u]:
                self.hidden[t] = 0
                self.events.append(ev.Note(f"{UNIT_NAMES[u]} runs into hidden {UNIT_NAMES[t]}"))
        if UNIT_SIDE[u] == USMC:
            if self.pilot_unit < 0 and self.pilot_pos >= 0 and dist[self.pilot_pos] <= CONTACT_IN + 1e-9:
                self.pilot_unit = u
                self.pilot_pos = dest  # "The pilot can be moved as part of that fireteam."
                if not self.contact:
                    self.contact = 1
                    self.events.append(ev.Note(f"{UNIT_NAMES[u]} makes contact with the pilot"))
        elif self.capture_on:
            for m in SIDE_UNITS[USMC]:
                f = self.figs[m]
                if (
                    self.pos[m] >= 0
                    and not self.effective(m)
                    and f[DOWN] + f[SERIOUS]
                    and dist[self.pos[m]] <= CONTACT_IN + 1e-9
                ):
                    f[CAPTURED] += f[DOWN] + f[SERIOUS]
                    f[DOWN] = f[SERIOUS] = 0
                    self.events.append(ev.Note(f"{UNIT_NAMES[u]} captures the casualties of {UNIT_NAMES[m]}"))

    def _pilot_flees(self) -> None:
        """ "If a unit the pilot is with is wiped out, the pilot will move to the nearest cover
        that takes him away from the nearest Taliban unit." """
        self.pilot_unit = -1
        table = self.sc.table
        here = self.pilot_pos
        enemies = [self.pos[t] for t in SIDE_UNITS[TALIBAN] if self.active(t) and not self.hidden[t]]
        if not enemies:
            return
        threat = min(enemies, key=lambda p: (table.dist[here][p], p))
        away = table.dist[here][threat]
        best = -1
        for p in range(NUM_POINTS):
            if not table.terrain_cover[p] or table.dist[p][threat] <= away:
                continue
            if best < 0 or table.dist[here][p] < table.dist[here][best]:
                best = p
        if best >= 0:
            self.pilot_pos = best
            self.events.append(
                ev.Note(f"the pilot's unit is wiped out: he moves to cover at {table.name(best)}")
            )

    def _spot(self, u: int) -> None:
        """USMC spotting: within Optimum Range, a TQ check reveals Hidden units (000 "Ambush")."""
        if self.roll(self.tq[u], f"spotting TQ check of {UNIT_NAMES[u]}") >= combat.SUCCESS:
            table = self.sc.table
            here = self.pos[u]
            for t in SIDE_UNITS[TALIBAN]:
                if (
                    self.hidden[t]
                    and table.dist[here][self.pos[t]] <= self.tq[u] + 1e-9
                    and table.los[here][self.pos[t]]
                ):
                    self.hidden[t] = 0
                    self.events.append(ev.Note(f"{UNIT_NAMES[u]} spots {UNIT_NAMES[t]}"))
        self.kind = D_ACTION

    def _escort(self, u: int) -> None:
        """An effective figure takes one casualty off the friendly edge (000 "Can I leave ...")."""
        f = self.figs[u]
        f[LIGHT if f[LIGHT] else OK] -= 1
        f[GONE] += 1
        for src, dst in ((SERIOUS, EVAC_SERIOUS), (DOWN, EVAC_DOWN), (KIA, EVAC_KIA)):
            if f[src]:
                f[src] -= 1
                f[dst] += 1
                break
        self.events.append(ev.Note(f"a figure of {UNIT_NAMES[u]} escorts a casualty off the table"))
        self.kind = D_ACTION

    def _roll_initiative(self) -> None:
        """Half the active units (rounded down) in Initiative dice; most 4+ wins; tie: last holder."""
        counts = []
        for side in (TALIBAN, USMC):
            n = sum(1 for u in SIDE_UNITS[side] if self.active(u)) // 2
            die = self.sc.side(side).initiative_die
            counts.append(
                sum(1 for _ in range(n) if self.roll(die, f"{SIDES[side]} initiative") >= combat.SUCCESS)
            )
        if counts[0] != counts[1]:
            self.initiative = TALIBAN if counts[0] > counts[1] else USMC

    def _check_casualties(self, final: bool = False) -> None:
        """Roll 1D6 per casualty: 1 KIA, 2-3 serious, 4-5 light wound, 6 back to duty (000)."""
        table = self.sc.table
        for u in range(NUM_UNITS):
            f = self.figs[u]
            if not f[DOWN] and not f[EVAC_DOWN]:
                continue
            here = self.pos[u]
            friends = [t for t in SIDE_UNITS[UNIT_SIDE[u]] if t != u and self.active(t)]
            near = [t for t in friends if here >= 0 and table.dist[here][self.pos[t]] <= CONTACT_IN + 1e-9]
            bonus = 1 if self.medic[u] and self.effective(u) or any(self.medic[t] for t in near) else 0
            if f[DOWN] and (final or here < 0 or self.effective(u) or near):
                for _ in range(f[DOWN]):
                    self._assess(u, DOWN, bonus)
            for _ in range(f[EVAC_DOWN]):
                self._assess(u, EVAC_DOWN, 0)

    def _assess(self, u: int, src: int, bonus: int) -> None:
        roll = min(6, self.roll(6, f"casualty check of {UNIT_NAMES[u]}") + bonus)
        f = self.figs[u]
        f[src] -= 1
        evac = src == EVAC_DOWN
        if roll == 1:
            f[EVAC_KIA if evac else KIA] += 1
        elif roll <= 3:
            f[EVAC_SERIOUS if evac else SERIOUS] += 1
        elif evac:
            f[GONE] += 1  # walking wounded off the table with their escort
        else:
            f[LIGHT if roll <= 5 else OK] += 1

    def _finish(self) -> None:
        """End of the scenario: casualties not yet assessed are assessed now (rulings.md)."""
        self._check_casualties(final=True)
        tal, usmc = self.victory_points()
        self.events.append(ev.Note(f"scenario over: Taliban {tal} VP, USMC {usmc} VP"
                                   + (" (Taliban automatic victory)" if self.auto_win else "")))  # fmt: skip
        self.kind = TERMINAL

    # ---- Fog of War (000 D10 table)
    def _fog_of_war(self, side: int) -> None:
        roll = self.roll(10, "Fog of War")
        self.fow_queue.append((roll, side))

    def _resolve_fow(self) -> None:
        result, side = self.fow_queue[0]
        name = FOW_RESULTS[result]
        if result in (1, 2, 3, 6):
            self.fow_queue[0] = (result, USMC if result in (1, 3) else TALIBAN)
            if self._fow_unit_choices():
                self.kind = D_FOW_UNIT
                return
        elif result == 4:
            kia = sum(self.figs[u][KIA] for u in SIDE_UNITS[TALIBAN])
            if kia:
                self.fow_queue[0] = (result, TALIBAN)
                if not self.active(REINFORCEMENTS):
                    self.kind = D_FOW_POINT
                    return
                self.fow_queue.pop(0)
                self._reinforce(self.pos[REINFORCEMENTS])
                return
        elif result == 5:
            self.amped[side] = 1
        elif result in (7, 9):
            victims = [u for u in SIDE_UNITS[USMC if result == 7 else TALIBAN] if self.active(u)]
            if victims:
                t = victims[self.roll(len(victims), "random unit") - 1] if len(victims) > 1 else victims[0]
                self.events.append(ev.FogOfWar(result, name, UNIT_NAMES[t]))
                self.fow_queue.pop(0)
                self._attack(t, 6, 6, -1, "mortar fire")
                return
        elif result in (8, 10):
            victims = [u for u in SIDE_UNITS[USMC] if self.active(u)]
            if victims:
                t = victims[self.roll(len(victims), "random unit") - 1] if len(victims) > 1 else victims[0]
                if result == 8:
                    self.mad[t] = 1
                else:
                    self.ammo[t] = 1
                self.events.append(ev.FogOfWar(result, name, UNIT_NAMES[t]))
                self.fow_queue.pop(0)
                return
        self.events.append(ev.FogOfWar(result, name, SIDES[side] if result == 5 else ""))
        self.fow_queue.pop(0)

    def _reinforce(self, point: int) -> None:
        """ "Any KIA figures removed from the board return anywhere on the East board edge." """
        n = 0
        for u in SIDE_UNITS[TALIBAN]:
            if u != REINFORCEMENTS:
                n += self.figs[u][KIA]
                self.figs[u][GONE] += self.figs[u][KIA]
                self.figs[u][KIA] = 0
        r = REINFORCEMENTS
        if not self.active(r):
            self.pos[r] = point
        self.figs[r][OK] += n
        self.events.append(ev.FogOfWar(4, FOW_RESULTS[4], f"{n} figures at {self.point_name(self.pos[r])}"))

    def __str__(self) -> str:
        from fof_env.force_on_force.render import render_text

        return render_text(self)

    def view_text(self, player: int) -> str:
        """The text picture as ``player`` may see it (no hidden enemy units)."""
        from fof_env.force_on_force.render import render_text

        return render_text(self, viewer=player)

    def event_hidden_from(self, event, player: int) -> bool:
        """Whether ``event`` tells ``player`` about an enemy unit that is hidden from him now
        (a mortar round or a Fog of War card on a hidden team must not give it away)."""
        for key in ("unit", "target", "shooter"):
            name = getattr(event, key, None)
            if name in UNIT_NAMES:
                u = UNIT_NAMES.index(name)
                if not self.visible_to(u, player):
                    return True
        return False

    def is_secret_from(self, player: int) -> bool:
        """Whether the current decision, its action and its effects must be kept from ``player``:
        where the Taliban deploy and which teams they hide, before the USMC can see anything."""
        return player == USMC and self.kind in (D_DEPLOY, D_HIDE) and self._owner() == TALIBAN

    def determinize(self, player: int, rng: random.Random) -> ForceOnForceState:
        """A copy for ``player``'s search in which what ``player`` may not know is re-sampled from
        ``rng`` (a ``random.Random``), using only what ``player`` may know (R27):

        * the future dice: fresh ``SeededDice`` seeded from ``rng`` (the kernel default);
        * every enemy unit hidden from ``player`` (only Taliban units hide, only from the USMC):

          - its point: a uniform draw among the woods points of its team's deployment zone
            (a Hidden unit started in the woods of its zone and has not moved since: it
            would be revealed), less the points where ``player`` sees a unit and the points
            already drawn for another hidden unit; failing that its whole zone less those
            points, then any woods point of the table;
          - its strength and status, which no USMC observation shows: back to its order of
            battle (the unit profile: every figure unhurt, TQ, morale, body armour, support
            weapons, supply) with every per-turn and Fog of War flag cleared (not activated,
            no Overwatch, not pinned, no excellent position / Tougher ...). It stays Hidden.

          Units are drawn in unit order, each from a list that depends on public facts only,
          so the copy is the same for two states that differ only in hidden facts.
        * during the Taliban's secret set-up (``is_secret_from``: before the USMC has seen
          anything), every Taliban unit already deployed: its point is drawn uniformly from its
          whole zone and its Hidden flag cleared (the hide choices are asked again).

        What is *not* re-sampled: the inference a player could draw from the course of play
        (a failed spot roll, a Fog of War card on an unseen team, how many Taliban activations
        the USMC saw), so the draw is a wider prior than the exact posterior, never a narrower
        one. The copy's history, events and roll log are emptied (they name the secret points):
        it is a search state, not a record.
        """
        other = State.determinize(self, player, rng)
        enemy = SIDE_UNITS[player ^ 1]
        setup_secret = player == USMC and self.setup_stage < 2
        unknown = [u for u in enemy if self.pos[u] >= 0 and (self.hidden[u] or setup_secret)]
        if not unknown:
            return other
        other.history = []
        other.events = []
        other._rolls = []
        other._legal_cache = None
        other._mask_cache = None
        table = self.sc.table
        woods = table.in_woods
        taken = {self.pos[u] for u in range(NUM_UNITS) if self.pos[u] >= 0 and u not in unknown}
        profiles = self.sc.profiles
        support = list(other.support)
        for u in unknown:
            zone = self.sc.taliban_deploy_points.get(u + 1, ())
            if setup_secret:
                other.hidden[u] = 0
                points = [p for p in zone if p not in taken]
            else:
                points = [p for p in zone if woods[p] and p not in taken]
                points = points or [p for p in zone if p not in taken]
            if not points:  # a unit with no zone (custom positions): anywhere it could hide
                points = [p for p in range(NUM_POINTS) if (woods[p] or setup_secret) and p not in taken]
            other.pos[u] = points[rng.randrange(len(points))]
            taken.add(other.pos[u])
            prof = profiles[u]
            other.figs[u] = [0] * len(FIGURE_STATES)
            other.figs[u][OK] = max(prof.figures, 1)
            other.tq[u] = prof.tq
            other.morale[u] = prof.morale
            other.armor[u] = prof.armor
            other.supply[u] = prof.supply
            support[u] = prof.support
            for name in self._UNIT_FLAGS:
                getattr(other, name)[u] = 0
        other.support = tuple(support)
        return other


_HANDLERS = {
    D_DEPLOY: ForceOnForceState._on_deploy,
    D_HIDE: ForceOnForceState._on_hide,
    D_ATTACH: ForceOnForceState._on_attach,
    D_AIRSTRIKE: ForceOnForceState._on_airstrike,
    D_OVERWATCH: ForceOnForceState._on_overwatch,
    D_SELECT: ForceOnForceState._on_select,
    D_ACTION: ForceOnForceState._on_action,
    D_MOVE: ForceOnForceState._on_move,
    D_TARGET: ForceOnForceState._on_target,
    D_SPLIT_TARGET: ForceOnForceState._on_split_target,
    D_SPLIT_COUNT: ForceOnForceState._on_split_count,
    D_SPLIT_SUPPORT: ForceOnForceState._on_split_support,
    D_HANDOFF: ForceOnForceState._on_handoff,
    D_DECLARE: ForceOnForceState._on_declare,
    D_OW: ForceOnForceState._on_ow,
    D_RETURN: ForceOnForceState._on_return,
    D_FOW_UNIT: ForceOnForceState._on_fow_unit,
    D_FOW_POINT: ForceOnForceState._on_fow_point,
}
_STEPS = {
    ST_SETUP: ForceOnForceState._st_setup,
    ST_TURN_START: ForceOnForceState._st_turn_start,
    ST_OVERWATCH: ForceOnForceState._st_overwatch,
    ST_SELECT: ForceOnForceState._st_select,
    ST_END_ACTIVATION: ForceOnForceState._st_end_activation,
    ST_DECLARE: ForceOnForceState._st_declare,
    ST_OW: ForceOnForceState._st_ow,
    ST_ROLL: ForceOnForceState._st_roll,
    ST_RESOLVE: ForceOnForceState._st_resolve,
    ST_RETURNS: ForceOnForceState._st_returns,
    ST_AFTER_WINDOW: ForceOnForceState._st_after_window,
    ST_END_TURN: ForceOnForceState._st_end_turn,
}
