"""The ``out_of_contact`` rule module (rulings R40-R41) on "Compound Raid" positions.

Seed: 003_b1b2d2a6d4b3bab2.txt, "Out of Contact Movement": "Out of Contact Movement is generally only
allowed to one side in a scenario and may only be used while that side is the non-initiative force. A
unit capable of Out of Contact Movement that is not currently visible to any initiative unit, i.e., no
initiative unit has an open Line of Sight to it, may move anywhere on the table as long as it can trace
a path from its current position to the spot it wishes to move to without crossing any initiative
unit's line of sight." and "Units utilizing Out of Contact Movement must end their movement before they
enter an initiative unit's line of sight."

The table: two long buildings, ``north_block`` (x 6-30, y 0-16) and ``south_block`` (x 6-30, y 20-36),
with a lane between them (rows y 17 and y 19). brit.A stands at x03y17, looking down the lane: it sees
the lane and the open strip east of the blocks along rows y 17 and 19, and nothing behind or inside
the blocks (buildings block sight beyond their outer 2", R5). So the ground it cannot see falls in two
parts, cut apart by the lane: the north part (the north block and the strip x 31-35, y 1-15) and the
south part. mil.4 stands at x33y05, in the north part.
"""

from __future__ import annotations

import json

import fof_env
from fof_env.force_on_force import events as ev
from fof_env.force_on_force.scenario import scenario_file

from .helpers import area, dice_used, events, script, table_with, unit
from .raid_helpers import MILITIA, raid_state, rid

LANE = table_with(area("building", 6, 0, 30, 16, "north_block"), area("building", 6, 20, 30, 36, "south_block"))
BRIT, MIL = "x03y17", "x33y05"
FAR_NORTH = "x07y01"  # inside the north block, 26.3" from mil.4: unseen, reached through unseen ground
NORTH = "x29y13"  # inside the north block, 8.9" away
SOUTH = "x33y23"  # unseen, 18" away, but every way there crosses the lane brit.A watches
LANE_FAR = "x19y17"  # in the lane, seen, 18.4" away


def _state(mil_at: str = MIL, brit: dict | None = None, **kw):
    units = {"brit.A": brit or unit(BRIT, 4, support=[]), "mil.4": unit(mil_at, 5, support=[])}
    kw.setdefault("portion", "non_initiative")  # the militia's activations, the British with the initiative
    return raid_state(units, table=LANE, **kw)


def _move_choices(s) -> list[str]:
    s.apply("mil.4")
    s.apply("move")
    assert s.decision_kind == "move_target" and s.current_player == MILITIA
    return s.legal_action_strings()


def test_the_lane_table_geometry():
    """The premises of the tests below, read from the table's line-of-sight matrix."""
    s = _state()
    los = s.table.los[s.table.index(BRIT)]
    seen = {name: bool(los[s.table.index(name)]) for name in (MIL, FAR_NORTH, NORTH, SOUTH, LANE_FAR, "x33y17",
                                                              "x33y19", "x33y15", "x33y21")}  # fmt: skip
    assert seen == {MIL: False, FAR_NORTH: False, NORTH: False, SOUTH: False, LANE_FAR: True, "x33y17": True,
                    "x33y19": True, "x33y15": False, "x33y21": False}  # fmt: skip


def test_an_unseen_non_initiative_unit_moves_anywhere_it_can_reach_unseen():
    """003: "may move anywhere on the table as long as it can trace a path ... without crossing any
    initiative unit's line of sight": x07y01, 26" away, is offered; x33y23 (unseen, but beyond the lane)
    and x19y17 (in the lane, seen) are not, being more than 12" away. The move goes through with no
    reaction (nobody sees it) and, longer than 6", is a Rapid move (R40)."""
    s = _state()
    legal = _move_choices(s)
    assert FAR_NORTH in legal and NORTH in legal
    assert SOUTH not in legal and LANE_FAR not in legal
    script(s, [])
    s.apply(FAR_NORTH)
    assert s.pos[rid(s, "mil.4")] == s.table.index(FAR_NORTH) and dice_used(s) == 0
    assert events(s, ev.UnitMoved)[-1] == ev.UnitMoved("mil.4", MIL, FAR_NORTH, True)


def test_a_unit_an_initiative_unit_sees_moves_normally():
    """003: "A unit ... that is not currently visible to any initiative unit": mil.4 at x33y17, in
    brit.A's sight, has only its usual destinations (within 12"). A pinned brit.A still sees (R40)."""
    for status in ([], ["pinned"]):
        s = _state("x33y17", brit=unit(BRIT, 4, support=[], status=status))
        legal = _move_choices(s)
        assert FAR_NORTH not in legal and "x33y05" in legal  # 12" away: a Rapid move


def test_no_out_of_contact_move_with_the_initiative():
    """003: "may only be used while that side is the non-initiative force"."""
    s = _state(initiative="militia", portion="initiative")
    assert FAR_NORTH not in _move_choices(s)


