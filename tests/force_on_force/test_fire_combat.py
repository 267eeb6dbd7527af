"""Fire combat and casualties: firepower, defence, hits, blocks, casualties and their checks.

Seeds: ``000_294bccfd88f0ebda.txt`` (quick start, ``rules="quick"``) and
``003_b1b2d2a6d4b3bab2.txt`` (full infantry rules, ``rules="full"``). Every test
builds a position on a small custom table (distances between points are exact),
drives the engine by its action strings and scripts the dice. Dice order of one
fire: reaction tests (only when someone besides the actor reacts), firepower dice,
defence dice, "which figure is hit" dice, morale dice.
"""

import pytest

from fof_env import IllegalActionError
from fof_env.core.events import DiceRolled
from fof_env.force_on_force import events as ev

from .helpers import (
    area,
    decline_reactions,
    dice_used,
    events,
    figures,
    fire,
    fires,
    make,
    pt,
    script,
    table_with,
    uid,
    unit,
    wall,
    woods,
)

# Shooters stand at x05y11; targets at x19y11 are 14" away (beyond every Optimum Range but a
# D8 unit's support weapons, 16"). Full-rules tables put a wall 2" behind each of them so
# nobody is Exposed (003: "not within 2" of a scenic piece") and no wall lies between them.
WEST, EAST = pt(5, 11), pt(19, 11)
BACKS = table_with(wall(3, 1, 3, 35, "west_back"), wall(21, 1, 21, 35, "east_back"))


def shot(state, shooter: str, target: str) -> ev.FireResolved:
    """``shooter`` fires at ``target`` with every die a 1 (no hits); the FireResolved event."""
    fire(state, shooter, target, [1] * 60)
    (res,) = fires(state)
    return res


def sides_of(state, purpose: str) -> list[int]:
    return [e.sides for e in events(state, DiceRolled) if e.purpose.startswith(purpose)]


# ---------------------------------------------------------------- hits and blocks
def test_successes_are_rolls_of_four_or_better():
    """000_294bccfd88f0ebda.txt: "Successes are always based on rolling a '4' or better." and "If the
    target unit did not take casualties, it does not need to make a morale check." """
    s = make({"tal.2": unit(WEST), "usmc.A": unit(EAST)}, rules="quick", initiative="taliban")
    fire(s, "tal.2", "usmc.A", [3] * 9 + [1] * 5)
    (res,) = fires(s)
    assert (res.firepower, res.defense, res.casualties) == (9, 5, 0)
    assert figures(s, "usmc.A") == {"ok": 4}
    assert not events(s, ev.MoraleChecked) and dice_used(s) == 14

    s = make({"tal.2": unit(WEST), "usmc.A": unit(EAST)}, rules="quick", initiative="taliban")
    fire(s, "tal.2", "usmc.A", [4] + [3] * 8 + [1] * 5 + [9, 9, 9])
    (res,) = fires(s)
    assert res.casualties == 1  # the single 4 is a hit
    assert figures(s, "usmc.A") == {"ok": 3, "down": 1}
    (morale,) = events(s, ev.MoraleChecked)
    assert morale.rolls == (9, 9, 9) and morale.passed


@pytest.mark.parametrize(
    ("attack", "defense", "hits"),
    [
        ([5, 4], [4, 4, 1, 1, 1], 1),  # a 4 blocks the 4 but not the 5
        ([5, 5], [5, 5, 1, 1, 1], 0),  # like blocks like
        ([6, 4], [4, 6, 1, 1, 1], 0),  # the defender arranges his dice as he sees fit
        ([6, 6, 6], [6, 2, 2, 2, 2], 2),  # one defence die blocks one attack die only
        ([7, 5], [3, 3, 3, 3, 3], 2),  # failed defence dice block nothing
    ],
)
def test_defence_dice_block_attack_dice_of_equal_or_lower_score(attack, defense, hits):
    """000_294bccfd88f0ebda.txt: "Like "blocks" like or lower." 003_b1b2d2a6d4b3bab2.txt: "The defender
    matches his Defense dice to the attacker's Firepower dice, attempting to equal or exceed the score
    on each dice. Any die which the unit being fired on cannot equal or exceed causes a casualty." and
    "The defender may arrange his successful dice against the attacker's successful dice as he sees
    fit." """
    s = make({"usmc.A": unit(WEST, supply="normal"), "tal.2": unit(EAST, ok=5)}, rules="quick")
    rolls = attack + [1] * (6 - len(attack))
    fire(s, "usmc.A", "tal.2", [min(r, 8) for r in rolls] + [min(d, 6) for d in defense] + [6] * 5)
    (res,) = fires(s)
    assert res.firepower == 6 and res.defense == 5
    assert res.casualties == hits
    expected = {"ok": 5 - hits, "down": hits} if hits else {"ok": 5}
    assert figures(s, "tal.2") == expected


def test_casualties_cannot_exceed_the_effective_figures():
    """000_294bccfd88f0ebda.txt: "a 5 and a 4 result from the original roll remain unblocked and cause
    casualties" (each unblocked success is a casualty); a unit cannot lose more figures than it has,
    and a unit with no survivor has nobody left to test morale ("it rolls one die for every surviving
    figure in the unit")."""
    s = make({"usmc.A": unit(WEST, supply="normal"), "tal.2": unit(EAST, ok=2)}, rules="quick")
    fire(s, "usmc.A", "tal.2", [8, 8, 8, 8, 8, 1, 1, 1])
    (res,) = fires(s)
    assert (res.firepower, res.defense, res.casualties) == (6, 2, 2)
    assert figures(s, "tal.2") == {"down": 2}
    assert not events(s, ev.MoraleChecked) and dice_used(s) == 8
    assert not s.active(uid("tal.2"))


# ---------------------------------------------------------------- defence dice
@pytest.mark.parametrize(
    ("shooter", "target", "terrain", "defense"),
    [
        ({"ok": 8}, {}, (), 5),  # 4 figures (less than 9D) + armor
        ({"ok": 2, "support": []}, {}, (), 3),  # 2D of fire: basic defence 2 + armor
        ({"ok": 2, "support": []}, {"armor": 0}, (), 2),
        ({"ok": 8}, {}, (woods(18, 8, 20, 14),), 6),  # in woods: +1D cover
    ],
)
def test_defence_is_figures_or_firepower_whichever_is_less_plus_armor_and_cover(
    shooter, target, terrain, defense
):
    """003_b1b2d2a6d4b3bab2.txt: "A unit's basic Defense is equal to the number of figures in the unit or
    the number of Firepower dice with which it is being attacked, whichever is less. Extra Defense dice
    for armor or cover are then added". 000_294bccfd88f0ebda.txt: "The USMC player also gets an extra
    die for wearing body armor" and "Woods, walls, buildings, and the bank of the stream provide cover
    (+1D defense)." """
    s = make(
        {"tal.2": unit(WEST, **shooter), "usmc.A": unit(EAST, **target)},
        rules="quick",
        initiative="taliban",
        table=table_with(*terrain),
    )
    res = shot(s, "tal.2", "usmc.A")
    assert res.defense == defense
    assert len(res.defense_rolls) == defense and sides_of(s, "defense of usmc.A") == [8] * defense


