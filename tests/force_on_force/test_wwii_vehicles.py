"""WWII tanks and other AFVs as units (rule module ``rules/wwii_vehicles.py``, rulings R80-R88).

Seeds: ``004_fa8d850a9c124bb3.txt`` (WWII Vehicle Design Guidelines, TANKS FIRING ON INFANTRY, Bail Outs,
AFVs Spotting Infantry) and ``003_b1b2d2a6d4b3bab2.txt`` (vehicle moves). Positions are on the test
scenario ``scenarios/wwii_armour.json`` (24" x 24", 2" grid; an orchard (woods) x 14-20, y 16-22; a hedge
(wall) x 12, y 2-10): ``us.sherman`` (Medium 3d8, Class 3 (3d) gun, MGs, Confident, 5 crew, TQ/Morale D8),
``us.rifles`` (4 figures, a Bazooka), ``ger.panzer`` (Panzer IV: Medium, Class 3 (4d), applied armour),
``ger.tiger`` (Heavy 4d10, Class 3 (4d), High Confidence), ``ger.gren`` (4 figures, a Panzerfaust), ``ger.mg``
(3 figures, a Light support MG, no AT weapon). Every die is scripted: the attack dice, then the defence
(armour) dice, then the Vehicle Damage D6, then the crew's Morale Check dice, then any spotting roll.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path

import pytest

import fof_env
from fof_env.core.events import DiceRolled
from fof_env.force_on_force import events as ev
from fof_env.force_on_force.rules.wwii_vehicles import damage_chart

from .helpers import decline_reactions, dice_used, fires, script

SCENARIO = Path(__file__).parent / "scenarios" / "wwii_armour.json"


@cache
def _game(variant: str = ""):
    data = json.loads(SCENARIO.read_text(encoding="utf-8"))
    if variant:  # "unit:key=value;key=value": other vehicle block values (JSON) for one unit
        unit, rest = variant.split(":")
        block = next(u for u in data["units"] if u["id"] == unit)["vehicle"]
        for item in rest.split(";"):
            key, value = item.split("=")
            block[key] = json.loads(value)
        return fof_env.make_game("force_on_force", scenario=data)
    return fof_env.make_game("force_on_force", scenario=str(SCENARIO))


def armour(units: dict, *, initiative: str = "us", variant: str = "", **kw):
    pos = {"stage": "activation", "turn": 1, "initiative": initiative, "portion": "initiative", "units": units}
    pos.update(kw)
    return _game(variant).state_from_position(pos)


def uid(s, name: str) -> int:
    return s.UNIT_NAMES.index(name)


def shoot(s, shooter: str, target: str, rolls: list[int]) -> None:
    script(s, rolls)
    s.apply(shooter)
    s.apply("fire")
    s.apply(target)
    decline_reactions(s)
    if s.decision.kind == "move_target":  # the optional move after firing: none
        s.apply("pass")


def notes(s) -> list[str]:
    return [e.text for e in s.events if isinstance(e, ev.Note)]


# ------------------------------------------------------------------ defence and firepower classes
@pytest.mark.parametrize(("defense", "dice", "die"), [
    ("protected", 2, 6), ("light", 3, 6), ("medium", 3, 8), ("heavy", 4, 10), ("extra_heavy", 5, 12),
])  # fmt: skip
def test_defense_classes(defense, dice, die):
    """004: "Protected (Class 1: 2d6) 251, M3 HT etc"; "Light (Class 2: 3d6) Stuart"; "Medium (Class 3: 3d8)
    M4 Sherman"; "Heavy (Class 4: 4d10) Panther"; "Extra Heavy (Class 4: 5d12) Koenig Tiger". The Sherman
    (D8 crew, 3 dice) fires at the Tiger's front re-classed as ``defense``: it rolls ``dice`` armour dice of
    type d``die`` (all scripted 1s: no hit, so no damage roll and no Morale Check)."""
    s = armour({"us.sherman": {"at": "x05y13"}, "ger.tiger": {"at": "x21y13"}},
               variant=f'ger.tiger:defense="{defense}"')  # fmt: skip
    shoot(s, "us.sherman", "ger.tiger", [1] * (3 + dice))
    (f,) = fires(s)
    assert (f.firepower, f.defense, f.casualties) == (3, dice, 0)
    assert dice_used(s) == 3 + dice
    assert s.afv_defense(uid(s, "ger.tiger"), s.pos[uid(s, "us.sherman")]) == (dice, die)


def test_front_hit_with_applied_armour_immobilises():
    """004: "Side or applied armor (Tracks, sandbags, Side skirts) +1 dice until first hit". The Sherman
    (Class 3 (3d) gun: 3 attack dice, D8 crew) fires from due west at the Panzer IV facing west (its front):
    Medium 3d8 + 1 applied = 4 armour dice. Attack 8, 6, 5; armour 7, 4, 2, 1: the 7 blocks the 5 (the 4
    blocks nothing), 2 hits: the 2 Hits column, D6 = 1: immobilised; the applied armour is gone. The
    Confident crew checks morale with its 5 figures: 4, 4, 4, 1, 1 is 3 successes to 2 failures: it stays."""
    s = armour({"us.sherman": {"at": "x05y13"}, "ger.panzer": {"at": "x21y13"}})
    shoot(s, "us.sherman", "ger.panzer", [8, 6, 5, 7, 4, 2, 1, 1, 4, 4, 4, 1, 1])
    (f,) = fires(s)
    assert (f.firepower, f.defense, f.casualties) == (3, 4, 2)
    assert dice_used(s) == 13
    p = uid(s, "ger.panzer")
    assert s.veh[p].immobilised == 1 and s.veh[p].applied == 0 and not s.veh[p].bailed
    assert [m for m in s.events if isinstance(m, ev.MoraleChecked)][-1].passed


def test_side_armour_is_one_die_less():
    """004: "Side and rear armor is -1 die". The Sherman fires from due north at the Panzer IV facing west
    (90 degrees off its facing: its side, R81) with its applied armour already lost: 3d8 - 1 = 2 armour
    dice. All misses: no hit, so no damage roll and no Morale Check (5 dice in all)."""
    s = armour({"us.sherman": {"at": "x21y03"}, "ger.panzer": {"at": "x21y13", "vehicle": {"applied_armour": False}}})
    shoot(s, "us.sherman", "ger.panzer", [1, 1, 1, 1, 1])
    (f,) = fires(s)
    assert (f.firepower, f.defense, f.casualties) == (3, 2, 0)
    assert dice_used(s) == 5


def test_deck_armour_is_two_dice_less():
    """004: "AFV deck armor is -2 dice". Fire with no shooter's point (from above: an air attack, R81) at the
    Panzer IV: 3d8 - 2 + 1 applied = 2 armour dice; 2 attack dice of D10, all misses."""
    s = armour({"ger.panzer": {"at": "x21y13"}})
    script(s, [1, 1, 1, 1])
    s._attack(uid(s, "ger.panzer"), 2, 10, -1, "air attack")
    (f,) = fires(s)
    assert (f.firepower, f.defense, f.casualties) == (2, 2, 0)
    assert dice_used(s) == 4


@pytest.mark.parametrize(("gun", "dice"), [
    ("class1_3d", 3), ("class2_3d", 3), ("class2_4d", 4), ("class3_3d", 3), ("class3_4d", 4), ("class3_5d", 5),
])  # fmt: skip
def test_firepower_classes(gun, dice):
    """004: "All Class 1 weapons throw 3d."; "Class 2 (3d) Light Guns up to 25mm"; "Class 2 (4d) Light guns
    up to 57mm/6Pdr"; "Class 3 (3d) Medium guns of low velocity"; "Class 3 (4d) High Velocity guns of 75mm
    up to 90mm"; "Class 3 (5d) High Velocity very long 8,8cm L/71". The Sherman with ``gun`` fires at the
    Panzer IV's front (4 armour dice): ``dice`` attack dice, all misses."""
    s = armour({"us.sherman": {"at": "x05y13"}, "ger.panzer": {"at": "x21y13"}}, variant=f'us.sherman:main_gun="{gun}"')
    shoot(s, "us.sherman", "ger.panzer", [1] * (dice + 4))
    (f,) = fires(s)
    assert (f.firepower, f.defense) == (dice, 4)


