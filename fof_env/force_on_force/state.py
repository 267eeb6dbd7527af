"""Force on Force rules engine: one :class:`ForceOnForceState` per position, for any scenario.

Seeds: ``000_294bccfd88f0ebda.txt`` (quick start + "Lost & Found") and
``003_b1b2d2a6d4b3bab2.txt`` (full infantry rules). Every departure or gap is in
``rulings.md`` beside this file.

The engine is composed of modules, each declaring itself as a
:class:`~fof_env.force_on_force.rule_module.RuleModule`: the concern modules
:mod:`~fof_env.force_on_force.sequence` (set-up, turns, portions, activations),
:mod:`~fof_env.force_on_force.reaction` (the reaction window),
:mod:`~fof_env.force_on_force.fire` (firepower, defence, split fire, an attack),
:mod:`~fof_env.force_on_force.casualties` (hits, morale, casualty checks, escorts),
:mod:`~fof_env.force_on_force.movement`, :mod:`~fof_env.force_on_force.fog`
(the D10 Fog of War table) and the scenario rule modules of :mod:`fof_env.force_on_force.rules`
(``ambush``, ``downed_pilot``, ``irregulars``, ``out_of_contact`` ...), which a scenario switches on (or the
full rules always apply). The module list is
:data:`fof_env.force_on_force.modules.MODULES`; from it this module builds, and nothing is looked up by a
method's name:

* the state class: the modules' mixins (their queries, handlers and hooks) over :class:`~fof_env.core.game.State`;
* the state's slots: :data:`CORE_SLOTS` (the game, the units' points, figures and profile values, the turn
  machine, the kernel's bookkeeping) then each module's declared slots; ``clone`` copies each as its
  declaration says (lists shallow, figure rows each, values shared), the flags a module declares for the turn
  are cleared at the end of each turn (``_TURN_FLAGS``) and those it declares for the unit are cleared for a
  unit that enters play anew (``_UNIT_FLAGS``); a blank state takes every declared default
  (:func:`fof_env.force_on_force.position.blank_state`);
* the decision table: each decision kind's legal-action generator, handler, owner (the player deciding) and
  context, registered by the one module that owns the kind (``_legal_actions``, ``_apply``,
  ``current_player`` and ``decision`` read it);
* the turn machine: each automatic step's function, registered by its module (``_run``);
* the hooks: each game's set-up holds, by hook point (``unit_pinned``, ``unit_moved``, ``unit_arrived``,
  ``unit_wiped``, ``turn_ended``, ``turn_end_victory``, ``victory_points``, ``auto_victory``, ``score``:
  :data:`~fof_env.force_on_force.rule_module.HOOK_POINTS`), the hook functions of the modules its scenario
  switches on (``state.sc.hooks``); the shared code calls them there and names no rule module.

This module holds the core slots, the queries shared by every module, and the driver.

Players are the scenario's two sides (0 and 1, in the file's order); units are numbered in
the file's order (:mod:`~fof_env.force_on_force.layout`), and the action space is laid out
from the scenario's table and order of battle. "Lost & Found" (players 0 = Taliban, 1 = USMC;
units ``tal.1``-``tal.4``, ``tal.R`` (reinforcements raised by Fog of War), ``usmc.A``-``usmc.C``;
an 18 x 18 grid of points 2" apart) has ``Discrete(354)``:

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
``353`` yes       call the air strike; in ``choose_action``, a WWII AFV opens or closes its
                  hatch (rules/wwii_vehicles.py, rulings R87)
================  ==============================================================

Decisions (``state.decision.kind``), each owned by the player who makes it:
``deploy``, ``declare_hidden``, ``attach_leader``, ``call_airstrike``,
``declare_overwatch``, ``select_unit``, ``choose_action``, ``move_target``,
``fire_target`` (also after a move: ``pass`` declines), ``split_target``,
``split_dice``, ``split_support``, ``handoff_target``, ``declare_interrupt``,
``overwatch_fire``, ``return_fire``, ``fog_of_war_unit``, ``reinforce_point``.
With the ``wwii_first_aid`` rule module (:mod:`~fof_env.force_on_force.rules.wwii`): ``call_medic`` (a medic
unit, or ``pass``) and ``walking_wounded`` (``hold``: he stays, ``exit``: he goes to the rear).
Choices with nothing to choose (a reactor that can do nothing, a portion with no
unit able to act) are skipped by the engine; declining is always an explicit action.
With the WWII Fog of War deck (:mod:`~fof_env.force_on_force.rules.wwii_fog`) ``fog_of_war_unit``
also offers a held card (a unit, or ``pass`` to keep it) and ``reinforce_point`` asks for Swiss
Cheese's feature (or ``pass``), or where a card reserve enters (:mod:`~fof_env.force_on_force.rules.wwii_reserves`); with WWII close air support (:mod:`~fof_env.force_on_force.rules.wwii_air`)
``call_airstrike`` lists the target units and ``pass``.
"""

