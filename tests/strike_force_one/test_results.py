"""Combat results, rule 5.7: Defender Eliminated, Defender Retreats, Attacker Retreats,
Attacker Eliminated, and the advance after combat."""

import pytest

from fof_env import IllegalActionError
from fof_env.strike_force_one.events import AttackResolved, UnitAdvanced, UnitEliminated, UnitRetreated

from .helpers import attack, events, game, hx, make, move, neighbors, where

GRID = game().scenario.grid


def combat(soviet, us, **kw):
    return make(soviet, us, phase="soviet_combat", **kw)


def after_attack_decision(s) -> str:
    """What comes after a finished attack: the next attack, or (none left) the next phase."""
    return s.decision.kind if s.to_position()["phase"] == "soviet_combat" else s.to_position()["phase"]


# ----------------------------------------------------------- Defender Eliminated
def test_de_defender_removed_and_one_participant_may_advance():
    """001_8616da5a6ffeaaf0.txt [5.7]: "Defender Eliminated: The defending unit is eliminated (removed
    from the map). The attacker may now advance any one of his units that took part in that particular
    attack, into the hex vacated by the eliminated defending unit." """
    # Soviet C in 0402 is adjacent to the defender but stays out of the attack.
    s = combat({"A": "0601", "B": "0602", "C": "0402"}, {"A": "0502"})
    attack(s, "0502", ["0601", "0602"], roll=1)  # two units, roll 1: DE
    assert where(s, "us.A") is None
    assert events(s, UnitEliminated) == [UnitEliminated("us.A", "0502", "DE")]
    assert s.decision.kind == "advance" and s.decision.player == 0
    assert s.decision.context["into"] == "0502"
    assert s.decision.context["units"] == ["sov.A", "sov.B"]
    assert s.legal_action_strings() == ["sov.A", "sov.B", "pass"]  # not Soviet C
    s.apply("sov.B")
    assert where(s, "sov.B") == "0502" and where(s, "sov.A") == "0601"
    assert events(s, UnitAdvanced) == [UnitAdvanced("sov.B", "0602", "0502")]


def test_de_advance_must_be_made_immediately():
    """001_8616da5a6ffeaaf0.txt [5.7]: "This advance must be made immediately, before the attacker goes
    on to any remaining attacks." """
    s = combat({"A": "0601", "B": "0602", "C": "0503"}, {"A": "0502", "B": "0403"})
    attack(s, "0502", ["0601", "0602"], roll=1)  # two units, roll 1: DE
    assert s.decision.kind == "advance"
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="advance"):
        s.apply("0403")  # the next attack must wait
    assert s.to_json() == before
    s.apply("sov.A")
    assert s.decision.kind == "attack_target"
    assert s.legal_action_strings() == ["0403", "pass"]


def test_de_advance_ignores_rule_4_5():
    """001_8616da5a6ffeaaf0.txt [5.7]: "This one-hex advance is not considered part of the movement of
    that unit and may be made regardless of the presence of the other opposing units (contrary to rule
    4.5)" """
    # Soviet A in 0601 is next to U.S. A (0502); 0502 is next to U.S. B (0401). A move from 0601 to
    # 0502 would step directly between two enemy-adjacent hexes (4.5); the advance may.
    s = combat({"A": "0601", "B": "0602"}, {"A": "0502", "B": "0401"})
    attack(s, "0502", ["0601", "0602"], roll=1)  # DE
    s.apply("sov.A")
    assert where(s, "sov.A") == "0502"
    assert "0401" in neighbors("0502") and "0502" in neighbors("0601")


def test_de_advance_regardless_of_hexes_moved():
    """001_8616da5a6ffeaaf0.txt [5.7]: "and regardless of the number of hexes moved during his movement
    part of the turn." """
    s = make({"A": "0805", "B": "0601"}, {"A": "0502"})
    assert GRID.distance(hx("0805"), hx("0602")) == 4
    move(s, "sov.A", "0602")  # the full four hexes
    s.apply("pass")
    attack(s, "0502", ["0601", "0602"], roll=1)  # DE
    assert "sov.A" in s.legal_action_strings()
    s.apply("sov.A")
    assert where(s, "sov.A") == "0502"


def test_de_advance_is_voluntary():
    """001_8616da5a6ffeaaf0.txt [5.7]: "This advance is completely voluntary." """
    s = combat({"A": "0601", "B": "0602"}, {"A": "0502", "B": "0109"})
    attack(s, "0502", ["0601", "0602"], roll=1)
    s.apply("pass")
    assert all(where(s, u) != "0502" for u in ("sov.A", "sov.B", "us.A"))
    assert (where(s, "sov.A"), where(s, "sov.B")) == ("0601", "0602")
    assert not events(s, UnitAdvanced)


