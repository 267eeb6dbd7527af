"""Scenario rule module ``downed_pilot`` (000, "Lost & Found" "Special Rules"): a pilot the scenario's
rescuing side must find and escort off its edge. Contact when a unit of that side comes within 1" of
him; he moves with the unit he is with and may be handed to another unit nearby; if that unit is
wiped out he flees to cover away from the nearest enemy; VP for contact and for the escort, and an
automatic victory for the other side if he is still on the table at the deadline.

The module declares its state slots (``MODULE``): ``pilot_pos``, ``pilot_unit``, ``contact``, ``pilot_exit``
and ``auto_win`` (all inert, -1 / 0, in a scenario without the rule); its settings are
``state.sc.pilot`` (:class:`~fof_env.force_on_force.game.PilotRule`)."""

from __future__ import annotations

from typing import Any

from fof_env.core.downed_pilot import flee_point, within
from fof_env.core.errors import PositionError
from fof_env.force_on_force import events as ev
from fof_env.force_on_force.constants import CONTACT_IN, D_ACTION, D_HANDOFF
from fof_env.force_on_force.position_fields import count, flag, point
from fof_env.force_on_force.rule_module import (
    DecisionKind,
    PositionKeys,
    RuleModule,
    Slot,
    actor_context,
    actor_side,
)


class DownedPilot:
    """Mixin of :class:`~fof_env.force_on_force.state.ForceOnForceState` (see the module docstring)."""

    __slots__ = ()

    def _handoff_targets(self) -> list[int]:
        u = self.actor
        dist = self.sc.table.dist[self.pos[u]]
        return [
            t
            for t in self.SIDE_UNITS[self.sc.pilot.side]
            if t != u and self.active(t) and within(dist, self.pos[t], CONTACT_IN)
        ]

    def _handoff_actions(self) -> list[int]:
        """``handoff_target``: the friendly units near enough to take the pilot."""
        return [self.UNIT0 + t for t in self._handoff_targets()]

    def _on_handoff(self, action: int) -> None:
        t = action - self.UNIT0
        self.pilot_unit = t
        self.pilot_pos = self.pos[t]
        self.events.append(ev.Note(f"pilot handed off from {self.UNIT_NAMES[self.actor]} to {self.UNIT_NAMES[t]}"))
        self.kind = D_ACTION

    def _pilot_flees(self) -> None:
        """ "If a unit the pilot is with is wiped out, the pilot will move to the nearest cover
        that takes him away from the nearest Taliban unit" (the nearest enemy unit in sight;
        :func:`fof_env.core.downed_pilot.flee_point`, terrain cover)."""
        self.pilot_unit = -1
        table = self.sc.table
        hunters = self.SIDE_UNITS[1 - self.sc.pilot.side]
        enemies = [self.pos[t] for t in hunters if self.active(t) and not self.hidden[t]]
        best = flee_point(table.dist, self.pilot_pos, enemies, table.terrain_cover)
        if best >= 0:
            self.pilot_pos = best
            self.events.append(
                ev.Note(f"the pilot's unit is wiped out: he moves to cover at {table.name(best)}")
            )

    def _pilot_follows(self, u: int, dest: int) -> None:
        """The pilot moves with the unit he is with; off its edge, he is escorted out (VP)."""
        self.pilot_pos = dest
        if dest < 0:
            self.pilot_exit = self.turn
            self.pilot_unit = -1
            self.events.append(ev.Note(f"{self.UNIT_NAMES[u]} escorts the pilot off the table in turn {self.turn}"))

    def _pilot_contact(self, u: int, dest: int, dist) -> None:
        """A rescuing unit arriving within 1" of the pilot (on his point or the next) takes him along."""
        if self.pilot_unit < 0 and within(dist, self.pilot_pos, CONTACT_IN):
            self.pilot_unit = u
            self.pilot_pos = dest  # "The pilot can be moved as part of that fireteam."
            if not self.contact:
                self.contact = 1
                self.events.append(ev.Note(f"{self.UNIT_NAMES[u]} makes contact with the pilot"))

    def _pilot_vp(self) -> int:
        """000: "makes contact with pilot = 3 VP", "escorts the pilot off table prior to Turn 6 = 10 VP",
        "by end of Turn 8 = 7 VP" (the numbers from the scenario's settings)."""
        rule = self.sc.pilot
        vp = rule.contact_vp if self.contact else 0
        if self.pilot_exit:
            vp += rule.early_escort_vp if self.pilot_exit < rule.early_escort_before_turn else rule.escort_vp
        return vp


