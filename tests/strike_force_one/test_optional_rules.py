"""Optional rules: 7.0 stacking, 8.0 woods, 9.0 combat differential."""

import pytest

from fof_env import IllegalActionError, PositionError
from fof_env.core.errors import OptionError
from fof_env.strike_force_one.events import AttackResolved, UnitEliminated, UnitRetreated

from .helpers import CRT, attack, events, game, hx, make, move, neighbors, reach, where

GRID = game().scenario.grid


def opt(soviet, us, **kw):
    return make(soviet, us, optional=True, **kw)


def opt_combat(soviet, us, **kw):
    return make(soviet, us, optional=True, phase="soviet_combat", **kw)


def test_optional_rules_are_all_or_nothing():
    """001_8616da5a6ffeaaf0.txt [OPTIONAL RULES]: "All of these optional rules must be used if any are
    used." """
    assert game(True).options == {"optional_rules": True}
    import fof_env

    with pytest.raises(OptionError, match="optional_rules"):
        fof_env.make_game("strike_force_one", stacking=True)
    with pytest.raises(OptionError):
        fof_env.make_game("strike_force_one", optional_rules="yes")


# ---------------------------------------------------------------------- 7.1
def test_7_1_may_move_into_hex_with_one_friendly_unit():
    """001_8616da5a6ffeaaf0.txt [7.1]: "A player may move a unit into a hex which already contains one
    of his units. Thus a hex may contain any two of a player's units at the end of the movement part of
    his turn." """
    s = opt({"A": "0101", "B": "0102"}, {"A": "0808"})
    assert "0102" in reach(s, "sov.A")
    move(s, "sov.A", "0102")
    assert where(s, "sov.A") == where(s, "sov.B") == "0102"
    assert s.to_position()["units"]["soviet"] == {"A": "0102", "B": "0102"}


def test_7_1_no_more_than_two_units_per_hex():
    """001_8616da5a6ffeaaf0.txt [7.1]: "No more than two of a player's units may be stacked in one
    hex." """
    # Both exits of the corner 0101 hold full stacks: Soviet A may pass through but not stop.
    s = opt({"A": "0101", "B": "0102", "C": "0102", "D": "0201", "E": "0201"}, {"A": "0808"})
    r = reach(s, "sov.A")
    assert "0102" not in r and "0201" not in r
    assert {"0103", "0202", "0301"} <= r  # ruling: passing through a full stack is allowed (4.4)
    with pytest.raises(PositionError, match="stacking limit is 2"):
        opt({"A": "0101", "B": "0101", "C": "0101"}, {"A": "0808"})
    with pytest.raises(PositionError, match="stacking limit is 1"):
        make({"A": "0101", "B": "0101"}, {"A": "0808"})


def test_7_1_never_enter_enemy_hex():
    """001_8616da5a6ffeaaf0.txt [7.1]: "A player's units may never enter or pass through a hex while it
    contains one of the opposing player's units." """
    s = opt({"A": "0702"}, {"A": "0502"})
    assert "0502" not in reach(s, "sov.A")
    with pytest.raises(PositionError, match="both sides"):
        opt({"A": "0502"}, {"A": "0502"})


# ---------------------------------------------------------------------- 7.2
def test_7_2_attack_into_a_stack_attacks_both_units():
    """001_8616da5a6ffeaaf0.txt [7.2]: "If a player wishes to make an attack into a hex which contains
    two of the opposing player's units, he must attack both of the units in the hex." """
    s = opt_combat({"A": "0601", "B": "0602", "C": "0402"}, {"A": "0502", "B": "0502"})
    attack(s, "0502", ["0601", "0602", "0402"], roll=6)
    (res,) = events(s, AttackResolved)
    assert res.defenders == ("us.A", "us.B") and res.differential == 1


