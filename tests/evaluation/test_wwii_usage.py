"""Every WWII rule of seed 004 fires in seeded heuristic games of "Hedgerow Hamlet" (issue 13: the scenario must
use each of them in some games; ``python -m evaluation.wwii_usage --games 500`` is the full count)."""

from __future__ import annotations

from evaluation import wwii_usage
from fof_env.core.events import DiceRolled
from fof_env.force_on_force.events import Note
from fof_env.force_on_force.rules.wwii_fog import FogCardPlayed


def test_a_rule_is_recognised_by_its_roll_its_decision_or_its_note():
    events = [DiceRolled(6, 3, "first aid check of us.A"), DiceRolled(6, 2, "first aid check of us.B"),
              DiceRolled(8, 5, "morale of us.Sherman (bail out?)"), Note("the crew of us.Sherman bails out"),
              DiceRolled(6, 4, "firepower of ger.MG")]
    found = wwii_usage.rules_in_game(["call_medic", "select_unit", "walking_wounded", "walking_wounded"], events)
    assert found["first_aid_check"] == 2 and found["bail_out_check"] == 1 and found["bail_out"] == 1
    assert found["mg_team_fire"] == 1 and found["call_medic"] == 1 and found["walking_wounded"] == 2
    assert found["unbutton"] == 0 and found["air_strike"] == 0


def test_a_reserve_or_an_asset_entering_is_recognised_by_its_card_event():
    events = [FogCardPlayed("us", "brownings_buzz_saw", "us.MMG enters at x05y07"),
              FogCardPlayed("us", "hunted", "ger gains a Hidden sniper team"),
              FogCardPlayed("ger", "tank_support", "no reserve unit of ger for it in this scenario: no effect"),
              FogCardPlayed("us", "unexpected_help", "us.LMG enters at x07y07"),
              FogCardPlayed("us", "whered_they_come_from", "ger.3 enters at x29y07"),
              FogCardPlayed("ger", "unexpected_help", "no Asset Card of ger left in this scenario: no effect")]
    found = wwii_usage.rules_in_game([], events)
    assert (found["reserve_enters"], found["asset_enters"]) == (2, 2)


def test_every_wwii_rule_fires_in_some_of_24_heuristic_games():
    # seeds 12..35: Danger Close is the rarest rule (3 of the first 72 games), once in this window
    in_games, total = wwii_usage.count("wwii_hedgerow_hamlet", ("heuristic", "heuristic"), 24, seed=12)
    never = [rule for rule in wwii_usage.RULES if not in_games[rule]]
    assert never == [], f"never fired in 24 games: {never}"
    assert total["first_aid_check"] > total["call_medic"] > 0
