"""The "Lost & Found" scenario file (fof_env/force_on_force/scenarios/lost_and_found.json).

Forces are checked against the seed ``000_294bccfd88f0ebda.txt``; the map is a
reconstruction (the printed map is a picture), so its tests pin the tactical
properties the layout was designed to have rather than a printed original.
"""

import collections

from fof_env.force_on_force.scenario import FigureSpec, SideSpec, load_scenario

SEED = "000_294bccfd88f0ebda.txt"
SC = load_scenario("lost_and_found")
T = SC.table
POCKET = ("tal.1", "tal.2", "tal.3")  # the three teams of the quick start's 20 Taliban figures
MARK = {u.id: u.deploy.mark for u in SC.units if u.deploy is not None and u.deploy.kind == "mark"}
PILOT = SC.rules["downed_pilot"]


def P(x: int, y: int) -> int:
    return T.index(f"x{x:02d}y{y:02d}")


def test_shipped_file_loads_and_is_marked_as_a_reconstruction():
    assert (SC.id, SC.name) == ("lost_and_found", "Lost & Found")
    assert SC.provenance.startswith("RECONSTRUCTION") and SC.source == SEED
    assert load_scenario("lost_and_found") is SC  # cached
    assert (T.width_in, T.height_in, T.spacing_in, len(T)) == (36, 36, 2, 324)
    assert [u.id for u in SC.units] == ["tal.1", "tal.2", "tal.3", "tal.4", "tal.R", "usmc.A", "usmc.B", "usmc.C"]


def test_turns_initiative_and_deadlines():
    """000_294bccfd88f0ebda.txt: "Duration of Game: 9 Turns"; "The Taliban have the initiative on Turn 1"
    (the ambush); "escorts the pilot off table prior to Turn 6 = 10 VP"; "escorts the pilot off table by
    end of Turn 8 = 7 VP"; "makes contact with pilot = 3 VP"."""
    assert (SC.turns, SC.sides[SC.first_initiative].id) == (9, "taliban")
    assert (PILOT["deadline_turn"], PILOT["early_escort_before_turn"]) == (8, 6)
    assert (PILOT["contact_vp"], PILOT["early_escort_vp"], PILOT["escort_vp"]) == (3, 10, 7)


def test_usmc_commands_fourteen_figures():
    """000_294bccfd88f0ebda.txt: "The USMC player or players will be in command of 14 figures." ...
    "the USMC has three fire teams of four men each; the squad leader can be attached to any one of
    the fire teams. The attached pilot/air controller can be attached to any one of the fire teams."
    """
    usmc = [u for u in SC.units if SC.sides[u.side].id == "usmc"]
    assert [u.name for u in usmc] == ["Alpha", "Bravo", "Charlie"]
    (leader,) = SC.attachments
    assert leader.figures == (FigureSpec("Squad Leader", "M-16A2", None),)
    assert PILOT["figure"] == {"role": "Pilot/Air Controller", "weapon": None, "support": None}
    assert sum(len(u) for u in usmc) + len(leader) + 1 == 14


def test_usmc_fire_teams():
    """000_294bccfd88f0ebda.txt: "Fire Team Alpha 1x Fire Team Leader w/ M-16A2 1x Grenadier w/ M-203 RGL
    (Lt. Support, +1Firepower Die) 1x Gunner w/ M-249 SAW (Lt. Support, +1 Firepower Die) 1x Rifleman
    w/ M-16A2" (Bravo and "Fire Team One Charlie" the same)."""
    for team in ("usmc.A", "usmc.B", "usmc.C"):
        assert SC.unit(team).figures == (
            FigureSpec("Fire Team Leader", "M-16A2", None),
            FigureSpec("Grenadier", "M-203 RGL", "light"),
            FigureSpec("Gunner", "M-249 SAW", "light"),
            FigureSpec("Rifleman", "M-16A2", None),
        )


