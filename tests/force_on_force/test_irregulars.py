"""The ``irregulars`` rule module (rulings R37-R39) on "Compound Raid" positions.

Seed: 003_b1b2d2a6d4b3bab2.txt, "Rounds of Fire": "Note that irregular units may only participate in a
round of fire that they have initiated by action or reaction. Otherwise, they must receive fire without
responding to it. Since an irregular unit can only be activated or react once per turn, they can only
engage in one Round of Fire per turn." and "Cover Dice": "Regular units are automatically In Cover on any
activation that they do not move and are not Exposed. Irregulars that have not moved during their
activation and Exposed Regular units must pass a Quality Check to get 'In Cover.'"

Every test stands on an open 36" x 36" table with a wall behind each firing line (x 1 and x 35), so the
units at x 3 and x 33 are not Exposed and no wall crosses a line of fire; the units carry no support
weapons, so firepower is figures + Well Supplied (British, +1) / - Poorly Supplied (militia, -1) and,
beyond Optimum Range, nothing else. The same positions with ``irregulars=False`` (the militia as
regulars) show the difference. The dice of a reaction window: one reaction-test die per unit in it
(the actor first), then each shot's firepower and defence dice; all 1s (misses) unless said.
"""

from __future__ import annotations

from .helpers import decline_reactions, dice_used, fires, order, script, unit
from .raid_helpers import BRITISH, MILITIA, raid_state, rid

BRIT_A, BRIT_B = "x03y11", "x03y21"  # 30" and 31.6" from the militia at x33y11: beyond every Optimum Range
MIL_2, MIL_1 = "x33y11", "x33y21"


def _duel(irregulars: bool = True, **kw):
    """brit.A (4 rifles, D10, armour, Well Supplied) at x03y11 v mil.2 (6 AKs, D6, Poorly Supplied) at
    x33y11, and mil.1 (3 AKs) at x33y21."""
    units = {"brit.A": unit(BRIT_A, 4, support=[]), "mil.2": unit(MIL_2, 6, support=[]),
             "mil.1": unit(MIL_1, 3, support=[])}  # fmt: skip
    units.update(kw.pop("extra", {}))
    return raid_state(units, irregulars=irregulars, **kw)


# ------------------------------------------------------------------ R37: no answer to fire
def test_an_irregular_target_may_not_fire_back():
    """003: "they must receive fire without responding to it": brit.A fires at mil.2, which is asked only
    whether to make a reaction move; as regulars (``irregulars=False``) it could fire back."""
    s = _duel()
    for action in ("brit.A", "fire", "mil.2", "pass"):  # no split fire
        s.apply(action)
    assert s.decision_kind == "declare_interrupt" and s.current_player == MILITIA
    assert s.queue[0] == rid(s, "mil.1")  # mil.1, not fired on, may start a round of its own (below)
    s.apply("pass")
    assert s.queue[0] == rid(s, "mil.2") and s.legal_action_strings() == ["pass", "interrupt_move"]
    script(s, [1] * 10)  # 5D10 (4 figures + Well Supplied) against 5D6
    s.apply("pass")
    assert [(f.shooter, f.target, f.firepower) for f in fires(s)] == [("brit.A", "mil.2", 5)]
    assert s.decision_kind == "move_target" and s.decision.context["after_fire"]  # no return fire
    assert dice_used(s) == 10

    regular = _duel(irregulars=False)
    for action in ("brit.A", "fire", "mil.2", "pass", "pass"):
        regular.apply(action)
    assert regular.legal_action_strings() == ["pass", "interrupt_fire", "interrupt_move"]


