"""Force on Force games: one engine, any scenario (:class:`ForceOnForceGame`).

``make_game("force_on_force", scenario="lost_and_found" | "path/to/file.json", **options)``
builds a game from a scenario (:mod:`fof_env.force_on_force.scenario`); each shipped scenario
is also a game of its own name (``make_game("lost_and_found", ...)``), and that name is the
game's name in records, model cards and env ids. A scenario file of your own is the game
``"force_on_force"`` with the option ``scenario`` set to its path.

Options (keyword arguments), checked by the kernel's :class:`~fof_env.core.options.OptionSpec`:

* ``rules`` ("full" default, or "quick"): "quick" uses only the quick-start rules; "full"
  adds the infantry-combat chapter (In Cover, Exposed, support weapon movement penalties,
  supply, split fire, Rapid-move effects).
* ``fog_of_war`` (bool, default True): an unmodified 1 on a reaction test rolls the D10 Fog
  of War table (when the scenario has one), or draws a card of the WWII deck (``"table": "wwii_deck"``,
  rules/wwii_fog.py).
* the scenario's own options (``options`` block of its file; "Lost & Found":
  ``taliban_teams`` (3 or 4), ``ambush`` (bool), ``capture`` (bool); see ``rulings.md``).

Shipped scenarios (``scenarios/``): "Lost & Found" (``lost_and_found``, the quick start's, 000) and
"Compound Raid" (``compound_raid``, designed for this project from 003, rulings R42): a British patrol
(two D10 fire teams, a D12 fire support team with a GPMG, body armour, Well Supplied) clears a walled
compound held by militia irregulars (D6, Poorly Supplied, a DShK in a log bunker, a sandbagged sangar,
a reserve that moves Out of Contact) in 6 turns; its options ``irregulars`` and ``out_of_contact``
(bool, default True) switch the ``irregulars`` (R37-R39) and ``out_of_contact`` (R40-R41) rule
modules. Gym id ``fof_env/CompoundRaid-v0``; its bot is the generic
:mod:`agents.force_on_force_heuristic`.
"Hedgerow Hamlet" (game ``wwii_hedgerow_hamlet``, file ``hedgerow_hamlet``, designed for this project from
003 and the WWII supplement 004, rulings R43-R49): a US rifle squad (two rifle teams, a BAR team, the squad
leader and his radioman, an aid man, an M4 Sherman) clears a Normandy hamlet held by a German Gruppe (an MG42
team, two rifle teams, a Sanitaeter, a Panzer IV) among hedgerows in 8 turns, with the ``wwii_first_aid`` and
``wwii_mg_teams`` rule modules and the tanks of rules/wwii_vehicles.py (R80-R89). Gym id ``fof_env/WwiiHedgerowHamlet-v0``; its bot is the generic heuristic.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from fof_env.core.errors import OptionError
from fof_env.core.game import Game
from fof_env.core.options import OptionSpec, check_options
from fof_env.core.tabletop import Table
from fof_env.force_on_force import combat
from fof_env.force_on_force.layout import Layout, state_class
from fof_env.force_on_force.modules import MODULES
from fof_env.force_on_force.observation import OBS_VERSION, observation_size
from fof_env.force_on_force.rule_module import Hooks, hook_table
from fof_env.force_on_force.rules.wwii import is_medic, mg_support_class
from fof_env.force_on_force.rules.wwii_air import RULE as RULE_CAS
from fof_env.force_on_force.rules.wwii_air import cas_rule, radio_units
from fof_env.force_on_force.rules.wwii_fog import DECK_TABLE
from fof_env.force_on_force.rules.wwii_reserves import reserves_of
from fof_env.force_on_force.rules.wwii_vehicles import vehicle_flags, vehicle_spec
from fof_env.force_on_force.scenario import Scenario, SideSpec, UnitSpec, load_scenario, shipped_scenarios

SUPPORT_CLASS = {None: combat.NO_SUPPORT, "light": combat.LIGHT, "medium": combat.MEDIUM, "heavy": combat.HEAVY}
SUPPLY_VALUE = {"low": -1, "poor": -1, "normal": 0, "high": 1, "well": 1}
RULES = ("full", "quick")
GENERIC_OPTIONS = (
    OptionSpec("rules", "full", str, RULES, "full: quick start + infantry-combat chapter; quick: quick start"),
    OptionSpec("fog_of_war", True, bool, doc="an unmodified 1 on a reaction test rolls the D10 table"),
)
_TYPES = {"bool": bool, "int": int, "str": str}


@dataclass(frozen=True)
class UnitProfile:
    """What a unit is made of in this game: the defaults a position may override."""

    name: str
    figures: int  # 0: not in play with these options (or reinforcements, empty at the start)
    tq: int
    morale: int
    armor: int
    support: tuple[int, ...]  # support weapon classes, best first
    supply: int  # -1 poor, 0 normal, +1 well supplied


@dataclass(frozen=True)
class PilotRule:
    """The ``downed_pilot`` rule module's settings (sides as player indices, points as indices)."""

    side: int  # the side that rescues him
    start: int
    deadline_turn: int
    early_escort_before_turn: int
    contact_vp: int
    early_escort_vp: int
    escort_vp: int


