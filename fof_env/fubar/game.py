"""FUBAR games: ``fubar_lost_and_found``, ``fubar_village_patrol`` and ``fubar`` (any scenario file).

A :class:`FubarGame` is one scenario with its options; :mod:`fof_env.fubar.state` plays it. The action
space and the observation are laid out over the scenario (its points, units and figures):
:mod:`fof_env.fubar.setup`, :mod:`fof_env.fubar.observation`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from fof_env.core.game import Game
from fof_env.core.options import OptionSpec, check_options
from fof_env.fubar.observation import OBS_VERSION, observation_size
from fof_env.fubar.position import state_from_position
from fof_env.fubar.scenario import Scenario, load_scenario
from fof_env.fubar.setup import Setup, build_setup
from fof_env.fubar.state import FubarState


class FubarGame(Game):
    """FUBAR on a scenario file. Options: ``scenario`` (a shipped id, ``lost_and_found`` or
    ``village_patrol``, or a path to a scenario JSON file) and ``optional_units`` (bool, default True:
    the units the scenario marks optional take part)."""

    name = "fubar"
    state_class = FubarState
    SCENARIO: ClassVar[str | None] = None  # fixed by the named scenario games
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("scenario", "lost_and_found", str, doc="a shipped scenario id or a path to a scenario .json file"),
        OptionSpec("optional_units", True, bool, doc="the units the scenario marks optional take part"),
    )
    observation_version = OBS_VERSION
    observation_bounds = (-1.0, 1.0)

    def __init__(self, **options: Any):
        self.options = check_options(self.name, self.OPTIONS, options)
        self.scenario: Scenario = load_scenario(self.SCENARIO or self.options["scenario"])
        self.setup: Setup = build_setup(self.scenario, self._optional_units())
        self.player_names = tuple(s.id for s in self.scenario.sides)
        self.num_actions = self.setup.num_actions
        self.observation_shape = (observation_size(self.setup),)
        self.max_decisions = 6000
        self._template: FubarState | None = None

    def _optional_units(self) -> bool:
        return self.options.get("optional_units", True)

    def initial_position(self) -> dict[str, Any]:
        return {"stage": "setup"}

    def state_from_position(self, position: dict[str, Any], *, dice=None) -> FubarState:
        return state_from_position(self, position, dice=dice)


class FubarLostAndFoundGame(FubarGame):
    """Force on Force's "Lost & Found" under FUBAR (``scenarios/lost_and_found.json``): the same table,
    forces, pilot, turns and victory points. Options: ``taliban_teams`` (3 or 4, default 4: Team Four
    is the scenario's optional unit, as in ``lost_and_found``)."""

    name = "fubar_lost_and_found"
    SCENARIO = "lost_and_found"
    OPTIONS = (OptionSpec("taliban_teams", 4, int, (3, 4), doc="3: the introduction's 20 Taliban; 4: the sheet's"),)

    def _optional_units(self) -> bool:
        return self.options["taliban_teams"] == 4


class FubarVillagePatrolGame(FubarGame):
    """"Village Patrol" (``scenarios/village_patrol.json``, designed for this project): a patrol with an
    APC and a tank meets insurgents with a technical, an RPG team and an HMG in a village."""

    name = "fubar_village_patrol"
    SCENARIO = "village_patrol"
    OPTIONS = (OptionSpec("optional_units", True, bool, doc="the medium tank (the optional unit) takes part"),)
