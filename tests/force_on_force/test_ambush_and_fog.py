"""Ambush (Hidden units, spotting) and the Fog of War table (rulings R27-R29).

Seeds: 000_294bccfd88f0ebda.txt ("What about ambushes?", "What is an Ambush?", "Ambush Rules are in
Effect", "It's called Fog of War", the D10 table) and 003_b1b2d2a6d4b3bab2.txt ("FOG OF WAR").

Quick rules on an open table with one wood (x 18-26, y 6-16): a unit at x19y11 stands 1" inside its
western edge (it sees out and is seen, R5); a unit at x23y13 stands deep inside. All firepower and
defence dice are 1s (misses) unless a hit is the point.
"""

import pytest

from fof_env.force_on_force import events as ev

from .helpers import (
    dice_used,
    events,
    figures,
    fires,
    game,
    make,
    order,
    position,
    script,
    table_with,
    uid,
    unit,
    woods,
)

SEED = "000_294bccfd88f0ebda.txt"
FULL = "003_b1b2d2a6d4b3bab2.txt"

WOODS = table_with(woods(18, 6, 26, 16))
EDGE = "x19y11"  # 1" inside the wood
DEEP = "x23y13"  # 5" inside the wood


def ambush(units, **kw):
    kw.setdefault("initiative", "usmc")
    kw.setdefault("rules", "quick")
    return make(units, table=WOODS, **kw)


def hidden(at):
    return unit(at, 2, support=[], status=["hidden"])


def plain(at, n=2):
    return unit(at, n, support=[])


# ------------------------------------------------------------------ Hidden units (R27)
def test_hidden_units_cannot_be_targeted():
    """000_294bccfd88f0ebda.txt: "The Taliban player may declare that any of his units starting in the
    woods are Hidden. They may not be fired upon until they are spotted." tal.2 at the edge of the
    wood is in plain line of sight of usmc.A, yet only tal.1 may be fired at."""
    s = ambush({"tal.1": plain("x21y21"), "tal.2": hidden(EDGE), "usmc.A": plain("x07y11")})
    a = uid("usmc.A")
    assert s.table.los[s.pos[a]][s.pos[uid("tal.2")]]
    assert s.fire_targets(a) == [uid("tal.1")]
    s.apply("usmc.A")
    s.apply("fire")
    assert s.decision_kind == "fire_target" and s.legal_action_strings() == ["tal.1"]


def test_no_fire_action_when_only_hidden_enemies_are_in_sight():
    """000_294bccfd88f0ebda.txt: "They may not be fired upon until they are spotted." With only a Hidden
    enemy on the table the Marines have nothing to fire at."""
    s = ambush({"tal.2": hidden(EDGE), "usmc.A": plain("x07y11")})
    s.apply("usmc.A")
    assert "fire" not in s.legal_action_strings()
    assert {"move", "hold", "spot"} <= set(s.legal_action_strings())


def test_hidden_unit_revealed_by_moving():
    """000_294bccfd88f0ebda.txt: "They remain Hidden so long as they do not move or fire." tal.2 moves:
    it is revealed at once, so usmc.A may interrupt it with fire."""
    s = ambush({"tal.2": hidden(EDGE), "usmc.A": plain("x07y11")}, initiative="taliban")
    s.apply("tal.2")
    s.apply("move")
    s.apply("x19y13")
    assert s.hidden[uid("tal.2")] == 0
    assert s.decision_kind == "declare_interrupt"
    assert s.legal_action_strings() == ["pass", "interrupt_fire", "interrupt_move"]


def test_hidden_unit_revealed_by_firing():
    """000_294bccfd88f0ebda.txt: "They remain Hidden so long as they do not move or fire." tal.2 fires:
    its target may fire back at it."""
    s = ambush({"tal.2": hidden(EDGE), "usmc.A": plain("x07y11")}, initiative="taliban")
    s.apply("tal.2")
    s.apply("fire")
    s.apply("usmc.A")
    assert s.hidden[uid("tal.2")] == 0
    assert s.legal_action_strings() == ["pass", "interrupt_fire", "interrupt_move"]