@dataclass(frozen=True)
class Setup:
    """Everything static the engine reads (``state.sc``): the scenario under this game's options."""

    scenario: Scenario
    layout: Layout
    table: Table
    sides: tuple[SideSpec, SideSpec]  # by player index
    edges: tuple[str, str]  # each side's friendly table edge
    profiles: tuple[UnitProfile, ...]  # by unit index
    deploy_points: tuple[tuple[int, ...], ...]  # by unit index: where it may set up
    deployment: tuple[tuple[int, str], ...]  # set-up steps: (side, "deploy" | "hide" | "attach")
    turns: int
    first_initiative: int
    attachment: UnitSpec | None  # a figure that joins a unit in set-up (the squad leader)
    ambush_side: int  # the side whose units may start Hidden; -1: no ambush rule
    ambush_always_first: bool  # a Hidden unit that fires goes first without its 4+ (rulings R36)
    capture_side: int  # the side that captures casualties left alone; -1: no capture rule
    first_fire_side: int  # the side that must open fire first; -1: none
    pilot: PilotRule | None
    airstrike: bool
    fow_regular: int  # the Fog of War table's "usmc" and "taliban" sides
    fow_irregular: int
    reinforcements: int  # the unit Fog of War result 4 raises; -1: none
    victory: tuple  # the scenario's VictoryTerms
    irregular: tuple[bool, ...] = ()  # by unit: irregular under the ``irregulars`` rule (rulings R37)
    out_of_contact_side: int = -1  # the side that may move Out of Contact (rulings R40); -1: none
    wwii_aid: bool = False  # rule module wwii_first_aid: the WWII First Aid / Medic tables (rulings R43-R47)
    medics: tuple[int, ...] = ()  # by unit, with wwii_first_aid: its medic figures (they do not shoot, R47)
    medic_units: tuple[bool, ...] = ()  # by unit, with wwii_first_aid: only medics (may be called, R45)
    vehicles: tuple = ()  # by unit: its VehicleSpec or None (rules/wwii_vehicles.py); () without AFVs
    at_weapons: tuple = ()  # by unit: its infantry AT weapon or None; () without AFVs
    cas: Any = None  # rule module wwii_close_air_support: its CasRule (rules/wwii_air.py, R68-R69)
    radio: tuple[bool, ...] = ()  # by unit, with that rule: a figure of it has the role "radio"
    reserves: tuple[str, ...] = ()  # by unit: the WWII Fog of War card it is held for, or ""; () without (R70)
    hooks: Hooks = Hooks()  # the hooks of the rule modules this set-up switches on (rule_module.py)

    def side(self, player: int) -> SideSpec:
        return self.sides[player]

    def with_table(self, table: Table) -> Setup:
        """This set-up on another table of the same grid (positions with custom terrain): every point
        index, so every deployment zone and edge, means the same point."""
        return replace(self, table=table)


def _profile(unit: UnitSpec, side: SideSpec, in_play: bool, mg_teams: bool = False) -> UnitProfile:
    figures = unit.figures if in_play else ()
    if mg_teams:  # rule module wwii_mg_teams: an MG's weapon-team dice replace its support class (R48)
        classes = [mg_support_class(f.mg, f.support) for f in figures]
    else:
        classes = [f.support for f in figures]
    return UnitProfile(
        name=unit.id,
        figures=len(figures),
        tq=unit.tq or side.tq,
        morale=unit.morale or side.morale,
        armor=side.body_armor,
        support=tuple(sorted((SUPPORT_CLASS[c] for c in classes if c), reverse=True)),
        supply=SUPPLY_VALUE[side.supply],
    )


