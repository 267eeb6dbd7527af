"""WWII Fog of War cards on the units of "Hedgerow Hamlet": infantry, the aid man and the tanks (rules/wwii_fog.py,
rules/wwii_vehicles.py; rulings R63, R65, R73-R76).

Seed ``004_fa8d850a9c124bb3.txt``, "Generic WWII Fog of War Cards". Positions are on an open 36" x 36" table with
a stacked deck and scripted dice; a card is drawn as an unmodified 1 on a reaction test draws it (``draw``).
"""

from __future__ import annotations

from fof_env import ScriptedDice
from fof_env.core.events import DiceRolled
from tests.force_on_force.hedgerow_helpers import deck_with, draw, game, unit
from tests.force_on_force.helpers import SEED_WWII, seed_says, table_with

SQUAD = {"us.A": {"at": "x05y05"}, "us.B": {"at": "x05y09"}, "us.Doc": {"at": "x03y07"},
         "us.Sherman": {"at": "x03y17"}, "ger.1": {"at": "x13y05"}, "ger.2": {"at": "x13y09"}}  # fmt: skip


def position(*top: str, units: dict | None = None, rolls=(), initiative: str = "us", hands=None, **fog):
    """Turn 1, an activation; the deck's top cards ``top``, ``hands`` {side: [held cards]}."""
    hands = hands or {}
    deck = deck_with(*top)
    for card in (c for cards in hands.values() for c in cards):
        deck.remove(card)
    pos = {"turn": 1, "initiative": initiative, "units": units or SQUAD, "table": table_with(),
           "fog_cards": {"deck": deck, "hands": hands, **fog}}  # fmt: skip
    return game().state_from_position(pos, dice=ScriptedDice(list(rolls)))


def rolls(s, purpose: str) -> list[DiceRolled]:
    return [e for e in s.events if isinstance(e, DiceRolled) and e.purpose == purpose]


# ------------------------------------------------------------------ Give 'em Hell!
def test_give_em_hell_falls_on_one_of_the_infantry_units_that_fire():
    """004_fa8d850a9c124bb3.txt, Give 'em Hell!: "One of your infantry units gets carried away and blazes away at
    the enemy like madmen. They fire with everything they have" and "Randomly determine the unit affected."
    The US has us.A and us.B (riflemen), the aid man (a medic, who does not shoot: R47) and the Sherman (no
    infantry unit): the die is a d2 over us.A and us.B (rulings R73); face 1 is us.A, face 2 us.B."""
    seed_says(SEED_WWII, "One of your infantry units gets carried away and blazes away at the enemy like madmen.",
              "Randomly determine the unit affected.")  # fmt: skip
    for face, name in ((1, "us.A"), (2, "us.B")):
        s = position("give_em_hell", rolls=[face])
        draw(s, "us")
        (die,) = rolls(s, "random unit")
        assert (die.sides, die.value) == (2, face)
        assert s.cards.hell == (unit(s, name),) and s.mad[unit(s, name)] == 1
        assert s.mad[unit(s, "us.Sherman")] == 0 and s.mad[unit(s, "us.Doc")] == 0


def test_give_em_hell_never_makes_the_tank_poorly_supplied():
    """004_fa8d850a9c124bb3.txt, Give 'em Hell!: "Make a Troop Quality check for the unit at the end of the turn.
    If the unit fails the check, it is considered to be Poorly Supplied for the duration of the game." The
    tank is no infantry unit: with only the Sherman and the aid man beside no rifleman, nothing gets the card
    (no die, no TQ check) and the Sherman stays supplied (rulings R73)."""
    units = {"us.Doc": {"at": "x03y07"}, "us.Sherman": {"at": "x03y17"}, "ger.1": {"at": "x13y05"}}
    s = position("give_em_hell", units=units, rolls=[4])  # turn 2 initiative: the US's one die (2 units / 2)
    draw(s, "us")
    assert s.cards.hell == () and s.dice._pos == 0
    s.apply("pass")
    s.apply("pass")
    assert s.turn == 2 and s.supply[unit(s, "us.Sherman")] == 0 and s.dice._pos == 1


