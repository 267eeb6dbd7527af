"""FUBAR scenario files: ``fof_env/fubar/scenarios/<id>.json``, format ``fof-scenario/1``.

A scenario is JSON validated by ``scenario_schema.json`` (the ``jsonschema`` library) and then by the
checks below; every error is one :class:`~fof_env.core.errors.PositionError` line naming the file, the
field path (``units[3].figures[0].weapons[1]``) and what is allowed. Top-level keys, in this order:

``format`` ("fof-scenario/1"), ``id``, ``name``, ``ruleset`` ("fubar"), ``provenance`` ("designed for
this project ..." or "RECONSTRUCTION: ..."), ``source`` (the seed file), [``design_notes``], ``table``
(``width_in``, ``height_in``, ``spacing_in``, [``wall_cover_reach_in``], [``cover``: feature kind ->
none|soft|moderate|hard], ``features``: ``[{id, kind, rect|segment, [cover], note}]`` with the kinds
of :mod:`fof_env.core.tabletop`), ``sides`` (two: ``id``, ``name``, table ``edge``, [``exit``: may
leave by that edge]), ``units`` (``id`` like "tal.1", ``name``, ``side``, ``training``, [``armour``],
``figures`` [``{role, weapons, [armour], [leader], [count]}``] or ``vehicle`` {``class``, ``armour``,
``weapons`` [{weapon}], [``capacity``], [``crew``], [``facing``]}, ``deployment`` {``at`` | ``near``
+ ``radius_in`` | ``edge`` | ``rect`` | ``in``: a vehicle's id}, [``optional``], [``attachable``]),
``turns``, ``initiative`` ({[``first_turn``: side], [``modifiers``: side -> int]}), ``victory``
({``terms``: [{side, kind, vp, [of], [feature], [before_turn]}], [``automatic``]}), ``rules``
({[``downed_pilot``], [``airstrike_call``], [``capture``]}).

Points are ``[x, y]`` inches on the table's grid points. Units keep their file order: it is their
index in the action space and the order in which they deploy.

``table`` may instead be ``{"ref": ID, [cover]}``: a shared table (:mod:`fof_env.core.tables`), one
map that scenarios of other rule systems play too. Points may then name its marks (``"near": "1"``),
and ``rules.downed_pilot`` may give ``"objective": "downed_pilot"`` in place of ``building`` and
``start``: that objective of the table gives them and the pilot's victory terms (contact, the escort
before its early turn and by the end of its deadline turn) and automatic victory (the other side's,
the pilot on the table at the end of the deadline turn). Problems in the shared file name that file.

Sizes are bounded (the schema's maxima, at most ``MAX_TABLE_POINTS`` grid points, numbers finite, a
file of at most ``MAX_FILE_BYTES``), so a bad file is refused in one line before anything is built.
A server lists the files of its operator's scenario folders by id (:func:`register_scenario`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from fof_env.core import jsondata, tables
from fof_env.core.errors import PositionError, ScenarioError
from fof_env.core.tabletop import Feature, Table
from fof_env.fubar.geometry import Geometry
from fof_env.fubar.tables import (
    TRAINING,
    VEHICLE_ARMOUR,
    WEAPONS,
    Training,
    Weapon,
)

FORMAT = "fof-scenario/1"
TOP_KEYS = ("format", "id", "name", "ruleset", "provenance", "source", "design_notes", "table", "sides",
            "units", "turns", "initiative", "victory", "rules")  # fmt: skip
FACINGS = ("north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest")
SHIPPED = ("lost_and_found", "village_patrol")
MAX_FIGURES = 12  # figures (or weapon mounts) of one unit, the attached leader included
MAX_TABLE_POINTS = 1024  # grid points: bounds the precomputed geometry (n^2 tables) and the action space
MAX_FILE_BYTES = 1 << 20
OUT_OF_RANGE = (0, False, False)  # what a figure fires beyond its weapons' reach


@dataclass(frozen=True)
class FigureSpec:
    """One figure: its weapons (it fires the one with the most Fire Points at the range), armour and,
    for a leader, the training level his Activation uses. ``key`` is what makes two figures
    interchangeable for the rules (allocation offers one of each kind)."""

    role: str
    weapons: tuple[Weapon, ...]
    armour: str
    leader: str | None = None
    key: tuple = field(default=(), compare=False)
    profile: tuple[tuple[float, int, bool, bool], ...] = field(default=(), compare=False)
    walk_profile: tuple[tuple[float, int, bool, bool], ...] = field(default=(), compare=False)

    def fire(self, distance: float, walking: bool = False) -> tuple[int, bool, bool]:
        """(Fire Points, ignores cover, indirect) of the best weapon at ``distance`` (``walking``: small
        arms and grenades only); (0, False, False) out of range."""
        for reach, fp, ignores, indirect in self.walk_profile if walking else self.profile:
            if distance <= reach + 1e-9:
                return fp, ignores, indirect
        return OUT_OF_RANGE

    @property
    def max_range(self) -> float:
        return self.profile[-1][0] if self.profile else 0.0

    @property
    def walk_range(self) -> float:
        return self.walk_profile[-1][0] if self.walk_profile else 0.0

    @property
    def infantry_hmg(self) -> bool:
        return any(w.crew > 1 for w in self.weapons)

    @property
    def indirect(self) -> bool:
        return any(w.indirect for w in self.weapons)


def _profile(ws: tuple[Weapon, ...]) -> tuple[tuple[float, int, bool, bool], ...]:
    """For each range band (its outer edge), the best weapon's (Fire Points, ignores cover, indirect):
    the most Fire Points, ties to one that ignores cover, then the first listed."""
    cuts = sorted({c for w in ws for c in (w.range_in, w.close_in) if c > 0})
    profile = []
    for reach in cuts:
        best = None
        for w in ws:
            fp = w.fire_points(reach)
            if fp and (best is None or (fp, w.ignores_cover) > (best[0], best[1])):
                best = (fp, w.ignores_cover, w.indirect)
        if best is not None:
            profile.append((reach, *best))
    # merge bands where nothing changes
    merged: list[tuple[float, int, bool, bool]] = []
    for band in profile:
        if merged and merged[-1][1:] == band[1:]:
            merged[-1] = band
        else:
            merged.append(band)
    return tuple(merged)


def make_figure(role: str, weapons: tuple[str, ...], armour: str, leader: str | None) -> FigureSpec:
    """A :class:`FigureSpec` with its precomputed fire profiles: every weapon, and a Walk's "small arms
    or grenades" (rulings F18)."""
    ws = tuple(WEAPONS[w] for w in weapons)
    walk = tuple(w for w in ws if not w.support or w.name == "grenades")
    key = (tuple(sorted(weapons)), armour, leader)
    return FigureSpec(role, ws, armour, leader, key, _profile(ws), _profile(walk))


