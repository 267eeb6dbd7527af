"""Set-up, the turn sequence, initiative, Overwatch declaration, the End Phase, options and records.

Seeds: 000_294bccfd88f0ebda.txt (quick start: "What happens at the beginning of Turn 2?", "FORCE ON
FORCE TURN SEQUENCE", the scenario sheet) and 003_b1b2d2a6d4b3bab2.txt. Rulings R7-R13.
"""

import numpy as np
import pytest

from fof_env.core.errors import IllegalActionError, OptionError
from fof_env.core.events import DiceRolled
from fof_env.core.game import State
from fof_env.force_on_force import events as ev

from .helpers import decline_reactions, dice_used, events, fire, game, make, pt, script, uid, unit

SEED = "000_294bccfd88f0ebda.txt"

# deployment used by the set-up tests: tal.1 and tal.2 at the edge of their woods (seen, and able to
# see out), tal.3 in the compound house, tal.4 in the south-west woods
TALIBAN_DEPLOY = ("x19y09", "x21y25", "x29y23", "x13y31")
USMC_DEPLOY = ("x01y11", "x01y17", "x01y23")


def set_up(seed=3, hide=("tal.1",), leader="usmc.B", **options):
    s = game(**options).new_initial_state(seed)
    for p in TALIBAN_DEPLOY[: options.get("taliban_teams", 4)]:
        s.apply(p)
    for u in hide:
        s.apply(u)
    if s.decision_kind == "declare_hidden":
        s.apply("pass")
    s.apply(leader)
    for p in USMC_DEPLOY:
        s.apply(p)
    return s


# ------------------------------------------------------------------ set-up (R7-R11)
def test_taliban_deploy_within_four_inches_of_their_marks():
    """000_294bccfd88f0ebda.txt map legend: "1-4: Taliban Team positions. Team 1 is at 1, Team 2 is at 2,
    etc." R7: each team deploys on any point within 4" of its mark (``taliban_deploy_radius``)."""
    g = game()
    s = g.new_initial_state(1)
    table = g.setup.table
    for team in (1, 2, 3, 4):
        assert s.decision_kind == "deploy" and s.current_player == 0
        assert s.decision.context["unit"] == f"tal.{team}"
        mark = g.scenario.unit(f"tal.{team}").deploy.mark
        expected = sorted(p for p in range(len(table)) if table.dist[mark][p] <= 4 + 1e-9)
        assert s.legal_actions() == expected
        s.apply(TALIBAN_DEPLOY[team - 1])
    assert [s.table.name(s.pos[uid(f"tal.{t}")]) for t in (1, 2, 3, 4)] == list(TALIBAN_DEPLOY)


def test_only_taliban_teams_in_woods_may_be_declared_hidden():
    """000_294bccfd88f0ebda.txt: "The Taliban player may declare that any of his units starting in the
    woods are Hidden." (R27) tal.3 stands in a building: it cannot hide."""
    s = game().new_initial_state(1)
    for p in TALIBAN_DEPLOY:
        s.apply(p)
    assert s.decision_kind == "declare_hidden" and s.current_player == 0
    assert s.legal_action_strings() == ["tal.1", "tal.2", "tal.4", "pass"]
    s.apply("tal.2")
    assert s.legal_action_strings() == ["tal.1", "tal.4", "pass"]
    s.apply("pass")
    assert s.hidden[:4] == [0, 1, 0, 0]
    assert s.decision_kind == "attach_leader"


def test_no_hidden_declaration_without_ambush_rules():
    """000_294bccfd88f0ebda.txt: "Ambush Rules are in Effect" is a scenario condition; with
    ``ambush=False`` there is no Hidden declaration."""
    s = game(ambush=False).new_initial_state(1)
    for p in TALIBAN_DEPLOY:
        s.apply(p)
    assert s.decision_kind == "attach_leader"


def test_squad_leader_joins_one_fire_team():
    """000_294bccfd88f0ebda.txt: "the USMC has three fire teams of four men each; the squad leader can be
    attached to any one of the fire teams." R8: a USMC decision before the fire teams enter."""
    s = game().new_initial_state(1)
    for p in TALIBAN_DEPLOY:
        s.apply(p)
    s.apply("pass")
    assert s.decision_kind == "attach_leader" and s.current_player == 1
    assert s.legal_action_strings() == ["usmc.A", "usmc.B", "usmc.C"]
    s.apply("usmc.C")
    assert [s.effective(uid(u)) for u in ("usmc.A", "usmc.B", "usmc.C")] == [4, 4, 5]
    assert s.leader_unit == uid("usmc.C")