@pytest.mark.parametrize("rules", ["quick", "full"])
@pytest.mark.parametrize(
    "feature",
    [
        wall(17, 1, 17, 35, "stone_wall"),  # between the firer and the target
        area("woods", 18, 10, 20, 12),
        area("building", 18, 10, 20, 12),
        area("stream_bank", 18, 10, 20, 12),
    ],
    ids=["wall", "woods", "building", "stream_bank"],
)
def test_woods_walls_buildings_and_stream_banks_give_one_cover_die(rules, feature):
    """000_294bccfd88f0ebda.txt: "Woods, walls, buildings, and the bank of the stream provide cover (+1D
    defense)." 003_b1b2d2a6d4b3bab2.txt: "Intervening Cover: If enemy fire passes over an intervening
    terrain feature, such as a stone wall ... that unit may claim the Solid Cover bonus." Rulings R6: the
    same +1D in both rule modes (the target has moved, so it is not In Cover)."""
    plain = make({"tal.2": unit(WEST), "usmc.A": unit(EAST, moved="tactical")}, rules=rules, table=BACKS,
                 initiative="taliban")  # fmt: skip
    covered = make({"tal.2": unit(WEST), "usmc.A": unit(EAST, moved="tactical")}, rules=rules,
                   table=table_with(wall(3, 1, 3, 35, "west_back"), feature), initiative="taliban")  # fmt: skip
    a, b = shot(plain, "tal.2", "usmc.A"), shot(covered, "tal.2", "usmc.A")
    assert a.firepower == b.firepower == 9
    assert (a.defense, b.defense) == (5, 6)


@pytest.mark.parametrize(("rules", "defense"), [("full", 4 + 1 + 2), ("quick", 4 + 1 + 1)])
def test_woods_behind_a_wall_add_up_in_the_full_rules(rules, defense):
    """003_b1b2d2a6d4b3bab2.txt: "Cover modifiers that overlap are cumulative." and "All modifiers are
    cumulative." usmc.A (4 figures, body armour; it has moved: not In Cover) in a wood, fired on across a
    stone wall: the full rules give +1 for the woods and +1 for the wall, 7 dice; the quick start gives
    one die for being behind cover (000_294bccfd88f0ebda.txt: "If the USMC team is behind cover ... the
    team would receive another defensive dice"), 6 (R6)."""
    s = make({"tal.2": unit(WEST), "usmc.A": unit(EAST, moved="tactical")}, rules=rules, initiative="taliban",
             table=table_with(wall(3, 1, 3, 35, "west_back"), wall(17, 1, 17, 35, "stone_wall"),
                              area("woods", 18, 10, 20, 12)))  # fmt: skip
    assert shot(s, "tal.2", "usmc.A").defense == defense


def test_a_wall_behind_the_target_or_the_firer_gives_no_cover():
    """003_b1b2d2a6d4b3bab2.txt: "If enemy fire passes over an intervening terrain feature, such as a stone
    wall ... to reach a unit, that unit may claim the Solid Cover bonus." Fire that crosses no wall gets
    no Solid Cover (the walls here stand behind each unit)."""
    s = make({"tal.2": unit(WEST), "usmc.A": unit(EAST, moved="tactical")}, rules="quick", table=BACKS,
             initiative="taliban")  # fmt: skip
    assert s.cover_dice(uid("usmc.A"), s.pos[uid("tal.2")]) == 0
    assert shot(s, "tal.2", "usmc.A").defense == 4 + 1


def test_a_unit_always_has_at_least_one_defence_die():
    """003_b1b2d2a6d4b3bab2.txt: "A unit's Defense can never be reduced to zero. No matter what negative
    factors apply, a unit will always have at least one Defense die." (Quick rules: one figure, no
    armor, Rapid move -1D: 1 + 0 - 1 = 0, raised to 1.)"""
    s = make({"usmc.A": unit(WEST), "tal.1": unit(EAST, ok=1, moved="rapid")}, rules="quick")
    res = shot(s, "usmc.A", "tal.1")
    assert res.defense == 1 and res.defense_rolls == (1,)


def test_seriously_wounded_and_dead_figures_do_not_defend_or_shoot():
    """000_294bccfd88f0ebda.txt: "Note, too, that seriously wounded or dead figures do not contribute
    defensive dice." and "Lightly wounded figures contribute their firepower and defensive dice as
    normal ... Seriously wounded figures do NOT contribute their firepower or defensive dice"."""
    s = make({"tal.2": unit(WEST), "usmc.A": unit(EAST, ok=2, serious=1, kia=1)}, rules="quick",
             initiative="taliban")  # fmt: skip
    assert shot(s, "tal.2", "usmc.A").defense == 2 + 1
    s = make({"tal.2": unit(WEST), "usmc.A": unit(EAST, ok=1, light=2, serious=1)}, rules="quick",
             initiative="taliban")  # fmt: skip
    assert shot(s, "tal.2", "usmc.A").defense == 3 + 1
    # firing: 1 unhurt + 2 lightly wounded figures shoot, with both support weapons
    s = make({"usmc.A": unit(WEST, ok=1, light=2, serious=1, supply="normal"), "tal.2": unit(EAST)},
             rules="quick")  # fmt: skip
    assert shot(s, "usmc.A", "tal.2").firepower == 3 + 2


