"""The "Lost & Found" scenario (Force on Force quick start) as validated, static data.

``load_scenario()`` reads ``data/lost_and_found.json`` (the shipped reconstruction of
the scenario map plus the forces exactly as the seed lists them) and returns a
:class:`Scenario`: the :class:`~fof_env.core.tabletop.Table` with its precomputed
geometry, the named positions as point indices, and the forces as frozen
dataclasses. ``scenario_from_dict(d)`` does the same for a dict, so tests can build
small custom tables. Every problem in the data raises
:class:`~fof_env.core.errors.PositionError` with a message naming the offending key.

The returned objects are shared (the default scenario is cached): treat them as
read-only.

JSON layout (keys marked * are required)::

    provenance*, name, source
    table*: {width_in*, height_in*, spacing_in*, wall_cover_reach_in (null: any crossing wall covers)}
    features*: [{id*, kind* (woods|building|stream_bank|improved_position|fortified_position|
                 reinforced_fortification|wall), rect | segment*, note}]
    pilot*: {building* (a building feature id), start* [x, y]}   # a grid point inside it
    taliban_positions*: {"1": [x, y], ...}   # one per Taliban unit with that "team" number
    taliban_deploy_radius*   # inches: a team may deploy on any point this close to its mark
    usmc_entry_edge*, taliban_edge*   # west|east|north|south
    turns*, pilot_deadline_turn*, early_escort_before_turn*
    forces*: {
      sides*: {usmc*: SIDE, taliban*: SIDE}
        SIDE = {name*, initiative_die*, tq*, morale*, body_armor*, supply*, confidence*, seed_quote}
      units*: [{name*, side*, team (Taliban), optional, attachable, figures*: [FIGURE, ...]}]
      pilot*: {name*, side*, figures*: [FIGURE]}
        FIGURE = {role*, weapon* (string or null), support* (null|light|medium|heavy)}
    }

Positions are ``[x, y]`` inches on grid points (with a 2" grid: odd inches 1..35).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from fof_env.core.errors import PositionError
from fof_env.core.tabletop import FEATURE_KINDS, SIDES, Feature, Table

SIDE_NAMES = ("usmc", "taliban")
DIE_TYPES = (4, 6, 8, 10, 12)
SUPPORT_LEVELS = (None, "light", "medium", "heavy")
SUPPLY_LEVELS = ("low", "normal", "high")
CONFIDENCE_LEVELS = ("low", "normal", "high", "fanatic")
DEFAULT_FILE = "lost_and_found.json"


@dataclass(frozen=True)
class FigureSpec:
    """One figure: its role, weapon (None for an unarmed figure) and support level of that weapon."""

    role: str
    weapon: str | None
    support: str | None  # None, "light" (+1 Firepower die), "medium" (+2) or "heavy"


@dataclass(frozen=True)
class UnitSpec:
    """A unit as listed in the scenario's order of battle (``side`` is "usmc" or "taliban")."""

    name: str
    side: str
    figures: tuple[FigureSpec, ...]

    def __len__(self) -> int:
        return len(self.figures)


@dataclass(frozen=True)
class SideSpec:
    """A side's Basic Attributes: die types (sides of the die) and levels, lower-case."""

    name: str
    initiative_die: int
    tq: int
    morale: int
    body_armor: int  # extra defensive dice for body armor
    supply: str
    confidence: str
    seed_quote: str = ""


@dataclass(frozen=True)
class Scenario:
    """Static data of one Force on Force scenario; points are indices into ``table``."""

    name: str
    provenance: str
    table: Table
    pilot_building: str
    pilot_start: int
    taliban_positions: dict[int, int]  # team number -> marked point
    taliban_deploy_radius: float
    taliban_deploy_points: dict[int, list[int]]  # team number -> the mark and every point within the radius
    usmc_entry_edge: str
    taliban_edge: str
    usmc_entry_points: list[int]  # the outermost column/row on the USMC edge
    taliban_edge_points: list[int]
    turns: int
    pilot_deadline_turn: int
    early_escort_before_turn: int
    sides: dict[str, SideSpec]
    units: tuple[UnitSpec, ...]  # USMC units then Taliban units, in file order
    pilot: UnitSpec
    taliban_teams: dict[int, UnitSpec]  # team number -> unit
    optional_units: tuple[str, ...]  # names of units marked "optional" (e.g. Taliban Team Four)
    attachable_units: tuple[str, ...]  # names of units marked "attachable" (the USMC squad leader)

    def side_units(self, side: str) -> tuple[UnitSpec, ...]:
        """The units of ``side`` ("usmc" or "taliban"), without the pilot."""
        return tuple(u for u in self.units if u.side == side)

    def unit(self, name: str) -> UnitSpec:
        """The unit named ``name`` (the pilot included); KeyError otherwise."""
        for u in (*self.units, self.pilot):
            if u.name == name:
                return u
        raise KeyError(f"no unit named {name!r} in scenario {self.name!r}")


