"""Every worked example of the seeds' fire-combat text, replayed through the engine.

``000_294bccfd88f0ebda.txt`` (quick start) examples run under ``rules="quick"``,
``003_b1b2d2a6d4b3bab2.txt`` (full infantry rules) examples under ``rules="full"``.
Each test builds the example's situation as a position, applies the actions by
their canonical strings and scripts the example's own dice where it gives them.
"""

import pytest

from fof_env.core.events import DiceRolled
from fof_env.force_on_force import events as ev

from .helpers import (
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
)

WEST, EAST = pt(5, 11), pt(19, 11)  # 14" apart
# Walls 2" behind the western and eastern units: nobody is Exposed, nothing lies between them.
BACKS = table_with(wall(3, 1, 3, 35, "west_back"), wall(21, 1, 21, 35, "east_back"))


def sides_of(state, purpose: str) -> list[int]:
    return [e.sides for e in events(state, DiceRolled) if e.purpose.startswith(purpose)]


# ====================================================================== 000 quick start
@pytest.mark.parametrize(("target_at", "firepower"), [(EAST, 9), (pt(11, 11), 10)])
def test_000_team_two_fires_9d6_or_10d6_within_six_inches(target_at, firepower):
    """000_294bccfd88f0ebda.txt: "So Taliban Team Two has eight figures and therefore rolls 8D6 ... since
    it contains a light support weapon, it gets an additional die. If the target were within six inches
    ... it would receive another die. So in this example, the Taliban fire team would roll 8 +1 or 9
    six-sided dice to shoot one of the USMC teams. If the USMC team were within 6", it would roll 10
    six-sided dice." """
    s = make({"tal.2": unit(WEST), "usmc.A": unit(target_at)}, rules="quick", initiative="taliban")
    assert figures(s, "tal.2") == {"ok": 8} and s.support[uid("tal.2")] == (1,)  # 8 figures, an RPK
    fire(s, "tal.2", "usmc.A", [1] * 30)
    (res,) = fires(s)
    assert res.firepower == firepower
    assert sides_of(s, "firepower of tal.2") == [6] * firepower


def test_000_alpha_defends_with_5d8_and_takes_two_casualties():
    """000_294bccfd88f0ebda.txt: "Let's say the rolls were 6-5-5-4-4-4-3-3-1. That would be six potential
    hits ... In the case of Fire Team Alpha, the USMC has four figures. ... The USMC player also gets an
    extra die for wearing body armor. ... Let's say that the USMC team is not in cover. That means the
    USMC player rolls 5D8 ... let's say the USMC player rolls 7-6-4-4-2. ... the USMC player can block a
    6, 5, and two 4's from the Taliban players roll. This means a 5 and a 4 result from the original roll
    remain unblocked and cause casualties." (The seed's text drops "Th": "is means", "at would be".)"""
    s = make({"tal.2": unit(WEST), "usmc.A": unit(EAST)}, rules="quick", initiative="taliban")
    fire(s, "tal.2", "usmc.A", [6, 5, 5, 4, 4, 4, 3, 3, 1] + [7, 6, 4, 4, 2] + [7, 4])
    (res,) = fires(s)
    assert res.attack == (6, 5, 5, 4, 4, 4, 3, 3, 1)
    assert (res.defense, res.defense_rolls) == (5, (7, 6, 4, 4, 2))
    assert sides_of(s, "defense of usmc.A") == [8] * 5
    assert res.casualties == 2
    assert figures(s, "usmc.A") == {"ok": 2, "down": 2}  # "Lay the casualties on their side in place."


def test_000_alpha_behind_a_stone_wall_gets_another_defence_die():
    """000_294bccfd88f0ebda.txt: "If the USMC team is behind cover (in this scenario, if the majority of
    the unit is behind one of the stone walls), the team would receive another defensive dice." (rulings
    R6: a wall between firer and target gives +1D.)"""
    walled = table_with(wall(17, 1, 17, 35, "stone_wall"))
    s = make({"tal.2": unit(WEST), "usmc.A": unit(EAST)}, rules="quick", initiative="taliban", table=walled)
    fire(s, "tal.2", "usmc.A", [6, 5, 5, 4, 4, 4, 3, 3, 1] + [7, 6, 4, 4, 2, 5] + [7, 4, 9])
    (res,) = fires(s)
    assert res.defense == 6
    assert res.casualties == 1  # the extra defence die (a 5) blocks one more: only the 6 is left