# ---------------------------------------------------------------- Rapid moves, Exposed, In Cover
def test_quick_rules_rapid_mover_loses_a_firepower_die_when_shooting():
    """000_294bccfd88f0ebda.txt: "Units that Rapid Move lose one Defensive Die when fired upon and a die
    of Firepower when shooting." Team Two moves 10" (Rapid) and fires: 8 + 1 - 1 = 8D6."""
    s = make({"tal.2": unit(pt(29, 11)), "usmc.A": unit(WEST)}, rules="quick", initiative="taliban")
    s.apply("tal.2")
    s.apply("move")
    s.apply(EAST)  # 10"
    decline_reactions(s)
    (moved,) = events(s, ev.UnitMoved)
    assert moved.rapid
    assert s.decision.kind == "fire_target" and s.decision.context["after_move"]
    script(s, [1] * 20)
    s.apply("usmc.A")
    decline_reactions(s)
    (res,) = fires(s)
    assert res.firepower == 8 and res.defense == 5


def test_quick_rules_rapid_mover_loses_a_defence_die_when_fired_upon():
    """000_294bccfd88f0ebda.txt: "Units that Rapid Move lose one Defensive Die when fired upon"."""
    still = make({"tal.2": unit(WEST), "usmc.A": unit(EAST)}, rules="quick", initiative="taliban")
    rapid = make({"tal.2": unit(WEST), "usmc.A": unit(EAST, moved="rapid")}, rules="quick",
                 initiative="taliban")  # fmt: skip
    assert shot(still, "tal.2", "usmc.A").defense == 5
    assert shot(rapid, "tal.2", "usmc.A").defense == 4


def test_full_rules_attacker_gains_a_die_against_a_rapid_mover():
    """003_b1b2d2a6d4b3bab2.txt: Rapid Movement: "also extremely vulnerable to fire, so units attacking
    them receive an additional die of Firepower." (The defence is not reduced: rulings R22.)"""
    tactical = make({"tal.2": unit(WEST), "usmc.A": unit(EAST, moved="tactical")}, table=BACKS,
                    initiative="taliban")  # fmt: skip
    rapid = make({"tal.2": unit(WEST), "usmc.A": unit(EAST, moved="rapid")}, table=BACKS,
                 initiative="taliban")  # fmt: skip
    a, b = shot(tactical, "tal.2", "usmc.A"), shot(rapid, "tal.2", "usmc.A")
    assert (a.firepower, a.defense) == (9, 5)
    assert (b.firepower, b.defense) == (10, 5)


def test_full_rules_rapid_mover_loses_a_firepower_die():
    """003_b1b2d2a6d4b3bab2.txt: "Units that have moved rapidly receive a -1 penalty to all Reaction
    Test die rolls and lose one die of Firepower for the remainder of the turn." """
    s = make({"tal.2": unit(WEST, moved="rapid"), "usmc.A": unit(EAST)}, table=BACKS, initiative="taliban")
    assert shot(s, "tal.2", "usmc.A").firepower == 8


@pytest.mark.parametrize(("rules", "supply", "firepower"), [
    ("full", None, 7), ("full", "normal", 6), ("full", "poor", 5), ("quick", None, 6)])  # fmt: skip
def test_well_supplied_marines_fire_one_more_die_in_the_full_rules(rules, supply, firepower):
    """003_b1b2d2a6d4b3bab2.txt: "+1 if unit is Well Supplied" and "-1 if unit is Poorly Supplied"
    (rulings R22: the scenario's USMC "Supply Level: High" is Well Supplied). A default fire team, 14"
    from its target (no Optimum Range die for the riflemen), neither side Exposed: 4 figures + 2
    light support dice + 1 Well Supplied = 7D (mutation audit, issue 16: every other test said
    ``supply="normal"``, so the +1 was never exercised)."""
    marines = unit(WEST) if supply is None else unit(WEST, supply=supply)
    s = make({"usmc.A": marines, "tal.2": unit(EAST)}, rules=rules, table=BACKS)
    assert shot(s, "usmc.A", "tal.2").firepower == firepower


@pytest.mark.parametrize(("rules", "moves", "firepower"), [("full", 0, 6), ("full", 1, 5), ("quick", 1, 6)])
def test_a_reaction_move_costs_a_firepower_die_in_the_full_rules(rules, moves, firepower):
    """003_b1b2d2a6d4b3bab2.txt: "-1 die for each move as part of a Reaction or Morale test failure."
    (mutation audit, issue 16: dropping the penalty broke no test)."""
    s = make({"usmc.A": unit(WEST, supply="normal", reaction_moves=moves), "tal.2": unit(EAST)},
             rules=rules, table=BACKS)  # fmt: skip
    assert shot(s, "usmc.A", "tal.2").firepower == firepower


def test_exposed_target_gives_the_attacker_a_die_in_the_full_rules_only():
    """003_b1b2d2a6d4b3bab2.txt: "Exposed (+1 Firepower Die for Attacker): If a unit is in open ground and
    is not within 2" of a scenic piece representing cover of some sort, it is considered to be
    Exposed." The quick start has no such rule (rulings R22)."""
    units = {"tal.2": unit(WEST), "usmc.A": unit(EAST)}
    full_open = make(units, table=table_with(), initiative="taliban")
    full_near_wall = make(units, table=BACKS, initiative="taliban")
    quick_open = make(units, rules="quick", table=table_with(), initiative="taliban")
    a = shot(full_open, "tal.2", "usmc.A")
    assert (a.firepower, a.defense) == (10, 5)  # Exposed: +1 FP, and not In Cover
    b = shot(full_near_wall, "tal.2", "usmc.A")
    assert (b.firepower, b.defense) == (9, 6)  # not Exposed: no bonus, In Cover +1D
    c = shot(quick_open, "tal.2", "usmc.A")
    assert (c.firepower, c.defense) == (9, 5)


def test_regular_unit_that_has_not_moved_is_in_cover():
    """003_b1b2d2a6d4b3bab2.txt: "Regular units are automatically In Cover on any activation that they
    do not move and are not Exposed." and "In Cover (+1 Defense Die)" (rulings R23, full rules only)."""
    still = make({"tal.2": unit(WEST), "usmc.A": unit(EAST)}, table=BACKS, initiative="taliban")
    moved = make({"tal.2": unit(WEST), "usmc.A": unit(EAST, moved="tactical")}, table=BACKS,
                 initiative="taliban")  # fmt: skip
    quick = make({"tal.2": unit(WEST), "usmc.A": unit(EAST)}, table=BACKS, rules="quick",
                 initiative="taliban")  # fmt: skip
    assert shot(still, "tal.2", "usmc.A").defense == 4 + 1 + 1
    assert shot(moved, "tal.2", "usmc.A").defense == 4 + 1
    assert shot(quick, "tal.2", "usmc.A").defense == 4 + 1