def test_a_hidden_unit_that_fails_its_reaction_test_stays_hidden():
    """000_294bccfd88f0ebda.txt: "They remain Hidden so long as they do not move or fire." R27: tal.2
    declares an interrupt, fails its reaction test and so neither moves nor fires: it stays Hidden (and
    usmc.A's Overwatch partner could not have fired at it)."""
    s = ambush({"tal.2": hidden(EDGE), "usmc.A": plain("x07y11")})
    s.apply("usmc.A")
    s.apply("move")
    s.apply("x09y11")
    assert s.decision_kind == "declare_interrupt" and s.decision.context["unit"] == "tal.2"
    script(s, [6, 2])  # usmc.A 6; tal.2 2: it fails and does nothing
    s.apply("interrupt_move")
    assert s.hidden[uid("tal.2")] == 1 and s.failed[uid("tal.2")] == 1
    assert order(s) == ["move usmc.A"]
    assert not s.visible_to(uid("tal.2"), 1)


def test_a_hidden_unit_that_passes_and_moves_is_revealed():
    """000_294bccfd88f0ebda.txt: "They remain Hidden so long as they do not move or fire": the same
    interrupt passing its test (5 v the Marines' 3) moves, and the move gives it away."""
    s = ambush({"tal.2": hidden(EDGE), "usmc.A": plain("x07y11")})
    s.apply("usmc.A")
    s.apply("move")
    s.apply("x09y11")
    script(s, [3, 5])
    s.apply("interrupt_move")
    assert s.decision_kind == "move_target" and s.hidden[uid("tal.2")] == 1  # not yet: it has not moved
    s.apply("x21y11")
    assert s.hidden[uid("tal.2")] == 0 and order(s)[0] == "move tal.2"


def test_hidden_unit_that_passes_fires_first_from_ambush():
    """000_294bccfd88f0ebda.txt: "A Hidden unit may open fire on an opposing unit. It makes a TQ roll. If
    it rolls a 4+, it automatically fires first." and "The Taliban automatically fire first from
    ambush." usmc.A fires back with an 8, yet tal.2's 4 fires first."""
    s = ambush(
        {"tal.2": hidden(EDGE), "usmc.A": plain("x07y11")}, initiative="usmc", portion="non_initiative"
    )
    s.apply("tal.2")
    s.apply("fire")
    s.apply("usmc.A")
    # tests tal.2 4, usmc.A 8; tal.2 2D6 (12") v 3D8; usmc.A 2D8 v tal.2 2D6 + 1D6 woods
    script(s, [4, 8] + [1] * 5 + [1] * 5)
    s.apply("interrupt_fire")
    assert order(s) == ["tal.2>usmc.A", "usmc.A>tal.2"]
    assert dice_used(s) == 12


def test_hidden_unit_failing_its_roll_fires_as_normal():
    """000_294bccfd88f0ebda.txt: "If it rolls a 4+, it automatically fires first. Otherwise, resolve the
    fire and reactions as normal." tal.2 rolls 3: usmc.A's passing 8 fires first."""
    s = ambush(
        {"tal.2": hidden(EDGE), "usmc.A": plain("x07y11")}, initiative="usmc", portion="non_initiative"
    )
    s.apply("tal.2")
    s.apply("fire")
    s.apply("usmc.A")
    script(s, [3, 8] + [1] * 5 + [1] * 5)
    s.apply("interrupt_fire")
    assert order(s) == ["usmc.A>tal.2", "tal.2>usmc.A"]


