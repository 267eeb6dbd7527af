"""Interrupts, reactions, rounds of fire and Overwatch (rulings R14-R19).

Seeds: 000_294bccfd88f0ebda.txt ("Can the USMC player shoot back?", "What can the interrupting
unit do?", "Is there any way to keep opponents from interrupting my own actions?", "Can more
than one unit interrupt an initiative unit?") and 003_b1b2d2a6d4b3bab2.txt ("Rounds of Fire",
"Rapid Movement").

Every test stands on the open table under the quick rules (so firepower is figures + support
+ Optimum Range and defence is min(figures, firepower) + armor: the arithmetic is visible in
the scripted dice), except where the full rules are the point. The dice of a reaction window
come in this order: one reaction-test die per unit in the window (the actor first, then the
reactors in unit order, then Overwatch), then each shot's firepower dice and defence dice.
All firepower and defence dice below are 1s (misses) unless a hit is the point.
"""

import pytest

from fof_env.force_on_force import events as ev

from .helpers import (
    area,
    decline_reactions,
    dice_used,
    events,
    fires,
    make,
    order,
    script,
    table_with,
    uid,
    unit,
    woods,
)

SEED = "000_294bccfd88f0ebda.txt"
FULL = "003_b1b2d2a6d4b3bab2.txt"

TAL = "x21y11"  # tal.1 starts here ...
USMC = "x07y11"  # ... 14" from usmc.A: beyond both Optimum Ranges (D6: 6", D8: 8")
STEP = "x15y11"  # a 6" Tactical move of tal.1, ending 8" from usmc.A: inside the Marines' 8"


def duel(extra=None, **kw):
    """tal.1 (2 AK, D6) at x21y11 and usmc.A (2 M-16, D8, body armor) at x07y11, Taliban initiative.

    Quick-rules arithmetic: usmc.A fires 2D8 at 14" (3D8 within 8"); tal.1 defends with 2D6.
    tal.1 fires 2D6 at 14"; usmc.A defends with 2D8 + 1D8 body armor = 3D8.
    """
    units = {"tal.1": unit(TAL, 2, support=[]), "usmc.A": unit(USMC, 2, support=[])}
    units.update(extra or {})
    kw.setdefault("initiative", "taliban")
    kw.setdefault("rules", "quick")
    return make(units, **kw)


def rtests(state) -> dict[str, tuple[int, int, bool]]:
    return {e.unit: (e.die, e.modified, e.passed) for e in state.events if isinstance(e, ev.ReactionTest)}


# ------------------------------------------------------------------ interrupting a move
def test_interrupt_winner_fires_before_the_move_at_the_start_point():
    """000_294bccfd88f0ebda.txt: "the non-initiative player ... can always attempt to interrupt the
    actions of the initiative player ... both players roll one TQ die; the higher die who also rolls
    4+ goes first" and "If the interrupting unit won the TQ roll, it may fire before the initiative
    unit. ... The defending initiative unit, if it survives, may continue its action". R16: it fires
    at wherever the actor is when its turn comes, here the start point 14" away (2D8, no Optimum
    Range die)."""
    s = duel()
    s.apply("tal.1")
    s.apply("move")
    # reaction tests tal.1 3, usmc.A 5; usmc.A's 2D8; tal.1's 2D6 defence
    script(s, [3, 5, 1, 1, 1, 1])
    s.apply(STEP)
    assert s.decision_kind == "declare_interrupt" and s.current_player == 1
    assert s.legal_action_strings() == ["pass", "interrupt_fire", "interrupt_move"]
    assert dice_used(s) == 0  # nothing is rolled before every reactor has declared
    s.apply("interrupt_fire")
    assert rtests(s) == {"tal.1": (3, 3, False), "usmc.A": (5, 5, True)}
    assert order(s) == ["usmc.A>tal.1"]
    assert fires(s)[0].firepower == 2  # fired at x21y11, 14" away
    assert s.decision_kind == "return_fire"  # the actor, fired on, may answer (R17)
    s.apply("pass")
    assert order(s) == ["usmc.A>tal.1", "move tal.1"]  # then the move goes on
    assert s.pos[uid("tal.1")] == s.table.index(STEP)
    assert s.decision_kind == "fire_target" and s.decision.context["after_move"]
    assert dice_used(s) == 6
    assert (s.fires[uid("usmc.A")], s.reacted[uid("usmc.A")], s.failed[uid("usmc.A")]) == (1, 1, 0)