@pytest.mark.parametrize(("check", "defense"), [(4, 6), (3, 5)])
def test_exposed_regular_unit_takes_a_quality_check_to_get_in_cover(check, defense):
    """003_b1b2d2a6d4b3bab2.txt: "Irregulars that have not moved during their activation and Exposed
    Regular units must pass a Quality Check to get "In Cover." " (rulings R23: an Exposed unit that
    holds takes the check)."""
    s = make({"usmc.A": unit(EAST), "tal.2": unit(WEST)}, table=table_with())
    script(s, [check])
    s.apply("usmc.A")
    s.apply("hold")
    assert sides_of(s, "quality check") == [8]
    assert s.decision.kind == "select_unit" and s.decision.player == 0  # the Taliban's portion
    fire(s, "tal.2", "usmc.A", [1] * 30)
    (res,) = fires(s)
    assert res.firepower == 10  # still Exposed to fire (+1)
    assert res.defense == defense


# ---------------------------------------------------------------- firepower
@pytest.mark.parametrize(
    ("shooter", "target_at", "firepower"),
    [
        ("tal.2", pt(11, 11), 8 + 1 + 1),  # 6": within a D6 unit's Optimum Range
        ("tal.2", pt(13, 11), 8 + 1),  # 8": the riflemen are beyond 6"
        ("usmc.A", pt(13, 11), 4 + 2 + 1),  # 8": a D8 unit's Optimum Range
        ("usmc.A", pt(11, 15), 4 + 2 + 1),  # 7.2" on a diagonal
        ("usmc.A", pt(15, 11), 4 + 2),  # 10": rifles out of range (SAW and RGL would reach 16")
    ],
)
def test_optimum_range_die_is_troop_quality_in_inches(shooter, target_at, firepower):
    """000_294bccfd88f0ebda.txt: "If the target were within six inches (the number in inches = number of
    sides of its TQ die), it would receive another die." 003_b1b2d2a6d4b3bab2.txt: "A unit can only
    claim an Optimum Range die if all the weapons used in the attack are within Optimum Range." Ranges
    are measured between the units' points (rulings R2)."""
    target = "usmc.A" if shooter.startswith("tal") else "tal.2"
    units = {shooter: unit(WEST, supply="normal"), target: unit(target_at)}
    s = make(units, rules="quick", initiative="taliban" if shooter.startswith("tal") else "usmc")
    assert shot(s, shooter, target).firepower == firepower


def test_support_weapons_have_twice_the_optimum_range():
    """003_b1b2d2a6d4b3bab2.txt: "Support Weapons and units with enhanced optics have twice the usual
    Optimum Range for their Troop Quality." A split D8 team sends only its SAW and RGL dice at a target
    14" away (within 16"): that portion gets the Optimum Range die; its riflemen fire at a unit 18" away."""
    s = make({"usmc.A": unit(WEST, supply="normal"), "tal.1": unit(EAST, ok=4),
              "tal.2": unit(pt(23, 11), ok=4)}, table=BACKS)  # fmt: skip
    script(s, [1] * 60)
    for a in ("usmc.A", "fire", "tal.1", "tal.2", "n4", "tal.1", "tal.1"):
        s.apply(a)
    decline_reactions(s)
    near, far = fires(s)
    assert (near.target, near.firepower) == ("tal.1", 0 + 2 + 1)
    assert (far.target, far.firepower) == ("tal.2", 4)


@pytest.mark.parametrize(("fired", "firepower"), [(0, 6), (1, 5), (2, 4)])
def test_each_fire_after_the_first_costs_a_die(fired, firepower):
    """000_294bccfd88f0ebda.txt: "They lose one die each time they fire. Once they have run out of dice,
    they may no longer fire.For example, the four-man USMC fire team from above has an initial firepower
    strength of 6D8 at normal range. The second time it fires, it has a strength of 5D8, then 4D8"."""
    s = make({"tal.2": unit(WEST), "usmc.A": unit(pt(15, 11), supply="normal", fires=fired)},
             rules="quick", initiative="taliban")  # fmt: skip
    s.apply("tal.2")
    s.apply("fire")
    script(s, [1] * 9 + [1] * 5 + [1] * 30)
    s.apply("usmc.A")
    s.apply("pass")  # usmc.A declines its return fire in the window ...
    assert s.decision.kind == "return_fire"
    s.apply("interrupt_fire")  # ... and fires back after the shot
    back = fires(s)[-1]
    assert (back.shooter, back.firepower) == ("usmc.A", firepower)
    assert s.fires[uid("usmc.A")] == fired + 1


def test_firepower_lost_to_firing_is_recovered_in_the_end_phase():
    """000_294bccfd88f0ebda.txt: "Units recover their firepower dice at the end of the turn, less any
    reductions for casualties." and End Phase: "all units who suffer from reduced firepower due to
    multiple fires recover." """
    s = make({"tal.2": unit(pt(33, 33)), "usmc.A": unit(WEST, supply="normal", fires=2)}, rules="quick",
             initiative="taliban", portion="non_initiative")  # fmt: skip
    a = uid("usmc.A")
    assert s.fire_capacity(a) == 4
    s.apply("pass")  # the last portion of turn 1 ends
    assert s.turn == 2
    assert s.fires[a] == 0 and s.fire_capacity(a) == 6


def test_a_unit_with_no_firepower_left_cannot_fire():
    """003_b1b2d2a6d4b3bab2.txt: "When a unit's Firepower is reduced to zero, it may no longer fire
    during that turn." A lone Taliban that has fired once has 1 - 1 = 0 dice."""
    lone = unit(pt(19, 15), ok=1, support=[], fires=1)
    s = make({"tal.1": lone, "usmc.A": unit(WEST)}, rules="quick", initiative="taliban")
    assert s.fire_capacity(uid("tal.1")) == 0
    s.apply("tal.1")
    assert "fire" not in s.legal_action_strings()
    with pytest.raises(IllegalActionError):
        s.apply("fire")
    # fired on, it may not fire back either (no interrupt fire, no return fire)
    s = make({"tal.1": lone, "usmc.A": unit(WEST)}, rules="quick")
    script(s, [1] * 20)
    s.apply("usmc.A")
    s.apply("fire")
    s.apply("tal.1")
    assert s.decision.kind == "declare_interrupt"
    assert s.legal_action_strings() == ["pass", "interrupt_move"]
    s.apply("pass")
    assert s.decision.kind == "select_unit" and len(fires(s)) == 1