def test_with_the_briefing_reading_a_hidden_unit_always_fires_first():
    """000_294bccfd88f0ebda.txt, the briefing: "The Taliban automatically fire first from ambush." against
    the text's "If it rolls a 4+, it automatically fires first." R36: option ambush_fires_first="always"
    takes the briefing's reading: tal.2's 3 still beats usmc.A's 8 (the default, on_4+, is the test
    above)."""
    g = game(rules="quick", fog_of_war=False, ambush_fires_first="always")
    s = g.state_from_position(position({"tal.2": hidden(EDGE), "usmc.A": plain("x07y11")}, table=WOODS,
                                       initiative="usmc", portion="non_initiative"))  # fmt: skip
    s.apply("tal.2")
    s.apply("fire")
    s.apply("usmc.A")
    script(s, [3, 8] + [1] * 5 + [1] * 5)
    s.apply("interrupt_fire")
    assert order(s) == ["tal.2>usmc.A", "usmc.A>tal.2"]


def test_hidden_interrupter_fires_first_even_against_the_initiative():
    """000_294bccfd88f0ebda.txt: "A Hidden unit may open fire on an opposing unit. It makes a TQ roll. If
    it rolls a 4+, it automatically fires first." A Hidden tal.2 interrupts usmc.A's move: its 4 beats
    usmc.A's 8 and it fires at the start point; without the ambush the initiative 8 would go first."""
    s = ambush({"tal.2": hidden(EDGE), "usmc.A": plain("x07y11")})
    s.apply("usmc.A")
    s.apply("move")
    s.apply("x09y11")
    script(s, [8, 4] + [1] * 5)  # tests; tal.2 2D6 at usmc.A (3D8 defence)
    s.apply("interrupt_fire")
    assert order(s) == ["tal.2>usmc.A"]
    assert s.decision_kind == "return_fire"


# ------------------------------------------------------------------ spotting (R28)
def test_spotting_within_optimum_range_reveals():
    """000_294bccfd88f0ebda.txt: "To spot a Hidden unit, the spotting fire team must be within Optimal
    Range (in the case of the USMC, 8") and pass a single die TQ check. If successful, the Hidden unit
    is no longer Hidden." R28: a free step of the activation, once per activation."""
    s = ambush({"tal.2": hidden(EDGE), "usmc.A": plain("x13y11")})  # 6" away
    s.apply("usmc.A")
    script(s, [4])
    s.apply("spot")
    assert s.hidden[uid("tal.2")] == 0
    assert ev.Note("usmc.A spots tal.2") in s.events
    assert s.decision_kind == "choose_action"
    assert "spot" not in s.legal_action_strings()  # once per activation
    assert "fire" in s.legal_action_strings()  # and now it may be fired upon
    s.apply("fire")
    assert s.legal_action_strings() == ["tal.2"]


def test_spotting_fails_below_four():
    """000_294bccfd88f0ebda.txt: "pass a single die TQ check" (4+): a 3 leaves tal.2 Hidden; the spotting
    attempt is spent for this activation."""
    s = ambush({"tal.2": hidden(EDGE), "usmc.A": plain("x13y11")})
    s.apply("usmc.A")
    script(s, [3])
    s.apply("spot")
    assert s.hidden[uid("tal.2")] == 1 and dice_used(s) == 1
    assert "spot" not in s.legal_action_strings() and "fire" not in s.legal_action_strings()


def test_spotting_out_of_optimum_range_does_nothing():
    """000_294bccfd88f0ebda.txt: "the spotting fire team must be within Optimal Range (in the case of the
    USMC, 8")". usmc.A 10" away rolls an 8: tal.2 stays Hidden."""
    s = ambush({"tal.2": hidden(EDGE), "usmc.A": plain("x09y11")})
    s.apply("usmc.A")
    script(s, [8])
    s.apply("spot")
    assert s.hidden[uid("tal.2")] == 1


