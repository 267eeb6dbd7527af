"""The WWII Fog of War card deck (004 "Generic WWII Fog of War Cards"; rules/wwii_fog.py, rulings R60-R67).

Every test plays the test scenario ``scenarios/crossroads_wwii.json`` (Crossroads with
``"fog_of_war": {"table": "wwii_deck"}``) from a position whose deck order is written out, with
scripted dice: a card is drawn as an unmodified 1 on a reaction test draws it (``draw``).
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

import pytest

import fof_env
from fof_env import ScriptedDice
from fof_env.core.errors import PositionError
from fof_env.core.game import State
from fof_env.core.view import view
from fof_env.force_on_force.constants import AUTO, ST_SELECT
from fof_env.force_on_force.rules.wwii_fog import (
    SHUFFLE,
    FogCardDrawn,
    FogCardPlayed,
    card_keys,
    card_specs,
    check_card_invariant,
    full_deck,
)
from fof_env.force_on_force.view import ForceOnForceView
from tests.force_on_force.helpers import SEED_WWII, seed_text

HERE = Path(__file__).parent
SCENARIO = HERE / "scenarios" / "crossroads_wwii.json"
UNITS = {
    "red.1": {"at": "x05y05"},
    "red.2": {"at": "x01y23"},
    "blue.1": {"at": "x13y05"},
    "blue.2": {"at": "x23y23"},
}


@cache
def game():
    return fof_env.make_game("force_on_force", scenario=str(SCENARIO))


def deck_with(*top: str, leave_out: tuple[str, ...] = ()) -> list[str]:
    """The deck list with ``top`` drawn first and ``leave_out`` taken out (they are in a hand)."""
    keys = card_keys()
    rest = [keys[c] for c in full_deck()]
    for k in (*top, *leave_out):
        rest.remove(k)
    return [*top, *rest]


def state(*top: str, rolls=(), units=None, hands=None, initiative="red", table=None, **fog):
    """An activation position, turn 1 of 4, the deck's top cards ``top``, ``hands`` {side: [cards]}."""
    hands = hands or {}
    held = tuple(c for cards in hands.values() for c in cards)
    pos = {"turn": 1, "initiative": initiative, "units": units or UNITS,
           "fog_cards": {"deck": deck_with(*top, leave_out=held), "hands": hands, **fog}}  # fmt: skip
    if table is not None:
        pos["table"] = table
    return game().state_from_position(pos, dice=ScriptedDice(list(rolls)))


def draw(s, side: str) -> None:
    """``side`` draws a card, as an unmodified 1 on its reaction test makes it (between activations)."""
    s._fog_of_war(s.SIDES.index(side))
    s.kind, s.step = AUTO, ST_SELECT
    s._legal_cache = s._mask_cache = None
    s._run()


def end_turn(s) -> None:
    """Both sides end their activations: the End Phase, then the next turn's start."""
    s.apply("pass")
    s.apply("pass")


def played(s) -> list[tuple[str, str, str]]:
    return [(e.side, e.card, e.target) for e in s.events if isinstance(e, FogCardPlayed)]


def used(s) -> int:
    return s.dice._pos


def unit(s, name: str) -> int:
    return s.UNIT_NAMES.index(name)


# ------------------------------------------------------------------ the deck as data
def test_the_deck_lists_every_card_of_004_with_its_count():
    """004: "The following Fog of War cards may be used in World War Two scenarios which pit Allied
    forces against the Germans." and "This deck may be drawn from by both sides when indicated by a
    Reaction Test. There is no need to use two decks." Every card, x2 where 004 says so: 31 cards."""
    specs = card_specs()
    assert len(specs) == 22
    assert len(full_deck()) == 31
    assert {spec.key for spec in specs if spec.count == 2} == {  # the cards 004 marks "(x2)"
        "excellent_position", "swiss_cheese", "fire_fire", "youre_grounded", "tougher_than_they_look",
        "whered_they_come_from", "unexpected_help", "colonel_said_what", "incoming"}  # fmt: skip
    assert all(spec.count in (1, 2) for spec in specs)
    for spec in specs:
        assert spec.timing in ("immediate", "held") and spec.status in ("implemented", "reserve", "asset_reconstruction")
    text = seed_text(SEED_WWII)
    if text is not None:  # beside a checkout with ../shared/seeds: the quotes are 004's words
        for spec in specs:
            assert " ".join(spec.quote.split()) in text, spec.key
            assert (f"{spec.name} (x2)" in text) == (spec.count == 2), spec.key
    data = json.loads(
        (HERE.parents[1] / "fof_env" / "force_on_force" / "data" / "wwii_fog_of_war.json").read_text()
    )
    assert [c["key"] for c in data["cards"]] == list(card_keys())


