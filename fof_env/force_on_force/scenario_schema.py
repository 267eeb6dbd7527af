"""The JSON Schema of a Force on Force scenario file (``"format": "fof-scenario/1"``).

The schema checks structure and types (what JSON Schema is good at); the checks that need
the table's geometry or cross references (a unit placed off the table, a deployment mark off
the grid, an unknown side id, overlapping terrain, a shared table or mark that does not exist) are
made by :func:`fof_env.force_on_force.scenario.scenario_from_dict` after the schema passes.
``table`` is either the table itself (:data:`TABLE`) or ``{"ref": ID}``, a shared table of
:mod:`fof_env.core.tables`; a point (a deployment ``mark`` or ``at``, the pilot's ``start``) is
``[x, y]`` or the name of a mark of that shared table.
Key order in a file, as in Ludii's game description: the equipment (``table``, ``sides``,
``units``), the start (``deployment``), the play (``rules``, ``fog_of_war``), the end
(``turns``, ``victory``).
"""

from __future__ import annotations

from typing import Any

FORMAT = "fof-scenario/1"
FEATURE_KINDS = ("woods", "building", "stream_bank", "improved_position", "fortified_position",
                 "reinforced_fortification", "wall")  # fmt: skip
EDGES = ("west", "east", "north", "south")
DIE_TYPES = (4, 6, 8, 10, 12)
SUPPORT = (None, "light", "medium", "heavy")
SUPPLY = ("poor", "low", "normal", "high", "well")
CONFIDENCE = ("low", "normal", "high", "fanatic")
RULE_MODULES = ("ambush", "must_fire_first", "capture", "downed_pilot", "airstrike_call", "irregulars",
                "out_of_contact", "wwii_first_aid", "wwii_mg_teams", "wwii_close_air_support")  # fmt: skip
MG_TYPES = ("box", "belt_lmg", "strip_mmg", "mmg", "hmg")  # 004 "World War Two Weapon Teams" (rules/wwii.py)
VP_TERMS = ("enemy_kia", "enemy_serious", "enemy_captured", "enemy_casualties", "units_destroyed",
            "feature_held")  # fmt: skip
FOW_TABLES = ("d10_quick_start", "wwii_deck")  # wwii_deck: 004's card deck (rules/wwii_fog.py)
# the WWII Fog of War cards that bring a unit: a unit held in reserve for one (rules/wwii_reserves.py, R70),
# or "asset": one of its side's Asset Cards (reconstruction, rulings R71)
RESERVE_CARDS = ("hunted", "brownings_buzz_saw", "tank_busters", "tank_support", "asset")
MAX_TABLE_POINTS = 1024  # grid points: bounds the precomputed geometry (n^2 matrices) and the action space
MAX_FEATURES = 64
MAX_UNITS = 24  # a scenario with card reserves and assets (rules/wwii_reserves.py) holds more units a side
MAX_FIGURES = 12

_XY = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}
# a point: [x, y] inches, or the name of a mark of the shared table the scenario refers to
_POINT = {"type": ["array", "string"], "items": {"type": "number"}, "minItems": 2, "maxItems": 2,
          "pattern": "^[A-Za-z0-9_]+$", "maxLength": 16}  # fmt: skip
_RECT = {"type": "array", "items": {"type": "number"}, "minItems": 4, "maxItems": 4}
_ID = {"type": "string", "pattern": r"^[A-Za-z][A-Za-z0-9_.]*$", "maxLength": 32}
_TEXT = {"type": "string"}
_QUOTE = {"type": "string"}

_FIGURE = {
    "type": "object",
    "required": ["role", "weapon", "support"],
    "additionalProperties": False,
    "properties": {
        "role": _TEXT,
        "weapon": {"type": ["string", "null"]},
        "support": {"enum": list(SUPPORT)},
        "mg": {"enum": list(MG_TYPES)},
    },
}