# ---------------------------------------------------------------------------- validation
def _get(d: Any, key: str, where: str) -> Any:
    if not isinstance(d, dict):
        raise PositionError(f"{where}: expected an object, got {type(d).__name__}")
    if key not in d:
        raise PositionError(f"{where}: missing key {key!r}")
    return d[key]


def _number(v: Any, where: str, *, positive: bool = False) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise PositionError(f"{where}: expected a number, got {v!r}")
    if positive and not v > 0:
        raise PositionError(f"{where}: must be positive, got {v!r}")
    return float(v)


def _int(v: Any, where: str, *, minimum: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise PositionError(f"{where}: expected an integer, got {v!r}")
    if minimum is not None and v < minimum:
        raise PositionError(f"{where}: must be at least {minimum}, got {v}")
    return v


def _string(v: Any, where: str) -> str:
    if not isinstance(v, str) or not v:
        raise PositionError(f"{where}: expected a non-empty string, got {v!r}")
    return v


def _choice(v: Any, allowed: tuple, where: str) -> Any:
    if v not in allowed:
        raise PositionError(f"{where}: {v!r} is not one of {', '.join(repr(a) for a in allowed)}")
    return v


def _coords(v: Any, n: int, where: str) -> tuple[float, ...]:
    if not isinstance(v, (list, tuple)) or len(v) != n:
        raise PositionError(f"{where}: expected a list of {n} numbers, got {v!r}")
    return tuple(_number(x, f"{where}[{i}]") for i, x in enumerate(v))


def _point(table: Table, v: Any, where: str) -> int:
    x, y = _coords(v, 2, where)
    if not (0 < x < table.width_in and 0 < y < table.height_in):
        raise PositionError(
            f'{where}: [{x:g}, {y:g}] is outside the {table.width_in:g}" x {table.height_in:g}" table'
        )
    p = table.point_at(x, y)
    if p is None:
        s = table.spacing_in
        raise PositionError(
            f'{where}: [{x:g}, {y:g}] is not a grid point (points are every {s:g}" from {s / 2:g}": '
            f"x in {table.col_x[0]:g}..{table.col_x[-1]:g}, y in {table.row_y[0]:g}..{table.row_y[-1]:g})"
        )
    return p


def _side(d: Any, where: str) -> SideSpec:
    def die(key: str) -> int:
        return _choice(_int(_get(d, key, where), f"{where}.{key}"), DIE_TYPES, f"{where}.{key}")

    quote = d.get("seed_quote", "") if isinstance(d, dict) else ""
    return SideSpec(
        name=_string(_get(d, "name", where), f"{where}.name"),
        initiative_die=die("initiative_die"),
        tq=die("tq"),
        morale=die("morale"),
        body_armor=_int(_get(d, "body_armor", where), f"{where}.body_armor", minimum=0),
        supply=_choice(_get(d, "supply", where), SUPPLY_LEVELS, f"{where}.supply"),
        confidence=_choice(_get(d, "confidence", where), CONFIDENCE_LEVELS, f"{where}.confidence"),
        seed_quote=_string(quote, f"{where}.seed_quote") if quote else "",
    )


def _figure(d: Any, where: str) -> FigureSpec:
    weapon = _get(d, "weapon", where)
    return FigureSpec(
        role=_string(_get(d, "role", where), f"{where}.role"),
        weapon=None if weapon is None else _string(weapon, f"{where}.weapon"),
        support=_choice(_get(d, "support", where), SUPPORT_LEVELS, f"{where}.support"),
    )


def _unit(d: Any, where: str) -> UnitSpec:
    figures = _get(d, "figures", where)
    if not isinstance(figures, list) or not figures:
        raise PositionError(f"{where}.figures: expected a non-empty list of figures")
    return UnitSpec(
        name=_string(_get(d, "name", where), f"{where}.name"),
        side=_choice(_get(d, "side", where), SIDE_NAMES, f"{where}.side"),
        figures=tuple(_figure(f, f"{where}.figures[{i}]") for i, f in enumerate(figures)),
    )


def _table(d: dict) -> Table:
    t = _get(d, "table", "scenario")
    width = _number(_get(t, "width_in", "table"), "table.width_in", positive=True)
    height = _number(_get(t, "height_in", "table"), "table.height_in", positive=True)
    spacing = _number(_get(t, "spacing_in", "table"), "table.spacing_in", positive=True)
    reach = t.get("wall_cover_reach_in")
    if reach is not None:
        reach = _number(reach, "table.wall_cover_reach_in")
    raw = _get(d, "features", "scenario")
    if not isinstance(raw, list):
        raise PositionError("scenario.features: expected a list of features")
    features = []
    for i, f in enumerate(raw):
        where = f"features[{i}]"
        fid = _string(_get(f, "id", where), f"{where}.id")
        where = f"feature {fid!r}"
        kind = _choice(_get(f, "kind", where), FEATURE_KINDS, f"{where}.kind")
        key = "segment" if kind == "wall" else "rect"
        other = "rect" if kind == "wall" else "segment"
        if other in f:
            raise PositionError(f"{where}: a {kind} takes {key!r}, not {other!r}")
        geom = _coords(_get(f, key, where), 4, f"{where}.{key}")
        try:
            features.append(Feature(fid, kind, **{key: geom}))  # type: ignore[arg-type]
        except ValueError as e:
            raise PositionError(str(e)) from None
    try:
        return Table(width, height, spacing, features, wall_cover_reach_in=reach)
    except ValueError as e:
        raise PositionError(f"table: {e}") from None


def scenario_from_dict(d: dict) -> Scenario:
    """Validate a scenario dict (layout in the module docstring) and build the :class:`Scenario`.

    Raises PositionError on a missing key, a wrong type, an unknown feature kind, a
    feature beyond the table, a position off the table or off the grid, a pilot start
    outside the pilot's building, Taliban positions that do not match the teams, an
    unknown side / support level / die type, or inconsistent turn numbers.
    """
    if not isinstance(d, dict):
        raise PositionError(f"scenario: expected an object, got {type(d).__name__}")
    provenance = _string(_get(d, "provenance", "scenario"), "scenario.provenance")
    table = _table(d)

    pilot_d = _get(d, "pilot", "scenario")
    building = _string(_get(pilot_d, "building", "pilot"), "pilot.building")
    feature = table.feature_by_id.get(building)
    if feature is None or feature.kind != "building":
        raise PositionError(f"pilot.building: {building!r} is not the id of a building feature")
    pilot_start = _point(table, _get(pilot_d, "start", "pilot"), "pilot.start")
    if not feature.contains(*table.xy[pilot_start]):
        raise PositionError(f"pilot.start: {table.name(pilot_start)} is not inside building {building!r}")

    edges = {}
    for key in ("usmc_entry_edge", "taliban_edge"):
        edges[key] = _choice(_get(d, key, "scenario"), SIDES, f"scenario.{key}")
    turns = _int(_get(d, "turns", "scenario"), "scenario.turns", minimum=1)
    deadline = _int(_get(d, "pilot_deadline_turn", "scenario"), "scenario.pilot_deadline_turn", minimum=1)
    early = _int(
        _get(d, "early_escort_before_turn", "scenario"), "scenario.early_escort_before_turn", minimum=1
    )
    if not early <= deadline <= turns:
        raise PositionError(
            f"scenario: need early_escort_before_turn ({early}) <= pilot_deadline_turn ({deadline})"
            f" <= turns ({turns})"
        )

    forces = _get(d, "forces", "scenario")
    sides_d = _get(forces, "sides", "forces")
    sides = {s: _side(_get(sides_d, s, "forces.sides"), f"forces.sides.{s}") for s in SIDE_NAMES}
    units_d = _get(forces, "units", "forces")
    if not isinstance(units_d, list) or not units_d:
        raise PositionError("forces.units: expected a non-empty list of units")
    units, teams, optional, attachable = [], {}, [], []
    for i, u in enumerate(units_d):
        where = f"forces.units[{i}]"
        spec = _unit(u, where)
        if "team" in u:
            if spec.side != "taliban":
                raise PositionError(f"{where}: only Taliban units have a team number")
            n = _int(u["team"], f"{where}.team", minimum=1)
            if n in teams:
                raise PositionError(f"{where}: team number {n} used twice")
            teams[n] = spec
        if u.get("optional", False):
            optional.append(spec.name)
        if u.get("attachable", False):
            attachable.append(spec.name)
        units.append(spec)
    names = [u.name for u in units]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise PositionError(f"forces.units: duplicate unit names {', '.join(dup)}")
    units.sort(key=lambda u: SIDE_NAMES.index(u.side))  # stable: USMC first, file order kept
    pilot_unit = _unit(_get(forces, "pilot", "forces"), "forces.pilot")
    if pilot_unit.side != "usmc":
        raise PositionError("forces.pilot.side: the pilot is on the 'usmc' side")

    pos_d = _get(d, "taliban_positions", "scenario")
    if not isinstance(pos_d, dict):
        raise PositionError("scenario.taliban_positions: expected an object {team number: [x, y]}")
    positions: dict[int, int] = {}
    for key, v in pos_d.items():
        if not (isinstance(key, str) and key.isdigit()) or int(key) not in teams:
            raise PositionError(
                f"taliban_positions: key {key!r} is not the team number of a Taliban unit "
                f"(teams: {', '.join(str(t) for t in sorted(teams))})"
            )
        positions[int(key)] = _point(table, v, f"taliban_positions[{key!r}]")
    missing = sorted(set(teams) - set(positions))
    if missing:
        raise PositionError(f"taliban_positions: no position for team(s) {', '.join(map(str, missing))}")
    radius = _number(_get(d, "taliban_deploy_radius", "scenario"), "scenario.taliban_deploy_radius")
    if radius < 0:
        raise PositionError(f"scenario.taliban_deploy_radius: must be >= 0, got {radius:g}")
    deploy = {t: sorted([p, *table.within(p, radius)]) for t, p in sorted(positions.items())}

    return Scenario(
        name=str(d.get("name", "unnamed")),
        provenance=provenance,
        table=table,
        pilot_building=building,
        pilot_start=pilot_start,
        taliban_positions=dict(sorted(positions.items())),
        taliban_deploy_radius=radius,
        taliban_deploy_points=deploy,
        usmc_entry_edge=edges["usmc_entry_edge"],
        taliban_edge=edges["taliban_edge"],
        usmc_entry_points=table.edge_points(edges["usmc_entry_edge"]),
        taliban_edge_points=table.edge_points(edges["taliban_edge"]),
        turns=turns,
        pilot_deadline_turn=deadline,
        early_escort_before_turn=early,
        sides=sides,
        units=tuple(units),
        pilot=pilot_unit,
        taliban_teams=dict(sorted(teams.items())),
        optional_units=tuple(optional),
        attachable_units=tuple(attachable),
    )


@lru_cache(maxsize=1)
def _default_scenario() -> Scenario:
    text = resources.files("fof_env.force_on_force").joinpath("data", DEFAULT_FILE).read_text()
    return scenario_from_dict(_parse(text, DEFAULT_FILE))


def _parse(text: str, where: str) -> dict:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise PositionError(f"{where}: not valid JSON ({e})") from None


def load_scenario(path: str | Path | None = None) -> Scenario:
    """The scenario in ``path`` (a JSON file), or the shipped "Lost & Found" when None (cached)."""
    if path is None:
        return _default_scenario()
    try:
        text = Path(path).read_text()
    except OSError as e:
        raise PositionError(f"cannot read scenario file {str(path)!r}: {e}") from None
    return scenario_from_dict(_parse(text, str(path)))
