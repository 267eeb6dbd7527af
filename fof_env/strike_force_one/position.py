"""The Strike Force One position format: a human-writable JSON dict (like FEN).

Example::

    {
      "turn": 2,                        # 1..4
      "phase": "us_combat",             # soviet_move | soviet_combat | us_move | us_combat | game_over
      "units": {                        # unit letter -> hex (CCRR); a missing unit is eliminated
        "soviet": {"A": "0604", "B": "0605"},
        "us": {"A": "0303", "D": "0504"}
      },
      "done": ["us.A"],                 # units that already moved / attacked this phase
      "attacked": ["sov.B"],            # units already attacked this turn (rule 5.2)
      "seed": 7                         # optional: seeds the dice
    }

``game``/``options`` keys are accepted and checked against the game. A position
describes the start of a decision of the phasing player (between activations),
or a finished game (``"phase": "game_over"``, turn 4);
the middle of an attack (retreats, advances) is reached by applying actions.
"""

from __future__ import annotations

import copy
from typing import Any

from fof_env.core.dice import check_seed
from fof_env.core.errors import OptionError, PositionError
from fof_env.core.game import State
from fof_env.core.position import check_header
from fof_env.strike_force_one.constants import ATTACK_TARGET, PHASES, SELECT_UNIT
from fof_env.strike_force_one.data import SIDE_UNITS, SIDES, UNIT_LETTERS, UNIT_NAMES

GAME_OVER = "game_over"  # the phase of a finished game: the winner follows from the units (6.0)
_KEYS = {"game", "options", "turn", "phase", "units", "done", "attacked", "seed"}


def _unit_ids(names: Any, key: str) -> int:
    if not isinstance(names, list):
        raise PositionError(f"position[{key!r}] must be a list of unit names like 'sov.A'")
    bits = 0
    for name in names:
        if name not in UNIT_NAMES:
            raise PositionError(f"position[{key!r}]: unknown unit {name!r}; units are {', '.join(UNIT_NAMES)}")
        bits |= 1 << UNIT_NAMES.index(name)
    return bits


def state_from_position(game, position: dict[str, Any], dice=None) -> State:
    """Build a state from ``position`` (copied; the copy is the record's start); ``dice`` replaces
    the position's seeded dice. :class:`PositionError` says what is wrong."""
    check_header(game, position, _KEYS, "fof_env.strike_force_one.position")
    position = copy.deepcopy(position)
    sc = game.scenario
    turn = position.get("turn", 1)
    if isinstance(turn, bool) or not isinstance(turn, int) or not 1 <= turn <= sc.turns:
        raise PositionError(f"turn must be an integer 1..{sc.turns}, got {turn!r}")
    phase_name = position.get("phase", PHASES[0])
    if not isinstance(phase_name, str):
        raise PositionError(f"phase must be one of {(*PHASES, GAME_OVER)}, got {phase_name!r}")
    over = phase_name == GAME_OVER
    if over:
        if turn != sc.turns:
            raise PositionError(f"phase {GAME_OVER!r} needs turn {sc.turns}, got {turn!r}")
        phase_name = PHASES[-1]
    elif phase_name not in PHASES:
        raise PositionError(f"phase must be one of {(*PHASES, GAME_OVER)}, got {phase_name!r}")
    units = position.get("units")
    if not isinstance(units, dict) or set(units) - set(SIDES):
        raise PositionError("position['units'] must be {'soviet': {letter: hex}, 'us': {letter: hex}}")
    unit_hex = [-1] * len(UNIT_NAMES)
    for side, side_name in enumerate(SIDES):
        placed = units.get(side_name, {}) or {}
        if not isinstance(placed, dict):
            raise PositionError(f"position['units'][{side_name!r}] must map unit letters to hexes")
        for letter, hex_name in placed.items():
            if letter not in UNIT_LETTERS[side]:
                raise PositionError(f"{side_name} has no unit {letter!r}; units: {', '.join(UNIT_LETTERS[side])}")
            if hex_name is None:
                continue
            try:
                unit_hex[SIDE_UNITS[side][UNIT_LETTERS[side].index(letter)]] = sc.grid.hex(hex_name)
            except ValueError as exc:
                raise PositionError(f"{side_name} {letter}: {exc}") from None
    limit = 2 if game.optional_rules else 1
    for h in set(unit_hex) - {-1}:
        here = [u for u, x in enumerate(unit_hex) if x == h]
        sides = {0 if u < 6 else 1 for u in here}
        name = sc.grid.names[h]
        if len(sides) > 1:
            raise PositionError(f"hex {name} holds units of both sides")
        if len(here) > limit:
            raise PositionError(f"hex {name} holds {len(here)} units; the stacking limit is {limit}")
        if sc.woods[h] and not game.optional_rules:
            raise PositionError(f"hex {name} is woods: no unit may occupy it without the optional rules (2.0)")
    try:
        seed = check_seed(position.get("seed"), "position['seed']")
    except OptionError as exc:
        raise PositionError(str(exc)) from None
    state = game.state_class.__new__(game.state_class)
    start = position
    start.setdefault("turn", turn)
    start.setdefault("phase", phase_name)
    start.pop("game", None)
    start.pop("options", None)
    state._init_bookkeeping(seed, start, dice)
    state._setup(
        game,
        unit_hex,
        turn,
        PHASES.index(phase_name),
        _unit_ids(position.get("done", []), "done"),
        _unit_ids(position.get("attacked", []), "attacked"),
        over=over,
    )
    return state


def state_to_position(state: State) -> dict[str, Any]:
    """The position of ``state`` (only between activations; see module docstring)."""
    if state.kind not in (SELECT_UNIT, ATTACK_TARGET) and not state.is_terminal:
        raise PositionError(
            f"the position format describes states between activations; this one is in the middle of "
            f"{state.decision.kind!r} (apply actions to finish it first)"
        )
    units: dict[str, dict[str, str]] = {"soviet": {}, "us": {}}
    for u, h in enumerate(state.unit_hex):
        if h >= 0:
            side, letter = (0, UNIT_LETTERS[0][u]) if u < 6 else (1, UNIT_LETTERS[1][u - 6])
            units[SIDES[side]][letter] = state.hex_name(h)
    return {
        "game": state.game.name,
        "options": dict(state.game.options),
        "turn": state.turn,
        "phase": GAME_OVER if state.is_terminal else PHASES[state.phase],
        "units": units,
        "done": [UNIT_NAMES[u] for u in range(len(UNIT_NAMES)) if (state.done >> u) & 1],
        "attacked": [UNIT_NAMES[u] for u in range(len(UNIT_NAMES)) if (state.attacked >> u) & 1],
    }
