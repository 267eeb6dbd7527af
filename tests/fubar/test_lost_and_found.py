"""Force on Force's "Lost & Found" under FUBAR (scenarios/lost_and_found.json; rulings F45-F49).

Seeds: 002_b69cb091b8d89aa2.txt (FUBAR) for the rules, 000_294bccfd88f0ebda.txt for the scenario.
"""

import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest

import fof_env
from fof_env import ScriptedDice
from fof_env.fubar import observation as fo

from .helpers import notes

ROOT = Path(__file__).resolve().parents[2]
SEED = "002_b69cb091b8d89aa2.txt"
SCENARIO_SEED = "000_294bccfd88f0ebda.txt"


@cache
def game(**options):
    return fof_env.make_game("fubar_lost_and_found", **options)


def state(units, dice=(), **pos):
    spec = {"stage": "activation", "turn": 1, "initiative": "usmc", "units": units, **pos}
    return game().state_from_position(spec, dice=ScriptedDice(list(dice)))


def test_both_rule_systems_play_one_table_with_one_pilot():
    """The same table as Force on Force's "Lost & Found" (rulings F45): both scenario files refer to the
    shared table fof_env/core/tables/lost_and_found.json, whose marks place the Taliban teams ("1-4:
    Taliban Team positions") and the pilot ("P: Pilot's starting position in an abandoned building"),
    and whose objective gives the pilot's VP ("USMC fireteam makes contact with pilot = 3 VP",
    "escorts the pilot off table prior to Turn 6 = 10 VP", "by end of Turn 8 = 7 VP", "Pilot still on
    table at end of Turn 8: VICTORY!")."""
    from fof_env.force_on_force.scenario import load_scenario as fof_scenario

    files = [ROOT / f"fof_env/{r}/scenarios/lost_and_found.json" for r in ("force_on_force", "fubar")]
    assert [json.loads(p.read_text())["table"]["ref"] for p in files] == ["lost_and_found"] * 2
    fof, ours = fof_scenario("lost_and_found"), game().scenario
    assert ours.table.features == fof.table.features
    t = game().setup.table
    assert (t.width_in, t.height_in, t.spacing_in, t.wall_cover_reach_in) == (36, 36, 2, 3)
    assert [u.deployment.points for u in ours.units[:4]] == [u.deploy.points for u in fof.units[:4]]
    assert ours.pilot.start == fof.rules["downed_pilot"]["start_point"] == t.index("x21y17")
    assert ours.pilot.building == fof.rules["downed_pilot"]["building"] == "P"
    pilot_terms = [(term.kind, term.vp, term.before_turn) for term in ours.terms if term.kind.startswith("pilot")]
    assert pilot_terms == [("pilot_contact", 3, None), ("pilot_exit", 10, 6), ("pilot_exit", 7, 9)]
    assert ours.auto_pilot == (0, 8) and fof.rules["downed_pilot"]["deadline_turn"] == 8


def test_forces_map_to_fubar():
    """000: "Troop Quality/Morale: D8/D10" (USMC), "D6/D10" (Taliban), "Body Armor: Standard (1D)", "M-16A2",
    "M-203 RGL", "M-249 SAW", "AK", "RPK MG", "RPG"; 002's tables: Veteran/Seasoned, Medium armour, Assault
    Rifle, Grenade Launcher, Light Machine Gun, RPG (rulings F45)."""
    sc = game().scenario
    units = {u.id: u for u in sc.units}
    assert [u.id for u in sc.units] == ["tal.1", "tal.2", "tal.3", "tal.4", "usmc.L", "usmc.A", "usmc.B", "usmc.C"]
    assert {u.training.name for u in sc.units if u.side == 0} == {"seasoned"}
    assert {u.training.name for u in sc.units if u.side == 1} == {"veteran"}
    assert [[w.name for w in f.weapons] for f in units["tal.1"].figures] == [
        ["assault_rifle"], ["rpg"], ["light_machine_gun"], *[["assault_rifle"]] * 4
    ]
    assert [len(units[t].figures) for t in ("tal.1", "tal.2", "tal.3", "tal.4")] == [7, 8, 5, 7]
    assert [[w.name for w in f.weapons] for f in units["usmc.A"].figures] == [
        ["assault_rifle"], ["assault_rifle", "grenade_launcher"], ["light_machine_gun"], ["assault_rifle"]
    ]
    assert {f.armour for f in units["usmc.A"].figures} == {"medium"}
    assert {f.armour for f in units["tal.2"].figures} == {"none"}
    assert units["usmc.L"].attachable and units["usmc.L"].figures[0].leader == "elite"
    assert sc.initiative_modifiers == (0, 1) and sc.turns == 9
    assert game(taliban_teams=3).setup.present == (True, True, True, False, True, True, True, True)