@pytest.mark.parametrize(
    ("rules", "moved", "firepower"),
    [
        ("full", "none", 5 + 2),
        ("full", "tactical", 5 + 1),  # "one bonus Firepower die rather than two"
        ("full", "rapid", 5 + 0 - 1),  # "no Support Weapon dice at all", and -1 for the Rapid move
        ("quick", "tactical", 5 + 2),
        ("quick", "rapid", 5 + 2 - 1),
    ],
)
def test_medium_support_weapon_after_moving(rules, moved, firepower):
    """003_b1b2d2a6d4b3bab2.txt: "Medium Support Weapons that make a Rapid Move receive no Support Weapon
    dice at all." and "any unit that moves in a turn receives one bonus Firepower die rather than two
    (i.e., an RPG team with a normal Firepower of 5D would have a Firepower of 4D during any turn in
    which it moved)." Quick rules: "RPG (Med. Support, +2 Firepower Dice)", no movement penalty."""
    s = make({"tal.3": unit(WEST, moved=moved), "usmc.A": unit(EAST)}, rules=rules, table=BACKS,
             initiative="taliban")  # fmt: skip
    assert shot(s, "tal.3", "usmc.A").firepower == firepower


def test_rpg_team_of_5d_has_4d_after_moving():
    """003_b1b2d2a6d4b3bab2.txt: "an RPG team with a normal Firepower of 5D would have a Firepower of 4D
    during any turn in which it moved"."""
    still = make({"tal.3": unit(WEST, ok=3), "usmc.A": unit(EAST)}, table=BACKS, initiative="taliban")
    moved = make({"tal.3": unit(WEST, ok=3, moved="tactical"), "usmc.A": unit(EAST)}, table=BACKS,
                 initiative="taliban")  # fmt: skip
    assert shot(still, "tal.3", "usmc.A").firepower == 5
    assert shot(moved, "tal.3", "usmc.A").firepower == 4


@pytest.mark.parametrize(
    ("rules", "moved", "firepower"),
    [
        ("full", "none", 4 + 3),
        ("full", "tactical", 4 + 3 - 2),  # "a two dice penalty"
        ("full", "rapid", 4 + 0 - 1),  # the heavy weapon "may not fire at all"; -1 for the Rapid move
        ("quick", "tactical", 4 + 3),
    ],
)
def test_heavy_support_weapon_after_moving(rules, moved, firepower):
    """003_b1b2d2a6d4b3bab2.txt: "any Heavy Weapon that make a Tactical Move during a turn suffers a two
    dice penalty to its Firepower (i.e., a HMG team that normally had a Firepower of 8D would be reduced
    to a Firepower of 6D if it moved during a turn). Heavy support Weapons whose crew makes a Rapid Move
    may not fire at all." (The riflemen still fire: the weapon adds nothing, combat.support_dice.)"""
    s = make({"tal.3": unit(WEST, ok=4, support=["heavy"], moved=moved), "usmc.A": unit(EAST)},
             rules=rules, table=BACKS, initiative="taliban")  # fmt: skip
    assert shot(s, "tal.3", "usmc.A").firepower == firepower


@pytest.mark.parametrize(
    ("rules", "extra", "firepower"),
    [
        ("full", {}, 10),
        ("full", {"fires": 1}, 9),  # 18D capped to 10D, then -1: not 17D
        ("full", {"moved": "rapid"}, 9),  # 12 + 1 + 1 (the mediums are silent) capped, then -1
        ("full", {"supply": "poor", "fires": 1}, 8),
        ("quick", {}, 18),  # the quick start has no cap (R22): 12 figures + 2 + 2 + 1 + 1
        ("quick", {"fires": 1}, 17),
    ],
)
def test_firepower_cap_of_10d_is_applied_before_penalties(rules, extra, firepower):
    """003_b1b2d2a6d4b3bab2.txt: "No infantry unit may have a total Firepower greater than 10 dice." and
    "Note that all negative penalties are applied to the 10D cap, regardless of the number of figures in
    the unit." R22: the quick start (000) states no cap; its bases are "the number of figures in the
    team" plus the support and Optimum Range dice."""
    big = unit(WEST, ok=12, support=["medium", "medium", "light", "light"], **extra)
    s = make({"tal.1": big, "usmc.A": unit(EAST)}, rules=rules, table=BACKS, initiative="taliban")
    assert shot(s, "tal.1", "usmc.A").firepower == firepower


@pytest.mark.parametrize(("ok", "down", "firepower"), [(4, 0, 6), (2, 2, 5), (1, 3, 3)])
def test_support_weapons_are_limited_to_effective_figures(ok, down, firepower):
    """000_294bccfd88f0ebda.txt: "If the grenadier gets hit, someone will pick up his launcher." Rulings
    R20: one support weapon per effective figure, best first (a lone survivor fires one weapon). The
    survivors are all gunners then, so they keep the weapons' Optimum Range (R24): 2 + 2 + 1 and 1 + 1 + 1
    at a range beyond the riflemen's 8" (003's Optimum Range, full rules: R22)."""
    s = make({"usmc.A": unit(WEST, ok=ok, down=down, supply="normal"), "tal.2": unit(EAST)}, rules="full",
             table=BACKS)  # a wall at its back: the target is not Exposed (R22)
    assert shot(s, "usmc.A", "tal.2").firepower == firepower


@pytest.mark.parametrize(("at", "firepower"), [(pt(13, 11), 2 + 2 + 1), (EAST, 2 + 2)])
def test_quick_start_optimum_range_is_the_tq_in_inches_for_every_weapon(at, firepower):
    """000_294bccfd88f0ebda.txt: "If the target were within six inches (the number in inches = number of
    sides of its TQ die), it would receive another die." R22: the quick start knows no doubled range for
    support weapons (that is 003's), so two D8 gunners get the die at 8" and not at 14"."""
    s = make({"usmc.A": unit(WEST, ok=2, down=2), "tal.2": unit(at)}, rules="quick")
    assert shot(s, "usmc.A", "tal.2").firepower == firepower


