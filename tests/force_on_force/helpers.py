"""Small helpers shared by the Force on Force "Lost & Found" rules tests.

Positions are written in the documented position format
(:mod:`fof_env.force_on_force.position`). Most tests use :func:`open_table`: a
36" x 36" table with 2" point spacing and no terrain, so every distance is exact
(points are named ``"x05y11"`` = x 5", y 11"). Terrain for a test is added with
:func:`table_with` and the feature builders (:func:`wall`, :func:`woods`, ...).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import fof_env
from fof_env import ScriptedDice
from fof_env.force_on_force import constants
from fof_env.force_on_force import events as ev

SEED_QUICK = "000_294bccfd88f0ebda.txt"
SEED_FULL = "003_b1b2d2a6d4b3bab2.txt"
SEED_WWII = "004_fa8d850a9c124bb3.txt"
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"  # beside the checkout, when it is there


def seed_text(name: str) -> str | None:
    """The seed document ``name`` with its whitespace collapsed, or None where ``../shared/seeds`` is not
    beside the checkout (CI's clean clone may not have it; the rule checks themselves never need it)."""
    path = SEEDS / name
    return " ".join(path.read_text(encoding="utf-8").split()) if path.exists() else None


def seed_says(name: str, *words: str) -> None:
    """Each quote of ``words`` (its whitespace collapsed) is in the seed ``name``, where the seeds are here."""
    text = seed_text(name)
    if text is not None:
        for w in words:
            assert " ".join(w.split()) in text, w

# Decisions in which a reacting unit is asked something; "pass" declines all of them.
REACTION_KINDS = ("declare_interrupt", "overwatch_fire", "return_fire")


@cache
def game(**options: Any):
    """The "Lost & Found" game with ``options`` (cached: one per distinct set of options)."""
    return fof_env.make_game("lost_and_found", **options)


def pt(x: int, y: int) -> str:
    """The point name at (x, y) inches, e.g. ``pt(5, 11) == "x05y11"``."""
    return f"x{x:02d}y{y:02d}"


def table_with(*features: dict) -> dict:
    """A position "table": 36" x 36", 2" spacing, with ``features`` (scenario feature format)."""
    return {"table": {"width_in": 36, "height_in": 36, "spacing_in": 2}, "features": list(features)}


def open_table() -> dict:
    """A 36" x 36" table with 2" spacing and no terrain: distances are exact, nothing gives cover."""
    return table_with()


def wall(x0: float, y0: float, x1: float, y1: float, fid: str = "wall") -> dict:
    """A wall segment feature (Solid/intervening cover, does not block line of sight)."""
    return {"id": fid, "kind": "wall", "segment": [x0, y0, x1, y1]}


def area(kind: str, x0: float, y0: float, x1: float, y1: float, fid: str | None = None) -> dict:
    """An area feature (``kind`` in ``fof_env.core.tabletop.AREA_KINDS``); ``rect`` = [x0, y0, x1, y1]."""
    return {"id": fid or f"{kind}_{x0:g}_{y0:g}", "kind": kind, "rect": [x0, y0, x1, y1]}


def woods(x0: float, y0: float, x1: float, y1: float, fid: str = "woods") -> dict:
    return area("woods", x0, y0, x1, y1, fid)


def unit(
    at: str | None,
    ok: int | None = None,
    *,
    light: int = 0,
    down: int = 0,
    serious: int = 0,
    kia: int = 0,
    **kw: Any,
) -> dict:
    """A unit dict: ``at`` a point name (None: off the table), figure counts, other unit keys in ``kw``
    (tq, morale, armor, supply, support, moved, fires, reaction_moves, status). ``ok`` None: the
    scenario's figures."""  # fmt: skip
    spec: dict[str, Any] = {"at": at}
    figures = {"light": light, "down": down, "serious": serious, "kia": kia}
    if ok is not None or any(figures.values()):
        spec["figures"] = {"ok": ok or 0, **{k: v for k, v in figures.items() if v}}
    spec.update(kw)
    return spec


def position(
    units: dict[str, dict],
    *,
    table: dict | None = None,
    turn: int = 1,
    initiative: str = "usmc",
    portion: str = "initiative",
    pilot: dict | None = None,
    **kw: Any,
) -> dict:
    """An ``activation`` position on ``table`` (default :func:`open_table`); the pilot is off the
    table unless ``pilot`` says otherwise (so no air-strike decision, no contact)."""  # fmt: skip
    pos = {
        "stage": "activation",
        "turn": turn,
        "initiative": initiative,
        "portion": portion,
        "units": units,
        "pilot": pilot if pilot is not None else {"exited_turn": 1},
        "table": table if table is not None else open_table(),
    }
    pos.update(kw)
    return pos


def make(units: dict[str, dict], *, rules: str = "full", fog_of_war: bool = False, **kw: Any):
    """A state of :func:`position` under ``rules`` ("full" or "quick"), Fog of War off by default."""
    return game(rules=rules, fog_of_war=fog_of_war).state_from_position(position(units, **kw))


def script(state, rolls: list[int]) -> ScriptedDice:
    """Give ``state`` scripted dice and return them (``dice_used`` tells how many were rolled)."""
    state.dice = ScriptedDice(rolls)
    return state.dice


def dice_used(state) -> int:
    return state.dice._pos


def decline_reactions(state) -> None:
    """Answer "pass" to every interrupt / Overwatch / return-fire question now pending."""
    while not state.is_terminal and state.decision.kind in REACTION_KINDS:
        state.apply("pass")


def fire(state, shooter: str, target: str, rolls: list[int] | None = None) -> None:
    """Activate ``shooter``, fire at ``target`` (no split), nobody reacts; ``rolls`` scripted first."""
    if rolls is not None:
        script(state, rolls)
    state.apply(shooter)
    state.apply("fire")
    state.apply(target)
    if state.decision.kind == "split_target":
        state.apply("pass")
    decline_reactions(state)


def events(state, cls) -> list:
    return [e for e in state.events if isinstance(e, cls)]


def fires(state) -> list:
    """The FireResolved events so far."""
    return events(state, ev.FireResolved)


def figures(state, name: str) -> dict[str, int]:
    """The non-zero figure counts of unit ``name``, e.g. ``{"ok": 2, "down": 2}``."""
    f = state.figs[state.UNIT_NAMES.index(name)]
    return {n: f[i] for i, n in enumerate(constants.FIGURE_STATES) if f[i]}


def uid(name: str) -> int:
    return LAF.UNIT_NAMES.index(name)


def _lost_and_found_names() -> SimpleNamespace:
    """The engine's shared constants and "Lost & Found"'s layout (unit names, action indices ...) as
    one namespace, with its players ``TALIBAN`` (0) and ``USMC`` (1) and ``REINFORCEMENTS`` (tal.R)."""
    cls = game().state_class
    layout = {k: getattr(cls, k) for k in cls.LAYOUT.class_attributes()}
    shared = {k: v for k, v in vars(constants).items() if k.isupper()}
    return SimpleNamespace(**shared, **layout, TALIBAN=0, USMC=1, REINFORCEMENTS=layout["UNIT_NAMES"].index("tal.R"))


LAF = _lost_and_found_names()


def order(state) -> list[str]:
    """What happened, in order: 'move <unit>' and '<shooter>><target>' entries."""
    out = []
    for e in state.events:
        if isinstance(e, ev.UnitMoved):
            out.append(f"move {e.unit}")
        elif isinstance(e, ev.FireResolved):
            out.append(f"{e.shooter}>{e.target}")
    return out