@dataclass(frozen=True)
class VehicleSpec:
    """A vehicle: class, armour save, weapon mounts (one weapon each), passenger capacity (figures),
    its crew (who bail out), and the facing it starts with (0 north .. 7 north-west)."""

    cls: str
    armour: str
    save: int
    mounts: tuple[FigureSpec, ...]
    capacity: int
    crew: tuple[FigureSpec, ...]
    facing: int


@dataclass(frozen=True)
class Deployment:
    """Where a unit sets up: ``points`` to choose from (one: placed without a decision), or inside
    the vehicle ``carrier`` (a unit index)."""

    points: tuple[int, ...]
    carrier: int = -1


@dataclass(frozen=True)
class UnitSpec:
    id: str
    name: str
    side: int
    training: Training
    figures: tuple[FigureSpec, ...]  # infantry figures (a vehicle: none; its crew in ``vehicle``)
    vehicle: VehicleSpec | None
    deployment: Deployment
    optional: bool
    attachable: bool


@dataclass(frozen=True)
class SideSpec:
    id: str
    name: str
    edge: str
    exit: bool
    colour: str = ""  # its counters' colour (#rrggbb) on the board and in pictures; "": the default


@dataclass(frozen=True)
class Term:
    """One victory term: ``side`` scores ``vp`` per item of ``kind`` (``of``: the other side index)."""

    side: int
    kind: str
    vp: int
    of: int
    feature: str | None
    before_turn: int | None