@pytest.mark.parametrize(("rolls", "passed"), [((7, 4), True), ((4, 3), True), ((3, 2), False)])
def test_000_morale_check_after_two_casualties(rolls, passed):
    """000_294bccfd88f0ebda.txt: "If the target that was defending takes casualties, it must take a morale
    check. To do so, it rolls one die for every surviving figure in the unit. It uses its Morale die type
    for this check. Successes are 4+; all it needs to pass is to roll more successes than failures (ties
    count as passing as well).In the above example, the USMC unit suffered a total of two casualties out
    of four figures. The USMC player must roll 2D8 for 4's or better. Let's say the player rolled a 7
    and a 4. That's two successes and no failures, so the USMC player does not suffer any adverse
    results. If the unit's morale check fails, the unit is pinned". The example says 2D8, but the rule
    says the Morale die type, and the USMC are "Troop Quality/Morale: D8/D10": the engine rolls D10s."""
    units = {"tal.2": unit(WEST), "usmc.A": unit(EAST), "usmc.B": unit(pt(19, 31))}
    s = make(units, rules="quick", initiative="taliban")
    fire(s, "tal.2", "usmc.A", [6, 5, 5, 4, 4, 4, 3, 3, 1] + [7, 6, 4, 4, 2] + list(rolls))
    (morale,) = events(s, ev.MoraleChecked)
    assert morale == ev.MoraleChecked("usmc.A", rolls, passed)
    assert sides_of(s, "morale of usmc.A") == [10, 10]  # two survivors, one die each
    assert s.pinned[uid("usmc.A")] == (0 if passed else 1)
    assert dice_used(s) == 9 + 5 + 2


def test_000_pinned_unit_does_nothing_more_until_the_end_phase():
    """000_294bccfd88f0ebda.txt: "If the unit's morale check fails, the unit is pinned and may conduct no
    further actions until the end of the turn." and "Non-initiative units may always attempt to
    interrupt unless they are pinned" and End Phase: "All pinned units are no longer pinned." """
    units = {
        "tal.2": unit(WEST),
        "tal.3": unit(pt(5, 15)),
        "usmc.A": unit(EAST),
        "usmc.B": unit(pt(19, 31)),
    }
    s = make(units, rules="quick", initiative="taliban")
    a = uid("usmc.A")
    fire(s, "tal.2", "usmc.A", [6, 5, 5, 4, 4, 4, 3, 3, 1] + [7, 6, 4, 4, 2] + [3, 2])
    assert s.pinned[a] == 1
    assert s.decision.kind == "select_unit"  # a pinned target does not fire back
    # tal.3 fires at the pinned unit: only usmc.B is asked whether it interrupts
    script(s, [1] * 7 + [1] * 3)
    s.apply("tal.3")
    s.apply("fire")
    s.apply("usmc.A")
    assert s.decision.kind == "declare_interrupt" and s.decision.context["unit"] == "usmc.B"
    s.apply("pass")
    assert fires(s)[-1].defense == 2 + 1  # two figures left, and body armor
    # The USMC portion: usmc.A may not be activated
    assert s.decision.kind == "select_unit" and s.decision.player == 1
    assert s.legal_action_strings() == ["usmc.B", "pass"]
    script(s, [1, 1, 6, 6])  # initiative: one D6 and one D8, no success; two casualty checks
    s.apply("pass")
    assert s.turn == 2 and s.pinned[a] == 0
    assert figures(s, "usmc.A") == {"ok": 4}
    s.apply("pass")  # no Overwatch
    s.apply("pass")  # the Taliban do nothing
    assert "usmc.A" in s.legal_action_strings()


# ====================================================================== 003 full rules
def test_003_marines_8d10_against_taliban_6d8_behind_a_wall():
    """003_b1b2d2a6d4b3bab2.txt: "A fireteam of 5 D10 Troop Quality Marines (3 with rifles, one with a
    SAW, and one with a Rifle GL) make a ranged fire attack on a unit of 4 Taliban crouched behind a low
    mud wall. The Taliban are within the Marines' Optimum Range. ... +1 die each for the SAW and Rifle GL
    ... it receives another bonus die. The Marines' final Firepower total is 8D10. ... the Taliban
    receive +1 Defense die for being In Cover and another +1 die for the Solid Cover provided by the
    wall. This brings their Defense total to 6D8 ... Firepower of 8D10 ... 10, 9, 7, 5, 4 (he also rolled
    a 3 and two 1s ...) The Taliban player rolls 6D8 for Defense ... 8, 5, 4, 4, 3, and 2." The 8 blocks
    the 7, a 5 the 5, a 4 the 4: the 10 and the 9 are two casualties. (Rulings R6: the wall intervenes;
    R23: the Taliban have not moved and are not Exposed, so they are In Cover.)"""
    table = table_with(wall(17, 5, 17, 17, "mud_wall"))
    marines = unit(pt(9, 11), ok=5, tq=10, support=["light", "light"], supply="normal")
    taliban = unit(EAST, ok=4, tq=8, support=[])
    s = make({"usmc.A": marines, "tal.1": taliban}, table=table)
    fire(s, "usmc.A", "tal.1", [10, 9, 7, 5, 4, 3, 1, 1] + [8, 5, 4, 4, 3, 2] + [5, 5])
    (res,) = fires(s)
    assert (res.firepower, res.defense) == (8, 6)
    assert sides_of(s, "firepower of usmc.A") == [10] * 8 and sides_of(s, "defense of tal.1") == [8] * 6
    assert res.casualties == 2
    assert figures(s, "tal.1") == {"ok": 2, "down": 2}