def test_interrupt_loser_fires_after_the_move_at_the_destination():
    """000_294bccfd88f0ebda.txt: "the higher die who also rolls 4+ goes first" (tal.1 rolls 6, usmc.A
    5: the move comes first). R16: the interrupter then fires at the destination, 8" away: within the
    Marines' Optimum Range ("any target within 6" is within Optimal Range" for D6, 8" for D8): 3D8."""
    s = duel()
    s.apply("tal.1")
    s.apply("move")
    s.apply(STEP)
    script(s, [6, 5, 1, 1, 1, 1, 1])  # tests; 3D8; 2D6 defence
    s.apply("interrupt_fire")
    assert order(s) == ["move tal.1", "usmc.A>tal.1"]
    assert fires(s)[0].firepower == 3
    assert dice_used(s) == 7


def test_tie_goes_to_the_initiative_side():
    """000_294bccfd88f0ebda.txt: "In the event of a tie, the side with initiative completes its action
    before any interruptions." """
    s = duel()
    s.apply("tal.1")
    s.apply("move")
    s.apply(STEP)
    script(s, [5, 5, 1, 1, 1, 1, 1])
    s.apply("interrupt_fire")
    assert order(s) == ["move tal.1", "usmc.A>tal.1"]
    assert dice_used(s) == 7


def test_interrupter_rolling_below_4_does_nothing_and_stops_trying():
    """000_294bccfd88f0ebda.txt: "If the non-initiative unit rolls less than a 4, no interruption takes
    place." and "non-initiative units that have not rolled less than a 4 during previous interrupt,
    may keep firing": a failed interrupter is not asked again this turn (R15)."""
    s = duel({"tal.2": unit("x21y21", 2, support=[])})
    s.apply("tal.1")
    s.apply("move")
    s.apply(STEP)
    script(s, [3, 3])  # both fail: the actor still moves, the interrupter is dropped
    s.apply("interrupt_fire")
    assert order(s) == ["move tal.1"] and fires(s) == []
    assert s.failed[uid("usmc.A")] == 1 and s.reacted[uid("usmc.A")] == 0
    assert dice_used(s) == 2
    s.apply("pass")  # no fire after the move
    s.apply("tal.2")
    s.apply("move")
    script(s, [])
    s.apply("x19y21")  # usmc.A is not asked: no window, no dice
    assert s.decision_kind == "fire_target" and order(s)[-1] == "move tal.2"


def test_reaction_move_once_per_turn():
    """000_294bccfd88f0ebda.txt: "If the interrupting unit elects to move, it may move normally (either
    using Tactical or Rapid movement). The unit may use Reaction movement only once per turn, however." """
    s = duel({"tal.2": unit("x21y21", 2, support=[])})
    s.apply("tal.1")
    s.apply("move")
    s.apply(STEP)
    script(s, [3, 6])
    s.apply("interrupt_move")
    assert s.decision_kind == "move_target" and s.current_player == 1
    assert s.decision.context == {"turn": 1, "initiative": "taliban", "unit": "usmc.A", "reaction": True,
                                  "tactical_only": False, "after_fire": False}  # fmt: skip
    assert "x19y11" in s.legal_action_strings()  # Rapid: 12" allowed
    s.apply("x05y11")
    assert order(s) == ["move usmc.A", "move tal.1"]  # it won the test: it moves first
    assert (s.rmoves[uid("usmc.A")], s.reacted[uid("usmc.A")]) == (1, 1)
    s.apply("pass")  # tal.1 does not fire after its move
    s.apply("tal.2")
    s.apply("move")
    s.apply("x19y21")
    assert s.decision_kind == "declare_interrupt"
    assert s.legal_action_strings() == ["pass", "interrupt_fire"]  # no second reaction move


