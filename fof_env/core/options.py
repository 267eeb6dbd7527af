"""Reading ``key=value`` option text (CLI flags, agent specs) into Python values."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fof_env.core.errors import OptionError


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


def parse_assignments(items: Iterable[str], context: str) -> dict[str, Any]:
    """``["a=1", "b-c=true"]`` -> ``{"a": 1, "b_c": True}`` (dashes in keys become underscores).

    Raises :class:`OptionError` (a ``ValueError``) prefixed with ``context`` for an
    item without ``=`` or with an empty key.
    """
    out: dict[str, Any] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise OptionError(f"{context}: expected key=value, got {item!r}")
        out[key.strip().replace("-", "_")] = parse_value(value)
    return out