def test_class0_weapons_fire_at_infantry_only():
    """004: "All Class 0 weapons throw 2d vs. infantry and soft skin vehicles only." A Sherman re-armed with a
    Class 0 weapon and no MGs fires at the Grenadiers with 2 dice (against 2 defence dice, all misses) and
    may not fire at the Panzer IV at all."""
    units = {"us.sherman": {"at": "x05y13"}, "ger.panzer": {"at": "x21y13"}, "ger.gren": {"at": "x21y09"}}
    s = armour(units, variant='us.sherman:main_gun="class0_2d";mgs=false')
    sh = uid(s, "us.sherman")
    assert s.fire_targets(sh) == [uid(s, "ger.gren")]
    shoot(s, "us.sherman", "ger.gren", [1, 1, 1, 1])
    (f,) = fires(s)
    assert (f.firepower, f.defense) == (2, 2)


def test_tank_mgs_fire_3d_at_infantry():
    """004: "A WWII tank may only make a 3d Firepower attack with its machineguns, no matter what type or how
    many machineguns the tank mounts. A tank's main gun fires with the Firepower noted in its vehicle
    description." The Panzer IV (Class 3 (4d)) fires at the US rifles, Exposed in the open: 4 dice (its main
    gun; no Exposed or Optimum Range bonus: R81); against 4 figures the rifles defend with 4 dice. With its
    main gun damaged it fires its MGs: 3 dice, and the rifles defend with 3."""
    units = {"us.rifles": {"at": "x05y23"}, "ger.panzer": {"at": "x21y23"}}
    s = armour(units, initiative="ger")
    shoot(s, "ger.panzer", "us.rifles", [1] * 8)
    (f,) = fires(s)
    assert (f.firepower, f.defense, f.casualties) == (4, 4, 0)
    units["ger.panzer"]["vehicle"] = {"main_gun_damaged": True}
    s = armour(units, initiative="ger")
    shoot(s, "ger.panzer", "us.rifles", [1] * 6)
    (f,) = fires(s)
    assert (f.firepower, f.defense, f.casualties) == (3, 3, 0)