def test_taliban_have_the_first_turn():
    """000: "Initiative: Taliban for the first turn, then roll for Initiative normally" (rulings F5): the
    Taliban deploy, the squad leader joins a fire team, the Marines enter on the West edge, and turn 1
    starts with the Taliban selecting a unit, no die rolled."""
    s = game().new_initial_state(0)
    assert (s.decision.kind, s.decision.player, s.decision.context) == ("deploy", 0, {"turn": 0, "unit": "tal.1"})
    for _ in range(4):
        s.apply(s.legal_actions()[0])
    assert (s.decision.kind, s.legal_action_strings()) == ("attach_leader", ["usmc.A", "usmc.B", "usmc.C"])
    s.apply("usmc.B")
    assert len(s.members[6]) == 5
    for _ in range(3):
        assert s.decision.kind == "deploy" and all(a.startswith("x01") for a in s.legal_action_strings())
        s.apply(s.legal_actions()[0])
    assert (s.turn, s.decision.kind, s.decision.player, s._rolls) == (1, "select_unit", 0, [])


def test_victory_points():
    """000: "USMC fireteam makes contact with pilot = 3 VP; ... escorts the pilot off table prior to Turn 6
    = 10 VP; ... by end of Turn 8 = 7 VP"; "Per USMC KIA = 2 VP, Per USMC with Serious Wound = 1 VP, Per
    Marine Captured = 3 VP, Pilot still on table at end of Turn 8: VICTORY!" Under FUBAR a Marine casualty
    is 1 VP (rulings F46, F51)."""
    units = {
        "usmc.A": {"at": None, "exited": True, "figures": ["casualty", "casualty", "ok", "ok"]},
        "usmc.B": {"at": "x11y11", "figures": ["captured", "ok", "ok", "ok"]},
        "tal.1": {"at": "x19y11"},
    }
    s = game().state_from_position({"stage": "game_over", "turn": 9, "units": units,
                                    "pilot": {"at": None, "exited_turn": 5, "contact": True}})  # fmt: skip
    assert s.victory_points() == (5, 13) and s.returns() == (-1.0, 1.0)
    s = game().state_from_position({"stage": "game_over", "turn": 9, "units": units,
                                    "pilot": {"at": None, "exited_turn": 6, "contact": True}})  # fmt: skip
    assert s.victory_points() == (5, 10)
    s = game().state_from_position({"stage": "game_over", "turn": 9, "units": units,
                                    "pilot": {"at": None, "exited_turn": 8, "contact": True}})  # fmt: skip
    assert s.victory_points() == (5, 10)  # "by end of Turn 8": an escort in turn 8 still scores its 7 VP
    s = game().state_from_position({"stage": "game_over", "turn": 9, "units": units,
                                    "pilot": {"at": "x21y17", "contact": False}})  # fmt: skip
    assert s.victory_points() == (5, 0) and s.winner == 0
    # the end of turn 8 with the pilot on the table: the Taliban win whatever the VP
    s = state({"usmc.A": {"at": "x03y03", "tried": True}, "tal.1": {"at": "x19y11", "tried": True}}, turn=8)
    assert s.is_terminal and s.returns() == (1.0, -1.0) and s.score["taliban_auto_victory"] == 1


def test_contact_and_escort():
    """000: "One of Charlie Squad's fireteams must make contact with the downed pilot by moving into cohesion
    distance. The pilot can be moved as part of that fireteam." Alpha walks to 2" of him: contact (3 VP);
    he moves with Alpha (rulings F47)."""
    s = state({"usmc.A": {"at": "x15y17"}}, dice=[5, 6, 1])
    s.apply("usmc.A")
    s.apply("walk")
    s.apply("x19y17")
    assert s.contact == 1 and s.pilot_unit == 5 and s.pilot_pos == s.pos[5] and s.victory_points() == (0, 3)
    assert all(-1.0 <= float(v) <= 1.0 for v in s.observation(1))
    assert "usmc.A makes contact with the pilot" in notes(s)


def test_marines_escort_the_pilot_off_the_west_edge():
    """000: "The pilot must be escorted off the table by the Marines by the end of Turn 8." A Marine unit
    within a move of its (West) edge may leave by it (``exit``), taking the pilot: 10 VP in turn 5
    (rulings F15, F47)."""
    s = state({"usmc.A": {"at": "x03y17"}}, dice=[5], turn=5, pilot={"with": "usmc.A"})
    s.apply("usmc.A")
    s.apply("walk")
    assert "exit" in s.legal_action_strings()
    s.dice = ScriptedDice([6, 1] * 8)  # the turns left roll their initiative with nobody on the table
    s.apply("exit")
    assert s.gone[5] and s.pilot_exit == 5 and s.victory_points() == (0, 13)
    assert "usmc.A escorts the pilot off the table in turn 5" in notes(s)


