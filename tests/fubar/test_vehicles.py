"""Vehicles (002_b69cb091b8d89aa2.txt "Vehicles"): movement, fire, armour saves, the damage table, bailing
out, passengers, troops behind a vehicle, and vehicles assaulting infantry.

Dice of a fire at a vehicle: the fire dice, one armour save per hit, then per unsaved hit its damage
dice (front 2, side 1, rear 2), then the passengers' saves.
"""

import pytest

from fof_env.fubar import events as ev

from .helpers import (
    area,
    at,
    events,
    figures,
    game,
    infantry,
    kind,
    legal,
    notes,
    position,
    statuses,
    unit,
    vehicle,
    wall,
)

SEED = "002_b69cb091b8d89aa2.txt"
RED = infantry("r.1", (3, 11), figures(4))
RPG = infantry("r.1", (3, 11), figures(1, "rpg", role="RPG"))
BLUE = infantry("b.1", (15, 11), figures(4))
APC = vehicle("r.9", (3, 11), "apc", "light", ("heavy_machine_gun",), capacity=6)
TANK = vehicle("r.9", (3, 11), "medium_tank", "heavy", ("heavy_cannon", "heavy_machine_gun"),
               crew=[figures(3, "pistol", role="Crew")])  # fmt: skip


def rpg_hit(s, fire_dice, save, damage, extra=()):
    """Red's RPG (3 dice at 12") takes Aimed Fire at the blue vehicle: ``fire_dice``, its ``save`` dice, the
    ``damage`` dice, then ``extra``."""
    s.dice.rolls += [5, *fire_dice, *save, *damage, *extra]
    s.apply("r.1")
    s.apply("aimed_fire")


def test_vehicle_actions():
    """002: "These are activated like Units. ... A stationary vehicle can fire all its weapons." A vehicle
    moves (and fires one weapon), fires, takes Aimed Fire, goes On Guard or assaults infantry; it does not
    Run, Duck & Weave or go to ground (rulings F36)."""
    g = game(APC, BLUE)
    s = position(g, {"b.1": {"at": "x17y11"}}, dice=[5])
    s.apply("r.9")
    assert legal(s) == ["on_guard", "aimed_fire", "move", "fire"]  # blue 14" away: beyond its 12" move
    s = position(g, dice=[5])
    s.apply("r.9")
    assert legal(s) == ["on_guard", "aimed_fire", "assault", "move", "fire"]


def test_twelve_inches_in_the_open_six_through_soft_cover():
    """002: "They can move up to 12"/30cm in the open, or 6"/15cm through Soft Cover". A strip of woods at
    x 8-10: the APC reaches x09y11 (6", into it) but neither x13y11 nor x15y11 across it; 12" south in the
    open, x03y23, is fine (rulings F37)."""
    g = game(APC, BLUE, features=(area("woods", 8, 0, 10, 24),))
    s = position(g, dice=[5])
    s.apply("r.9")
    s.apply("move")
    options = legal(s)
    assert "x09y11" in options and "x03y23" in options
    assert "x13y11" not in options and "x15y11" not in options and "x11y11" not in options


def test_only_medium_and_heavy_tanks_cross_moderate_cover_and_then_do_not_fire():
    """002: "Medium & Heavy Tanks can move 6"/15cm through Moderate Cover but cannot fire if they do." A
    stone wall at x 6: the APC cannot cross it; the tank crosses it to x07y11 (4") but not to x11y11 (8"),
    and has no fire on that move, though blue is in sight (rulings F37)."""
    features = (wall(6, 0, 6, 24),)
    s = position(game(APC, BLUE, features=features), dice=[5])
    s.apply("r.9")
    s.apply("move")
    assert "x07y11" not in legal(s) and "x03y23" in legal(s)
    s = position(game(TANK, BLUE, features=features), dice=[5])
    s.apply("r.9")
    s.apply("move")
    assert "x07y11" in legal(s) and "x11y11" not in legal(s)
    s.apply("x07y11")
    assert at(s, "r.9") == "x07y11" and not events(s, ev.FireHits) and kind(s) == "select_unit"


