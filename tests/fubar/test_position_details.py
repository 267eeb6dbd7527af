"""Every field of the position format is read and written back; every bad value is one line; the
engine narrates what happens; FUBAR rolls only six-sided dice."""

from __future__ import annotations

import numpy as np
import pytest

import fof_env
from fof_env import PositionError
from fof_env.core.events import DiceRolled
from fof_env.fubar import events as ev

from .helpers import figures, game, infantry, position, vehicle

SEED = "002_b69cb091b8d89aa2.txt"
UNITS = (
    vehicle("r.9", (3, 15), "apc", "light", ("heavy_machine_gun", "light_cannon"), capacity=6, facing="south"),
    infantry("r.1", (3, 11), figures(1, leader="elite", role="Leader"), figures(3)),
    infantry("r.2", (5, 19), figures(4)),
    infantry("b.1", (15, 11), figures(4)),
    infantry("b.2", (17, 21), figures(4)),
)


def test_every_field_round_trips():
    g = game(*UNITS)
    spec = {
        "stage": "activation", "turn": 3, "initiative": "blue", "active": "red",
        "units": {
            "r.9": {"at": "x03y15", "figures": ["ok", "destroyed"], "status": ["on_guard", "stunned", "immobilised"],
                    "facing": "southwest", "deployed_at": "x01y15", "tried": True},
            "r.1": {"at": "x03y15", "in": "r.9", "figures": ["suppressed", "casualty", "ok", "ok"],
                    "out_of_touch": 1, "deployed_at": "x01y11"},
            "r.2": {"at": None, "exited": True},
            "b.1": {"at": "x15y11", "status": ["reacted", "gone_to_ground", "duck_weave"]},
            "b.2": {"at": "x17y21", "figures": ["captured", "ok", "ok", "ok"]},
        },
    }  # fmt: skip
    s = g.state_from_position(spec)
    back = s.to_position()
    for uid, unit_spec in spec["units"].items():
        assert {k: back["units"][uid].get(k) for k in unit_spec} == unit_spec, uid
    assert (back["turn"], back["initiative"], back["active"]) == (3, "blue", "red")
    assert (s.facing[0], s.stunned[0], s.immob[0], s.oot[1], s.carried[1], s.gone[2]) == (5, 1, 1, 1, 0, 1)
    engaged = g.state_from_position({"stage": "activation", "units": {
        "r.1": {"at": "x03y11", "engaged": "b.1"}, "b.1": {"at": "x05y11", "engaged": "r.1"}, "r.2": {"at": "x05y19"}}})  # fmt: skip
    assert engaged.to_position()["units"]["r.1"]["engaged"] == "b.1" and engaged.engaged[1] == 3
    wreck = g.state_from_position({"stage": "activation", "units": {"r.9": {"at": "x03y15", "status": ["destroyed"],
                                                                            "figures": ["ok", "casualty"]}}})  # fmt: skip
    assert wreck.to_position()["units"]["r.9"]["figures"] == ["ok", "casualty"] and not wreck.is_veh(0)
    over = g.state_from_position({"stage": "game_over", "units": {"r.1": {"at": "x03y11"}}, "auto_victory": "blue"})
    assert over.is_terminal and over.to_position()["auto_victory"] == "blue" and over.returns() == (-1.0, 1.0)


