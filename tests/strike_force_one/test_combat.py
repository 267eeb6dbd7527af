"""Combat: rules 5.1-5.6 of the basic game, and the Combat Results Table."""

import json
from importlib import resources

import numpy as np
import pytest

from fof_env import IllegalActionError, ScriptedDice
from fof_env.core.events import DiceRolled
from fof_env.strike_force_one.events import AttackResolved

from .helpers import CRT, attack, events, make, neighbors, where

# The six hexes around 0502, where U.S. A defends in most tests below.
RING = ["0601", "0602", "0501", "0503", "0401", "0402"]


def combat(soviet, us, **kw):
    return make(soviet, us, phase="soviet_combat", **kw)


# ---------------------------------------------------------------------- 5.1
def test_5_1_only_adjacent_enemy_units_may_be_attacked():
    """001_8616da5a6ffeaaf0.txt [5.1]: "a player may use his units to make attacks against any of the
    opposing player's units that are in hexes adjacent to his units." """
    s = combat({"A": "0601"}, {"A": "0502", "B": "0503", "C": "0109"})
    assert "0503" not in neighbors("0601")
    assert s.decision.kind == "attack_target" and s.decision.player == 0
    assert s.legal_action_strings() == ["0502", "pass"]
    before = s.to_json()
    with pytest.raises(IllegalActionError):
        s.apply("0503")
    assert s.to_json() == before


def test_5_1_only_the_phasing_player_attacks():
    """001_8616da5a6ffeaaf0.txt [5.1]: "Only the player whose combat part of the turn it is may make
    attacks." """
    s = combat({"A": "0601"}, {"A": "0502"})
    s.apply("pass")  # the Soviet combat phase ends without an attack
    assert s.to_position()["phase"] == "us_move"
    assert s.decision.player == 1 and s.decision.kind == "select_unit"
    s.apply("pass")
    assert s.to_position()["phase"] == "us_combat"
    assert s.decision.player == 1 and s.legal_action_strings() == ["0601", "pass"]


def test_5_1_attacks_in_any_order_results_applied_before_next_attack():
    """001_8616da5a6ffeaaf0.txt [5.1]: "These attacks are made in any order the attacking player
    wishes, as long as the results of one attack are applied before going on to the next attack." """
    s = combat({"A": "0601", "B": "0302"}, {"A": "0502", "B": "0301"})
    assert s.legal_action_strings() == ["0301", "0502", "pass"]  # either attack first
    attack(s, "0301", ["0302"], roll=1)  # one unit, roll 1: Defender Retreats
    # U.S. B has no retreat (0201 and 0401 are next to Soviet units): eliminated at once.
    assert where(s, "us.B") is None
    assert s.decision.kind == "advance"  # the result is finished before the next attack
    with pytest.raises(IllegalActionError):
        s.apply("0502")
    s.apply("pass")
    assert s.legal_action_strings() == ["0502", "pass"]


# ---------------------------------------------------------------------- 5.2
def test_5_2_one_defending_unit_per_attack():
    """001_8616da5a6ffeaaf0.txt [5.2]: "No more than one of the opposing player's units may be the
    object of a particular attack." """
    s = combat({"A": "0601", "B": "0602"}, {"A": "0502", "B": "0503"})
    s.apply("0502")
    assert s.decision.kind == "attack_add" and s.decision.context["target"] == "0502"
    assert "0503" not in s.legal_action_strings()  # a second target cannot be added
    s.apply("0601")
    s.apply("0602")
    s.dice = ScriptedDice([1])
    s.apply("resolve")
    (res,) = events(s, AttackResolved)
    assert res.defenders == ("us.A",) and res.target == "0502"
    assert where(s, "us.B") == "0503"


def test_5_2_no_unit_attacked_more_than_once_per_turn():
    """001_8616da5a6ffeaaf0.txt [5.2]: "No unit may be attacked more than once per turn." """
    s = combat({"A": "0601", "B": "0602"}, {"A": "0502"})
    attack(s, "0502", ["0601"], roll=3)  # one unit, roll 3: Attacker Retreats
    s.apply("0701")
    # Soviet B is still adjacent and has not attacked, but U.S. A was attacked this turn.
    assert where(s, "sov.B") == "0602" and "0502" in neighbors("0602")
    assert s.to_position()["phase"] == "us_move"  # no attack left: the combat phase ended
    # The same, set up directly with the position's "attacked" list.
    s = combat({"A": "0601", "B": "0402"}, {"A": "0502", "B": "0302"}, attacked=["us.A"])
    assert s.legal_action_strings() == ["0302", "pass"]