def test_a_moving_vehicle_fires_one_weapon_a_stationary_one_all():
    """002: "They can move up to 12"/30cm in the open ... & fire one weapon." "A stationary vehicle can fire
    all its weapons." At 12", stationary: cannon 6 + HMG 4 dice; moving: one weapon of its owner's choice
    at one point of the move (rulings F37)."""
    g = game(TANK, BLUE)
    s = position(g, dice=[5] + [1] * 10)
    s.apply("r.9")
    s.apply("fire")
    (fire,) = events(s, ev.FireHits)
    assert len(fire.dice) == 10
    s = position(g, dice=[5])
    s.apply("r.9")
    s.apply("move")
    s.apply("x03y13")
    assert kind(s) == "fire_point"
    s.apply("x03y13")
    assert (kind(s), legal(s)) == ("choose_weapon", ["f0", "f1"])
    s.dice.rolls += [1] * 6
    s.apply("f0")
    (fire,) = events(s, ev.FireHits)
    assert len(fire.dice) == 6


def test_front_side_and_rear_damage_dice():
    """002: "If a vehicle is hit on the front roll 2 dice & choose the better result. On the side roll 1 die.
    On the rear roll 2 dice & choose the worst result." The blue APC facing red (west) is hit in front:
    2 and 6 give the better, 2 (stunned); facing north, red is on its side: one die; facing east, on its
    rear: 2 and 6 give the worse, 6 (destroyed) (rulings F41)."""
    for facing, damage, face, effect in (
        ("west", [2, 6], "front", "crew_stunned"),
        ("north", [6], "side", "destroyed"),
        ("east", [2, 6], "rear", "destroyed"),
    ):
        blue = vehicle("b.9", (15, 11), "apc", "light", ("heavy_machine_gun",), facing=facing, crew=[])
        s = position(game(RPG, blue))
        rpg_hit(s, [4, 1, 1], [1], damage, extra=[6, 1])
        (hit,) = events(s, ev.VehicleDamaged)
        assert (hit.facing, hit.rolls, hit.effect) == (face, tuple(damage), effect), facing


def test_damage_table_effects():
    """002: "1-2 Crew Stunned, -2 to next activation only. 3-4 Weapon Destroyed (owner chooses). 5 Vehicle
    immobilised for rest of game. It can still shoot. 6 Vehicle Destroyed." and "Vehicles cannot be
    suppressed": unsaved hits go to the damage table, never to an allocation (rulings F42, F44)."""
    tank = vehicle("b.9", (15, 11), "medium_tank", "heavy", ("heavy_cannon", "heavy_machine_gun"), facing="north")
    g = game(RPG, tank)
    s = position(g)
    rpg_hit(s, [4, 1, 1], [1], [1])  # side: one die, 1: stunned
    assert s.stunned[1] == 1 and kind(s) == "select_unit" and s.decision.player == 1
    s.dice.rolls += [5]
    s.apply("b.9")  # 5 - 2 = 3: still activates (Veteran 3+); the stun is spent
    (roll,) = [e for e in events(s, ev.ActivationRolled) if e.unit == "b.9"]
    assert (roll.die, roll.modified) == (5, 3) and s.stunned[1] == 0
    s = position(g)
    rpg_hit(s, [4, 1, 1], [1], [3])
    assert (kind(s), s.decision.player, legal(s)) == ("weapon_destroyed", 1, ["f0", "f1"])
    s.apply("f0")
    assert statuses(s, "b.9") == ["destroyed", "ok"] and s.standing(1) == 1  # a vehicle's standing: its weapons
    assert "b.9 loses its heavy_cannon" in notes(s)
    s = position(g)
    rpg_hit(s, [4, 1, 1], [1], [5])
    assert s.immob[1] == 1
    s.dice.rolls += [5]
    s.apply("b.9")
    assert "move" not in legal(s) and "fire" in legal(s)


def test_the_same_effect_twice_in_a_turn_takes_the_next_highest():
    """002: "If the same effect is rolled a second time in a single turn take the next highest effect." Two
    side hits rolling 1 and 2: stunned, then weapon destroyed; 5 and 5: immobilised, then destroyed. An
    immobilisation from an earlier turn rolled again has no further effect (rulings F42)."""
    tank = vehicle("b.9", (15, 11), "medium_tank", "heavy", ("heavy_cannon",), facing="north", crew=[])
    g = game(RPG, tank)
    s = position(g)
    rpg_hit(s, [4, 4, 1], [1, 1], [1, 2])
    assert [e.effect for e in events(s, ev.VehicleDamaged)] == ["crew_stunned", "weapon_destroyed"]
    s = position(g)
    rpg_hit(s, [4, 4, 1], [1, 1], [5, 5], extra=[6, 1])
    assert [e.effect for e in events(s, ev.VehicleDamaged)] == ["immobilised", "destroyed"]
    s = position(g, {"b.9": {"status": ["immobilised"]}})
    rpg_hit(s, [4, 1, 1], [1], [5])
    assert [e.effect for e in events(s, ev.VehicleDamaged)] == ["immobilised"] and not s.wreck[1]