def test_a_unit_with_no_one_who_shoots_fires_no_extra_die():
    """004_fa8d850a9c124bb3.txt, Give 'em Hell!: "This unit will receive an extra Firepower die for all attacks,
    Reactions, or Defensive Fire for the rest of the turn." An extra die is a die more of the unit's own
    fire: a unit with no figure that shoots (the aid man: rulings R47) has none to add to, so even a position
    that writes him under the card gives him no Firepower and no fire action (rulings R73)."""
    s = position(give_em_hell=["us.Doc"])
    doc = unit(s, "us.Doc")
    assert s.mad[doc] == 1 and s.fire_capacity(doc) == 0
    s.apply("us.Doc")
    assert "fire" not in s.legal_action_strings()
# ------------------------------------------------------------------ An Excellent Position on a tank
TANKS = {"us.A": {"at": "x05y05"}, "us.Sherman": {"at": "x05y17"}, "ger.1": {"at": "x31y05"},
         "ger.PzIV": {"at": "x25y17"}}  # fmt: skip


def test_an_excellent_position_adds_a_die_to_a_tanks_armour():
    """004_fa8d850a9c124bb3.txt, An Excellent Position: "As long as the unit stays in its current position it
    receives an additional Defense die over and above any Cover or Armor dice." The US holds the card; at the
    start of turn 2 (initiative: the US's one d8 rolls 5, the Germans' 1) it plays it on the Sherman, facing
    east at the Panzer IV: its front armour is Medium 3d8, now 4d8 (rulings R74). The Panzer IV's gun (Class 3
    (4d), its crew's d8s) meets 4 armour dice."""
    seed_says(SEED_WWII, "it receives an additional Defense die over and above any Cover or Armor dice.")
    s = position(units=TANKS, rolls=[5, 1], hands={"us": ["excellent_position"]})
    s.apply("pass")
    s.apply("pass")
    assert (s.decision.kind, s.decision.player, s.turn) == ("fog_of_war_unit", 0, 2)
    assert s.legal_action_strings() == ["us.A", "us.Sherman", "pass"]
    s.apply("us.Sherman")
    sherman, panzer = unit(s, "us.Sherman"), unit(s, "ger.PzIV")
    assert s.afv_defense(sherman, s.pos[panzer]) == (4, 8)
    s.dice = ScriptedDice([1, 1, 1, 1, 1, 1, 1, 1])
    s._attack(sherman, 4, 8, s.pos[panzer], "ger.PzIV")
    (fire,) = [e for e in s.events if type(e).__name__ == "FireResolved"]
    assert (fire.firepower, fire.defense, s.dice._pos) == (4, 4, 8)


def test_an_excellent_position_does_not_cover_an_open_hatch():
    """004_fa8d850a9c124bb3.txt, An Excellent Position: "an additional Defense die over and above any Cover or
    Armor dice" -- the position shelters the vehicle, not the commander standing in its open hatch: infantry
    fire at an unbuttoned tank still meets the commander's one die (R87, rulings R74)."""
    units = {**TANKS, "us.Sherman": {"at": "x05y17", "status": ["excellent_position"],
                                     "vehicle": {"buttoned": False}}}  # fmt: skip
    s = position(units=units, rolls=[1, 1, 1, 1, 1])
    s._attack(unit(s, "us.Sherman"), 4, 8, s.pos[unit(s, "ger.1")], "ger.1")
    (fire,) = [e for e in s.events if type(e).__name__ == "FireResolved"]
    assert (fire.firepower, fire.defense) == (4, 1)


