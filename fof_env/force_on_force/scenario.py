"""Force on Force scenarios as data: ``load_scenario(name | path | dict) -> Scenario``.

A scenario file is JSON in the layout of :mod:`fof_env.force_on_force.scenario_schema`
(``"format": "fof-scenario/1"``): the table and its terrain, the two sides with their Basic
Attributes, the units (figures, weapons, support class, deployment), attachments (a squad
leader joining a unit), the set-up steps, turns, the initiative of turn 1, the Fog of War
table, victory points, scenario options and the named rule modules the scenario switches
on (``ambush``, ``must_fire_first``, ``capture``, ``downed_pilot``, ``airstrike_call``,
``irregulars``, ``out_of_contact``, ``wwii_first_aid``, ``wwii_mg_teams``).

The shipped scenarios live in ``fof_env/force_on_force/scenarios/<id>.json``
(:func:`shipped_scenarios`); ``load_scenario`` takes one of their ids, a path to a file of
your own, or an already parsed dict. Every problem raises
:class:`~fof_env.core.errors.ScenarioError`, one line naming the file, the field path and
what is allowed (``"my.json: units[2].figures[0].support: 'huge' is not one of [None,
'light', 'medium', 'heavy']"``). Loaded scenarios are cached per file (a small LRU) and
shared: treat them as read-only.

A unit with a ``vehicle`` block is a WWII AFV (its figures are its crew) and ``at_weapon`` gives an
infantry unit an AT weapon (:mod:`fof_env.force_on_force.rules.wwii_vehicles`, rulings R80-R88).
A unit with ``"reserve": <card key>`` (Hunted!, Browning's Buzz-Saw, Tank Busters!, Tank Support) is held
off the table until that WWII Fog of War card is drawn (:mod:`fof_env.force_on_force.rules.wwii_reserves`,
rulings R70): no ``deploy``, the card's TQ and Morale, at most one a side per card. A unit with
``"reserve": "asset"`` is one of its side's Asset Cards (reconstruction, rulings R71): no ``deploy``, its
own TQ and Morale, any number a side.

Points are ``[x, y]`` inches; unit deployment marks and the like must be grid points of the
table (``spacing_in / 2 + k * spacing_in``).

A scenario may play on a shared table (:mod:`fof_env.core.tables`), one map that scenarios of
other rule systems use too: ``"table": {"ref": ID}``. Its points may then name the table's marks
(``"deploy": {"mark": "1", "radius": 4}``), and ``"rules": {"downed_pilot": {"side": ...,
"objective": "downed_pilot"}}`` takes the pilot's building, start, VP and deadline from the table's
objective of that name. Problems in the shared file itself name that file.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from fof_env.core import jsondata, tables
from fof_env.core.errors import ScenarioError
from fof_env.core.tabletop import Feature, Table
from fof_env.force_on_force.rules.wwii_reserves import CARD_STATS, check_reserve
from fof_env.force_on_force.scenario_schema import (
    FORMAT,
    MAX_TABLE_POINTS,
    SCHEMA,
    TABLE,
)

_CACHE_SIZE = 8
_cache: OrderedDict[str, Scenario] = OrderedDict()


@dataclass(frozen=True)
class FigureSpec:
    """One figure: its role, weapon (None for an unarmed figure) and that weapon's support class."""

    role: str
    weapon: str | None
    support: str | None  # None, "light" (+1 Firepower die), "medium" (+2) or "heavy" (+3)
    mg: str | None = None  # a WWII MG (rule module wwii_mg_teams): box, belt_lmg, strip_mmg, mmg, hmg


@dataclass(frozen=True)
class SideSpec:
    """A side's Basic Attributes (die types as the number of faces; levels lower-case)."""

    id: str
    name: str
    edge: str  # its friendly table edge
    initiative_die: int
    tq: int
    morale: int
    body_armor: int  # extra defence dice
    supply: str
    confidence: str
    irregular: bool = False
    seed_quote: str = ""
    colour: str = ""  # its counters' colour (#rrggbb) on the board and in pictures; "": the default


