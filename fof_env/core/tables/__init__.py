"""Shared tables: one map that scenarios of several rule systems play on, ``fof_env/core/tables/<id>.json``.

A shared table file (``"format": "fof-table/1"``, validated by ``schema.json`` in this folder) holds
what the printed map shows, so that two rule systems' scenarios on the same map read it from one file:

- ``table``: width, height, grid spacing, [``wall_cover_reach_in``] and the terrain ``features``,
  exactly as a scenario file's own ``table`` block gives them;
- ``marks``: named points of the map legend (``{"1": {"at": [x, y], "note": ...}}``), e.g. set-up
  positions; every mark is a grid point of the table;
- ``objectives``: ``downed_pilot``, the rescue of a downed pilot (:mod:`fof_env.core.downed_pilot`):
  the ``building`` he shelters in and the mark he ``start``\\ s on (inside that building), the VP for
  contact (``contact_vp``), for the escort off the table before turn ``early_escort_before_turn``
  (``early_escort_vp``) and later (``escort_vp``), and the ``deadline_turn`` by whose end he must be off.

A scenario refers to a shared table with ``"table": {"ref": ID}`` (plus its ruleset's own table
settings, if any); its deployments and its ``downed_pilot`` rule may then name marks and the
objective instead of repeating them. Each ruleset's scenario loader resolves the reference and
builds its own geometry from the ``table`` block; this module only reads and checks the file.
Every problem is one :class:`~fof_env.core.errors.ScenarioError` line naming the file, the field
path and what is allowed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from fof_env.core import jsondata
from fof_env.core.errors import ScenarioError

FORMAT = "fof-table/1"
_GRID_TOLERANCE = 1e-6  # as Table.point_at


@dataclass(frozen=True)
class SharedTable:
    """A validated shared table file (see the module docstring); treat it as read-only."""

    id: str
    name: str
    provenance: str
    source: str
    origin: str  # the file, as error messages name it
    table: dict[str, Any]  # the ``table`` block, as a scenario file's inline one
    marks: dict[str, tuple[float, float]]
    objectives: dict[str, dict[str, Any]]


def shared_table_ids() -> list[str]:
    """Ids of the shared tables shipped in ``fof_env/core/tables``."""
    folder = resources.files(__name__)
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json") and p.name != "schema.json")


def shared_table(table_id: str) -> SharedTable | None:
    """The shared table ``table_id`` (read and checked once), or None when no such table is shipped;
    :class:`ScenarioError` naming the file and the field when the file itself is broken."""
    if table_id not in shared_table_ids():
        return None
    return _load(table_id)


def point(value: Any, shared: SharedTable | None) -> Any:
    """``value`` (a scenario's point: ``[x, y]`` or a mark's name) as ``[x, y]``. ValueError (one line)
    for a name that is no mark of ``shared``, or any name when the scenario's table is its own."""
    if not isinstance(value, str):
        return value
    if shared is None:
        raise ValueError(f"{value!r} names a mark, but only a shared table ('table': {{'ref': ID}}) has marks; "
                         "give [x, y]")
    if value not in shared.marks:
        raise ValueError(f"{value!r} is not a mark of shared table {shared.id!r}; marks: {', '.join(shared.marks)}")
    return list(shared.marks[value])


@cache
def _validator():
    import jsonschema

    schema = json.loads(resources.files(__name__).joinpath("schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


@cache
def _load(table_id: str) -> SharedTable:
    origin = f"fof_env/core/tables/{table_id}.json"
    try:
        data = jsondata.loads(resources.files(__name__).joinpath(f"{table_id}.json").read_text(encoding="utf-8"))
    except jsondata.BadJSON as exc:
        raise ScenarioError(f"{origin}: not JSON: {exc}") from None
    shared = shared_table_from_dict(data, origin)
    if shared.id != table_id:
        raise ScenarioError(f"{origin}: id: {shared.id!r} is not the file's name {table_id!r}")
    return shared


def shared_table_from_dict(data: Any, origin: str = "<dict>") -> SharedTable:
    """Check ``data`` (a parsed shared table file: the schema, then the marks on grid points and the
    objective's building and start) and build the :class:`SharedTable`; :class:`ScenarioError`
    naming ``origin``, the field path and what is allowed otherwise."""
    found = jsondata.problem(data)
    if found is not None:
        raise ScenarioError(f"{origin}: {found}")
    _check_schema(data, origin)

    def fail(where: str, message: str) -> ScenarioError:
        return ScenarioError(f"{origin}: {where}: {message}")

    table = data["table"]
    marks = {name: (float(m["at"][0]), float(m["at"][1])) for name, m in data.get("marks", {}).items()}
    for name, xy in marks.items():
        if not _on_grid(table, xy):
            s = table["spacing_in"]
            raise fail(f"marks.{name}.at", f"[{xy[0]:g}, {xy[1]:g}] is not a grid point of the table (points every "
                                           f"{s:g}\" from {s / 2:g}\", inside {table['width_in']:g}\" x "
                                           f"{table['height_in']:g}\")")
    objectives = data.get("objectives", {})
    if "downed_pilot" in objectives:
        _check_pilot(objectives["downed_pilot"], table, marks, fail)
    return SharedTable(id=data["id"], name=data["name"], provenance=data["provenance"], source=data["source"],
                       origin=origin, table=table, marks=marks, objectives=objectives)  # fmt: skip


def _check_schema(data: Any, origin: str) -> None:
    from jsonschema.exceptions import best_match

    error = best_match(_validator().iter_errors(data))
    if error is None:
        return
    message = error.message
    if error.validator == "additionalProperties":
        message = f"{message}; allowed: {', '.join(sorted(error.schema.get('properties', {})))}"
    raise ScenarioError(f"{origin}: {jsondata.field_path(error.absolute_path, '(the file)')}: {message}")


def _on_grid(table: dict[str, Any], xy: tuple[float, float]) -> bool:
    s = float(table["spacing_in"])
    for v, size in zip(xy, (table["width_in"], table["height_in"]), strict=True):
        k = (v - s / 2) / s
        if abs(k - round(k)) > _GRID_TOLERANCE or not 0 <= round(k) < int(size // s):
            return False
    return True


def _check_pilot(obj: dict[str, Any], table: dict[str, Any], marks: dict[str, tuple[float, float]], fail) -> None:
    where = "objectives.downed_pilot"
    building = next((f for f in table["features"] if f["id"] == obj["building"]), None)
    if building is None or building["kind"] != "building":
        raise fail(f"{where}.building", f"{obj['building']!r} is not the id of a building of the table")
    if obj["start"] not in marks:
        raise fail(f"{where}.start", f"{obj['start']!r} is not a mark; marks: {', '.join(marks)}")
    x, y = marks[obj["start"]]
    x0, y0, x1, y1 = building["rect"]
    if not (min(x0, x1) <= x <= max(x0, x1) and min(y0, y1) <= y <= max(y0, y1)):
        raise fail(f"{where}.start", f"mark {obj['start']!r} is not inside building {obj['building']!r}")