def _rule_side(sc: Scenario, name: str, options: dict[str, Any]) -> int:
    """The side of rule ``name`` if the scenario switches it on (and its option, if any, is true)."""
    cfg = sc.rules.get(name)
    if cfg is None or (cfg.get("option") and not options[cfg["option"]]):
        return -1
    return cfg.get("side", 0)


def _irregular_units(sc: Scenario, options: dict[str, Any]) -> tuple[bool, ...]:
    """By unit: irregular under the ``irregulars`` rule (off: none is). A unit's own ``irregular``
    wins; otherwise the units of the rule's side, or of a side marked ``irregular``, are."""
    side = _rule_side(sc, "irregulars", options)
    if side < 0:
        return (False,) * len(sc.units)
    return tuple(u.irregular if u.irregular is not None else (u.side == side or sc.sides[u.side].irregular)
                 for u in sc.units)  # fmt: skip


def _ambush_fires_first(sc: Scenario, options: dict[str, Any]) -> str:
    """The ambush rule's ``fires_first`` setting ("on_4+" unless the scenario says otherwise)."""
    value = sc.rules.get("ambush", {}).get("fires_first", "on_4+")
    return options[value["option"]] if isinstance(value, dict) else value


SCENARIO_OPTION = OptionSpec("scenario", "lost_and_found", str, None, "a shipped scenario id or a scenario file's path")


class ForceOnForceGame(Game):
    """Force on Force on any scenario (see the module docstring for the options)."""

    player_names: tuple[str, str]
    observation_bounds = (-1.0, 1.0)
    observation_version = OBS_VERSION
    max_decisions = 4000

    def __init__(self, scenario: str | Path | dict = "lost_and_found", **options: Any):
        sc = load_scenario(scenario)
        if isinstance(scenario, (str, Path)) and str(scenario) in shipped_scenarios():
            self.name = sc.id
        else:
            self.name = "force_on_force"
        specs = GENERIC_OPTIONS + tuple(
            OptionSpec(o.name, o.default, _TYPES[o.type], o.choices, o.doc) for o in sc.options
        )
        if self.name == "force_on_force":  # listed with the options, though __init__ takes it itself
            specs = (SCENARIO_OPTION,) + specs
        self.OPTIONS = specs
        self.options = check_options(self.name, specs, options)
        if self.name == "force_on_force":
            self.options["scenario"] = sc.origin if not isinstance(scenario, dict) else scenario
        self.scenario = sc
        self.rules = self.options["rules"]
        self.fog_of_war = self.options["fog_of_war"] and sc.fog_of_war is not None
        self.player_names = tuple(s.id for s in sc.sides)  # type: ignore[assignment]
        layout = Layout(self.player_names, tuple(u.id for u in sc.units), tuple(u.side for u in sc.units),
                        len(sc.table), 2 if "wwii_first_aid" in sc.rules else 0,
                        vehicles=vehicle_flags(sc.units),
                        fog_deck=bool(sc.fog_of_war) and sc.fog_of_war.get("table") == DECK_TABLE)  # fmt: skip
        self.layout = layout
        self.state_class = state_class(layout)
        self.num_actions = layout.num_actions
        self.observation_shape = (observation_size(layout),)
        self.setup = self._build_setup(sc, layout)
        self._template = None
        self._tables: OrderedDict[str, Setup] = OrderedDict()  # custom tables of positions (position.py)

    def _build_setup(self, sc: Scenario, layout: Layout) -> Setup:
        options = self.options

        def in_play(u: UnitSpec) -> bool:
            return all(options.get(k) == v for k, v in u.requires.items())

        pilot = None
        cfg = sc.rules.get("downed_pilot")
        if cfg is not None:
            pilot = PilotRule(cfg["side"], cfg["start_point"], cfg["deadline_turn"], cfg["early_escort_before_turn"],
                              cfg.get("contact_vp", 0), cfg.get("early_escort_vp", 0), cfg.get("escort_vp", 0))  # fmt: skip
        fog = sc.fog_of_war or {"regular": 1, "irregular": 0}
        reinforcements = next((i for i, u in enumerate(sc.units) if u.reinforcements), -1)
        mg_teams = _rule_side(sc, "wwii_mg_teams", options) >= 0
        profiles = tuple(_profile(u, sc.sides[u.side], in_play(u) and not u.reinforcements, mg_teams)
                         for u in sc.units)  # fmt: skip
        wwii_aid = _rule_side(sc, "wwii_first_aid", options) >= 0
        medics = tuple(sum(1 for f in u.figures if is_medic(f.role)) if wwii_aid else 0 for u in sc.units)
        medic_units = tuple(bool(n) and n == len(u.figures) for n, u in zip(medics, sc.units, strict=True))
        setup = Setup(
            scenario=sc, layout=layout, table=sc.table, sides=sc.sides, edges=(sc.sides[0].edge, sc.sides[1].edge),
            profiles=profiles, deploy_points=tuple(u.deploy.points if u.deploy else () for u in sc.units),
            deployment=sc.deployment, turns=sc.turns, first_initiative=sc.first_initiative,
            attachment=sc.attachments[0] if sc.attachments else None,
            ambush_side=_rule_side(sc, "ambush", options),
            ambush_always_first=_ambush_fires_first(sc, options) == "always",
            capture_side=_rule_side(sc, "capture", options),
            first_fire_side=_rule_side(sc, "must_fire_first", options),
            pilot=pilot, airstrike="airstrike_call" in sc.rules,
            fow_regular=fog["regular"], fow_irregular=fog["irregular"], reinforcements=reinforcements,
            victory=sc.victory, irregular=_irregular_units(sc, options),
            out_of_contact_side=_rule_side(sc, "out_of_contact", options),
            wwii_aid=wwii_aid, medics=medics if any(medics) else (),
            medic_units=medic_units if any(medic_units) else (),
            vehicles=tuple(vehicle_spec(u.vehicle) for u in sc.units) if layout.vehicles else (),
            at_weapons=tuple(u.at_weapon for u in sc.units) if layout.vehicles else (),
            cas=cas_rule(sc, options), radio=radio_units(sc) if RULE_CAS in sc.rules else (),
            reserves=reserves_of(sc.units),
        )  # fmt: skip
        return replace(setup, hooks=hook_table(MODULES, setup))

    def initial_position(self) -> dict[str, Any]:
        """The scenario before set-up: each side deploys, hides and attaches as its steps say."""
        return {"stage": "setup"}

    def state_from_position(self, position: dict[str, Any], *, dice=None):
        from fof_env.force_on_force.position import state_from_position

        return state_from_position(self, position, dice)