def _follow(state, u: int, _here: int, dest: int) -> None:
    if state.pilot_unit == u:
        state._pilot_follows(u, dest)


def _contact(state, u: int, dist) -> None:
    if state.UNIT_SIDE[u] == state.sc.pilot.side:
        state._pilot_contact(u, state.pos[u], dist)


def _flee(state, u: int) -> None:
    if state.pilot_unit == u:
        state._pilot_flees()


def _deadline(state) -> bool:
    """ "Pilot still on table at end of Turn 8: VICTORY!" (for his hunters)."""
    if state.turn >= state.sc.pilot.deadline_turn and state.pilot_pos >= 0:
        state.auto_win = 1
        state.events.append(ev.Note(f"the pilot is still on the table at the end of turn {state.turn}"))
        return True
    return False


def _add_vp(state, vp: list[int]) -> None:
    vp[state.sc.pilot.side] += state._pilot_vp()


def _hunters_won(state) -> int:
    return 1 - state.sc.pilot.side if state.auto_win else -1


def _score(state, out: dict[str, int]) -> None:
    out[f"{state.SIDES[1 - state.sc.pilot.side]}_auto_victory"] = int(state.auto_win)


def read_position(s, position: dict[str, Any], _seed) -> None:
    """The position's ``pilot`` block (``at``, ``with``, ``contact``, ``exited_turn``; defaults: where the
    scenario puts him, with no unit)."""
    setup = s.sc
    if setup.pilot is None:
        if "pilot" in position:
            raise PositionError("position['pilot']: this scenario has no downed pilot")
        return
    pilot = position.get("pilot", {})
    names = s.UNIT_NAMES
    if not isinstance(pilot, dict) or set(pilot) - {"at", "with", "contact", "exited_turn"}:
        raise PositionError("position['pilot'] takes 'at', 'with', 'contact', 'exited_turn'")
    s.pilot_exit = count(pilot.get("exited_turn", 0), "pilot.exited_turn", s.turn)
    s.pilot_pos = -1 if s.pilot_exit else point(setup, pilot.get("at", setup.table.name(setup.pilot.start)),
                                                 "pilot.at")  # fmt: skip
    with_unit = pilot.get("with")
    if with_unit is not None:
        rescuers = [names[u] for u in s.SIDE_UNITS[setup.pilot.side]]
        if not isinstance(with_unit, str) or with_unit not in rescuers:
            raise PositionError(f"pilot.with must be a {setup.sides[setup.pilot.side].name} unit, got {with_unit!r}")
        if s.pilot_exit:
            raise PositionError("pilot.with: the pilot has left the table (exited_turn), so he is with no unit")
        s.pilot_unit = names.index(with_unit)
        if s.pos[s.pilot_unit] < 0:
            raise PositionError(f"pilot.with: {with_unit} is not on the table")
        s.pilot_pos = s.pos[s.pilot_unit]
    s.contact = 1 if flag(pilot.get("contact", with_unit is not None), "pilot.contact") else 0


def write_position(s, out: dict[str, Any]) -> None:
    if s.sc.pilot is not None:
        out["pilot"] = {
            "at": s.sc.table.name(s.pilot_pos) if s.pilot_pos >= 0 else None,
            "with": s.UNIT_NAMES[s.pilot_unit] if s.pilot_unit >= 0 else None,
            "contact": bool(s.contact),
            "exited_turn": s.pilot_exit,
        }


MODULE = RuleModule(
    "downed_pilot",
    DownedPilot,
    kinds=(DecisionKind(D_HANDOFF, DownedPilot._handoff_actions, DownedPilot._on_handoff, actor_side,
                        actor_context),),
    slots=(
        Slot("pilot_pos", default=lambda s: s.sc.pilot.start if s.sc.pilot is not None else -1),  # -1: off
        Slot("pilot_unit", default=-1),  # the unit he is with
        Slot("contact", default=0),  # a rescuing unit has made contact
        Slot("pilot_exit", default=0),  # the turn he was escorted off (0: not yet)
        Slot("auto_win", default=0),  # still on the table at the deadline: his hunters' automatic victory
    ),
    hooks={
        "unit_moved": _follow,
        "unit_arrived": _contact,
        "unit_wiped": _flee,
        "turn_end_victory": _deadline,
        "victory_points": _add_vp,
        "auto_victory": _hunters_won,
        "score": _score,
    },
    position=PositionKeys(("pilot",), read_position, write_position),
    active=lambda sc: sc.pilot is not None,
)  # fmt: skip