def test_a_destroyed_vehicle_bails_out_its_crew_and_passengers():
    """002: "6 Vehicle Destroyed. All crew/passengers must bail out & each figure takes one hit." and "Note:
    Vehicles cannot be suppressed, nor can crew or passengers bailing out of a destroyed vehicle." The
    crew (Light armour, 6+) save 6 and 1; the passengers (Medium, 5+) 5, 1, 6, 2: failed saves are
    casualties, nobody is Suppressed (rulings F43)."""
    blue = vehicle("b.9", (15, 11), "apc", "light", ("heavy_machine_gun",), capacity=6, facing="north",
                   crew=[figures(2, role="Crew")], crew_armour="light")  # fmt: skip
    riders = infantry("b.2", None, figures(4), armour="medium", inside="b.9")
    g = game(RPG, blue, riders)
    s = position(g)
    rpg_hit(s, [4, 1, 1], [1], [6], extra=[6, 1, 5, 1, 6, 2])
    assert s.wreck[1] == 1 and not s.is_veh(1)
    assert statuses(s, "b.9") == ["ok", "casualty"] and at(s, "b.9") == "x15y11"
    assert statuses(s, "b.2") == ["ok", "casualty", "ok", "casualty"]
    assert s.carried[2] == -1 and at(s, "b.2") in ("x13y11", "x15y09", "x15y13", "x17y11")
    assert notes(s)[:2] == ["b.9 is destroyed: the crew bail out at x15y11", f"b.2 bails out to {at(s, 'b.2')}"]


def test_boarding_riding_and_getting_out():
    """002: "A Vehicle, and any troops inside ... get an armour save" (the page's only word on passengers):
    a unit boards by moving onto a friendly vehicle with room, rides with it unseen and untouchable, and
    gets out by activating (rulings F39)."""
    g = game(APC, infantry("r.2", (3, 15), figures(4)), infantry("b.1", (21, 11), figures(4)))
    s = position(g, dice=[5])
    s.apply("r.2")
    s.apply("walk")
    s.apply("x03y11")  # onto the APC's point: it boards
    if kind(s) == "fire_point":
        s.apply("pass")
    assert s.carried[unit(s, "r.2")] == unit(s, "r.9")
    s.dice.rolls += [5]
    s.apply("r.9")
    s.apply("move")
    s.apply("x11y11")
    if kind(s) == "fire_point":
        s.apply("pass")
    assert at(s, "r.2") == "x11y11" and at(s, "r.9") == "x11y11"
    s.dice.rolls += [5] + [1] * 8 + [6, 1]
    s.apply("b.1")
    s.apply("aimed_fire")  # the one target: the APC, not its passengers
    assert events(s, ev.FireHits)[-1].target == "r.9"


def test_hits_the_vehicle_fails_to_save_fall_on_its_passengers():
    """002: "Any target figures wearing armour get a save against these hits. If the vehicle makes its save,
    passengers inside do not have to." Two hits on the APC: it saves one (5) and fails one (1): the damage
    roll (side, 1: stunned), then the passengers save that hit: they fail (2) and allocate it (rulings F39)."""
    blue = vehicle("b.9", (15, 11), "apc", "light", ("heavy_machine_gun",), capacity=6, facing="north")
    riders = infantry("b.2", None, figures(4), armour="medium", inside="b.9")
    g = game(RPG, blue, riders)
    s = position(g)
    rpg_hit(s, [4, 4, 1], [5, 1], [1], extra=[2])
    assert [e.effect for e in events(s, ev.VehicleDamaged)] == ["crew_stunned"]
    assert (kind(s), s.decision.player, legal(s)) == ("allocate_hits", 1, ["c0", "s0"])


def test_troops_directly_behind_a_vehicle_use_its_save():
    """002: "A Vehicle, and any troops inside or directly behind it, get an armour save": blue infantry
    without armour 2" behind a blue tank (Heavy, 3+) on red's line of fire save on 3+ (rulings F40)."""
    tank = vehicle("b.9", (15, 11), "medium_tank", "heavy", ("heavy_machine_gun",), facing="west")
    g = game(RED, tank, infantry("b.1", (17, 11), figures(4)))
    s = position(g, dice=[5])
    s.apply("r.1")
    s.apply("aimed_fire")
    s.apply("b.1")
    s.dice.rolls += [6, 1, 1, 1, 3]
    s.apply("fire") if kind(s) == "split_fire" else None
    hit = events(s, ev.FireHits)[-1]
    assert (hit.target, hit.save, hit.saves, hit.unsaved) == ("b.1", 3, (3,), 0)