def test_an_irregular_unit_may_start_a_round_of_fire_by_reaction():
    """003: "a round of fire that they have initiated by action or reaction": mil.1, not fired on,
    interrupts brit.A's fire at mil.2 with fire of its own (reaction tests brit.A 2, mil.1 5: mil.1
    fires first). Its round is answered: brit.A may fire back (R17). mil.1: 3 AKs - Poorly Supplied =
    2D6; brit.A: 2 (basic, at most the incoming 2D) + 1 armour + 1 In Cover = 4D10."""
    s = _duel()
    for action in ("brit.A", "fire", "mil.2", "pass"):
        s.apply(action)
    assert s.legal_action_strings() == ["pass", "interrupt_fire", "interrupt_move"]
    s.apply("interrupt_fire")
    script(s, [2, 5] + [1] * 6)
    s.apply("pass")  # mil.2 (the target) may not fire back
    assert order(s) == ["mil.1>brit.A"]
    assert [(f.firepower, f.defense) for f in fires(s)] == [(2, 4)]
    assert s.decision_kind == "return_fire" and s.current_player == BRITISH
    context = s.decision.context
    assert (context["unit"], context["fired_on_by"]) == ("brit.A", "mil.1")
    assert dice_used(s) == 8


def test_an_irregular_unit_fired_on_by_an_interrupter_is_not_asked_to_return_fire():
    """003: "Otherwise, they must receive fire without responding to it": mil.2 (militia initiative) fires
    at brit.A; brit.B interrupts and shoots mil.2 first (tests mil.2 2, brit.B 6). Regular mil.2 would
    be asked to fire back at brit.B (R17); irregular mil.2 is not, and makes the fire it started.
    brit.B: 4 rifles + Well Supplied = 5D10 against 5D6 (irregular: no In Cover, R39; regular: 6D6);
    mil.2: 6 AKs - Poorly Supplied = 5D6 against brit.A's 4 + 1 armour + 1 In Cover = 6D10."""
    extra = {"brit.B": unit(BRIT_B, 4, support=[])}
    s = _duel(extra=extra, initiative="militia")
    for action in ("mil.2", "fire", "brit.A", "pass"):
        s.apply(action)
    script(s, [2, 6] + [1] * 10 + [1] * 11)
    s.apply("interrupt_fire")
    assert order(s) == ["brit.B>mil.2", "mil.2>brit.A"]
    assert [(f.firepower, f.defense) for f in fires(s)] == [(5, 5), (5, 6)]
    assert s.decision_kind == "return_fire" and s.decision.context["unit"] == "brit.A"  # the regular target
    assert dice_used(s) == 23

    regular = _duel(irregulars=False, extra=extra, initiative="militia")
    for action in ("mil.2", "fire", "brit.A", "pass"):
        regular.apply(action)
    script(regular, [2, 6] + [1] * 11)
    regular.apply("interrupt_fire")
    assert order(regular) == ["brit.B>mil.2"]
    assert regular.decision_kind == "return_fire" and regular.decision.context["unit"] == "mil.2"


# ------------------------------------------------------------------ R38: once per turn
def _british_move_fired_on(s, mover: str, dest: str) -> None:
    """``mover`` moves to ``dest``; mil.2 interrupts with fire and wins the test (mover 2, mil.2 5);
    its 5D6 against the mover's 6D10 miss; the mover does not fire back nor fire after its move."""
    for action in (mover, "move", dest):
        s.apply(action)
    script(s, [2, 5] + [1] * 11)
    s.apply("interrupt_fire")
    s.apply("pass")  # no return fire
    s.apply("pass")  # no fire after the move