# ------------------------------------------------------------ Defender Retreats
def test_dr_defender_chooses_retreat_away_from_attackers_then_one_attacker_may_advance():
    """001_8616da5a6ffeaaf0.txt [5.7]: "Defender Retreats One Hex: The defending player retreats his
    unit one hex away from the attacking unit(s). As in "Defender Eliminated," one unit that was
    attacking that retreated unit may advance into the vacated hex." """
    s = combat({"A": "0601", "B": "0602"}, {"A": "0502"})
    attack(s, "0502", ["0601", "0602"], roll=2)  # two units, roll 2: DR
    assert s.decision.kind == "retreat_hex"
    assert s.decision.player == 1 and s.current_player == 1  # the defender decides
    assert s.decision.context == {
        "turn": 1,
        "phase": "soviet_combat",
        "unit": "us.A",
        "from": "0502",
        "result": "DR",
    }
    assert s.legal_action_strings() == ["0401", "0402"]
    for h in ("0401", "0402"):  # "away": no retreat hex is adjacent to an attacker
        assert GRID.distance(hx(h), hx("0601")) == 2 and GRID.distance(hx(h), hx("0602")) == 2
    s.apply("0402")
    assert events(s, UnitRetreated) == [UnitRetreated("us.A", "0502", "0402")]
    assert s.decision.kind == "advance" and s.decision.player == 0
    assert s.legal_action_strings() == ["sov.A", "sov.B", "pass"]
    s.apply("sov.A")
    assert where(s, "sov.A") == "0502" and where(s, "us.A") == "0402"


def test_dr_not_into_occupied_woods_or_enemy_adjacent_hexes():
    """001_8616da5a6ffeaaf0.txt [5.7]: "Retreats may not be made into hexes presently occupied by either
    player's units." ... "Retreats may not be made into Woods hexes or off the edge of the map. Retreats
    may not be made into hexes which are adjacent to any of the opposing player's units." """
    # U.S. A in 0504 attacked from 0604. Its neighbours: 0404 and 0603 woods, 0505 next to the
    # attacker, 0503 held by U.S. B, 0403 clear.
    s = combat({"A": "0604"}, {"A": "0504", "B": "0503"})
    assert neighbors("0504") == {"0403", "0404", "0503", "0505", "0603", "0604"}
    attack(s, "0504", ["0604"], roll=1)  # one unit, roll 1: DR
    assert s.legal_action_strings() == ["0403"]


def test_dr_enemy_occupied_hex_is_refused_even_when_not_enemy_adjacent():
    """001_8616da5a6ffeaaf0.txt [5.7]: "Retreats may not be made into hexes presently occupied by either
    player's units." """
    # Soviet C in 0402 is next to no other Soviet unit, so only its presence forbids 0402.
    s = combat({"A": "0601", "B": "0602", "C": "0402"}, {"A": "0502", "B": "0109"})
    attack(s, "0502", ["0601", "0602"], roll=2)  # DR
    # 0401 is next to Soviet C, 0501/0503 next to the attackers: no retreat at all.
    assert where(s, "us.A") is None
    assert s.decision.kind == "advance"


def test_dr_no_legal_retreat_eliminates_without_a_decision():
    """001_8616da5a6ffeaaf0.txt [5.7]: "If the only retreat available to a unit is one of the types
    forbidden, the unit is eliminated instead." """
    s = combat({"A": "0604", "B": "0403"}, {"A": "0504", "B": "0503"})
    attack(s, "0504", ["0604"], roll=1)  # DR; 0403 now enemy-held
    assert where(s, "us.A") is None
    assert events(s, UnitEliminated) == [UnitEliminated("us.A", "0504", "no legal retreat")]
    assert s.decision.kind == "advance" and s.decision.player == 0  # the U.S. player was never asked


def test_dr_off_the_map_is_forbidden():
    """001_8616da5a6ffeaaf0.txt [5.7]: "Retreats may not be made into Woods hexes or off the edge of the
    map." """
    # U.S. A in the corner 0101: its only on-map neighbours are the attacker's hex and 0201, next to
    # the attacker; the way "away" leads off the map, so it is eliminated.
    s = combat({"A": "0102"}, {"A": "0101", "B": "0808"})
    attack(s, "0101", ["0102"], roll=2)  # one unit, roll 2: DR
    assert where(s, "us.A") is None
    assert events(s, UnitEliminated)[-1].reason == "no legal retreat"