def test_an_unmodified_1_on_a_reaction_test_draws_the_top_card():
    """003: "a player draws a Fog of War card if he rolls an unmodified "1" on a Reaction Test."
    004: "This deck may be drawn from by both sides when indicated by a Reaction Test." Red fires at
    Blue One, which fires back: Red One's reaction test is a 1, so Red draws the top card."""
    s = state("youre_grounded", rolls=[1, 5] + [3] * 40)
    for a in ("red.1", "fire", "blue.1", "interrupt_fire", "pass"):
        s.apply(a)
    drawn = [e for e in s.events if isinstance(e, FogCardDrawn)]
    assert drawn == [FogCardDrawn("red", "youre_grounded", False)]
    assert len(s.cards.deck) == 30 and s.cards.discards == (card_keys().index("youre_grounded"),)
    assert s.cards.grounded == 1
    check_card_invariant(s)


def test_the_quick_start_table_is_untouched_without_the_deck():
    """000: "Roll 1D10 on the table each time a Fog of War check is needed." The Crossroads file
    without the deck has no cards, and a deck position is refused there."""
    g = fof_env.make_game("force_on_force", scenario=str(HERE / "scenarios" / "crossroads.json"))
    s = g.state_from_position({"turn": 1, "initiative": "red", "units": UNITS})
    assert s.cards is None and "fog_cards" not in s.to_position()
    with pytest.raises(PositionError, match="no Fog of War deck"):
        g.state_from_position({"turn": 1, "initiative": "red", "units": UNITS, "fog_cards": {}})


# ------------------------------------------------------------------ immediate cards
def test_boom_a_4d10_attack_on_a_random_unit():
    """004: "Randomly determine which unit has been struck by the attack. The unit takes a 4d10
    Firepower attack to which it may not React. The stricken unit's Defense is determined as usual."
    Red draws it: the d2 picks Red One (4 figures, open ground: 4 defence dice); 10, 9, 8, 2 against
    8, 3, 2, 1: two casualties; its morale check 5, 2 passes."""
    s = state("boom", rolls=[1, 10, 9, 8, 2, 8, 3, 2, 1, 5, 2])
    draw(s, "red")
    assert used(s) == 11
    assert played(s) == [("red", "boom", "red.1")]
    f = s.figs[unit(s, "red.1")]
    assert (f[0], f[2]) == (2, 2) and not s.pinned[unit(s, "red.1")]
    assert s.decision.kind == "select_unit" and s.decision.player == 0


def test_incoming_a_6d6_mortar_barrage():
    """004: "Randomly determine the unit that is hit by the mortar rounds. The affected unit is
    struck with a Firepower of 6d6." Blue draws it: the d2 picks Blue Two (3 figures: 3 defence
    dice); 6 5 4 3 2 1 against 6 1 1: two casualties; its last figure's morale 3 fails: pinned, and
    then its Quality Check for In Cover (rulings R54), 5: In Cover."""
    s = state("incoming", rolls=[2, 6, 5, 4, 3, 2, 1, 6, 1, 1, 3, 5])
    draw(s, "blue")
    assert used(s) == 12
    assert played(s) == [("blue", "incoming", "blue.2")]
    b2 = unit(s, "blue.2")
    assert (s.figs[b2][0], s.figs[b2][2]) == (1, 2) and s.pinned[b2] == 1 and s.in_cover[b2] == 1


