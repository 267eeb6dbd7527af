"""Scenario files: every check after the JSON Schema refuses in one line naming the file and the field;
the loader caches what it read."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import fof_env
from fof_env import PositionError
from fof_env.fubar import scenario as sc
from fof_env.fubar.scenario import scenario_from_dict

from .helpers import area, figures, infantry, scenario, vehicle, wall, write

RED = infantry("r.1", (3, 11), figures(4))
BLUE = infantry("b.1", (15, 11), figures(4))
APC = vehicle("r.9", (3, 15), capacity=4)
PILOT = {"downed_pilot": {"side": "red", "building": "hut", "start": [21, 21], "training": "veteran"}}
HUT = area("building", 18, 18, 24, 24, "hut")


def base(*units, **kw):
    return copy.deepcopy(scenario(*(units or (RED, BLUE)), **kw))


def unit(data, i):
    return data["units"][i]


CASES = [
    ("sides", lambda d: d["sides"][1].update(id="red"), r"sides\[1\].id: 'red' is used by both sides"),
    ("both kinds", lambda d: unit(d, 0).update(vehicle=APC["vehicle"]), r"units\[0\]: a unit has either 'figures'"),
    ("no figures", lambda d: unit(d, 0).update(figures=[]), r"units\[0\].figures: a unit needs at least one figure"),
    ("too many", lambda d: unit(d, 0).update(figures=[figures(7), figures(6)]), r"units\[0\].figures: 13 figures; at most 12"),
    ("no deployment", lambda d: unit(d, 0).pop("deployment"), r"units\[0\]: missing 'deployment'"),
    ("attachable vehicle", lambda d: d["units"].append({**copy.deepcopy(APC), "attachable": True}),
     r"units\[2\].attachable: a vehicle cannot be attached"),
    ("attachable deployed", lambda d: unit(d, 0).update(attachable=True), r"units\[0\].deployment: an attachable unit"),
    ("in not a vehicle", lambda d: unit(d, 0).update(deployment={"in": "b.1"}), r"units\[0\].deployment.in: 'b.1' is not a vehicle"),
    ("in unknown", lambda d: unit(d, 0).update(deployment={"in": "x.9"}), r"units\[0\].deployment.in: 'x.9' is not a unit id"),
    ("in and at", lambda d: unit(d, 0).update(deployment={"in": "b.1", "at": [3, 3]}), r"'in' \(a vehicle's id\) stands alone"),
    ("at and edge", lambda d: unit(d, 0).update(deployment={"at": [3, 3], "edge": "west"}), r"'at' stands alone"),
    ("near alone", lambda d: unit(d, 0).update(deployment={"near": [3, 3]}), r"'near' needs 'radius_in'"),
    ("edge and rect", lambda d: unit(d, 0).update(deployment={"edge": "west", "rect": [0, 0, 4, 4]}), r"'edge' stands alone"),
    ("rect and radius", lambda d: unit(d, 0).update(deployment={"rect": [0, 0, 4, 4], "radius_in": 2}), r"'rect' stands alone"),
    ("radius alone", lambda d: unit(d, 0).update(deployment={"radius_in": 2}), r"give one of at, near"),
    ("first turn", lambda d: d["initiative"].update(first_turn="green"), r"initiative.first_turn: 'green' is not a side"),
    ("modifier", lambda d: d["initiative"].update(modifiers={"green": 1}), r"initiative.modifiers.green: 'green' is not a side"),
    ("term side", lambda d: d["victory"]["terms"][0].update(side="green"), r"victory.terms\[0\].side: 'green' is not a side"),
    ("term of", lambda d: d["victory"]["terms"][0].update(of="green"), r"victory.terms\[0\].of: 'green' is not a side"),
    ("hold", lambda d: d["victory"]["terms"].append({"side": "red", "kind": "hold", "feature": "nowhere", "vp": 1}),
     r"victory.terms\[2\].feature: 'nowhere' is not an area feature"),
    ("automatic", lambda d: d["victory"].update(automatic=[{"side": "red", "kind": "pilot_on_table", "end_of_turn": 3}]),
     r"victory.automatic\[0\]: 'pilot_on_table' needs rules.downed_pilot"),
    ("airstrike", lambda d: d["rules"].update(airstrike_call={"from_turn": 2}), r"rules.airstrike_call: the air strike is called by the pilot"),
    ("capture", lambda d: d["rules"].update(capture={"by": "red", "of": "green"}), r"rules.capture.of: 'green' is not a side"),
    ("pilot building", lambda d: d["rules"].update(downed_pilot={**PILOT["downed_pilot"], "building": "shed"}),
     r"rules.downed_pilot.building: 'shed' is not an area feature"),
    ("pilot start", lambda d: d["rules"].update(downed_pilot={**PILOT["downed_pilot"], "start": [3, 3]}),
     r"rules.downed_pilot.start: x03y03 is not inside 'hut'"),
    ("pilot side", lambda d: d["rules"].update(downed_pilot={**PILOT["downed_pilot"], "side": "green"}),
     r"rules.downed_pilot.side: 'green' is not a side"),
    ("wall rect", lambda d: d["table"]["features"].append({"id": "w", "kind": "wall", "rect": [0, 0, 2, 2]}),
     r"table.features\[1\]: a wall takes .segment. \(x0, y0, x1, y1\), not .rect."),
    ("area both", lambda d: d["table"]["features"].append({"id": "w", "kind": "woods", "rect": [0, 0, 2, 2], "segment": [0, 0, 1, 1]}),
     r"table.features\[1\]: give exactly one of 'rect', 'segment'"),
    ("flat rect", lambda d: d["table"]["features"].append({"id": "w", "kind": "woods", "rect": [2, 2, 2, 4]}),
     r"table.features\[1\]: feature 'w': rect"),
    ("duplicate feature", lambda d: d["table"]["features"].append(copy.deepcopy(HUT)), r"table: duplicate feature ids: hut"),
    ("grid", lambda d: d["table"].update(width_in=25), r"table: table width 25"),
    ("crew too many", lambda d: d["units"].append({**copy.deepcopy(APC), "vehicle": {**APC["vehicle"], "crew": [figures(7), figures(6)]}}),
     r"units\[2\].vehicle.crew: 13 figures; at most 12"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "change", "message"), CASES, ids=[c[0] for c in CASES])
def test_every_check_names_the_file_and_the_field(name, change, message):
    data = base(features=(HUT,))
    change(data)
    with pytest.raises(PositionError, match=message) as err:
        scenario_from_dict(data, "bad.json")
    assert str(err.value).startswith("bad.json: ") and "\n" not in str(err.value)


def test_carriers_are_checked():
    riders = infantry("r.2", None, figures(5), inside="r.9")
    with pytest.raises(PositionError, match=r"units\[3\].deployment.in: 'r.2' does not fit in 'r.9' \(capacity 4"):
        scenario_from_dict(base(RED, BLUE, APC, riders), "bad.json")
    two = [infantry(f"r.{k}", None, figures(2), inside="r.9") for k in (2, 3)]
    with pytest.raises(PositionError, match=r"units\[3\].deployment.in: 'r.9' carries one unit at most"):
        scenario_from_dict(base(RED, BLUE, APC, *two), "bad.json")
    blue_rider = infantry("b.2", None, figures(2), inside="r.9")
    with pytest.raises(PositionError, match=r"units\[3\].deployment.in: 'r.9' is not a vehicle of side 'blue'"):
        scenario_from_dict(base(RED, BLUE, APC, blue_rider), "bad.json")


def test_a_good_scenario_and_the_cache():
    data = base(RED, BLUE, APC, infantry("r.2", None, figures(4), inside="r.9"), features=(HUT, wall(10, 2, 10, 8)),
                rules=PILOT, initiative={"first_turn": "blue", "modifiers": {"red": 2}})  # fmt: skip
    s = scenario_from_dict(data, "good.json")
    assert (s.first_turn, s.initiative_modifiers, s.pilot.side, s.pilot.start) == (1, (2, 0), 0, s.table.index("x21y21"))
    assert s.units[3].deployment.carrier == 2 and s.max_members == 4
    path = write(data)
    assert sc.load_scenario(path) is sc.load_scenario(path)  # read once
    assert fof_env.make_game("fubar", scenario=path).scenario is sc.load_scenario(path)


def test_messages_say_what_is_allowed():
    data = base()
    unit(data, 0)["deployment"] = {"at": [4, 11]}
    with pytest.raises(PositionError) as err:
        scenario_from_dict(data, "bad.json")
    assert str(err.value) == ('bad.json: units[0].deployment.at: [4, 11] is not a grid point of the table '
                              '(points every 2" from 1": x 1..23, y 1..23)')  # fmt: skip


def test_defaults_and_derived_sizes():
    leader = infantry("r.8", (1, 1), figures(1, leader="elite", role="Leader"), attachable=True)
    leader.pop("deployment")
    data = base(RED, BLUE, leader, features=(HUT,), rules=PILOT)
    s = scenario_from_dict(data, "good.json")
    assert s.pilot.handoff is True and s.max_members == 5  # red's 4 and the leader who may join them
    s = scenario_from_dict(base(RED, infantry("b.1", (15, 11), figures(6))), "good.json")
    assert s.max_members == 6


def test_the_file_cache_is_bounded():
    sc._FILE_CACHE.clear()
    paths = [write(base(RED, BLUE, turns=1 + k % 30, initiative={"modifiers": {"red": k // 30}})) for k in range(66)]
    for p in paths[:65]:
        sc.load_scenario(p)
    assert len(sc._FILE_CACHE) == 65
    sc.load_scenario(paths[65])
    assert len(sc._FILE_CACHE) == 1


def test_terms_and_rect_zones():
    data = base()
    unit(data, 0)["deployment"] = {"rect": [3, 3, 5, 5]}  # its edges on grid points: all four are in
    s = scenario_from_dict(data, "good.json")
    assert [s.table.name(p) for p in s.units[0].deployment.points] == ["x03y03", "x05y03", "x03y05", "x05y05"]
    assert [(t.side, t.of) for t in s.terms] == [(0, 1), (1, 0)]  # a term without "of" counts the other side


SHIPPED = json.loads((Path(fof_env.__file__).parent / "fubar" / "scenarios" / "lost_and_found.json").read_text())


def _pilot(**change):
    return lambda d: d["rules"]["downed_pilot"].update(change)


SHARED_CASES = [
    ("unknown table", lambda d: d["table"].update(ref="atlantis"),
     r"table.ref: 'atlantis' is not a shared table; shared tables: lost_and_found$"),
    ("table changed", lambda d: d["table"].update(width_in=40),
     r"table: Additional properties are not allowed \('width_in' was unexpected\)"),
    ("unknown mark", lambda d: unit(d, 1)["deployment"].update(near="9"),
     r"units\[1\].deployment.near: '9' is not a mark of shared table 'lost_and_found'; marks: P, 1, 2, 3, 4$"),
    ("unknown objective", _pilot(objective="treasure"),
     r"rules.downed_pilot.objective: 'treasure' is not an objective of shared table 'lost_and_found'; "
     r"objectives: downed_pilot$"),
    ("objective and start", _pilot(start="P"),
     r"rules.downed_pilot.start: set by objective 'downed_pilot' of shared table 'lost_and_found'"),
    ("objective and pilot VP", lambda d: d["victory"]["terms"].append({"side": "usmc", "kind": "pilot_contact", "vp": 5}),
     r"victory.terms\[2\].kind: 'pilot_contact': the pilot's VP come from rules.downed_pilot.objective$"),
    ("objective and automatic", lambda d: d["victory"].update(
        automatic=[{"side": "taliban", "kind": "pilot_on_table", "end_of_turn": 7}]),
     r"victory.automatic\[0\]: the pilot's automatic victory comes from rules.downed_pilot.objective$"),
    ("no objective, no start", lambda d: d["rules"]["downed_pilot"].pop("objective"),
     r"rules.downed_pilot: missing 'building' \(or 'objective': an objective of a shared table\)$"),
]  # fmt: skip
OWN_TABLE_CASES = [
    ("mark without a shared table", lambda d: unit(d, 0)["deployment"].update(at="P"),
     r"units\[0\].deployment.at: 'P' names a mark, but only a shared table \('table': \{'ref': ID\}\) has marks"),
    ("objective without a shared table", lambda d: d["rules"].update(
        downed_pilot={"side": "red", "objective": "downed_pilot", "training": "veteran"}),
     r"rules.downed_pilot.objective: only a shared table \('table': \{'ref': ID\}\) has objectives$"),
]  # fmt: skip


@pytest.mark.parametrize(("shared", "change", "message"),
                         [(True, *c[1:]) for c in SHARED_CASES] + [(False, *c[1:]) for c in OWN_TABLE_CASES],
                         ids=[c[0] for c in SHARED_CASES + OWN_TABLE_CASES])  # fmt: skip
def test_references_to_a_shared_table_name_the_file_and_the_field(shared, change, message):
    """``"table": {"ref": ID}``, the marks points name and the pilot's objective."""
    data = copy.deepcopy(SHIPPED) if shared else base(features=(HUT,))
    scenario_from_dict(copy.deepcopy(data), "good.json")
    change(data)
    with pytest.raises(PositionError, match=message) as err:
        scenario_from_dict(data, "bad.json")
    assert str(err.value).startswith("bad.json: ") and "\n" not in str(err.value)


def test_a_file_of_your_own_may_play_on_a_shared_table():
    """The shipped file written out as your own plays the same scenario on the same shared table."""
    path = write(SHIPPED)
    mine, shipped = sc.load_scenario(path), sc.load_scenario("lost_and_found")
    assert mine.table.features == shipped.table.features and mine.geometry.level == shipped.geometry.level
    assert (mine.units, mine.terms, mine.auto_pilot, mine.pilot) == (shipped.units, shipped.terms, shipped.auto_pilot,
                                                                    shipped.pilot)  # fmt: skip
