"""Strike Force One (SPI 1975): rules 1.0-6.0 and optional rules 7.0-9.0.

Source: ``../shared/seeds/001_8616da5a6ffeaaf0.txt``. The map and Combat Results
Table are reconstructions shipped as data (``data/``); see ``rulings.md``.
"""

from fof_env.strike_force_one.game import StrikeForceOneGame
from fof_env.strike_force_one.state import StrikeForceOneState

__all__ = ["StrikeForceOneGame", "StrikeForceOneState"]
