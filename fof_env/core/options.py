"""Reading ``key=value`` option text (CLI flags, agent specs) into Python values."""

from __future__ import annotations

from typing import Any


def parse_value(text: str) -> Any:
    """``"true"/"yes"/"on"`` -> True, ``"false"/"no"/"off"`` -> False, numbers -> int/float,
    anything else stays a string."""
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text.strip()