@dataclass(frozen=True)
class Pilot:
    side: int
    building: str
    start: int
    training: Training
    handoff: bool


@dataclass(frozen=True)
class Scenario:
    """A validated FUBAR scenario; points are indices into ``table``."""

    id: str
    name: str
    provenance: str
    source: str
    table: Table
    geometry: Geometry
    sides: tuple[SideSpec, SideSpec]
    units: tuple[UnitSpec, ...]
    turns: int
    first_turn: int | None
    initiative_modifiers: tuple[int, int]
    terms: tuple[Term, ...]
    auto_pilot: tuple[int, int] | None  # (side, end of turn): pilot still on the table -> that side wins
    pilot: Pilot | None
    airstrike_from: int | None
    capture: tuple[int, int] | None  # (captor side, captured side)
    data: dict = field(compare=False, default_factory=dict)

    def unit_index(self, uid: str) -> int:
        for i, u in enumerate(self.units):
            if u.id == uid:
                return i
        raise KeyError(uid)

    @property
    def max_members(self) -> int:
        """Most figures (or mounts / crew) one unit can hold, an attached leader included."""
        most = 1
        for u in self.units:
            if u.vehicle is not None:
                n = max(len(u.vehicle.mounts), len(u.vehicle.crew))
            else:
                extra = max((len(a.figures) for a in self.units if a.attachable and a.side == u.side), default=0)
                n = len(u.figures) + (0 if u.attachable else extra)
            most = max(most, n)
        return most


# ---------------------------------------------------------------------------------- validation
@lru_cache(maxsize=1)
def _validator():
    import jsonschema

    schema = json.loads(resources.files("fof_env.fubar").joinpath("scenario_schema.json").read_text())
    return jsonschema.Draft202012Validator(schema)


def _schema_error(where: str, data: Any) -> None:
    import jsonschema

    errors = list(_validator().iter_errors(data))
    if not errors:
        return
    err = jsonschema.exceptions.best_match(errors)
    while err.context:  # a oneOf/anyOf: the deepest reason is the useful one
        err = jsonschema.exceptions.best_match(err.context)
    message = err.message
    if err.validator == "oneOf":  # valid under several alternatives: name what tells them apart
        keys = [k for alt in err.validator_value for k in alt.get("required", ())]
        message = f"give exactly one of {', '.join(repr(k) for k in keys)}" if keys else message
    if err.validator == "enum":
        message = f"{err.instance!r} is not allowed; allowed: {', '.join(map(str, err.validator_value))}"
    elif err.validator == "const":
        message = f"{err.instance!r} is not allowed; it must be {err.validator_value!r}"
    raise PositionError(f"{where}: {jsondata.field_path(err.absolute_path, '(top level)')}: {message}")


class _Checker:
    """Semantic checks after the schema, each raising one line ``FILE: PATH: problem``; ``shared``: the
    shared table whose marks the file's points may name."""

    def __init__(self, where: str, shared: tables.SharedTable | None = None):
        self.where = where
        self.shared = shared

    def fail(self, path: str, problem: str):
        raise PositionError(f"{self.where}: {path}: {problem}")


def _shared_table(c: _Checker, block: dict) -> tables.SharedTable | None:
    """The shared table ``block`` refers to (``{"ref": ID}``), None for a table of the scenario's own."""
    if "ref" not in block:
        return None
    try:
        shared = tables.shared_table(block["ref"])
    except ScenarioError as exc:  # the shared file itself is broken
        raise PositionError(str(exc)) from None
    if shared is None:
        c.fail("table.ref", f"{block['ref']!r} is not a shared table; shared tables: "
                            f"{', '.join(tables.shared_table_ids())}")  # fmt: skip
    return shared


