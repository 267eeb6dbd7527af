"""The downed pilot, the air strike, capture and victory (rulings R3, R9, R30-R34).

Seed: 000_294bccfd88f0ebda.txt (scenario "Lost & Found": "USMC Mission", "USMC Victory Points",
"Taliban Victory Points", "The Downed Pilot", "What else do we need to do to start Turn 2?",
"How do we determine the winner?"). Quick rules on the open table; firepower and defence dice are
1s (misses) unless a hit is the point.
"""

import pytest

from fof_env.force_on_force import events as ev

from .helpers import dice_used, figures, game, make, position, script, table_with, uid, unit, woods

SEED = "000_294bccfd88f0ebda.txt"
PILOT = "x21y17"


def pilot_game(units, *, pilot=None, **kw):
    kw.setdefault("initiative", "usmc")
    kw.setdefault("rules", "quick")
    return make(units, pilot=pilot or {"at": PILOT}, **kw)


def plain(at, n=2, **kw):
    return unit(at, n, support=[], **kw)


def notes(state) -> list[str]:
    return [e.text for e in state.events if isinstance(e, ev.Note)]


def move(state, unit_name, dest):
    """Activate ``unit_name`` and move it to ``dest``; every reactor lets it go."""
    state.apply(unit_name)
    state.apply("move")
    state.apply(dest)
    while state.decision_kind == "declare_interrupt":
        state.apply("pass")


# ------------------------------------------------------------------ contact
def test_contact_by_ending_a_move_within_two_inches():
    """000_294bccfd88f0ebda.txt: "One of Charlie Squad's fireteams must make contact with the downed pilot
    by moving into cohesion distance." and "USMC fireteam makes contact with pilot = 3 VP". R3: a unit
    and the pilot are in contact when their points are at most 2" apart."""
    s = pilot_game({"tal.1": plain("x33y05"), "usmc.A": plain("x11y17")})
    assert s.victory_points() == (0, 0)
    move(s, "usmc.A", "x19y17")  # 2" west of the pilot
    assert (s.contact, s.pilot_unit) == (1, uid("usmc.A"))
    assert "usmc.A makes contact with the pilot" in notes(s)
    assert s.victory_points() == (0, 3) and s.score["usmc_vp"] == 3


def test_pilot_stands_with_the_team_that_contacts_him():
    """000_294bccfd88f0ebda.txt: "The pilot can be moved as part of that fireteam." Once with usmc.A he is
    where usmc.A is (the position format says so: ``pilot.with`` puts him on the team's point), so the
    position written after the contact reads back unchanged."""
    s = pilot_game({"tal.1": plain("x33y05"), "usmc.A": plain("x11y17"), "usmc.B": plain("x05y05")})
    move(s, "usmc.A", "x19y17")
    s.apply("pass")  # no fire after the move
    assert s.decision_kind == "select_unit"
    assert s.pilot_pos == s.pos[uid("usmc.A")]
    p = s.to_position()
    assert game(rules="quick", fog_of_war=False).state_from_position(p).to_position() == p


def test_no_contact_beyond_two_inches():
    """000_294bccfd88f0ebda.txt: "make contact with the downed pilot by moving into cohesion distance". R3:
    the diagonal neighbour (2.83") is not in contact."""
    s = pilot_game({"tal.1": plain("x33y05"), "usmc.A": plain("x11y17")})
    move(s, "usmc.A", "x19y19")
    assert (s.contact, s.pilot_unit) == (0, -1)
    assert s.pilot_pos == s.table.index(PILOT)


def test_pilot_moves_with_his_team_and_contact_counts_once():
    """000_294bccfd88f0ebda.txt: "The pilot can be moved as part of that fireteam." and "USMC fireteam
    makes contact with pilot = 3 VP" (R32: counted once)."""
    s = pilot_game({"tal.1": plain("x33y05"), "usmc.A": plain("x11y17"), "usmc.B": plain("x05y05")})
    move(s, "usmc.A", "x19y17")
    s.apply("pass")  # no fire after the move
    s.apply("pass")  # end of the Marines' activations
    script(s, [1, 1])  # turn 2 initiative: 0D6 v 1D8 ... the air strike is not called
    s.apply("pass")  # the Taliban do nothing
    assert s.decision_kind == "call_airstrike"
    s.apply("pass")
    s.apply("pass")  # no Overwatch
    move(s, "usmc.A", "x13y17")
    assert s.pilot_pos == s.table.index("x13y17") and s.pilot_unit == uid("usmc.A")
    assert s.victory_points() == (0, 3)