def test_the_scenario_option_switches_it_off():
    """``out_of_contact=False``: "Out of Contact Movement may only be utilized by units designated by a
    scenario"."""
    s = _state(out_of_contact=False)
    assert FAR_NORTH not in _move_choices(s)


def test_a_reaction_move_is_not_out_of_contact():
    """R40: Out of Contact Movement is an activation's move: mil.4, making a reaction move to brit.A's
    move (tests brit.A 2, mil.4 6: mil.4 goes first), has its usual destinations only."""
    s = _state(portion="initiative")
    for action in ("brit.A", "move", "x03y15"):
        s.apply(action)
    assert s.decision_kind == "declare_interrupt" and s.legal_action_strings() == ["pass", "interrupt_move"]
    script(s, [2, 6])
    s.apply("interrupt_move")
    assert s.decision_kind == "move_target" and s.decision.context["reaction"]
    legal = s.legal_action_strings()
    assert FAR_NORTH not in legal and "x33y15" in legal


def test_a_hidden_initiative_unit_does_not_count():
    """R40: "Initiative unit" is one the mover's side knows of: with the ``ambush`` rule on for the British
    (a scenario file of one's own), brit.A Hidden in a wood at x05y17 sees mil.4 at x33y19, but the
    militia cannot know it, so mil.4 may move Out of Contact (to x01y01, 36" away); once brit.A is
    not Hidden, mil.4 is in its sight and may not."""
    data = json.loads(scenario_file("compound_raid"))
    data["rules"]["ambush"] = {"side": "british"}
    game = fof_env.make_game("force_on_force", scenario=data)
    table = table_with(area("woods", 2, 14, 6, 22, "copse"))
    for status, offered in ((["hidden"], True), ([], False)):
        s = game.state_from_position({
            "stage": "activation", "turn": 1, "initiative": "british", "portion": "non_initiative", "table": table,
            "units": {"brit.A": unit("x05y17", 4, support=[], status=status), "mil.4": unit("x33y19", 5, support=[])},
        })  # fmt: skip
        assert s.table.los[s.table.index("x05y17")][s.table.index("x33y19")]
        assert ("x01y01" in _move_choices(s)) is offered


def test_an_out_of_contact_move_may_not_end_on_a_wiped_out_enemy_unit():
    """R4: "A unit may not end on a point held by an enemy unit"; R41: "A point held by an enemy unit the
    mover's side can see is never a destination". brit.B, wiped out (4 KIA) at x07y01 in the north block,
    sees nothing, so its point is unseen and 26" from mil.4, beyond any ordinary move: only the Out of
    Contact reach could offer it, and it must not; x09y01 beside it is offered."""
    s = raid_state({"brit.A": unit(BRIT, 4, support=[]), "brit.B": unit(FAR_NORTH, 0, kia=4),
                    "mil.4": unit(MIL, 5, support=[])}, table=LANE, portion="non_initiative")  # fmt: skip
    assert not s.active(rid(s, "brit.B"))
    legal = _move_choices(s)
    assert FAR_NORTH not in legal and "x09y01" in legal


EDGES = table_with(area("building", 0, 0, 6, 36, "west_block"), area("building", 30, 0, 36, 36, "east_block"))


def test_the_out_of_contact_reach_does_not_wrap_round_the_table_edges():
    """003: "as long as it can trace a path from its current position to the spot it wishes to move to
    without crossing any initiative unit's line of sight" (R41: orthogonal 2" steps on the grid). brit.A
    at x17y17 on a table with two buildings along the west and east edges (x 0-6, x 30-36) sees every
    point but the two outer columns of each block (x01, x03 and x33, x35: more than 2" of building in
    between), so the unseen ground is two strips 30" apart. A step east from a strip's east end is off
    the table, not onto the next row's west end: mil.4 in the east strip reaches the east strip only,
    mil.3 in the west strip the west strip only."""
    units = {"brit.A": unit("x17y17", 4, support=[]), "mil.3": unit("x01y25", 5, support=[]),
             "mil.4": unit("x35y09", 5, support=[])}  # fmt: skip
    s = raid_state(units, table=EDGES, portion="non_initiative")
    los = s.table.los[s.table.index("x17y17")]
    assert [bool(los[s.table.index(p)]) for p in ("x01y01", "x03y35", "x05y17", "x31y17", "x33y01", "x35y35")] == [
        False, False, True, True, False, False]  # fmt: skip
    east = _move_choices(s)
    assert {"x33y35", "x35y01"} <= set(east)  # 26"+ away along the strip
    assert not any(p.startswith(("x01", "x03")) for p in east)
    s = raid_state(units, table=EDGES, portion="non_initiative")
    s.apply("mil.3")
    s.apply("move")
    west = s.legal_action_strings()
    assert {"x01y01", "x03y01"} <= set(west)
    assert not any(p.startswith(("x33", "x35")) for p in west)