def test_nothing_friendly_about_it_each_figure_rolls_4_plus():
    """004: "If it is an infantry unit, each figure in the unit must roll a 4+ to avoid becoming a
    casualty." Red draws it: the d2 picks Red Two, whose three figures roll 4, 3, 6: one casualty."""
    s = state("nothing_friendly", rolls=[2, 4, 3, 6])
    draw(s, "red")
    r2 = unit(s, "red.2")
    assert used(s) == 4 and (s.figs[r2][0], s.figs[r2][2]) == (2, 1)


@pytest.mark.parametrize(("roll", "morale"), [(2, 6), (3, 6), (4, 10), (6, 10)])
def test_the_bell_tolls(roll, morale):
    """004: "1-3: Your force becomes despondent and demoralized. Lower your force's Morale die by one
    type" and "4-6: Your force is fired up and hungry for some pay-back! Raise the Morale of every unit
    in your force by one die type". Red's morale is d8; Blue's stays d8."""
    s = state("bell_tolls", rolls=[roll])
    draw(s, "red")
    assert [s.morale[unit(s, n)] for n in ("red.1", "red.2", "blue.1", "blue.2")] == [morale, morale, 8, 8]


def test_the_bell_tolls_limits():
    """004: "Morale cannot be lowered beyond d6." and "Morale cannot be raised above d12." """
    units = {**UNITS, "red.1": {"at": "x05y05", "morale": 6}, "red.2": {"at": "x01y23", "morale": 12}}
    s = state("bell_tolls", rolls=[1], units=units)
    draw(s, "red")
    assert (s.morale[unit(s, "red.1")], s.morale[unit(s, "red.2")]) == (6, 10)
    s = state("bell_tolls", rolls=[6], units=units)
    draw(s, "red")
    assert (s.morale[unit(s, "red.1")], s.morale[unit(s, "red.2")]) == (8, 12)


def test_tougher_than_they_look_bumps_the_opponent_to_at_most_d10():
    """004: "Troop Quality and Morale are bumped up one die type for each of your opponent's units.
    This increase may not raise either value above d10." Red draws it: Blue's d6 TQ becomes d8 and its
    d8 morale d10; Blue Two's d10 TQ and d12 morale stay."""
    units = {**UNITS, "blue.2": {"at": "x23y23", "tq": 10, "morale": 12}}
    s = state("tougher_than_they_look", units=units)
    draw(s, "red")
    b1, b2 = unit(s, "blue.1"), unit(s, "blue.2")
    assert (s.tq[b1], s.morale[b1], s.tq[b2], s.morale[b2]) == (8, 10, 10, 12)
    assert (s.tq[unit(s, "red.1")], s.morale[unit(s, "red.1")]) == (8, 8)


def test_praise_the_lord_poorly_supplied():
    """004: "A supply snafu or too much time on the line has left your units low on ammo. Your force
    is now considered to be Poorly Supplied." Red One's firepower loses a die (003 Poor Supplies)."""
    s = state("praise_the_lord")
    r1 = unit(s, "red.1")
    before = s.fire_capacity(r1)
    draw(s, "red")
    assert [s.supply[unit(s, n)] for n in ("red.1", "red.2", "blue.1")] == [-1, -1, 0]
    assert s.fire_capacity(r1) == before - 1 == 4
    assert s.to_position()["units"]["red.1"]["supply"] == "poor"


def test_who_won_the_39_world_series():
    """004: "Reduce your force's Morale by one die type. Morale cannot be reduced below d6." """
    units = {**UNITS, "red.2": {"at": "x01y23", "morale": 6}}
    s = state("world_series", units=units)
    draw(s, "red")
    assert (s.morale[unit(s, "red.1")], s.morale[unit(s, "red.2")], s.morale[unit(s, "blue.1")]) == (6, 6, 8)


def test_youre_grounded_optimum_range_6_inches():
    """004: "A ferocious storm blows up, grounding all air assets." and "All units have their Optimum
    Range reduced to 6"." Red One (TQ d8, LMG) fires at Blue One 8" away: within its Optimum Range
    (8") it has 4 + 1 + 1 (range) + 1 (Exposed target) = 7 dice; grounded, 6."""
    s = state("youre_grounded")
    r1, b1 = unit(s, "red.1"), unit(s, "blue.1")
    weapons = s.usable_support(r1)
    assert s.attack_firepower(r1, b1, 4, weapons) == 7
    draw(s, "red")
    assert s.attack_firepower(r1, b1, 4, weapons) == 6
    assert s.to_position()["fog_cards"]["grounded"] is True