# ------------------------------------------------------------------ BOOM!!, Incoming! and friendly fire on a tank
def test_boom_strikes_a_tank_through_its_deck_armour():
    """004_fa8d850a9c124bb3.txt, BOOM!!: "A booby-trap or mine has detonated near one of your units!" and "The
    unit takes a 4d10 Firepower attack to which it may not React. The stricken unit's Defense is determined as
    usual." A blast has no shooter to face: the tank defends with the armour 004 gives fire that comes from
    no facing, its deck ("AFV deck armor is -2 dice", R81; rulings R75). The Sherman, the US's only unit (no
    die for the random unit): Medium 3d8 - 2 = one d8 against the 4d10; with an Excellent Position, two."""
    seed_says(SEED_WWII, "The unit takes a 4d10 Firepower attack to which it may not React.", "AFV deck armor is -2 dice")
    for status, armour in (([], 1), (["excellent_position"], 2)):
        units = {"us.Sherman": {"at": "x05y17", "status": status}, "ger.1": {"at": "x31y05"}}
        s = position("boom", units=units, rolls=[1] * (4 + armour))
        draw(s, "us")
        (fire,) = [e for e in s.events if type(e).__name__ == "FireResolved"]
        assert (fire.shooter, fire.firepower, fire.defense, fire.casualties) == ("BOOM!! (booby-trap)", 4, armour, 0)
        assert [e.sides for e in rolls(s, "armour of us.Sherman")] == [8] * armour
        assert [e.sides for e in rolls(s, "firepower of BOOM!! (booby-trap)")] == [10] * 4


def test_incoming_strikes_a_tank_through_its_deck_armour():
    """004_fa8d850a9c124bb3.txt, Incoming!: "One of your units is struck by a random barrage of mortar fire." and
    "The affected unit is struck with a Firepower of 6d6." Mortar rounds fall from above: the Sherman, the
    US's only unit, meets the 6d6 with its deck armour, one d8 (rulings R75)."""
    seed_says(SEED_WWII, "The affected unit is struck with a Firepower of 6d6.")
    s = position("incoming", units={"us.Sherman": {"at": "x05y17"}, "ger.1": {"at": "x31y05"}}, rolls=[1] * 7)
    draw(s, "us")
    (fire,) = [e for e in s.events if type(e).__name__ == "FireResolved"]
    assert (fire.firepower, fire.defense, fire.casualties) == (6, 1, 0)
    assert [e.sides for e in rolls(s, "armour of us.Sherman")] == [8]


def test_friendly_fire_on_a_tank_strips_its_applied_armour():
    """004_fa8d850a9c124bb3.txt, There's Nothing Friendly About It!: "If a vehicle is struck, roll on the 2 Hits
    column of the Vehicle Damage Results chart." and "Side or applied armor (Tracks, sandbags, Side skirts) +1
    dice until first hit": the struck vehicle has taken its first hit, so its side skirts are gone (rulings
    R76). The Panzer IV (the Germans' only unit: no die for the random unit) rolls a 1 on the 2 Hits column:
    immobilised (R82); its Confident crew passes its Morale Check (five 4s); its front armour is now 3d8, not
    4d8."""
    seed_says(SEED_WWII, "If a vehicle is struck, roll on the 2 Hits column of the Vehicle Damage Results chart.",
              "Side or applied armor (Tracks, sandbags, Side skirts) +1 dice until first hit")  # fmt: skip
    units = {"us.Sherman": {"at": "x05y17"}, "ger.PzIV": {"at": "x25y17"}}
    s = position("nothing_friendly", units=units, rolls=[1, 4, 4, 4, 4, 4], initiative="ger")
    panzer, sherman = unit(s, "ger.PzIV"), unit(s, "us.Sherman")
    assert s.afv_defense(panzer, s.pos[sherman]) == (4, 8)
    draw(s, "ger")
    assert s.dice._pos == 6 and s.veh[panzer].immobilised == 1 and not s.veh[panzer].bailed
    assert s.veh[panzer].applied == 0 and s.afv_defense(panzer, s.pos[sherman]) == (3, 8)