@dataclass(frozen=True)
class Deployment:
    """Where a unit sets up: the points within ``radius`` of ``mark``, a table ``edge``, a ``zone``
    rectangle, or one point ``at`` (each as point indices in ``points``)."""

    points: tuple[int, ...]
    kind: str  # "mark" | "edge" | "zone" | "at"
    mark: int = -1


@dataclass(frozen=True)
class UnitSpec:
    """A unit of the order of battle; ``side`` is its side's index (0 or 1)."""

    id: str
    name: str
    side: int
    figures: tuple[FigureSpec, ...]
    deploy: Deployment | None
    tq: int | None = None  # overrides of the side's attributes
    morale: int | None = None
    irregular: bool | None = None  # None: the side's
    reinforcements: bool = False  # starts empty; Fog of War fills it
    requires: dict[str, Any] = field(default_factory=dict)  # option values it needs to be in play
    seed_quote: str = ""
    vehicle: dict[str, Any] | None = None  # a WWII AFV's block (rules/wwii_vehicles.py); its figures: the crew
    at_weapon: str | None = None  # an infantry AT weapon ("bazooka" ...) that may fire at AFVs
    reserve: str | None = None  # a WWII Fog of War card: off the table until it is drawn (rules/wwii_reserves.py)

    def __len__(self) -> int:
        return len(self.figures)


@dataclass(frozen=True)
class OptionDecl:
    """A scenario option (``make_game(..., name=value)``)."""

    name: str
    type: str  # "bool" | "int" | "str"
    default: Any
    choices: tuple[Any, ...] | None
    doc: str


@dataclass(frozen=True)
class VictoryTerm:
    """``points`` VP to ``side`` (index) per ``kind`` (``enemy_kia`` ...; ``feature`` for ``feature_held``)."""

    side: int
    kind: str
    points: int
    feature: str | None = None


@dataclass(frozen=True)
class Scenario:
    """A validated scenario (see the module docstring); sides, units and rules reference sides by index."""

    id: str
    name: str
    provenance: str
    source: str
    origin: str  # the file it was read from ("<dict>" for a dict)
    table: Table
    sides: tuple[SideSpec, SideSpec]
    options: tuple[OptionDecl, ...]
    units: tuple[UnitSpec, ...]
    attachments: tuple[UnitSpec, ...]
    deployment: tuple[tuple[int, str], ...]  # (side, "deploy" | "hide" | "attach")
    turns: int
    first_initiative: int
    fog_of_war: dict[str, Any] | None  # {"table": ..., "regular": side, "irregular": side}
    victory: tuple[VictoryTerm, ...]
    rules: dict[str, dict[str, Any]]  # rule module -> its settings (sides as indices)
    data: dict[str, Any] = field(repr=False)  # the file's JSON, as read

    def side_index(self, side_id: str) -> int:
        return [s.id for s in self.sides].index(side_id)

    def unit(self, unit_id: str) -> UnitSpec:
        for u in (*self.units, *self.attachments):
            if u.id == unit_id:
                return u
        raise KeyError(f"no unit {unit_id!r} in scenario {self.id!r}")


# ----------------------------------------------------------------------------- loading
def shipped_scenarios() -> list[str]:
    """Ids of the scenarios shipped in ``fof_env/force_on_force/scenarios``."""
    folder = resources.files("fof_env.force_on_force").joinpath("scenarios")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


def scenario_file(name: str) -> str:
    """The text of shipped scenario ``name``; ScenarioError listing them if there is none."""
    folder = resources.files("fof_env.force_on_force").joinpath("scenarios")
    entry = folder.joinpath(f"{name}.json")
    if not entry.is_file():
        raise ScenarioError(f"no shipped scenario {name!r}; shipped: {', '.join(shipped_scenarios())} "
                            "(or give the path of a scenario file)")
    return entry.read_text(encoding="utf-8")


_REGISTERED: dict[str, Path] = {}  # scenario id -> file, from a server operator's scenario folders
MAX_FILE_BYTES = 1 << 20


