"""The seven actions, failed activations, On Guard reactions and moves (002_b69cb091b8d89aa2.txt).

Dice order of an activation: the activation roll, then whatever the action rolls (fire dice, saves).
"""

from fof_env.fubar import events as ev

from .helpers import area, at, events, figures, game, infantry, kind, legal, notes, position, rolls, statuses

SEED = "002_b69cb091b8d89aa2.txt"

RED = infantry("r.1", (3, 11), figures(4))
RED2 = infantry("r.2", (3, 19), figures(4))
BLUE = infantry("b.1", (15, 11), figures(4))
BLUE_FAR = infantry("b.2", (21, 11), figures(4))


def test_a_failed_unit_is_on_guard():
    """002: "Units that fail to activate are On Guard." (rulings F9)"""
    g = game(RED, BLUE)
    s = position(g, dice=[2, 6, 1])
    s.apply("r.1")
    assert s.guard[0] == 1 and any("On Guard" in e.text for e in events(s, ev.Note))


def test_a_failed_unit_above_half_casualties_withdraws_away_from_the_nearest_visible_enemy():
    """002: "Except if units that fail have taken more than 50% casualties they Withdraw 6"/15cm away from
    the nearest visible enemy". Three of four figures down, the red team fails: its owner picks a free point
    within 6" farther from blue (12" east): x01y11 (14" from blue) yes, x05y11 (10") no, x03y17 (13.4") yes,
    x09y11 (beyond 6") no (rulings F9)."""
    g = game(RED, BLUE)
    s = position(g, {"r.1": {"figures": ["casualty"] * 3 + ["ok"]}}, dice=[2])
    s.apply("r.1")
    assert kind(s) == "withdraw_target" and s.decision.player == 0
    assert notes(s) == ["r.1 fails to activate and withdraws"]
    options = legal(s)
    assert "x01y11" in options and "x03y17" in options
    assert "x05y11" not in options and "x09y11" not in options and "x03y11" not in options
    s.dice.rolls += [6, 1]
    s.apply("x01y11")
    assert at(s, "r.1") == "x01y11" and s.guard[0] == 0
    s = position(g, {"r.1": {"figures": ["casualty"] * 2 + ["ok"] * 2}}, dice=[2, 6, 1])  # exactly 50%: On Guard
    s.apply("r.1")
    assert s.guard[0] == 1 and at(s, "r.1") == "x03y11"


def test_with_no_enemy_in_sight_it_withdraws_toward_its_deployment_point():
    """002: "... or towards their deployment point if there are none visible." A wood hides blue; the red
    team, deployed at x03y03, withdraws to points closer to it (rulings F9)."""
    woods = area("woods", 8, 0, 14, 24)
    g = game(RED, BLUE, features=(woods,))
    s = position(g, {"r.1": {"figures": ["casualty"] * 3 + ["ok"], "deployed_at": "x03y03"}}, dice=[1])
    s.apply("r.1")
    options = legal(s)
    assert "x03y05" in options and "x01y09" in options and "x03y13" not in options and "x05y11" not in options


def test_a_failed_unit_with_one_point_to_withdraw_to_withdraws_itself():
    """002: "Except if units that fail have taken more than 50% casualties they Withdraw 6"/15cm away from
    the nearest visible enemy, or towards their deployment point if there are none visible." A wood hides
    blue; the red team, deployed at x03y09 (2" north), has one point closer to it: that point itself. The
    red team moves there, and nobody else moves (the engine once moved the unit last asked to decide)."""
    woods = area("woods", 8, 0, 14, 24)
    g = game(RED, BLUE, features=(woods,))
    s = position(g, {"r.1": {"figures": ["casualty"] * 3 + ["ok"], "deployed_at": "x03y09"}}, dice=[1])
    s.apply("r.1")
    assert notes(s) == ["r.1 fails to activate and withdraws"]
    assert at(s, "r.1") == "x03y09" and at(s, "b.1") == "x15y11"
    (moved,) = events(s, ev.UnitMoved)
    assert (moved.unit, moved.origin, moved.destination, moved.how) == ("r.1", "x03y11", "x03y09", "withdraw")


def test_a_failed_unit_with_nowhere_to_withdraw_stays_and_is_not_on_guard():
    """002: "Except if units that fail have taken more than 50% casualties they Withdraw 6"/15cm away from
    the nearest visible enemy, or towards their deployment point if there are none visible." A wood hides
    blue and the red team stands on its own deployment point: no point is closer to it, so the team stays
    where it is, said so, and is not On Guard (it failed "except" as a unit that withdraws, rulings F9)."""
    woods = area("woods", 8, 0, 14, 24)
    g = game(RED, BLUE, features=(woods,))
    s = position(g, {"r.1": {"figures": ["casualty"] * 3 + ["ok"], "deployed_at": "x03y11"}}, dice=[1])
    s.apply("r.1")
    assert notes(s) == ["r.1 fails to activate and has nowhere to withdraw"]
    assert at(s, "r.1") == "x03y11" and s.guard[0] == 0 and not events(s, ev.UnitMoved)