# ------------------------------------------------------------------ hand-off
def test_hand_off_to_a_team_in_contact():
    """000_294bccfd88f0ebda.txt: "He may be handed off to another Marine fireteam if the two fireteams are
    in contact." R3: usmc.B 2" away is in contact; usmc.C 4" away is not."""
    s = pilot_game(
        {"tal.1": plain("x33y05"), "usmc.A": plain("x13y17"), "usmc.B": plain("x13y19"),
         "usmc.C": plain("x13y13")},
        pilot={"with": "usmc.A"},
    )  # fmt: skip
    assert s.contact == 1  # a position with the pilot already with a team
    s.apply("usmc.A")
    assert "handoff" in s.legal_action_strings()
    s.apply("handoff")
    assert s.decision_kind == "handoff_target" and s.legal_action_strings() == ["usmc.B"]
    s.apply("usmc.B")
    assert s.pilot_unit == uid("usmc.B") and "pilot handed off from usmc.A to usmc.B" in notes(s)
    assert s.decision_kind == "choose_action" and "handoff" not in s.legal_action_strings()
    s.apply("hold")
    move(s, "usmc.B", "x11y19")
    assert s.pilot_pos == s.table.index("x11y19")
    assert s.victory_points() == (0, 3)


def test_no_hand_off_without_a_team_in_contact():
    """000_294bccfd88f0ebda.txt: "if the two fireteams are in contact" (R3: within 2")."""
    s = pilot_game({"tal.1": plain("x33y05"), "usmc.A": plain("x13y17"), "usmc.B": plain("x13y21")},
                   pilot={"with": "usmc.A"})  # fmt: skip
    s.apply("usmc.A")
    assert "handoff" not in s.legal_action_strings()
    s.apply("hold")
    s.apply("usmc.B")
    assert "handoff" not in s.legal_action_strings()  # usmc.B does not have him


# ------------------------------------------------------------------ flight
def test_pilot_flees_to_cover_when_his_team_is_wiped_out():
    """000_294bccfd88f0ebda.txt: "For the purposes of this scenario, the pilot cannot be injured or become a
    casualty. If a unit the pilot is with is wiped out, the pilot will move to the nearest cover that
    takes him away from the nearest Taliban unit." R31: the nearest point in terrain cover farther from
    tal.1 (8" away) than he is: the copse at x15y15 is nearer but closer to tal.1; x11y21 it is."""
    table = table_with(woods(14, 14, 16, 16, "copse"), woods(8, 20, 12, 24, "wood"))
    s = pilot_game({"tal.1": plain("x21y17"), "usmc.A": plain("x13y17", 1)}, pilot={"with": "usmc.A"},
                   table=table, initiative="taliban")  # fmt: skip
    s.apply("tal.1")
    s.apply("fire")
    s.apply("usmc.A")
    script(s, [6, 6, 1, 1])  # 2D6 (8": no Optimum Range die) v min(1, 2) + 1 armor = 2D8
    s.apply("pass")  # usmc.A does not fire back
    assert figures(s, "usmc.A") == {"down": 1} and dice_used(s) == 4
    assert s.pilot_unit == -1
    assert s.table.name(s.pilot_pos) == "x11y21"
    assert "the pilot's unit is wiped out: he moves to cover at x11y21" in notes(s)
    assert s.contact == 1 and s.victory_points()[1] == 3  # contact was made: still 3 VP