def test_wait_the_colonel_said_what_gives_the_opponent_the_next_initiative():
    """004: "If the scenario allows Initiative to change hands, your opponent automatically gains
    Initiative on the next turn." Every scenario rolls initiative each turn (rulings R62): Red draws
    it, and Blue has the initiative in turn 2 without a die rolled."""
    s = state("colonel_said_what")
    draw(s, "red")
    assert s.cards.colonel == 1
    end_turn(s)
    assert s.turn == 2 and s.initiative == 1 and used(s) == 0 and s.cards.colonel == -1


def test_friendly_gremlins_take_an_initiative_die():
    """004: "The opposing player loses one Initiative die on the next Initiative check." Red draws it:
    in turn 2 Red rolls its one d8 (2 units / 2) and Blue, 2 units, rolls none; Red's 5 wins."""
    s = state("friendly_gremlins", rolls=[5], initiative="blue")
    draw(s, "red")
    end_turn(s)
    assert s.turn == 2 and used(s) == 1 and s.initiative == 0 and s.cards.gremlins == (0, 0)


def test_give_em_hell_an_extra_die_then_a_tq_check():
    """004: "Randomly determine the unit affected. This unit will receive an extra Firepower die for all
    attacks, Reactions, or Defensive Fire for the rest of the turn." and "Make a Troop Quality check for
    the unit at the end of the turn. If the unit fails the check, it is considered to be Poorly
    Supplied for the duration of the game." The d2 picks Red One (5 dice, now 6); its TQ check is a 3."""
    s = state("give_em_hell", rolls=[1, 3, 4, 2])
    r1 = unit(s, "red.1")
    assert s.fire_capacity(r1) == 5
    draw(s, "red")
    assert s.fire_capacity(r1) == 6 and s.to_position()["fog_cards"]["give_em_hell"] == ["red.1"]
    end_turn(s)  # End Phase: TQ check 3 fails; turn 2 initiative: Red 4, Blue 2
    assert used(s) == 4 and s.supply[r1] == -1 and s.mad[r1] == 0 and s.cards.hell == ()


def test_swiss_cheese_the_opponent_strips_solid_cover():
    """004: "Your opponent may play this card on one building or terrain feature that would normally
    be considered Solid Cover. The designated piece of terrain no longer counts as Solid Cover for the
    duration of the game." Red draws it; Blue picks the farm (a building), where Red One stands: its
    cover dice against fire from Blue One go from 2 (building + In Cover) to 1."""
    units = {**UNITS, "red.1": {"at": "x11y11"}}
    s = state("swiss_cheese", units=units)
    r1 = unit(s, "red.1")
    assert s.cover_dice(r1, s.pos[unit(s, "blue.1")]) == 2
    draw(s, "red")
    assert s.decision.kind == "reinforce_point" and s.decision.player == 1
    assert s.legal_action_strings() == ["x11y11", "x03y17", "pass"]  # farm, copse (the hedge is a wall)
    s.apply("x11y11")
    assert (s.decision.kind, s.decision.player) == ("select_unit", 0)
    assert s.cover_dice(r1, s.pos[unit(s, "blue.1")]) == 1
    assert played(s) == [("red", "swiss_cheese", "farm")]
    assert s.to_position()["fog_cards"]["swiss_cheese"] == ["farm"]