def test_an_irregular_unit_that_reacted_is_not_asked_again_this_turn():
    """003: "an irregular unit can only be activated or react once per turn": mil.2 has fired at brit.A's
    move; brit.B's move is not offered to it (no window at all), where a regular unit may keep firing."""
    extra = {"brit.B": unit(BRIT_B, 4, support=[])}
    s = _duel(extra=extra)  # mil.1 at x33y21 sees both movers too: it passes
    _british_move_fired_on_with_mil1_passing(s, "brit.A", "x05y11")
    assert (s.reacted[rid(s, "mil.2")], s.fires[rid(s, "mil.2")]) == (1, 1)
    for action in ("brit.B", "move"):
        s.apply(action)
    script(s, [])
    s.apply("x05y21")
    assert s.decision_kind == "declare_interrupt" and s.queue == [rid(s, "mil.1")]  # only mil.1 is asked
    s.apply("pass")
    assert s.decision_kind == "fire_target" and dice_used(s) == 0

    regular = _duel(irregulars=False, extra=extra)
    _british_move_fired_on_with_mil1_passing(regular, "brit.A", "x05y11")
    for action in ("brit.B", "move", "x05y21", "pass"):
        regular.apply(action)
    assert regular.decision_kind == "declare_interrupt" and regular.queue[0] == rid(regular, "mil.2")


def _british_move_fired_on_with_mil1_passing(s, mover: str, dest: str) -> None:
    """As :func:`_british_move_fired_on`, mil.1 (asked first, in unit order) passing."""
    for action in (mover, "move", dest, "pass"):
        s.apply(action)
    script(s, [2, 5] + [1] * 11)
    s.apply("interrupt_fire")
    decline_reactions(s)  # no return fire
    s.apply("pass")  # no fire after the move


def test_an_irregular_overwatch_unit_fires_once_per_turn():
    """003: "they can only engage in one Round of Fire per turn": mil.2 on Overwatch (militia initiative)
    fires at brit.A moving in the British portion; when brit.B moves, it is not asked again. A regular
    Overwatch unit is (each fire costs it a die)."""
    s = _overwatch_duel(True)
    _british_move_fired_on(s, "brit.A", "x05y11")
    assert s.reacted[rid(s, "mil.2")] == 1
    for action in ("brit.B", "move"):
        s.apply(action)
    script(s, [])
    s.apply("x05y21")
    assert s.decision_kind == "fire_target" and dice_used(s) == 0

    regular = _overwatch_duel(False)
    _british_move_fired_on(regular, "brit.A", "x05y11")
    for action in ("brit.B", "move", "x05y21"):
        regular.apply(action)
    assert regular.decision_kind == "declare_interrupt" and regular.legal_action_strings() == ["pass", "interrupt_fire"]


def _overwatch_duel(irregulars: bool):
    units = {"brit.A": unit(BRIT_A, 4, support=[]), "brit.B": unit(BRIT_B, 4, support=[]),
             "mil.2": unit(MIL_2, 6, support=[], status=["overwatch"])}  # fmt: skip
    return raid_state(units, irregulars=irregulars, initiative="militia", portion="non_initiative")


def test_an_irregular_unit_that_failed_its_reaction_test_may_still_activate():
    """R38 with R18: a failed reaction test did nothing (000 "If the non-initiative unit rolls less than a
    4, no interruption takes place"), so it is not the unit's reaction of the turn: mil.2 fails (3) and
    is offered in the militia's own portion."""
    s = raid_state({"brit.A": unit(BRIT_A, 4, support=[]), "mil.2": unit(MIL_2, 6, support=[])})
    for action in ("brit.A", "move", "x05y11"):
        s.apply(action)
    script(s, [5, 3])
    s.apply("interrupt_fire")
    assert (s.failed[rid(s, "mil.2")], s.reacted[rid(s, "mil.2")]) == (1, 0)
    s.apply("pass")  # no fire after the move; no British unit is left to activate
    assert s.decision_kind == "select_unit" and s.current_player == MILITIA
    assert s.legal_action_strings() == ["mil.2", "pass"]


