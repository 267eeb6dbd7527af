"""Strike Force One (SPI 1975): rules 1.0-6.0 and optional rules 7.0-9.0.

Source: ``../shared/seeds/001_8616da5a6ffeaaf0.txt``. The map and Combat Results
Table are reconstructions shipped as data (``data/``); see ``rulings.md``. The game
and state classes are imported on first use, so registering the ruleset
(:mod:`fof_env.strike_force_one.ruleset`) imports no engine.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "StrikeForceOneGame": "fof_env.strike_force_one.game",
    "StrikeForceOneState": "fof_env.strike_force_one.state",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    try:
        module = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'fof_env.strike_force_one' has no attribute {name!r}") from None
    return getattr(importlib.import_module(module), name)