def test_taliban_teams():
    """000_294bccfd88f0ebda.txt: "Taliban Team One 1 x Leader with AK 1 x RPG (Med. Support, +2 Firepower
    Dice) 1 x RPK MG (Lt. Support, +1Firepower Die) 4 x Troopers with AKs"; "Team Two 1 x Leader with AK
    1 x RPK MG ... 6 x Troopers"; "Team Three 1 x Leader with AK 1 x RPG ... 3 x Troopers"; "Team Four"
    as Team One."""
    for team, size, rpg, rpk in (("tal.1", 7, 1, 1), ("tal.2", 8, 0, 1), ("tal.3", 5, 1, 0), ("tal.4", 7, 1, 1)):
        figs = SC.unit(team).figures
        assert len(figs) == size and figs[0] == FigureSpec("Leader", "AK", None)
        assert sum(f == FigureSpec("RPG Gunner", "RPG", "medium") for f in figs) == rpg
        assert sum(f == FigureSpec("RPK Gunner", "RPK MG", "light") for f in figs) == rpk
        assert sum(f == FigureSpec("Trooper", "AK", None) for f in figs) == size - 1 - rpg - rpk


def test_taliban_command_twenty_figures_in_three_teams_plus_optional_team_four():
    """000_294bccfd88f0ebda.txt: "The Taliban player or players will be in command of 20 figures." and
    "The Taliban are organized in three fire teams of differing sizes." while the scenario sheet also
    lists "Taliban Team Four": it is in play only with the option ``taliban_teams=4`` (rulings R10)."""
    assert sum(len(SC.unit(t)) for t in POCKET) == 20
    assert SC.unit("tal.4").requires == {"taliban_teams": 4}
    (option,) = [o for o in SC.options if o.name == "taliban_teams"]
    assert (option.default, option.choices) == (4, (3, 4))
    assert SC.unit("tal.R").reinforcements and SC.unit("tal.R").figures == ()


def test_side_attributes():
    """000_294bccfd88f0ebda.txt: "USMC Basic Attributes Initiative Level: D8 Confidence Level: Normal Supply
    Level: High Body Armor: Standard (1D) Troop Quality/Morale: D8/D10" and "Taliban Force Basic Attributes
    Initiative Level: D6 Confidence Level: High Supply Level: Normal Troop Quality/Morale: D6/D10"."""
    tal, usmc = SC.sides
    assert usmc == SideSpec("usmc", "USMC", "west", 8, 8, 10, 1, "high", "normal", False, usmc.seed_quote, "#3a6030")
    assert tal == SideSpec("taliban", "Taliban", "east", 6, 6, 10, 0, "normal", "high", False, tal.seed_quote, "#b23426")
    assert "Body Armor: Standard (1D)" in usmc.seed_quote and "D6/D10" in tal.seed_quote


def test_set_up_order_and_rules():
    """000_294bccfd88f0ebda.txt: the Taliban set up first ("The Taliban player may declare that any of his
    units starting in the woods are Hidden"), the squad leader joins a team, the Marines enter on the West
    edge; "the Taliban player MUST open fire with at least one of his units as his first action"."""
    assert [(SC.sides[side].id, step) for side, step in SC.deployment] == [
        ("taliban", "deploy"), ("taliban", "hide"), ("usmc", "attach"), ("usmc", "deploy")]  # fmt: skip
    assert sorted(SC.rules) == ["airstrike_call", "ambush", "capture", "downed_pilot", "must_fire_first"]
    assert SC.rules["ambush"]["side"] == SC.rules["must_fire_first"]["side"] == 0
    assert SC.fog_of_war == {"table": "d10_quick_start", "regular": 1, "irregular": 0}
    vp = {(SC.sides[v.side].id, v.kind): v.points for v in SC.victory}
    assert vp == {("taliban", "enemy_kia"): 2, ("taliban", "enemy_serious"): 1, ("taliban", "enemy_captured"): 3}