def test_usmc_enter_on_the_west_edge():
    """000_294bccfd88f0ebda.txt: "Players should choose sides and then place their figures per the map
    setup areas"; the Marines' edge is West ("a friendly board edge (West for the USMC; East for the
    Taliban)"). R8: each fire team deploys on a point of the West edge column."""
    s = game().new_initial_state(1)
    for p in TALIBAN_DEPLOY:
        s.apply(p)
    s.apply("pass")
    s.apply("usmc.A")
    for team, p in zip(("usmc.A", "usmc.B", "usmc.C"), USMC_DEPLOY, strict=True):
        assert s.decision_kind == "deploy" and s.current_player == 1 and s.decision.context["unit"] == team
        assert s.legal_action_strings() == [f"x01y{y:02d}" for y in range(1, 36, 2)]
        s.apply(p)
    assert s.turn == 1


def test_turn_one_taliban_initiative_and_overwatch_first():
    """000_294bccfd88f0ebda.txt: "The Taliban have the initiative for the first turn." and the turn
    sequence "Declare Overwatch Units: Initiative units may be placed on Overwatch status." (R11: the
    declaration is not an action)."""
    s = set_up()
    assert (s.turn, s.initiative, s.first_fire) == (1, 0, 1)
    assert s.decision_kind == "declare_overwatch" and s.current_player == 0
    assert events(s, ev.TurnStarted) == [ev.TurnStarted(1, "taliban")]


def test_pilot_starts_in_building_p_not_attached():
    """000_294bccfd88f0ebda.txt map legend: "P: Pilot's starting position in an abandoned building" and
    "One of Charlie Squad's fireteams must make contact with the downed pilot". R9: the scenario wins
    over the introduction's "The attached pilot/air controller can be attached to any one of the fire
    teams": he starts at P, with nobody, no contact made."""
    s = set_up()
    g = game()
    assert s.pilot_pos == g.setup.pilot.start and s.table.feature_at[s.pilot_pos] == "P"
    assert (s.pilot_unit, s.contact, s.pilot_exit) == (-1, 0, 0)
    assert s.victory_points() == (0, 0)


def test_turn_one_must_open_fire():
    """000_294bccfd88f0ebda.txt: "Please note that for this scenario, the Taliban player MUST open fire
    with at least one of his units as his first action." R11: the first activation must be a fire:
    only units that can fire may be selected, and they may only fire."""
    s = set_up(hide=())
    s.apply("pass")  # no Overwatch
    assert s.decision_kind == "select_unit"
    # every team sees a Marine team on the West edge from where it deployed (TALIBAN_DEPLOY), and none
    # has fired yet; test_must_fire_first_unit_filter_on_a_position leaves out a team that sees nobody
    assert s.legal_action_strings() == ["tal.1", "tal.2", "tal.3", "tal.4"]
    s.apply("tal.2")
    assert s.legal_action_strings() == ["fire"]
    s.apply("fire")
    s.apply(s.legal_action_strings()[0])
    while s.decision_kind in ("split_target", "declare_interrupt", "return_fire"):
        s.apply("pass")
    assert s.first_fire == 0


def test_turn_one_cannot_pass_instead_of_opening_fire():
    """000_294bccfd88f0ebda.txt: "the Taliban player MUST open fire with at least one of his units as his
    first action" (R11). Ending the activations at once would skip that first action."""
    s = set_up(hide=())
    s.apply("pass")  # no Overwatch (not an action)
    assert "pass" not in s.legal_action_strings()


def test_must_fire_first_unit_filter_on_a_position():
    """000_294bccfd88f0ebda.txt: "the Taliban player MUST open fire with at least one of his units as his
    first action". tal.2 stands behind a building: it cannot see a Marine, so it is not offered."""
    blocked = {"table": {"width_in": 36, "height_in": 36, "spacing_in": 2},
               "features": [{"id": "house", "kind": "building", "rect": [10, 18, 16, 30]}]}  # fmt: skip
    s = make(
        {"tal.1": unit("x21y11", 2), "tal.2": unit("x21y25", 2), "usmc.A": unit("x05y15", 2)},
        initiative="taliban", table=blocked, must_fire_first=True,
    )  # fmt: skip
    assert s.fire_targets(uid("tal.2")) == [] and s.fire_targets(uid("tal.1")) == [uid("usmc.A")]
    assert s.legal_action_strings() == ["tal.1"]