# ---------------------------------------------------------------- who is hit
@pytest.mark.parametrize(
    ("which", "after"), [(4, {"ok": 3, "down": 1}), (3, {"ok": 2, "light": 1, "down": 1})]
)
def test_casualties_fall_on_random_effective_figures(which, after):
    """000_294bccfd88f0ebda.txt: "Who gets hit? For regular forces ... it really doesn't matter." and
    "For the purposes of who gets hit, seriously wounded figures do not count." Rulings R21: the engine
    rolls which figure is hit (a die with one face per effective figure) only when the unit has both
    unhurt and lightly wounded figures: here 3 unhurt and 1 lightly wounded, face 4 is the wounded one."""
    s = make({"tal.2": unit(WEST), "usmc.A": unit(EAST, ok=3, light=1, serious=2)}, rules="quick",
             initiative="taliban")  # fmt: skip
    fire(s, "tal.2", "usmc.A", [6] + [1] * 8 + [1] * 5 + [which] + [9, 9, 9])
    assert fires(s)[0].defense == 4 + 1  # the serious figures neither defend ...
    assert sides_of(s, "which figure") == [4]  # ... nor can be hit again
    assert figures(s, "usmc.A") == {**after, "serious": 2}
    assert dice_used(s) == 9 + 5 + 1 + 3


def test_no_which_figure_die_when_all_effective_figures_are_alike():
    """000_294bccfd88f0ebda.txt: "Who gets hit? For regular forces (both the USMC and Taliban in this
    scenario), it really doesn't matter." Rulings R21: no die is rolled when it cannot matter."""
    s = make({"tal.2": unit(WEST), "usmc.A": unit(EAST)}, rules="quick", initiative="taliban")
    fire(s, "tal.2", "usmc.A", [6, 6] + [1] * 7 + [1] * 5 + [9, 9])
    assert not sides_of(s, "which figure")
    assert figures(s, "usmc.A") == {"ok": 2, "down": 2} and dice_used(s) == 16
    s = make({"tal.2": unit(WEST), "usmc.A": unit(EAST, ok=0, light=3)}, rules="quick", initiative="taliban")
    fire(s, "tal.2", "usmc.A", [6] + [1] * 8 + [1] * 4 + [9, 9])
    assert not sides_of(s, "which figure")
    assert figures(s, "usmc.A") == {"light": 2, "down": 1}


def test_each_hit_rolls_again_among_the_figures_still_effective():
    """000_294bccfd88f0ebda.txt: casualties fall on effective figures, one per unblocked die (rulings
    R21): after the first hit takes the lightly wounded figure, the second needs no die."""
    s = make({"tal.2": unit(WEST), "usmc.A": unit(EAST, ok=2, light=1)}, rules="quick", initiative="taliban")
    fire(s, "tal.2", "usmc.A", [6, 6] + [1] * 7 + [1] * 4 + [3] + [9])
    assert sides_of(s, "which figure") == [3]
    assert figures(s, "usmc.A") == {"ok": 1, "down": 2}


# ---------------------------------------------------------------- split fire
def test_d6_units_engage_one_target_d8_units_may_split():
    """003_b1b2d2a6d4b3bab2.txt: "Targets Engaged by Quality D6 Troop Quality: May only engage ONE target
    D8 Troop Quality: May engage TWO targets" (rulings R24)."""
    s = make({"tal.2": unit(WEST), "usmc.A": unit(EAST), "usmc.B": unit(pt(19, 15))}, table=BACKS,
             initiative="taliban")  # fmt: skip
    s.apply("tal.2")
    s.apply("fire")
    s.apply("usmc.A")
    assert s.decision.kind == "declare_interrupt"  # no split question for a D6 unit
    s = make({"usmc.A": unit(WEST), "tal.1": unit(EAST), "tal.2": unit(pt(19, 15))}, table=BACKS)
    s.apply("usmc.A")
    s.apply("fire")
    s.apply("tal.1")
    assert s.decision.kind == "split_target" and s.legal_action_strings() == ["tal.2", "pass"]
    s.apply("tal.2")
    assert s.decision.kind == "split_dice"
    assert s.legal_action_strings() == ["n1", "n2", "n3", "n4"]
    s.apply("n1")
    assert s.decision.kind == "split_support" and s.decision.context["weapon"] == "light"
    assert s.legal_action_strings() == ["tal.1", "tal.2"]  # each weapon to one target
    with pytest.raises(IllegalActionError):
        s.apply("usmc.A")


def test_split_fire_penalties_fall_on_the_first_target_share():
    """003_b1b2d2a6d4b3bab2.txt: "To split fire, the owning player must announce what targets a unit is
    going to engage and how many Firepower Dice will be devoted to each target. Support Weapon dice must
    be allocated to one target". Rulings R24: unit-wide penalties (here one earlier fire) are taken
    from the first target's share."""
    s = make({"usmc.A": unit(WEST, supply="normal", fires=1), "tal.1": unit(EAST, ok=4),
              "tal.2": unit(pt(19, 15), ok=4)}, table=BACKS)  # fmt: skip
    script(s, [1] * 60)
    for a in ("usmc.A", "fire", "tal.1", "tal.2", "n2", "tal.1", "tal.2"):
        s.apply(a)
    decline_reactions(s)
    first, second = fires(s)
    assert (first.target, first.firepower) == ("tal.1", 2 + 1 - 1)
    assert (second.target, second.firepower) == ("tal.2", 2 + 1)
    assert s.fires[uid("usmc.A")] == 2  # a split fire is one fire


def test_split_with_everything_on_one_target_is_a_single_fire():
    """003_b1b2d2a6d4b3bab2.txt: "how many Firepower Dice will be devoted to each target": when the
    second target gets no dice at all (every figure and weapon on it, none left on the first) the fire
    is not split."""
    s = make({"usmc.A": unit(WEST, supply="normal"), "tal.1": unit(EAST, ok=4),
              "tal.2": unit(pt(19, 15), ok=4)}, table=BACKS)  # fmt: skip
    script(s, [1] * 60)
    for a in ("usmc.A", "fire", "tal.1", "tal.2", "n4", "tal.2", "tal.2"):
        s.apply(a)
    decline_reactions(s)
    (only,) = fires(s)
    assert (only.target, only.firepower) == ("tal.2", 6)


# ---------------------------------------------------------------- rounds of fire
def test_round_of_fire_is_complete_when_both_units_have_fired():
    """003_b1b2d2a6d4b3bab2.txt: "The side that fires first will resolve its fire ... If the unit
    receiving fire first survives, it will return fire ... When both units have fired, the round of fire
    is complete." The target wins the reaction test and fires first, the actor fires back: the round is
    over, the target does not get a third shot (rulings R17: "Return fire is not itself answered")."""
    s = make({"tal.2": unit(WEST), "usmc.A": unit(EAST, supply="normal")}, rules="quick",
             initiative="taliban")  # fmt: skip
    s.apply("tal.2")
    s.apply("fire")
    s.apply("usmc.A")
    script(s, [2, 6] + [1] * 6 + [1] * 6 + [1] * 9 + [1] * 5)
    s.apply("interrupt_fire")
    assert [(f.shooter, f.firepower) for f in fires(s)] == [("usmc.A", 6), ("tal.2", 9)]
    assert s.decision.kind != "return_fire"


