"""Force on Force's events in words (:func:`fof_env.core.narration.describe_event`)."""

from __future__ import annotations

from typing import Any

from fof_env.core.narration import fmt


def _card_name(key: str) -> str:
    """The name of the WWII Fog of War card ``key`` ("incoming" -> "Incoming!")."""
    from fof_env.force_on_force.rules.wwii_fog import card_specs

    return next((c.name for c in card_specs() if c.key == key), key.replace("_", " "))


def _card_drawn(d: dict[str, Any]) -> str:
    return f"  {d['side']} draws a Fog of War card: {_card_name(d['card'])}" + (" (held for later)" if d["held"] else "")


def _card_played(d: dict[str, Any]) -> str:
    return f"  {d['side']} plays {_card_name(d['card'])}" + (f": {d['target']}" if d["target"] else "")


def _reaction_test(d: dict[str, Any]) -> str:
    result = "passed" if d["passed"] else "failed"
    return f"  reaction test: {d['unit']} ({d['role'].replace('_', ' ')}) die {d['die']} -> {d['modified']}: {result}"


def _fire(d: dict[str, Any]) -> str:
    return (
        f"  FIRE {d['shooter']} -> {d['target']}: {d['firepower']} dice {fmt(d['attack'])} vs "
        f"{d['defense']} defense dice {fmt(d['defense_rolls'])}: {d['casualties']} casualties"
    )


def _fog_of_war(d: dict[str, Any]) -> str:
    unit = f" ({d['unit']})" if d["unit"] else ""
    return f"  FOG OF WAR {d['roll']}: {d['result'].replace('_', ' ')}{unit}"


NARRATION = {
    "fog_card_drawn": _card_drawn,
    "fog_card_played": _card_played,
    "reaction_test": _reaction_test,
    "fire_resolved": _fire,
    "morale_checked": lambda d: f"  {d['unit']} morale {fmt(d['rolls'])}: {'passed' if d['passed'] else 'failed, pinned'}",
    "fog_of_war": _fog_of_war,
}
