"""The Force on Force "Lost & Found" :class:`~fof_env.core.game.Game`."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from fof_env.core.game import Game
from fof_env.core.options import OptionSpec, check_options
from fof_env.core.tabletop import Table
from fof_env.force_on_force import combat
from fof_env.force_on_force.observation import OBS_SIZE, OBS_VERSION
from fof_env.force_on_force.scenario import Scenario, SideSpec, UnitSpec, load_scenario
from fof_env.force_on_force.state import (
    NUM_ACTIONS,
    NUM_UNITS,
    SIDES,
    TALIBAN,
    UNIT_NAMES,
    USMC,
    ForceOnForceState,
)

SUPPORT_CLASS = {
    None: combat.NO_SUPPORT,
    "light": combat.LIGHT,
    "medium": combat.MEDIUM,
    "heavy": combat.HEAVY,
}
SUPPLY_VALUE = {"low": -1, "poor": -1, "normal": 0, "high": 1}
RULES = ("full", "quick")


@dataclass(frozen=True)
class UnitProfile:
    """What a unit is made of: the defaults a position may override."""

    name: str
    figures: int
    tq: int
    morale: int
    armor: int
    support: tuple[int, ...]  # support weapon classes, best first
    supply: int  # -1 poor, 0 normal, +1 well supplied


@dataclass(frozen=True)
class Setup:
    """Everything static the engine reads (``state.sc``): the table and scenario facts."""

    table: Table
    usmc_edge: str
    taliban_edge: str
    usmc_entry_points: tuple[int, ...]
    taliban_deploy_points: dict[int, list[int]]
    pilot_start: int
    turns: int
    pilot_deadline_turn: int
    early_escort_before_turn: int
    sides: tuple[SideSpec, SideSpec]  # by player index
    profiles: tuple[UnitProfile, ...]  # by unit index
    squad_leader: bool
    must_fire_first: bool

    def side(self, player: int) -> SideSpec:
        return self.sides[player]

    @property
    def usmc(self) -> SideSpec:
        return self.sides[USMC]


def _profile(name: str, unit: UnitSpec | None, side: SideSpec) -> UnitProfile:
    figures = unit.figures if unit is not None else ()
    support = sorted((SUPPORT_CLASS[f.support] for f in figures if f.support), reverse=True)
    return UnitProfile(
        name=name,
        figures=len(figures),
        tq=side.tq,
        morale=side.morale,
        armor=side.body_armor,
        support=tuple(support),
        supply=SUPPLY_VALUE.get(side.supply, 0),
    )


class LostAndFoundGame(Game):
    """Force on Force, quick-start scenario "Lost & Found" (USMC squad vs Taliban, 9 turns).

    Options (all keyword arguments; see ``rulings.md`` for why each exists):

    * ``rules`` ("full" default, or "quick"): "quick" uses only the quick-start
      rules; "full" adds the infantry-combat chapter (In Cover, Exposed, support
      weapon movement penalties, supply, split fire, Rapid-move effects).
    * ``fog_of_war`` (bool, default True): an unmodified 1 on a reaction test rolls
      the D10 Fog of War table.
    * ``taliban_teams`` (3 or 4, default 4): the scenario sheet lists Team Four,
      the introduction speaks of 20 Taliban in three teams.
    * ``ambush`` (bool, default True): "Ambush Rules are in Effect".
    * ``capture`` (bool, default True): Taliban moving next to Marine casualties
      with no effective figure left capture them (3 VP each).
    """

    name = "lost_and_found"
    player_names = SIDES
    num_actions = NUM_ACTIONS
    observation_shape = (OBS_SIZE,)
    observation_version = OBS_VERSION
    observation_bounds = (-1.0, 1.0)
    max_decisions = 4000

    OPTIONS = (
        OptionSpec("rules", "full", str, RULES, "full: quick start + infantry-combat chapter; quick: quick start"),
        OptionSpec("fog_of_war", True, bool, doc="an unmodified 1 on a reaction test rolls the D10 table"),
        OptionSpec("taliban_teams", 4, int, (3, 4), doc="3: the introduction's 20 Taliban; 4: the sheet's"),
        OptionSpec("ambush", True, bool, doc="Ambush Rules are in Effect"),
        OptionSpec("capture", True, bool, doc="Taliban capture Marine casualties left alone"),
    )

    def __init__(self, **options: Any):
        self.options = check_options(self.name, self.OPTIONS, options)
        self.rules = self.options["rules"]
        self.fog_of_war = self.options["fog_of_war"]
        self.taliban_teams = self.options["taliban_teams"]
        self.ambush = self.options["ambush"]
        self.capture = self.options["capture"]
        self.scenario: Scenario = load_scenario()
        self.setup = self._build_setup(self.scenario.table)
        self._template: ForceOnForceState | None = None
        self._tables: OrderedDict[str, Setup] = OrderedDict()  # custom tables of positions (position.py)

    def _build_setup(self, table: Table) -> Setup:
        sc = self.scenario
        tal, usmc = sc.sides["taliban"], sc.sides["usmc"]
        teams = sc.taliban_teams
        usmc_units = [u for u in sc.side_units("usmc") if u.name not in sc.attachable_units]
        profiles = [
            _profile(UNIT_NAMES[i], teams.get(i + 1) if i + 1 <= self.taliban_teams else None, tal)
            for i in range(4)
        ]
        reinforcement = _profile(UNIT_NAMES[4], None, tal)
        profiles.append(reinforcement)
        for i, name in enumerate(UNIT_NAMES[5:]):
            profiles.append(_profile(name, usmc_units[i] if i < len(usmc_units) else None, usmc))
        return Setup(
            table=table,
            usmc_edge=sc.usmc_entry_edge,
            taliban_edge=sc.taliban_edge,
            usmc_entry_points=tuple(table.edge_points(sc.usmc_entry_edge)),
            taliban_deploy_points=sc.taliban_deploy_points,
            pilot_start=sc.pilot_start,
            turns=sc.turns,
            pilot_deadline_turn=sc.pilot_deadline_turn,
            early_escort_before_turn=sc.early_escort_before_turn,
            sides=(tal, usmc),
            profiles=tuple(profiles),
            squad_leader=bool(sc.attachable_units),
            must_fire_first=True,
        )

    def initial_position(self) -> dict[str, Any]:
        """The scenario before set-up: Taliban deploy, hide, the squad leader joins a team, USMC enter."""
        return {"stage": "setup"}

    def state_from_position(self, position: dict[str, Any], *, dice=None) -> ForceOnForceState:
        from fof_env.force_on_force.position import state_from_position

        return state_from_position(self, position, dice)


__all__ = ["LostAndFoundGame", "NUM_UNITS", "TALIBAN", "USMC"]