# ---------------------------------------------------------------- casualty checks (turn 2)
def end_turn_one(units, **kw):
    """Turn 1, the non-initiative (USMC) portion: the USMC pass and turn 2 begins."""
    s = make(units, initiative="taliban", portion="non_initiative", **kw)
    return s


def test_casualty_check_d6_table_at_the_start_of_turn_two():
    """000_294bccfd88f0ebda.txt: "Roll 1D6 for each casualty. On a 1, the figure is KIA and removed from
    play. On a 6, the figure was only stunned may return to duty with no adverse effects. On a 2 or 3,
    the figure is seriously wounded. On a 4 or 5, the figure was lightly wounded and returns to duty, but
    still counts as a casualty." (rulings R25)"""
    s = end_turn_one({"usmc.A": unit(WEST, ok=1, down=6), "tal.1": unit(pt(33, 33))}, rules="quick")
    script(s, [1, 2, 3, 4, 5, 6])
    s.apply("pass")
    assert s.turn == 2 and dice_used(s) == 6
    assert sides_of(s, "casualty check") == [6] * 6
    assert figures(s, "usmc.A") == {"ok": 2, "light": 2, "serious": 2, "kia": 1}
    assert s.victory_points()[0] == 2 * 1 + 2  # "Per USMC KIA = 2 VP", "Per USMC with Serious Wound = 1 VP"


def test_casualties_are_checked_after_initiative_and_not_before_turn_two():
    """000_294bccfd88f0ebda.txt: "At the beginning of next turn, the owning player will roll to determine
    how severely they have been hit." and "First of all, the two sides determine initiative ... The
    second thing that happens is that players with casualties check their status." (rulings R12: a unit
    with no effective figure is not active; here only usmc.B counts: 1 // 2 = 0 USMC dice)."""
    units = {
        "usmc.A": unit(WEST, ok=0, down=2),
        "usmc.B": unit(pt(5, 13)),
        "tal.1": unit(pt(33, 33)),
        "tal.2": unit(pt(33, 29)),
    }
    s = make(units, initiative="usmc", portion="non_initiative")
    assert figures(s, "usmc.A") == {"down": 2}
    script(s, [5, 6, 6])
    s.apply("pass")  # the Taliban end turn 1
    purposes = [e.purpose for e in events(s, DiceRolled)]
    assert purposes == ["taliban initiative", "casualty check of usmc.A", "casualty check of usmc.A"]
    (started,) = events(s, ev.TurnStarted)
    assert started == ev.TurnStarted(2, "taliban")  # 1 Taliban success against no USMC die
    assert figures(s, "usmc.A") == {"ok": 2}


@pytest.mark.parametrize(
    ("units", "checked"),
    [
        ({"usmc.A": unit(WEST, ok=1, down=2)}, True),  # one figure still effective
        ({"usmc.A": unit(WEST, ok=0, down=2)}, False),  # nobody left, nobody near
        ({"usmc.A": unit(WEST, ok=0, down=2), "usmc.B": unit(pt(5, 13))}, True),  # a friend 2" away
        ({"usmc.A": unit(WEST, ok=0, down=2), "usmc.B": unit(pt(5, 15))}, False),  # 4" away
        ({"usmc.A": unit(WEST, ok=0, down=2), "usmc.B": unit(pt(7, 13))}, False),  # 2.8" away
    ],
)
def test_casualty_check_needs_an_effective_figure_or_a_friendly_unit_within_one_inch(units, checked):
    """000_294bccfd88f0ebda.txt: "To check casualties, the unit must have at least one figure remaining
    effective -or- another friendly unit must be within 1" of the unit." Rulings R3/R25: units stand on
    points 2" apart, so "within 1"" between two units is at most 2" between their points."""
    s = end_turn_one({**units, "tal.1": unit(pt(33, 33))})
    script(s, [6, 6])
    s.apply("pass")
    assert s.turn == 2
    assert (sides_of(s, "casualty check") == [6, 6]) is checked
    assert figures(s, "usmc.A").get("down", 0) == (0 if checked else 2)


def test_unchecked_casualties_are_checked_once_a_friend_comes_near():
    """000_294bccfd88f0ebda.txt: "Any units with casualties and at least one effective soldier still up
    or a friendly unit within one inch may assess the severity of its casualties." (rulings R25:
    casualties not assessed stay down until a later turn's check can be made)."""
    s = end_turn_one(
        {"usmc.A": unit(WEST, ok=0, down=1), "usmc.B": unit(pt(5, 19)), "tal.1": unit(pt(33, 33))}
    )
    script(s, [])
    s.apply("pass")  # turn 2 starts: nobody near usmc.A
    assert figures(s, "usmc.A") == {"down": 1}
    s.apply("pass")  # no Overwatch
    # The Taliban initiative portion: the Taliban pass; the USMC bring usmc.B next to usmc.A.
    s.apply("pass")
    s.apply("usmc.B")
    s.apply("move")
    s.apply(pt(5, 13))
    assert s.decision.kind == "fire_target" and s.decision.context["after_move"]
    script(s, [2])
    s.apply("pass")  # no fire after the move: turn 2 ends, turn 3 starts and the check is made now
    assert s.turn == 3 and figures(s, "usmc.A") == {"serious": 1}


def test_escorted_casualties_are_checked_every_turn():
    """000_294bccfd88f0ebda.txt: "You can elect to move a casualty off-board by assigning an effective
    figure to escort it off a friendly board edge" and "At the beginning of next turn, the owning player
    will roll to determine how severely they have been hit." (rulings R25: "Casualties escorted off the
    table are checked every turn"; R26: they still count for VP)."""
    s = end_turn_one({"usmc.A": unit(WEST, ok=2, down=1), "tal.1": unit(pt(33, 33))}, rules="quick")
    s.apply("usmc.A")
    s.apply("escort")
    assert figures(s, "usmc.A") == {"ok": 1, "gone": 1, "evac_down": 1}
    script(s, [2])
    s.apply("hold")  # the USMC portion, and turn 1, end
    assert s.turn == 2 and sides_of(s, "casualty check") == [6]
    assert figures(s, "usmc.A") == {"ok": 1, "gone": 1, "evac_serious": 1}
    assert s.victory_points()[0] == 1