def test_must_fire_first_lapses_when_nobody_can_fire():
    """000_294bccfd88f0ebda.txt: "MUST open fire with at least one of his units as his first action".
    R11: if no Taliban unit can fire at anything, the restriction lapses."""
    blocked = {"table": {"width_in": 36, "height_in": 36, "spacing_in": 2},
               "features": [{"id": "house", "kind": "building", "rect": [10, 0, 16, 36]}]}  # fmt: skip
    s = make(
        {"tal.1": unit("x21y11", 2), "tal.2": unit("x21y23", 2), "usmc.A": unit("x05y23", 2)},
        initiative="taliban", table=blocked, must_fire_first=True,
    )  # fmt: skip
    assert s.first_fire == 0
    assert s.legal_action_strings() == ["tal.1", "tal.2", "pass"]
    s.apply("tal.1")
    assert s.legal_action_strings()[0] == "move" and "fire" not in s.legal_action_strings()


def test_overwatch_cannot_take_the_last_unit_able_to_open_fire():
    """000_294bccfd88f0ebda.txt: "the Taliban player MUST open fire with at least one of his units as his
    first action" and "Overwatch ... It may not move during the subsequent turn and may only react".
    R11: in turn 1 the Overwatch declaration may not put the last unit able to open fire on Overwatch."""
    s = make(
        {"tal.1": unit("x21y11", 2), "tal.2": unit("x21y23", 2), "usmc.A": unit("x05y17", 2)},
        initiative="taliban", must_fire_first=True, stage="overwatch",
    )  # fmt: skip
    assert s.decision_kind == "declare_overwatch"
    assert s.legal_action_strings() == ["tal.1", "tal.2", "pass"]
    s.apply("tal.1")
    # tal.2 must stay free to open fire: nothing is left to declare, so the activations begin
    assert s.decision_kind == "select_unit" and s.legal_action_strings() == ["tal.2"]
    assert s.overwatch[uid("tal.1")] and not s.overwatch[uid("tal.2")]


# ------------------------------------------------------------------ initiative (R12)
def three_on_three(initiative="taliban", **kw):
    """Three active units a side, nothing on Overwatch or pinned, the pilot off the table."""
    units = {
        "tal.1": unit("x21y05", 2), "tal.2": unit("x21y11", 2), "tal.3": unit("x21y17", 2),
        "usmc.A": unit("x05y05", 2), "usmc.B": unit("x05y11", 2), "usmc.C": unit("x05y17", 2),
    }  # fmt: skip
    units.update(kw.pop("units", {}))
    return make(units, initiative=initiative, **kw)


def end_turn(state, dice):
    """Both players end their activations; ``dice`` are the next turn's initiative dice."""
    state.apply("pass")
    script(state, dice)
    state.apply("pass")


@pytest.mark.parametrize(
    ("holder", "dice", "winner"),
    [
        ("taliban", [3, 4], "usmc"),  # 0 v 1 success
        ("taliban", [4, 3], "taliban"),  # 1 v 0
        ("taliban", [4, 8], "taliban"),  # 1 v 1: the holder keeps it
        ("usmc", [6, 5], "usmc"),  # 1 v 1
        ("usmc", [1, 1], "usmc"),  # 0 v 0
        ("usmc", [5, 2], "taliban"),
    ],
)
def test_initiative_most_successes_tie_keeps_last_holder(holder, dice, winner):
    """000_294bccfd88f0ebda.txt: "the USMC player would roll 3/2 = 1 (rounding down) D8 for initiative at
    the beginning of Turn 2. The Taliban player would roll 3/2 =1 (rounding down) D6 for initiative.
    Both sides roll. The player with the higher total number of successes (4+ rolls) wins the initiative
    for the coming turn. If there is a tie, the player who had the initiative last turn retains it."
    Taliban die (D6) first, then the USMC die (D8)."""
    s = three_on_three(holder)
    end_turn(s, dice)
    assert dice_used(s) == 2
    rolled = [e for e in s.events if isinstance(e, DiceRolled)]
    assert [(e.sides, e.purpose) for e in rolled] == [(6, "taliban initiative"), (8, "usmc initiative")]
    assert s.turn == 2 and s.to_position()["initiative"] == winner
    assert events(s, ev.TurnStarted)[-1] == ev.TurnStarted(2, winner)
    assert s.decision_kind == "declare_overwatch" and s.current_player == (0 if winner == "taliban" else 1)