def test_walk_fires_at_the_chosen_point_of_its_move():
    """002: "Walk 6"/15cm The unit can also fire small arms or throw grenades, at one point during their
    move." Red walks 6" east towards blue (18" away); it chooses to fire at the end of its walk, 12" from
    blue, where its assault rifles have 2FP: 4 figures x 2 dice (rulings F11)."""
    g = game(RED, BLUE_FAR)
    s = position(g, dice=[5])
    s.apply("r.1")
    s.apply("walk")
    assert "x03y11" in legal(s) and "x09y11" in legal(s) and "x11y11" not in legal(s)
    s.apply("x09y11")
    assert kind(s) == "fire_point"
    assert legal(s) == ["x03y11", "x05y11", "x07y11", "x09y11", "pass"] or sorted(legal(s)) == sorted(
        ["x03y11", "x05y11", "x07y11", "x09y11", "pass"]
    )
    s.dice.rolls += [4, 4, 3, 3, 3, 3, 3, 3]  # 8 dice at Veteran 4+: two hits, then the target's choices
    s.apply("x09y11")
    (fire,) = events(s, ev.FireHits)
    assert (fire.shooter, fire.target, len(fire.dice), fire.need, fire.hits) == ("r.1", "b.2", 8, 4, 2)
    assert at(s, "r.1") == "x09y11"
    s = position(g, dice=[5, 3, 3, 3, 3, 6, 1])
    s.apply("r.1")
    s.apply("walk")
    s.apply("x09y11")
    s.apply("x03y11")  # fires before moving: 18" away, 1FP each
    (fire,) = events(s, ev.FireHits)
    assert len(fire.dice) == 4 and at(s, "r.1") == "x09y11"


def test_walk_may_stand_and_fire():
    """002: "Walk 6"/15cm ... fire ... at one point during their move": a walk of 0" is the unit standing
    and firing (without the Aimed Fire bonus): 12" away, 2FP per assault rifle (rulings F11)."""
    g = game(RED, BLUE)
    s = position(g, dice=[5, 4, 3, 3, 3, 3, 3, 3, 3, 6, 1])
    s.apply("r.1")
    s.apply("walk")
    s.apply("x03y11")
    s.apply("x03y11")
    (fire,) = events(s, ev.FireHits)
    assert (len(fire.dice), fire.hits) == (8, 1)


def test_run_moves_twelve_inches_and_cannot_fire():
    """002: "Run 12"/30cm Cannot fire weapons or throw grenades." (rulings F12)"""
    g = game(RED, BLUE)
    s = position(g, dice=[5, 6, 1])
    s.apply("r.1")
    s.apply("run")
    options = legal(s)
    assert "x03y23" in options and "x03y11" not in options  # 12" south: yes; staying put: not a run
    assert "x05y23" not in options  # 12.2"
    s.apply("x03y23")
    assert at(s, "r.1") == "x03y23" and not events(s, ev.FireHits)
    assert s.turn == 2 or kind(s) == "select_unit"


def test_a_move_cannot_end_on_another_unit():
    """002: units move as bodies of figures; two units never end on one point (rulings F15): red may walk
    past red2's point but not onto it."""
    red2 = infantry("r.2", (3, 15), figures(4))
    g = game(RED, red2, BLUE)
    s = position(g, dice=[5])
    s.apply("r.1")
    s.apply("walk")
    assert "x03y15" not in legal(s) and "x03y17" in legal(s)


def test_gone_to_ground_drops_into_the_nearest_cover():
    """002: "Gone to Ground 3"/8cm Drop into nearest cover. Increase the level of that cover by one."
    Woods begin 1" east of red's point x03y11: the nearest points in them are x05y09, x05y11, x05y13? No:
    x05y11 is 2" away, the others 2.8": it goes to x05y11 (rulings F13)."""
    woods = area("woods", 4, 8, 8, 14)
    g = game(RED, BLUE, features=(woods,))
    s = position(g, dice=[5, 6, 1])
    s.apply("r.1")
    s.apply("gone_to_ground")
    assert at(s, "r.1") == "x05y11" and s.gtg[0] == 1
    # equally near cover on both sides: its owner chooses
    g2 = game(RED, BLUE, features=(area("woods", 4, 0, 8, 10, "north"), area("woods", 4, 12, 8, 24, "south")))
    s = position(g2, dice=[5])
    s.apply("r.1")
    s.apply("gone_to_ground")
    assert kind(s) == "move_target" and legal(s) == ["x05y09", "x05y13"]