def test_003_taliban_rpg_team_fires_8d_after_moving():
    """003_b1b2d2a6d4b3bab2.txt: "A unit of Taliban consisting of six men, four armed with an AK, one with
    an RPD and one with an RPG moves around the corner of a compound and fires at an American Ranger
    fireteam. ... basic firepower of 6 ... an RPD, a Light Support Weapon that adds a bonus die ... Since
    the unit moved this turn the RPG suffers a one die penalty, so it only provides one bonus die. This
    results in the unit of Taliban having a Firepower of 6 + 1 + (2-1) = 8." (Rulings R22: the move of
    an activation itself costs no die, as this example shows.)"""
    table = table_with(wall(3, 1, 3, 35, "west_back"))
    team = unit(pt(29, 11), ok=6, support=["medium", "light"])
    s = make({"tal.1": team, "usmc.A": unit(WEST)}, table=table, initiative="taliban")
    s.apply("tal.1")
    s.apply("move")
    s.apply(pt(25, 11))  # a Tactical move of 4"
    decline_reactions(s)
    assert s.decision.kind == "fire_target" and s.decision.context["after_move"]
    script(s, [1] * 30)
    s.apply("usmc.A")
    decline_reactions(s)
    (res,) = fires(s)
    assert res.firepower == 8


@pytest.mark.parametrize(("moved", "defense"), [("tactical", 6), ("none", 7)])
def test_003_militia_moving_behind_a_brick_wall_defend_with_6d6(moved, defense):
    """003_b1b2d2a6d4b3bab2.txt: "A group of 8 militia soldiers is being fired on by a fireteam with a
    Firepower of 5D. The militiamen are moving on the other side of a brick wall and can claim Solid
    Cover. Since the militiamen are being attacked with a Firepower of 5D, their basic defense is 5D
    rather than 8D. They can claim Solid Cover, though, which bumps their defense to 6D6." Had they not
    moved they would also be In Cover (+1D, rulings R23)."""
    table = table_with(wall(3, 1, 3, 35, "west_back"), wall(17, 1, 17, 35, "brick_wall"))
    fireteam = unit(WEST, ok=5, support=[], supply="normal")
    militia = unit(EAST, ok=8, support=[], moved=moved)
    s = make({"usmc.A": fireteam, "tal.2": militia}, table=table)
    fire(s, "usmc.A", "tal.2", [1] * 30)
    (res,) = fires(s)
    assert (res.firepower, res.defense) == (5, defense)
    assert sides_of(s, "defense of tal.2") == [6] * defense


@pytest.mark.parametrize(("supply", "firepower"), [("poor", 9), ("normal", 10)])
def test_003_twelve_taliban_capped_at_10d_then_poor_supply_9d(supply, firepower):
    """003_b1b2d2a6d4b3bab2.txt: "A mob of 12 Taliban, some armed with RPK machineguns and RPGs are firing
    at a unit of British SAS ... The Taliban fighters' total Firepower is nearly 20D, but it is reduced to
    10D due to the Firepower Cap. The Taliban have Poor Supplies, earning them -1 die penalty to their
    Firepower, reducing it to 9D for this attack." """
    mob = unit(WEST, ok=12, support=["medium", "medium", "medium", "light", "light"], supply=supply)
    s = make({"tal.1": mob, "usmc.A": unit(EAST)}, table=BACKS, initiative="taliban")
    fire(s, "tal.1", "usmc.A", [1] * 40)
    (res,) = fires(s)
    assert res.firepower == firepower