def register_scenario(scenario_id: str, path: str | Path) -> None:
    """Make ``scenario_id`` name the scenario file ``path`` (a server's operator adds scenarios this way;
    the game's ``scenario`` option, views and records then hold the id, never the path)."""
    if scenario_id in shipped_scenarios() or scenario_id.endswith(".json") or "/" in scenario_id:
        raise ValueError(f"{scenario_id!r} can not name a registered scenario")
    _REGISTERED[scenario_id] = Path(path)
    _cache.pop(f"registered:{scenario_id}", None)


def scenario_ids() -> list[str]:
    """The shipped scenarios' ids and those registered (:func:`register_scenario`)."""
    return [*shipped_scenarios(), *sorted(_REGISTERED)]


def _read_file(path: Path, origin: str) -> str:
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise ScenarioError(f"{origin}: a scenario file holds at most {MAX_FILE_BYTES} bytes")
        return data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"{origin}: cannot read the scenario file: {getattr(exc, 'strerror', None) or exc}") \
            from None


def load_scenario(source: str | Path | dict[str, Any] = "lost_and_found") -> Scenario:
    """The scenario ``source`` names: a shipped id, a registered id (:func:`register_scenario`; its
    ``origin`` is the id), a path to a ``.json`` file, or a parsed dict."""
    if isinstance(source, dict):
        return scenario_from_dict(source, "<dict>")
    text_source = str(source)
    registered = _REGISTERED.get(text_source) if isinstance(source, str) else None
    is_path = registered is None and (isinstance(source, Path) or text_source.endswith(".json") or "/" in text_source)
    if registered is not None:
        key = f"registered:{text_source}"
    else:
        key = str(Path(text_source).resolve()) if is_path else f"shipped:{text_source}"
    if key in _cache:
        _cache.move_to_end(key)
        return _cache[key]
    if registered is not None:
        origin = text_source
        text = _read_file(registered, origin)
    elif is_path:
        origin = text_source
        text = _read_file(Path(text_source), origin)
    else:
        origin = f"{text_source}.json"
        text = scenario_file(text_source)
    try:
        data = jsondata.loads(text)
    except jsondata.BadJSON as exc:
        raise ScenarioError(f"{origin}: not JSON: {exc}") from None
    scenario = scenario_from_dict(data, origin)
    _cache[key] = scenario
    while len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return scenario