_FEATURE = {
    "type": "object",
    "required": ["id", "kind"],
    "additionalProperties": False,
    "properties": {
        "id": _ID,
        "kind": {"enum": list(FEATURE_KINDS)},
        "rect": _RECT,
        "segment": _RECT,
        "note": _TEXT,
    },
    "oneOf": [{"required": ["rect"]}, {"required": ["segment"]}],
}

_SIDE = {
    "type": "object",
    "required": ["id", "name", "edge", "initiative_die", "tq", "morale", "body_armor", "supply", "confidence"],
    "additionalProperties": False,
    "properties": {
        "id": _ID,
        "name": _TEXT,
        "colour": {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"},
        "edge": {"enum": list(EDGES)},
        "initiative_die": {"enum": list(DIE_TYPES)},
        "tq": {"enum": list(DIE_TYPES)},
        "morale": {"enum": list(DIE_TYPES)},
        "body_armor": {"type": "integer", "minimum": 0, "maximum": 4},
        "supply": {"enum": list(SUPPLY)},
        "confidence": {"enum": list(CONFIDENCE)},
        "irregular": {"type": "boolean"},
        "seed_quote": _QUOTE,
    },
}

_DEPLOY = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "mark": _POINT,
        "radius": {"type": "number", "minimum": 0, "maximum": 36},
        "edge": {"enum": list(EDGES)},
        "zone": _RECT,
        "at": _POINT,
    },
    "oneOf": [{"required": ["mark", "radius"]}, {"required": ["edge"]}, {"required": ["zone"]}, {"required": ["at"]}],
}

# a WWII AFV (004 "WWII Vehicle Design Guidelines"; rules/wwii_vehicles.py)
VEHICLE_DEFENSE = ("protected", "light", "medium", "heavy", "extra_heavy")
VEHICLE_GUNS = ("class0_2d", "class1_3d", "class2_3d", "class2_4d", "class3_3d", "class3_4d", "class3_5d")
AT_WEAPONS = ("bazooka", "piat", "panzerschreck", "panzerfaust", "at_gun_class2_3d", "at_gun_class2_4d",
              "at_gun_class3_3d", "at_gun_class3_4d", "at_gun_class3_5d", "infantry_gun")  # fmt: skip
_VEHICLE = {
    "type": "object",
    "required": ["defense"],
    "additionalProperties": False,
    "properties": {
        "defense": {"enum": list(VEHICLE_DEFENSE)},
        "main_gun": {"enum": [*VEHICLE_GUNS, None]},
        "mgs": {"type": "boolean"},
        "applied_armour": {"type": "boolean"},
        "crew_confidence": {"enum": ["low", "confident", "high"]},
        "buttoned": {"type": "boolean"},
        "seed_quote": _QUOTE,
    },
}

_UNIT = {
    "type": "object",
    "required": ["id", "name", "side", "figures"],
    "additionalProperties": False,
    "properties": {
        "id": _ID,
        "name": _TEXT,
        "side": _ID,
        "deploy": _DEPLOY,
        "figures": {"type": "array", "items": _FIGURE, "maxItems": MAX_FIGURES},
        "tq": {"enum": list(DIE_TYPES)},
        "morale": {"enum": list(DIE_TYPES)},
        "irregular": {"type": "boolean"},
        "reinforcements": {"type": "boolean"},
        "requires": {"type": "object", "additionalProperties": {"type": ["boolean", "integer", "string"]}},
        "vehicle": _VEHICLE,  # a WWII AFV; its figures are its crew (rules/wwii_vehicles.py, rulings R80)
        "at_weapon": {"enum": list(AT_WEAPONS)},  # an infantry AT weapon that may fire at AFVs (R81)
        # off the table until this WWII Fog of War card is drawn (rules/wwii_reserves.py, rulings R70)
        "reserve": {"enum": list(RESERVE_CARDS)},
        "seed_quote": _QUOTE,
    },
}