def test_5_2_attacked_once_per_turn_not_once_per_game():
    """001_8616da5a6ffeaaf0.txt [5.2]: "No unit may be attacked more than once per turn." Ruling: tracked
    per turn; the next turn the same unit may be attacked again."""
    s = combat({"A": "0601", "B": "0602"}, {"A": "0502"})
    attack(s, "0502", ["0601"], roll=3)  # AR
    s.apply("0701")
    s.apply("pass")  # U.S. movement
    s.apply("pass")  # U.S. combat (U.S. A could attack Soviet B)
    s.apply("pass")  # Soviet movement, turn 2
    assert s.to_position()["turn"] == 2 and s.to_position()["attacked"] == []
    assert s.legal_action_strings() == ["0502", "pass"]


def test_5_2_no_attacking_unit_in_more_than_one_attack():
    """001_8616da5a6ffeaaf0.txt [5.2]: "No attacking unit may take part in more than one attack per
    turn." """
    s = combat({"A": "0502", "B": "0602"}, {"A": "0401", "B": "0503"})
    assert {"0401", "0503"} <= neighbors("0502")
    attack(s, "0401", ["0502"], roll=1)  # one unit, roll 1: Defender Retreats
    assert s.decision.kind == "retreat_hex"
    s.apply("0301")
    s.apply("pass")  # no advance
    assert s.legal_action_strings() == ["0503", "pass"]
    s.apply("0503")
    # Soviet A is adjacent to U.S. B but already attacked: only Soviet B may join.
    assert s.legal_action_strings() == ["0602"]
    # Once Soviet B has attacked too, nothing is left and the phase ends.
    s.apply("0602")
    s.dice = ScriptedDice([3])
    s.apply("resolve")  # roll 3: Attacker Retreats
    s.apply(s.legal_action_strings()[0])
    assert s.to_position()["phase"] == "us_move"


def test_5_2_at_most_four_attacks_per_turn():
    """001_8616da5a6ffeaaf0.txt [5.2]: "Because of the number of units in the game, it is impossible to
    have more than four attacks per turn for either player." """
    game_ = make({}, {}).game
    for seed in range(12):
        s = game_.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal:
            s.apply(int(rng.choice(s.legal_actions())))
        per_phase: dict[tuple[int, str], int] = {}
        turn_phase = None
        for e in s.events:
            if type(e).__name__ == "PhaseStarted":
                turn_phase = (e.turn, e.phase)
            elif isinstance(e, AttackResolved):
                per_phase[turn_phase] = per_phase.get(turn_phase, 0) + 1
        assert all(n <= 4 for n in per_phase.values()), per_phase


# ---------------------------------------------------------------------- 5.3
def test_5_3_several_units_may_join_one_attack_up_to_six():
    """001_8616da5a6ffeaaf0.txt [5.3]: "More than one unit may take part in a particular attack.
    Because all the units must be adjacent to the unit that they are attacking, no more than six units
    could take part in an attack against a single opposing unit." """
    s = combat(dict(zip("ABCDEF", RING, strict=True)), {"A": "0502"})
    s.apply("0502")
    assert s.legal_action_strings() == sorted(RING)  # resolve needs at least one attacker
    for i, h in enumerate(RING):
        s.apply(h)
        assert s.decision.context["differential"] == i
        assert "resolve" in s.legal_action_strings()
    assert s.legal_action_strings() == ["resolve"]
    s.dice = ScriptedDice([6])
    s.apply("resolve")
    (res,) = events(s, AttackResolved)
    assert len(res.attackers) == 6 and res.column == "+5" and res.result == "DR"


def test_5_3_only_adjacent_units_may_join():
    """001_8616da5a6ffeaaf0.txt [5.3]: "all the units must be adjacent to the unit that they are
    attacking" """
    s = combat({"A": "0601", "B": "0702", "C": "0402"}, {"A": "0502"})
    s.apply("0502")
    assert s.legal_action_strings() == ["0402", "0601"]  # 0702 is two hexes away