def test_infantry_that_fail_to_get_out_of_the_way_are_hit():
    """002: "If a Vehicle assaults infantry, they make an Activation roll to get out of the way, and move
    figures out of vehicle's path. If they fail each figure in the vehicle's path is hit. Make saves as
    normal." Blue (Veteran, 3+) rolls 2: all four figures are hit; no armour; blue allocates the four
    hits; the APC stops short of them (rulings F38)."""
    g = game(APC, infantry("b.1", (11, 11), figures(4)))
    s = position(g, dice=[5, 2])
    s.apply("r.9")
    s.apply("assault")
    assert (kind(s), s.decision.player) == ("allocate_hits", 1) and s.decision.context["hits"] == 4
    assert at(s, "r.9") == "x09y11"


def test_infantry_that_get_out_of_the_way_move_off_the_path():
    """002: "... they make an Activation roll to get out of the way, and move figures out of vehicle's
    path." Blue rolls 5: its owner moves it within 3" off the APC's path; the APC ends where blue stood
    (rulings F38)."""
    g = game(APC, infantry("b.1", (11, 11), figures(4)))
    s = position(g, dice=[5, 5])
    s.apply("r.9")
    s.apply("assault")
    assert (kind(s), s.decision.player) == ("get_out_of_the_way", 1)
    assert "x09y11" not in legal(s) and "x11y13" in legal(s)
    s.apply("x11y13")
    assert at(s, "b.1") == "x11y13" and at(s, "r.9") == "x11y11" and statuses(s, "b.1") == ["ok"] * 4


def test_the_unit_that_gets_out_of_the_way_is_the_one_assaulted():
    """002: "If a Vehicle assaults infantry, they make an Activation roll to get out of the way, and move
    figures out of vehicle's path." The unit that moves is the assaulted one, b.1, whatever units come
    after it in the order of battle: b.2, far away, stays where it stands."""
    g = game(APC, infantry("b.1", (11, 11), figures(4)), infantry("b.2", (21, 21), figures(4)))
    s = position(g, dice=[5, 5])
    s.apply("r.9")
    s.apply("assault")
    s.apply("x11y13")
    assert (at(s, "b.1"), at(s, "b.2"), at(s, "r.9")) == ("x11y13", "x21y21", "x11y11")


def test_infantry_cannot_assault_a_vehicle():
    """002: "Close Combat ... Both sides simultaneously roll one dice per figure": close combat is between
    figures; infantry do not assault vehicles (rulings F35)."""
    g = game(RED, vehicle("b.9", (7, 11), "apc", "light", ("heavy_machine_gun",)))
    s = position(g, dice=[5])
    s.apply("r.1")
    assert "assault" not in legal(s)


def test_the_pilot_rides_with_his_unit_and_leaves_with_the_vehicle():
    """The downed pilot "can be moved as part of that fireteam" (000; rulings F47), also when it rides in a
    vehicle (rulings F39): he moves with the vehicle and leaves the table with it."""
    pilot = {"downed_pilot": {"side": "red", "building": "hut", "start": [21, 21], "training": "veteran"}}
    riders = infantry("r.2", None, figures(4), inside="r.9")
    g = game(APC, riders, BLUE, features=(area("building", 18, 18, 24, 24, "hut"),), rules=pilot,
             exit_sides=("red",), victory={"terms": [{"side": "red", "kind": "pilot_exit", "vp": 5}]})  # fmt: skip
    s = position(g, {"b.1": {"at": "x23y01"}}, pilot={"with": "r.2"}, dice=[5])
    s.apply("r.9")
    s.apply("move")
    s.apply("x03y23")
    if kind(s) == "fire_point":
        s.apply("pass")
    assert s.pilot_pos == s.pos[unit(s, "r.9")] and at(s, "r.2") == "x03y23"
    s = position(g, {"b.1": {"at": "x23y01"}}, pilot={"with": "r.2"}, dice=[5] + [6, 1] * 6)
    s.apply("r.9")
    s.apply("move")
    s.apply("exit")
    assert s.pilot_exit == 1 and s.pilot_pos == -1 and s.victory_points() == (5, 0)