@pytest.mark.parametrize(
    ("units", "extra", "message"),
    [
        ({"r.2": {"at": "x03y03", "exited": True}}, {}, "an exited unit is off the table"),
        ({"r.9": {"facing": "up"}}, {}, "a vehicle's facing"),
        ({"r.1": {"facing": "north"}}, {}, "a vehicle's facing"),
        ({"r.1": {"out_of_touch": 4}}, {}, "out_of_touch must be an integer 0..3"),
        ({"r.1": {"tried": 1}}, {}, "tried must be true or false"),
        ({"r.1": {"status": "on_guard"}}, {}, "status must be a list"),
        ({"r.9": {"figures": ["ok", "suppressed"]}}, {}, r"must list 2 statuses from \('ok', 'destroyed'\)"),
        ({"r.9": {"status": ["destroyed", "stunned"]}}, {}, "a destroyed vehicle is not stunned"),
        ({"r.1": {"engaged": "r.2"}, "r.2": {"engaged": "r.1"}}, {}, "is on its own side"),
        ({"r.9": {"engaged": "b.1"}, "b.1": {"engaged": "r.9"}}, {}, "vehicles and passengers are not in close combat"),
        ({}, {"active": "green"}, "active must be one of red, blue"),
        ({}, {"initiative": 1}, "initiative must be one of red, blue"),
        ({}, {"auto_victory": "red"}, "auto_victory belongs to a 'game_over' position"),
        ({}, {"pilot": {"at": "x01y01"}}, "this scenario has no downed pilot"),
        ({}, {"seed": -1}, "seed"),
        ({}, {"colour": "red"}, "unknown position keys"),
    ],
)
def test_bad_position_fields(units, extra, message):
    g = game(*UNITS)
    with pytest.raises(PositionError, match=message) as err:
        position(g, units, **extra)
    assert "\n" not in str(err.value)


def test_attached_leaders_in_positions():
    g = fof_env.make_game("fubar_lost_and_found")
    s = g.state_from_position({"stage": "activation", "units": {"usmc.L": {"attached_to": "usmc.B"},
                                                                "usmc.B": {"at": "x03y05"}}})  # fmt: skip
    assert len(s.members[6]) == 5 and s.members[4] == [] and s.activation_need(6) == 2
    assert s.to_position()["units"]["usmc.L"] == {"attached_to": "usmc.B"}
    for units, message in (
        ({"usmc.L": {"attached_to": "tal.1"}}, "is not an infantry unit of its side"),
        ({"usmc.L": {"at": "x03y03"}}, "an attachable leader is given as"),
        ({"usmc.A": {"attached_to": "usmc.B"}}, "only an attachable leader takes 'attached_to'"),
        ({"usmc.L": {"attached_to": "usmc.B", "at": "x03y03"}}, "only an attachable leader takes 'attached_to', and nothing else"),
        ({"tal.4": {"at": "x13y31"}}, None),
    ):  # fmt: skip
        if message is None:
            assert g.state_from_position({"stage": "activation", "units": units}).pos[3] >= 0
            with pytest.raises(PositionError, match="not in this game's order of battle"):
                fof_env.make_game("fubar_lost_and_found", taliban_teams=3).state_from_position(
                    {"stage": "activation", "units": units})
            continue
        with pytest.raises(PositionError, match=message):
            g.state_from_position({"stage": "activation", "units": units})
    for pilot, message in (({"with": "tal.1"}, "is not a unit of his side"), ({"with": "usmc.C"}, "is not a unit of his side"),
                           ({"exited_turn": 9}, "exited_turn must be an integer 0..1")):  # fmt: skip
        with pytest.raises(PositionError, match=message):
            g.state_from_position({"stage": "activation", "units": {"tal.1": {"at": "x19y11"}}, "pilot": pilot})


def test_the_engine_narrates_what_happens():
    """Notes a player (and ``fof play``) reads: failed activations, On Guard, going to ground, boarding."""
    g = game(*UNITS)
    s = position(g, {"r.9": None}, dice=[1])
    s.apply("r.1")
    notes = [e.text for e in s.events if isinstance(e, ev.Note)]
    assert notes == ["r.1 fails to activate: On Guard"]
    s = position(g, {"r.9": None}, dice=[5])
    s.apply("r.1")
    s.apply("on_guard")
    assert [e.text for e in s.events if isinstance(e, ev.Note)] == ["r.1 is On Guard"]
    s = position(g, {"r.9": None}, dice=[5])
    s.apply("r.2")
    s.apply("gone_to_ground")
    assert any(e.text == "r.2 goes to ground where it is" for e in s.events if isinstance(e, ev.Note))
    s = position(g, {"r.1": {"at": "x03y11"}}, dice=[5])
    s.apply("r.1")
    s.apply("walk")
    s.apply("x03y15")
    if s.decision.kind == "fire_point":
        s.apply("pass")
    assert any(e.text == "r.1 boards r.9" for e in s.events if isinstance(e, ev.Note))


