"""The "Lost & Found" scenario data (fof_env/force_on_force/data/lost_and_found.json).

Forces are checked against the seed ``000_294bccfd88f0ebda.txt``; the map is a
reconstruction (the printed map is a picture), so its tests pin the tactical
properties the layout was designed to have rather than a printed original.
"""

import collections
import copy
import json
from importlib import resources

import pytest

from fof_env.core.errors import PositionError
from fof_env.force_on_force.scenario import FigureSpec, SideSpec, load_scenario, scenario_from_dict

SEED = "000_294bccfd88f0ebda.txt"
SC = load_scenario()
T = SC.table
POCKET = (1, 2, 3)  # the three teams of the quick start's 20 Taliban figures


def raw() -> dict:
    text = resources.files("fof_env.force_on_force").joinpath("data", "lost_and_found.json").read_text()
    return json.loads(text)


def P(x: int, y: int) -> int:
    return T.index(f"x{x:02d}y{y:02d}")


def test_shipped_file_loads_and_is_marked_as_a_reconstruction():
    assert SC.name == "Lost & Found"
    assert SC.provenance.startswith("RECONSTRUCTION")
    assert load_scenario() is SC  # cached
    assert (T.width_in, T.height_in, T.spacing_in, len(T)) == (36, 36, 2, 324)


def test_turns_and_deadlines():
    """000_294bccfd88f0ebda.txt: "Duration of Game: 9 Turns"; "escorts the pilot off table prior to
    Turn 6 = 10 VP"; "escorts the pilot off table by end of Turn 8 = 7 VP"."""
    assert (SC.turns, SC.pilot_deadline_turn, SC.early_escort_before_turn) == (9, 8, 6)


def test_usmc_commands_fourteen_figures():
    """000_294bccfd88f0ebda.txt: "The USMC player or players will be in command of 14 figures." ...
    "the USMC has three fire teams of four men each; the squad leader can be attached to any one of
    the fire teams. The attached pilot/air controller can be attached to any one of the fire teams."
    """
    usmc = SC.side_units("usmc")
    assert [u.name for u in usmc] == ["Squad Leader", "Alpha", "Bravo", "Charlie"]
    assert sum(len(u) for u in usmc) + len(SC.pilot) == 14
    assert SC.attachable_units == ("Squad Leader",)
    assert SC.unit("Squad Leader").figures == (FigureSpec("Squad Leader", "M-16A2", None),)
    assert SC.pilot.side == "usmc" and SC.pilot.figures == (FigureSpec("Pilot/Air Controller", None, None),)


@pytest.mark.parametrize("team", ["Alpha", "Bravo", "Charlie"])
def test_usmc_fire_team(team):
    """000_294bccfd88f0ebda.txt: "Fire Team Alpha 1x Fire Team Leader w/ M-16A2 1x Grenadier w/ M-203 RGL
    (Lt. Support, +1Firepower Die) 1x Gunner w/ M-249 SAW (Lt. Support, +1 Firepower Die) 1x Rifleman
    w/ M-16A2" (Bravo and "Fire Team One Charlie" the same)."""
    assert SC.unit(team).figures == (
        FigureSpec("Fire Team Leader", "M-16A2", None),
        FigureSpec("Grenadier", "M-203 RGL", "light"),
        FigureSpec("Gunner", "M-249 SAW", "light"),
        FigureSpec("Rifleman", "M-16A2", None),
    )


@pytest.mark.parametrize(
    ("team", "size", "rpg", "rpk"),
    [
        # "Taliban Team One 1 x Leader with AK 1 x RPG (Med. Support, +2 Firepower Dice)
        #  1 x RPK MG (Lt. Support, +1Firepower Die) 4 x Troopers with AKs"
        (1, 7, 1, 1),
        # "Taliban Team Two 1 x Leader with AK 1 x RPK MG (Lt. Support, +1Firepower Die)
        #  6 x Troopers with AKs"
        (2, 8, 0, 1),
        # "Taliban Team Three 1 x Leader with AK 1 x RPG (Med. Support, +2 Firepower Dice)
        #  3 x Troopers with AKs"
        (3, 5, 1, 0),
        # "Taliban Team Four 1 x Leader with AK 1 x RPG (Med. Support, +2 Firepower Dice)
        #  1 x RPK MG (Lt. Support, +1Firepower Die) 4 x Troopers with AKs"
        (4, 7, 1, 1),
    ],
)
def test_taliban_teams(team, size, rpg, rpk):
    """000_294bccfd88f0ebda.txt, "Taliban Forces" (quoted per case)."""
    figs = SC.taliban_teams[team].figures
    assert len(figs) == size
    assert figs[0] == FigureSpec("Leader", "AK", None)
    assert sum(f == FigureSpec("RPG Gunner", "RPG", "medium") for f in figs) == rpg
    assert sum(f == FigureSpec("RPK Gunner", "RPK MG", "light") for f in figs) == rpk
    assert sum(f == FigureSpec("Trooper", "AK", None) for f in figs) == size - 1 - rpg - rpk