def test_infantry_at_weapon_knocks_out_from_the_rear():
    """004: "Class 3 (4d) High Velocity guns of 75mm up to 90mm, PzFaust, Pzschreck"; "Side and rear armor is
    -1 die". The Grenadiers' Panzerfaust (4 dice, D8) hit the Sherman from behind (it faces west, they are
    due east): 3d8 - 1 = 2 armour dice. Attack 6, 6, 5, 4; armour 6, 3: the 6 blocks the 4: 3 hits, the 3
    Hits column: D6 = 2, knocked out. Its 5 crew are lost with it (R83): no Morale Check."""
    s = armour({"us.sherman": {"at": "x05y13", "vehicle": {"facing": "west"}}, "ger.gren": {"at": "x21y13"}},
               initiative="ger")  # fmt: skip
    shoot(s, "ger.gren", "us.sherman", [6, 6, 5, 4, 6, 3, 2])
    (f,) = fires(s)
    assert (f.firepower, f.defense, f.casualties) == (4, 2, 3)
    assert dice_used(s) == 7
    sh = uid(s, "us.sherman")
    assert s.veh[sh].knocked_out == 1 and not s.active(sh)
    assert s.to_position()["units"]["us.sherman"]["figures"] == {"kia": 5}


def test_small_arms_cannot_fire_at_a_buttoned_tank():
    """004: "Class 3 (3d) Medium guns of low velocity, up to 76mm, 25 pdr... PIAT, Bazooka": only AT weapons
    harm an AFV (R81). The MG team (no AT weapon) may not fire at the buttoned-up Sherman; the Grenadiers
    (Panzerfaust) may, with 4 dice whatever their figures."""
    s = armour({"us.sherman": {"at": "x05y13"}, "ger.gren": {"at": "x21y13"}, "ger.mg": {"at": "x21y11"}},
               initiative="ger")  # fmt: skip
    sh = uid(s, "us.sherman")
    assert sh not in s.fire_targets(uid(s, "ger.mg"))
    assert s.fire_targets(uid(s, "ger.gren")) == [sh]
    assert s.attack_firepower(uid(s, "ger.gren"), sh, 4, []) == 4


def test_an_afv_is_intervening_cover():
    """003: "Intervening Cover: If enemy fire passes over an intervening terrain feature, such as a stone wall,
    an AFV, etc. to reach a unit, that unit may claim the Solid Cover bonus." The MG team (3 figures + 1
    Light MG + 1 for the Exposed target = 5 dice; 16" away: no Optimum Range) fires at the US rifles (4
    figures, Exposed): 4 defence dice in the open, 5 with the Panzer IV on the line of fire between them."""
    units = {"us.rifles": {"at": "x05y13"}, "ger.mg": {"at": "x21y13"}}
    s = armour(units, initiative="ger")
    shoot(s, "ger.mg", "us.rifles", [1] * 9)
    (f,) = fires(s)
    assert (f.firepower, f.defense) == (5, 4)
    s = armour({**units, "ger.panzer": {"at": "x13y13"}}, initiative="ger")
    shoot(s, "ger.mg", "us.rifles", [1] * 10)
    (f,) = fires(s)
    assert (f.firepower, f.defense) == (5, 5)


