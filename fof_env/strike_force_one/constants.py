"""Strike Force One's action space, phases and decision kinds (the numbers every module shares).

The action space (``Discrete(NUM_ACTIONS)``) is documented in :mod:`fof_env.strike_force_one.state`.
"""

from __future__ import annotations

from fof_env.strike_force_one.data import NUM_UNITS, UNIT_NAMES

NUM_HEXES = 68
UNIT0 = NUM_HEXES
PASS = UNIT0 + NUM_UNITS
RESOLVE = PASS + 1
NUM_ACTIONS = RESOLVE + 1

PHASES = ("soviet_move", "soviet_combat", "us_move", "us_combat")

SELECT_UNIT, MOVE_TARGET, ATTACK_TARGET, ATTACK_ADD, RETREAT_HEX, ADVANCE, TERMINAL = range(7)
KIND_NAMES = ("select_unit", "move_target", "attack_target", "attack_add", "retreat_hex", "advance", "terminal")
MAX_COLUMN = 5
COLUMN_NAMES = ("0", "+1", "+2", "+3", "+4", "+5")  # the Combat Results Table's columns by differential
UNIT_BY_NAME = {name: i for i, name in enumerate(UNIT_NAMES)}
