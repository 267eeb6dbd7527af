"""Figures 1-14 of the rules. The pictures are missing from the seed text: each test builds a
situation matching the caption's words (and, for Figure 4, which has no caption, the paragraph it
illustrates) and checks what the caption says."""

from fof_env.strike_force_one.events import AttackResolved, UnitAdvanced, UnitEliminated, UnitRetreated

from .helpers import attack, events, game, make, move, neighbors, path_problem, reach, where

GRID = game().scenario.grid


def combat(soviet, us, **kw):
    return make(soviet, us, phase="soviet_combat", **kw)


def opt_combat(soviet, us, **kw):
    return make(soviet, us, optional=True, phase="soviet_combat", **kw)


def test_figure_1_possible_paths_of_movement():
    """001_8616da5a6ffeaaf0.txt [4.2] Figure 1: "This diagram illustrates some of the possible paths of
    movement that units can take." (with [4.2] "Units may be moved in any direction or combination of
    directions. The path of a unit's movement may be as straight or as crooked as the moving player
    desires.")"""
    s = make({"A": "0702"}, {"A": "0109"})
    paths = [
        ["0703", "0704", "0705", "0706"],  # straight south, four hexes
        ["0602", "0502", "0402", "0302"],  # west, changing rows as it goes
        ["0601", "0501", "0502", "0503"],  # crooked: west, then south
        ["0802", "0803", "0703"],  # a dog-leg to a hex one step away in a straight line
        ["0701"],  # a single hex
    ]
    for path in paths:
        assert path_problem(s, "sov.A", path) is None, path
        assert path[-1] in reach(s, "sov.A")
    assert path_problem(s, "sov.A", ["0703", "0705"]) == "0705 is not adjacent to 0703 (4.2)"
    move(s, "sov.A", "0503")
    assert where(s, "sov.A") == "0503"


def test_figure_2_paths_through_woods_or_enemy_not_allowed():
    """001_8616da5a6ffeaaf0.txt [4.4] Figure 2: "The top two movement paths shown in the diagram are not
    allowed (and have been marked "NO"). The bottom movement path is allowed (marked "YES") because it
    does not enter or pass through either the Woods hex or the hex occupied by the opposing unit." """
    # Brown in 0403 wants 0406: the woods 0404-0405 and the Green unit in 0306 lie in the way.
    s = make({"A": "0403"}, {"A": "0306"})
    assert path_problem(s, "sov.A", ["0404", "0405", "0406"]) == "0404 is woods (2.0)"
    assert path_problem(s, "sov.A", ["0304", "0305", "0306", "0406"]) is not None  # NO
    assert "0306" not in reach(s, "sov.A") and "0404" not in reach(s, "sov.A")
    assert path_problem(s, "sov.A", ["0504", "0505", "0506", "0406"]) is None  # YES
    assert "0406" in reach(s, "sov.A")
    move(s, "sov.A", "0406")
    assert where(s, "sov.A") == "0406"


def test_figure_3_must_stop_when_moving_adjacent():
    """001_8616da5a6ffeaaf0.txt [4.5] Figure 3: "Brown unit must stop as it moves adjacent to (next to)
    the Green unit." """
    s = make({"A": "0702"}, {"A": "0402"})
    assert (
        path_problem(s, "sov.A", ["0602", "0502", "0401"]) == "must stop in 0502, adjacent to the enemy (4.5)"
    )
    assert path_problem(s, "sov.A", ["0602", "0502"]) is None
    assert not reach(s, "sov.A") & {"0301", "0302", "0303"}
    move(s, "sov.A", "0502")
    assert s.to_position()["phase"] == "soviet_combat"  # nothing else moves; it may now attack
    assert s.legal_action_strings() == ["0402", "pass"]