@pytest.mark.parametrize(("feature", "alone", "with_panzer"), [
    ({"id": "copse", "kind": "woods", "rect": [4, 10, 6, 16]}, 6, 7),
    ({"id": "hedge", "kind": "wall", "segment": [7, 2, 7, 22]}, 6, 6),
], ids=["woods", "wall"])  # fmt: skip
def test_an_afv_adds_to_area_cover_but_not_to_a_wall(feature, alone, with_panzer):
    """003: "Cover modifiers that overlap are cumulative." and "If enemy fire passes over an intervening
    terrain feature, such as a stone wall, an AFV, etc. to reach a unit, that unit may claim the Solid Cover
    bonus" (one bonus for the fire passing over something, R6, R89). The US rifles (4, not moved, not
    Exposed: In Cover) at x05y13, fired on by the MG team (3 + 1 Light MG = 4 dice): in a copse, 4 + 1 woods
    + 1 In Cover = 6 defence dice, 7 with the Panzer IV on the line of fire; behind a hedge 2" in front of
    them, 4 + 1 + 1 = 6, and still 6 with the Panzer: the hedge and the tank are one Intervening Cover."""
    table = {"table": {"width_in": 24, "height_in": 24, "spacing_in": 2}, "features": [feature]}
    units = {"us.rifles": {"at": "x05y13"}, "ger.mg": {"at": "x21y13"}}
    for extra, defense in (({}, alone), ({"ger.panzer": {"at": "x13y13"}}, with_panzer)):
        s = armour({**units, **extra}, initiative="ger", table=table)
        shoot(s, "ger.mg", "us.rifles", [1] * (4 + defense))
        (f,) = fires(s)
        assert (f.firepower, f.defense) == (4, defense)


# ------------------------------------------------------------------ bail-outs
@pytest.mark.parametrize("confidence", ["confident", "low"])
def test_confident_and_low_crews_bail_out_after_a_non_damaging_hit(confidence):
    """004: "Low Confidence and Confident WWII AFV crews must make a Morale Check any time their vehicle is hit,
    whether the hit causes damage or not." The Panzerfaust (4 dice) at the Sherman's front (3d8): attack 4, 1,
    1, 1; armour 1, 1, 1: 1 hit; the 1 Hit column, D6 = 1: no damage. The crew still checks: 5 dice 1, 1, 1,
    4, 4: 2 successes to 3 failures: it bails out (R84): the unit is now its crew on foot, Pinned, no AFV
    any more. Standing in the open (Exposed), the crew takes 003's Quality Check for In Cover ("Pinned
    units may take a Quality Check to get In Cover even if they have moved", R54): a 4 on its D8 passes."""
    s = armour({"us.sherman": {"at": "x05y13"}, "ger.gren": {"at": "x21y13"}, "ger.mg": {"at": "x23y01"}},
               initiative="ger", variant=f'us.sherman:crew_confidence="{confidence}"')  # fmt: skip
    shoot(s, "ger.gren", "us.sherman", [4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4, 4, 4])
    (f,) = fires(s)
    assert (f.firepower, f.defense, f.casualties) == (4, 3, 1)
    assert dice_used(s) == 14
    sh = uid(s, "us.sherman")
    assert s.veh[sh].bailed == 1 and not s.is_afv(sh) and s.pinned[sh] == 1 and s.effective(sh) == 5
    assert s.sc.table.exposed[s.pos[sh]] and s.in_cover[sh] == 1
    assert "the crew of us.sherman bails out" in notes(s)


def test_high_confidence_crew_ignores_a_non_damaging_hit():
    """004: "Only High Confidence units will ignore non-damaging hits." The Bazooka (3 dice) at the Tiger's
    front (Heavy 4d10): attack 8, 1, 1; armour 1, 1, 1, 1: 1 hit; the 1 Hit column, D6 = 2: no damage, and no
    Morale Check (8 dice in all). The rifles stand in the open (Exposed), so the Tiger has nothing to spot."""
    s = armour({"us.rifles": {"at": "x05y13"}, "ger.tiger": {"at": "x21y13"}})
    shoot(s, "us.rifles", "ger.tiger", [8, 1, 1, 1, 1, 1, 1, 2])
    (f,) = fires(s)
    assert (f.firepower, f.defense, f.casualties) == (3, 4, 1)
    assert dice_used(s) == 8
    assert not [m for m in s.events if isinstance(m, ev.MoraleChecked)]