# ---------------------------------------------------------------- wounded figures and movement
def dist(a: str, b: str) -> float:
    (ax, ay), (bx, by) = ((int(n[1:3]), int(n[4:6])) for n in (a, b))
    return ((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5


@pytest.mark.parametrize("wounded", [{"light": 1}, {"serious": 1}, {"down": 1}])
def test_wounded_figures_force_a_tq_check_to_move_faster_than_tactical(wounded):
    """000_294bccfd88f0ebda.txt: "Lightly wounded figures contribute their firepower and defensive dice
    as normal, but force the unit to make a TQ check on one die to move faster than Tactical movement.
    Seriously wounded figures ... force the same TQ check for movement faster than Tactical." On a failed
    check the move is asked again with Tactical (6") destinations only (rulings R4: Tactical up to 6",
    Rapid up to 12")."""
    s = make({"usmc.A": unit(WEST, ok=3, **wounded), "tal.1": unit(pt(33, 33))}, rules="quick")
    s.apply("usmc.A")
    s.apply("move")
    points = [p for p in s.legal_action_strings() if p != "exit"]
    assert pt(17, 11) in points and max(dist(WEST, p) for p in points) == 12
    script(s, [3])
    s.apply(pt(17, 11))  # 12": Rapid
    assert sides_of(s, "TQ check") == [8]
    assert s.decision.kind == "move_target" and s.decision.context["tactical_only"]
    points = [p for p in s.legal_action_strings() if p != "exit"]
    assert pt(17, 11) not in points and max(dist(WEST, p) for p in points) == 6
    with pytest.raises(IllegalActionError):
        s.apply(pt(17, 11))
    s.apply(pt(11, 11))
    decline_reactions(s)
    (moved,) = events(s, ev.UnitMoved)
    assert (moved.destination, moved.rapid) == (pt(11, 11), False)


def test_wounded_unit_passing_its_tq_check_moves_rapidly():
    """000_294bccfd88f0ebda.txt: "force the unit to make a TQ check on one die to move faster than
    Tactical movement" (a success is 4+)."""
    s = make({"usmc.A": unit(WEST, ok=3, light=1), "tal.1": unit(pt(33, 33))}, rules="quick")
    s.apply("usmc.A")
    s.apply("move")
    script(s, [4])
    s.apply(pt(17, 11))
    decline_reactions(s)
    (moved,) = events(s, ev.UnitMoved)
    assert (moved.destination, moved.rapid) == (pt(17, 11), True)
    assert s.moved[uid("usmc.A")] == 2


@pytest.mark.parametrize(("check", "exits"), [(4, True), (3, False)])
def test_a_wounded_team_leaving_by_its_edge_beyond_tactical_reach_takes_the_tq_check(check, exits):
    """000_294bccfd88f0ebda.txt: wounded figures "force the unit to make a TQ check on one die to move
    faster than Tactical movement." Leaving the table is a move: 9" to the West edge is a Rapid one
    (rulings R4, R32), so a wounded team must pass the check; failing it, only Tactical destinations
    (6") remain and the edge is out of reach (mutation audit, issue 16: the exit skipped the check)."""
    s = make({"usmc.A": unit(pt(9, 11), ok=3, light=1), "tal.1": unit(pt(33, 33))}, rules="quick")
    s.apply("usmc.A")
    s.apply("move")
    assert "exit" in s.legal_action_strings()
    script(s, [check])
    s.apply("exit")
    assert sides_of(s, "TQ check") == [8]
    if exits:
        decline_reactions(s)
        assert s.pos[uid("usmc.A")] == -1 and events(s, ev.UnitMoved)[0].rapid
    else:
        assert s.decision.context["tactical_only"] and "exit" not in s.legal_action_strings()
        assert s.pos[uid("usmc.A")] == s.table.index(pt(9, 11))


def test_unhurt_unit_moves_rapidly_without_a_check():
    """000_294bccfd88f0ebda.txt: "it can move up to 6" with Tactical movement or up to 12" with Rapid
    movement" (the TQ check is only for units with wounded figures)."""
    s = make({"usmc.A": unit(WEST), "tal.1": unit(pt(33, 33))}, rules="quick")
    script(s, [])
    s.apply("usmc.A")
    s.apply("move")
    s.apply(pt(17, 11))
    decline_reactions(s)
    assert dice_used(s) == 0 and events(s, ev.UnitMoved)[0].rapid


# ---------------------------------------------------------------- escorting casualties
def test_escort_takes_an_effective_figure_and_a_casualty_off_the_friendly_edge():
    """000_294bccfd88f0ebda.txt: "You can elect to move a casualty off-board by assigning an effective
    figure to escort it off a friendly board edge (West for the USMC; East for the Taliban), but that
    effective figure cannot do anything else while escorting the dependent". Rulings R26: a free step of
    an activation within 6" of the edge, with at least two effective figures; serious casualties first;
    escorted casualties still count for VP."""
    s = make({"usmc.A": unit(WEST, ok=2, serious=1, down=1), "tal.1": unit(pt(33, 33))}, rules="quick")
    s.apply("usmc.A")
    assert "escort" in s.legal_action_strings()
    s.apply("escort")
    assert figures(s, "usmc.A") == {"ok": 1, "gone": 1, "evac_serious": 1, "down": 1}
    assert s.decision.kind == "choose_action" and "escort" not in s.legal_action_strings()
    assert s.victory_points()[0] == 1  # the escorted serious casualty still counts
    s.apply("fire")
    s.apply("tal.1")
    script(s, [1] * 30)
    decline_reactions(s)
    assert fires(s)[0].firepower == 1 + 1  # one effective figure left, with one support weapon


@pytest.mark.parametrize(
    ("at", "figs"),
    [
        (pt(7, 11), {"ok": 2, "serious": 1}),  # 7" from the West edge: beyond a Tactical move
        (WEST, {"ok": 1, "serious": 1}),  # a single effective figure: nobody would be left
        (WEST, {"ok": 2}),  # no casualty to escort
    ],
)
def test_escort_needs_the_edge_close_two_effective_figures_and_a_casualty(at, figs):
    """000_294bccfd88f0ebda.txt: "assigning an effective figure to escort it off a friendly board edge"
    (rulings R26: within a Tactical move of the edge, at least two effective figures)."""
    s = make({"usmc.A": unit(at, **figs), "tal.1": unit(pt(33, 33))}, rules="quick")
    s.apply("usmc.A")
    assert "escort" not in s.legal_action_strings()
    with pytest.raises(IllegalActionError):
        s.apply("escort")