def test_spotting_needs_line_of_sight():
    """000_294bccfd88f0ebda.txt: "Woods and buildings block line of sight." R28: only Hidden units in the
    spotter's line of sight are revealed: tal.3, 6" away but deep in the wood, stays Hidden while tal.2
    at the edge is spotted."""
    s = ambush({"tal.2": hidden(EDGE), "tal.3": hidden(DEEP), "usmc.A": plain("x17y13")})
    a, t3 = uid("usmc.A"), uid("tal.3")
    assert s.table.dist[s.pos[a]][s.pos[t3]] == 6 and not s.table.los[s.pos[a]][s.pos[t3]]
    s.apply("usmc.A")
    script(s, [8])
    s.apply("spot")
    assert (s.hidden[uid("tal.2")], s.hidden[t3]) == (0, 1)


def test_spot_offered_whether_or_not_anything_is_hidden():
    """000_294bccfd88f0ebda.txt: "USMC troops must pass a TQ check within Optimal Range to spot hidden
    Taliban troops." R28: ``spot`` is offered to every USMC activation (so the mask reveals nothing),
    never to the Taliban, and not without the Ambush rules."""
    s = ambush({"tal.1": plain("x21y21"), "usmc.A": plain("x07y11")})
    s.apply("usmc.A")
    assert "spot" in s.legal_action_strings()
    script(s, [8])
    s.apply("spot")
    assert dice_used(s) == 1 and s.decision_kind == "choose_action"
    s = ambush({"tal.1": plain("x21y21"), "usmc.A": plain("x07y11")}, initiative="taliban")
    s.apply("tal.1")
    assert "spot" not in s.legal_action_strings()
    from .helpers import game, position

    s = game(ambush=False).state_from_position(
        position({"tal.1": plain("x21y21"), "usmc.A": plain("x07y11")}, table=WOODS)
    )
    s.apply("usmc.A")
    assert "spot" not in s.legal_action_strings()


# ------------------------------------------------------------------ Fog of War (R29)
MOVER, STILL, TAL = "x07y11", "x07y21", "x21y11"


def fog(result, effect=(), *, extra=None, roller="usmc", **kw):
    """usmc.A (initiative) moves 2"; tal.1 tries to interrupt and fails (2), other Taliban units let
    the move go. The ``roller`` side's
    reaction test is an unmodified 1: the D10 gives ``result``; ``effect`` are the dice of the result."""
    units = {"usmc.A": plain(MOVER), "usmc.B": plain(STILL), "tal.1": plain(TAL)}
    units.update(extra or {})
    s = make(units, rules="quick", fog_of_war=True, initiative="usmc", **kw)
    s.apply("usmc.A")
    s.apply("move")
    s.apply("x07y13")
    tests = [1, result, 2] if roller == "usmc" else [5, 1, result]
    script(s, tests + list(effect))
    s.apply("interrupt_fire")
    while s.decision_kind == "declare_interrupt":
        s.apply("pass")  # other Taliban units let the move go
    return s


def fog_events(state):
    return [(e.roll, e.result, e.unit) for e in events(state, ev.FogOfWar)]


def test_fog_of_war_on_a_one():
    """000_294bccfd88f0ebda.txt: "Any time a unit rolls a "1" on a reaction test, it triggers a Fog of War
    check. ... Roll 1D10 on the table each time a Fog of War check is needed." The D10 is rolled right
    after the 1."""
    s = fog(5)
    rolled = [e for e in s.events if type(e).__name__ == "DiceRolled"]
    assert [(e.sides, e.value, e.purpose) for e in rolled] == [
        (8, 1, "reaction test of usmc.A"), (10, 5, "Fog of War"), (6, 2, "reaction test of tal.1")]  # fmt: skip