def test_figure_4_begin_and_end_adjacent_through_a_free_hex():
    """001_8616da5a6ffeaaf0.txt [4.5] (Figure 4 has no caption in the seed; the paragraph it illustrates):
    "During his movement part of the turn, a player may never move one of his units directly from one
    hex to another if both those hexes are adjacent to one or more of the opposing player's units. A
    moving unit may begin and end its move adjacent to enemy units if one (or two) of the hexes it enters
    during the middle of its move are not adjacent to the opposing player's unit(s)." """
    s = make({"A": "0502"}, {"A": "0402"})
    assert path_problem(s, "sov.A", ["0503"]) == "0502 to 0503: both hexes adjacent to the enemy (4.5)"
    assert path_problem(s, "sov.A", ["0602", "0503"]) is None  # one free hex in the middle
    assert path_problem(s, "sov.A", ["0601", "0602", "0503"]) is None  # or two
    move(s, "sov.A", "0503")
    assert where(s, "sov.A") == "0503" and "0402" in neighbors("0503")


def test_figure_5_unit_that_cannot_move():
    """001_8616da5a6ffeaaf0.txt [4.5] Figure 5: "Note that the Brown unit cannot be moved in this situation
    because any hex it would enter as its first hex of movement would be either a hex adjacent to, or
    occupied by, opposing units." """
    # Brown in 0502 between Green units in 0401 and 0602: all six neighbours are Green or next to Green.
    s = make({"A": "0502", "B": "0808"}, {"A": "0401", "B": "0602"})
    for first in sorted(neighbors("0502")):
        assert path_problem(s, "sov.A", [first]) is not None
    assert reach(s, "sov.A") == set()
    assert s.legal_action_strings() == ["sov.B", "pass"]
    s = make({"A": "0502"}, {"A": "0401", "B": "0602"})
    assert s.to_position()["phase"] == "soviet_combat"  # the movement phase offers nothing


def test_figure_6_right_adjacent_unit_may_attack():
    """001_8616da5a6ffeaaf0.txt [5.1] Figure 6: "In the example on the right, the Brown unit is attacking
    the Green unit. It can do so because it is adjacent to the unit it is attacking." """
    s = combat({"A": "0602"}, {"A": "0502"})
    assert s.legal_action_strings() == ["0502", "pass"]
    attack(s, "0502", ["0602"], roll=1)
    (res,) = events(s, AttackResolved)
    assert (res.attackers, res.defenders) == (("sov.A",), ("us.A",))


def test_figure_9_defender_retreat_by_two_attackers():
    """001_8616da5a6ffeaaf0.txt [5.7] Figure 9: "Two Brown units have attacked the Green unit and have
    obtained a "Defender Retreat" result against it, forcing it to retreat as shown." """
    s = combat({"A": "0601", "B": "0602"}, {"A": "0502"})
    attack(s, "0502", ["0601", "0602"], roll=2)  # two units, roll 2: DR
    assert events(s, AttackResolved)[0].result == "DR"
    assert s.decision.kind == "retreat_hex" and s.decision.player == 1
    assert s.legal_action_strings() == ["0401", "0402"]  # one hex away from both Brown units
    s.apply("0401")
    assert events(s, UnitRetreated) == [UnitRetreated("us.A", "0502", "0401")]
    assert where(s, "us.A") == "0401"


def test_figure_11_stack_gets_defender_retreat_only_one_advances():
    """001_8616da5a6ffeaaf0.txt [7.4] Figure 11: "Two Brown units have attacked the Green unit and have
    obtained a "Defender Retreat" result. After the Green unit retreats, only one of the Brown units may
    advance into the hex." """
    s = opt_combat({"A": "0601", "B": "0601"}, {"A": "0502"})
    attack(s, "0502", ["0601"], roll=2)  # 2 - 1 = +1, roll 2: DR
    s.apply("0402")
    assert s.decision.kind == "advance"
    assert s.legal_action_strings() == ["sov.A", "sov.B", "pass"]
    s.apply("sov.B")
    assert (where(s, "sov.A"), where(s, "sov.B")) == ("0601", "0502")
    assert len(events(s, UnitAdvanced)) == 1
    assert s.to_position()["phase"] == "us_move"  # no second advance