def test_dr_attacker_may_advance_after_defender_eliminated_for_lack_of_retreat():
    """001_8616da5a6ffeaaf0.txt [5.7]: "As in "Defender Eliminated," one unit that was attacking that
    retreated unit may advance into the vacated hex." Ruling: also when the defender was eliminated
    instead of retreating."""
    s = combat({"A": "0102"}, {"A": "0101", "B": "0808"})
    attack(s, "0101", ["0102"], roll=2)
    assert s.decision.kind == "advance" and s.legal_action_strings() == ["sov.A", "pass"]
    s.apply("sov.A")
    assert where(s, "sov.A") == "0101"


# ------------------------------------------------------------ Attacker Retreats
def test_ar_every_attacking_unit_retreats_chosen_by_attacker_in_unit_order():
    """001_8616da5a6ffeaaf0.txt [5.7]: "Attacker Retreats One Hex: All of the units in this attack are
    moved back one hex by the attacker. This retreat falls under the same restrictions as a "Defender
    Retreat."" Ruling: one retreat_hex decision per unit, in unit-id order."""
    s = combat({"A": "0602", "B": "0601"}, {"A": "0502"})
    attack(s, "0502", ["0601", "0602"], roll=4)  # two units, roll 4: AR (0601 holds Soviet B)
    assert s.decision.kind == "retreat_hex" and s.decision.player == 0
    assert s.decision.context["unit"] == "sov.A" and s.decision.context["result"] == "AR"
    # 0601: next to the defender; 0503 too; 0603 woods; 0502 enemy.
    assert s.legal_action_strings() == ["0702", "0703"]
    s.apply("0702")
    assert s.decision.context["unit"] == "sov.B"
    assert s.legal_action_strings() == ["0701"]  # 0702 is now occupied
    s.apply("0701")
    assert [(e.unit, e.destination) for e in events(s, UnitRetreated)] == [
        ("sov.A", "0702"),
        ("sov.B", "0701"),
    ]
    assert where(s, "us.A") == "0502"


def test_ar_defender_may_not_advance():
    """001_8616da5a6ffeaaf0.txt [5.7]: "The victorious defending unit, however, may not advance into
    any of the vacated hexes." """
    s = combat({"A": "0601", "B": "0302"}, {"A": "0502", "B": "0301"})
    attack(s, "0502", ["0601"], roll=3)  # one unit, roll 3: AR
    s.apply("0701")
    assert s.decision.player == 0 and s.decision.kind == "attack_target"  # no U.S. advance
    assert where(s, "us.A") == "0502" and not events(s, UnitAdvanced)


def test_ar_attacker_without_retreat_is_eliminated():
    """001_8616da5a6ffeaaf0.txt [5.7]: "This retreat falls under the same restrictions as a "Defender
    Retreat."" + "If the only retreat available to a unit is one of the types forbidden, the unit is
    eliminated instead." """
    s = combat({"A": "0101", "B": "0808"}, {"A": "0102"})
    attack(s, "0102", ["0101"], roll=3)  # AR; 0201 is next to U.S. A
    assert where(s, "sov.A") is None
    assert events(s, UnitEliminated) == [UnitEliminated("sov.A", "0101", "no legal retreat")]
    assert after_attack_decision(s) == "us_move"


# ---------------------------------------------------------- Attacker Eliminated
def test_ae_attacking_units_eliminated_defender_does_not_advance():
    """001_8616da5a6ffeaaf0.txt [5.7]: "Attacker Eliminated: The unit making that attack is eliminated
    (immediately removed from the map). The defending unit may not advance into the vacated hex."
    Ruling: every unit of the attack is eliminated (see 7.3)."""
    s = combat({"A": "0601", "B": "0602", "C": "0302"}, {"A": "0502", "B": "0301"})
    attack(s, "0502", ["0601", "0602"], roll=6)  # two units, roll 6: AE
    (res,) = events(s, AttackResolved)
    assert res.result == "AE"
    assert where(s, "sov.A") is None and where(s, "sov.B") is None
    assert [e.reason for e in events(s, UnitEliminated)] == ["AE", "AE"]
    assert where(s, "us.A") == "0502" and not events(s, UnitAdvanced)
    assert s.decision.kind == "attack_target" and s.decision.player == 0


def test_ae_single_attacker():
    """001_8616da5a6ffeaaf0.txt [5.7]: "Attacker Eliminated: The unit making that attack is eliminated
    (immediately removed from the map)." """
    s = combat({"A": "0601"}, {"A": "0502"})
    attack(s, "0502", ["0601"], roll=5)
    assert where(s, "sov.A") is None and where(s, "us.A") == "0502"
    assert after_attack_decision(s) == "us_move"