def test_each_fire_costs_a_die_and_an_empty_unit_cannot_fire():
    """000_294bccfd88f0ebda.txt: "Units on Overwatch, initiative units that are defending themselves
    against incoming fire, and non-initiative units that have not rolled less than a 4 during previous
    interrupt, may keep firing. They lose one die each time they fire. Once they have run out of dice,
    they may no longer fire." usmc.A (2D8) interrupts two moves: 2D8, then 1D8, then nothing."""
    s = duel({"tal.2": unit("x21y21", 2, support=[]), "tal.3": unit("x21y31", 2, support=[])})
    for actor, dest, dice in (("tal.1", STEP, [3, 5, 1, 1, 1, 1]), ("tal.2", "x19y21", [3, 5, 1, 1])):
        s.apply(actor)
        s.apply("move")
        s.apply(dest)
        script(s, dice)
        s.apply("interrupt_fire")
        assert dice_used(s) == len(dice)
        s.apply("pass")  # no return fire
        s.apply("pass")  # no fire after the move
    assert [f.firepower for f in fires(s)] == [2, 1]
    assert s.fires[uid("usmc.A")] == 2 and s.fire_capacity(uid("usmc.A")) == 0
    s.apply("tal.3")
    s.apply("move")
    s.apply("x19y31")
    assert s.legal_action_strings() == ["pass", "interrupt_move"]  # out of dice: no fire