def test_high_confidence_crew_checks_after_a_damaging_hit():
    """004: "Only High Confidence units will ignore non-damaging hits.": a damaging one they do not. As above
    but the D6 is 3 (1 Hit column): immobilised; the crew checks: 5, 5, 5, 1, 1 passes (13 dice)."""
    s = armour({"us.rifles": {"at": "x05y13"}, "ger.tiger": {"at": "x21y13"}})
    shoot(s, "us.rifles", "ger.tiger", [8, 1, 1, 1, 1, 1, 1, 3, 5, 5, 5, 1, 1])
    assert dice_used(s) == 13
    t = uid(s, "ger.tiger")
    assert s.veh[t].immobilised == 1 and not s.veh[t].bailed
    (m,) = [m for m in s.events if isinstance(m, ev.MoraleChecked)]
    assert m.rolls == (5, 5, 5, 1, 1) and m.passed


def test_vehicle_damage_chart_is_a_marked_reconstruction():
    """004: "If a vehicle is struck, roll on the 2 Hits column of the Vehicle Damage Results chart." The chart
    is not in the seeds: ``data/vehicle_damage.json`` is this project's reconstruction (R82), marked so, with
    a 1, 2 and 3 Hits column of six D6 results each. ``strike_vehicle`` rolls a column for other rules:
    the Panzer IV struck on the 2 Hits column, D6 = 2: main gun damaged (its applied armour is gone); its
    Confident crew checks with 5 dice, 4, 4, 4, 4, 4: it stays."""
    chart = damage_chart()
    assert chart["reconstruction"] is True
    assert sorted(chart["columns"]) == ["1", "2", "3"]
    assert all(len(col) == chart["die"] == 6 for col in chart["columns"].values())
    assert chart["columns"]["2"][0] == "immobilised" and chart["columns"]["3"] == ["knocked_out"] * 6
    s = armour({"ger.panzer": {"at": "x21y13"}})
    script(s, [2, 4, 4, 4, 4, 4])
    p = uid(s, "ger.panzer")
    assert s.strike_vehicle(p, 2) == "main_gun_damaged"
    assert dice_used(s) == 6 and s.veh[p].gun_out == 1 and s.veh[p].applied == 0 and not s.veh[p].bailed


# ------------------------------------------------------------------ movement
def test_vehicle_moves_10_tactical_20_rapid_and_faces_its_move():
    """003: "Vehicles may make a Tactical move of up to 10”." and "Vehicles may make a Rapid move of up to
    20”." The Sherman at x03y13 may reach x23y13 (20") but no point beyond 20"; a 10" move is Tactical, a
    12" one Rapid; afterwards it faces the way it moved (R81)."""
    s = armour({"us.sherman": {"at": "x03y13"}, "ger.panzer": {"at": "x21y01"}})
    sh = uid(s, "us.sherman")
    s.apply("us.sherman")
    s.apply("move")
    table = s.sc.table
    dests = [a for a in s.legal_actions() if a < s.NUM_POINTS]
    assert max(table.dist[s.pos[sh]][p] for p in dests) == pytest.approx(20.0)
    assert table.index("x23y13") in dests
    s.apply("x13y13")
    decline_reactions(s)
    assert s.moved[sh] == 1 and s.veh[sh].facing == 0  # Tactical; facing east
    s2 = armour({"us.sherman": {"at": "x03y13"}, "ger.panzer": {"at": "x21y01"}})
    s2.apply("us.sherman")
    s2.apply("move")
    s2.apply("x03y01")
    decline_reactions(s2)
    s2.apply("pass")  # no fire after the move
    assert s2.moved[sh] == 2 and s2.to_position()["units"]["us.sherman"]["vehicle"]["facing"] == "north"


def test_immobilised_vehicle_may_not_move():
    """004: "roll on the 2 Hits column of the Vehicle Damage Results chart" (R82: immobilised): an
    immobilised Sherman is offered no move."""
    s = armour({"us.sherman": {"at": "x03y13", "vehicle": {"immobilised": True}}, "ger.panzer": {"at": "x21y13"}})
    s.apply("us.sherman")
    assert "move" not in [s.action_to_str(a) for a in s.legal_actions()]