def test_figure_12_woods_count_two_hexes_start_in_woods_not_penalized():
    """001_8616da5a6ffeaaf0.txt [8.1] Figure 12: "Each unit has moved as far as possible in a single turn
    along the path shown for that unit. Each Woods hex entered counts as two ordinary hexes. The unit
    which begins its move in the Woods hex is not penalized, and may move the full four hexes." """
    s = make({"A": "0304", "B": "0503", "C": "0707"}, {"A": "0101"}, optional=True)
    full = {
        "sov.A": ["0404", "0405"],  # two woods hexes: 2 + 2
        "sov.B": ["0603", "0704", "0705"],  # one woods hex: 2 + 1 + 1
        "sov.C": ["0607", "0507", "0407", "0307"],  # starts in woods 0707: four clear hexes
    }
    one_more = {"sov.A": "0406", "sov.B": "0706", "sov.C": "0207"}
    for unit, path in full.items():
        assert path_problem(s, unit, path) is None, unit
        assert path[-1] in reach(s, unit)
        assert "beyond the four-hex allowance" in path_problem(s, unit, [*path, one_more[unit]])
    for unit, path in full.items():
        move(s, unit, path[-1])
    assert s.to_position()["units"]["soviet"] == {"A": "0405", "B": "0705", "C": "0307"}


def test_figure_6_left_no_combat_between_non_adjacent_units():
    """001_8616da5a6ffeaaf0.txt [5.1] Figure 6: "in the situation illustrated on the left, no combat
    can take place because the two opposing units are not adjacent to (next to) each other." """
    s = combat({"A": "0702"}, {"A": "0502"})
    # With no attack possible the Soviet combat phase offers nothing and is skipped.
    assert s.to_position()["phase"] == "us_move"
    assert not events(s, AttackResolved)


def test_figure_7_attacker_chooses_which_units_to_attack():
    """001_8616da5a6ffeaaf0.txt [5.3] Figure 7: "In the lefthand example, the two Brown units attack
    the upper Green unit and the lower Green unit is ignored. In the right-hand version of the same
    situation, each Brown unit attacks one of the Green units. ... the player whose turn it is decides
    which opposing units he will attack and which (if any) he will ignore." """
    # Brown 0402 and 0602 are each adjacent to Green 0502 (upper) and Green 0503 (lower).
    soviet, us = {"A": "0402", "B": "0602"}, {"A": "0502", "B": "0503"}
    for h in ("0402", "0602"):
        assert {"0502", "0503"} <= neighbors(h)
    left = combat(soviet, us)
    attack(left, "0502", ["0402", "0602"], roll=1)  # two units, roll 1: DE
    left.apply("pass")
    assert left.to_position()["phase"] == "us_move"  # the lower Green unit was ignored
    assert where(left, "us.B") == "0503"
    (res,) = events(left, AttackResolved)
    assert res.attackers == ("sov.A", "sov.B") and res.column == "+1"
    right = combat(soviet, us)
    attack(right, "0502", ["0402"], roll=1)  # one unit, roll 1: DR
    right.apply(right.legal_action_strings()[0])  # U.S. A retreats
    right.apply("pass")
    attack(right, "0503", ["0602"], roll=1)
    assert [(r.attackers, r.defenders) for r in events(right, AttackResolved)] == [
        (("sov.A",), ("us.A",)),
        (("sov.B",), ("us.B",)),
    ]


def test_figure_8_three_units_roll_one_is_defender_eliminated():
    """001_8616da5a6ffeaaf0.txt [5.6] Figure 8: "Assume three Soviet units are attacking one adjacent
    U.S. unit. The result of the attack will be found in the column headed "Three Units." ... If he
    rolls a "1," he reads across the table and finds "Defender Eliminated" under the "Three Units"
    heading." """
    s = combat({"A": "0601", "B": "0602", "C": "0402"}, {"A": "0502"})
    attack(s, "0502", ["0601", "0602", "0402"], roll=1)
    (res,) = events(s, AttackResolved)
    assert (len(res.attackers), res.roll, res.result) == (3, 1, "DE")
    assert where(s, "us.A") is None
    assert events(s, UnitEliminated)[0].reason == "DE"


