"""Positions of "Compound Raid" (``scenarios/compound_raid.json``) for the rules tests of the irregulars
and Out of Contact rule modules and of the scenario itself.

Players: 0 = ``british`` (``brit.A``, ``brit.B``: 4 figures, D10, two Light support weapons;
``brit.C``: 4 figures, D12, a GPMG (Medium); body armour 1D, Well Supplied), 1 = ``militia``
(``mil.1`` DShK crew: 3 figures, a Heavy support weapon; ``mil.2`` 6 figures, RPG (Medium) and RPD
(Light); ``mil.3`` 6 figures, RPK (Light); ``mil.4`` 5 figures, RPG (Medium); D6, Poorly Supplied,
irregulars, Out of Contact movement). Positions use the helpers' tables (:func:`table_with` ...) or,
with ``table=None``, the scenario's own table.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import fof_env

from .helpers import table_with, wall

SEED_FULL = "003_b1b2d2a6d4b3bab2.txt"
BRITISH, MILITIA = 0, 1

# walls behind each firing line (x 1 and x 35) so that nobody near them is Exposed and no wall
# crosses a line of fire between x 3 and x 33
BACKS = table_with(wall(1, 1, 1, 35, "west_back"), wall(35, 1, 35, 35, "east_back"))


@cache
def raid(**options: Any):
    """The "Compound Raid" game with ``options`` (cached: one per distinct set of options)."""
    return fof_env.make_game("compound_raid", **options)


def raid_state(units: dict[str, dict], *, table: dict | None = BACKS, turn: int = 1, initiative: str = "british",
               portion: str = "initiative", rules: str = "full", irregulars: bool = True,
               out_of_contact: bool = True, **kw: Any):
    """An ``activation`` position of "Compound Raid" (``table=None``: the scenario's table)."""
    pos: dict[str, Any] = {"stage": "activation", "turn": turn, "initiative": initiative, "portion": portion,
                           "units": units}
    if table is not None:
        pos["table"] = table
    pos.update(kw)
    game = raid(rules=rules, irregulars=irregulars, out_of_contact=out_of_contact)
    return game.state_from_position(pos)


def rid(state, name: str) -> int:
    """Unit index of ``name``."""
    return state.UNIT_NAMES.index(name)