# ------------------------------------------------------------------ buttoned-up spotting
def test_buttoned_tank_treats_concealed_infantry_as_hidden_and_spots_once():
    """004: "Vehicles can always spot infantry that are Exposed and in line of sight, but if any concealing
    terrain (trees, shrubs, rocks, walls, rubble, etc.) is in between the tank and an infantry unit, the tank
    must treat the infantry unit as if it were Hidden"; "Buttoned up tanks may make one attempt to spot
    infantry per turn, either when the tank is activated or when it takes a Defensive Action". The
    Grenadiers in the orchard are no target of the buttoned-up Sherman, the MG team in the open is. A failed
    attempt (TQ roll 3) is its one of the turn: no second ``spot``; with a 4 they are spotted and a target."""
    units = {"us.sherman": {"at": "x05y19"}, "ger.gren": {"at": "x15y19"}, "ger.mg": {"at": "x21y05"}}
    s = armour(units)
    sh, gren, mg = uid(s, "us.sherman"), uid(s, "ger.gren"), uid(s, "ger.mg")
    assert s.fire_targets(sh) == [mg]
    script(s, [3])
    s.apply("us.sherman")
    assert "spot" in [s.action_to_str(a) for a in s.legal_actions()]
    s.apply("spot")
    assert dice_used(s) == 1 and gren not in s.fire_targets(sh)
    assert "spot" not in [s.action_to_str(a) for a in s.legal_actions()]
    s = armour(units)
    script(s, [4])
    s.apply("us.sherman")
    s.apply("spot")
    assert s.fire_targets(sh) == [gren, mg]
    assert "us.sherman spots ger.gren" in notes(s)


def test_spotting_lasts_to_the_end_of_the_turn():
    """004: "Buttoned up tanks may make one attempt to spot infantry per turn": at the end of the turn the
    Sherman's attempt and what it spotted are gone (R85): in turn 2 the Grenadiers in the orchard are no
    target until it spots them again."""
    s = armour({"us.sherman": {"at": "x05y19", "vehicle": {"spot_used": True, "spotted": ["ger.gren"]}},
                "ger.gren": {"at": "x15y19"}})  # fmt: skip
    sh, gren = uid(s, "us.sherman"), uid(s, "ger.gren")
    assert gren in s.fire_targets(sh)
    script(s, [1] * 10)
    s.apply("us.sherman")
    s.apply("hold")
    s.apply("ger.gren")
    s.apply("hold")
    assert s.turn == 2 and s.veh[sh].spot_used == 0 and s.veh[sh].spotted == 0
    assert gren not in s.fire_targets(sh)


def test_buttoned_tank_spots_when_it_takes_a_defensive_action():
    """004: "Buttoned up tanks may make one attempt to spot infantry per turn, either when the tank is
    activated or when it takes a Defensive Action." The Grenadiers, concealed in the orchard, move; the
    buttoned-up Sherman may interrupt with fire although it cannot see them. Reaction tests: Grenadiers 2,
    Sherman 6 (it goes first); its spotting roll 5 spots them, then it fires: 3 dice (MGs) against 4 figures
    in the orchard: min(4, 3) + 1 (woods) + 1 (In Cover: they had not moved) = 5 defence dice, all misses."""
    s = armour({"us.sherman": {"at": "x05y19"}, "ger.gren": {"at": "x15y19"}, "ger.mg": {"at": "x23y01"}},
               initiative="ger")  # fmt: skip
    script(s, [2, 6, 5, 1, 1, 1, 1, 1, 1, 1, 1])
    s.apply("ger.gren")
    s.apply("move")
    s.apply("x15y17")
    assert s.decision.kind == "declare_interrupt" and "interrupt_fire" in [s.action_to_str(a) for a in s.legal_actions()]
    s.apply("interrupt_fire")
    decline_reactions(s)
    assert dice_used(s) == 11
    assert "us.sherman spots ger.gren" in notes(s)
    (f,) = fires(s)
    assert (f.shooter, f.firepower, f.defense, f.casualties) == ("us.sherman", 3, 5, 0)
    assert s.veh[uid(s, "us.sherman")].spot_used == 1


@cache
def _ambush_game():
    """The test scenario with 000's ambush rule for the Germans and a PaK 40 (a Class 3 (4d) AT gun) crew."""
    data = json.loads(SCENARIO.read_text(encoding="utf-8"))
    crew = [{"role": "Gunner", "weapon": "PaK 40", "support": None}, {"role": "Loader", "weapon": None, "support": None}]
    data["units"].append({"id": "ger.pak", "name": "PaK 40", "side": "ger", "deploy": {"zone": [20, 0, 24, 24]},
                          "at_weapon": "at_gun_class3_4d", "figures": crew})  # fmt: skip
    data["rules"] = {"ambush": {"side": "ger"}}
    return fof_env.make_game("force_on_force", scenario=data)


