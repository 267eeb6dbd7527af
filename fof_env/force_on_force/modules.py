"""The engine's module list: every :class:`~fof_env.force_on_force.rule_module.RuleModule` of Force on Force,
in the order the state composes them (concern modules first, then the scenario rule modules).

Adding a rule module is adding its ``MODULE`` here; :mod:`fof_env.force_on_force.state` builds its class, its
slots, its decision-kind table, its turn machine and each game's hooks from this list alone, and
:mod:`fof_env.force_on_force.observation` the pieces after the board. The order is the order of the hooks at
each hook point and of the modules' observation pieces (``vehicles``, ``first_aid``, ``cards``): moving a
module with a piece changes the observation layout of the scenarios that have it.
"""

from __future__ import annotations

from fof_env.force_on_force import casualties, fire, fog, movement, reaction, sequence
from fof_env.force_on_force.rule_module import RuleModule
from fof_env.force_on_force.rules import (
    airstrike_call,
    ambush,
    capture,
    downed_pilot,
    irregulars,
    out_of_contact,
    pinned_cover,
    wwii,
    wwii_air,
    wwii_fog,
    wwii_reserves,
    wwii_vehicles,
)

MODULES: tuple[RuleModule, ...] = (
    sequence.MODULE,
    reaction.MODULE,
    fire.MODULE,
    casualties.MODULE,
    movement.MODULE,
    fog.MODULE,
    ambush.MODULE,
    capture.MODULE,
    downed_pilot.MODULE,
    airstrike_call.MODULE,
    irregulars.MODULE,
    out_of_contact.MODULE,
    pinned_cover.MODULE,
    wwii_vehicles.MODULE,
    wwii.MODULE,
    wwii_fog.MODULE,
    wwii_reserves.MODULE,
    wwii_air.MODULE,
)