def test_pilot_flees_from_cover_where_his_team_was_wiped_out():
    """000_294bccfd88f0ebda.txt: "the pilot will move to the nearest cover that takes him away from the
    nearest Taliban unit." R31: cover *farther* from tal.1 than he is; the copse his team died in is
    no farther, so he leaves it for the wood (mutation audit, issue 16: he once stayed put)."""
    table = table_with(woods(12, 16, 14, 18, "copse"), woods(8, 20, 12, 24, "wood"))
    s = pilot_game({"tal.1": plain("x21y17"), "usmc.A": plain("x13y17", 1)}, pilot={"with": "usmc.A"},
                   table=table, initiative="taliban")  # fmt: skip
    assert s.table.terrain_cover[s.pos[uid("usmc.A")]] == 1  # the team stands in the copse
    s.apply("tal.1")
    s.apply("fire")
    s.apply("usmc.A")
    script(s, [6, 6, 1, 1, 1])  # 2D6 v min(1, 2) + 1 armor + 1 cover = 3D8
    s.apply("pass")
    assert figures(s, "usmc.A") == {"down": 1} and s.pilot_unit == -1
    assert s.table.name(s.pilot_pos) == "x11y21"


# ------------------------------------------------------------------ escort off the table
@pytest.mark.parametrize(("turn", "vp"), [(1, 13), (5, 13), (6, 10), (8, 10)])
def test_escort_off_the_west_edge(turn, vp):
    """000_294bccfd88f0ebda.txt: "USMC fireteam escorts the pilot off table prior to Turn 6 = 10 VP" and
    "USMC fireteam escorts the pilot off table by end of Turn 8 = 7 VP" (plus 3 VP for the contact).
    R32: the team leaves by a move (``exit``) when its West edge is within its move."""
    s = pilot_game({"tal.1": plain("x33y05"), "usmc.A": plain("x03y11")}, pilot={"with": "usmc.A"}, turn=turn)
    s.apply("usmc.A")
    s.apply("move")
    assert s.legal_action_strings()[-1] == "exit"
    s.apply("exit")
    s.apply("pass")  # tal.1 lets it go
    assert s.pos[uid("usmc.A")] == -1 and s.pilot_pos == -1 and s.pilot_unit == -1
    assert s.pilot_exit == turn
    assert f"usmc.A escorts the pilot off the table in turn {turn}" in notes(s)
    assert s.victory_points() == (0, vp)


def test_exit_needs_the_edge_within_the_move():
    """000_294bccfd88f0ebda.txt: "escort it off a friendly board edge (West for the USMC; East for the
    Taliban)"; a Rapid move is "up to 12"". usmc.A 13" from the West edge cannot leave."""
    s = pilot_game({"tal.1": plain("x33y05"), "usmc.A": plain("x13y11")}, pilot={"with": "usmc.A"})
    s.apply("usmc.A")
    s.apply("move")
    assert "exit" not in s.legal_action_strings()


# ------------------------------------------------------------------ the air strike
def to_turn_two(s, initiative_dice):
    s.apply("pass")
    script(s, initiative_dice)
    s.apply("pass")
    assert s.turn == 2


def test_air_strike_success_ends_the_game_and_vp_are_tallied():
    """000_294bccfd88f0ebda.txt: "The USMC pilot (if he is effective; e.g., not seriously wounded or KIA)
    may attempt to call for an airstrike on the Taliban positions. He makes a TQ check. If he is
    successful, the scenario immediately ends and victory points are tallied." R30: he is always
    effective and may call from turn 2 while on the table, contacted or not."""
    s = pilot_game({"tal.1": plain("x33y05"), "usmc.A": plain("x05y05"), "usmc.B": plain("x05y11")},
                   pilot={"with": "usmc.A"})  # fmt: skip
    to_turn_two(s, [8])  # 0D6 v 1D8
    assert s.decision_kind == "call_airstrike" and s.current_player == 1
    assert s.legal_action_strings() == ["pass", "yes"]
    script(s, [4])  # the pilot's TQ check: D8
    s.apply("yes")
    assert s.is_terminal and s.current_player is None
    assert "air strike called in: the scenario ends" in notes(s)
    assert s.score == {"taliban_vp": 0, "usmc_vp": 3, "taliban_auto_victory": 0}
    assert s.returns() == (-1.0, 1.0) and s.winner == 1


