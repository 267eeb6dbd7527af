"""Movement: rules 2.0 (woods), 4.1-4.5 of the basic game."""

import numpy as np
import pytest

from fof_env import IllegalActionError, PositionError

from .helpers import game, hname, hx, make, move, neighbors, reach, where

GRID = game().scenario.grid


def within(start: str, radius: int) -> set[str]:
    woods = game().scenario.woods
    return {n for n in GRID.names if 0 < GRID.distance(hx(start), hx(n)) <= radius and not woods[hx(n)]}


# ---------------------------------------------------------------- 2.0 woods
def test_2_0_woods_hexes_cannot_be_entered():
    """001_8616da5a6ffeaaf0.txt [2.0]: "Five of the hexes on the map are "Woods hexes." No units may
    enter, pass through, or occupy Woods hexes." """
    woods = {"0404", "0405", "0603", "0707", "0106"}
    assert {hname(h) for h, w in enumerate(game().scenario.woods) if w} == woods
    s = make({"A": "0503"}, {"A": "0109"})  # 0503 is next to woods 0603, 0404 is two hexes away
    assert "0603" in neighbors("0503")
    assert not reach(s, "sov.A") & woods
    s.apply("sov.A")
    with pytest.raises(IllegalActionError):
        s.apply("0603")


def test_2_0_woods_hexes_cannot_be_passed_through():
    """001_8616da5a6ffeaaf0.txt [2.0]: "No units may enter, pass through, or occupy Woods hexes." """
    # 0704 is four hexes from 0302, but every four-hex path crosses the woods hex 0603.
    s = make({"A": "0302"}, {"A": "0109"})
    assert GRID.distance(hx("0302"), hx("0704")) == 4
    assert "0704" not in reach(s, "sov.A")
    assert "0604" in reach(s, "sov.A")  # the same distance on a clear path is fine
    with_optional = make({"A": "0302"}, {"A": "0109"}, optional=True)
    assert "0603" in reach(with_optional, "sov.A")  # only rule 8.1 opens the woods


def test_2_0_no_unit_may_occupy_woods():
    """001_8616da5a6ffeaaf0.txt [2.0]: "No units may enter, pass through, or occupy Woods hexes." """
    with pytest.raises(PositionError, match="0404 is woods"):
        make({"A": "0404"}, {"A": "0109"})


# ---------------------------------------------------------------------- 4.1
def test_4_1_player_moves_any_or_all_units_one_at_a_time_in_any_order():
    """001_8616da5a6ffeaaf0.txt [4.1]: "The player moves his units one at a time in any order he
    wishes." """
    s = make({"A": "0101", "B": "0301", "C": "0501"}, {"A": "0109"})
    assert s.decision.kind == "select_unit" and s.decision.player == 0
    assert s.legal_action_strings() == ["sov.A", "sov.B", "sov.C", "pass"]
    move(s, "sov.C", "0502")
    assert s.legal_action_strings() == ["sov.A", "sov.B", "pass"]  # C has moved
    s.apply("sov.A")
    assert s.decision.kind == "move_target" and s.decision.context["unit"] == "sov.A"
    with pytest.raises(IllegalActionError):
        s.apply("sov.B")  # one at a time: A's move must be finished first
    s.apply("0102")
    assert s.legal_action_strings() == ["sov.B", "pass"]
    assert (where(s, "sov.A"), where(s, "sov.B"), where(s, "sov.C")) == ("0102", "0301", "0502")


def test_4_1_player_may_choose_not_to_move_some_or_all_units():
    """001_8616da5a6ffeaaf0.txt [4.1]: "A player may choose to not move some or all of his units." """
    s = make({"A": "0101", "B": "0301"}, {"A": "0109"})
    s.apply("pass")
    assert s.to_position()["phase"] == "us_move"  # no Soviet attack possible: combat phase skipped
    assert (where(s, "sov.A"), where(s, "sov.B")) == ("0101", "0301")
    s = make({"A": "0101", "B": "0301"}, {"A": "0109"})
    s.apply("sov.A")
    s.apply("0101")  # its own hex: the unit stays where it is
    assert where(s, "sov.A") == "0101"
    assert s.legal_action_strings() == ["sov.B", "pass"]