def test_003_russian_d8_team_splits_its_6d_fire_3_and_3():
    """003_b1b2d2a6d4b3bab2.txt: "The Russians are D8 Troop Quality, so they can split their fire between
    two targets. They have a Firepower of 6 (4 figures plus 2 dice for two Light Support weapons - a SAW
    and RGL). The player decides to split his fire exactly in half, with one rifleman and the SAW gunner
    engaging one group of Georgians and the other rifleman and RGL engaging the other. The Russians will
    engage each unit with a Firepower of 3." (Rulings R24: two figures' dice to the second target, then
    each support weapon to a target.)"""
    russians = unit(WEST, ok=4, support=["light", "light"], supply="normal")
    s = make({"usmc.A": russians, "tal.1": unit(EAST, ok=4), "tal.2": unit(pt(19, 15), ok=4)}, table=BACKS)
    s.apply("usmc.A")
    s.apply("fire")
    s.apply("tal.1")
    s.apply("tal.2")  # split: a second target
    s.apply("n2")  # two figures' dice to it
    assert s.decision.kind == "split_support"
    s.apply("tal.1")  # the SAW
    script(s, [1] * 40)
    s.apply("tal.2")  # the RGL
    decline_reactions(s)
    first, second = fires(s)
    assert (first.target, first.firepower) == ("tal.1", 3)
    assert (second.target, second.firepower) == ("tal.2", 3)
    assert sides_of(s, "firepower of usmc.A") == [8] * 6


@pytest.mark.parametrize(
    ("target_at", "terrain", "firepower"),
    [
        (pt(11, 15), wall(13, 13, 13, 19, "near_back"), 4 + 2 + 1),  # 7.2": "receives a bonus Firepower die"
        (EAST, wall(21, 1, 21, 35, "east_back"), 4 + 2),  # 14": "does not receive the Optimum Range bonus"
    ],
)
def test_003_optimum_range_examples_whole_fireteam(target_at, terrain, firepower):
    """003_b1b2d2a6d4b3bab2.txt: "Example 1: A Trained fireteam of four soldiers, two armed with rifles
    and one each with a grenade launcher and a SAW, are firing at an enemy unit 7" away. Since the enemy
    unit is within Optimum Range of all the fireteam's weapons (8" for the rifles, 16" for the grenade
    launcher and SAW), the fireteam receives a bonus Firepower die. Example 2: The same fireteam described
    above is firing at an enemy unit that is 14" away. If the entire unit fires at the distant enemy, the
    Fireteam does not receive the Optimum Range bonus (14" is beyond the rifles' Optimum Range)." (The
    nearest points to 7" are 7.2" apart: rulings R2.)"""
    fireteam = unit(WEST, ok=4, support=["light", "light"], supply="normal")
    s = make({"usmc.A": fireteam, "tal.1": unit(target_at)}, table=table_with(terrain))
    fire(s, "usmc.A", "tal.1", [1] * 40)
    (res,) = fires(s)
    assert res.firepower == firepower


SPLIT_TABLE = table_with(wall(13, 13, 13, 19, "near_back"), wall(21, 1, 21, 35, "east_back"))


def test_003_optimum_range_example_2_split_saw_and_grenade_launcher_dice():
    """003_b1b2d2a6d4b3bab2.txt: "If the fireteam decides to split their fire, firing the SAW and grenade
    launcher at the enemy unit 14" away, that portion of their fire would receive the Optimum Range bonus
    die." Here the support weapons' dice go to the unit 14" away and the four figures' dice to a unit
    7.2" away: both portions are within Optimum Range."""
    fireteam = unit(WEST, ok=4, support=["light", "light"], supply="normal")
    s = make({"usmc.A": fireteam, "tal.1": unit(EAST, ok=4), "tal.2": unit(pt(11, 15), ok=4)},
             table=SPLIT_TABLE)  # fmt: skip
    script(s, [1] * 60)
    for action in ("usmc.A", "fire", "tal.1", "tal.2", "n4", "tal.1", "tal.1"):
        s.apply(action)
    decline_reactions(s)
    far, near = fires(s)
    assert (far.target, far.firepower) == ("tal.1", 2 + 1)
    assert (near.target, near.firepower) == ("tal.2", 4 + 1)


def test_003_optimum_range_example_2_split_saw_and_grenade_launcher_gunners():
    """003_b1b2d2a6d4b3bab2.txt: "firing the SAW and grenade launcher at the enemy unit 14" away, that
    portion of their fire would receive the Optimum Range bonus die." The two gunners (two figures' dice)
    fire their SAW and grenade launcher (two support dice) at the unit 14" away, within the weapons' 16":
    2 + 2 + 1 = 5D; the two riflemen fire at the unit 7.2" away: 2 + 1 = 3D."""
    fireteam = unit(WEST, ok=4, support=["light", "light"], supply="normal")
    s = make({"usmc.A": fireteam, "tal.1": unit(EAST, ok=4), "tal.2": unit(pt(11, 15), ok=4)},
             table=SPLIT_TABLE)  # fmt: skip
    script(s, [1] * 60)
    for action in ("usmc.A", "fire", "tal.2", "tal.1", "n2", "tal.1", "tal.1"):
        s.apply(action)
    decline_reactions(s)
    near, far = fires(s)
    assert (near.target, near.firepower) == ("tal.2", 2 + 1)
    assert (far.target, far.firepower) == ("tal.1", 2 + 2 + 1)