def test_initiative_dice_count_only_active_units():
    """000_294bccfd88f0ebda.txt: "Each side totals up the number of active units it has and divides by
    two, rounding down. So long as the unit has active figures it counts as active." Four Taliban teams:
    2D6; three Marine teams, one of them all KIA: 2/2 = 1D8. Two Taliban successes beat one."""
    s = three_on_three("usmc", units={"tal.4": unit("x21y23", 2), "usmc.C": unit("x05y17", 0, kia=4)})
    end_turn(s, [4, 5, 8])
    assert dice_used(s) == 3
    assert s.to_position()["initiative"] == "taliban"


def test_one_unit_each_rolls_no_dice():
    """000_294bccfd88f0ebda.txt: "divides by two, rounding down": one unit is 0 dice, 0 successes (R12);
    the tie keeps the initiative with its holder."""
    s = make({"tal.1": unit("x21y11", 2), "usmc.A": unit("x05y11", 2)}, initiative="usmc")
    end_turn(s, [])
    assert s.turn == 2 and s.initiative == 1 and dice_used(s) == 0


# ------------------------------------------------------------------ activations (R13)
def test_hold_and_pass():
    """000_294bccfd88f0ebda.txt: "The Taliban player can activate one of his units." ... "Once the
    Taliban has conducted all of his initiative actions, the USMC has conducted interruptions, then
    moved or fired his remaining units, the turn ends." R13: ``hold`` does nothing; ``pass`` ends the
    activations and units not activated lose their turn."""
    s = three_on_three()
    s.apply("tal.1")
    s.apply("hold")
    assert s.activated[uid("tal.1")] == 1
    assert s.legal_action_strings() == ["tal.2", "tal.3", "pass"]
    s.apply("pass")  # tal.2 and tal.3 lose their activation
    assert s.current_player == 1 and s.to_position()["portion"] == "non_initiative"
    assert s.legal_action_strings() == ["usmc.A", "usmc.B", "usmc.C", "pass"]
    script(s, [1, 1])  # turn 2 initiative: 1D6, 1D8
    s.apply("pass")
    assert s.turn == 2 and s.activated == [0] * 8


def fired(rules):
    """tal.1 (initiative) fires at usmc.A 14" away; nothing hits and nobody fires back."""
    s = make({"tal.1": unit(pt(5, 11)), "usmc.A": unit(pt(19, 11))}, rules=rules, initiative="taliban")
    fire(s, "tal.1", "usmc.A", [1] * 40)
    return s


def test_full_rules_a_unit_that_fired_may_make_a_tactical_move():
    """003_b1b2d2a6d4b3bab2.txt: "Units may make a Rapid move and then fire, but may not fire and then make
    a Rapid move." R13: after firing, the full rules offer the unit a Tactical move (up to 6") or
    ``pass``; the move opens its reaction window like any other, and the activation ends after it."""
    s = fired("full")
    assert s.decision_kind == "move_target" and s.decision.context["after_fire"] and s.current_player == 0
    legal = s.legal_action_strings()
    assert pt(11, 11) in legal and pt(13, 11) not in legal and "pass" in legal  # 6" yes, 8" (Rapid) no
    s.apply(pt(11, 11))
    decline_reactions(s)
    assert s.pos[uid("tal.1")] == s.sc.table.index(pt(11, 11)) and s.moved[uid("tal.1")] == 1
    assert s.decision_kind == "select_unit" and s.activated[uid("tal.1")] == 1  # no second fire


def test_full_rules_the_move_after_firing_may_be_declined():
    """R13: ``pass`` ends the activation where the unit stands, unmoved."""
    s = fired("full")
    s.apply("pass")
    assert s.decision_kind == "select_unit" and s.moved[uid("tal.1")] == 0 and s.activated[uid("tal.1")] == 1