@pytest.mark.parametrize(
    "card",
    [
        "whered_they_come_from",
        "unexpected_help",
        "hunted",
        "brownings_buzz_saw",
        "tank_busters",
        "tank_support",
    ],
)
def test_cards_the_seeds_cannot_express_are_discarded_with_no_effect(card):
    """004: "Your opponent may draw an Asset Card." -- Asset Cards are not in the seeds; this test scenario
    declares no Asset Card (R71) and no card reserve for the unit cards: the card is discarded with no
    effect (rulings R66, R70, R71)."""
    s = state(card)
    before = s.to_position()["units"]
    draw(s, "red")
    assert used(s) == 0 and s.to_position()["units"] == before
    if card in ("whered_they_come_from", "unexpected_help"):
        receiver = "blue" if card == "whered_they_come_from" else "red"
        why = f"no Asset Card of {receiver} left in this scenario: no effect (rulings R66, R71)"
        assert played(s) == [("red", card, why)]
    else:  # Hunted!'s sniper would be Blue's; the other units Red's
        owner = "blue" if card == "hunted" else "red"
        why = f"no reserve unit of {owner} for it in this scenario: no effect (rulings R66, R70)"
        assert played(s) == [("red", card, why)]
    assert s.cards.discards == (card_keys().index(card),)


def test_fire_fire_a_burning_building_is_evacuated_and_impassable():
    """004: "You may designate any building within LOS of one of your units (or anywhere on the table if
    you have air support with offensive capabilities) and declare that it is burning. Any figures in the
    building must immediately evacuate to a point at least 4" from the building." and "The building is
    impassable for the duration of the game." Red draws it and sets the farm ablaze: Blue One, inside,
    moves to x17y17, the nearest point 4" or more from the farm (rulings R62); no one may enter it."""
    units = {**UNITS, "blue.1": {"at": "x13y13"}}
    s = state("fire_fire", units=units)
    draw(s, "red")
    assert (s.decision.kind, s.decision.player) == ("reinforce_point", 0)
    assert s.legal_action_strings() == ["x11y11", "pass"]
    s.apply("x11y11")
    assert s.point_name(s.pos[unit(s, "blue.1")]) == "x17y17" and s.cards.burning == ("farm",)
    assert played(s) == [("red", "fire_fire", "farm")]
    assert (s.decision.kind, s.decision.player) == ("select_unit", 0)
    assert s.to_position()["fog_cards"]["burning"] == ["farm"]
    s.apply("red.1")
    s.apply("move")
    farm = {"x11y11", "x11y13", "x13y11", "x13y13"}
    assert not farm & set(s.legal_action_strings()) and "x09y11" in s.legal_action_strings()


def test_watch_where_you_step_the_opponent_places_a_marker():
    """004: "Randomly determine the unit that has spotted the explosive. Your opponent may place a marker
    at least 6" from that unit and at least 4" from nearby units. None of your units may approach within
    4" of the marker." Red draws it; the d2 picks Red One (x05y05); Blue places the marker at x05y11 (6"
    away, 10" from Blue One): Red's units may no longer end a move within 4" of it (rulings R62)."""
    s = state("watch_where_you_step", rolls=[1])
    draw(s, "red")
    assert (s.decision.kind, s.decision.player) == ("reinforce_point", 1)
    legal = s.legal_action_strings()
    assert "x05y11" in legal and "x05y13" in legal and "x11y05" not in legal and "x05y09" not in legal
    assert "x05y19" not in legal  # 14": not in its path (at most 12", R62)
    s.apply("x05y11")
    assert s.to_position()["fog_cards"]["markers"] == {"red": ["x05y11"]}
    assert played(s) == [("red", "watch_where_you_step", "x05y11")]
    s.apply("red.1")
    s.apply("move")
    moves = s.legal_action_strings()
    assert "x05y09" not in moves and "x07y11" not in moves and "x05y07" in moves and "x09y09" in moves