def test_4_1_player_may_never_move_opposing_units():
    """001_8616da5a6ffeaaf0.txt [4.1]: "A player may never move any of the opposing player's units." """
    s = make({"A": "0101"}, {"A": "0109"})
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="select_unit"):
        s.apply("us.A")
    assert s.to_json() == before
    s.apply("pass")
    assert s.decision.player == 1
    assert s.legal_action_strings() == ["us.A", "pass"]


# ---------------------------------------------------------------------- 4.2
def test_4_2_continuous_path_no_jumping():
    """001_8616da5a6ffeaaf0.txt [4.2]: "Units are moved from hex to adjacent hex in a continuous path
    of hexes. There is no skipping or jumping over hexes allowed." """
    # Soviet A in the corner 0101 has two neighbours; both hold U.S. units, so although many hexes
    # lie within four hexes of it there is no continuous path to any of them.
    s = make({"A": "0101", "B": "0801"}, {"A": "0102", "B": "0201"})
    assert neighbors("0101") == {"0102", "0201"}
    assert reach(s, "sov.A") == set()
    assert s.legal_action_strings() == ["sov.B", "pass"]


def test_4_2_any_direction_straight_or_crooked():
    """001_8616da5a6ffeaaf0.txt [4.2]: "Units may be moved in any direction or combination of
    directions. The path of a unit's movement may be as straight or as crooked as the moving player
    desires." """
    s = make({"A": "0403"}, {"A": "0109"})
    r = reach(s, "sov.A")
    assert neighbors("0403") - {"0404"} <= r  # every direction (0404 is woods)
    # 0406 lies beyond the woods 0404-0405: only the crooked path 0504-0505-0506-0406
    # (or 0304-0305-0306-0406) gets there in four hexes.
    assert "0406" in r


# ---------------------------------------------------------------------- 4.3
def test_4_3_maximum_of_four_hexes():
    """001_8616da5a6ffeaaf0.txt [4.3]: "a player may move each of his units a maximum of four
    hexes." """
    s = make({"A": "0101"}, {"A": "0808"})
    assert reach(s, "sov.A") == within("0101", 4)
    assert "0601" not in reach(s, "sov.A")  # five hexes away
    assert GRID.distance(hx("0101"), hx("0601")) == 5


def test_4_3_unused_movement_is_not_saved():
    """001_8616da5a6ffeaaf0.txt [4.3]: "Each may be moved less than four hexes in a turn, but it does
    not "save" that unused movement for use in a later turn." """
    s = make({"A": "0101"}, {"A": "0808"})
    move(s, "sov.A", "0102")  # one hex of four used
    s.apply("pass")  # U.S. movement
    assert s.to_position()["turn"] == 2 and s.to_position()["phase"] == "soviet_move"
    assert reach(s, "sov.A") == within("0102", 4)
    assert not reach(s, "sov.A") & {n for n in GRID.names if GRID.distance(hx("0102"), hx(n)) > 4}


# ---------------------------------------------------------------------- 4.4
def test_4_4_never_enter_or_pass_through_enemy_hex():
    """001_8616da5a6ffeaaf0.txt [4.4]: "A player's units may never enter or pass through a hex while
    it contains one of the opposing player's units." """
    s = make({"A": "0702"}, {"A": "0502", "B": "0808"})
    r = reach(s, "sov.A")
    assert "0602" in r and "0502" not in r
    # Passing through is excluded too: west of 0502 nothing is reached through it.
    assert not r & {"0302", "0402", "0303"}
    s.apply("sov.A")
    with pytest.raises(IllegalActionError):
        s.apply("0502")


def test_4_4_never_move_off_the_map():
    """001_8616da5a6ffeaaf0.txt [4.4]: "Units may never move off the map." """
    s = make({"A": "0801"}, {"A": "0109"})
    assert all(0 <= h < len(GRID) for h in s.reachable(0))
    s.apply("sov.A")
    before = s.to_json()
    for off_map in ("0209", "0901", "0800", "0110"):
        with pytest.raises(IllegalActionError, match="move_target"):
            s.apply(off_map)
    assert s.to_json() == before


def test_4_4_may_move_through_but_not_end_on_own_unit():
    """001_8616da5a6ffeaaf0.txt [4.4]: "A player may move one or more of his units through a hex
    containing one of his own units, but he may never end the movement part of the turn with more
    than one of his units in any hex." """
    s = make({"A": "0101", "B": "0102", "C": "0201"}, {"A": "0808"})
    r = reach(s, "sov.A")
    assert "0102" not in r and "0201" not in r  # occupied by friends
    assert {"0103", "0202", "0301"} <= r  # reached through them
    s.apply("sov.A")
    with pytest.raises(IllegalActionError):
        s.apply("0102")