def test_declared_attack_cannot_be_withdrawn():
    """001_8616da5a6ffeaaf0.txt [5.5]: "An "attack" is defined as one or more units using the Combat
    Results Table procedure against a single, adjacent opposing player's unit". Ruling: once a target
    is declared the attacker adds units and must resolve; there is no take-back (no "pass")."""
    s = combat({"A": "0601", "B": "0602"}, {"A": "0502"})
    s.apply("0502")
    assert "pass" not in s.legal_action_strings()
    s.apply("0601")
    assert s.legal_action_strings() == ["0602", "resolve"]


# ---------------------------------------------------------------------- 5.4
def test_5_4_attacking_is_voluntary():
    """001_8616da5a6ffeaaf0.txt [5.4]: "Units are never forced to attack simply because they are
    adjacent to one or more of the opposing player's units. Attacking is completely voluntary." """
    s = combat(dict(zip("ABC", RING, strict=False)), {"A": "0502"})
    assert "pass" in s.legal_action_strings()
    s.apply("pass")
    assert not events(s, AttackResolved)
    assert s.to_position()["phase"] == "us_move"


def test_5_4_defending_is_not_voluntary():
    """001_8616da5a6ffeaaf0.txt [5.4]: "Defending against an attack, however, is not voluntary. The
    defending unit has no choice as to whether or not it will "accept" the attack." """
    s = combat({"A": "0601"}, {"A": "0502"})
    s.apply("0502")
    s.apply("0601")
    assert s.decision.player == 0  # the defender is never asked
    s.dice = ScriptedDice([5])
    s.apply("resolve")  # roll 5, one unit: Attacker Eliminated
    assert events(s, AttackResolved)[0].result == "AE"


# ---------------------------------------------------------------------- 5.5
def test_5_5_an_attack_is_units_against_a_single_adjacent_unit():
    """001_8616da5a6ffeaaf0.txt [5.5]: "An "attack" is defined as one or more units using the Combat
    Results Table procedure against a single, adjacent opposing player's unit (the defending
    unit)." """
    s = combat({"A": "0601", "B": "0602"}, {"A": "0502"})
    s.apply("0502")
    assert s.decision.kind == "attack_add"
    assert "resolve" not in s.legal_action_strings()  # "one or more units": none is no attack
    s.apply("0602")
    assert s.decision.context == {
        "turn": 1,
        "phase": "soviet_combat",
        "target": "0502",
        "attackers": ["sov.B"],
        "differential": 0,
    }


# ---------------------------------------------------------------------- 5.6
def test_5_6_one_die_per_attack_regardless_of_units():
    """001_8616da5a6ffeaaf0.txt [5.6]: "The die is thrown once for each attack, regardless of how many
    units are involved in that particular attack." """
    s = combat(dict(zip("ABCD", RING, strict=False)), {"A": "0502"})
    attack(s, "0502", RING[:4], roll=3)
    assert [e.value for e in events(s, DiceRolled)] == [3]


@pytest.mark.parametrize("units", range(1, 7))
@pytest.mark.parametrize("roll", range(1, 7))
def test_5_6_column_is_number_of_attacking_units(units, roll):
    """001_8616da5a6ffeaaf0.txt [5.6]: "The number of units taking part in the attack determines which
    column of the Combat Results Table will be used. The throw of the die determines which line of
    that column will be read to find the result." (CRT cells other than Figure 8's: reconstruction.)"""
    s = combat(dict(zip("ABCDEF", RING[:units], strict=False)), {"A": "0502"})
    attack(s, "0502", RING[:units], roll=roll)
    (res,) = events(s, AttackResolved)
    assert res.result == CRT[roll - 1][units - 1]
    assert res.differential == units - 1  # basic game: one defender, never in woods
    assert res.column == ("0", "+1", "+2", "+3", "+4", "+5")[units - 1]


def test_crt_data_file_matches_design_reconstruction():
    """001_8616da5a6ffeaaf0.txt [2.0]: "The number of attacking units and the roll of the die will
    determine the outcome." The table itself is a picture: the shipped data is the DESIGN.md
    reconstruction and says so."""
    data = json.loads(resources.files("fof_env.strike_force_one").joinpath("data", "crt.json").read_text())
    assert data["rows"] == CRT
    assert "RECONSTRUCTION" in data["provenance"]
    assert data["rows"][0][2] == "DE"  # the one cell fixed by Figure 8