from __future__ import annotations

import random
import re
from typing import Any

import numpy as np

from fof_env.core.events import EventLog
from fof_env.core.game import Decision, State
from fof_env.force_on_force.constants import (
    AUTO,
    D_DEPLOY,
    D_FOW_POINT,
    D_HIDE,
    FIGURE_STATES,
    KIND_NAMES,
    LIGHT,
    OK,
    ST_SETUP,
    TERMINAL,
)
from fof_env.force_on_force.modules import MODULES
from fof_env.force_on_force.rule_module import (
    BOOKKEEPING,
    LIST,
    NO_DEFAULT,
    ROWS,
    TURN,
    UNIT,
    VALUE,
    Slot,
    kind_table,
    slot_table,
    step_table,
)
from fof_env.force_on_force.rules.wwii_fog import SHUFFLE, FogCardDrawn
from fof_env.force_on_force.victory import scenario_victory_points

_COUNT_TEXT = re.compile(r"n[1-9][0-9]?", re.ASCII)  # "n1" .. "n11": a split-fire count


def _profiles(field: str):
    """The default of a per-unit slot read from the units' profiles (``sc.profiles``)."""
    return lambda s: [getattr(p, field) for p in s.sc.profiles]


# the state's own slots: the game, the units on the table, the turn machine, the kernel's bookkeeping
CORE_SLOTS = (
    Slot("game", BOOKKEEPING),
    Slot("sc", VALUE),  # the game's static set-up (Setup)
    Slot("full", VALUE, default=lambda s: s.game.rules == "full"),
    Slot("pos", LIST, per_unit=True, default=-1),  # each unit's point, -1: off the table
    Slot("figs", ROWS, default=lambda s: [[0] * len(FIGURE_STATES) for _ in range(s.NUM_UNITS)]),
    Slot("tq", LIST, per_unit=True, default=_profiles("tq")),
    Slot("morale", LIST, per_unit=True, default=_profiles("morale")),
    Slot("armor", LIST, per_unit=True, default=_profiles("armor")),
    Slot("support", VALUE, default=lambda s: tuple(p.support for p in s.sc.profiles)),  # by unit, best first
    Slot("supply", LIST, per_unit=True, default=_profiles("supply")),
    Slot("kind", VALUE, default=AUTO),  # the decision kind now (AUTO: the turn machine runs)
    Slot("step", VALUE, default=ST_SETUP),  # the turn machine's next automatic step
    *(Slot(name, BOOKKEEPING) for name in ("dice", "history", "events", "_rolls", "_start", "_legal_cache",
                                           "_mask_cache")),
)  # fmt: skip
_SLOTS = slot_table(MODULES, CORE_SLOTS)
_MIXINS = tuple(m.mixin for m in MODULES if m.mixin is not None)  # named: Cython cannot compile a genexpr base