def test_no_fog_of_war_when_the_option_is_off():
    """003_b1b2d2a6d4b3bab2.txt: "others may dictate that no Fog of War cards are used, even if a "1" is
    rolled on a Reaction Test." With ``fog_of_war=False`` no D10 is rolled."""
    units = {"usmc.A": plain(MOVER), "tal.1": plain(TAL)}
    s = make(units, rules="quick", fog_of_war=False, initiative="usmc")
    s.apply("usmc.A")
    s.apply("move")
    s.apply("x07y13")
    script(s, [1, 1])
    s.apply("interrupt_fire")
    assert dice_used(s) == 2 and fog_events(s) == []
    assert order(s) == ["move usmc.A"]


@pytest.mark.parametrize(("result", "side", "choices"), [(1, 1, ["usmc.A", "usmc.B"]), (2, 0, ["tal.1"])])
def test_fog_1_2_excellent_position(result, side, choices):
    """000_294bccfd88f0ebda.txt: "1 An Excellent Position (USMC)" / "2 An Excellent Position (Taliban).
    One of your units has found an excellent position that provides extra cover. Play on one of your
    units. As long as that unit stays in place, it receives one extra Defensive Die (+1D). If it moves,
    the benefit is lost". R29: the side named by the result chooses."""
    s = fog(result)
    assert s.decision_kind == "fog_of_war_unit" and s.current_player == side
    assert s.legal_action_strings() == choices
    target = choices[-1]
    before = s.cover_dice(uid(target), -1)
    s.apply(target)
    t = uid(target)
    assert s.excellent[t] == 1 and s.cover_dice(t, -1) == before + 1
    assert fog_events(s)[-1] == (result, FOG[result], target)


def test_fog_1_excellent_position_adds_a_defence_die_until_the_unit_moves():
    """000_294bccfd88f0ebda.txt: "As long as that unit stays in place, it receives one extra Defensive Die
    (+1D). If it moves, the benefit is lost". usmc.B, fired on by tal.1 (2D6), defends with
    min(2, 2) + 1 body armor + 1 = 4D8; it keeps the die into the next turn, and loses it by moving."""
    s = fog(1)
    s.apply("usmc.B")
    s.apply("pass")  # usmc.A does not fire after its move
    s.apply("pass")  # end of the Marines' activations
    s.apply("tal.1")
    s.apply("fire")
    s.apply("usmc.B")
    script(s, [1, 1, 1, 1, 1, 1])  # no reaction test (usmc.B does not fire back): 2D6, 4D8
    s.apply("pass")
    assert fires(s)[-1].defense == 4 and dice_used(s) == 6
    assert s.decision_kind == "return_fire"
    script(s, [5])  # turn 2 initiative: the Taliban's one unit rolls no die, the Marines' two 1D8
    s.apply("pass")
    assert s.turn == 2 and s.excellent[uid("usmc.B")] == 1
    s.apply("pass")  # no Overwatch
    s.apply("usmc.B")
    s.apply("move")
    s.apply("x07y23")
    s.apply("pass")  # tal.1 lets it go
    assert s.excellent[uid("usmc.B")] == 0


FOG = {1: "excellent_position_usmc", 2: "excellent_position_taliban", 3: "medic_usmc",
       4: "reinforcements_taliban", 5: "amped_up", 6: "tougher_than_they_look", 7: "incoming_usmc",
       8: "mad_minute_usmc", 9: "incoming_taliban", 10: "ammunition_usmc"}  # fmt: skip


def test_fog_results_name_the_side_they_apply_to():
    """000_294bccfd88f0ebda.txt: "Some cards have benefits, some hindrances; the cards always describe
    what happens and to whom it applies." R29: "Medic! (USMC)" goes to the Marines even when a Taliban
    unit rolled the 1."""
    s = fog(3, roller="taliban")
    assert s.decision_kind == "fog_of_war_unit" and s.current_player == 1
    assert s.decision.context["result"] == "medic_usmc"


