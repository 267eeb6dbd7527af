"""Close Air Support in WWII (004; rule module ``wwii_close_air_support``, rules/wwii_air.py, rulings R68-R69).

The test scenario ``scenarios/crossroads_air.json``: Crossroads with a radioman in Red Two, a P-47
strafing run (two sorties) for Red and the WWII Fog of War deck. Positions at turn 1 with scripted dice;
both sides end turn 1, the initiative dice are 4 (Red's d8) and 2 (Blue's d6), and turn 2 starts with
Red's call.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

import fof_env
from fof_env import ScriptedDice
from fof_env.core.errors import PositionError, ScenarioError
from fof_env.force_on_force.rules.wwii_air import air_assets
from fof_env.force_on_force.rules.wwii_fog import card_keys, full_deck

SCENARIO = Path(__file__).parent / "scenarios" / "crossroads_air.json"
UNITS = {
    "red.1": {"at": "x05y05"},
    "red.2": {"at": "x05y07"},
    "blue.1": {"at": "x13y05"},
    "blue.2": {"at": "x23y23"},
}
TURN_2 = [4, 2]  # turn 2's initiative dice: Red's d8 4, Blue's d6 2


@cache
def game(asset: str = "p47_strafing"):
    data = json.loads(SCENARIO.read_text())
    data["rules"]["wwii_close_air_support"]["asset"] = asset
    return fof_env.make_game("force_on_force", scenario=data)


def turn_2(rolls, units=None, asset="p47_strafing", **extra):
    """Turn 1 ends with no one acting; turn 2 starts (initiative dice ``TURN_2``)."""
    deck = [card_keys()[c] for c in full_deck()]
    pos = {"turn": 1, "initiative": "red", "units": units or UNITS, "fog_cards": {"deck": deck, **extra}}
    s = game(asset).state_from_position(pos, dice=ScriptedDice(TURN_2 + list(rolls)))
    s.apply("pass")
    s.apply("pass")
    return s


def fired(s) -> list[tuple]:
    return [(e.shooter, e.target, e.casualties) for e in s.events if type(e).__name__ == "FireResolved"]


def test_a_unit_with_a_radio_calls_the_strike():
    """004: "Only units with equipped with radios and possessing the frequencies for assigned CAS assets
    may call for an air strike." Red Two holds the radioman: at the start of turn 2 Red may call the
    strike on an enemy unit Red Two sees (Blue One; Blue Two is behind the farm) or pass."""
    s = turn_2([])
    assert (s.decision.kind, s.decision.player, s.turn) == ("call_airstrike", 0, 2)
    assert s.legal_action_strings() == ["blue.1", "pass"]
    s.apply("pass")
    assert s.decision.kind == "declare_overwatch" and s.cas_left == 2


def test_no_radio_no_call():
    """004: "Only units with equipped with radios and possessing the frequencies for assigned CAS assets
    may call for an air strike." Red Two pinned (or gone): no unit of Red may call, no decision."""
    units = {**UNITS, "red.2": {"at": "x05y07", "status": ["pinned"]}}
    s = game().state_from_position({"turn": 1, "initiative": "red", "units": units,
                                    "fog_cards": {"deck": [card_keys()[c] for c in full_deck()]}})  # fmt: skip
    assert s.cas_targets() == []
    units = {k: v for k, v in UNITS.items() if k != "red.2"}
    s = turn_2([], units=units)
    assert s.decision.kind == "declare_overwatch"


def test_a_strafing_run_with_the_asset_cards_firepower():
    """004: "Air Strikes in WWII are limited to Strafing Runs and Bomb Runs." and "The Firepower of the
    Strafing Run and Bombing Runs are defined by the air support Asset Card in play." The P-47 card (a
    reconstruction, R69) strafes with 8d8: Red Two's radio call 5 passes, the Danger Close d6 (Red One is 8"
    from Blue One) is a 3; 8 7 6 5 4 3 2 1 against Blue One's 6 5 1 1: 3 casualties; its morale 4 passes."""
    s = turn_2([5, 3, 8, 7, 6, 5, 4, 3, 2, 1, 6, 5, 1, 1, 4])
    s.apply("blue.1")
    assert fired(s) == [("P-47 Thunderbolt strafing run", "blue.1", 3)]
    assert s.cas_left == 1 and s.dice._pos == 17
    assert s.decision.kind == "declare_overwatch"
    assert s.to_position()["cas_sorties"] == 1


def test_danger_close_is_8_inches():
    """004: "Since air control and target acquisition weren't as sophisticated in WWII as today, the
    Danger Close distance is extended from 4" to 8."" Red One stands 8" from Blue One: the Danger Close
    d6 is a 1 and the run strikes Red One (8d8 against its 4d8)."""
    s = turn_2([5, 1, 8, 7, 6, 5, 4, 3, 2, 1, 8, 5, 1, 1, 4, 4])
    s.apply("blue.1")
    assert fired(s) == [("P-47 Thunderbolt strafing run", "red.1", 3)]
    units = {**UNITS, "red.1": {"at": "x03y05"}}  # 10" away: no Danger Close roll
    s = turn_2([5, 8, 7, 6, 5, 4, 3, 2, 1, 6, 5, 1, 1, 4], units=units)
    s.apply("blue.1")
    assert fired(s) == [("P-47 Thunderbolt strafing run", "blue.1", 3)] and s.dice._pos == 16


def test_spotty_radio_a_failed_call_keeps_the_sortie():
    """004: "spotty radio communications is the norm unless the scenario states otherwise." The caller's
    TQ check (R68): Red Two's d8 is a 3, the call fails, the sortie stays."""
    s = turn_2([3])
    s.apply("blue.1")
    assert fired(s) == [] and s.cas_left == 2 and s.dice._pos == 3