def test_7_2_attack_from_a_stack_uses_both_units():
    """001_8616da5a6ffeaaf0.txt [7.2]: "If a Player wishes to attack from a hex containing two of his
    units, he must attack with both of his units in that hex." """
    s = opt_combat({"A": "0601", "B": "0601"}, {"A": "0502"})
    s.apply("0502")
    assert s.legal_action_strings() == ["0601"]  # hexes, never single units of a stack
    s.apply("0601")
    assert s.decision.context["attackers"] == ["sov.A", "sov.B"]
    assert s.decision.context["differential"] == 1


def test_7_2_stack_with_a_unit_that_already_attacked_may_not_attack():
    """001_8616da5a6ffeaaf0.txt [7.2]: "If a Player wishes to attack from a hex containing two of his
    units, he must attack with both of his units in that hex." + [5.2]: "No attacking unit may take part
    in more than one attack per turn." Ruling: such a stack may not attack at all."""
    s = opt_combat({"A": "0601", "B": "0601", "C": "0402"}, {"A": "0502"}, done=["sov.A"])
    s.apply("0502")
    assert s.legal_action_strings() == ["0402"]  # not 0601
    s = opt_combat({"A": "0601", "B": "0601"}, {"A": "0502"}, done=["sov.A"])
    assert s.to_position()["phase"] == "us_move"  # nothing can attack: phase over


def test_7_2_stack_containing_a_unit_already_attacked_may_not_be_attacked():
    """001_8616da5a6ffeaaf0.txt [7.2]: "he must attack both of the units in the hex" + [5.2]: "No unit may
    be attacked more than once per turn." Ruling: such a stack may not be attacked at all."""
    s = opt_combat(
        {"A": "0601", "B": "0602", "C": "0402"}, {"A": "0502", "B": "0502", "C": "0302"}, attacked=["us.A"]
    )
    assert s.legal_action_strings() == ["0302", "pass"]


# ---------------------------------------------------------------------- 7.3
def test_7_3_attacker_eliminated_against_a_stack_eliminates_both_attackers():
    """001_8616da5a6ffeaaf0.txt [7.3]: "If a player's units are attacking into a hex containing two of the
    opposing player's units, and the result of the attack is "Attacker Eliminated," both of the
    attacking units are eliminated." """
    s = opt_combat({"A": "0601", "B": "0602"}, {"A": "0502", "B": "0502"})
    attack(s, "0502", ["0601", "0602"], roll=5)  # 2 - 2 = 0, roll 5: AE
    assert events(s, AttackResolved)[0].column == "0"
    assert where(s, "sov.A") is None and where(s, "sov.B") is None
    assert where(s, "us.A") == where(s, "us.B") == "0502"


def test_7_3_attacker_eliminated_from_a_stack_eliminates_both():
    """001_8616da5a6ffeaaf0.txt [7.3]: "both of the attacking units are eliminated." Ruling: AE always
    eliminates every unit of the attack (5.7 "The unit making that attack" is read as all of them)."""
    s = opt_combat({"A": "0601", "B": "0601"}, {"A": "0502"})
    attack(s, "0502", ["0601"], roll=6)  # 2 - 1 = +1, roll 6: AE
    assert [e.unit for e in events(s, UnitEliminated)] == ["sov.A", "sov.B"]


# ---------------------------------------------------------------------- 7.4
def test_7_4_defender_eliminated_applies_to_both_defenders():
    """001_8616da5a6ffeaaf0.txt [7.4]: "the result of the attack is "Defender Eliminated" or "Defender
    Retreats One Hex," the result applies to both of the defending units." """
    s = opt_combat({"A": "0601", "B": "0601", "C": "0602", "D": "0602"}, {"A": "0502", "B": "0502"})
    attack(s, "0502", ["0601", "0602"], roll=1)  # 4 - 2 = +2, roll 1: DE
    assert where(s, "us.A") is None and where(s, "us.B") is None
    assert s.legal_action_strings() == ["sov.A", "sov.B", "sov.C", "sov.D", "pass"]