def test_fog_3_medic_cannot_shoot():
    """000_294bccfd88f0ebda.txt: "3 Medic! (USMC) One of your figures is a trained Corpsman. Choose one
    figure; for the remainder of the game, that figure cannot shoot". R29: the unit has one figure less
    of firepower; a unit already with a Corpsman is not offered."""
    s = fog(3, extra={"usmc.A": unit(MOVER, 2, support=[], status=["medic"])})
    assert s.legal_action_strings() == ["usmc.B"]
    b = uid("usmc.B")
    before = s.fire_capacity(b)
    s.apply("usmc.B")
    assert s.medic[b] == 1 and s.shooting_figures(b) == 1 and s.fire_capacity(b) == before - 1
    assert fog_events(s)[-1] == (3, "medic_usmc", "usmc.B")


def test_fog_3_a_corpsman_works_no_support_weapon():
    """000_294bccfd88f0ebda.txt: "Choose one figure; for the remainder of the game, that figure cannot
    shoot". R29: support weapons go one per figure that shoots, so of two effective figures with two
    light support weapons, the Corpsman's weapon falls silent: 1 gunner + 1 weapon die =
    2 dice, not 2 + 2 (quick rules, unmoved)."""
    s = fog(3, extra={"usmc.B": unit(STILL, 2, support=["light", "light"])})
    b = uid("usmc.B")
    assert s.fire_capacity(b) == 4
    s.apply("usmc.B")
    assert s.shooting_figures(b) == 1 and s.usable_support(b) == [1]
    assert s.fire_capacity(b) == 2


def test_fog_3_medic_adds_one_to_casualty_rolls_within_one_inch():
    """000_294bccfd88f0ebda.txt: "if it is within 1" of a casualty when assessing casualties, add +1 to the
    die roll (e.g., a roll of 4 = 5, changing a serious wound into a light wound)." and "On a 2 or 3, the
    figure is seriously wounded. On a 4 or 5, the figure was lightly wounded". usmc.B has the Corpsman;
    usmc.A is 2" away (R3), usmc.C is not: each rolls a 3."""
    s = make(
        {
            "tal.1": plain(TAL),
            "usmc.A": unit("x07y13", 0, down=1),
            "usmc.B": unit("x07y11", 1, down=1, support=[], status=["medic"]),
            "usmc.C": unit("x07y31", 1, down=1, support=[]),
        },
        rules="quick", initiative="usmc", portion="non_initiative",
    )  # fmt: skip
    script(s, [1, 3, 3, 3])  # initiative: 0D6 v 1D8 (two active Marine units); casualties A, B, C
    s.apply("pass")
    assert s.turn == 2 and dice_used(s) == 4
    assert figures(s, "usmc.A") == {"light": 1}
    assert figures(s, "usmc.B") == {"ok": 1, "light": 1}
    assert figures(s, "usmc.C") == {"ok": 1, "serious": 1}


def test_fog_4_reinforcements_without_kia_have_no_effect():
    """000_294bccfd88f0ebda.txt: "4 Where'd THEY Come From? (Taliban) ... If there are no KIA figures, this
    result has no effect." """
    s = fog(4)
    assert fog_events(s) == [(4, "reinforcements_taliban", "")]
    assert s.decision_kind == "fire_target" and not s.active(uid("tal.R"))
    assert dice_used(s) == 3


def test_fog_4_kia_return_on_the_east_edge():
    """000_294bccfd88f0ebda.txt: "Reinforcements arrive. Any KIA figures removed from the board return
    anywhere on the East board edge as reinforcements." R29: they form ``tal.R`` (D6, no support) on a
    point of the Taliban's choice."""
    s = fog(4, extra={"tal.2": unit("x29y29", 1, kia=3)})
    assert s.decision_kind == "reinforce_point" and s.current_player == 0
    assert s.legal_action_strings() == [f"x35y{y:02d}" for y in range(1, 36, 2)]
    s.apply("x35y05")
    r = uid("tal.R")
    assert s.table.name(s.pos[r]) == "x35y05" and figures(s, "tal.R") == {"ok": 3}
    assert (s.tq[r], s.support[r]) == (6, ())
    assert figures(s, "tal.2") == {"ok": 1, "gone": 3}