def test_4_4_stacking_checked_as_each_unit_ends_its_move():
    """001_8616da5a6ffeaaf0.txt [4.4]: "he may never end the movement part of the turn with more than
    one of his units in any hex." Ruling: checked when each unit ends its move, so two adjacent units
    cannot swap hexes."""
    s = make({"A": "0101", "B": "0102"}, {"A": "0808"})
    assert "0102" not in reach(s, "sov.A")
    assert "0101" not in reach(s, "sov.B")
    move(s, "sov.B", "0103")
    assert "0102" in reach(s, "sov.A")  # free again once B has left


# ---------------------------------------------------------------------- 4.5
def test_4_5_must_stop_on_entering_hex_adjacent_to_enemy():
    """001_8616da5a6ffeaaf0.txt [4.5]: "Whenever a unit enters a hex that is directly adjacent to any
    of the opposing player's units, the moving unit must immediately stop in that hex and move no
    further that turn." """
    # Every path west from 0702 to 0301 (four hexes) enters a hex next to U.S. A in 0402.
    free = make({"A": "0702"}, {"A": "0109"})
    assert "0301" in reach(free, "sov.A")
    s = make({"A": "0702"}, {"A": "0402"})
    r = reach(s, "sov.A")
    assert "0401" in r and "0502" in r  # may enter the adjacent hexes ...
    assert not r & {"0301", "0302", "0303"}  # ... but not continue past them
    move(s, "sov.A", "0502")
    assert where(s, "sov.A") == "0502"
    assert "sov.A" not in s.legal_action_strings()


def test_4_5_unit_starting_adjacent_may_leave_and_move_normally():
    """001_8616da5a6ffeaaf0.txt [4.5]: "If a player's unit begins his movement part of the turn in a
    hex adjacent to an opposing unit, the unit may leave that hex and move normally." """
    s = make({"A": "0502"}, {"A": "0402"})
    r = reach(s, "sov.A")
    assert {"0601", "0602"} <= r
    assert {"0804", "0705"} <= r  # four hexes away, the full allowance


def test_4_5_never_move_directly_between_two_enemy_adjacent_hexes():
    """001_8616da5a6ffeaaf0.txt [4.5]: "a player may never move one of his units directly from one
    hex to another if both those hexes are adjacent to one or more of the opposing player's
    units." """
    # Soviet A in 0502 is next to U.S. A in 0402; 0401 and 0503 are next to both.
    s = make({"A": "0502", "B": "0501", "C": "0601", "D": "0602"}, {"A": "0402"})
    assert {"0401", "0503"} <= neighbors("0502") & neighbors("0402")
    # With its non-adjacent neighbours held by friends (which it may pass through) it reaches
    # 0401/0503 only around them, never by the direct step.
    r = reach(s, "sov.A")
    assert {"0401", "0503"} <= r  # via 0501 / 0602 (Figure 4 paragraph)
    # Now make the detours impossible: the direct step alone would remain, and it is refused.
    s = make({"A": "0101"}, {"A": "0102"})
    assert "0201" in neighbors("0101") and "0201" in neighbors("0102")
    assert reach(s, "sov.A") == set()


def test_4_5_may_begin_and_end_adjacent_if_middle_hexes_are_not():
    """001_8616da5a6ffeaaf0.txt [4.5]: "A moving unit may begin and end its move adjacent to enemy
    units if one (or two) of the hexes it enters during the middle of its move are not adjacent to
    the opposing player's unit(s)." """
    s = make({"A": "0502"}, {"A": "0402"})
    assert "0602" not in neighbors("0402")
    move(s, "sov.A", "0503")  # 0502 -> 0602 -> 0503
    assert where(s, "sov.A") == "0503"
    assert "0402" in neighbors("0503")


def test_4_5_unit_unable_to_move_is_not_offered_and_phase_ends():
    """001_8616da5a6ffeaaf0.txt [4.5]: "Sometimes a particular unit will be unable to move because of
    this rule." Ruling: the engine ends a phase itself when the only legal option is to end it."""
    s = make({"A": "0101"}, {"A": "0102", "B": "0808"})
    # Soviet A cannot move (Figure 5), so the Soviet movement phase offers nothing and is skipped
    # straight into the Soviet combat phase.
    assert s.to_position()["phase"] == "soviet_combat"
    assert s.legal_action_strings() == ["0102", "pass"]


