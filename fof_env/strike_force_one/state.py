"""Strike Force One rules engine: one :class:`StrikeForceOneState` per position.

Action space (``Discrete(80)``), the same for every decision; the mask says which
entries mean something now:

====================  =========================================================
``[0, 68)``           hex ``h`` (map order ``0101, 0102, ... 0808``): a move
                      destination, an attack target, a hex whose units join the
                      attack, or a retreat hex
``[68, 78)``          unit ``u`` (``sov.A``-``sov.F`` are 68-73, ``us.A``-``us.D``
                      74-77): the unit to move, or the unit that advances
``78`` ``pass``       end the movement / combat phase, or decline to advance
``79`` ``resolve``    roll the die for the declared attack
====================  =========================================================

Decisions (``state.decision.kind``), each owned by the player who makes it:

* ``select_unit`` (phasing player): a unit that has not moved and can move, or ``pass``.
* ``move_target``: a hex the selected unit can reach (rules 4.2-4.5, 7.1, 8.1), or
  its own hex to leave it where it is.
* ``attack_target``: an enemy hex that can be attacked now (5.1-5.4, 7.2, 9.1), or ``pass``.
* ``attack_add``: an adjacent friendly hex whose units join the attack; ``resolve``
  once the attack has a column on the Combat Results Table.
* ``retreat_hex``: the owner of a retreating unit picks its hex (5.7, 7.5); the
  **defender** after "Defender Retreats", the attacker after "Attacker Retreats".
  A unit with no legal retreat is eliminated without a decision.
* ``advance``: after "Defender Eliminated"/"Defender Retreats" the attacker may
  advance one participating unit into the vacated hex, or ``pass``.

A phase in which the phasing player has no legal choice but to end it is ended
by the engine (it is not a decision). Player 0 is the Soviet side, player 1 the U.S.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fof_env.core.game import Decision, State
from fof_env.strike_force_one import events as ev
from fof_env.strike_force_one.constants import (
    ADVANCE,
    ATTACK_ADD,
    ATTACK_TARGET,
    COLUMN_NAMES,
    KIND_NAMES,
    MAX_COLUMN,
    MOVE_TARGET,
    NUM_ACTIONS,
    NUM_HEXES,
    PASS,
    PHASES,
    RESOLVE,
    RETREAT_HEX,
    SELECT_UNIT,
    TERMINAL,
    UNIT0,
    UNIT_BY_NAME,
)
from fof_env.strike_force_one.data import (
    NUM_UNITS,
    SIDE_UNITS,
    SIDES,
    UNIT_LETTERS,
    UNIT_NAMES,
    UNIT_SIDE,
)
from fof_env.strike_force_one.movement import bits_to_list, can_move, reachable_bits


class StrikeForceOneState(State):
    """A Strike Force One position; see the module docstring for actions and decisions."""

    __slots__ = (
        "game", "sc", "optional", "stack_limit", "unit_hex", "turn", "phase", "kind", "done",
        "attacked", "selected", "target", "attack_hexes", "attack_units", "retreat_queue",
        "retreat_result", "advance_units", "_winner", "_reach", "dice", "history", "events",
        "_rolls", "_start", "_legal_cache", "_mask_cache",
    )  # fmt: skip

    # ------------------------------------------------------------------ set-up
    def _setup(
        self, game, unit_hex: list[int], turn: int, phase: int, done: int, attacked: int, over: bool = False
    ) -> None:
        self.game = game
        self.sc = game.scenario
        self.optional = game.optional_rules
        self.stack_limit = 2 if self.optional else 1
        self.unit_hex = unit_hex
        self.turn = turn
        self.phase = phase
        self.done = done
        self.attacked = attacked
        self.selected = -1
        self.target = -1
        self.attack_hexes: list[int] = []
        self.attack_units: list[int] = []
        self.retreat_queue: list[int] = []
        self.retreat_result = ""
        self.advance_units: list[int] = []
        self._winner = -1
        self._reach: dict[int, tuple] = {}
        self.kind = SELECT_UNIT
        if over:
            self._finish()
        else:
            self._enter_phase(announce=True)

    def clone(self) -> StrikeForceOneState:
        other = StrikeForceOneState.__new__(StrikeForceOneState)
        other._copy_bookkeeping(self)
        other.sc = self.sc
        other.optional = self.optional
        other.stack_limit = self.stack_limit
        other.unit_hex = self.unit_hex[:]
        other.turn = self.turn
        other.phase = self.phase
        other.kind = self.kind
        other.done = self.done
        other.attacked = self.attacked
        other.selected = self.selected
        other.target = self.target
        other.attack_hexes = self.attack_hexes[:]
        other.attack_units = self.attack_units[:]
        other.retreat_queue = self.retreat_queue[:]
        other.retreat_result = self.retreat_result
        other.advance_units = self.advance_units[:]
        other._winner = self._winner
        other._reach = self._reach  # values are never mutated; replaced on change
        return other

    # ------------------------------------------------------------- public API
    @property
    def is_terminal(self) -> bool:
        return self.kind == TERMINAL

    @property
    def current_player(self) -> int | None:
        if self.kind == TERMINAL:
            return None
        if self.kind == RETREAT_HEX:
            return UNIT_SIDE[self.retreat_queue[0]]
        return self.phase >> 1

    @property
    def decision_kind(self) -> str:
        return KIND_NAMES[self.kind]

    @property
    def decision(self) -> Decision:
        kind = self.kind
        ctx: dict[str, Any] = {"turn": self.turn, "phase": PHASES[self.phase]}
        if kind == MOVE_TARGET:
            ctx["unit"] = UNIT_NAMES[self.selected]
            ctx["from"] = self.hex_name(self.unit_hex[self.selected])
        elif kind == ATTACK_ADD:
            ctx["target"] = self.hex_name(self.target)
            ctx["attackers"] = [UNIT_NAMES[u] for u in self.attack_units]
            ctx["differential"] = self._differential(self.attack_units, self.target)
        elif kind == RETREAT_HEX:
            u = self.retreat_queue[0]
            ctx["unit"] = UNIT_NAMES[u]
            ctx["from"] = self.hex_name(self.unit_hex[u])
            ctx["result"] = self.retreat_result
        elif kind == ADVANCE:
            ctx["into"] = self.hex_name(self.target)
            ctx["units"] = [UNIT_NAMES[u] for u in self.advance_units]
        player = -1 if kind == TERMINAL else self.current_player
        return Decision(KIND_NAMES[kind], player, ctx)  # type: ignore[arg-type]

    def returns(self) -> tuple[float, float]:
        if self._winner == 0:
            return (1.0, -1.0)
        if self._winner == 1:
            return (-1.0, 1.0)
        return (0.0, 0.0)

    @property
    def score(self) -> dict[str, int]:
        """Towns held by the Soviets and units left on each side."""
        alive = [sum(1 for u in SIDE_UNITS[s] if self.unit_hex[u] >= 0) for s in (0, 1)]
        return {"soviet_towns": self.soviet_towns(), "soviet_units": alive[0], "us_units": alive[1]}

    def soviet_towns(self) -> int:
        """Town hexes physically occupied by Soviet units (rule 6.0)."""
        sov = self._side_bits(0)
        return sum(1 for t in self.sc.towns if (sov >> t) & 1)

    def hex_name(self, h: int) -> str:
        return self.sc.grid.names[h]

    def units_at(self, h: int) -> list[int]:
        return [u for u in range(NUM_UNITS) if self.unit_hex[u] == h]

    def observation(self, player: int) -> np.ndarray:
        from fof_env.strike_force_one.observation import encode

        return encode(self, player)

    # ----------------------------------------------------------- action text
    def action_to_str(self, action: int) -> str:
        if 0 <= action < NUM_HEXES:
            return self.sc.grid.names[action]
        if UNIT0 <= action < PASS:
            return UNIT_NAMES[action - UNIT0]
        if action == PASS:
            return "pass"
        if action == RESOLVE:
            return "resolve"
        raise ValueError(f"no action {action!r}; actions are 0..{NUM_ACTIONS - 1}")

    def str_to_action(self, text: str) -> int:
        """Parse ``"0304"``, ``"sov.A"``/``"us.B"`` (or a bare letter for the player to move),
        ``"pass"`` or ``"resolve"``. Raises ValueError for anything else."""
        t = text.strip()
        low = t.lower()
        if low in ("pass", "end", "decline"):
            return PASS
        if low in ("resolve", "attack", "roll"):
            return RESOLVE
        if t in self.sc.grid.index:
            return self.sc.grid.index[t]
        if low in _UNIT_BY_LOWER:
            return UNIT0 + _UNIT_BY_LOWER[low]
        player = self.current_player
        if player is not None and len(t) == 1 and t.upper() in UNIT_LETTERS[player]:
            return UNIT0 + SIDE_UNITS[player][UNIT_LETTERS[player].index(t.upper())]
        raise ValueError(
            f"cannot read action {text!r}: use a hex like '0304', a unit like 'sov.A' or 'us.B', 'pass' or 'resolve'"
        )

    # ------------------------------------------------------------ occupancy
    def _side_bits(self, side: int) -> int:
        bits = 0
        uh = self.unit_hex
        for u in SIDE_UNITS[side]:
            h = uh[u]
            if h >= 0:
                bits |= 1 << h
        return bits

    def _count(self, side: int, h: int) -> int:
        uh = self.unit_hex
        return sum(1 for u in SIDE_UNITS[side] if uh[u] == h)

    def _place(self, u: int, h: int) -> None:
        self.unit_hex[u] = h
        self._reach = {}

    def _eliminate(self, u: int, reason: str) -> None:
        self.events.append(ev.UnitEliminated(UNIT_NAMES[u], self.hex_name(self.unit_hex[u]), reason))
        self._place(u, -1)

    # -------------------------------------------------------------- movement
    def _move_masks(self, side: int) -> tuple[int, int, int]:
        """(enemy-occupied, enemy-adjacent, friendly-full) hex bitsets for ``side``.

        Cached in ``_reach`` under key ``-1 - side`` until a unit changes hex.
        """
        cached = self._reach.get(-1 - side)
        if cached is not None:
            return cached
        uh = self.unit_hex
        nb = self.sc.neighbor_bits
        enemy = zoc = 0
        for v in SIDE_UNITS[1 - side]:
            h = uh[v]
            if h >= 0:
                enemy |= 1 << h
                zoc |= nb[h]
        own = 0
        full = 0
        for v in SIDE_UNITS[side]:
            h = uh[v]
            if h >= 0:
                bit = 1 << h
                if self.stack_limit == 1 or own & bit:
                    full |= bit
                own |= bit
        masks = self._reach[-1 - side] = (enemy, zoc, full)  # type: ignore[assignment]
        return masks

    def reachable(self, u: int) -> tuple[int, ...]:
        """Hexes unit ``u`` may end its move in this phase, excluding its own hex (sorted).

        Rules 4.2-4.5: a continuous path of at most four hexes; never into or
        through enemy-occupied hexes; woods impassable (basic) or two hexes (8.1);
        stop on entering a hex adjacent to an enemy; never step directly between
        two enemy-adjacent hexes; never end in a friendly-occupied hex (4.4) or a
        hex already holding two friendly units (7.1). See :mod:`.movement`.
        """
        cached = self._reach.get(u)
        if cached is None:
            enemy, zoc, full = self._move_masks(UNIT_SIDE[u])
            bits = reachable_bits(
                self.unit_hex[u], enemy, zoc, full, self.sc.woods_bits, self.optional, self.sc.dilation
            )
            cached = self._reach[u] = tuple(bits_to_list(bits))
        return cached

    def _movable_units(self) -> list[int]:
        side = self.phase >> 1
        done = self.done
        uh = self.unit_hex
        enemy, zoc, full = self._move_masks(side)
        sc = self.sc
        woods, optional, nb, dilation = sc.woods_bits, self.optional, sc.neighbor_bits, sc.dilation
        return [
            u
            for u in SIDE_UNITS[side]
            if uh[u] >= 0 and not (done >> u) & 1 and can_move(uh[u], enemy, zoc, full, woods, optional, nb, dilation)
        ]

    # ---------------------------------------------------------------- combat
    def _available_attack_hexes(self) -> dict[int, int]:
        """Friendly hexes whose units may all still attack this turn -> unit count (5.2, 7.2)."""
        uh = self.unit_hex
        done = self.done
        out: dict[int, int] = {}
        blocked = []
        for u in SIDE_UNITS[self.phase >> 1]:
            h = uh[u]
            if h >= 0:
                out[h] = out.get(h, 0) + 1
                if (done >> u) & 1:
                    blocked.append(h)
        for h in blocked:
            out.pop(h, None)
        return out

    def defense_value(self, h: int) -> int:
        """Defending units in ``h``, doubled in woods (8.2, 9.2, 9.3)."""
        n = self._count(1 - (self.phase >> 1), h)
        return 2 * n if self.sc.woods[h] else n

    def _differential(self, attackers: list[int], target: int) -> int:
        return len(attackers) - self.defense_value(target)

    def _attackable_targets(self) -> list[int]:
        """Enemy hexes that can be attacked now (5.1-5.3, 7.2, 9.1)."""
        avail = self._available_attack_hexes()
        if not avail:
            return []
        uh = self.unit_hex
        attacked = self.attacked
        defenders: dict[int, int] = {}
        spent = set()
        for u in SIDE_UNITS[1 - (self.phase >> 1)]:
            h = uh[u]
            if h >= 0:
                defenders[h] = defenders.get(h, 0) + 1
                if (attacked >> u) & 1:
                    spent.add(h)  # 5.2: no unit may be attacked more than once per turn
        neighbors = self.sc.grid.neighbors
        woods = self.sc.woods
        result = []
        for t, n in defenders.items():
            if t in spent:
                continue
            strength = 0
            for h in neighbors[t]:
                strength += avail.get(h, 0)
            if strength and strength >= (2 * n if woods[t] else n):
                result.append(t)
        result.sort()
        return result

    def _attack_add_options(self) -> list[int]:
        nbs = self.sc.grid.neighbor_sets
        return sorted(
            h
            for h in self._available_attack_hexes()
            if h in nbs[self.target] and h not in self.attack_hexes
        )

    def _resolve_attack(self) -> None:
        attackers = self.attack_units
        target = self.target
        defenders = self.units_at(target)
        differential = self._differential(attackers, target)
        column = min(differential, MAX_COLUMN)
        roll = self.roll(6, "combat")
        result = self.sc.crt[roll - 1][column]
        for u in attackers:
            self.done |= 1 << u
        for u in defenders:
            self.attacked |= 1 << u
        self.events.append(
            ev.AttackResolved(
                tuple(UNIT_NAMES[u] for u in attackers),
                tuple(UNIT_NAMES[u] for u in defenders),
                self.hex_name(target),
                differential,
                COLUMN_NAMES[column],
                roll,
                result,
            )
        )
        if result == "DE":
            for u in defenders:
                self._eliminate(u, "DE")
            self._begin_advance()
        elif result == "AE":
            for u in attackers:
                self._eliminate(u, "AE")
            self._to_attack_target()
        else:
            self.retreat_result = result
            self.retreat_queue = defenders if result == "DR" else list(attackers)
            self._next_retreat()

    def retreat_hexes(self, u: int) -> list[int]:
        """Legal retreat hexes of unit ``u`` (5.7; 7.5 under the optional rules)."""
        side = UNIT_SIDE[u]
        enemy, zoc, _ = self._move_masks(side)
        woods = self.sc.woods
        limit = self.stack_limit
        result = []
        for n in self.sc.grid.neighbors[self.unit_hex[u]]:
            if woods[n] or (enemy >> n) & 1 or (zoc >> n) & 1:
                continue
            if self._count(side, n) < limit:
                result.append(n)
        return result

    def _next_retreat(self) -> None:
        while self.retreat_queue:
            u = self.retreat_queue[0]
            if self.retreat_hexes(u):
                self.kind = RETREAT_HEX
                return
            self._eliminate(u, "no legal retreat")
            self.retreat_queue.pop(0)
        if self.retreat_result == "DR":
            self._begin_advance()
        else:
            self._to_attack_target()

    def _begin_advance(self) -> None:
        alive = [u for u in self.attack_units if self.unit_hex[u] >= 0]
        vacated = not any(self.unit_hex[u] == self.target for u in range(NUM_UNITS))
        if alive and vacated:
            self.advance_units = alive
            self.kind = ADVANCE
        else:
            self._to_attack_target()

    def _to_attack_target(self) -> None:
        self.attack_hexes = []
        self.attack_units = []
        self.advance_units = []
        self.retreat_queue = []
        self.target = -1
        if not self._offer_attack_targets():
            self._end_phase()

    # ---------------------------------------------------------------- phases
    def _enter_phase(self, announce: bool) -> None:
        """Start ``self.phase``; skip phases that offer no choice; finish after the last turn."""
        while True:
            if announce:
                self.events.add(ev.PhaseStarted, (self.turn, PHASES[self.phase]))
            if self.phase % 2 == 0:
                if self._offer_unit_selection():
                    return
            else:
                self.target = -1
                if self._offer_attack_targets():
                    return
            if not self._advance_phase():
                return
            announce = True

    def _advance_phase(self) -> bool:
        """Move to the next phase; False when the game has ended."""
        self.done = 0
        self.selected = -1
        if self.phase == 3:
            if self.turn >= self.sc.turns:
                self._finish()
                return False
            self.turn += 1
            self.phase = 0
            self.attacked = 0
        else:
            self.phase += 1
        return True

    def _offer_unit_selection(self) -> bool:
        """Ask ``select_unit`` if any unit can move; the legal list is primed as a by-product."""
        self.kind = SELECT_UNIT
        units = self._movable_units()
        if units:
            self._legal_cache = [UNIT0 + u for u in units] + [PASS]
        return bool(units)

    def _offer_attack_targets(self) -> bool:
        """Ask ``attack_target`` if any attack is possible; primes the legal list."""
        self.kind = ATTACK_TARGET
        targets = self._attackable_targets()
        if targets:
            self._legal_cache = [*targets, PASS]
        return bool(targets)

    def _end_phase(self) -> None:
        if self._advance_phase():
            self._enter_phase(announce=True)

    def _finish(self) -> None:
        towns = self.soviet_towns()
        self._winner = 0 if towns >= 2 else 1  # 6.0: at least two of three towns; no ties
        self.kind = TERMINAL
        self.events.append(ev.GameEnded(SIDES[self._winner], towns))

    # ----------------------------------------------------------------- rules
    def _legal_actions(self) -> list[int]:
        kind = self.kind
        if kind == SELECT_UNIT:
            return [UNIT0 + u for u in self._movable_units()] + [PASS]
        if kind == MOVE_TARGET:
            u = self.selected
            return sorted([*self.reachable(u), self.unit_hex[u]])  # own hex = stay
        if kind == ATTACK_TARGET:
            return [*self._attackable_targets(), PASS]
        if kind == ATTACK_ADD:
            options = self._attack_add_options()
            if self.attack_units and self._differential(self.attack_units, self.target) >= 0:
                options.append(RESOLVE)
            return options
        if kind == RETREAT_HEX:
            return self.retreat_hexes(self.retreat_queue[0])
        if kind == ADVANCE:
            return [UNIT0 + u for u in self.advance_units] + [PASS]
        return []

    def _apply(self, action: int) -> None:
        kind = self.kind
        if kind == SELECT_UNIT:
            if action == PASS:
                self._end_phase()
            else:
                self.selected = action - UNIT0
                self.kind = MOVE_TARGET
        elif kind == MOVE_TARGET:
            u = self.selected
            origin = self.unit_hex[u]
            self.done |= 1 << u
            self.selected = -1
            if action != origin:
                self.events.add(ev.UnitMoved, (UNIT_NAMES[u], self.hex_name(origin), self.hex_name(action)))
                self._place(u, action)
            if not self._offer_unit_selection():
                self._end_phase()
        elif kind == ATTACK_TARGET:
            if action == PASS:
                self._end_phase()
            else:
                self.target = action
                self.attack_hexes = []
                self.attack_units = []
                self.kind = ATTACK_ADD
        elif kind == ATTACK_ADD:
            if action == RESOLVE:
                self._resolve_attack()
            else:
                self.attack_hexes.append(action)
                self.attack_units = sorted(
                    u for u in SIDE_UNITS[self.phase >> 1] if self.unit_hex[u] in self.attack_hexes
                )
        elif kind == RETREAT_HEX:
            u = self.retreat_queue.pop(0)
            self.events.append(ev.UnitRetreated(UNIT_NAMES[u], self.hex_name(self.unit_hex[u]), self.hex_name(action)))
            self._place(u, action)
            self._next_retreat()
        elif kind == ADVANCE:
            if action != PASS:
                u = action - UNIT0
                self.events.append(
                    ev.UnitAdvanced(UNIT_NAMES[u], self.hex_name(self.unit_hex[u]), self.hex_name(self.target))
                )
                self._place(u, self.target)
            self._to_attack_target()

    # -------------------------------------------------------------- position
    def to_position(self) -> dict[str, Any]:
        from fof_env.strike_force_one.position import state_to_position

        return state_to_position(self)

    def __repr__(self) -> str:
        if self.kind == TERMINAL:
            return f"<StrikeForceOneState terminal winner={SIDES[self._winner]}>"
        return f"<StrikeForceOneState turn={self.turn} {PHASES[self.phase]} {KIND_NAMES[self.kind]}>"

    def __str__(self) -> str:
        from fof_env.strike_force_one.render import render_text

        return render_text(self)


_UNIT_BY_LOWER = {name.lower(): i for name, i in UNIT_BY_NAME.items()}