def test_taliban_command_twenty_figures_in_three_teams_plus_optional_team_four():
    """000_294bccfd88f0ebda.txt: "The Taliban player or players will be in command of 20 figures." and
    "The Taliban are organized in three fire teams of differing sizes." while the scenario sheet also
    lists "Taliban Team Four"; Team Four is marked optional."""
    assert sum(len(SC.taliban_teams[t]) for t in POCKET) == 20
    assert SC.optional_units == ("Team Four",)
    assert SC.taliban_teams[4].name == "Team Four"


def test_side_attributes():
    """000_294bccfd88f0ebda.txt: "USMC Basic Attributes Initiative Level: D8 Confidence Level: Normal Supply
    Level: High Body Armor: Standard (1D) Troop Quality/Morale: D8/D10" and "Taliban Force Basic Attributes
    Initiative Level: D6 Confidence Level: High Supply Level: Normal Troop Quality/Morale: D6/D10"."""
    usmc, tal = SC.sides["usmc"], SC.sides["taliban"]
    assert usmc == SideSpec("USMC", 8, 8, 10, 1, "high", "normal", usmc.seed_quote)
    assert tal == SideSpec("Taliban", 6, 6, 10, 0, "normal", "high", tal.seed_quote)
    assert "Body Armor: Standard (1D)" in usmc.seed_quote and "D6/D10" in tal.seed_quote


# ------------------------------------------------------------------------------- the map
def test_pilot_starts_inside_building_p_well_inside_the_table():
    """000_294bccfd88f0ebda.txt: "P: Pilot's starting position in an abandoned building"."""
    p_rect = T.feature_by_id["P"].rect
    assert SC.pilot_building == "P" and T.feature_at[SC.pilot_start] == "P"
    assert T.kind_at[SC.pilot_start] == "building"
    x0, y0, x1, y1 = p_rect
    assert x0 > 0 and y0 > 0 and x1 < T.width_in and y1 < T.height_in  # not on a table edge
    assert T.distance_to_edge(SC.pilot_start, "west") >= 18  # the Marines must cross ~20"


def test_edges():
    """000_294bccfd88f0ebda.txt: "off a friendly board edge (West for the USMC; East for the Taliban)"."""
    assert (SC.usmc_entry_edge, SC.taliban_edge) == ("west", "east")
    assert [T.xy[p][0] for p in SC.usmc_entry_points] == [1.0] * 18
    assert [T.xy[p][0] for p in SC.taliban_edge_points] == [35.0] * 18


def test_taliban_positions_and_deploy_points():
    """Ambush: "The Taliban player may declare that any of his units starting in the woods are Hidden":
    Teams 1, 2 and 4 start in woods; Team 3 holds a compound building."""
    assert sorted(SC.taliban_positions) == [1, 2, 3, 4]
    for team in (1, 2, 4):
        assert T.in_woods[SC.taliban_positions[team]], team
    assert T.kind_at[SC.taliban_positions[3]] == "building"
    assert T.feature_at[SC.taliban_positions[3]].startswith("compound")
    for team, mark in SC.taliban_positions.items():
        points = SC.taliban_deploy_points[team]
        assert mark in points and points == sorted(points)
        assert all(T.dist[mark][q] <= 4 + 1e-9 for q in points)
        assert len(points) == 13  # the mark and the 12 points within 4" (no table edge nearby)


def test_every_taliban_position_sees_the_western_approach_and_building_p():
    near_west = [p for p in range(len(T)) if T.distance_to_edge(p, "west") <= 12]
    near_p = [
        p for p in range(len(T)) if T.kind_at[p] == "open" and T.feature_by_id["P"].distance_to(*T.xy[p]) <= 2
    ]
    for team, t in SC.taliban_positions.items():
        assert any(T.los[t][p] for p in near_west), team
        if team in POCKET:
            assert any(T.los[t][p] for p in near_p), team


def test_a_covered_bounding_route_leads_to_p():
    """From the West edge to P in tactical moves of at most 6", every stop either out of sight of
    Teams 1-3 or in cover from each team that sees it."""
    teams = [SC.taliban_positions[t] for t in POCKET]

    def safe(p: int) -> bool:
        return all(not T.los[t][p] or T.cover_from[t][p] for t in teams)

    seen = set(SC.usmc_entry_points)
    queue = collections.deque(seen)
    while queue:
        p = queue.popleft()
        for q in T.within(p, 6):
            if q not in seen and safe(q):
                seen.add(q)
                queue.append(q)
    assert any(T.feature_at[p] == "P" for p in seen)
    # the route described in the design notes
    for x, y in ((7, 9), (11, 13), (15, 17), (21, 17)):
        assert safe(P(x, y)), (x, y)