def test_7_4_defender_retreats_applies_to_both_defenders_only_one_attacker_advances():
    """001_8616da5a6ffeaaf0.txt [7.4]: "the result applies to both of the defending units. Only one of the
    attacking units may advance into the vacated hex." """
    s = opt_combat({"A": "0601", "B": "0601", "C": "0602", "D": "0602"}, {"A": "0502", "B": "0502"})
    attack(s, "0502", ["0601", "0602"], roll=3)  # +2, roll 3: DR
    assert s.decision.context["unit"] == "us.A" and s.decision.player == 1
    s.apply("0401")
    assert s.decision.context["unit"] == "us.B" and s.decision.player == 1
    s.apply("0402")
    assert s.decision.kind == "advance"
    s.apply("sov.C")
    assert where(s, "sov.C") == "0502"
    assert s.decision.kind != "advance"  # the others stay
    assert (where(s, "sov.A"), where(s, "sov.B"), where(s, "sov.D")) == ("0601", "0601", "0602")


# ---------------------------------------------------------------------- 7.5
def test_7_5_may_retreat_onto_one_friendly_unit_not_two():
    """001_8616da5a6ffeaaf0.txt [7.5]: "A player's unit which has been forced to retreat one hex as the
    result of an attack, may retreat into a hex occupied by another of his units. ... A unit may not
    retreat into a hex already containing two units." """
    s = opt_combat({"A": "0601", "B": "0602"}, {"A": "0502", "B": "0402"})
    attack(s, "0502", ["0601", "0602"], roll=2)  # +1, roll 2: DR
    assert s.legal_action_strings() == ["0401", "0402"]
    s = opt_combat({"A": "0601", "B": "0602"}, {"A": "0502", "B": "0402", "C": "0402"})
    attack(s, "0502", ["0601", "0602"], roll=2)
    assert s.legal_action_strings() == ["0401"]


def test_7_5_not_onto_a_friendly_unit_adjacent_to_the_enemy():
    """001_8616da5a6ffeaaf0.txt [7.5]: "The unit may not retreat into the hex if the hex is adjacent to
    units of the opposing player." """
    s = opt_combat({"A": "0601", "B": "0602"}, {"A": "0502", "B": "0501"})
    attack(s, "0502", ["0601", "0602"], roll=2)
    assert "0501" not in s.legal_action_strings()  # friendly, but next to Soviet A


def test_7_5_stacked_pair_retreat_second_may_not_join_a_full_hex():
    """001_8616da5a6ffeaaf0.txt [7.5]: "If two of a player's units which are stacked together have been
    forced to retreat one hex, one of the units may retreat into a hex already occupied by one of the
    player's units; but the other unit may not retreat into that hex. ... Stacked units may retreat into
    two different hexes." """
    s = opt_combat({"A": "0601", "B": "0601", "C": "0602"}, {"A": "0502", "B": "0502", "C": "0402"})
    attack(s, "0502", ["0601", "0602"], roll=3)  # 3 - 2 = +1, roll 3: DR
    assert s.legal_action_strings() == ["0401", "0402"]
    s.apply("0402")  # us.A joins us.C
    assert s.decision.context["unit"] == "us.B"
    assert s.legal_action_strings() == ["0401"]
    s.apply("0401")
    assert [(e.unit, e.destination) for e in events(s, UnitRetreated)] == [("us.A", "0402"), ("us.B", "0401")]


def test_7_5_stacked_pair_may_also_retreat_together():
    """001_8616da5a6ffeaaf0.txt [7.5]: "Stacked units may retreat into two different hexes." Ruling:
    "may", so they may also retreat together into one empty hex."""
    s = opt_combat({"A": "0601", "B": "0601", "C": "0602"}, {"A": "0502", "B": "0502"})
    attack(s, "0502", ["0601", "0602"], roll=3)
    s.apply("0401")
    assert s.legal_action_strings() == ["0401", "0402"]
    s.apply("0401")
    assert where(s, "us.A") == where(s, "us.B") == "0401"