def test_fog_4_kia_join_reinforcements_already_on_the_table():
    """000_294bccfd88f0ebda.txt: "Any KIA figures removed from the board return anywhere on the East board
    edge as reinforcements." R29: if ``tal.R`` is on the table they join it (no new point)."""
    s = fog(4, extra={"tal.2": unit("x29y29", 1, kia=2), "tal.R": unit("x35y21", 2)})
    assert figures(s, "tal.R") == {"ok": 4} and s.table.name(s.pos[uid("tal.R")]) == "x35y21"
    assert s.decision_kind == "fire_target"


@pytest.mark.parametrize(("roller", "amped"), [("usmc", [0, 1]), ("taliban", [1, 0])])
def test_fog_5_amped_up_for_the_rollers_side(roller, amped):
    """000_294bccfd88f0ebda.txt: "5 Amped Up! Your force's squad and platoon level leaders are doing a
    fine job ... Your units receive a +1 to all Reaction tests for the duration of the game." R29: "your"
    is the side whose unit rolled the 1."""
    s = fog(5, roller=roller)
    assert s.amped == amped
    assert fog_events(s) == [(5, "amped_up", roller)]


def test_fog_5_amped_up_adds_one_to_later_reaction_tests():
    """000_294bccfd88f0ebda.txt: "Your units receive a +1 to all Reaction tests for the duration of the
    game." tal.2's 3 becomes a passing 4: it fires before usmc.B's move."""
    s = fog(5, roller="taliban", extra={"tal.2": plain("x21y21")})
    s.apply("pass")  # usmc.A does not fire after its move
    s.apply("usmc.B")
    s.apply("move")
    s.apply("x07y23")
    assert s.decision.context["unit"] == "tal.2"  # tal.1 failed its test: it stopped trying
    script(s, [2, 3, 1, 1, 1, 1, 1])  # tests; tal.2 2D6 at usmc.B (3D8 defence)
    s.apply("interrupt_fire")
    tests = {e.unit: (e.die, e.modified, e.passed) for e in events(s, ev.ReactionTest)}
    assert tests["tal.2"] == (3, 4, True)
    assert order(s)[-1] == "tal.2>usmc.B"


def test_fog_6_tougher_than_they_look():
    """000_294bccfd88f0ebda.txt: "6 Tougher than they Look! (Taliban) One Taliban unit of the Taliban
    player's choice is more skilled than reports indicated. Bump that unit up to a TQ D8 for the
    remainder of the game. No further increases are allowed on the same unit if this result is rolled
    more than once." tal.2 was bumped already: only tal.1 is offered."""
    s = fog(6, extra={"tal.2": unit("x21y21", 2, support=[], tq=8, status=["tougher"])})
    assert s.decision_kind == "fog_of_war_unit" and s.current_player == 0
    assert s.legal_action_strings() == ["tal.1"]
    s.apply("tal.1")
    t = uid("tal.1")
    assert (s.tq[t], s.tough[t]) == (8, 1)
    assert fog_events(s) == [(6, "tougher_than_they_look", "tal.1")]


def test_fog_6_not_twice_on_the_same_unit():
    """000_294bccfd88f0ebda.txt: "No further increases are allowed on the same unit if this result is
    rolled more than once." With every Taliban unit already bumped, nothing happens."""
    s = fog(6, extra={"tal.1": unit(TAL, 2, support=[], tq=8, status=["tougher"])})
    assert s.decision_kind == "fire_target"
    assert s.tq[uid("tal.1")] == 8
    assert fog_events(s) == [(6, "tougher_than_they_look", "")]