_ATTACHMENT = {
    "type": "object",
    "required": ["id", "name", "side", "figures"],
    "additionalProperties": False,
    "properties": {
        "id": _ID,
        "name": _TEXT,
        "side": _ID,
        "joins": _TEXT,
        "figures": {"type": "array", "items": _FIGURE, "minItems": 1, "maxItems": 1},
        "seed_quote": _QUOTE,
    },
}

_OPTION = {
    "type": "object",
    "required": ["type", "default"],
    "additionalProperties": False,
    "properties": {
        "type": {"enum": ["bool", "int", "str"]},
        "choices": {"type": "array", "minItems": 1},
        "default": {},
        "doc": _TEXT,
    },
}

_VP = {
    "type": "object",
    "required": ["side", "for", "points"],
    "additionalProperties": False,
    "properties": {
        "side": _ID,
        "for": {"enum": list(VP_TERMS)},
        "points": {"type": "integer", "minimum": -100, "maximum": 100},
        "feature": _ID,
        "seed_quote": _QUOTE,
    },
}

_RULE = {"type": "object"}

TABLE: dict[str, Any] = {
    "type": "object",
    "required": ["width_in", "height_in", "spacing_in", "features"],
    "additionalProperties": False,
    "properties": {
        "width_in": {"type": "number", "exclusiveMinimum": 0, "maximum": 120},
        "height_in": {"type": "number", "exclusiveMinimum": 0, "maximum": 120},
        "spacing_in": {"type": "number", "minimum": 0.5, "maximum": 12},
        "wall_cover_reach_in": {"type": ["number", "null"], "minimum": 0, "maximum": 120},
        "features": {"type": "array", "items": _FEATURE, "maxItems": MAX_FEATURES},
    },
}
"""A table of the scenario's own (the ``table`` block written out)."""

TABLE_REF: dict[str, Any] = {
    "type": "object",
    "required": ["ref"],
    "additionalProperties": False,
    "properties": {"ref": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$", "maxLength": 32}},
}
"""A shared table (:mod:`fof_env.core.tables`) by its id."""

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Force on Force scenario",
    "type": "object",
    "required": ["format", "id", "name", "ruleset", "provenance", "table", "sides", "units", "deployment", "turns",
                 "initiative"],
    "additionalProperties": False,
    "properties": {
        "format": {"const": FORMAT},
        "id": _ID,
        "name": _TEXT,
        "ruleset": {"const": "force_on_force"},
        "provenance": {"type": "string", "minLength": 1},
        "source": _TEXT,
        "design_notes": {"type": "array", "items": _TEXT},
        "table": {"if": {"type": "object", "required": ["ref"]}, "then": TABLE_REF, "else": TABLE},
        "sides": {"type": "array", "items": _SIDE, "minItems": 2, "maxItems": 2},
        "options": {"type": "object", "additionalProperties": _OPTION},
        "units": {"type": "array", "items": _UNIT, "minItems": 2, "maxItems": MAX_UNITS},
        "attachments": {"type": "array", "items": _ATTACHMENT, "maxItems": 4},
        "deployment": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["side", "step"],
                "additionalProperties": False,
                "properties": {"side": _ID, "step": {"enum": ["deploy", "hide", "attach"]}},
            },
        },
        "turns": {"type": "integer", "minimum": 1, "maximum": 20},
        "initiative": {
            "type": "object",
            "required": ["turn_1"],
            "additionalProperties": False,
            "properties": {"turn_1": _ID},
        },
        "fog_of_war": {
            "type": "object",
            "required": ["table"],
            "additionalProperties": False,
            "properties": {"table": {"enum": list(FOW_TABLES)}, "regular": _ID, "irregular": _ID},
        },
        "victory": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"vp": {"type": "array", "items": _VP}},
        },
        "rules": {
            "type": "object",
            "additionalProperties": False,
            "properties": {name: _RULE for name in RULE_MODULES},
        },
    },
}