def test_air_strike_by_an_uncontacted_pilot_with_taliban_ahead():
    """000_294bccfd88f0ebda.txt: "the scenario immediately ends and victory points are tallied" and "When
    the scenario ends, the player with the highest number of VPs wins." A Marine KIA (2 VP) and no
    contact: the Taliban win on points."""
    s = pilot_game({"tal.1": plain("x33y05"), "usmc.A": plain("x05y05", kia=1), "usmc.B": plain("x05y11")})
    to_turn_two(s, [1])
    script(s, [8])
    s.apply("yes")
    assert s.is_terminal and s.score["taliban_vp"] == 2 and s.returns() == (1.0, -1.0)


def test_air_strike_failure_or_no_call_goes_on():
    """000_294bccfd88f0ebda.txt: "If the USMC player chooses not to roll or the roll is not successful, the
    game proceeds normally." """
    s = pilot_game({"tal.1": plain("x33y05"), "usmc.A": plain("x05y05"), "usmc.B": plain("x05y11")})
    to_turn_two(s, [8])
    script(s, [3])
    s.apply("yes")
    assert not s.is_terminal and "the pilot's air strike call fails" in notes(s)
    assert s.decision_kind == "declare_overwatch" and s.current_player == 1  # the Marines won turn 2
    s = pilot_game({"tal.1": plain("x33y05"), "usmc.A": plain("x05y05"), "usmc.B": plain("x05y11")})
    to_turn_two(s, [8])
    s.apply("pass")
    assert not s.is_terminal and dice_used(s) == 1


def test_no_air_strike_in_turn_one_or_with_the_pilot_off_the_table():
    """000_294bccfd88f0ebda.txt: "What else do we need to do to start Turn 2? ... The USMC pilot ... may
    attempt to call for an airstrike". R30: turn 2 on, while he is on the table."""
    s = pilot_game({"tal.1": plain("x33y05"), "usmc.A": plain("x05y05"), "usmc.B": plain("x05y11")},
                   pilot={"exited_turn": 1})  # fmt: skip
    to_turn_two(s, [8])
    assert s.decision_kind == "declare_overwatch"


# ------------------------------------------------------------------ end of the game
def test_pilot_on_the_table_at_the_end_of_turn_8_is_a_taliban_victory():
    """000_294bccfd88f0ebda.txt: "Pilot still on table at end of Turn 8: VICTORY!" (R33) whatever the
    points say: the Marines made contact (3 VP), the Taliban have none."""
    s = pilot_game({"tal.1": plain("x33y05"), "usmc.A": plain("x05y05")}, pilot={"with": "usmc.A"}, turn=8)
    s.apply("pass")
    script(s, [])
    s.apply("pass")
    assert s.is_terminal and s.turn == 8 and s.auto_win == 1
    assert s.score == {"taliban_vp": 0, "usmc_vp": 3, "taliban_auto_victory": 1}
    assert s.returns() == (1.0, -1.0) and s.winner == 0
    assert s.to_position()["stage"] == "game_over" and s.to_position()["auto_victory"] is True


def test_with_the_pilot_off_the_game_runs_to_the_end_of_turn_9():
    """000_294bccfd88f0ebda.txt: "Duration of Game: 9 Turns" and "USMC fireteam escorts the pilot off table
    prior to Turn 6 = 10 VP". R33: with the pilot escorted off, turn 9 is played and VP decide."""
    s = pilot_game({"tal.1": plain("x33y05"), "usmc.A": plain("x05y05"), "usmc.B": plain("x05y11", kia=2)},
                   pilot={"exited_turn": 5, "contact": True}, turn=8)  # fmt: skip
    s.apply("pass")
    script(s, [1])  # turn 9 initiative: 0D6 v 1D8 (usmc.A, usmc.B)
    s.apply("pass")
    assert not s.is_terminal and s.turn == 9 and s.decision_kind == "declare_overwatch"
    s.apply("pass")
    s.apply("pass")
    s.apply("pass")
    assert s.is_terminal and s.turn == 9 and s.auto_win == 0
    assert s.score == {"taliban_vp": 4, "usmc_vp": 13, "taliban_auto_victory": 0}
    assert s.returns() == (-1.0, 1.0)


def end_of_game(units, pilot, **kw):
    """Turn 9 with the pilot off the table: both sides pass, the game ends."""
    s = pilot_game(units, pilot=pilot, turn=9, **kw)
    s.apply("pass")
    s.apply("pass")
    return s