# ------------------------------------------------------------------ held cards and secret hands
def test_an_excellent_position_is_kept_then_played_at_the_start_of_a_turn():
    """004: "You may designate which of your units has located this "excellent position." As long as
    the unit stays in its current position it receives an additional Defense die over and above any
    Cover or Armor dice. If the unit moves, it loses this advantage." Red keeps the card; at the start
    of turn 2 it plays it on Red One: one more cover die."""
    s = state("excellent_position", rolls=[4, 2])
    draw(s, "red")
    assert s.cards.hands == ((card_keys().index("excellent_position"),), ()) and used(s) == 0
    assert s.decision.kind == "select_unit"
    end_turn(s)
    assert (s.decision.kind, s.decision.player) == ("fog_of_war_unit", 0)
    assert s.decision.context["result"] == "excellent_position"
    assert s.legal_action_strings() == ["red.1", "red.2", "pass"]
    r1, b1 = unit(s, "red.1"), unit(s, "blue.1")
    cover = s.cover_dice(r1, s.pos[b1])
    s.apply("red.1")
    assert s.cover_dice(r1, s.pos[b1]) == cover + 1 and s.cards.hands == ((), ())
    assert (s.decision.kind, s.turn) == ("declare_overwatch", 2)  # the turn goes on
    assert played(s) == [("red", "excellent_position", "red.1")]
    check_card_invariant(s)


def test_a_kept_card_may_be_kept_again():
    """003: "The Fog of War card will indicate whether the player must play the card immediately or may
    hold it in his hand and play it later." Passing keeps the card for a later turn."""
    s = state(rolls=[4, 2], hands={"red": ["medic"]})
    end_turn(s)
    assert s.decision.kind == "fog_of_war_unit"
    s.apply("pass")
    assert s.hand_names(0) == ["medic"] and s.decision.kind != "fog_of_war_unit"


def test_an_excellent_position_is_not_played_on_a_fortified_position():
    """004: "This card may *not* be played on a fortified position." """
    table = {"table": {"width_in": 24, "height_in": 24, "spacing_in": 2},
             "features": [{"id": "bunker", "kind": "fortified_position", "rect": [4, 4, 6, 6]}]}  # fmt: skip
    s = state(rolls=[4, 2], hands={"red": ["excellent_position"]}, table=table)
    end_turn(s)
    assert s.legal_action_strings() == ["red.2", "pass"]


def test_medic_joins_a_unit():
    """004: "Your force gains a medic that may be attached to any unit. That unit will use the
    Medic/Special Forces First Aid table for the duration of the game." Played on Red Two, whose
    medic then tends the wounded rather than shooting (rulings R65)."""
    s = state(rolls=[4, 2], hands={"red": ["medic"]})
    end_turn(s)
    s.apply("red.2")
    r2 = unit(s, "red.2")
    assert s.medic[r2] == 1 and s.shooting_figures(r2) == 2
    assert played(s) == [("red", "medic", "red.2")]


def _blue_sees(s) -> tuple:
    v = ForceOnForceView()
    events = [e.to_dict() for e in s.events if v.event_visible(s, e, 1)]
    return (s.observation(1).tobytes(), json.dumps(view(s, 1), sort_keys=True), s.view_text(1), events,
            s.legal_mask().tobytes() if s.current_player == 1 else None)  # fmt: skip


def test_no_peeking_blue_sees_the_size_of_reds_hand_never_the_card():
    """003: "Fog of War cards may affect either or both players - the card drawn will indicate which
    force will suffer (or enjoy) its effects." Red draws and keeps a card: Blue's observation, view,
    text and visible events are the same whichever card it is, at the draw, at the offer and after a
    pass; Blue's view counts one card in Red's hand; Red's own view names it."""
    seen = []
    for card in ("excellent_position", "medic"):
        s = state(card, rolls=[4, 2])
        draw(s, "red")
        first = _blue_sees(s)
        red_view = view(s, 0)
        end_turn(s)
        second = _blue_sees(s)
        s.apply("pass")
        seen.append((first, second, _blue_sees(s)))
        assert red_view["board"]["fog_of_war"]["hand"] == [card]
        assert view(s, 1)["board"]["fog_of_war"]["enemy_hand"] == 1
        assert card not in s.view_text(1) and card in s.view_text(0)
    assert seen[0] == seen[1]


def test_the_shuffle_is_hidden_from_both_sides():
    """004: "There is no need to use two decks." One shuffled deck: its shuffle's rolls would give the
    order away, so neither side's view shows them (rulings R60)."""
    s = game().new_initial_state(11)
    rng = random.Random(0)
    while s.turn < 1:
        s.apply(rng.choice(s.legal_actions()))
    shuffles = [e for e in s.events if getattr(e, "purpose", None) == SHUFFLE]
    assert len(shuffles) == 30
    v = ForceOnForceView()
    assert not any(v.event_visible(s, e, p) for e in shuffles for p in (0, 1))