def test_7_5_no_retreat_eliminates_each_unit():
    """001_8616da5a6ffeaaf0.txt [7.5]: "As always, if the only retreat available to a unit is one of the
    types forbidden, the unit is eliminated instead." """
    # Soviet D in 0301 makes 0401 enemy-adjacent; 0402 holds U.S. C: room for one retreating unit.
    s = opt_combat(
        {"A": "0601", "B": "0601", "C": "0602", "D": "0301"}, {"A": "0502", "B": "0502", "C": "0402"}
    )
    attack(s, "0502", ["0601", "0602"], roll=3)  # 3 - 2 = +1, roll 3: DR
    assert s.decision.context["unit"] == "us.A" and s.legal_action_strings() == ["0402"]
    s.apply("0402")
    assert where(s, "us.B") is None
    assert events(s, UnitEliminated) == [UnitEliminated("us.B", "0502", "no legal retreat")]
    assert s.decision.kind == "advance" and s.decision.player == 0


def test_7_5_attacker_retreat_may_also_stack():
    """001_8616da5a6ffeaaf0.txt [7.5]: "A player's unit which has been forced to retreat one hex as the
    result of an attack, may retreat into a hex occupied by another of his units." Ruling: this covers
    "Attacker Retreats" too (5.7: "This retreat falls under the same restrictions as a "Defender
    Retreat."")."""
    for optional, legal in ((False, ["0701"]), (True, ["0701", "0702"])):
        s = make({"A": "0601", "B": "0702"}, {"A": "0502"}, phase="soviet_combat", optional=optional)
        attack(s, "0502", ["0601"], roll=3)  # one unit against one: roll 3, AR
        assert s.decision.context["unit"] == "sov.A" and s.legal_action_strings() == legal


def test_7_5_woods_still_forbid_retreat_under_optional_rules():
    """001_8616da5a6ffeaaf0.txt [5.7]: "Retreats may not be made into Woods hexes" + [8.1]: "(This rule
    modifies rule 4.4.)" Ruling: 8.1 opens the woods to movement only; retreats still avoid them."""
    # U.S. A in 0505 attacked from 0604 and 0605: 0504 and 0506 are next to them, 0404/0405 are woods.
    s = opt_combat({"A": "0604", "B": "0605"}, {"A": "0505", "B": "0109"})
    assert neighbors("0505") == {"0404", "0405", "0504", "0506", "0604", "0605"}
    attack(s, "0505", ["0604", "0605"], roll=2)  # +1, roll 2: DR
    assert where(s, "us.A") is None
    assert events(s, UnitEliminated)[-1].reason == "no legal retreat"


# ---------------------------------------------------------------------- 8.1
def test_8_1_woods_may_be_entered_and_count_two_hexes():
    """001_8616da5a6ffeaaf0.txt [8.1]: "A player may move his units into or through any of the Woods
    hexes on the map. However, each Woods hex counts as two ordinary hexes against the maximum of four
    hexes which a unit may move." """
    s = opt({"A": "0304"}, {"A": "0808"})
    r = reach(s, "sov.A")
    assert {"0404", "0405"} <= r  # 2 + 2 = 4
    assert "0505" in r  # 0404 (2) + 0505 (1)
    assert "0406" in r  # 0305, 0405 (woods), 0406: 1 + 2 + 1 = 4
    # 0302 -> 0402 -> 0503 -> 0603 (woods) is four; one hex more is five.
    s = opt({"A": "0302"}, {"A": "0808"})
    assert "0603" in reach(s, "sov.A") and "0704" not in reach(s, "sov.A")


