"""Close combat (002_b69cb091b8d89aa2.txt "Close Combat").

Dice of a round: the attacker's strikes, the defender's strikes (one die per engaged figure not
Suppressed), the defender's saves, the attacker's saves; then the figures Suppressed before the round.
"""

from fof_env.fubar import events as ev

from .helpers import area, at, events, figures, game, infantry, kind, legal, notes, position, statuses

SEED = "002_b69cb091b8d89aa2.txt"
RED = infantry("r.1", (3, 11), figures(4))
BLUE = infantry("b.1", (9, 11), figures(4))


def strikes(s) -> list[tuple[str, int, int, bool]]:
    return [(e.unit, len(e.dice), e.hits, e.late) for e in events(s, ev.CloseCombat)]


def test_assault_moves_into_contact_within_eight_inches():
    """002: "A Unit must use an Assault activation to move into close combat with an enemy Unit. The
    attacking Unit moves its figures into base contact with enemy figures, no figure moving more than
    8"/20cm." Blue 10" away: red ends 2" from it, 8" from where it stood; blue 12" away: no assault
    (its nearest point in contact is 10" off) (rulings F29)."""
    g = game(RED, BLUE)
    s = position(g, {"b.1": {"at": "x13y11"}}, dice=[5] + [1] * 8 + [6, 1])
    s.apply("r.1")
    s.apply("assault")
    assert at(s, "r.1") == "x11y11" and s.engaged[:2] == [1, 0] and "r.1 assaults b.1: close combat" in notes(s)
    assert strikes(s) == [("r.1", 4, 0, False), ("b.1", 4, 0, False)]
    assert (s.turn, kind(s)) == (2, "close_combat")  # the fight goes on next turn
    s = position(g, {"b.1": {"at": "x15y11"}}, dice=[5])
    s.apply("r.1")
    assert "assault" not in legal(s)


def test_the_defender_chooses_which_figures_move_up():
    """002: "Then the opponent can move up any unengaged figures that are within 3"/8cm of an assaulting
    enemy figure." Two attackers engage two of the four defenders; blue picks its gunner and a rifleman and
    moves no more up: two dice each side, hits only on the engaged (rulings F30)."""
    red = infantry("r.1", (3, 11), figures(2))
    blue = infantry("b.1", (9, 11), figures(1, leader="elite", role="Leader"), figures(1, "light_machine_gun"),
                    figures(2))  # fmt: skip
    g = game(red, blue)
    s = position(g, dice=[5])
    s.apply("r.1")
    s.apply("assault")
    assert (kind(s), s.decision.player, legal(s)) == ("move_up", 1, ["f0", "f1", "f2"])
    s.apply("f1")
    assert legal(s) == ["f0", "f2"]  # two must fight: no pass yet
    s.apply("f2")
    assert legal(s) == ["f0", "f3", "pass"]
    s.dice.rolls += [4, 4, 1, 1]
    s.apply("pass")
    assert strikes(s) == [("r.1", 2, 2, False), ("b.1", 2, 0, False)]
    assert (kind(s), legal(s)) == ("allocate_hits", ["c1", "c2"])  # casualties only, engaged figures only
    s.dice.rolls += [6, 1]
    s.apply("c1")
    assert statuses(s, "b.1") == ["ok", "casualty", "casualty", "ok"]


