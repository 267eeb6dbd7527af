"""Dice sources. Every random number in a game comes from the state's own dice.

``SeededDice`` wraps a ``numpy.random.Generator`` (PCG64) and can be cloned and
serialised exactly. ``ScriptedDice`` returns predetermined rolls, for tests that
replay a worked example from the rules.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fof_env.core.errors import OptionError, PositionError

SEED_LIMIT = 2**64  # seeds are integers 0 .. 2**64 - 1


def check_seed(seed: object, where: str = "seed") -> int | None:
    """``seed`` as a plain ``int`` (NumPy integers accepted) or None; :class:`OptionError` naming
    ``where`` for anything else: negative, too large, a bool, a float, a string."""
    if seed is None:
        return None
    if isinstance(seed, np.integer):
        seed = int(seed)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise OptionError(f"{where} must be None or an integer 0..2**64-1, got {seed!r}")
    return seed


class SeededDice:
    """Reproducible dice: same seed, same sequence of rolls.

    A clone holds only the generator's state and builds its own generator on its
    first roll, so cloning a state for search costs a dict copy, not a new PCG64.
    """

    __slots__ = ("_rng", "_state")

    def __init__(self, seed: int | None = None, *, _rng: np.random.Generator | None = None):
        self._rng = _rng if _rng is not None else np.random.Generator(np.random.PCG64(seed))
        self._state: dict[str, Any] | None = None

    def _generator(self) -> np.random.Generator:
        if self._rng is None:
            bg = np.random.PCG64()
            bg.state = self._state
            self._rng = np.random.Generator(bg)
            self._state = None
        return self._rng

    def roll(self, sides: int = 6) -> int:
        """One die with ``sides`` faces, 1..sides."""
        return int((self._rng or self._generator()).integers(1, sides + 1))

    def _snapshot(self) -> dict[str, Any]:
        return self._state if self._rng is None else self._rng.bit_generator.state

    def clone(self) -> SeededDice:
        other = SeededDice.__new__(SeededDice)
        other._rng = None
        other._state = self._snapshot()  # never mutated: a fresh dict per snapshot
        return other

    def to_json(self) -> dict[str, Any]:
        return {"kind": "seeded", "state": self._snapshot()}

    def __repr__(self) -> str:
        return "SeededDice(...)"


class ScriptedDice:
    """Dice that return ``rolls`` in order; raises when the script runs out.

    >>> dice = ScriptedDice([6, 5])
    >>> dice.roll(), dice.roll()
    (6, 5)
    """

    __slots__ = ("rolls", "_pos")

    def __init__(self, rolls: list[int]):
        self.rolls = list(rolls)
        self._pos = 0

    def roll(self, sides: int = 6) -> int:
        if self._pos >= len(self.rolls):
            raise RuntimeError(f"ScriptedDice ran out after {len(self.rolls)} rolls")
        value = self.rolls[self._pos]
        if not 1 <= value <= sides:
            raise RuntimeError(f"scripted roll {value} is not a face of a d{sides}")
        self._pos += 1
        return value

    @property
    def remaining(self) -> list[int]:
        return self.rolls[self._pos :]

    def clone(self) -> ScriptedDice:
        return ScriptedDice(self.remaining)

    def to_json(self) -> dict[str, Any]:
        return {"kind": "scripted", "rolls": self.remaining}


Dice = SeededDice | ScriptedDice


def dice_from_json(data: dict[str, Any]) -> Dice:
    """Rebuild dice written by ``to_json``."""
    kind = data.get("kind")
    if kind == "seeded":
        bg = np.random.PCG64()
        try:
            bg.state = data["state"]
        except (KeyError, TypeError, ValueError) as exc:
            raise PositionError(f"bad seeded dice state: {exc}") from exc
        return SeededDice(_rng=np.random.Generator(bg))
    if kind == "scripted":
        return ScriptedDice(list(data["rolls"]))
    raise PositionError(f"unknown dice kind {kind!r}; expected 'seeded' or 'scripted'")