def test_fog_7_incoming_on_a_random_usmc_unit():
    """000_294bccfd88f0ebda.txt: "7 Incoming! (USMC) A USMC unit is hit by Taliban mortar fire. Randomly
    determine the unit that is hit by the rounds. The affected unit is struck with an attack of 6D6."
    A D2 picks usmc.A (1) of the two; 6D6 v min(2, 6) + 1 armor = 3D8: two hits wipe it out, so its
    move never happens (R16)."""
    s = fog(7, [1, 6, 6, 1, 1, 1, 1, 1, 1, 1])
    assert fog_events(s) == [(7, "incoming_usmc", "usmc.A")]
    shot = fires(s)[0]
    assert (shot.shooter, shot.target, shot.firepower, shot.defense, shot.casualties) == (
        "mortar fire", "usmc.A", 6, 3, 2)  # fmt: skip
    assert figures(s, "usmc.A") == {"down": 2}
    assert order(s) == ["mortar fire>usmc.A"]
    assert dice_used(s) == 13
    assert s.decision_kind == "select_unit" and s.legal_action_strings() == ["usmc.B", "pass"]


def test_fog_9_incoming_on_a_random_taliban_unit():
    """000_294bccfd88f0ebda.txt: "9 Incoming! (Taliban) A Taliban unit is hit by short rounds from Taliban
    mortars. Randomly determine the unit that is hit by the rounds. The affected unit is struck with an
    attack of 6D6." One Taliban unit: no die to pick it. 6D6 v 2D6: one hit, then the morale check
    (1D10 for the survivor: 1, failed: pinned)."""
    s = fog(9, [6, 1, 1, 1, 1, 1, 1, 1, 1])
    assert fog_events(s) == [(9, "incoming_taliban", "tal.1")]
    assert fires(s)[0].casualties == 1
    assert s.pinned[uid("tal.1")] == 1
    assert dice_used(s) == 12


def test_fog_9_random_unit_among_active_taliban_units():
    """000_294bccfd88f0ebda.txt: "Randomly determine the unit that is hit by the rounds." R29: a die with
    one face per active unit (tal.1, tal.2: a 2 picks tal.2)."""
    s = fog(9, [2] + [1] * 8, extra={"tal.2": plain("x21y21")})
    assert fog_events(s) == [(9, "incoming_taliban", "tal.2")]
    assert dice_used(s) == 12


def pass_to_turn_two(s):
    """From the Fog of War window: no fire after the move, both sides end their activations."""
    s.apply("pass")  # usmc.A does not fire after its move
    s.apply("pass")  # the Marines end their activations
    script(s, [1])  # turn 2 initiative: 0D6 (one Taliban unit) v 1D8
    s.apply("pass")  # the Taliban end theirs
    assert s.turn == 2


def test_fog_8_mad_minute_this_turn_only():
    """000_294bccfd88f0ebda.txt: "8 Mad Minute! (USMC) ... Randomly determine which unit is affected. That
    unit receives one extra Firepower die for all attacks or Reactions for the rest of the turn." """
    s = fog(8, [2])
    b = uid("usmc.B")
    assert fog_events(s) == [(8, "mad_minute_usmc", "usmc.B")]
    assert s.mad[b] == 1 and s.fire_capacity(b) == 3  # 2 figures + 1
    pass_to_turn_two(s)
    assert s.mad[b] == 0 and s.fire_capacity(b) == 2


def test_fog_10_ammunition_for_the_rest_of_the_game():
    """000_294bccfd88f0ebda.txt: "10 Praise the Lord and Pass the Ammunition (USMC) A supply SNAFU has left
    your units low on ammo. Randomly select one USMC unit. That unit roll one Firepower die less for the
    remainder of the game." """
    s = fog(10, [1])
    a = uid("usmc.A")
    assert fog_events(s) == [(10, "ammunition_usmc", "usmc.A")]
    assert s.ammo[a] == 1 and s.fire_capacity(a) == 1
    pass_to_turn_two(s)
    assert s.ammo[a] == 1 and s.fire_capacity(a) == 1