# ------------------------------------------------------------------ R39: In Cover
def test_an_irregular_unit_is_never_in_cover_automatically():
    """003: "Regular units are automatically In Cover on any activation that they do not move and are not
    Exposed. Irregulars that have not moved ... must pass a Quality Check": unmoved mil.2, not Exposed,
    defends brit.A's 5D10 with 5D6 (basic 5, no In Cover); as a regular unit with 6D6."""
    for irregulars, defence in ((True, 5), (False, 6)):
        s = _duel(irregulars=irregulars, extra={})
        for action in ("brit.A", "fire", "mil.2", "pass"):
            s.apply(action)
        script(s, [1] * (5 + defence))
        decline_reactions(s)
        assert [(f.firepower, f.defense) for f in fires(s)] == [(5, defence)]
        assert dice_used(s) == 5 + defence


def test_an_irregular_unit_that_holds_takes_a_quality_check_for_in_cover():
    """003: "Irregulars that have not moved during their activation ... must pass a Quality Check to get
    'In Cover'": mil.2 holds and rolls its D6 (4: In Cover; 3: not). Then brit.A's 5D10 meets 5 + 1 In
    Cover = 6D6. A regular unit that is not Exposed rolls nothing: it is In Cover already (R23)."""
    for roll, in_cover in ((4, 1), (3, 0)):
        s = raid_state({"brit.A": unit(BRIT_A, 4, support=[]), "mil.2": unit(MIL_2, 6, support=[])},
                       initiative="militia")  # fmt: skip
        s.apply("mil.2")
        script(s, [roll])
        s.apply("hold")
        assert s.in_cover[rid(s, "mil.2")] == in_cover and dice_used(s) == 1
    assert s.decision_kind == "select_unit" and s.current_player == BRITISH  # the militia portion is over
    s = raid_state({"brit.A": unit(BRIT_A, 4, support=[]), "mil.2": unit(MIL_2, 6, support=[])},
                   initiative="militia")  # fmt: skip
    s.apply("mil.2")
    script(s, [4])
    s.apply("hold")
    s.apply("brit.A")
    s.apply("fire")
    script(s, [1] * 11)
    s.apply("mil.2")  # mil.2 (initiative side, irregular) is asked nothing: the fire resolves at once
    assert [(f.firepower, f.defense) for f in fires(s)] == [(5, 6)] and dice_used(s) == 11

    regular = raid_state({"brit.A": unit(BRIT_A, 4, support=[]), "mil.2": unit(MIL_2, 6, support=[])},
                         initiative="militia", irregulars=False)  # fmt: skip
    regular.apply("mil.2")
    script(regular, [])
    regular.apply("hold")
    assert dice_used(regular) == 0 and regular.in_cover[rid(regular, "mil.2")] == 0


# ------------------------------------------------------------------ R52: support weapons after casualties
def test_irregular_survivors_pick_up_their_support_weapons():
    """R52: 000_294bccfd88f0ebda.txt: "If the grenadier gets hit, someone will pick up his launcher." (R20) holds
    for irregulars too: 003 lists what they may not do ("they must receive fire without responding to it",
    "can only be activated or react once per turn") and nothing of their weapons. mil.2 (an RPG, Medium,
    and an RPD, Light) has lost 4 of its 6 men: the 2 left work both weapons. At brit.A, 6" away and
    Exposed: 2 + 2 (RPG) + 1 (RPD) + 1 Optimum Range (the gunners' 12") + 1 Exposed - 1 Poorly Supplied =
    6D6, as when the militia are regulars; brit.A defends with min(4, 6) + 1 armour = 5D10."""
    for irregulars in (True, False):
        s = raid_state({"brit.A": unit("x27y17", 4, support=[]), "mil.2": unit("x33y17", 2, kia=4)},
                       initiative="militia", irregulars=irregulars)  # fmt: skip
        assert s.usable_support(rid(s, "mil.2")) == [2, 1]
        for action in ("mil.2", "fire", "brit.A"):
            s.apply(action)
        script(s, [1] * (6 + 5))
        decline_reactions(s)
        assert [(f.shooter, f.firepower, f.defense) for f in fires(s)] == [("mil.2", 6, 5)]
        assert dice_used(s) == 6 + 5