def test_the_move_after_firing_lists_exit_and_pass_in_action_order():
    """R13 with a friendly edge in reach: the legal actions stay in increasing order (the mask's order),
    ``exit`` and ``pass`` included."""
    s = make({"tal.1": unit(pt(35, 11)), "usmc.A": unit(pt(21, 11))}, rules="full", initiative="taliban")
    fire(s, "tal.1", "usmc.A", [1] * 40)
    legal = s.legal_actions()
    assert legal == sorted(legal) and {s.EXIT, s.PASS} <= set(legal)
    assert s.legal_action_strings()[-2:] == sorted(["exit", "pass"], key=s.str_to_action)


def test_quick_rules_offer_no_move_after_firing():
    """000_294bccfd88f0ebda.txt: "You can move, shoot, move then shoot." (no shoot then move) R13."""
    s = fired("quick")
    assert s.decision_kind == "select_unit" and s.activated[uid("tal.1")] == 1


def test_a_unit_that_moved_and_fired_moves_no_more():
    """R13: move then shoot is the whole activation; the move after firing is for a unit that fired first."""
    s = make({"tal.1": unit(pt(5, 11)), "usmc.A": unit(pt(19, 11))}, rules="full", initiative="taliban")
    script(s, [1] * 40)
    s.apply("tal.1")
    s.apply("move")
    s.apply(pt(7, 11))
    decline_reactions(s)
    assert s.decision_kind == "fire_target" and s.decision.context["after_move"]
    s.apply("usmc.A")
    if s.decision_kind == "split_target":
        s.apply("pass")
    decline_reactions(s)
    assert s.decision_kind == "select_unit" and s.activated[uid("tal.1")] == 1


# ------------------------------------------------------------------ Overwatch declaration, End Phase
def test_overwatch_declared_by_the_initiative_player_only():
    """000_294bccfd88f0ebda.txt: "At the beginning of the turn, any initiative unit may declare it is going
    on Overwatch. It may not move during the subsequent turn". The USMC won the initiative for turn 2:
    they declare, the Taliban are never asked."""
    s = three_on_three()
    end_turn(s, [1, 5])
    assert s.decision_kind == "declare_overwatch" and s.current_player == 1
    assert s.legal_action_strings() == ["usmc.A", "usmc.B", "usmc.C", "pass"]
    s.apply("usmc.A")
    assert s.legal_action_strings() == ["usmc.B", "usmc.C", "pass"]
    s.apply("pass")
    assert s.decision_kind == "select_unit" and s.current_player == 1
    assert s.legal_action_strings() == ["usmc.B", "usmc.C", "pass"]
    assert s.overwatch[uid("usmc.A")] == 1


def test_overwatch_position_stage():
    """000_294bccfd88f0ebda.txt turn sequence: "Declare Overwatch Units: Initiative units may be placed on
    Overwatch status." A position at that stage asks the initiative player."""
    pos = {
        "stage": "overwatch", "turn": 3, "initiative": "taliban", "pilot": {"exited_turn": 1},
        "units": {"tal.1": unit("x21y11", 2), "usmc.A": unit("x05y11", 2)},
        "table": {"table": {"width_in": 36, "height_in": 36, "spacing_in": 2}, "features": []},
    }  # fmt: skip
    s = game().state_from_position(pos)
    assert s.decision_kind == "declare_overwatch" and s.current_player == 0
    assert s.legal_action_strings() == ["tal.1", "pass"]
    assert s.to_position()["stage"] == "overwatch"


def test_end_phase_recovers_pins_overwatch_and_firepower():
    """000_294bccfd88f0ebda.txt: "What happens at the end of the turn? All pinned units are no longer
    pinned. All Overwatching units lose their Overwatch status. All firepower reductions due to multiple
    firing are restored." Lasting effects (Fog of War results for the rest of the game) stay."""
    s = three_on_three(
        "usmc",
        units={
            "usmc.A": unit("x05y05", 2, support=[], fires=2, status=["overwatch", "ammunition_short"]),
            "usmc.B": unit("x05y11", 2, status=["pinned", "mad_minute", "excellent_position"]),
            "usmc.C": unit("x05y17", 2, moved="rapid", reaction_moves=1, fires=1, status=["activated"]),
            "tal.1": unit("x21y05", 2, status=["reacted", "failed_interrupt", "tougher"], tq=8),
        },
    )
    assert s.fire_capacity(uid("usmc.A")) == 0
    end_turn(s, [1, 1])
    a, b, t = uid("usmc.A"), uid("usmc.B"), uid("tal.1")
    assert s.turn == 2
    for flags in (s.pinned, s.overwatch, s.fires, s.activated, s.moved, s.rmoves, s.reacted, s.failed, s.mad):
        assert flags == [0] * 8
    assert s.fire_capacity(a) > 0
    assert (s.ammo[a], s.excellent[b], s.tough[t], s.tq[t]) == (1, 1, 1, 8)


