"""Strike Force One's events in words (:func:`fof_env.core.narration.describe_event`)."""

from __future__ import annotations

from typing import Any

# Plain-words results of the Combat Results Table.
RESULT_WORDS = {
    "DE": "Defender Eliminated",
    "DR": "Defender Retreats One Hex",
    "AR": "Attacker Retreats One Hex",
    "AE": "Attacker Eliminated",
}


def _attack(d: dict[str, Any]) -> str:
    result = RESULT_WORDS.get(d["result"], d["result"])
    return (
        f"  ATTACK on {d['target']} ({', '.join(d['defenders'])}) by {', '.join(d['attackers'])}: "
        f"differential {d['differential']:+d}, column {d['column']}, die {d['roll']} -> "
        f"{d['result']} ({result})"
    )


def _ended(d: dict[str, Any]) -> str:
    rest = ", ".join(f"{k}={v}" for k, v in d.items() if k not in ("kind", "winner"))
    return f"=== Game over: {d['winner']} wins ({rest}) ==="


NARRATION = {
    "phase_started": lambda d: f"=== Turn {d['turn']}: {d['phase'].replace('_', ' ')} ===",
    "attack_resolved": _attack,
    "unit_retreated": lambda d: f"  {d['unit']} retreats {d['origin']} -> {d['destination']}",
    "unit_eliminated": lambda d: f"  {d['unit']} eliminated in {d['hex']} ({d['reason']})",
    "unit_advanced": lambda d: f"  {d['unit']} advances {d['origin']} -> {d['destination']}",
    "game_ended": _ended,
}
