"""The generic Force on Force bot's held WWII Fog of War cards (agents/force_on_force_heuristic.py) on "Hedgerow
Hamlet" positions: where it plays An Excellent Position (``fog_of_war_unit``; rulings R67, R74).

Seed 004_fa8d850a9c124bb3.txt, "An Excellent Position". The US holds the card in turn 1; both sides pass, turn 2's
initiative (one d8 a side: 5 for the US, 1 for the Germans) gives the US the first offer of it.
"""

from __future__ import annotations

from functools import cache

import fof_env
from agents.force_on_force_heuristic import ForceOnForceHeuristic
from fof_env import ScriptedDice
from fof_env.force_on_force.rules.wwii_fog import card_keys, full_deck
from tests.agents.bot_checks import act_without_touching
from tests.force_on_force.helpers import SEED_WWII, seed_says

US = 0
SCREEN = {"id": "screen", "kind": "woods", "rect": [8, 0, 10, 12]}  # hides x05y05 from x15y17 and x31y31
BELT = {"id": "belt", "kind": "woods", "rect": [8, 0, 10, 36]}  # hides x < 8 from x > 10


@cache
def game():
    return fof_env.make_game("wwii_hedgerow_hamlet")


def offered(units: dict, *features: dict):
    """Turn 2's offer of the US's Excellent Position, ``units`` on a 36" table with ``features``."""
    deck = [card_keys()[c] for c in full_deck()]
    deck.remove("excellent_position")
    pos = {"turn": 1, "initiative": "us", "units": units,
           "table": {"table": {"width_in": 36, "height_in": 36, "spacing_in": 2}, "features": list(features)},
           "fog_cards": {"deck": deck, "hands": {"us": ["excellent_position"]}}}  # fmt: skip
    s = game().state_from_position(pos, dice=ScriptedDice([5, 1]))
    s.apply("pass")
    s.apply("pass")
    assert (s.decision.kind, s.decision.player, s.turn) == ("fog_of_war_unit", US, 2)
    assert s.decision.context["result"] == "excellent_position"
    return s


def choose(state) -> str:
    return state.action_to_str(act_without_touching(ForceOnForceHeuristic(game(), US), state))


def test_the_excellent_position_goes_to_the_unit_under_fire():
    """004: "As long as the unit stays in its current position it receives an additional Defense die": it helps
    where the enemy fires. ger.1's rifles see us.A and the Sherman; rifles do not hurt a buttoned-up tank
    (R81) and its open hatch would not gain the die (R74): the card goes to us.A, not to the Sherman and its
    larger crew."""
    seed_says(SEED_WWII, "As long as the unit stays in its current position it receives an additional Defense die")
    s = offered({"us.A": {"at": "x05y13"}, "us.Sherman": {"at": "x05y17"}, "ger.1": {"at": "x13y15"},
                 "ger.2": {"at": "x31y31"}})  # fmt: skip
    assert s.legal_action_strings() == ["us.A", "us.Sherman", "pass"]
    assert choose(s) == "us.A"


def test_the_excellent_position_goes_to_the_tank_the_panzer_fires_at():
    """004: "an additional Defense die over and above any Cover or Armor dice": the Panzer IV (x15y17) faces the
    Sherman; the screen of woods hides us.A from it: the die helps the Sherman's armour (R74)."""
    s = offered({"us.A": {"at": "x05y05"}, "us.Sherman": {"at": "x05y17"}, "ger.PzIV": {"at": "x15y17"},
                 "ger.2": {"at": "x31y31"}}, SCREEN)  # fmt: skip
    assert choose(s) == "us.Sherman"


def test_the_card_is_kept_while_no_enemy_could_fire():
    """004: "If the unit moves, it loses this advantage." A belt of woods hides every US unit from every German:
    the die would save nothing now, and the unit may well move before it would: the bot keeps the card for a
    later turn (``pass``)."""
    seed_says(SEED_WWII, "If the unit moves, it loses this advantage.")
    s = offered({"us.A": {"at": "x05y05"}, "us.Sherman": {"at": "x05y17"}, "ger.1": {"at": "x13y05"},
                 "ger.PzIV": {"at": "x15y17"}}, BELT)  # fmt: skip
    assert choose(s) == "pass"