def test_search_redraws_the_opponents_hand_from_the_unseen_cards():
    """003: "The Fog of War card will indicate whether the player must play the card immediately or may
    hold it in his hand and play it later." Blue's search copy redraws Red's one card from the deck plus
    that hand (the same copy whichever card Red holds); Red's own copy keeps it."""
    copies = []
    for card in ("excellent_position", "medic"):
        s = state(hands={"red": [card]})
        copies.append(s.determinize(1, random.Random(5)))
        mine = s.determinize(0, random.Random(5))
        assert mine.hand_names(0) == [card]
        check_card_invariant(mine)
    a, b = copies
    assert a.cards == b.cards and a.fingerprint() == b.fingerprint()
    check_card_invariant(a)
    drawn = {
        s_.determinize(1, random.Random(k)).hand_names(0)[0]
        for k in range(40)
        for s_ in [state(hands={"red": ["medic"]})]
    }
    assert len(drawn) > 5  # any card of the 31 may be the hidden one


# ------------------------------------------------------------------ positions, records, determinism
def test_positions_round_trip_the_deck():
    """004: "This deck may be drawn from by both sides when indicated by a Reaction Test." Deck order,
    hands, discards and lasting effects are part of the position."""
    s = state("friendly_gremlins", "colonel_said_what", hands={"blue": ["medic"]})
    draw(s, "red")
    draw(s, "blue")
    pos = s.to_position()
    fog = pos["fog_cards"]
    assert fog["hands"] == {"red": [], "blue": ["medic"]} and fog["discards"] == [
        "friendly_gremlins",
        "colonel_said_what",
    ]
    assert fog["gremlins"] == ["blue"] and fog["colonel"] == "red" and len(fog["deck"]) == 28
    again = game().state_from_position(pos)
    assert again.to_position() == pos and again.cards == s.cards


def test_a_position_without_its_deck_rolls_no_die():
    """004: "There is no need to use two decks." A position written without ``fog_cards`` has the whole
    deck, shuffled from the position's seed: no die rolled, the same deck for the same position."""
    pos = {"turn": 1, "initiative": "red", "units": UNITS, "seed": 9}
    a = game().state_from_position(pos, dice=ScriptedDice([]))
    b = game().state_from_position(pos)
    assert a.cards == b.cards and a.cards.all_cards() == sorted(full_deck()) and a.dice._pos == 0
    assert a.cards.deck != tuple(full_deck())
    assert game().state_from_position({**pos, "seed": 10}).cards.deck != a.cards.deck


@pytest.mark.parametrize(("fog", "message"), [
    ({"deck": ["boom"]}, "deck \\+ hands \\+ discards must be the 31 cards of the deck list; missing"),
    ({"deck": deck_with() + ["boom"]}, "extra \\['boom'\\]"),
    ({"deck": deck_with(leave_out=("boom",)), "hands": {"red": ["boom"]}}, "'boom' is resolved when drawn"),
    ({"deck": deck_with(), "hands": {"green": []}}, "fog_cards.hands must map sides"),
    ({"deck": ["no_such_card"]}, "fog_cards.deck must be a list of card keys"),
    ({"deck": deck_with(), "colonel": "green"}, "fog_cards.colonel must be null or one of"),
    ({"deck": deck_with(), "swiss_cheese": ["hedge"]}, "fog_cards.swiss_cheese must list distinct Solid Cover"),
    ({"deck": deck_with(), "burning": ["copse"]}, "fog_cards.burning must list distinct buildings"),
    ({"deck": deck_with(), "markers": {"green": []}}, "fog_cards.markers must map sides"),
    ({"deck": deck_with(), "markers": {"red": ["x99y99"]}}, "fog_cards.markers.red must be a list of point names"),
    ({"deck": deck_with(), "shuffled": True}, "position\\['fog_cards'\\] must be a dict with keys from"),
])  # fmt: skip
def test_bad_deck_positions_are_refused_in_one_line(fog, message):
    """004: "This deck may be drawn from by both sides" -- one deck: deck + hands + discards are always
    the deck list."""
    with pytest.raises(PositionError, match=message) as info:
        game().state_from_position({"turn": 1, "initiative": "red", "units": UNITS, "fog_cards": fog})
    assert "\n" not in str(info.value)