def _table(c: _Checker, t: dict, cover: dict | None) -> tuple[Table, Geometry]:
    """The table block ``t`` built, with ``cover`` (feature kind -> level) over the defaults."""
    width, height, spacing = t["width_in"], t["height_in"], t["spacing_in"]
    points = int(width // spacing) * int(height // spacing)
    if points > MAX_TABLE_POINTS:
        c.fail("table", f"{width:g}\" x {height:g}\" with {spacing:g}\" spacing has {points} grid points; "
                        f"at most {MAX_TABLE_POINTS} (use a wider spacing or a smaller table)")  # fmt: skip
    features = []
    overrides = {}
    for i, f in enumerate(t["features"]):
        key = "segment" if f["kind"] == "wall" else "rect"  # the schema admits exactly one of the two
        if key not in f:
            other = "rect" if key == "segment" else "segment"
            c.fail(f"table.features[{i}]", f"a {f['kind']} takes {key!r} (x0, y0, x1, y1), not {other!r}")
        try:
            features.append(Feature(f["id"], f["kind"], **{key: tuple(f[key])}))
        except ValueError as exc:
            c.fail(f"table.features[{i}]", str(exc))
        if "cover" in f:
            overrides[f["id"]] = f["cover"]
    try:
        table = Table(t["width_in"], t["height_in"], t["spacing_in"], features,
                      wall_cover_reach_in=t.get("wall_cover_reach_in"))  # fmt: skip
    except ValueError as exc:
        c.fail("table", str(exc))
    return table, Geometry(table, cover, overrides)


def _point(c: _Checker, table: Table, v: list | str, path: str) -> int:
    try:
        x, y = tables.point(v, c.shared)
    except ValueError as exc:
        c.fail(path, str(exc))
    p = table.point_at(x, y)
    if p is None:
        s = table.spacing_in
        c.fail(path, f"[{x:g}, {y:g}] is not a grid point of the table (points every {s:g}\" from {s / 2:g}\": "
                     f"x {table.col_x[0]:g}..{table.col_x[-1]:g}, y {table.row_y[0]:g}..{table.row_y[-1]:g})")  # fmt: skip
    return p


def _figures(c: _Checker, items: list, armour: str, path: str) -> tuple[FigureSpec, ...]:
    out = []
    for _i, f in enumerate(items):
        spec = make_figure(f["role"], tuple(f["weapons"]), f.get("armour", armour), f.get("leader"))
        out.extend([spec] * f.get("count", 1))
    if len(out) > MAX_FIGURES:
        c.fail(path, f"{len(out)} figures; at most {MAX_FIGURES}")
    return tuple(out)


def scenario_from_dict(d: Any, where: str = "scenario") -> Scenario:
    """Validate a scenario dict (module docstring) and build the :class:`Scenario`; one-line
    :class:`PositionError` naming ``where`` (the file), the field path and what is allowed."""
    found = jsondata.problem(d)
    if found is not None:
        raise PositionError(f"{where}: {found}")
    _schema_error(where, d)
    c = _Checker(where)
    order = [k for k in d if k in TOP_KEYS]
    want = [k for k in TOP_KEYS if k in d]
    if order != want:
        c.fail("(top level)", f"keys out of order: {', '.join(order)}; the order is {', '.join(want)}")
    c.shared = _shared_table(c, d["table"])
    if c.shared is None:
        table, geometry = _table(c, d["table"], d["table"].get("cover"))
    else:  # problems in the shared file name that file
        table, geometry = _table(_Checker(c.shared.origin), c.shared.table, d["table"].get("cover"))
    side_ids = [s["id"] for s in d["sides"]]
    if side_ids[0] == side_ids[1]:
        c.fail("sides[1].id", f"{side_ids[1]!r} is used by both sides")
    sides = tuple(SideSpec(s["id"], s["name"], s["edge"], s.get("exit", False), s.get("colour", "")) for s in d["sides"])

    def side_of(name: str, path: str) -> int:
        if name not in side_ids:
            c.fail(path, f"{name!r} is not a side; sides: {', '.join(side_ids)}")
        return side_ids.index(name)

    ids = [u["id"] for u in d["units"]]
    for i, uid in enumerate(ids):
        if ids.index(uid) != i:
            c.fail(f"units[{i}].id", f"{uid!r} is used twice")
    units: list[UnitSpec] = []
    for i, u in enumerate(d["units"]):
        path = f"units[{i}]"
        side = side_of(u["side"], f"{path}.side")
        if ("figures" in u) == ("vehicle" in u):
            c.fail(path, "a unit has either 'figures' (infantry) or 'vehicle'")
        armour = u.get("armour", "none")
        vehicle = None
        figures: tuple[FigureSpec, ...] = ()
        if "figures" in u:
            figures = _figures(c, u["figures"], armour, f"{path}.figures")
            if not figures:
                c.fail(f"{path}.figures", "a unit needs at least one figure")
        else:
            v = u["vehicle"]
            mounts = tuple(make_figure(v["class"], (m["weapon"],), "none", None) for m in v["weapons"])
            crew = _figures(c, v.get("crew", []), armour, f"{path}.vehicle.crew")
            vehicle = VehicleSpec(v["class"], v["armour"], VEHICLE_ARMOUR[v["armour"]], mounts,
                                  v.get("capacity", 0), crew, FACINGS.index(v.get("facing", "north")))  # fmt: skip
            if u.get("attachable"):
                c.fail(f"{path}.attachable", "a vehicle cannot be attached to a unit")
        dep = u.get("deployment")
        if dep is None and not u.get("attachable"):
            c.fail(path, "missing 'deployment' (at, near + radius_in, edge, rect or in)")
        deployment = Deployment(())
        if dep is not None:
            deployment = _deployment(c, table, dep, ids, d["units"], f"{path}.deployment")
        units.append(UnitSpec(u["id"], u["name"], side, TRAINING[u["training"]], figures, vehicle, deployment,
                              u.get("optional", False), u.get("attachable", False)))  # fmt: skip
    for i, u in enumerate(units):
        carrier = u.deployment.carrier
        if carrier >= 0:
            v = units[carrier]
            path = f"units[{i}].deployment.in"
            if v.vehicle is None or v.side != u.side:
                c.fail(path, f"{v.id!r} is not a vehicle of side {side_ids[u.side]!r}")
            if u.vehicle is not None or len(u.figures) > v.vehicle.capacity:
                c.fail(path, f"{u.id!r} does not fit in {v.id!r} (capacity {v.vehicle.capacity} figures)")
            if sum(1 for w in units if w.deployment.carrier == carrier) > 1:
                c.fail(path, f"{v.id!r} carries one unit at most")
    for i, u in enumerate(units):
        if u.attachable and (u.deployment.points or u.deployment.carrier >= 0):
            c.fail(f"units[{i}].deployment", "an attachable unit joins another unit and has no deployment")
    ini = d["initiative"]
    first = side_of(ini["first_turn"], "initiative.first_turn") if "first_turn" in ini else None
    mods = [0, 0]
    for name, v in ini.get("modifiers", {}).items():
        mods[side_of(name, f"initiative.modifiers.{name}")] = v
    terms = []
    for i, t in enumerate(d["victory"]["terms"]):
        path = f"victory.terms[{i}]"
        side = side_of(t["side"], f"{path}.side")
        of = side_of(t["of"], f"{path}.of") if "of" in t else 1 - side
        if t["kind"] == "hold" and t.get("feature") not in {f.id for f in geometry.areas}:
            c.fail(f"{path}.feature", f"{t.get('feature')!r} is not an area feature of the table")
        terms.append(Term(side, t["kind"], t["vp"], of, t.get("feature"), t.get("before_turn")))
    rules = d["rules"]
    pilot = None
    objective = None  # the shared table's objective the pilot's rule takes
    if "downed_pilot" in rules:
        r = rules["downed_pilot"]
        if "objective" in r:
            objective = _objective(c, r, d["victory"])
            r = {**r, "building": objective["building"], "start": objective["start"]}
        for key in ("building", "start"):
            if key not in r:
                c.fail("rules.downed_pilot", f"missing {key!r} (or 'objective': an objective of a shared table)")
        f = table.feature_by_id.get(r["building"])
        if f is None or not f.is_area:
            c.fail("rules.downed_pilot.building", f"{r['building']!r} is not an area feature of the table")
        start = _point(c, table, r["start"], "rules.downed_pilot.start")
        if not f.contains(*table.xy[start]):
            c.fail("rules.downed_pilot.start", f"{table.name(start)} is not inside {r['building']!r}")
        pilot = Pilot(side_of(r["side"], "rules.downed_pilot.side"), r["building"], start,
                      TRAINING[r["training"]], r.get("handoff", True))  # fmt: skip
        if objective is not None:
            terms.extend(_pilot_terms(pilot.side, objective))
    for i, t in enumerate(terms):
        if t.kind.startswith("pilot") and pilot is None:
            c.fail(f"victory.terms[{i}].kind", f"{t.kind!r} needs rules.downed_pilot")
    auto = None
    for i, a in enumerate(d["victory"].get("automatic", [])):
        if pilot is None:
            c.fail(f"victory.automatic[{i}]", "'pilot_on_table' needs rules.downed_pilot")
        auto = (side_of(a["side"], f"victory.automatic[{i}].side"), a["end_of_turn"])
    if objective is not None:  # "Pilot still on table at end of Turn 8: VICTORY!" (the other side's)
        auto = (1 - pilot.side, objective["deadline_turn"])
    airstrike = None
    if "airstrike_call" in rules:
        if pilot is None:
            c.fail("rules.airstrike_call", "the air strike is called by the pilot: it needs rules.downed_pilot")
        airstrike = rules["airstrike_call"]["from_turn"]
    capture = None
    if "capture" in rules:
        capture = (side_of(rules["capture"]["by"], "rules.capture.by"), side_of(rules["capture"]["of"], "rules.capture.of"))
    return Scenario(
        id=d["id"], name=d["name"], provenance=d["provenance"], source=d["source"], table=table,
        geometry=geometry, sides=sides, units=tuple(units), turns=d["turns"], first_turn=first,
        initiative_modifiers=(mods[0], mods[1]), terms=tuple(terms), auto_pilot=auto, pilot=pilot,
        airstrike_from=airstrike, capture=capture, data=d,
    )  # fmt: skip


def _objective(c: _Checker, rule: dict, victory: dict) -> dict:
    """The shared table's objective ``rule["objective"]`` names, for ``rules.downed_pilot``: it gives the
    building, the start and the pilot's VP, so the rule and ``victory`` may not give them again."""
    where = "rules.downed_pilot"
    name = rule["objective"]
    if c.shared is None:
        c.fail(f"{where}.objective", "only a shared table ('table': {'ref': ID}) has objectives")
    if name not in c.shared.objectives:
        c.fail(f"{where}.objective", f"{name!r} is not an objective of shared table {c.shared.id!r}; "
                                     f"objectives: {', '.join(c.shared.objectives) or 'none'}")  # fmt: skip
    for key in ("building", "start"):
        if key in rule:
            c.fail(f"{where}.{key}", f"set by objective {name!r} of shared table {c.shared.id!r}; "
                                     "give it there or drop 'objective'")  # fmt: skip
    for i, t in enumerate(victory["terms"]):
        if t["kind"] in ("pilot_contact", "pilot_exit"):
            c.fail(f"victory.terms[{i}].kind", f"{t['kind']!r}: the pilot's VP come from {where}.objective")
    if victory.get("automatic"):
        c.fail("victory.automatic[0]", f"the pilot's automatic victory comes from {where}.objective")
    return c.shared.objectives[name]


def _pilot_terms(side: int, objective: dict) -> list[Term]:
    """The pilot's victory terms an objective gives ``side``: "makes contact with pilot", "escorts the
    pilot off table prior to Turn" ``early_escort_before_turn``, "by end of Turn" ``deadline_turn``."""
    return [
        Term(side, "pilot_contact", objective["contact_vp"], 1 - side, None, None),
        Term(side, "pilot_exit", objective["early_escort_vp"], 1 - side, None, objective["early_escort_before_turn"]),
        Term(side, "pilot_exit", objective["escort_vp"], 1 - side, None, objective["deadline_turn"] + 1),
    ]


def _deployment(c: _Checker, table: Table, dep: dict, ids: list[str], raw_units: list, path: str) -> Deployment:
    if "in" in dep:
        if len(dep) != 1:
            c.fail(path, "'in' (a vehicle's id) stands alone")
        if dep["in"] not in ids:
            c.fail(f"{path}.in", f"{dep['in']!r} is not a unit id")
        return Deployment((), ids.index(dep["in"]))
    if "at" in dep:
        if len(dep) != 1:
            c.fail(path, "'at' stands alone")
        return Deployment((_point(c, table, dep["at"], f"{path}.at"),))
    if "near" in dep:
        if set(dep) != {"near", "radius_in"}:
            c.fail(path, "'near' needs 'radius_in' and nothing else")
        p = _point(c, table, dep["near"], f"{path}.near")
        return Deployment(tuple(sorted([p, *table.within(p, dep["radius_in"])])))
    if "edge" in dep:
        if len(dep) != 1:
            c.fail(path, "'edge' stands alone")
        return Deployment(tuple(sorted(table.edge_points(dep["edge"]))))
    if "rect" in dep:
        if len(dep) != 1:
            c.fail(path, "'rect' stands alone")
        x0, y0, x1, y1 = dep["rect"]
        pts = tuple(p for p, (x, y) in enumerate(table.xy) if x0 <= x <= x1 and y0 <= y <= y1)
        if not pts:
            c.fail(f"{path}.rect", "holds no grid point")
        return Deployment(pts)
    c.fail(path, "give one of at, near + radius_in, edge, rect, in")
    raise AssertionError  # unreachable


# ---------------------------------------------------------------------------------- loading
def _parse(text: str, where: str) -> Any:
    try:
        return jsondata.loads(text)
    except jsondata.BadJSON as exc:
        raise PositionError(f"{where}: not valid JSON ({exc})") from None


@lru_cache(maxsize=8)
def _shipped(scenario_id: str) -> Scenario:
    name = f"{scenario_id}.json"
    text = resources.files("fof_env.fubar").joinpath("scenarios", name).read_text()
    return scenario_from_dict(_parse(text, f"fof_env/fubar/scenarios/{name}"), f"fof_env/fubar/scenarios/{name}")


_FILE_CACHE: dict[tuple[str, str], Scenario] = {}
_REGISTERED: dict[str, Path] = {}  # scenario id -> file, from a server operator's scenario folders


def register_scenario(scenario_id: str, path: str | Path) -> None:
    """Make ``scenario_id`` name the scenario file ``path`` (a server's operator adds scenarios this
    way; the game's ``scenario`` option, views and records then hold the id, never the path)."""
    if scenario_id in SHIPPED:
        raise ValueError(f"{scenario_id!r} is a shipped scenario's id")
    _REGISTERED[scenario_id] = Path(path)


def scenario_ids() -> list[str]:
    """The shipped scenarios' ids and those registered (:func:`register_scenario`)."""
    return [*SHIPPED, *sorted(_REGISTERED)]


def read_scenario_text(path: Path, where: str) -> str:
    """The text of scenario file ``path`` (at most ``MAX_FILE_BYTES``); one-line PositionError otherwise."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise PositionError(f"cannot read scenario file {where!r}: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise PositionError(f"{where}: a scenario file holds at most {MAX_FILE_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise PositionError(f"{where}: not UTF-8 text") from None


def load_scenario(name: str) -> Scenario:
    """A shipped scenario by id (``"lost_and_found"``, ``"village_patrol"``), a registered one by id,
    or a JSON file by path (cached by path and content)."""
    if name in SHIPPED:
        return _shipped(name)
    path = _REGISTERED.get(name)
    where = name
    if path is None:
        path = Path(name)
        if not path.suffix == ".json":
            raise PositionError(
                f"scenario {name!r}: not a shipped scenario ({', '.join(SHIPPED)}) nor a path to a .json file"
            )
    text = read_scenario_text(path, where)
    key = (str(path), text)
    got = _FILE_CACHE.get(key)
    if got is None:
        got = scenario_from_dict(_parse(text, where), where)
        if len(_FILE_CACHE) > 64:
            _FILE_CACHE.clear()
        _FILE_CACHE[key] = got
    return got