def test_victory_points_for_marine_casualties():
    """000_294bccfd88f0ebda.txt: "Per USMC KIA = 2 VP", "Per USMC with Serious Wound = 1 VP", "Per Marine
    Captured = 3 VP". Casualties escorted off the table still count (R26)."""
    s = end_of_game(
        {
            "tal.1": plain("x33y05"),
            "usmc.A": {
                "at": "x05y05",
                "support": [],
                "figures": {"ok": 1, "kia": 2, "serious": 1, "captured": 1},
            },
            "usmc.B": {"at": "x05y11", "support": [], "figures": {"ok": 2, "evac_kia": 1, "evac_serious": 1}},
        },
        {"exited_turn": 7, "contact": True},
    )
    assert s.is_terminal
    assert s.victory_points() == (2 * 2 + 1 + 3 + 2 + 1, 3 + 7)
    assert s.returns() == (1.0, -1.0)


def test_tied_victory_points_are_a_draw():
    """000_294bccfd88f0ebda.txt: "When the scenario ends, the player with the highest number of VPs wins.
    In the event of a tie, the game is a tie." KIA + serious (3 VP) v contact (3 VP)."""
    s = end_of_game(
        {"tal.1": plain("x33y05"), "usmc.A": plain("x05y05", kia=1, serious=1)},
        {"exited_turn": 0, "contact": True, "at": None},
    )
    assert s.is_terminal and s.victory_points() == (3, 3)
    assert s.returns() == (0.0, 0.0) and s.winner is None


def test_casualties_not_yet_assessed_are_assessed_at_the_end():
    """000_294bccfd88f0ebda.txt: "Roll 1D6 for each casualty. On a 1, the figure is KIA". R25: the VP need
    KIA v serious, so casualties still down when the game ends are assessed then."""
    s = pilot_game({"tal.1": plain("x33y05"), "usmc.A": plain("x05y05", down=2)},
                   pilot={"exited_turn": 5, "contact": True}, turn=9)  # fmt: skip
    s.apply("pass")
    script(s, [1, 2])
    s.apply("pass")
    assert s.is_terminal and figures(s, "usmc.A") == {"ok": 2, "serious": 1, "kia": 1}
    assert s.victory_points() == (3, 13)


# ------------------------------------------------------------------ capture (R34)
CAPTURE_UNITS = {
    "tal.1": plain("x21y21"),
    "usmc.A": plain("x05y05"),
    "usmc.B": plain("x11y21", 0, down=1, serious=1, kia=1),
}


def test_taliban_capture_casualties_of_a_team_with_no_effective_figure():
    """000_294bccfd88f0ebda.txt: "Per Marine Captured = 3 VP" and the Taliban mission: "If you do your job
    right, the Marines will be wiped out or driven off". R34: a Taliban unit ending a move within 2" of
    a Marine unit with no effective figure captures its down and seriously wounded figures; the KIA
    stay (2 VP)."""
    s = pilot_game(CAPTURE_UNITS, initiative="taliban", pilot={"at": "x35y35"})
    move(s, "tal.1", "x13y21")
    assert figures(s, "usmc.B") == {"kia": 1, "captured": 2}
    assert "tal.1 captures the casualties of usmc.B" in notes(s)
    assert s.victory_points()[0] == 3 * 2 + 2


def test_no_capture_beyond_two_inches():
    """R34 / R3: "within 2"": tal.1 ending 2.83" from usmc.B captures nobody."""
    s = pilot_game(CAPTURE_UNITS, initiative="taliban", pilot={"at": "x35y35"})
    move(s, "tal.1", "x13y23")
    assert figures(s, "usmc.B") == {"down": 1, "serious": 1, "kia": 1}


def test_capture_option_off():
    """R34: ``capture=False`` leaves capture out (the seed never defines it)."""
    g = game(rules="quick", fog_of_war=False, capture=False)
    s = g.state_from_position(position(CAPTURE_UNITS, initiative="taliban", pilot={"at": "x35y35"}))
    move(s, "tal.1", "x13y21")
    assert figures(s, "usmc.B") == {"down": 1, "serious": 1, "kia": 1}
    assert s.victory_points()[0] == 1 + 2
