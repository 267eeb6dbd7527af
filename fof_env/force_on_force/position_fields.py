"""Readers of the position format's fields (:mod:`fof_env.force_on_force.position`), shared with the rule
modules that declare position keys of their own: each returns the value or raises PositionError naming the
field."""

from __future__ import annotations

from typing import Any

from fof_env.core.errors import PositionError


def point(setup, name: Any, where: str) -> int:
    """A point name of ``setup``'s table as its index (None: -1, off the table)."""
    if name is None:
        return -1
    try:
        return setup.table.index(name)
    except (ValueError, TypeError) as exc:
        raise PositionError(f"{where}: {exc}") from None


def count(value: Any, where: str, hi: int) -> int:
    """An integer 0..hi (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= hi:
        raise PositionError(f"{where} must be an integer 0..{hi}, got {value!r}")
    return value


def flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise PositionError(f"{where} must be true or false, got {value!r}")
    return value


def names(value: Any, allowed: tuple[str, ...], where: str) -> list[str]:
    """A list of names from ``allowed``."""
    if not isinstance(value, list) or not all(isinstance(v, str) and v in allowed for v in value):
        raise PositionError(f"{where} must be a list of names from {allowed}, got {value!r}")
    return value
