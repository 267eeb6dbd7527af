"""The vehicle scenario "Village Patrol" (scenarios/village_patrol.json, designed for this project; rulings F50)."""

from functools import cache

import numpy as np

import fof_env
from fof_env.fubar import events as ev

SEED = "002_b69cb091b8d89aa2.txt"


@cache
def game(**options):
    return fof_env.make_game("fubar_village_patrol", **options)


def test_the_scenario_puts_every_vehicle_rule_on_the_table():
    """002 "Vehicles": an APC with passengers, a medium tank ("Medium & Heavy Tanks can move 6"/15cm
    through Moderate Cover"), a technical ("None 6+ Trucks, Cars, Technicals"), an infantry HMG ("Infantry
    HMG's need two crew"), RPGs; Soft Cover (the wadi), Moderate (walls, buildings, rubble) (rulings F50)."""
    sc = game().scenario
    units = {u.id: u for u in sc.units}
    assert units["pat.V"].vehicle.cls == "apc" and units["pat.V"].vehicle.save == 5
    assert units["pat.A"].deployment.carrier == sc.unit_index("pat.V")
    assert units["pat.T"].vehicle.cls == "medium_tank" and units["pat.T"].optional
    assert units["ins.T"].vehicle.cls == "technical" and units["ins.T"].vehicle.save == 6
    assert any(f.infantry_hmg for f in units["ins.H"].figures)
    assert sum(w.name == "rpg" for f in units["ins.R"].figures for w in f.weapons) == 2
    geo = game().setup.geo
    assert {geo.feature_level[i] for i in ("wadi", "orchard", "shed")} == {1}
    assert {geo.feature_level[i] for i in ("mosque", "field_wall", "ruins")} == {2}
    assert game(optional_units=False).setup.present[sc.unit_index("pat.T")] is False


def test_the_section_starts_in_its_apc_and_deploys_with_it():
    s = game().new_initial_state(0)
    while s.decision.kind == "deploy":
        s.apply(s.legal_actions()[0])
    a, v = game().scenario.unit_index("pat.A"), game().scenario.unit_index("pat.V")
    assert s.carried[a] == v and s.pos[a] == s.pos[v] >= 0


def test_random_games_use_the_vehicle_rules():
    """Random play reaches close combat, vehicle damage and bail-outs over a few games."""
    seen = set()
    for seed in range(12):
        s = game().new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal:
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
        for e in s.events:
            if isinstance(e, ev.VehicleDamaged):
                seen.add(e.effect)
            elif isinstance(e, ev.CloseCombat):
                seen.add("close_combat")
        assert s.result()["winner"] in ("patrol", "insurgents", None)
    assert {"crew_stunned", "weapon_destroyed", "close_combat"} <= seen