def test_on_guard_fires_where_its_owner_chooses_along_the_path():
    """002: "On Guard 0" Can react once per turn by firing at enemy movement across their field of fire."
    Blue (On Guard, at x15y11) sees red run from x03y11 to x03y23; it may fire at any point of the path,
    or pass; it picks x03y17: 13.4" away, 1FP each (rulings F16)."""
    g = game(RED, BLUE)
    s = position(g, {"b.1": {"status": ["on_guard"]}}, dice=[5])
    s.apply("r.1")
    s.apply("run")
    s.apply("x03y23")
    assert (kind(s), s.decision.player) == ("on_guard", 1)
    assert legal(s) == ["x03y11", "x03y13", "x03y15", "x03y17", "x03y19", "x03y21", "x03y23", "pass"]
    s.dice.rolls += [1, 1, 1, 1, 6, 1]
    s.apply("x03y17")
    (fire,) = events(s, ev.FireHits)
    assert (fire.shooter, fire.target, len(fire.dice)) == ("b.1", "r.1", 4)
    assert at(s, "r.1") == "x03y23" and s.reacted[1] == 1
    assert "b.1 (On Guard) fires at r.1 at x03y17" in notes(s)


def test_on_guard_reacts_once_per_turn():
    """002: "Can react once per turn". Blue reacts to red's first move; red2 then moves in its view and
    blue is not asked again (rulings F10, F16)."""
    g = game(RED, RED2, BLUE)
    s = position(g, {"b.1": {"status": ["on_guard"]}}, dice=[5, 1, 1, 1, 1, 5])
    s.apply("r.1")
    s.apply("run")
    s.apply("x03y01")
    s.apply("x03y01")  # blue fires as red arrives: 15.6" away, 1FP each, 4 misses
    s.apply("r.2")
    s.apply("run")
    s.apply("x03y23")
    assert kind(s) == "select_unit" and s.decision.player == 1  # nobody asked to react
    assert s.guard[2] == 1 and s.reacted[2] == 1


def test_statuses_end_at_the_next_activation_attempt():
    """002: On Guard, Gone to Ground and Duck & Weave are what the unit chose at its activation; they last
    until it next tries to activate (rulings F10)."""
    g = game(RED, BLUE)
    s = position(g, {"r.1": {"status": ["on_guard", "gone_to_ground", "duck_weave"]}}, dice=[5])
    s.apply("r.1")
    assert (s.guard[0], s.gtg[0], s.dw[0]) == (0, 0, 0)


def test_on_guard_fire_can_stop_an_assault():
    """002: "Assault 8"/20cm Move into close combat with enemy" and On Guard "firing at enemy movement":
    a red pair assaults blue from 8" away; blue, On Guard, fires as it sets off and both fall: no close
    combat (rulings F16, F29)."""
    red = infantry("r.1", (7, 11), figures(2))
    g = game(red, BLUE)
    s = position(g, {"b.1": {"status": ["on_guard"]}}, dice=[5])
    s.apply("r.1")
    s.apply("assault")  # the one target is taken at once
    assert kind(s) == "on_guard"
    s.dice.rolls += [6, 6, 6, 6, 6, 6, 6, 6, 6, 1]  # 8 dice at 8": all hit; no armour; turn 2 initiative
    s.apply("x07y11")
    assert kind(s) == "allocate_hits"
    s.apply("c0")
    s.apply("c1")  # the other hits find nobody left to take them
    assert statuses(s, "r.1") == ["casualty", "casualty"]
    assert s.engaged == [-1, -1] and at(s, "r.1") == "x07y11"
    assert rolls(s)[:1] == [5]


def test_a_unit_leaves_straight_out_by_its_own_edge():
    """A side the scenario lets leave (rulings F15) goes off its own edge: blue (east) 2" from it leaves by
    the point straight east, x23y11; red 13" from the west edge cannot leave with a Run (12")."""
    g = game(infantry("r.1", (13, 11), figures(4)), infantry("b.1", (21, 11), figures(4)), exit_sides=("red", "blue"))
    s = position(g, initiative="blue", dice=[5])
    s.apply("b.1")
    s.apply("run")
    assert "exit" in legal(s) and s.table.name(s.exit_point(1)) == "x23y11"
    s.dice.rolls += [5]
    s.apply("exit")
    assert s.gone[1] and s.pos[1] == -1 and any(e.text == "b.1 leaves the table" for e in events(s, ev.Note))
    s.apply("r.1")
    s.apply("run")
    assert "exit" not in legal(s) and "x01y11" in legal(s)


def test_withdrawal_toward_a_deployment_point_in_the_corner():
    """002: "... or towards their deployment point if there are none visible": the point in the table's
    corner (x01y01, the first point) is a deployment point like any other (rulings F9)."""
    woods = area("woods", 8, 0, 14, 24)
    g = game(RED, BLUE, features=(woods,))
    s = position(g, {"r.1": {"figures": ["casualty"] * 3 + ["ok"], "deployed_at": "x01y01"}}, dice=[1])
    s.apply("r.1")
    options = legal(s)
    assert "x01y09" in options and "x03y07" in options and "x03y13" not in options
