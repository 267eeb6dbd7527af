"""Force on Force fire-combat arithmetic: pure functions, no state, no dice.

The engine (:mod:`fof_env.force_on_force.state`) gathers the facts of one attack
(figures, weapons, ranges, cover, flags) and calls these functions; the rules
tests call them through the engine on positions. Quotes are from the seeds
``000_294bccfd88f0ebda.txt`` (quick start) and ``003_b1b2d2a6d4b3bab2.txt``
(full infantry rules).
"""

from __future__ import annotations

SUCCESS = 4  # "Successes are always based on rolling a '4' or better."
FIREPOWER_CAP = 10  # 003: "No infantry unit may have a total Firepower greater than 10 dice."

# Support weapon classes and their dice (003: Light +1, Medium +2, Heavy +3).
NO_SUPPORT, LIGHT, MEDIUM, HEAVY = 0, 1, 2, 3
SUPPORT_NAMES = ("none", "light", "medium", "heavy")
SUPPORT_DICE = (0, 1, 2, 3)

# Targets a unit may engage when splitting fire (003 "Targets Engaged by Quality").
SPLIT_TARGETS = {6: 1, 8: 2, 10: 3, 12: 4}


def successes(rolls: list[int]) -> list[int]:
    """The rolls of 4 or better, highest first."""
    return sorted((r for r in rolls if r >= SUCCESS), reverse=True)


def blocked(attack: list[int], defense: list[int]) -> int:
    """How many successful attack dice the defence blocks, arranged as well as possible.

    "Like blocks like or lower" (000); "the defender may arrange his successful dice
    against the attacker's successful dice as he sees fit" (003). Each defence die
    blocks one attack die of equal or lower score; the count is maximised by giving
    the lowest defence dice the lowest attack dice they can still block.
    """
    att = sorted(a for a in attack if a >= SUCCESS)
    dfn = sorted(d for d in defense if d >= SUCCESS)
    count = 0
    i = 0
    for d in dfn:
        if i < len(att) and att[i] <= d:
            count += 1
            i += 1
    return count


def casualties(attack: list[int], defense: list[int]) -> int:
    """Unblocked successful attack dice: each is one casualty."""
    return sum(1 for a in attack if a >= SUCCESS) - blocked(attack, defense)


def morale_passed(rolls: list[int]) -> bool:
    """000: "all it needs to pass is to roll more successes than failures (ties count as passing)"."""
    good = sum(1 for r in rolls if r >= SUCCESS)
    return good >= len(rolls) - good


def support_dice(support: list[int], *, moved: bool, rapid: bool, full_rules: bool) -> int:
    """Bonus dice of the support weapons in use (``support`` holds classes LIGHT/MEDIUM/HEAVY).

    Full rules (003): a Medium weapon gives one die instead of two "during any turn in
    which it moved" and none after a Rapid move; a Heavy weapon loses two dice after a
    Tactical move and "may not fire at all" after a Rapid move (it then adds nothing).
    """
    total = 0
    for cls in support:
        dice = SUPPORT_DICE[cls]
        if full_rules and moved and (cls in (MEDIUM, HEAVY)):
            dice = 0 if rapid else 1
        total += dice
    return total


def firepower(
    figures: int,
    support: int,
    *,
    optimum: bool = False,
    bonuses: int = 0,
    penalties: int = 0,
    capped: bool = True,
) -> int:
    """Final firepower dice: ``figures + support + optimum + bonuses``, capped at 10, minus penalties.

    003: "Note that all negative penalties are applied to the 10D cap, regardless of
    the number of figures in the unit" (the 12-Taliban example: about 20D, capped to
    10D, then 9D with Poor Supplies). ``capped=False``: the quick start, which has no cap
    (rulings.md R22). Never below zero.
    """
    raw = figures + support + (1 if optimum else 0) + bonuses
    return max(0, (min(FIREPOWER_CAP, raw) if capped else raw) - penalties)


def split_firepower(portions: list[int], penalties: int = 0, *, capped: bool = True) -> list[int]:
    """Firepower dice of each portion of one fire, from each portion's dice before the cap and penalties.

    003: "No infantry unit may have a total Firepower greater than 10 dice" and "Note that all negative
    penalties are applied to the 10D cap": the unit's total, every portion's dice added up, is capped at
    10 (``capped=False``: the quick start's uncapped sum), then ``penalties`` come off it. What the total
    loses comes off the first portion, then off the next ones in order (rulings R24). For one portion
    this is :func:`firepower`'s ``max(0, min(10, dice) - penalties)``. Never below zero.
    """
    raw = sum(portions)
    total = max(0, (min(FIREPOWER_CAP, raw) if capped else raw) - penalties)
    cut = raw - total
    out = []
    for dice in portions:
        taken = min(dice, cut)
        out.append(dice - taken)
        cut -= taken
    return out


def defense(figures: int, incoming: int, *, armor: int = 0, cover: int = 0, penalties: int = 0) -> int:
    """Defence dice: ``min(figures, incoming) + armor + cover - penalties``, at least 1.

    003: "A unit's basic Defense is equal to the number of figures in the unit or the
    number of Firepower dice with which it is being attacked, whichever is less" and
    "a unit will always have at least one Defense die."
    """
    return max(1, min(figures, incoming) + armor + cover - penalties)