def test_open_killing_ground_in_front_of_p():
    """The open field south-west of P is seen by all of Teams 1-3 with no cover from any of them."""
    teams = [SC.taliban_positions[t] for t in POCKET]
    killing = [
        p
        for p in range(len(T))
        if all(T.los[t][p] and not T.cover_from[t][p] for t in teams) and 12 < T.xy[p][0] < 20
    ]
    assert P(17, 21) in killing and P(19, 23) in killing and len(killing) >= 4
    assert all(T.kind_at[p] == "open" for p in killing)


def test_the_stream_bank_gives_cover_and_does_not_block_sight():
    bank = [p for p in range(len(T)) if T.kind_at[p] == "stream_bank"]
    assert bank and all(T.terrain_cover[p] for p in bank)
    assert all(T.xy[p][0] < 12 for p in bank)  # western third
    assert T.los[P(1, 17)][P(15, 17)]  # across the bank


# ------------------------------------------------------------------------------- validation
def small() -> dict:
    """A 12" x 8" table with one building and one Taliban team."""
    d = raw()
    d["table"] = {"width_in": 12, "height_in": 8, "spacing_in": 2}
    d["features"] = [{"id": "P", "kind": "building", "rect": [6, 2, 10, 6]}]
    d["pilot"] = {"building": "P", "start": [7, 3]}
    d["forces"]["units"] = [u for u in d["forces"]["units"] if u.get("team", 1) == 1]
    d["taliban_positions"] = {"1": [11, 7]}
    return d


def test_scenario_from_dict_builds_a_small_custom_table():
    sc = scenario_from_dict(small())
    assert len(sc.table) == 24 and sc.pilot_start == sc.table.index("x07y03")
    assert sc.taliban_positions == {1: sc.table.index("x11y07")}
    assert sc.taliban_deploy_points[1] == sorted(
        [sc.table.index(n) for n in ("x11y07", "x09y07", "x07y07", "x11y05", "x09y05", "x11y03")]
    )
    assert sc.usmc_entry_points == [0, 6, 12, 18] and sc.optional_units == ()


def _set(d: dict, path: str, value) -> None:
    *head, last = path.split(".")
    for k in head:
        d = d[int(k)] if isinstance(d, list) else d[k]
    if value is _DELETE:
        del d[last]
    elif isinstance(d, list):
        d[int(last)] = value
    else:
        d[last] = value


_DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("turns", _DELETE, "missing key 'turns'"),
        ("table.spacing_in", _DELETE, "missing key 'spacing_in'"),
        ("forces.sides.usmc.tq", _DELETE, "missing key 'tq'"),
        ("pilot.start", [20, 17], "not a grid point"),
        ("pilot.start", [23, 23], "not inside building 'P'"),
        ("pilot.building", "north_woods", "not the id of a building"),
        ("taliban_positions.2", [19, 37], 'outside the 36" x 36" table'),
        ("taliban_positions.2", [19.5, 25], "not a grid point"),
        ("taliban_positions.5", [19, 25], "not the team number"),
        ("taliban_positions.4", _DELETE, "no position for team(s) 4"),
        ("features.0.kind", "swamp", "'swamp' is not one of"),
        ("features.1.rect", [30, 6, 40, 12], "beyond the"),
        ("features.1.rect", [18, 6, 26], "list of 4 numbers"),
        ("usmc_entry_edge", "up", "not one of"),
        ("forces.sides.taliban.tq", 7, "not one of"),
        ("forces.units.1.figures.1.support", "extra", "not one of"),
        ("forces.units.1.side", "british", "not one of"),
        ("pilot_deadline_turn", 10, "<= turns"),
    ],
)
def test_malformed_files_raise_position_error(path, value, message):
    d = copy.deepcopy(raw())
    _set(d, path, value)
    with pytest.raises(PositionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        scenario_from_dict(d)


def test_duplicate_feature_ids_and_walls_with_rects_are_rejected():
    d = small()
    d["features"].append({"id": "P", "kind": "woods", "rect": [0, 0, 2, 2]})
    with pytest.raises(PositionError, match="duplicate feature ids"):
        scenario_from_dict(d)
    d = small()
    d["features"].append({"id": "w", "kind": "wall", "rect": [0, 0, 2, 2]})
    with pytest.raises(PositionError, match="takes 'segment'"):
        scenario_from_dict(d)


def test_load_scenario_from_a_path(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(small()))
    assert len(load_scenario(good).table) == 24
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(PositionError, match="not valid JSON"):
        load_scenario(bad)
    with pytest.raises(PositionError, match="cannot read"):
        load_scenario(tmp_path / "missing.json")
