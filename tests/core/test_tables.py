"""Shared tables (fof_env/core/tables): one map file that scenarios of both tabletop rule systems refer to.

A shared table file is refused in one line naming the file, the field path and what is allowed.
"""

import copy

import jsonschema
import pytest

from fof_env.core import tables
from fof_env.core.errors import ScenarioError
from fof_env.core.tables import shared_table, shared_table_from_dict

LOST = "lost_and_found"


def base() -> dict:
    """A small valid shared table: 12" x 8" on a 2" grid, one building with the pilot's start."""
    return {
        "format": "fof-table/1", "id": "yard", "name": "Yard", "provenance": "designed for this project",
        "source": "000_294bccfd88f0ebda.txt",
        "table": {"width_in": 12, "height_in": 8, "spacing_in": 2,
                  "features": [{"id": "barn", "kind": "building", "rect": [4, 2, 8, 6]},
                               {"id": "hedge", "kind": "wall", "segment": [10, 0, 10, 8]}]},
        "marks": {"A": {"at": [1, 1]}, "P": {"at": [5, 3]}},
        "objectives": {"downed_pilot": {"building": "barn", "start": "P", "contact_vp": 3,
                                        "early_escort_before_turn": 6, "early_escort_vp": 10, "deadline_turn": 8,
                                        "escort_vp": 7}},
    }  # fmt: skip


def test_the_shipped_table_loads_once_with_its_marks_and_objective():
    t = shared_table(LOST)
    assert tables.shared_table_ids() == [LOST] and shared_table(LOST) is t
    assert t.origin == "fof_env/core/tables/lost_and_found.json" and t.provenance.startswith("RECONSTRUCTION")
    assert (t.table["width_in"], t.table["height_in"], t.table["spacing_in"], len(t.table["features"])) == (36, 36, 2, 15)
    assert t.marks == {"P": (21, 17), "1": (19, 11), "2": (19, 25), "3": (29, 23), "4": (13, 31)}
    pilot = t.objectives["downed_pilot"]
    assert (pilot["building"], pilot["start"], pilot["deadline_turn"], pilot["early_escort_before_turn"]) == ("P", "P", 8, 6)
    assert (pilot["contact_vp"], pilot["early_escort_vp"], pilot["escort_vp"]) == (3, 10, 7)
    assert shared_table("atlantis") is None


def test_the_shipped_table_is_a_table_both_rule_systems_accept():
    """Its ``table`` block passes the schema of a table of a scenario's own, in either ruleset."""
    import json
    from importlib import resources

    from fof_env.force_on_force.scenario_schema import TABLE

    block = shared_table(LOST).table
    jsonschema.Draft202012Validator(TABLE).validate(block)
    fubar = json.loads(resources.files("fof_env.fubar").joinpath("scenario_schema.json").read_text())
    jsonschema.Draft202012Validator({"$defs": fubar["$defs"], "$ref": "#/$defs/table"}).validate(block)


def test_points_are_coordinates_or_marks():
    t = shared_table(LOST)
    assert tables.point([3, 5], t) == [3, 5] and tables.point("2", t) == [19.0, 25.0]
    assert tables.point([3, 5], None) == [3, 5]
    with pytest.raises(ValueError, match=r"^'9' is not a mark of shared table 'lost_and_found'; marks: P, 1, 2, 3, 4$"):
        tables.point("9", t)
    with pytest.raises(ValueError, match=r"^'P' names a mark, but only a shared table"):
        tables.point("P", None)


def _set(path, value):
    def change(d):
        *keys, last = path
        for k in keys:
            d = d[k]
        d[last] = value

    return change


BROKEN = [
    ("format", _set(["format"], "fof-table/2"), "format: 'fof-table/1' was expected"),
    ("unknown key", _set(["units"], []),
     "(the file): Additional properties are not allowed ('units' was unexpected); allowed: design_notes, format, "
     "id, marks, name, objectives, provenance, source, table"),
    ("feature kind", _set(["table", "features", 0, "kind"], "swamp"), "table.features[0].kind: 'swamp' is not one of"),
    ("mark off the grid", _set(["marks", "A", "at"], [2, 1]),
     'marks.A.at: [2, 1] is not a grid point of the table (points every 2" from 1", inside 12" x 8")'),
    ("mark off the table", _set(["marks", "A", "at"], [13, 1]), "marks.A.at: [13, 1] is not a grid point"),
    ("bad mark name", _set(["marks", "a b"], {"at": [1, 1]}), "marks: 'a b' does not match"),
    ("pilot not in a building", _set(["objectives", "downed_pilot", "building"], "hedge"),
     "objectives.downed_pilot.building: 'hedge' is not the id of a building of the table"),
    ("pilot start no mark", _set(["objectives", "downed_pilot", "start"], "Q"),
     "objectives.downed_pilot.start: 'Q' is not a mark; marks: A, P"),
    ("pilot start outside", _set(["objectives", "downed_pilot", "start"], "A"),
     "objectives.downed_pilot.start: mark 'A' is not inside building 'barn'"),
    ("pilot vp missing", lambda d: d["objectives"]["downed_pilot"].pop("escort_vp"),
     "objectives.downed_pilot: 'escort_vp' is a required property"),
]  # fmt: skip


@pytest.mark.parametrize(("change", "message"), [c[1:] for c in BROKEN], ids=[c[0] for c in BROKEN])
def test_a_broken_shared_table_is_refused_in_one_line(change, message):
    data = copy.deepcopy(base())
    shared_table_from_dict(data, "yard.json")  # the base is valid
    change(data)
    with pytest.raises(ScenarioError) as info:
        shared_table_from_dict(data, "yard.json")
    assert str(info.value).startswith(f"yard.json: {message}") and "\n" not in str(info.value)