def test_4_5_friendly_occupied_hex_next_to_enemy_cannot_be_entered():
    """001_8616da5a6ffeaaf0.txt [4.5]: "the moving unit must immediately stop in that hex" + [4.4]:
    "he may never end the movement part of the turn with more than one of his units in any hex."
    Ruling: a hex next to an enemy that the unit may not end in cannot be entered at all."""
    s = make({"A": "0702", "B": "0602"}, {"A": "0502"})
    assert "0602" in neighbors("0502")
    assert "0602" not in reach(s, "sov.A")
    assert "0503" not in reach(s, "sov.A")  # reachable only by passing through 0602
    opt = make({"A": "0702", "B": "0602"}, {"A": "0502"}, optional=True)
    assert "0602" in reach(opt, "sov.A")  # 7.1: it may stack there, and stops


def test_unit_counts_as_moved_after_staying_put():
    """001_8616da5a6ffeaaf0.txt [4.1]: "A player may choose to not move some or all of his units."
    Ruling: in move_target the unit's own hex means "stay"; the unit then counts as moved."""
    s = make({"A": "0101", "B": "0301"}, {"A": "0808"})
    s.apply("sov.A")
    assert "0101" in s.legal_action_strings()
    s.apply("0101")
    assert s.to_position()["done"] == ["sov.A"]
    assert "sov.A" not in s.legal_action_strings()
    assert not any(type(e).__name__ == "UnitMoved" for e in s.events)


# ------------------------------------------------------- literal path oracle
def literal_destinations(state, unit: int, optional: bool) -> set[int]:
    """Every hex at the end of a legal path, by enumerating paths step by step (4.2-4.5, 7.1, 8.1)."""
    sc = state.sc
    side = 0 if unit < 6 else 1
    own = [state.unit_hex[u] for u in range(10) if (u < 6) == (side == 0) and u != unit]
    enemy = {state.unit_hex[u] for u in range(10) if (u < 6) != (side == 0) and state.unit_hex[u] >= 0}
    enemy_adjacent = {n for e in enemy for n in sc.grid.neighbors[e]}
    limit = 2 if optional else 1
    ends: set[int] = set()

    def walk(h: int, spent: int) -> None:
        for n in sc.grid.neighbors[h]:
            if n in enemy:
                continue  # 4.4
            if sc.woods[n] and not optional:
                continue  # 2.0
            cost = spent + (2 if sc.woods[n] else 1)  # 8.1
            if cost > 4:
                continue  # 4.3
            if h in enemy_adjacent and n in enemy_adjacent:
                continue  # 4.5: never directly between two enemy-adjacent hexes
            if own.count(n) < limit:
                ends.add(n)  # 4.4 / 7.1
            if n not in enemy_adjacent:
                walk(n, cost)  # 4.5: otherwise the unit must stop in n

    walk(state.unit_hex[unit], 0)
    ends.discard(state.unit_hex[unit])
    return ends


@pytest.mark.parametrize("optional", [False, True])
def test_reachable_matches_literal_path_enumeration(optional):
    """001_8616da5a6ffeaaf0.txt [4.2]: "Units are moved from hex to adjacent hex in a continuous path
    of hexes." All of 4.2-4.5 (and 7.1, 8.1 under the optional rules), checked on random positions
    against a literal path-by-path reading."""
    rng = np.random.default_rng(5)
    sc = game(optional).scenario
    candidates = [h for h in range(len(sc.grid)) if optional or not sc.woods[h]]
    checked = 0
    for _ in range(150):
        n_sov, n_us = int(rng.integers(1, 7)), int(rng.integers(1, 5))
        cells = rng.choice(candidates, size=n_sov + n_us, replace=False)
        soviet = {"ABCDEF"[i]: hname(int(cells[i])) for i in range(n_sov)}
        us = {"ABCD"[i]: hname(int(cells[n_sov + i])) for i in range(n_us)}
        if optional and n_sov >= 2 and rng.random() < 0.5:
            soviet["B"] = soviet["A"]  # a stack
        s = make(soviet, us, optional=optional)
        for u in [*range(n_sov), *range(6, 6 + n_us)]:
            assert set(s.reachable(u)) == literal_destinations(s, u, optional), (soviet, us, u)
            checked += 1
    assert checked > 500
