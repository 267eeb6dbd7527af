"""FUBAR's events in words (:func:`fof_env.core.narration.describe_event`)."""

from __future__ import annotations

from typing import Any

from fof_env.core.narration import fmt


def _strike(d: dict[str, Any]) -> str:
    """One unit's fire or close-combat strike."""
    what = "FIRE" if d["kind"] == "fire_hits" else "CLOSE COMBAT"
    saves = f"saves {d['save']}+ {fmt(d['saves'])}" if d["save"] else "no save"
    late = " (the suppressed strike last)" if d.get("late") else ""
    return (
        f"  {what} {d.get('shooter') or d.get('unit')} -> {d['target']}: {len(d['dice'])} dice {fmt(d['dice'])} "
        f"need {d['need']}+: {d['hits']} hits; {saves}: {d['unsaved']} unsaved{late}"
    )


def _activation(d: dict[str, Any]) -> str:
    result = "succeeds" if d["success"] else "fails"
    return f"  {d['unit']} {d['purpose']}: die {d['die']} ({d['modified']} modified), needs {d['need']}+: {result}"


def _initiative(d: dict[str, Any]) -> str:
    winner = f"{d['winner']} has the initiative" if d["winner"] else "a tie: rolled again"
    return f"  initiative: dice {fmt(d['rolls'])}, totals {fmt(d['totals'])}: {winner}"


NARRATION = {
    "fire_hits": _strike,
    "close_combat": _strike,
    "hit_taken": lambda d: f"  {d['unit']} figure {d['figure']} "
    + ("becomes a casualty" if d["result"] == "casualty" else "is suppressed"),
    "activation_rolled": _activation,
    "initiative_rolled": _initiative,
    "vehicle_damaged": lambda d: f"  {d['unit']} hit ({d['facing']}): damage dice {fmt(d['rolls'])} -> "
    f"{d['effect'].replace('_', ' ')}",
}