# ------------------------------------------------------------------ options, illegal actions
def test_three_taliban_teams_option():
    """000_294bccfd88f0ebda.txt: "The Taliban are organized in three fire teams of differing sizes" while
    the scenario sheet lists "Taliban Team Four". R10: ``taliban_teams=3`` plays without Team Four."""
    g = game(taliban_teams=3)
    s = g.new_initial_state(2)
    for p in TALIBAN_DEPLOY[:3]:
        assert s.decision_kind == "deploy"
        s.apply(p)
    assert s.decision_kind == "declare_hidden"
    assert "tal.4" not in s.legal_action_strings()
    assert g.setup.profiles[uid("tal.4")].figures == 0
    assert sum(s.effective(u) for u in range(4)) == 20  # 7 + 8 + 5: "20 figures"
    s = set_up(taliban_teams=3, hide=())
    assert s.pos[uid("tal.4")] == -1 and not s.active(uid("tal.4"))


@pytest.mark.parametrize(
    "options",
    [{"teams": 3}, {"taliban_teams": 5}, {"rules": "basic"}, {"fog_of_war": "yes"}, {"capture": 1}],
)
def test_bad_options_raise_option_error(options):
    """Options are the scenario choices of rulings.md; anything else is refused with OptionError."""
    import fof_env

    with pytest.raises(OptionError):
        fof_env.make_game("lost_and_found", **options)


def test_illegal_action_raises_and_leaves_the_state_unchanged():
    """The engine contract: an illegal action raises IllegalActionError and changes nothing."""
    s = three_on_three()
    before = s.fingerprint()
    for bad in ("move", "usmc.A", "x99y99", "n3", 10_000, "interrupt_fire"):
        with pytest.raises(IllegalActionError):
            s.apply(bad)
        assert s.fingerprint() == before
    s.apply("tal.1")
    before = s.fingerprint()
    with pytest.raises(IllegalActionError):
        s.apply("exit")  # tal.1 is 15" from the East edge
    assert s.fingerprint() == before


# ------------------------------------------------------------------ records
def random_game(seed: int, stop=None):
    s = game().new_initial_state(seed)
    rng = np.random.default_rng(seed)
    seen = []
    while not s.is_terminal and not (stop and stop(s)):
        if s.decision_kind == "select_unit":
            seen.append(s.clone())
        s.apply(int(rng.choice(s.legal_actions())))
    return s, seen


@pytest.mark.parametrize("seed", [0, 3, 4])
def test_record_round_trip_after_a_random_game(seed):
    """A record (``to_json``) replays to the same state: same fingerprint, same outcome."""
    s, _ = random_game(seed)
    assert s.is_terminal
    r = State.from_json(s.to_json())
    assert r.fingerprint() == s.fingerprint()
    assert r.returns() == s.returns() and r.score == s.score


def test_record_round_trip_mid_game():
    s, _ = random_game(1, stop=lambda st: len(st.history) >= 40)
    r = State.from_json(s.to_json())
    assert r.fingerprint() == s.fingerprint()
    assert r.legal_action_strings() == s.legal_action_strings()


@pytest.mark.parametrize("seed", [0, 3])
def test_positions_round_trip_at_select_unit(seed):
    """``to_position()`` describes the moments between activations: a state rebuilt from it writes the
    same position and offers the same choices."""
    _, seen = random_game(seed)
    assert seen
    for s in seen:
        p = s.to_position()
        r = game().state_from_position(p)
        assert r.to_position() == p
        assert r.legal_action_strings() == s.legal_action_strings()
        assert r.current_player == s.current_player


def test_observation_at_select_unit_depends_only_on_the_position():
    """A state and its rebuilt position are the same moment of the game: the observation (which a
    player acts on) must not differ. The last window's "window is a fire"/"reaction move" flags are
    stale at a select_unit decision."""
    _, seen = random_game(0)
    for s in seen:
        r = game().state_from_position(s.to_position())
        for player in (0, 1):
            assert np.array_equal(r.observation(player), s.observation(player))