def test_buttoned_tank_spots_hidden_guns_but_not_hidden_infantry():
    """004: "Buttoned up tanks may only attempt to spot infantry units that are actually **Hidden** when the
    hidden unit fires at them. This restriction doesn't apply to **Hidden** AT or Infantry Guns". The Hidden
    PaK 40 and the Hidden Grenadiers sit in the orchard, 8" from the buttoned-up Sherman (D8: Optimum Range
    8"). Its spotting roll 4 reveals the gun (R86), which it may now fire at; the Grenadiers stay Hidden."""
    units = {"us.sherman": {"at": "x07y19"}, "ger.pak": {"at": "x15y19", "status": ["hidden"]},
             "ger.gren": {"at": "x15y17", "status": ["hidden"]}}  # fmt: skip
    s = _ambush_game().state_from_position({"stage": "activation", "turn": 1, "initiative": "us", "units": units})
    sh, pak, gren = uid(s, "us.sherman"), uid(s, "ger.pak"), uid(s, "ger.gren")
    assert s.fire_targets(sh) == []
    script(s, [4])
    s.apply("us.sherman")
    s.apply("spot")
    assert dice_used(s) == 1
    assert not s.hidden[pak] and s.hidden[gren]
    assert s.fire_targets(sh) == [pak]
    assert s.at_dice(pak) == 4


def test_buttoned_tank_may_spot_infantry_firing_at_it():
    """004: "Tanks may always attempt to spot infantry units or guns firing at them, and may react if they
    succeed in spotting a target and have Defensive Actions/Reactions left." The Grenadiers fire their
    Panzerfaust from the orchard (4 dice, all misses against 3 armour dice); the Sherman's free attempt (TQ
    roll 5) spots them, and it is asked whether it returns fire."""
    s = armour({"us.sherman": {"at": "x05y19"}, "ger.gren": {"at": "x15y19"}}, initiative="ger")
    shoot(s, "ger.gren", "us.sherman", [1, 1, 1, 1, 1, 1, 1, 5])
    assert dice_used(s) == 8
    assert "us.sherman spots ger.gren" in notes(s)
    assert s.veh[uid(s, "us.sherman")].spotted == 1 << uid(s, "ger.gren")


def test_unbuttoning_is_the_owners_choice_and_exposes_the_commander():
    """004: "we assume that all tanks in play on a *Force on Force* table are buttoned up unless their
    controlling player specifically states otherwise"; "In addition to exposing its commander to gunfire and
    shrapnel". ``yes`` opens the hatch (R87): the unbuttoned Sherman sees the Grenadiers in the orchard.
    Then the MG team (no AT weapon) may fire at it: 3 figures + 1 (Light MG) + 1 (Exposed target) = 5 dice
    (16" away: no Optimum Range) against the commander's one D8 die: 5, 1, 1, 1, 1 v 1: a hit; one crew
    figure is down, the tank buttons up, and the crew checks morale with 4 dice: 4, 4, 1, 1 passes."""
    s = armour({"us.sherman": {"at": "x05y19"}, "ger.gren": {"at": "x15y19"}})
    sh = uid(s, "us.sherman")
    s.apply("us.sherman")
    assert "yes" in [s.action_to_str(a) for a in s.legal_actions()]
    from fof_env.force_on_force.view import ForceOnForceView

    assert ForceOnForceView().label(s, s.YES, "yes") == "Open the hatch (unbutton)"
    s.apply("yes")
    assert s.veh[sh].buttoned == 0 and uid(s, "ger.gren") in s.fire_targets(sh)
    assert "yes" not in [s.action_to_str(a) for a in s.legal_actions()]
    s = armour({"us.sherman": {"at": "x05y13", "vehicle": {"buttoned": False}}, "ger.mg": {"at": "x21y13"}},
               initiative="ger")  # fmt: skip
    assert s.sc.table.exposed[s.pos[sh]]
    shoot(s, "ger.mg", "us.sherman", [5, 1, 1, 1, 1, 1, 4, 4, 1, 1])
    (f,) = fires(s)
    assert (f.firepower, f.defense, f.casualties) == (5, 1, 1)
    assert dice_used(s) == 10
    assert s.veh[sh].buttoned == 1 and s.to_position()["units"]["us.sherman"]["figures"] == {"ok": 4, "down": 1}