# ------------------------------------------------------------------------------- the map
def test_pilot_starts_inside_building_p_well_inside_the_table():
    """000_294bccfd88f0ebda.txt: "P: Pilot's starting position in an abandoned building"."""
    start = PILOT["start_point"]
    assert PILOT["building"] == "P" and T.feature_at[start] == "P" and T.kind_at[start] == "building"
    x0, y0, x1, y1 = T.feature_by_id["P"].rect
    assert x0 > 0 and y0 > 0 and x1 < T.width_in and y1 < T.height_in  # not on a table edge
    assert T.distance_to_edge(start, "west") >= 18  # the Marines must cross ~20"


def test_edges():
    """000_294bccfd88f0ebda.txt: "off a friendly board edge (West for the USMC; East for the Taliban)";
    the Marines enter anywhere on their edge."""
    assert [s.edge for s in SC.sides] == ["east", "west"]
    for team in ("usmc.A", "usmc.B", "usmc.C"):
        deploy = SC.unit(team).deploy
        assert deploy.kind == "edge" and [T.xy[p][0] for p in deploy.points] == [1.0] * 18


def test_taliban_positions_and_deploy_points():
    """Ambush: "The Taliban player may declare that any of his units starting in the woods are Hidden":
    Teams 1, 2 and 4 start in woods; Team 3 holds a compound building."""
    assert sorted(MARK) == ["tal.1", "tal.2", "tal.3", "tal.4"]
    for team in ("tal.1", "tal.2", "tal.4"):
        assert T.in_woods[MARK[team]], team
    assert T.kind_at[MARK["tal.3"]] == "building" and T.feature_at[MARK["tal.3"]].startswith("compound")
    for team, mark in MARK.items():
        points = SC.unit(team).deploy.points
        assert mark in points and list(points) == sorted(points)
        assert all(T.dist[mark][q] <= 4 + 1e-9 for q in points)
        assert len(points) == 13  # the mark and the 12 points within 4" (no table edge nearby)


def test_every_taliban_position_sees_the_western_approach_and_building_p():
    near_west = [p for p in range(len(T)) if T.distance_to_edge(p, "west") <= 12]
    near_p = [
        p for p in range(len(T)) if T.kind_at[p] == "open" and T.feature_by_id["P"].distance_to(*T.xy[p]) <= 2
    ]
    for team, t in MARK.items():
        assert any(T.los[t][p] for p in near_west), team
        if team in POCKET:
            assert any(T.los[t][p] for p in near_p), team


def test_a_covered_bounding_route_leads_to_p():
    """From the West edge to P in tactical moves of at most 6", every stop either out of sight of
    Teams 1-3 or in cover from each team that sees it."""
    teams = [MARK[t] for t in POCKET]

    def safe(p: int) -> bool:
        return all(not T.los[t][p] or T.cover_from[t][p] for t in teams)

    seen = set(SC.unit("usmc.A").deploy.points)
    queue = collections.deque(seen)
    while queue:
        p = queue.popleft()
        for q in T.within(p, 6):
            if q not in seen and safe(q):
                seen.add(q)
                queue.append(q)
    assert any(T.feature_at[p] == "P" for p in seen)
    for x, y in ((7, 9), (11, 13), (15, 17), (21, 17)):  # the route described in the design notes
        assert safe(P(x, y)), (x, y)


def test_open_killing_ground_in_front_of_p():
    """The open field south-west of P is seen by all of Teams 1-3 with no cover from any of them."""
    teams = [MARK[t] for t in POCKET]
    killing = [
        p for p in range(len(T)) if all(T.los[t][p] and not T.cover_from[t][p] for t in teams) and 12 < T.xy[p][0] < 20
    ]
    assert P(17, 21) in killing and P(19, 23) in killing and len(killing) >= 4
    assert all(T.kind_at[p] == "open" for p in killing)


def test_the_stream_bank_gives_cover_and_does_not_block_sight():
    bank = [p for p in range(len(T)) if T.kind_at[p] == "stream_bank"]
    assert bank and all(T.terrain_cover[p] for p in bank)
    assert all(T.xy[p][0] < 12 for p in bank)  # western third
    assert T.los[P(1, 17)][P(15, 17)]  # across the bank