def test_the_pilot_leaves_a_wiped_out_unit_for_cover():
    """000: "If a unit the pilot is with is wiped out, the pilot will move to the nearest cover that takes
    him away from the nearest Taliban unit." (rulings F47)"""
    units = {"usmc.A": {"at": "x19y15", "figures": ["ok", "casualty", "casualty", "casualty"]},
             "tal.1": {"at": "x19y11"}}  # fmt: skip
    s = state(units, dice=[5, 6] + [1] * 15 + [1], initiative="taliban", pilot={"with": "usmc.A"})
    s.apply("tal.1")
    s.apply("aimed_fire")
    assert s.decision.kind == "allocate_hits"
    s.dice = ScriptedDice([6, 1])
    s.apply("c0")
    assert s.pilot_unit == -1 and s.game.setup.table.name(s.pilot_pos) == "x21y17"
    assert "the pilot's unit is wiped out: he moves to cover at x21y17" in notes(s)


def test_the_air_strike_ends_the_game():
    """000: "the USMC pilot ... may attempt to call for an airstrike on the Taliban positions. He makes a TQ
    check. If he is successful, the scenario immediately ends and victory points are tallied." The pilot's
    check is a Veteran activation roll, 3+ (rulings F47)."""
    units = {"usmc.A": {"at": "x03y03"}, "tal.1": {"at": "x19y11"}}
    s = game().state_from_position({"stage": "turn_start", "turn": 2, "units": units}, dice=ScriptedDice([1, 6, 3]))
    assert (s.decision.kind, s.decision.player, s.legal_action_strings()) == ("call_airstrike", 1, ["pass", "yes"])
    s.apply("yes")
    assert s.is_terminal and s.airstrike == 1 and "air strike called in: the scenario ends" in notes(s)
    s = game().state_from_position({"stage": "turn_start", "turn": 2, "units": units}, dice=ScriptedDice([1, 6, 2]))
    s.apply("yes")
    assert not s.is_terminal and s.decision.kind == "select_unit"


def test_taliban_capture_marines_left_alone():
    """000: "Per Marine Captured = 3 VP" (Force on Force ruling R34, carried over, rulings F48): a Taliban
    unit ending a move within 3" of a Marine unit with no figure standing captures its casualties."""
    units = {"usmc.B": {"at": "x11y11", "figures": ["casualty"] * 4}, "tal.1": {"at": "x19y11"},
             "usmc.A": {"at": "x01y35"}}  # fmt: skip
    s = state(units, dice=[5], initiative="taliban")
    assert s.victory_points() == (4, 0)
    s.apply("tal.1")
    s.apply("run")
    s.apply("x13y11")
    if s.decision.kind == "fire_point":
        s.apply("pass")
    assert [s.fs[f] for f in s.members[6]] == [4] * 4 and s.victory_points() == (12, 0)
    assert "tal.1 captures 4 of usmc.B" in notes(s)


def test_nothing_is_hidden():
    """FUBAR has no hidden units (rulings F49): the Marines' observation shows every Taliban unit's place."""
    s = state({"usmc.A": {"at": "x03y03"}, "tal.1": {"at": "x19y11"}, "tal.2": {"at": "x19y25"}})
    obs = s.observation(1)
    order = fo._statics(s.sc)[3][1]  # the USMC's unit order: its own units, then the Taliban's
    for t in ("tal.1", "tal.2"):
        row = obs[order.index(s.sc.unit_ids.index(t)) * fo.UNIT_FEATURES :][: fo.UNIT_FEATURES]
        x, y = s.sc.table.xy[s.pos[s.sc.unit_ids.index(t)]]
        assert row[0] == 1.0 and row[2] == 1.0 and np.isclose(row[3], x / 36) and np.isclose(row[4], y / 36)


@pytest.mark.parametrize("seed", [0, 1])
def test_random_games_end_with_a_result(seed):
    """The whole scenario plays to its end (turn 9, the air strike or the automatic victory)."""
    rng = np.random.default_rng(seed)
    s = game().new_initial_state(seed)
    while not s.is_terminal:
        legal = s.legal_actions()
        s.apply(int(legal[rng.integers(len(legal))]))
    assert s.result()["winner"] in ("taliban", "usmc", None)


def test_the_pilot_is_handed_to_a_unit_in_contact():
    """000: "He may be handed off to another Marine fireteam if the two fireteams are in contact." A free
    step of an activation (``handoff``) when another fire team is within 3"; the activation goes on
    (rulings F47)."""
    units = {"usmc.A": {"at": "x15y17", "figures": ["ok", "casualty", "casualty", "casualty"]},
             "usmc.B": {"at": "x17y17"}, "usmc.C": {"at": "x15y25"}}  # fmt: skip
    s = state(units, dice=[5], pilot={"with": "usmc.A"})
    s.apply("usmc.A")
    assert "handoff" in s.legal_action_strings()
    s.apply("handoff")  # usmc.B is the one fire team in contact (usmc.C is 8" away)
    assert s.pilot_unit == 6 and s.pilot_pos == s.pos[6] and "the pilot goes from usmc.A to usmc.B" in notes(s)
    assert s.decision.kind == "choose_action" and s.decision.context["unit"] == "usmc.A"
    assert "handoff" not in s.legal_action_strings()