def test_simultaneous_strikes_then_the_suppressed_strike_last():
    """002: "Both sides simultaneously roll one dice per figure & use their Expertise rating to determine
    hits. Figures that are already Suppressed before this attack strike after all other attacks are
    resolved." Blue's Suppressed figure waits; blue's other figure falls to red's first strike but its own
    strike, rolled at the same time, still hits; then the Suppressed figure strikes (rulings F31)."""
    red = infantry("r.1", (3, 11), figures(2))
    blue = infantry("b.1", (9, 11), figures(2))
    g = game(red, blue)
    s = position(g, {"b.1": {"figures": ["suppressed", "ok"]}}, dice=[5, 4, 1, 4])
    s.apply("r.1")
    s.apply("assault")
    assert strikes(s) == [("r.1", 2, 1, False), ("b.1", 1, 1, False)]
    assert (kind(s), s.decision.player, legal(s)) == ("allocate_hits", 1, ["c0", "c1"])
    s.dice.rolls += [4, 6, 1]
    s.apply("c1")  # the figure that struck falls; red's hit then takes a red figure (one kind: no choice)
    assert statuses(s, "r.1") == ["casualty", "casualty"]
    assert strikes(s)[2:] == [("b.1", 1, 1, True)]
    assert statuses(s, "b.1") == ["suppressed", "casualty"] and s.engaged[:2] == [-1, -1]
    assert "the close combat of r.1 and b.1 is over" in notes(s)


def test_close_combat_hits_are_casualties_only_and_cover_has_no_effect():
    """002: "All hits not saved by personal armour result in casualties. Cover has no effect. Units may only
    take casualties, not Suppression." Blue in woods still takes hits on red's plain 4+; no s<i> offered
    (rulings F31)."""
    g = game(RED, infantry("b.1", (9, 11), figures(4), armour="light"), features=(area("woods", 8, 8, 12, 14),))
    s = position(g, dice=[5, 4, 1, 1, 1, 1, 1, 1, 1, 1, 6, 1])
    s.apply("r.1")
    s.apply("assault")
    (hit, _other) = events(s, ev.CloseCombat)
    assert (hit.need, hit.hits, hit.save, hit.saves, hit.unsaved) == (4, 1, 6, (1,), 1)
    assert statuses(s, "b.1").count("casualty") == 1 and "s0" not in legal(s)


def test_combat_continues_at_the_start_of_the_next_turn():
    """002: "The combat continues at the beginning of each subsequent turn. The units involved automatically
    activate at that point. They cannot subsequently activate in that turn." After the initiative roll,
    each side chooses to fight, the round is fought, and neither unit may be selected that turn (rulings F32)."""
    red2 = infantry("r.2", (3, 21), figures(4))
    g = game(RED, infantry("b.1", (5, 11), figures(4)), red2)
    s = position(g, {"r.1": {"engaged": "b.1"}, "b.1": {"engaged": "r.1"}}, stage="turn_start", turn=2,
                 dice=[6, 1])  # fmt: skip
    assert (kind(s), s.decision.player, legal(s)) == ("close_combat", 0, ["fight", "withdraw"])
    s.apply("fight")
    assert (kind(s), s.decision.player) == ("close_combat", 1)
    s.dice.rolls += [1] * 8
    s.apply("fight")
    assert strikes(s) == [("r.1", 4, 0, False), ("b.1", 4, 0, False)]
    assert (kind(s), legal(s)) == ("select_unit", ["r.2"])


def test_withdrawal_needs_an_activation_roll_and_moves_one_d6():
    """002: "To attempt to Withdraw from combat a Unit must make a successful Activation roll & then move
    1D6" away from their opponents." Red rolls 5 (Veteran 3+), then 4": any free point within 4" farther
    from blue; a failed roll means the round is fought (rulings F33)."""
    g = game(RED, infantry("b.1", (5, 11), figures(4)))
    engaged = {"r.1": {"engaged": "b.1"}, "b.1": {"engaged": "r.1"}}
    s = position(g, engaged, stage="turn_start", turn=2, dice=[6, 1, 5, 4])
    s.apply("withdraw")
    assert kind(s) == "withdraw_point"
    options = legal(s)
    assert "x01y11" in options and "x03y07" in options and "x03y09" in options
    assert "x05y13" not in options and "x03y05" not in options  # no nearer, no farther than 4"
    s.apply("x01y11")
    assert s.engaged[:2] == [-1, -1] and at(s, "r.1") == "x01y11"
    assert (kind(s), s.decision.player, legal(s)) == ("follow_up", 1, ["pass", "yes"])
    s = position(g, engaged, stage="turn_start", turn=2, dice=[6, 1, 2] + [1] * 8 + [6, 1])
    s.apply("withdraw")
    assert len(strikes(s)) == 2 and s.engaged[:2] == [1, 0]


