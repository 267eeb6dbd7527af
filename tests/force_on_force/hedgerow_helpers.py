"""Positions of "Hedgerow Hamlet" with a stacked WWII Fog of War deck, for the card reserve and Asset Card
tests (rulings R70, R71): a card is drawn as an unmodified 1 on a reaction test draws it; point names
``"x05y11"`` are read as coordinates, so expected masks are computed from the names, not by the engine."""

from __future__ import annotations

import copy
import json
import math
import random
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

import fof_env
from fof_env import ScriptedDice
from fof_env.core.errors import ScenarioError
from fof_env.force_on_force.constants import AUTO, ST_SELECT
from fof_env.force_on_force.rules.wwii_fog import FogCardPlayed, card_keys, full_deck

SCENARIO = Path(fof_env.__file__).parent / "force_on_force" / "scenarios" / "hedgerow_hamlet.json"


@cache
def game():
    return fof_env.make_game("wwii_hedgerow_hamlet")


def scenario_data() -> dict:
    return json.loads(SCENARIO.read_text(encoding="utf-8"))


def deck_with(*top: str) -> list[str]:
    keys = card_keys()
    rest = [keys[c] for c in full_deck()]
    for k in top:
        rest.remove(k)
    return [*top, *rest]


def state(*top: str, units: dict, initiative: str = "us", rolls=(), g=None):
    """An activation position, turn 1, the deck's top cards ``top``."""
    pos = {"turn": 1, "initiative": initiative, "units": units, "fog_cards": {"deck": deck_with(*top)}}
    return (g or game()).state_from_position(pos, dice=ScriptedDice(list(rolls)))


def draw(s, side: str) -> None:
    """``side`` draws the top card, as an unmodified 1 on its reaction test makes it (between activations)."""
    s._fog_of_war(s.SIDES.index(side))
    s.kind, s.step = AUTO, ST_SELECT
    s._legal_cache = s._mask_cache = None
    s._run()


def played(s) -> list[tuple[str, str, str]]:
    return [(e.side, e.card, e.target) for e in s.events if isinstance(e, FogCardPlayed)]


def unit(s, name: str) -> int:
    return s.UNIT_NAMES.index(name)


def xy(name: str) -> tuple[int, int]:
    """``"x05y11"`` -> (5, 11): coordinates read from the point's name, not from the engine's table."""
    return int(name[1:3]), int(name[4:6])


def all_points() -> list[str]:
    return [f"x{x:02d}y{y:02d}" for y in range(1, 36, 2) for x in range(1, 36, 2)]


def dist(a: str, b: str) -> float:
    (ax, ay), (bx, by) = xy(a), xy(b)
    return math.hypot(ax - bx, ay - by)


def in_woods(p: str) -> bool:
    """Inside a woods rectangle of the scenario file (rects lie on even inches, points on odd ones)."""
    x, y = xy(p)
    return any(f["kind"] == "woods" and f["rect"][0] < x < f["rect"][2] and f["rect"][1] < y < f["rect"][3]
               for f in scenario_data()["table"]["features"])  # fmt: skip


def play_random(seed: int, each: Callable | None = None):
    """A whole random game of dice seed ``seed`` (actions from ``random.Random(seed)``): every decision has
    a legal action, and ``each(state)`` runs before each action. Returns the final state."""
    s = game().new_initial_state(seed)
    rng = random.Random(seed)
    while not s.is_terminal:
        legal = s.legal_actions()
        assert legal
        if each is not None:
            each(s)
        s.apply(rng.choice(legal))
    return s


def refused(data: dict, unit_id: str, change: Callable, match: str) -> None:
    """``change(scenario, unit)`` applied to a copy of ``data`` (the unit ``unit_id``) is refused with one
    ScenarioError line matching ``match``."""
    from fof_env.force_on_force.scenario import scenario_from_dict

    d = copy.deepcopy(data)
    change(d, next(u for u in d["units"] if u["id"] == unit_id))
    with pytest.raises(ScenarioError, match=match) as info:
        scenario_from_dict(d, "hh.json")
    assert "\n" not in str(info.value)