class ForceOnForceState(*_MIXINS, State):
    """A Force on Force position; see the module docstring for actions and decisions.

    Instances are of the scenario's state class (:func:`fof_env.force_on_force.layout.state_class`),
    which adds the layout's numbers (``PASS``, ``UNIT0``, ``UNIT_NAMES`` ...) as class attributes.
    """

    __slots__ = tuple(slot.name for slot in _SLOTS)
    _LIST_SLOTS = tuple(slot.name for slot in _SLOTS if slot.copy == LIST)  # a clone copies each list
    _SCALAR_SLOTS = tuple(slot.name for slot in _SLOTS if slot.copy == VALUE)  # a clone shares each value
    _ROW_SLOTS = tuple(slot.name for slot in _SLOTS if slot.copy == ROWS)  # a clone copies each row
    _BLANK = tuple(slot for slot in _SLOTS if slot.default is not NO_DEFAULT)  # set by a blank state
    # per-unit flags and counts a unit's history sets (cleared for a re-sampled hidden unit or a unit entering)
    _UNIT_FLAGS = tuple(slot.name for slot in _SLOTS if slot.per_unit and slot.reset in (TURN, UNIT))
    _TURN_FLAGS = tuple(slot.name for slot in _SLOTS if slot.per_unit and slot.reset == TURN)  # cleared each turn

    def clone(self) -> ForceOnForceState:
        other = type(self).__new__(type(self))
        other._copy_bookkeeping(self)
        for name in self._LIST_SLOTS:
            setattr(other, name, getattr(self, name)[:])
        for name in self._SCALAR_SLOTS:
            setattr(other, name, getattr(self, name))
        for name in self._ROW_SLOTS:
            setattr(other, name, [row[:] for row in getattr(self, name)])
        return other

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
        return _KINDS[self.kind].owner(self)

    @property
    def decision_kind(self) -> str:
        return KIND_NAMES[self.kind]

    @property
    def decision(self) -> Decision:
        k = self.kind
        ctx: dict[str, Any] = {"turn": self.turn, "initiative": self.SIDES[self.initiative]}
        if k == TERMINAL:
            return Decision(KIND_NAMES[k], -1, ctx)
        entry = _KINDS[k]
        if entry.context is not None:
            entry.context(self, ctx)
        return Decision(KIND_NAMES[k], entry.owner(self), ctx)

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
        return self.UNIT_SIDE[u] == player or not self.hidden[u]

    def victory_points(self) -> tuple[int, int]:
        """(side 0 VP, side 1 VP) as the scenario's ``victory`` terms and rule modules count them now
        ("Lost & Found": 000 "Victory Points")."""
        vp = scenario_victory_points(self)  # the terms counted in one pass (count_victory_term says what each counts)
        for hook in self.sc.hooks.victory_points:  # the rule modules' terms (the downed pilot's VP)
            hook(self, vp)
        return vp[0], vp[1]

    def auto_victor(self) -> int:
        """The side that has won outright by a rule module's condition (the downed pilot's hunters), -1: none."""
        for hook in self.sc.hooks.auto_victory:
            side = hook(self)
            if side >= 0:
                return side
        return -1

    @property
    def score(self) -> dict[str, int]:
        """Both sides' VP (``<side>_vp``) and the rule modules' entries (the downed pilot rule: the hunters'
        automatic victory, ``<side>_auto_victory``)."""
        vp = self.victory_points()
        out = {f"{self.SIDES[0]}_vp": vp[0], f"{self.SIDES[1]}_vp": vp[1]}
        for hook in self.sc.hooks.score:
            hook(self, out)
        return out

    def returns(self) -> tuple[float, float]:
        if self.kind != TERMINAL:
            return (0.0, 0.0)
        winner = self.auto_victor()  # e.g. the pilot still on the table at the deadline: his hunters win
        if winner >= 0:
            return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
        tal, usmc = self.victory_points()
        if tal > usmc:
            return (1.0, -1.0)
        if usmc > tal:
            return (-1.0, 1.0)
        return (0.0, 0.0)

    def observation(self, player: int) -> np.ndarray:
        from fof_env.force_on_force.observation import encode

        return encode(self, player)

    def action_to_str(self, action: int) -> str:
        if 0 <= action < self.NUM_POINTS:
            return self.sc.table.name(action)
        if self.UNIT0 <= action < self.COUNT0:
            return self.UNIT_NAMES[action - self.UNIT0]
        if self.COUNT0 <= action < self.PASS:
            return f"n{action - self.COUNT0 + 1}"
        if action in self.NAMED:
            return self.NAMED[action]
        raise ValueError(f"action {action!r} is not in [0, {self.NUM_ACTIONS})")

    def str_to_action(self, text: str) -> int:
        if text in self.NAMED_BY_TEXT:
            return self.NAMED_BY_TEXT[text]
        if text in self.UNIT_NAMES:
            return self.UNIT0 + self.UNIT_NAMES.index(text)
        if not isinstance(text, str):
            raise ValueError(f"an action text is a string, got {text!r}")
        if _COUNT_TEXT.fullmatch(text) and int(text[1:]) <= self.MAX_COUNT:  # canonical only: not "n01", "n١"
            return self.COUNT0 + int(text[1:]) - 1
        try:
            return self.sc.table.index(text)
        except ValueError:
            table = self.sc.table
            examples = " or ".join(repr(self.UNIT_NAMES[units[0]]) for units in self.SIDE_UNITS if units)
            raise ValueError(
                f"cannot read action {text!r}: use a point like {table.names[0]!r}..{table.names[-1]!r}, a unit "
                f"like {examples}, a count 'n1'..'n{self.MAX_COUNT}', or one of {', '.join(self.NAMED.values())}"
            ) from None

    def _legal_actions(self) -> list[int]:
        return _KINDS[self.kind].legal(self)

    def _apply(self, action: int) -> None:
        _KINDS[self.kind].handle(self, action)
        self._run()

    def _auto(self, step: int) -> None:
        self.kind = AUTO
        self.step = step

    def _run(self) -> None:
        """Advance through everything that needs no decision; stop at the next decision (whose step
        may leave its legal actions in ``_legal_cache``, computed once)."""
        self._legal_cache = self._mask_cache = None
        while self.kind == AUTO:
            if self.fow_queue:
                self._resolve_fow()
            else:
                _STEPS[self.step](self)

    def to_position(self) -> dict[str, Any]:
        """This state in the position format (:mod:`fof_env.force_on_force.position`)."""
        from fof_env.force_on_force.position import to_position

        return to_position(self)

    def __str__(self) -> str:
        """The umpire's text picture: every unit, Hidden ones included, and both Fog of War hands (a side's
        own picture is :meth:`view_text`)."""
        from fof_env.force_on_force.render import render_text

        return render_text(self)

    def view_text(self, player: int) -> str:
        """The text picture as ``player`` may see it (no hidden enemy units)."""
        from fof_env.force_on_force.render import render_text

        return render_text(self, viewer=player)

    def event_hidden_from(self, event, player: int) -> bool:
        """Whether ``event`` tells ``player`` about an enemy unit that is hidden from him now
        (a mortar round or a Fog of War card on a hidden team must not give it away), or a Fog of War
        card the other side keeps in its hand (and the deck's shuffle, which would give the order away)."""
        if self.cards is not None:
            if getattr(event, "purpose", None) == SHUFFLE:
                return True
            if isinstance(event, FogCardDrawn) and event.held and event.side != self.SIDES[player]:
                return True
        for key in ("unit", "target", "shooter"):
            name = getattr(event, key, None)
            if name in self.UNIT_NAMES:
                u = self.UNIT_NAMES.index(name)
                if not self.visible_to(u, player):
                    return True
        return False

    def is_secret_from(self, player: int) -> bool:
        """Whether the current decision, its action and its effects must be kept from ``player``:
        where the ambushing side deploys and which units it hides, before the other side can see anything;
        where a Hunted! sniper team is placed (rules/wwii_reserves.py, rulings R70)."""
        if self.kind == D_FOW_POINT and self.cards is not None:
            return self.fow_queue[0][1] != player and self._card_key() == "hunted"
        return self.kind in (D_DEPLOY, D_HIDE) and self._secret_setup(player)

    def is_unseen_placement(self) -> bool:
        """Whether the current decision places a unit where the other side has nothing to answer it
        with: a deployment point chosen while no enemy unit is on the table (an ambush, the side that
        sets up first), or where a Hunted! sniper team is placed in secret. Bots draw these from a
        mixed strategy (``agents.mixed_setup``)."""
        if self.kind == D_FOW_POINT and self.cards is not None:
            return self._card_key() == "hunted"
        if self.kind != D_DEPLOY:
            return False
        pos = self.pos
        return not any(pos[t] >= 0 for t in self.SIDE_UNITS[1 - self.UNIT_SIDE[self.queue[0]]])

    def _secret_setup(self, player: int) -> bool:
        """Whether the set-up step now is the ambushing side's deployment or hiding, kept from ``player``."""
        ambush = self.sc.ambush_side
        steps = self.sc.deployment
        stage = self.setup_stage
        return (0 <= ambush != player and stage < len(steps) and steps[stage][0] == ambush
                and steps[stage][1] in ("deploy", "hide"))  # fmt: skip

    def _setup_step(self) -> str | None:
        """The set-up step now (``deploy``, ``hide``, ``attach``), None once set-up is over."""
        stage = self.setup_stage
        return self.sc.deployment[stage][1] if stage < len(self.sc.deployment) else None

    def determinize(self, player: int, rng: random.Random) -> ForceOnForceState:
        """A copy for ``player``'s search in which what ``player`` may not know is re-sampled from
        ``rng`` (a ``random.Random``), using only what ``player`` may know (R27):

        * the future dice: fresh ``SeededDice`` seeded from ``rng`` (the kernel default);
        * every enemy unit hidden from ``player`` (only the ambushing side's units hide):

          - its point: a uniform draw among the woods points of its deployment zone
            (a Hidden unit started in the woods of its zone and has not moved since: it
            would be revealed), less the points where ``player`` sees a unit and the points
            already drawn for another hidden unit; failing that its whole zone less those
            points, then any woods point of the table;
          - its strength and status, which no enemy observation shows: back to its order of
            battle (the unit profile: every figure unhurt, TQ, morale, body armour, support
            weapons, supply) with every per-turn and Fog of War flag cleared (not activated,
            no Overwatch, not pinned, no excellent position / Tougher ...). It stays Hidden.

          Units are drawn in unit order, each from a list that depends on public facts only,
          so the copy is the same for two states that differ only in hidden facts.
        * during the ambushing side's secret set-up (``is_secret_from``: before the other side has
          seen anything), every unit of it already deployed: its point is drawn uniformly from its
          whole zone and its Hidden flag cleared (the hide choices are asked again).
        * with the WWII Fog of War deck: the deck's order and the other side's hand, redrawn from
          the deck plus that hand (the hand's size kept; rulings R60-R61).

        What is *not* re-sampled: the inference a player could draw from the course of play
        (a failed spot roll, a Fog of War card on an unseen team, how many enemy activations
        the player saw), so the draw is a wider prior than the exact posterior, never a narrower
        one. The copy's history, events and roll log are emptied (they name the secret points):
        it is a search state, not a record.
        """
        other = State.determinize(self, player, rng)
        if self.cards is not None:  # the deck's order and the other side's hand (rules/wwii_fog.py)
            self._determinize_cards(other, player, rng)
        enemy = self.SIDE_UNITS[player ^ 1]
        setup_secret = self._secret_setup(player)
        unknown = [u for u in enemy if self.pos[u] >= 0 and (self.hidden[u] or setup_secret)]
        if not unknown:
            return other
        other.history = []
        other.events = EventLog()
        other._rolls = []
        other._legal_cache = None
        other._mask_cache = None
        table = self.sc.table
        woods = table.in_woods
        taken = {self.pos[u] for u in range(self.NUM_UNITS) if self.pos[u] >= 0 and u not in unknown}
        profiles = self.sc.profiles
        support = list(other.support)
        for u in unknown:
            zone = self.sc.deploy_points[u]
            if setup_secret:
                other.hidden[u] = 0
                points = [p for p in zone if p not in taken]
            else:
                points = [p for p in zone if woods[p] and p not in taken]
                points = points or [p for p in zone if p not in taken]
            if not points:  # a unit with no zone (custom positions): anywhere it could hide
                points = [p for p in range(self.NUM_POINTS) if (woods[p] or setup_secret) and p not in taken]
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



_KINDS = kind_table(MODULES, len(KIND_NAMES))  # decision kind -> its DecisionKind (None: "terminal")
_STEPS = step_table(MODULES)  # automatic step -> its function