def check_schema(data: Any, origin: str) -> None:
    """Raise :class:`ScenarioError` for the first (most relevant) schema violation of ``data``."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    error = best_match(Draft202012Validator(SCHEMA).iter_errors(data))
    if error is None:
        return
    where = jsondata.field_path(error.absolute_path)
    message = error.message
    if error.validator == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        message = f"{message}; allowed: {', '.join(allowed)}"
    elif error.validator == "oneOf" and "deploy" in where:
        message = "give exactly one of mark+radius, edge, zone or at"
    elif error.validator == "oneOf":
        message = "give exactly one of rect or segment"
    raise ScenarioError(f"{origin}: {where}: {message}")


def scenario_from_dict(data: Any, origin: str = "<dict>") -> Scenario:
    """Validate ``data`` (schema, then geometry and cross references) and build the :class:`Scenario`."""
    found = jsondata.problem(data)
    if found is not None:
        raise ScenarioError(f"{origin}: {found}")
    if isinstance(data, dict) and data.get("format") not in (None, FORMAT):
        raise ScenarioError(f"{origin}: format: {data.get('format')!r} is not {FORMAT!r}")
    check_schema(data, origin)

    def fail(where: str, message: str) -> ScenarioError:
        return ScenarioError(f"{origin}: {where}: {message}")

    shared = _shared_table(data["table"], fail)
    if shared is None:
        table = _build_table(data["table"], fail)
    else:  # problems in the shared file name that file

        def fail_shared(where: str, message: str) -> ScenarioError:
            return ScenarioError(f"{shared.origin}: {where}: {message}")

        table = _build_table(shared.table, fail_shared)
    sides = tuple(
        SideSpec(
            id=s["id"], name=s["name"], edge=s["edge"], initiative_die=s["initiative_die"], tq=s["tq"],
            morale=s["morale"], body_armor=s["body_armor"], supply=s["supply"], confidence=s["confidence"],
            irregular=s.get("irregular", False), seed_quote=s.get("seed_quote", ""), colour=s.get("colour", ""),
        )
        for s in data["sides"]
    )
    side_ids = [s.id for s in sides]
    if side_ids[0] == side_ids[1]:
        raise fail("sides[1].id", f"{side_ids[1]!r} is the id of both sides")

    def side_of(value: str, where: str) -> int:
        if value not in side_ids:
            raise fail(where, f"{value!r} is not a side; sides: {', '.join(side_ids)}")
        return side_ids.index(value)

    options = []
    for name, o in data.get("options", {}).items():
        if name in ("rules", "fog_of_war", "scenario"):
            raise fail(f"options.{name}", "is a game option every scenario has; choose another name")
        kind = {"bool": bool, "int": int, "str": str}[o["type"]]
        choices = tuple(o["choices"]) if "choices" in o else None
        default = o["default"]
        if not isinstance(default, kind) or (kind is int and isinstance(default, bool)):
            raise fail(f"options.{name}.default", f"{default!r} is not a {o['type']}")
        if choices is not None and default not in choices:
            raise fail(f"options.{name}.default", f"{default!r} is not one of its choices {list(choices)}")
        options.append(OptionDecl(name, o["type"], default, choices, o.get("doc", "")))
    option_names = {o.name for o in options}

    units, seen = [], set()
    reserves: dict[tuple[str, str], str] = {}  # (side id, card) -> the reserve unit's id
    for i, u in enumerate(data["units"]):
        where = f"units[{i}]"
        if u["id"] in seen:
            raise fail(f"{where}.id", f"{u['id']!r} is the id of two units")
        seen.add(u["id"])
        unknown = sorted(set(u.get("requires", {})) - option_names)
        if unknown:
            raise fail(f"{where}.requires", f"{unknown[0]!r} is not an option of this scenario")
        if not u["figures"] and not u.get("reinforcements", False):
            raise fail(f"{where}.figures", "a unit needs at least one figure (only reinforcements start empty)")
        reserve = u.get("reserve")
        if reserve is not None:  # a card reserve (rulings R70): its card's TQ and Morale
            check_reserve(u, where, data.get("fog_of_war"), fail)
        if reserve in CARD_STATS:  # one unit a side per card; an Asset Card (R71): any number, its own stats
            if (u["side"], reserve) in reserves:
                raise fail(f"{where}.reserve", f"side {u['side']!r} already holds {reserves[(u['side'], reserve)]!r} "
                                               f"in reserve for {reserve!r} (one unit a side per card)")
            reserves[(u["side"], reserve)] = u["id"]
            u = {**u, "tq": CARD_STATS[reserve][0], "morale": CARD_STATS[reserve][1]}
        units.append(UnitSpec(
            id=u["id"], name=u["name"], side=side_of(u["side"], f"{where}.side"),
            figures=tuple(FigureSpec(f["role"], f["weapon"], f["support"], f.get("mg")) for f in u["figures"]),
            deploy=_deployment(u.get("deploy"), table, shared, f"{where}.deploy", fail),
            tq=u.get("tq"), morale=u.get("morale"), irregular=u.get("irregular"),
            reinforcements=u.get("reinforcements", False), requires=dict(u.get("requires", {})),
            seed_quote=u.get("seed_quote", ""), vehicle=u.get("vehicle"), at_weapon=u.get("at_weapon"),
            reserve=reserve,
        ))  # fmt: skip
    if sorted(u.side for u in units) != [u.side for u in units]:
        raise fail("units", f"list the units of side {side_ids[0]!r} first, then those of {side_ids[1]!r}")
    for side in (0, 1):
        if not any(u.side == side for u in units):
            raise fail("units", f"side {side_ids[side]!r} has no unit")
    attachments = tuple(
        UnitSpec(id=a["id"], name=a["name"], side=side_of(a["side"], f"attachments[{i}].side"),
                 figures=tuple(FigureSpec(f["role"], f["weapon"], f["support"]) for f in a["figures"]),
                 deploy=None, seed_quote=a.get("seed_quote", ""))  # fmt: skip
        for i, a in enumerate(data.get("attachments", []))
    )
    deployment = tuple(
        (side_of(step["side"], f"deployment[{i}].side"), step["step"]) for i, step in enumerate(data["deployment"])
    )
    for side in (0, 1):
        if (side, "deploy") not in deployment:
            raise fail("deployment", f"side {side_ids[side]!r} never deploys (add a 'deploy' step)")
    fog = data.get("fog_of_war")
    if fog is not None:
        fog = {"table": fog["table"],
               "regular": side_of(fog.get("regular", side_ids[1]), "fog_of_war.regular"),
               "irregular": side_of(fog.get("irregular", side_ids[0]), "fog_of_war.irregular")}  # fmt: skip
    victory = []
    for i, v in enumerate(data.get("victory", {}).get("vp", [])):
        if v["for"] == "feature_held" and v.get("feature") not in table.feature_by_id:
            raise fail(f"victory.vp[{i}].feature", f"{v.get('feature')!r} is not a feature of the table")
        victory.append(VictoryTerm(side_of(v["side"], f"victory.vp[{i}].side"), v["for"], v["points"],
                                   v.get("feature")))
    rules = {name: _rule(name, dict(cfg), table, shared, side_of, options, fail)
             for name, cfg in data.get("rules", {}).items()}
    return Scenario(
        id=data["id"], name=data["name"], provenance=data["provenance"], source=data.get("source", ""),
        origin=origin, table=table, sides=sides, options=tuple(options), units=tuple(units),
        attachments=attachments, deployment=deployment, turns=data["turns"],
        first_initiative=side_of(data["initiative"]["turn_1"], "initiative.turn_1"), fog_of_war=fog,
        victory=tuple(victory), rules=rules, data=data,
    )


# ----------------------------------------------------------------------------- parts
def table_from_dict(block: Any, origin: str) -> Table:
    """A :class:`~fof_env.core.tabletop.Table` from a scenario's ``table`` block (schema-checked);
    :class:`ScenarioError` naming ``origin`` and the field otherwise."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    error = best_match(Draft202012Validator(TABLE).iter_errors(block))
    if error is not None:
        where = jsondata.field_path(error.absolute_path, "")
        raise ScenarioError(f"{origin}: table{where and '.' + where}: {error.message}")

    def fail(where: str, message: str) -> ScenarioError:
        return ScenarioError(f"{origin}: {where}: {message}")

    return _build_table(block, fail)