# ------------------------------------------------------------------ positions and observations
def test_vehicle_state_round_trips_and_is_observed():
    """004: "A tank's main gun fires with the Firepower noted in its vehicle description." (R88): an AFV's
    damage, hatch, facing and spotting are part of positions (they round-trip) and of the observation's
    ``vehicles`` piece (absent from scenarios without AFVs)."""
    block = {"immobilised": True, "main_gun_damaged": True, "knocked_out": False, "bailed_out": False,
             "applied_armour": False, "buttoned": False, "spot_used": True, "facing": "southwest",
             "spotted": ["ger.gren"]}  # fmt: skip
    units = {"us.sherman": {"at": "x05y19", "vehicle": block}, "ger.gren": {"at": "x15y19"},
             "ger.panzer": {"at": "x21y13"}}  # fmt: skip
    s = armour(copy.deepcopy(units))
    pos = s.to_position()
    assert pos["units"]["us.sherman"]["vehicle"] == block
    assert armour(pos["units"]).to_position() == pos
    assert "AFV facing southwest unbuttoned immobilised main gun damaged" in str(s)
    from fof_env.force_on_force.observation import piece

    at, size = piece(s.LAYOUT, "vehicles")
    assert size == 6 * 10
    row = s.observation(0)[at : at + 10]  # us.sherman is player 0's first unit
    assert list(row[:8]) == [1.0, pytest.approx(0.6), 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]
    assert row[8] == pytest.approx(-2**-0.5) and row[9] == pytest.approx(-2**-0.5)
    laf = fof_env.make_game("lost_and_found")
    assert laf.observation_shape == (2252,) and not laf.layout.vehicles


def test_the_fire_preview_rolls_against_the_armour():
    """The play view's fire preview (R81): the Sherman's 3 dice against the Panzer IV's front meet 3d8 + 1
    applied armour = 4 defence dice of d8, and the expected hits are not capped by the crew."""
    from fof_env.force_on_force.view import fire_preview

    s = armour({"us.sherman": {"at": "x05y13"}, "ger.panzer": {"at": "x21y13"}})
    preview = fire_preview(s, uid(s, "us.sherman"), uid(s, "ger.panzer"))
    assert {k: preview[k] for k in ("firepower", "attack_die", "defense", "defense_die")} == {
        "firepower": 3, "attack_die": 8, "defense": 4, "defense_die": 8}
    assert 0 < preview["expected_casualties"] < 3


def test_bad_vehicle_data_is_refused_in_one_line():
    """R80, R88: a vehicle block with an unknown defence class is refused by the scenario loader, naming the
    field; a position's ``vehicle`` block on a unit that is no AFV, or with an unknown facing, is refused."""
    from fof_env.core.errors import PositionError, ScenarioError

    data = json.loads(SCENARIO.read_text(encoding="utf-8"))
    data["units"][0]["vehicle"]["defense"] = "super_heavy"
    with pytest.raises(ScenarioError, match=r"units\[0\]\.vehicle\.defense: 'super_heavy' is not one of"):
        fof_env.make_game("force_on_force", scenario=data)
    with pytest.raises(PositionError, match="us.rifles is not an AFV"):
        armour({"us.rifles": {"at": "x05y13", "vehicle": {"buttoned": True}}})
    with pytest.raises(PositionError, match="facing must be one of"):
        armour({"us.sherman": {"at": "x05y13", "vehicle": {"facing": "up"}}})


def test_a_guns_dice_are_its_crews_troop_quality_die():
    """004_fa8d850a9c124bb3.txt: "Class 3 (3d) Medium guns of low velocity" gives the dice, not their type;
    003_b1b2d2a6d4b3bab2.txt rolls a unit's Firepower as its Troop Quality die: the Sherman's D8 crew fires
    its gun at the Panzer IV's front with three d8s (against the armour's four d8s); the same Sherman with a
    D10 crew rolls three d10s (rulings R81a)."""
    for tq in (8, 10):
        s = armour({"us.sherman": {"at": "x05y13", "tq": tq}, "ger.panzer": {"at": "x21y13"}})
        shoot(s, "us.sherman", "ger.panzer", [1] * 7)
        rolled = [e for e in s.events if isinstance(e, DiceRolled)]
        assert [e.sides for e in rolled if e.purpose == "firepower of us.sherman"] == [tq] * 3
        assert [e.sides for e in rolled if e.purpose == "armour of ger.panzer"] == [8] * 4
