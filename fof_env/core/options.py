"""Game options: reading ``key=value`` text (CLI flags, agent specs) into Python values, and the
declarative :class:`OptionSpec` every game checks its keyword options with."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from fof_env.core.errors import OptionError, UnknownOptionError


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


@dataclass(frozen=True)
class OptionSpec:
    """One game option: its name, default, Python type (``bool``, ``int`` or ``str``), allowed
    values (None: any value of the type) and a one-line description."""

    name: str
    default: Any
    kind: type
    choices: tuple[Any, ...] | None = None
    doc: str = ""

    def describe(self) -> str:
        """``"rules (full|quick)"``, ``"fog_of_war (bool)"``: the option as error messages list it."""
        allowed = "|".join(str(c) for c in self.choices) if self.choices else self.kind.__name__
        return f"{self.name} ({allowed})"

    def check(self, value: Any, owner: str) -> Any:
        """``value`` as a plain Python value of this option's type (NumPy scalars become ``bool``/``int``);
        :class:`OptionError` naming the option, what it takes and what it got otherwise."""
        if self.kind is bool:
            if isinstance(value, np.bool_):
                value = bool(value)
            if not isinstance(value, bool):
                raise OptionError(f"{owner}: {self.name} must be True or False, got {value!r}")
        elif self.kind is int:
            if isinstance(value, np.integer):
                value = int(value)
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"{owner}: {self.name} must be an integer, got {value!r}")
        elif not isinstance(value, self.kind):
            raise OptionError(f"{owner}: {self.name} must be a {self.kind.__name__}, got {value!r}")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise OptionError(f"{owner}: {self.name} must be one of {allowed}, got {value!r}")
        return value


def check_options(owner: str, specs: Sequence[OptionSpec], given: dict[str, Any]) -> dict[str, Any]:
    """Every option of ``specs`` (in their order) from ``given`` or its default, each checked
    by :meth:`OptionSpec.check`. Names not in ``specs`` raise :class:`UnknownOptionError`
    (also a ``TypeError``, worded like Python's)."""
    unknown = sorted(set(given) - {s.name for s in specs})
    if unknown:
        raise UnknownOptionError(owner, unknown, ", ".join(s.describe() for s in specs) or "none")
    return {s.name: s.check(given.get(s.name, s.default), owner) for s in specs}