def test_figure_10_stack_may_not_attack_two_hexes():
    """001_8616da5a6ffeaaf0.txt [7.2] Figure 10: "The two Brown units stacked together may not attack
    into two different hexes; the player must choose to attack only one of the adjacent hexes that
    contain opposing units." """
    s = opt_combat({"A": "0602", "B": "0602"}, {"A": "0502", "B": "0503"})
    assert s.legal_action_strings() == ["0502", "0503", "pass"]
    attack(s, "0502", ["0602"], roll=4)  # +1, roll 4: AR
    s.apply("0702")
    s.apply("0703")
    assert s.to_position()["phase"] == "us_move"  # 0503 can no longer be attacked


def test_figure_13_single_unit_may_not_attack_a_stack():
    """001_8616da5a6ffeaaf0.txt [9.1] Figure 13: "The single Brown unit may not attack into the hex
    containing two Green units." """
    s = opt_combat({"A": "0601"}, {"A": "0502", "B": "0502"})
    assert s.to_position()["phase"] == "us_move"  # no attack possible: differential would be -1
    s = opt_combat({"A": "0601", "B": "0302"}, {"A": "0502", "B": "0502", "C": "0301"})
    assert s.legal_action_strings() == ["0301", "pass"]


def test_figure_13_four_against_two_is_plus_two():
    """001_8616da5a6ffeaaf0.txt [9.1] Figure 13: "The four Brown units are attacking the two Green units.
    Four minus two is two: the Combat Differential of this attack is (+2). The result of this attack must
    be found in the column headed (+2)." """
    s = opt_combat({"A": "0601", "B": "0602", "C": "0402", "D": "0401"}, {"A": "0502", "B": "0502"})
    attack(s, "0502", ["0601", "0602", "0402", "0401"], roll=1)
    (res,) = events(s, AttackResolved)
    assert (res.differential, res.column, res.result) == (2, "+2", "DE")


def test_figure_14_three_against_one_in_woods_is_plus_one():
    """001_8616da5a6ffeaaf0.txt [9.2] Figure 14: "The three Brown units are attacking the single Green
    unit in the Woods hex. The Green unit counts as two units when determining the Combat Differential.
    Three minus two is one: the Combat Differential of this attack is (+1)." """
    s = opt_combat({"A": "0304", "B": "0403", "C": "0504"}, {"A": "0404"})
    attack(s, "0404", ["0304", "0403", "0504"], roll=1)
    (res,) = events(s, AttackResolved)
    assert (res.differential, res.column, res.result) == (1, "+1", "DE")
    s.apply("sov.B")  # the advance may enter the woods under the optional rules
    assert where(s, "sov.B") == "0404"


def test_figure_14_five_against_stack_in_woods_is_plus_one():
    """001_8616da5a6ffeaaf0.txt [9.3]: "When two units in a Woods hex are being attacked, they count as
    four units when determining the Combat Differential." Figure 14: "The five Brown units are attacking
    the two Green units in the Woods hex. The two Green units count as four units ... Five minus four is
    one: the Combat Differential of this attack is (+1)." """
    s = opt_combat(
        {"A": "0304", "B": "0304", "C": "0403", "D": "0403", "E": "0504"}, {"A": "0404", "B": "0404"}
    )
    attack(s, "0404", ["0304", "0403", "0504"], roll=2)
    (res,) = events(s, AttackResolved)
    assert (res.differential, res.column, res.result) == (1, "+1", "DR")
    assert len(res.attackers) == 5 and res.defenders == ("us.A", "us.B")
