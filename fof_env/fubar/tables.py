"""FUBAR's tables, as data, from ``002_b69cb091b8d89aa2.txt`` (FUBAR 4th edition, one page).

Everything here is a transcription of the seed's tables plus the dice convention; the engine
(:mod:`fof_env.fubar.state`) reads them. Names are lower-case with underscores (``"assault_rifle"``,
``"medium_tank"``); scenario files use the same names.
"""

from __future__ import annotations

from dataclasses import dataclass

# ---------------------------------------------------------------- dice convention
# "Any unmodified roll of a Six is a success. Any unmodified roll of a One is a failure."


def succeeds(roll: int, modified: int, need: int) -> bool:
    """Whether a die showing ``roll`` (``modified`` after modifiers) meets ``need``: an unmodified 6
    always succeeds, an unmodified 1 always fails, otherwise ``modified >= need``."""
    if roll == 6:
        return True
    if roll == 1:
        return False
    return modified >= need


# ---------------------------------------------------------------- training
@dataclass(frozen=True)
class Training:
    """One row of "Unit Training/Experience": Activation, Expertise and Suppress limit."""

    name: str
    activation: int  # roll this or more to activate
    expertise: int  # roll this or more to hit
    suppress: int  # most Suppressed figures the unit can have


TRAINING: dict[str, Training] = {
    "green": Training("green", 5, 6, 1),
    "seasoned": Training("seasoned", 4, 5, 2),
    "veteran": Training("veteran", 3, 4, 3),
    "elite": Training("elite", 2, 4, 4),
}
TRAINING_NAMES = tuple(TRAINING)

# ---------------------------------------------------------------- weapons


@dataclass(frozen=True)
class Weapon:
    """A weapon of the "Small Arms" / "Support Weapons" tables.

    ``close_fp``/``close_in``: the Assault Rifle's "2FP at 12" or less". ``ignores_cover``:
    flamethrowers and tank cannon (note 2). ``indirect``: mortars (note 3). ``crew``: an
    infantry HMG needs two crew (note 1; a vehicle or bunker HMG needs one).
    """

    name: str
    range_in: float
    fp: int
    close_fp: int = 0
    close_in: float = 0.0
    ignores_cover: bool = False
    indirect: bool = False
    crew: int = 1
    support: bool = False

    def fire_points(self, distance: float) -> int:
        """Fire Points at ``distance`` inches (0 when out of range)."""
        if distance > self.range_in + 1e-9:
            return 0
        if self.close_fp and distance <= self.close_in + 1e-9:
            return self.close_fp
        return self.fp


WEAPONS: dict[str, Weapon] = {
    w.name: w
    for w in (
        Weapon("pistol", 8, 1),
        Weapon("infantry_rifle", 24, 1),
        Weapon("assault_rifle", 24, 1, close_fp=2, close_in=12),
        Weapon("sniper_rifle", 32, 2),
        Weapon("sub_machine_gun", 16, 3),
        Weapon("light_machine_gun", 32, 3),
        Weapon("combat_shotgun", 8, 3),
        Weapon("grenade_launcher", 16, 3),
        Weapon("heavy_machine_gun", 32, 4, crew=2, support=True),
        Weapon("flamethrower", 8, 4, ignores_cover=True, support=True),
        Weapon("grenades", 8, 3, support=True),
        Weapon("rpg", 24, 3, support=True),
        Weapon("light_anti_tank_gun", 32, 3, support=True),
        Weapon("light_mortar", 40, 3, indirect=True, support=True),
        Weapon("light_cannon", 32, 4, ignores_cover=True, support=True),
        Weapon("heavy_cannon", 48, 6, ignores_cover=True, support=True),
    )
}
WEAPON_NAMES = tuple(WEAPONS)
MAX_RANGE_IN = max(w.range_in for w in WEAPONS.values())
MAX_FP = max(max(w.fp, w.close_fp) for w in WEAPONS.values())

# ---------------------------------------------------------------- armour
# "Personal Armour ... Type Save": None has no save (0).
PERSONAL_ARMOUR: dict[str, int] = {"none": 0, "light": 6, "medium": 5, "heavy": 4, "power": 3, "battlesuit": 2}
ARMOUR_NAMES = tuple(PERSONAL_ARMOUR)

# "A Vehicle, and any troops inside or directly behind it, get an armour save"
VEHICLE_ARMOUR: dict[str, int] = {"none": 6, "light": 5, "medium": 4, "heavy": 3, "very_heavy": 2}
VEHICLE_ARMOUR_NAMES = tuple(VEHICLE_ARMOUR)

# Vehicle classes; "Medium & Heavy Tanks can move 6" through Moderate Cover but cannot fire if they do".
VEHICLE_CLASSES = ("car", "truck", "technical", "apc", "armoured_truck", "ifv", "light_tank", "medium_tank",
                   "heavy_tank")  # fmt: skip
TANKS_THROUGH_MODERATE = ("medium_tank", "heavy_tank")

# ---------------------------------------------------------------- cover
# "Cover Modifier": Soft +1, Moderate +2, Hard +3 (added to the firer's Expertise, never past 6+).
COVER_LEVELS: dict[str, int] = {"none": 0, "soft": 1, "moderate": 2, "hard": 3}
COVER_NAMES = tuple(COVER_LEVELS)
HARD = 3

# ---------------------------------------------------------------- movement (inches)
WALK_IN, RUN_IN, DUCK_WEAVE_IN, GONE_TO_GROUND_IN, ASSAULT_IN = 6.0, 12.0, 8.0, 3.0, 8.0
WITHDRAW_IN = 6.0  # "they Withdraw 6"/15cm"
VEHICLE_OPEN_IN, VEHICLE_COVER_IN = 12.0, 6.0
COHESION_IN = 3.0  # "within 3"/8cm of each other"; also "unengaged figures that are within 3"/8cm"
SAME_COVER_IN = 6.0  # "share the same area of cover if they are within 6""
COVER_EDGE_IN = 2.0  # "within 2"/5cm of the cover's edge"

# ---------------------------------------------------------------- vehicle damage
STUNNED, WEAPON_DESTROYED, IMMOBILISED, DESTROYED = 1, 2, 3, 4
EFFECT_NAMES = ("", "crew_stunned", "weapon_destroyed", "immobilised", "destroyed")
STUN_PENALTY = 2  # "Crew Stunned, -2 to next activation only."


def damage_effect(roll: int) -> int:
    """The damage table: 1-2 Crew Stunned, 3-4 Weapon Destroyed, 5 Immobilised, 6 Destroyed."""
    if roll <= 2:
        return STUNNED
    if roll <= 4:
        return WEAPON_DESTROYED
    return IMMOBILISED if roll == 5 else DESTROYED


FRONT, SIDE, REAR = 0, 1, 2
FACING_NAMES = ("front", "side", "rear")
# "If a vehicle is hit on the front roll 2 dice & choose the better result. On the side roll 1
# die. On the rear roll 2 dice & choose the worst result." (better/worse for the vehicle)
DAMAGE_DICE = {FRONT: 2, SIDE: 1, REAR: 2}