def _shared_table(block: dict[str, Any], fail) -> tables.SharedTable | None:
    """The shared table ``block`` refers to (``{"ref": ID}``), None for a table of the scenario's own."""
    if "ref" not in block:
        return None
    shared = tables.shared_table(block["ref"])
    if shared is None:
        raise fail("table.ref", f"{block['ref']!r} is not a shared table; shared tables: "
                                f"{', '.join(tables.shared_table_ids())}")
    return shared


def _build_table(t: dict[str, Any], fail) -> Table:
    width, height, spacing = float(t["width_in"]), float(t["height_in"]), float(t["spacing_in"])
    points = int(width // spacing) * int(height // spacing)
    if points > MAX_TABLE_POINTS:
        raise fail("table", f"{width:g}\" x {height:g}\" with {spacing:g}\" spacing has {points} grid points; "
                            f"at most {MAX_TABLE_POINTS} (use a wider spacing or a smaller table)")
    features = []
    for i, f in enumerate(t["features"]):
        kind = f["kind"]
        key, other = ("segment", "rect") if kind == "wall" else ("rect", "segment")
        if other in f or key not in f:
            raise fail(f"table.features[{i}]", f"a {kind} takes {key!r}, not {other!r}")
        try:
            features.append(Feature(f["id"], kind, **{key: tuple(float(v) for v in f[key])}))
        except ValueError as exc:
            raise fail(f"table.features[{i}]", str(exc)) from None
    areas = [f for f in features if f.rect is not None]
    for i, a in enumerate(areas):
        for b in areas[i + 1:]:
            if _overlap(a.rect, b.rect):
                raise fail("table.features", f"{a.id!r} and {b.id!r} overlap (terrain areas may touch, not overlap)")
    try:
        return Table(width, height, spacing, features, wall_cover_reach_in=t.get("wall_cover_reach_in"))
    except ValueError as exc:
        raise fail("table", str(exc)) from None


def _overlap(a, b) -> bool:
    ax0, ay0, ax1, ay1 = min(a[0], a[2]), min(a[1], a[3]), max(a[0], a[2]), max(a[1], a[3])
    bx0, by0, bx1, by1 = min(b[0], b[2]), min(b[1], b[3]), max(b[0], b[2]), max(b[1], b[3])
    return ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1


def grid_point(table: Table, xy, where: str, fail, shared: tables.SharedTable | None = None) -> int:
    """The point index of ``xy`` (``[x, y]``, or a mark of the ``shared`` table); ``fail`` otherwise."""
    try:
        xy = tables.point(xy, shared)
    except ValueError as exc:
        raise fail(where, str(exc)) from None
    x, y = float(xy[0]), float(xy[1])
    if not (0 < x < table.width_in and 0 < y < table.height_in):
        raise fail(where, f"[{x:g}, {y:g}] is off the {table.width_in:g}\" x {table.height_in:g}\" table")
    p = table.point_at(x, y)
    if p is None:
        s = table.spacing_in
        raise fail(where, f"[{x:g}, {y:g}] is not a grid point (points are every {s:g}\" from {s / 2:g}\")")
    return p


def _deployment(d: dict[str, Any] | None, table: Table, shared: tables.SharedTable | None, where: str,
                fail) -> Deployment | None:  # fmt: skip
    if d is None:
        return None
    if "mark" in d:
        mark = grid_point(table, d["mark"], f"{where}.mark", fail, shared)
        return Deployment(tuple(sorted([mark, *table.within(mark, float(d["radius"]))])), "mark", mark)
    if "edge" in d:
        return Deployment(tuple(table.edge_points(d["edge"])), "edge")
    if "at" in d:
        return Deployment((grid_point(table, d["at"], f"{where}.at", fail, shared),), "at")
    x0, y0, x1, y1 = d["zone"]
    points = tuple(p for p, (x, y) in enumerate(table.xy)
                   if min(x0, x1) <= x <= max(x0, x1) and min(y0, y1) <= y <= max(y0, y1))  # fmt: skip
    if not points:
        raise fail(f"{where}.zone", f"{d['zone']} holds no grid point of the table")
    return Deployment(points, "zone")


_RULE_KEYS = {
    "ambush": {"side", "option", "fires_first", "seed_quote"},
    "must_fire_first": {"side", "option", "seed_quote"},
    "capture": {"side", "option", "seed_quote"},
    "downed_pilot": {"side", "objective", "building", "start", "deadline_turn", "early_escort_before_turn",
                     "contact_vp", "early_escort_vp", "escort_vp", "figure", "seed_quote", "vp_quotes"},
    "airstrike_call": {"side", "option", "seed_quote"},
    "irregulars": {"side", "option", "seed_quote"},
    "out_of_contact": {"side", "option", "seed_quote"},
    "wwii_first_aid": {"option", "seed_quote"},
    "wwii_mg_teams": {"option", "seed_quote"},
    "wwii_close_air_support": {"side", "asset", "sorties", "from_turn", "radio", "option", "seed_quote"},
}  # fmt: skip


AMBUSH_FIRES_FIRST = ("on_4+", "always")  # rulings R36: 000's text and its briefing


def _check_fires_first(value: Any, where: str, options: list[OptionDecl], fail) -> None:
    """``fires_first`` of the ambush rule: one of AMBUSH_FIRES_FIRST or {"option": a str option whose
    choices are among them}."""
    if isinstance(value, dict) and set(value) == {"option"}:
        decl = next((o for o in options if o.name == value["option"]), None)
        if decl is None:
            raise fail(f"{where}.option", f"{value['option']!r} is not an option of this scenario")
        if decl.type != "str" or not decl.choices or not set(decl.choices) <= set(AMBUSH_FIRES_FIRST):
            raise fail(f"{where}.option", f"option {decl.name!r} must be a str with choices among "
                                          f"{list(AMBUSH_FIRES_FIRST)}")
    elif value not in AMBUSH_FIRES_FIRST:
        raise fail(where, f"{value!r} is not one of {list(AMBUSH_FIRES_FIRST)} or {{\"option\": NAME}}")


def _rule(name: str, cfg: dict[str, Any], table: Table, shared: tables.SharedTable | None, side_of,
          options: list[OptionDecl], fail) -> dict[str, Any]:  # fmt: skip
    where = f"rules.{name}"
    unknown = sorted(set(cfg) - _RULE_KEYS[name])
    if unknown:
        raise fail(f"{where}.{unknown[0]}", f"not a setting of the {name} rule; its settings: "
                                            f"{', '.join(sorted(_RULE_KEYS[name]))}")
    if "side" in _RULE_KEYS[name]:
        if "side" not in cfg:
            raise fail(where, "names no side ('side': a side id)")
        cfg["side"] = side_of(cfg["side"], f"{where}.side")
    if "option" in cfg and cfg["option"] not in {o.name for o in options}:
        raise fail(f"{where}.option", f"{cfg['option']!r} is not an option of this scenario")
    if name == "wwii_close_air_support":  # rules/wwii_air.py (rulings R68-R69)
        from fof_env.force_on_force.rules.wwii_air import check_rule

        check_rule(cfg, where, fail)
    if name == "ambush" and "fires_first" in cfg:
        _check_fires_first(cfg["fires_first"], f"{where}.fires_first", options, fail)
    if name == "downed_pilot":
        if "objective" in cfg:
            cfg = {**cfg, **_objective(cfg, where, shared, fail)}
        for key in ("building", "start", "deadline_turn", "early_escort_before_turn"):
            if key not in cfg:
                raise fail(where, f"missing {key!r}")
        building = table.feature_by_id.get(cfg["building"])
        if building is None or building.kind != "building":
            raise fail(f"{where}.building", f"{cfg['building']!r} is not the id of a building")
        start = grid_point(table, cfg["start"], f"{where}.start", fail, shared)
        if not building.contains(*table.xy[start]):
            raise fail(f"{where}.start", f"{table.name(start)} is not inside building {cfg['building']!r}")
        cfg["start_point"] = start
    return cfg


def _objective(cfg: dict[str, Any], where: str, shared: tables.SharedTable | None, fail) -> dict[str, Any]:
    """The settings the rule at ``where`` takes from the shared table's objective it names
    (``cfg["objective"]``; the objective's ``quotes`` as ``vp_quotes``): none may be given again."""
    name = cfg["objective"]
    if shared is None:
        raise fail(f"{where}.objective", "only a shared table ('table': {'ref': ID}) has objectives")
    if name not in shared.objectives:
        raise fail(f"{where}.objective", f"{name!r} is not an objective of shared table {shared.id!r}; "
                                         f"objectives: {', '.join(shared.objectives) or 'none'}")
    settings = {("vp_quotes" if k == "quotes" else k): v for k, v in shared.objectives[name].items()}
    again = sorted(set(settings) & set(cfg))
    if again:
        raise fail(f"{where}.{again[0]}", f"set by objective {name!r} of shared table {shared.id!r}; "
                                          "give it there or drop 'objective'")
    return settings