def test_the_opponent_may_follow_up_and_catch_them():
    """002: "If the opponents also make a successful Activation roll they can follow up 1D6". If they catch
    their enemies combat continues." Red withdraws 4" to x01y11; blue follows 2": 1" more than the 3" of
    contact is enough: it catches red and a round is fought at once. With a 1" follow-up it would need 1"
    and gets there too; withdrawn 6" away (x03y05, 6.3" from blue) a 2" follow-up falls short (rulings F33)."""
    g = game(RED, infantry("b.1", (5, 11), figures(4)))
    engaged = {"r.1": {"engaged": "b.1"}, "b.1": {"engaged": "r.1"}}
    s = position(g, engaged, stage="turn_start", turn=2, dice=[6, 1, 5, 4])
    s.apply("withdraw")
    s.apply("x01y11")
    s.dice.rolls += [5, 2] + [1] * 8 + [6, 1]
    s.apply("yes")
    assert at(s, "b.1") == "x03y11" and s.engaged[:2] == [1, 0] and "b.1 catches r.1: the combat goes on" in notes(s)
    assert len(strikes(s)) == 2
    s = position(g, engaged, stage="turn_start", turn=2, dice=[6, 1, 5, 6])
    s.apply("withdraw")
    s.apply("x03y05")
    s.dice.rolls += [5, 2, 6, 1]
    s.apply("yes")
    assert s.engaged[:2] == [-1, -1] and at(s, "b.1") == "x05y09"  # 2" nearer: 4.5" from red
    assert not strikes(s)


def test_combat_ends_when_a_side_is_wiped_out():
    """002: "Units may only take casualties": a unit with no figure standing is out of the fight, and the
    combat is over (rulings F34)."""
    red = infantry("r.1", (3, 11), figures(2))
    blue = infantry("b.1", (5, 11), figures(1))
    g = game(red, blue)
    s = position(g, {"r.1": {"engaged": "b.1"}, "b.1": {"engaged": "r.1"}}, stage="turn_start", turn=2,
                 dice=[6, 1, 4, 1, 1, 6, 1])  # fmt: skip
    s.apply("fight")
    s.apply("fight")
    assert statuses(s, "b.1") == ["casualty"] and s.engaged[:2] == [-1, -1]


def test_units_in_close_combat_are_neither_fired_on_nor_assaulted():
    """002: close combat is fought in base contact; a third unit may not shoot into it nor join it
    (rulings F28)."""
    red2 = infantry("r.2", (3, 21), figures(4))
    g = game(RED, infantry("b.1", (5, 11), figures(4)), red2)
    s = position(g, {"r.1": {"engaged": "b.1", "tried": True}, "b.1": {"engaged": "r.1", "tried": True}}, dice=[5])
    s.apply("r.2")
    assert "aimed_fire" not in legal(s) and "assault" not in legal(s)


def test_an_assaulted_unit_is_locked_in_the_fight():
    """002: "The units involved automatically activate at that point. They cannot subsequently activate in
    that turn.": the defender counts as having tried, and its On Guard, Gone to Ground and Duck & Weave end
    (it is fighting, not watching or hiding) (rulings F32)."""
    g = game(RED, BLUE)
    s = position(g, {"b.1": {"status": ["on_guard", "gone_to_ground", "duck_weave"]}}, dice=[5])
    s.apply("r.1")
    s.apply("assault")
    assert kind(s) == "on_guard"
    s.dice.rolls += [1] * 8 + [6, 1]
    s.apply("pass")
    assert (s.guard[1], s.gtg[1], s.dw[1], s.tried[1]) == (0, 0, 0, 1) and s.engaged[:2] == [1, 0]
