"""Dice sources. Every random number in a game comes from the state's own dice.

``SeededDice`` rolls with Python's Mersenne Twister (``random.Random``) seeded with the state's seed;
its whole state is two integers, the seed and the number of 32-bit words drawn so far, so it clones,
serialises and compares as those two numbers. ``ScriptedDice`` returns predetermined rolls, for tests
that replay a worked example from the rules. ``PcgDice`` is the NumPy (PCG64) generator of records
written before the dice moved to ``random.Random``: reading such a record still continues its game
with the dice it would have rolled.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

import numpy as np

from fof_env.core.errors import OptionError, PositionError

SEED_LIMIT = 2**64  # seeds are integers 0 .. 2**64 - 1
MAX_DRAWS = 10**8  # a record's dice state: far more rolls than any game makes (a bound, not a rule)
_ADVANCE_WORDS = 1 << 16  # words skipped at a time when a copy catches up with its position


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

    A die with ``sides`` faces takes ``k = (sides - 1).bit_length()`` bits of one 32-bit word of
    ``random.Random(seed)`` (``getrandbits(k)``) and draws again while the value is ``sides`` or more,
    so every face has probability exactly ``1 / sides`` (a d6 uses 3 bits and redraws 6 and 7).
    ``draws`` counts the words used. The generator itself is built on the first roll (from the seed,
    skipping ``draws`` words), so a new state or a clone costs no generator until it rolls.
    ``seed=None`` draws a seed from the operating system.
    """

    __slots__ = ("seed", "draws", "_bits")

    def __init__(self, seed: int | None = None, draws: int = 0):
        self.seed = secrets.randbits(64) if seed is None else seed
        self.draws = draws
        self._bits = None  # the generator's getrandbits, once built

    def _generator(self):
        rng = random.Random(self.seed)
        left = self.draws
        while left:
            step = min(left, _ADVANCE_WORDS)
            rng.getrandbits(32 * step)  # exactly ``step`` words: where this position stands
            left -= step
        self._bits = rng.getrandbits
        return self._bits

    def roll(self, sides: int = 6) -> int:
        """One die with ``sides`` faces, 1..sides (a d1 is 1 and draws nothing)."""
        bits = self._bits or self._generator()
        k = _BITS[sides] if sides < 129 else (sides - 1).bit_length()
        value = bits(k)
        drawn = 1
        while value >= sides:
            value = bits(k)
            drawn += 1
        self.draws += drawn
        return value + 1

    def clone(self) -> SeededDice:
        other = SeededDice.__new__(SeededDice)
        other.seed = self.seed
        other.draws = self.draws
        other._bits = None
        return other

    def to_json(self) -> dict[str, Any]:
        return {"kind": "seeded", "seed": self.seed, "draws": self.draws}

    def __repr__(self) -> str:
        return f"SeededDice(seed={self.seed}, draws={self.draws})"


_BITS = (0, 0) + tuple((s - 1).bit_length() for s in range(2, 129))  # bits per die of up to 128 faces


class PcgDice:
    """The dice of records written before ``SeededDice`` moved to ``random.Random``: NumPy's PCG64,
    restored from its state so that such a game goes on with the dice it would have rolled."""

    __slots__ = ("_rng",)

    def __init__(self, rng: np.random.Generator):
        self._rng = rng

    def roll(self, sides: int = 6) -> int:
        return int(self._rng.integers(1, sides + 1))

    def clone(self) -> PcgDice:
        bg = np.random.PCG64()
        bg.state = self._rng.bit_generator.state
        return PcgDice(np.random.Generator(bg))

    def to_json(self) -> dict[str, Any]:
        return {"kind": "seeded", "state": self._rng.bit_generator.state}

    def __repr__(self) -> str:
        return "PcgDice(...)"


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


Dice = SeededDice | ScriptedDice | PcgDice


def dice_from_json(data: dict[str, Any]) -> Dice:
    """Rebuild dice written by ``to_json``; :class:`PositionError` naming what is wrong otherwise."""
    kind = data.get("kind")
    if kind == "seeded" and "state" in data:  # a record written with the NumPy dice
        bg = np.random.PCG64()
        try:
            bg.state = data["state"]
        except (KeyError, TypeError, ValueError) as exc:
            raise PositionError(f"bad seeded dice state: {exc}") from exc
        return PcgDice(np.random.Generator(bg))
    if kind == "seeded":
        seed, draws = data.get("seed"), data.get("draws")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
            raise PositionError(f"bad seeded dice state: seed must be an integer 0..2**64-1, got {seed!r:.40}")
        if isinstance(draws, bool) or not isinstance(draws, int) or not 0 <= draws <= MAX_DRAWS:
            raise PositionError(f"bad seeded dice state: draws must be an integer 0..{MAX_DRAWS}, got {draws!r:.40}")
        return SeededDice(seed, draws)
    if kind == "scripted":
        return ScriptedDice(list(data["rolls"]))
    raise PositionError(f"unknown dice kind {kind!r}; expected 'seeded' or 'scripted'")