@pytest.mark.parametrize(("armour", "save"), [("none", 6), ("light", 5), ("medium", 4), ("heavy", 3), ("very_heavy", 2)])
def test_vehicle_armour_saves(armour, save):
    """002: "Armour Save Examples None 6+ Trucks, Cars, Technicals. Light 5+ APC's, Armoured Trucks Medium 4+
    IFV's, Light Tanks Heavy 3+ Medium Tanks Very Heavy 2+ Heavy Tanks": one save die per hit; a 1 always
    fails (rulings F1)."""
    blue = vehicle("b.9", (15, 11), "truck", armour, ("heavy_machine_gun",), facing="north", crew=[])
    s = position(game(RPG, blue))
    rpg_hit(s, [4, 4, 1], [save, 1], [1], extra=[6, 1])
    (fire,) = events(s, ev.FireHits)
    assert (fire.save, fire.saves, fire.unsaved) == (save, (save, 1), 1)


def test_a_vehicle_knocked_out_passing_a_unit_bails_out_beside_it():
    """002: "6 Vehicle Destroyed. All crew/passengers must bail out": an APC destroyed by On Guard fire as it
    passes a friendly team's point leaves its crew on the nearest free point, not on the team (rulings F43)."""
    apc = vehicle("r.9", (3, 11), "apc", "light", ("heavy_machine_gun",), crew=[figures(2, role="Crew")],
                  crew_armour="light")  # fmt: skip
    g = game(apc, infantry("r.2", (7, 11), figures(4)), infantry("b.1", (15, 11), figures(1, "rpg", role="RPG")))
    s = position(g, {"b.1": {"status": ["on_guard"]}}, dice=[5])
    s.apply("r.9")
    s.apply("move")
    s.apply("x11y11")
    if kind(s) == "fire_point":
        s.apply("pass")
    s.dice.rolls += [6, 6, 6] + [1, 1, 1] + [6, 6] + [6, 6]  # 3 hits, 3 failed saves, destroyed, crew saved
    s.apply("x07y11")
    assert s.wreck[0] and statuses(s, "r.9") == ["ok", "ok"]
    assert at(s, "r.2") == "x07y11" and at(s, "r.9") in ("x05y11", "x07y09", "x07y13", "x09y11")


def test_a_vehicle_knocked_out_during_its_assault_stops_there():
    """002: "If a Vehicle assaults infantry ..." and "6 Vehicle Destroyed. All crew/passengers must bail out":
    an APC destroyed by On Guard fire as it sets off leaves its crew where it was hit; a stun it took earlier
    in the turn does not follow the crew (rulings F38, F42, F43)."""
    apc = vehicle("r.9", (3, 11), "apc", "light", ("heavy_machine_gun",), crew=[figures(2, role="Crew")],
                  crew_armour="light")  # fmt: skip
    g = game(apc, infantry("b.1", (11, 11), figures(4)), infantry("b.2", (11, 21), figures(1, "rpg", role="RPG")))
    s = position(g, {"b.2": {"status": ["on_guard"]}}, dice=[5])
    s.apply("r.9")
    s.apply("assault")
    assert kind(s) == "on_guard" and s.decision.player == 1
    s.dice.rolls += [6, 6, 1] + [1, 1] + [1] + [6, 6] + [6, 6]  # 2 hits, saves fail; damage: side, stunned then 6
    s.apply("x03y11")
    assert s.wreck[0] and s.stunned[0] == 0 and at(s, "r.9") == "x03y11" and s.activation_modifier(0) == 0


def test_the_pilot_leaves_passengers_wiped_out_bailing_out():
    """000: "If a unit the pilot is with is wiped out, the pilot will move to the nearest cover that takes
    him away from the nearest Taliban unit" also when it falls bailing out of a destroyed vehicle (rulings
    F43, F47)."""
    pilot = {"downed_pilot": {"side": "red", "building": "hut", "start": [21, 21], "training": "veteran"}}
    riders = infantry("r.2", None, figures(2), inside="r.9")
    apc = vehicle("r.9", (3, 11), "apc", "light", ("heavy_machine_gun",), capacity=6, crew=[])
    g = game(apc, riders, infantry("b.1", (15, 11), figures(1, "rpg", role="RPG")),
             features=(area("building", 18, 18, 24, 24, "hut"), area("woods", 0, 0, 2, 2, "copse")), rules=pilot,
             victory={"terms": [{"side": "red", "kind": "pilot_exit", "vp": 5}]})  # fmt: skip
    s = position(g, {"r.9": {"facing": "north"}}, initiative="blue", pilot={"with": "r.2"},
                 dice=[5, 6, 1, 1, 1, 6] + [6, 1] * 6)  # 1 hit, not saved, side damage 6; no armour to save  # fmt: skip
    s.apply("b.1")
    s.apply("aimed_fire")
    assert s.wreck[0] and statuses(s, "r.2") == ["casualty", "casualty"]
    assert s.pilot_unit == -1 and s.table.name(s.pilot_pos) == "x01y01"