def test_8_1_4_5_still_applies_in_woods():
    """001_8616da5a6ffeaaf0.txt [4.5]: "Whenever a unit enters a hex that is directly adjacent to any of
    the opposing player's units, the moving unit must immediately stop in that hex" (woods too)."""
    s = opt({"A": "0304"}, {"A": "0505"})
    r = reach(s, "sov.A")
    assert "0404" in r and "0405" in r  # both next to U.S. A: enterable, stop there
    assert "0406" in r  # around through 0305/0306
    assert "0504" in r


# ---------------------------------------------------------------- 9.1-9.3, 8.2
def test_9_1_resolve_only_once_differential_is_not_negative():
    """001_8616da5a6ffeaaf0.txt [9.1]: "The column of the Combat Results Table which will be used to
    resolve the attack is the one which is headed by the same differential." Ruling: no column below
    (0), so the attack may not be resolved until the differential is at least 0."""
    s = opt_combat({"A": "0601", "B": "0602"}, {"A": "0502", "B": "0502"})
    s.apply("0502")
    s.apply("0601")
    assert s.decision.context["differential"] == -1
    assert s.legal_action_strings() == ["0602"]
    with pytest.raises(IllegalActionError):
        s.apply("resolve")
    s.apply("0602")
    assert s.legal_action_strings() == ["resolve"]


@pytest.mark.parametrize("attackers", range(2, 7))
@pytest.mark.parametrize("roll", range(1, 7))
def test_9_1_column_is_the_differential(attackers, roll):
    """001_8616da5a6ffeaaf0.txt [9.1]: "the number of attacking units is totaled, and then the number of
    defending units is subtracted from this total. The difference which results is called the "Combat
    Differential."" """
    ring = ["0601", "0602", "0501", "0503", "0401", "0402"]
    s = opt_combat(dict(zip("ABCDEF", ring, strict=False)), {"A": "0502", "B": "0502"})
    attack(s, "0502", ring[:attackers], roll=roll)
    (res,) = events(s, AttackResolved)
    assert res.differential == attackers - 2
    assert res.result == CRT[roll - 1][attackers - 2]


def test_8_2_single_unit_in_woods_counts_two():
    """001_8616da5a6ffeaaf0.txt [8.2]: "If a unit which is in a Woods hex is attacked, that unit counts as
    two units when determining the Combat Differential." """
    s = opt_combat({"A": "0304", "B": "0403"}, {"A": "0404"})
    s.apply("0404")
    s.apply("0304")
    assert s.decision.context["differential"] == -1 and "resolve" not in s.legal_action_strings()
    s.apply("0403")
    assert s.decision.context["differential"] == 0
    s = opt_combat({"A": "0304"}, {"A": "0404"})  # one unit alone cannot attack into the woods
    assert s.to_position()["phase"] == "us_move"


def test_9_3_stack_in_woods_needs_four_attackers():
    """001_8616da5a6ffeaaf0.txt [8.2]: "Two units stacked in a Woods hex count as four units when
    determining the Combat Differential." """
    s = opt_combat({"A": "0304", "B": "0304", "C": "0403"}, {"A": "0404", "B": "0404"})
    assert s.to_position()["phase"] == "us_move"  # three attackers: -1, no attack
    s = opt_combat({"A": "0304", "B": "0304", "C": "0403", "D": "0403"}, {"A": "0404", "B": "0404"})
    attack(s, "0404", ["0304", "0403"], roll=5)
    assert events(s, AttackResolved)[0].differential == 0


def test_9_1_basic_rules_column_equals_units_minus_one():
    """001_8616da5a6ffeaaf0.txt [9.1]: "the number of units listed directly above the Differential applies
    only when one defending unit is in a hex which is not a Woods hex." """
    for optional in (False, True):
        s = make(
            {"A": "0601", "B": "0602", "C": "0402"}, {"A": "0502"}, phase="soviet_combat", optional=optional
        )
        attack(s, "0502", ["0601", "0602", "0402"], roll=4)
        assert events(s, AttackResolved)[0].column == "+2"
    assert GRID.distance(hx("0601"), hx("0502")) == 1