class LostAndFoundGame(ForceOnForceGame):
    """Force on Force, the quick-start scenario "Lost & Found" (USMC squad v Taliban, 9 turns):
    ``make_game("lost_and_found", rules=..., fog_of_war=..., taliban_teams=..., ambush=..., capture=...)``."""

    def __init__(self, **options: Any):
        if "scenario" in options:
            raise OptionError("lost_and_found is one scenario; for another use make_game('force_on_force', "
                              "scenario=...)")
        super().__init__("lost_and_found", **options)


class CompoundRaidGame(ForceOnForceGame):
    """Force on Force, "Compound Raid" (designed for this project from the 003 rules: a British patrol
    v militia irregulars in a walled compound, 6 turns): ``make_game("compound_raid", rules=...,
    irregulars=..., out_of_contact=...)``."""

    def __init__(self, **options: Any):
        if "scenario" in options:
            raise OptionError("compound_raid is one scenario; for another use make_game('force_on_force', "
                              "scenario=...)")
        super().__init__("compound_raid", **options)


class WwiiHedgerowHamletGame(ForceOnForceGame):
    """Force on Force WWII, "Hedgerow Hamlet" (designed for this project from the 003 rules and the 004 WWII
    supplement: a US rifle squad v a German Gruppe with an MG42 in a Normandy hamlet, 8 turns; rule modules
    ``wwii_first_aid`` and ``wwii_mg_teams``, rulings R43-R49): ``make_game("wwii_hedgerow_hamlet", rules=...)``.
    Its scenario file is ``scenarios/hedgerow_hamlet.json``; the game's name is ``wwii_hedgerow_hamlet``."""

    def __init__(self, **options: Any):
        if "scenario" in options:
            raise OptionError("wwii_hedgerow_hamlet is one scenario; for another use make_game('force_on_force', "
                              "scenario=...)")
        super().__init__("hedgerow_hamlet", **options)
        self.name = "wwii_hedgerow_hamlet"


__all__ = ["ForceOnForceGame", "LostAndFoundGame", "CompoundRaidGame", "WwiiHedgerowHamletGame", "Setup", "UnitProfile", "PilotRule"]