def test_a_bomb_run_strikes_everyone_near_the_target():
    """004: "Strafing Runs and Bombing Runs are resolved in the same manner described for modern
    airstrikes, but Bombing Runs are limited to using gravity bombs." The P-47 bomb card (6d10, 4"
    radius, R69) on Blue One also strikes Blue Two 4" away; Red One, 8" away, is outside. Each takes
    10 9 8 1 1 1: three hits no defence die of 6 or less can block."""
    units = {**UNITS, "blue.2": {"at": "x17y05"}}
    bombs = [10, 9, 8, 1, 1, 1]
    s = turn_2([5, 3, *bombs, 6, 1, 1, 1, 5, *bombs, 1, 1, 1, 5], units=units, asset="p47_bombs")
    assert s.legal_action_strings() == ["blue.1", "blue.2", "pass"]
    s.apply("blue.1")
    assert fired(s) == [("P-47 Thunderbolt bomb run (500 lb bombs)", "blue.1", 3),
                        ("P-47 Thunderbolt bomb run (500 lb bombs)", "blue.2", 3)]  # fmt: skip


def test_youre_grounded_grounds_the_air_support():
    """004: "A ferocious storm blows up, grounding all air assets." No call while You're Grounded! is in
    play (rulings R62, R68)."""
    s = turn_2([], grounded=True)
    assert s.decision.kind == "declare_overwatch" and s.cas_left == 2


def test_no_sorties_left_no_call_and_positions():
    """004: "The Firepower of the Strafing Run and Bombing Runs are defined by the air support Asset Card
    in play." Sorties left are part of the position; none left, no call."""
    deck = [card_keys()[c] for c in full_deck()]
    pos = {"turn": 1, "initiative": "red", "units": UNITS, "fog_cards": {"deck": deck}, "cas_sorties": 0}
    s = game().state_from_position(pos, dice=ScriptedDice(TURN_2))
    assert s.to_position()["cas_sorties"] == 0
    s.apply("pass")
    s.apply("pass")
    assert s.decision.kind == "declare_overwatch"
    with pytest.raises(PositionError, match="cas_sorties must be an integer 0..20"):
        game().state_from_position({**pos, "cas_sorties": -1})
    plain = fof_env.make_game("force_on_force", scenario=str(SCENARIO.parent / "crossroads.json"))
    with pytest.raises(PositionError, match="no close air support"):
        plain.state_from_position({"turn": 1, "initiative": "red", "units": UNITS, "cas_sorties": 1})


def test_asset_cards_are_a_reconstruction_and_bad_settings_are_refused():
    """004: "The Firepower of the Strafing Run and Bombing Runs are defined by the air support Asset Card
    in play." No Asset Card is in the seeds: the file says so; a scenario naming no card is refused."""
    path = Path(fof_env.__file__).parent / "force_on_force" / "data" / "wwii_air_assets.json"
    assert json.loads(path.read_text())["provenance"].startswith("RECONSTRUCTION")
    assert {a.run for a in air_assets().values()} == {"strafing", "bomb"}
    data = json.loads(SCENARIO.read_text())
    data["rules"]["wwii_close_air_support"]["asset"] = "b17_carpet"
    with pytest.raises(
        ScenarioError, match="rules.wwii_close_air_support.asset: 'b17_carpet' is not an air asset"
    ):
        fof_env.make_game("force_on_force", scenario=data)
    data["rules"]["wwii_close_air_support"] = {"side": "red", "asset": "p47_strafing", "gunship": True}
    with pytest.raises(ScenarioError, match="not a setting of the wwii_close_air_support rule"):
        fof_env.make_game("force_on_force", scenario=data)


def test_random_games_with_air_support_replay():
    """004: "The process for calling in the strike is the same as those for contemporary games" -- calls
    come and go in random play; records replay bit for bit."""
    import random

    from fof_env.core.game import State

    calls = 0
    for seed in range(20):
        s = game().new_initial_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal:
            calls += s.decision.kind == "call_airstrike"
            s.apply(rng.choice(s.legal_actions()))
        assert State.from_json(s.to_json(), game()).digest() == s.digest()
    assert calls > 0


@pytest.mark.parametrize(("sorties", "choices"), [(2, ["x11y11", "pass"]), (0, [])])
def test_fire_fire_anywhere_with_air_support(sorties, choices):
    """004: "You may designate any building within LOS of one of your units (or anywhere on the table if
    you have air support with offensive capabilities) and declare that it is burning." Red's units in the
    copse see no building: with a sortie left Red may burn the farm anyway; with none the card has
    nothing to burn (rulings R62, R68)."""
    from fof_env.force_on_force.constants import AUTO, ST_SELECT

    keys = [card_keys()[c] for c in full_deck()]
    keys.remove("fire_fire")
    units = {**UNITS, "red.1": {"at": "x03y19"}, "red.2": {"at": "x05y21"}}
    pos = {"turn": 1, "initiative": "red", "units": units, "fog_cards": {"deck": ["fire_fire", *keys]},
           "cas_sorties": sorties}  # fmt: skip
    s = game().state_from_position(pos, dice=ScriptedDice([]))
    s._fog_of_war(0)  # Red's unmodified 1 on a reaction test
    s.kind, s.step = AUTO, ST_SELECT
    s._run()
    if choices:
        assert (s.decision.kind, s.legal_action_strings()) == ("reinforce_point", choices)
    else:
        assert s.decision.kind == "select_unit" and s.cards.burning == ()