def test_same_seed_same_actions_same_game_and_records_replay():
    """004: "This deck may be drawn from by both sides when indicated by a Reaction Test." The deck is
    shuffled from the game's seeded dice: same seed, same actions, same game; records replay."""
    digests = []
    for _ in range(2):
        s = game().new_initial_state(21)
        rng = random.Random(4)
        while not s.is_terminal:
            check_card_invariant(s)
            s.apply(rng.choice(s.legal_actions()))
        digests.append(s.digest())
        assert State.from_json(s.to_json(), game()).digest() == s.digest()
    assert digests[0] == digests[1]
    decks = {game().new_initial_state(k).cards.deck for k in range(3)}
    assert decks == {tuple(full_deck())}  # unshuffled until set-up ends


def test_a_card_decision_inside_a_round_of_fire_then_the_fire_goes_on():
    """004: "Your opponent may play this card on one building or terrain feature that would normally be
    considered Solid Cover." Red One's reaction test is a 1 in the middle of a round of fire: Blue picks
    the feature at once, then the round of fire resolves as it would have (Blue One fires first)."""
    s = state("swiss_cheese", rolls=[1, 5] + [3] * 40)
    for a in ("red.1", "fire", "blue.1", "interrupt_fire", "pass"):
        s.apply(a)
    assert (s.decision.kind, s.decision.player) == ("reinforce_point", 1)
    fired = len([e for e in s.events if type(e).__name__ == "FireResolved"])
    s.apply("x11y11")
    shots = [(e.shooter, e.target) for e in s.events if type(e).__name__ == "FireResolved"]
    assert fired == 0 and shots == [("blue.1", "red.1"), ("red.1", "blue.1")]
    assert s.cards.swiss == ("farm",)


def test_fuzz_keeps_the_deck_whole():
    """004: "This deck may be drawn from by both sides when indicated by a Reaction Test." Random games
    of the deck scenario: deck + hands + discards equal the deck list at every decision (the fuzz
    invariant), and observations, records and JSON round trips hold."""
    from evaluation.fuzz import fuzz

    report = fuzz("force_on_force", {"scenario": str(SCENARIO)}, games=12, seed=3, json_every=5)
    assert report.games == 12 and report.decisions > 0


def test_the_bots_play_the_deck_scenario():
    """003: "Fog of War cards simulate this effect by providing an opportunity for unpredictable
    challenges or opportunities to arise." The generic heuristic (Red) and MCTS (Blue, searching on
    determinized copies that redraw Red's hand) play a whole game of the deck scenario."""
    from agents import make_agent

    s = game().new_initial_state(1)
    bots = [make_agent("heuristic", game(), 0, seed=1), make_agent("mcts", game(), 1, seed=1, simulations=20)]
    while not s.is_terminal:
        check_card_invariant(s)
        s.apply(bots[s.current_player].act(s))
    assert s.result() is not None


def test_an_empty_deck_is_not_reshuffled():
    """003_b1b2d2a6d4b3bab2.txt: "a player draws a Fog of War card if he rolls an unmodified "1" on a Reaction
    Test" -- and none is left: every card of the deck is in the discards. The draw gives no card, the discards
    are not shuffled back into a deck (rulings R77), and the game goes on with Red to activate a unit."""
    everything = [card_keys()[c] for c in full_deck()]
    s = state(deck=[], discards=everything)
    draw(s, "red")
    assert s.cards.deck == () and [card_keys()[c] for c in s.cards.discards] == everything and used(s) == 0
    assert played(s) == [] and not [e for e in s.events if isinstance(e, FogCardDrawn)]
    assert "red: the Fog of War deck is empty, no card (R60)" in [getattr(e, "text", "") for e in s.events]
    assert (s.decision.kind, s.decision.player) == ("select_unit", 0)
