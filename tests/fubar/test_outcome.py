"""Why a FUBAR game ended (its Outcome's termination): "Lost & Found"'s three endings under FUBAR."""

from __future__ import annotations

import fof_env
from fof_env import ScriptedDice

SCENARIO_SEED = "000_294bccfd88f0ebda.txt"


def _state(position, dice=()):
    return fof_env.make_game("fubar_lost_and_found").state_from_position(position, dice=ScriptedDice(list(dice)))


def test_an_air_strike_called_in_ends_the_game():
    """000: "He makes a TQ check. If he is successful, the scenario immediately ends and victory points are
    tallied." (the pilot's check is a Veteran activation roll, 3+: rulings F47)"""
    units = {"usmc.A": {"at": "x03y03"}, "tal.1": {"at": "x19y11"}}
    s = _state({"stage": "turn_start", "turn": 2, "units": units}, dice=[1, 6, 3])
    s.apply("yes")
    assert s.is_terminal and s.outcome().termination == "air strike"


def test_the_pilot_on_the_table_at_the_end_of_turn_8_is_an_automatic_victory():
    """000: "Pilot still on table at end of Turn 8: VICTORY!" """
    units = {"usmc.A": {"at": "x03y03", "tried": True}, "tal.1": {"at": "x19y11", "tried": True}}
    s = _state({"stage": "activation", "turn": 8, "initiative": "usmc", "units": units})
    assert s.is_terminal and s.outcome().termination == "auto victory" and s.outcome().winner == 0


def test_otherwise_the_last_turn_ends_it():
    """000: "Duration of Game: 9 Turns" """
    units = {"usmc.A": {"at": "x03y03", "tried": True}, "tal.1": {"at": "x19y11", "tried": True}}
    s = _state({"stage": "activation", "turn": 9, "initiative": "usmc", "units": units,
                "pilot": {"at": None, "exited_turn": 5, "contact": True}})  # fmt: skip
    assert s.is_terminal and s.outcome().termination == "turn limit" and s.outcome().winner == 1