# ------------------------------------------------------------------ rounds of fire
def test_target_fires_back_even_when_it_fails_its_test():
    """003_b1b2d2a6d4b3bab2.txt: "When one unit engages another with fire, either as an Action or
    Reaction, a Reaction test is made to see which unit fires first. The unit that passes the test with
    the highest die score will fire first. In the case of a tie (or if neither side passes the test
    with a 4+), the initiative unit will fire first. ... If the unit receiving fire first survives, it
    will return fire". R15/R17: the target's return fire is ordered by its test, never dropped."""
    s = duel({"tal.2": unit("x21y21", 2, support=[])})
    s.apply("tal.1")
    s.apply("fire")
    s.apply("usmc.A")
    assert s.decision_kind == "declare_interrupt" and s.decision.context["targets"] == ["usmc.A"]
    assert s.legal_action_strings() == ["pass", "interrupt_fire", "interrupt_move"]
    # tests 5 / 2; tal.1 2D6 at usmc.A (3D8 defence); usmc.A 2D8 at tal.1 (2D6 defence)
    script(s, [5, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    s.apply("interrupt_fire")
    assert rtests(s) == {"tal.1": (5, 5, True), "usmc.A": (2, 2, False)}
    assert order(s) == ["tal.1>usmc.A", "usmc.A>tal.1"]
    assert [(f.firepower, f.defense) for f in fires(s)] == [(2, 3), (2, 2)]
    assert s.failed[uid("usmc.A")] == 0  # a target firing back is not a failed interrupter
    assert s.reacted[uid("usmc.A")] == 1  # ... but it fired: it will not activate (R18)
    assert dice_used(s) == 11


def test_target_with_the_higher_passing_die_fires_first():
    """003_b1b2d2a6d4b3bab2.txt: "The unit that passes the test with the highest die score will fire
    first." usmc.A (6) fires before tal.1 (5) although tal.1 has the initiative and is the actor."""
    s = duel()
    s.apply("tal.1")
    s.apply("fire")
    s.apply("usmc.A")
    script(s, [5, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    s.apply("interrupt_fire")
    assert order(s) == ["usmc.A>tal.1", "tal.1>usmc.A"]
    assert dice_used(s) == 11


def test_neither_passes_initiative_fires_first():
    """003_b1b2d2a6d4b3bab2.txt: "In the case of a tie (or if neither side passes the test with a 4+),
    the initiative unit will fire first." usmc.A's 3 beats tal.1's 2, but neither passes."""
    s = duel()
    s.apply("tal.1")
    s.apply("fire")
    s.apply("usmc.A")
    script(s, [2, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    s.apply("interrupt_fire")
    assert order(s) == ["tal.1>usmc.A", "usmc.A>tal.1"]


@pytest.mark.parametrize("dice", [[5, 2], [5, 6]], ids=["actor_first", "target_first"])
def test_round_of_fire_is_complete_when_both_have_fired(dice):
    """003_b1b2d2a6d4b3bab2.txt: "If the unit receiving fire first survives, it will return fire ...
    When both units have fired, the round of fire is complete." R17: "Return fire is not itself
    answered." After tal.1 fired at usmc.A and usmc.A fired back, nobody is asked to fire again."""
    s = duel({"tal.2": unit("x21y21", 2, support=[])})
    s.apply("tal.1")
    s.apply("fire")
    s.apply("usmc.A")
    script(s, dice + [1] * 9)
    s.apply("interrupt_fire")
    assert len(fires(s)) == 2
    assert s.decision_kind == "select_unit"  # tal.2 is next; no third shot in this round


def test_actor_fired_on_by_an_interrupter_may_return_fire():
    """003_b1b2d2a6d4b3bab2.txt: "If the unit receiving fire first survives, it will return fire unless
    it has suffered some morale effect that prevents it from doing so, has been completely wiped out,
    or has no remaining Firepower dice." R17: the moving actor, hit by an interrupter, is asked
    ``return_fire``; its return fire costs a die like any fire."""
    s = duel()
    s.apply("tal.1")
    s.apply("move")
    s.apply(STEP)
    script(s, [3, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1])  # tests; usmc.A 2D8 / 2D6; tal.1 2D6 / 3D8
    s.apply("interrupt_fire")
    assert s.decision_kind == "return_fire" and s.current_player == 0
    assert s.decision.context["fired_on_by"] == "usmc.A" and s.decision.context["unit"] == "tal.1"
    assert s.legal_action_strings() == ["pass", "interrupt_fire"]
    s.apply("interrupt_fire")
    assert order(s) == ["usmc.A>tal.1", "tal.1>usmc.A", "move tal.1"]
    assert fires(s)[1].firepower == 2 and s.fires[uid("tal.1")] == 1
    assert dice_used(s) == 11
    assert s.decision_kind == "fire_target"  # 1D6 left to fire after the move
    assert s.fire_capacity(uid("tal.1")) == 1


def test_pinned_target_does_not_fire_back():
    """000_294bccfd88f0ebda.txt: "If the unit's morale check fails, the unit is pinned and may conduct no
    further actions until the end of the turn." usmc.A (3 Marines) loses 2 to tal.1's fire, fails its
    morale check (1D10: 1) and its declared return fire does not happen."""
    s = duel({"usmc.A": unit(USMC, 3, support=[]), "tal.2": unit("x21y21", 2, support=[])})
    s.apply("tal.1")
    s.apply("fire")
    s.apply("usmc.A")
    # tests 5 / 2; tal.1 2D6 = 6, 6; usmc.A defends min(3, 2) + 1 = 3D8, all 1s; morale 1D10 = 1
    script(s, [5, 2, 6, 6, 1, 1, 1, 1])
    s.apply("interrupt_fire")
    assert fires(s)[0].casualties == 2
    assert s.pinned[uid("usmc.A")] == 1
    assert order(s) == ["tal.1>usmc.A"]
    assert dice_used(s) == 8
    assert s.decision_kind == "select_unit" and s.legal_action_strings() == ["tal.2", "pass"]


# ------------------------------------------------------------------ who may react, who acts later
def test_pinned_units_cannot_react_or_act():
    """000_294bccfd88f0ebda.txt: "Non-initiative units may always attempt to interrupt unless they are
    pinned" and "the unit is pinned and may conduct no further actions until the end of the turn"."""
    s = duel(
        {"usmc.A": unit(USMC, 2, support=[], status=["pinned"]), "usmc.B": unit("x07y21", 2, support=[])}
    )
    s.apply("tal.1")
    s.apply("move")
    s.apply(STEP)
    assert s.decision.context["unit"] == "usmc.B"  # usmc.A is not asked
    s.apply("pass")
    s.apply("pass")  # no fire after the move
    assert s.decision_kind == "select_unit" and s.current_player == 1
    assert s.legal_action_strings() == ["usmc.B", "pass"]  # the pinned unit cannot act


def test_non_initiative_units_that_reacted_do_not_activate_but_failed_ones_do():
    """000_294bccfd88f0ebda.txt: "Once all the initiative player's units have performed their actions,
    any USMC units that did not move or fire using interruptions may now take their actions" (R18).
    Three Marine teams answer one move: usmc.A fails its test, usmc.B fires, usmc.C moves in reaction.
    Only usmc.A activates in the Marines' portion."""
    s = duel({"usmc.B": unit("x07y13", 2, support=[]), "usmc.C": unit("x07y09", 2, support=[])})
    s.apply("tal.1")
    s.apply("move")
    s.apply(STEP)
    s.apply("interrupt_fire")
    s.apply("interrupt_fire")
    # tests: tal.1 6, usmc.A 2 (fails), usmc.B 5, usmc.C 4; then usmc.B 2D8 (8.2" away) and 2D6 defence
    script(s, [6, 2, 5, 4, 1, 1, 1, 1])
    s.apply("interrupt_move")
    assert order(s) == ["move tal.1", "usmc.B>tal.1"]
    s.apply("pass")  # tal.1 does not return usmc.B's fire
    assert s.decision_kind == "move_target" and s.decision.context["unit"] == "usmc.C"
    s.apply("x05y09")
    s.apply("pass")  # tal.1 does not fire after its move
    assert dice_used(s) == 8
    a, b, c = uid("usmc.A"), uid("usmc.B"), uid("usmc.C")
    assert (s.failed[a], s.reacted[a], s.reacted[b], s.reacted[c]) == (1, 0, 1, 1)
    assert s.decision_kind == "select_unit" and s.to_position()["portion"] == "non_initiative"
    assert s.legal_action_strings() == ["usmc.A", "pass"]


def test_no_reactor_no_dice():
    """000_294bccfd88f0ebda.txt: "To determine who goes first in the interrupt, both players roll one TQ
    die". R15: when every reactor passes, nothing is rolled and the action simply happens."""
    s = duel()
    s.apply("tal.1")
    s.apply("move")
    s.apply(STEP)
    script(s, [])
    s.apply("pass")
    assert order(s) == ["move tal.1"] and dice_used(s) == 0


def test_the_actor_cannot_shoot_a_target_that_moved_out_of_sight():
    """000_294bccfd88f0ebda.txt: "All you need is clear line of sight to the target." usmc.A answers
    tal.1's fire with a reaction move, wins the reaction test and moves behind the house: tal.1's
    declared fire finds no target (mutation audit, issue 16: it once shot through the house)."""
    house = table_with(area("building", 12, 2, 18, 10, "house"))
    s = make({"tal.1": unit("x21y13", 2, support=[]), "usmc.A": unit("x07y13", 2, support=[])},
             table=house, initiative="taliban", rules="quick")  # fmt: skip
    assert s.table.los[s.pos[uid("tal.1")]][s.pos[uid("usmc.A")]] == 1
    s.apply("tal.1")
    s.apply("fire")
    s.apply("usmc.A")
    assert s.decision_kind == "declare_interrupt" and "interrupt_move" in s.legal_action_strings()
    script(s, [3, 5] + [1] * 20)  # reaction tests: tal.1 3, usmc.A 5: the Marines go first
    s.apply("interrupt_move")
    assert s.decision_kind == "move_target" and s.decision.context["reaction"]
    s.apply("x07y07")
    assert s.table.los[s.pos[uid("tal.1")]][s.pos[uid("usmc.A")]] == 0
    assert order(s) == ["move usmc.A"] and fires(s) == []  # the turn ends without a shot


# ------------------------------------------------------------------ Overwatch
def overwatch_duel(**kw):
    """USMC initiative: usmc.A on Overwatch at x07y11, usmc.B at x07y21, tal.1 at x21y11."""
    return duel(
        {"usmc.A": unit(USMC, 2, support=[], status=["overwatch"]), "usmc.B": unit("x07y21", 2, support=[])},
        initiative="usmc",
        **kw,
    )


def test_overwatch_units_do_not_activate_in_the_initiative_portion():
    """000_294bccfd88f0ebda.txt: "At the beginning of the turn, any initiative unit may declare it is
    going on Overwatch. It may not move during the subsequent turn and may only react to non-initiative
    interrupting units." """
    s = overwatch_duel()
    assert s.decision_kind == "select_unit" and s.current_player == 1
    assert s.legal_action_strings() == ["usmc.B", "pass"]


def test_overwatch_fires_at_an_interrupter():
    """000_294bccfd88f0ebda.txt: "It may fire in reaction to interruption attempts" and "One unit's action
    triggers several interrupts, then Overwatch units may choose to fire ... Fire (or movement) is
    resolved in order of die rolls, from highest to lowest." usmc.B moves, tal.1 interrupts, usmc.A
    (Overwatch) fires at tal.1: dice in declaration order (usmc.B, tal.1, usmc.A), shots by score."""
    s = overwatch_duel()
    s.apply("usmc.B")
    s.apply("move")
    s.apply("x09y21")
    assert s.decision_kind == "declare_interrupt" and s.decision.context["unit"] == "tal.1"
    s.apply("interrupt_fire")
    assert s.decision_kind == "overwatch_fire" and s.current_player == 1
    assert s.decision.context["unit"] == "usmc.A"
    assert s.legal_action_strings() == ["tal.1", "pass"]
    # tests: usmc.B 3, tal.1 5, usmc.A 6; usmc.A 2D8 at tal.1 (2D6 defence);
    # then tal.1 2D6 at usmc.B (3D8 defence), before usmc.B's move
    script(s, [3, 5, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    s.apply("tal.1")
    assert [(e.unit, e.role) for e in s.events if isinstance(e, ev.ReactionTest)] == [
        ("usmc.B", "actor"), ("tal.1", "interrupt_fire"), ("usmc.A", "overwatch_fire")]  # fmt: skip
    assert order(s) == ["usmc.A>tal.1"]
    assert s.decision_kind == "return_fire" and s.decision.context["unit"] == "tal.1"
    s.apply("pass")
    assert order(s) == ["usmc.A>tal.1", "tal.1>usmc.B"]
    assert s.decision_kind == "return_fire" and s.decision.context["unit"] == "usmc.B"
    s.apply("pass")
    assert order(s) == ["usmc.A>tal.1", "tal.1>usmc.B", "move usmc.B"]
    assert dice_used(s) == 12
    assert s.fires[uid("usmc.A")] == 1 and s.overwatch[uid("usmc.A")] == 1


def test_a_hidden_unit_on_overwatch_is_revealed_by_its_shot():
    """000_294bccfd88f0ebda.txt: "They remain Hidden so long as they do not move or fire." A Hidden
    Taliban team in the woods on Overwatch fires at a Marine team that interrupts tal.2's move: the
    shot gives it away (mutation audit, issue 16: it once stayed hidden)."""
    table = table_with(woods(26, 8, 32, 14))  # tal.1 stands 1" inside its west edge: it sees out
    units = {
        "tal.1": unit("x27y11", 2, support=[], status=["hidden", "overwatch"]),
        "tal.2": unit("x21y21", 2, support=[]),
        "usmc.A": unit(USMC, 2, support=[]),
    }
    s = make(units, initiative="taliban", rules="quick", table=table)
    assert s.hidden[uid("tal.1")] == 1 and s.legal_action_strings() == ["tal.2", "pass"]
    s.apply("tal.2")
    s.apply("move")
    s.apply("x21y19")
    s.apply("interrupt_fire")  # usmc.A fires at tal.2
    assert s.decision_kind == "overwatch_fire" and s.decision.context["unit"] == "tal.1"
    # tests: tal.2 6, usmc.A 5, tal.1 4; tal.2 moves; usmc.A 2D8 at tal.2 (2D6 defence);
    # tal.1 2D6 at usmc.A (3D8 defence); everything misses
    script(s, [6, 5, 4] + [1] * 20)
    s.apply("usmc.A")
    decline_reactions(s)
    assert "tal.1>usmc.A" in order(s)
    assert s.hidden[uid("tal.1")] == 0 and s.fires[uid("tal.1")] == 1
    assert s.visible_to(uid("tal.1"), 1)


def test_overwatch_is_not_asked_when_nobody_interrupts():
    """000_294bccfd88f0ebda.txt: Overwatch units "may only react to non-initiative interrupting units":
    when tal.1 lets usmc.B's move go, usmc.A on Overwatch has nothing to fire at and no die is rolled."""
    s = overwatch_duel()
    s.apply("usmc.B")
    s.apply("move")
    s.apply("x09y21")
    script(s, [])
    s.apply("pass")
    assert order(s) == ["move usmc.B"] and dice_used(s) == 0
    assert s.fires[uid("usmc.A")] == 0


def overwatch_interrupted(**kw):
    """overwatch_duel plus tal.2 (2 AK) at x21y21, on the open table."""
    extra = {"usmc.A": unit(USMC, 2, support=[], status=["overwatch"]), "usmc.B": unit("x07y21", 2, support=[]),
             "tal.2": unit("x21y21", 2, support=[])}  # fmt: skip
    return duel(extra, initiative="usmc", table=table_with(), **kw)


def test_overwatch_fire_may_itself_be_interrupted():
    """000_294bccfd88f0ebda.txt: "One unit's action triggers several interrupts, then Overwatch units may
    choose to fire, followed by more interrupts. Fire (or movement) is resolved in order of die rolls,
    from highest to lowest." R14: usmc.B moves; tal.1 interrupts, tal.2 lets it go; usmc.A (Overwatch)
    fires at tal.1; then tal.2, not yet in the window, is asked again and interrupts usmc.A's fire.
    Tests in declaration order: usmc.B 3, tal.1 5, usmc.A 4, tal.2 6, so tal.2 shoots first (at
    usmc.A), then tal.1 (at usmc.B), then usmc.A (at tal.1), then usmc.B moves."""
    s = overwatch_interrupted()
    s.apply("usmc.B")
    s.apply("move")
    s.apply("x09y21")
    s.apply("interrupt_fire")  # tal.1
    assert s.decision.context["unit"] == "tal.2" and "overwatch" not in s.decision.context
    s.apply("pass")  # tal.2, first time
    s.apply("tal.1")  # usmc.A's Overwatch fire
    assert s.decision_kind == "declare_interrupt" and s.current_player == 0
    assert s.decision.context["unit"] == "tal.2" and s.decision.context["overwatch"] == "usmc.A"
    assert s.legal_action_strings() == ["pass", "interrupt_fire"]  # no move: it interrupts a fire
    # tests; tal.2 2D6 at usmc.A (3D8); tal.1 2D6 at usmc.B (3D8); usmc.A 2D8 at tal.1 (2D6)
    script(s, [3, 5, 4, 6] + [1] * 5 + [1] * 5 + [1] * 4)
    s.apply("interrupt_fire")
    assert [(e.unit, e.role) for e in events(s, ev.ReactionTest)] == [
        ("usmc.B", "actor"), ("tal.1", "interrupt_fire"), ("usmc.A", "overwatch_fire"),
        ("tal.2", "interrupt_fire")]  # fmt: skip
    decline_reactions(s)
    assert order(s) == ["tal.2>usmc.A", "tal.1>usmc.B", "usmc.A>tal.1", "move usmc.B"]
    assert dice_used(s) == 4 + 5 + 5 + 4


def test_the_window_closes_after_the_interrupts_of_overwatch_fire():
    """R14: after the interrupts of the Overwatch fire nobody else declares: usmc.C, an Overwatch unit that
    let the first round go, is not asked about tal.2, and tal.1 (already in the window) is not asked
    again. Only return fire follows a shot."""
    extra = {"usmc.A": unit(USMC, 2, support=[], status=["overwatch"]), "usmc.B": unit("x07y21", 2, support=[]),
             "usmc.C": unit("x07y31", 2, support=[], status=["overwatch"]), "tal.2": unit("x21y21", 2, support=[])}  # fmt: skip
    s = duel(extra, initiative="usmc", table=table_with())
    s.apply("usmc.B")
    s.apply("move")
    s.apply("x09y21")
    s.apply("interrupt_fire")  # tal.1
    s.apply("pass")  # tal.2
    s.apply("tal.1")  # usmc.A fires at tal.1
    assert s.decision.context["unit"] == "usmc.C"
    s.apply("pass")  # usmc.C lets it go
    assert s.decision.context == {**s.decision.context, "unit": "tal.2", "overwatch": "usmc.A"}
    script(s, [3, 5, 4, 6] + [1] * 40)
    s.apply("interrupt_fire")
    kinds = []
    while s.decision_kind in ("return_fire", "declare_interrupt", "overwatch_fire"):
        kinds.append(s.decision_kind)
        s.apply("pass")
    assert set(kinds) == {"return_fire"}
    assert s.decision_kind == "fire_target" and s.decision.context["after_move"]  # usmc.B moved: its own fire


@pytest.mark.parametrize("hidden", [True, False])
def test_a_hidden_overwatch_unit_cannot_be_interrupted(hidden):
    """000_294bccfd88f0ebda.txt: Hidden units "may not be fired upon until they are spotted". R14, R27: a
    Hidden Overwatch unit's fire gives nobody a second chance to interrupt (the question would give
    it away); seen, the same unit's fire is open to usmc.B, which let the first round go."""
    status = ["hidden", "overwatch"] if hidden else ["overwatch"]
    extra = {"tal.1": unit("x17y11", 2, support=[], status=status),
             "tal.2": unit("x21y21", 2, support=[]), "usmc.B": unit("x07y21", 2, support=[])}  # fmt: skip
    s = duel(extra, initiative="taliban", table=table_with(woods(17, 7, 25, 15)))
    s.apply("tal.2")
    s.apply("move")
    s.apply("x19y21")
    s.apply("interrupt_fire")  # usmc.A
    s.apply("pass")  # usmc.B
    assert s.decision_kind == "overwatch_fire" and s.decision.context["unit"] == "tal.1"
    script(s, [1] * 40)
    s.apply("usmc.A")
    if hidden:
        assert s.decision_kind != "declare_interrupt"
    else:
        assert s.decision_kind == "declare_interrupt" and s.decision.context["unit"] == "usmc.B"
        assert s.decision.context["overwatch"] == "tal.1"


def test_overwatch_fires_during_the_non_initiative_portion():
    """000_294bccfd88f0ebda.txt: Overwatch "may also fire during the non-initiative player's portion of
    the turn" and "Remaining Non-Initiative Units ... This may trigger reactions from Overwatching or
    defending Initiative units". tal.1 (non-initiative) moves; usmc.A on Overwatch fires at it;
    usmc.B, not on Overwatch and not a target, is not asked."""
    s = overwatch_duel(portion="non_initiative")
    assert s.decision_kind == "select_unit" and s.current_player == 0
    s.apply("tal.1")
    s.apply("move")
    s.apply(STEP)
    assert s.decision_kind == "declare_interrupt" and s.decision.context["unit"] == "usmc.A"
    assert s.legal_action_strings() == ["pass", "interrupt_fire"]  # Overwatch units may not move
    script(s, [2, 6, 1, 1, 1, 1])  # tests tal.1 2, usmc.A 6; 2D8 at x21y11 (tal.1 had not moved yet)
    s.apply("interrupt_fire")
    assert order(s) == ["usmc.A>tal.1"]
    assert s.decision_kind == "return_fire"
    s.apply("pass")
    assert order(s) == ["usmc.A>tal.1", "move tal.1"]
    assert dice_used(s) == 6


def test_initiative_target_defends_itself_in_the_non_initiative_portion():
    """000_294bccfd88f0ebda.txt: "initiative units that are defending themselves against incoming fire
    ... may keep firing". In the Taliban portion tal.1 fires at usmc.B (initiative, not on Overwatch):
    usmc.B may fire back but may not move."""
    s = overwatch_duel(portion="non_initiative")
    s.apply("tal.1")
    s.apply("fire")
    s.apply("usmc.B")
    assert s.decision.context["unit"] == "usmc.A"
    s.apply("pass")
    assert s.decision.context["unit"] == "usmc.B"
    assert s.legal_action_strings() == ["pass", "interrupt_fire"]


# ------------------------------------------------------------------ reaction-test modifiers
def test_rapid_mover_reaction_test_minus_one():
    """003_b1b2d2a6d4b3bab2.txt: "Units that have moved rapidly receive a -1 penalty to all Reaction Test
    die rolls" (R19, full rules). usmc.A, which moved Rapid this turn, rolls 4: 3 after the penalty,
    so it fails to interrupt."""
    s = duel({"usmc.A": unit(USMC, 2, support=[], moved="rapid")}, rules="full")
    s.apply("tal.1")
    s.apply("move")
    s.apply(STEP)
    script(s, [3, 4])
    s.apply("interrupt_fire")
    assert rtests(s)["usmc.A"] == (4, 3, False)
    assert s.failed[uid("usmc.A")] == 1 and order(s) == ["move tal.1"]


def test_rapid_move_penalty_does_not_apply_under_the_quick_rules():
    """000_294bccfd88f0ebda.txt lists the Rapid-move costs as "Units that Rapid Move lose one Defensive
    Die when fired upon and a die of Firepower when shooting"; the reaction-test penalty is 003's (R19,
    R22): under the quick rules a 4 passes."""
    s = duel({"usmc.A": unit(USMC, 2, support=[], moved="rapid")})
    s.apply("tal.1")
    s.apply("move")
    s.apply(STEP)
    script(s, [3, 4, 1, 1])  # usmc.A passes: 2D8 - 1 (Rapid) = 1D8; tal.1 defends 1D6
    s.apply("interrupt_fire")
    assert rtests(s)["usmc.A"] == (4, 4, True)
    assert fires(s)[0].firepower == 1


def test_fog_of_war_needs_an_unmodified_one():
    """003_b1b2d2a6d4b3bab2.txt: "a player draws a Fog of War card if he rolls an unmodified "1" on a
    Reaction Test." (R19) usmc.A's 2, made 1 by its Rapid move, draws nothing: no D10 is rolled."""
    s = duel({"usmc.A": unit(USMC, 2, support=[], moved="rapid")}, rules="full", fog_of_war=True)
    s.apply("tal.1")
    s.apply("move")
    s.apply(STEP)
    script(s, [3, 2])
    s.apply("interrupt_fire")
    assert rtests(s)["usmc.A"] == (2, 1, False)
    assert events(s, ev.FogOfWar) == [] and dice_used(s) == 2