@pytest.mark.parametrize("name", ["fubar_lost_and_found", "fubar_village_patrol"])
def test_only_six_sided_dice(name):
    """002: "Six-sided Dice Conventions": every roll of the engine is a D6 (damage, close combat, withdrawal,
    initiative, activation, saves, fire)."""
    g = fof_env.make_game(name)
    purposes = set()
    for seed in range(6):
        s = g.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal:
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
        rolls = [e for e in s.events if isinstance(e, DiceRolled)]
        assert rolls and all(e.sides == 6 for e in rolls)
        purposes |= {e.purpose.split(" of ")[0] for e in rolls}
    assert {"activation", "fire", "armour save"} <= purposes


@pytest.mark.parametrize("name", ["fubar_lost_and_found", "fubar_village_patrol"])
def test_between_activations_the_position_is_the_whole_state(name):
    """At every moment between activations the position holds everything: a state rebuilt from it equals
    the played one in every slot (no leftover of the activation just finished), and plays on the same."""
    from fof_env.fubar.state import FubarState

    skip = {"game", "sc", "dice", "history", "events", "_rolls", "_start", "_legal_cache", "_mask_cache"}
    g = fof_env.make_game(name)
    compared = 0
    for seed in range(4):
        s = g.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal:
            if s.decision.kind == "select_unit" and s.stack == [(8,)]:
                again = g.state_from_position(s.to_position())
                for slot in FubarState.__slots__:
                    if slot not in skip:
                        assert getattr(again, slot) == getattr(s, slot), (seed, len(s.history), slot)
                assert again.legal_actions() == s.legal_actions()
                compared += 1
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
    assert compared > 20


def test_damage_effects_this_turn_are_part_of_the_position():
    """002: "If the same effect is rolled a second time in a single turn take the next highest effect": a
    position carries the effects a vehicle suffered this turn (``damaged``)."""
    g = game(*UNITS)
    s = g.state_from_position({"stage": "activation", "units": {"r.9": {"at": "x03y15", "damaged": ["crew_stunned"]},
                                                                "b.1": {"at": "x15y11"}}})  # fmt: skip
    assert s.effects[0] == 2 and s.to_position()["units"]["r.9"]["damaged"] == ["crew_stunned"]
    for units, message in (({"r.1": {"damaged": ["crew_stunned"]}}, "only a vehicle"),
                           ({"r.9": {"damaged": ["destroyed"]}}, "damaged must be a list of names")):  # fmt: skip
        with pytest.raises(PositionError, match=message):
            position(g, units)


def test_more_bad_fields():
    g = game(*UNITS)
    for units, message in (
        ({"b.1": {"engaged": "r.9"}}, "must be engaged with it too"),  # r.9 is unit 0
        ({"r.1": {"status": ["sleeping"]}}, "status must be a list of names from"),
        ({"r.1": {"status": [3]}}, "status must be a list of names from"),
    ):
        with pytest.raises(PositionError, match=message):
            position(g, units)


def test_contact_in_the_corner():
    """The pilot on the very first point of the table (x01y01) is reached like anywhere else."""
    g = fof_env.make_game("fubar_lost_and_found")
    s = g.state_from_position({"stage": "activation", "initiative": "usmc", "units": {"usmc.A": {"at": "x07y01"}},
                               "pilot": {"at": "x01y01"}}, dice=fof_env.ScriptedDice([5, 6, 1]))  # fmt: skip
    s.apply("usmc.A")
    s.apply("walk")
    s.apply("x03y01")
    assert s.contact and s.pilot_unit == 5


def test_automatic_victory_of_the_first_side_is_written():
    g = game(*UNITS)
    over = g.state_from_position({"stage": "game_over", "units": {"r.1": {"at": "x03y11"}}, "auto_victory": "red"})
    assert over.to_position()["auto_victory"] == "red" and over.returns() == (1.0, -1.0)
