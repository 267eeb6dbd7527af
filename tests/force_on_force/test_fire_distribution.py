"""The distribution of a fire's casualties and of the morale check that follows, played by the engine with
seeded dice, against the exact distribution worked out here from the rules (000 quick start: "Successes are
always based on rolling a '4' or better"; a defence success blocks an attack success of equal or lower score,
"like blocks like or lower"; the morale check "needs ... more successes than failures (ties count as
passing)"). The dice are seeded, so the outcome is fixed; it shows the engine's dice are fair through a whole
fire and its morale check (a chi-square test at the 0.1% level)."""

from collections import Counter
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb, factorial

from fof_env import SeededDice
from fof_env.core.events import DiceRolled
from fof_env.force_on_force import events as ev
from tests.chi_square import critical_value, statistic

from .helpers import events, fire, fires, make, pt, unit

FIRES = 3000
WEST, EAST = pt(5, 11), pt(19, 11)
FIGURES = 3  # the target's figures


def _fresh():
    """tal.2 (3 figures, quick rules) about to fire at usmc.A (3 figures) 14" away on an open table."""
    return make({"tal.2": unit(WEST, 3), "usmc.A": unit(EAST, FIGURES)}, rules="quick", initiative="taliban")


def _multisets(faces: dict, n: int):
    """Each multiset of ``n`` dice over the outcome classes ``faces`` (class -> probability), with its probability."""
    for combo in combinations_with_replacement(sorted(faces, key=str), n):
        counts = Counter(combo)
        ways = factorial(n)
        for c in counts.values():
            ways //= factorial(c)
        p = Fraction(ways)
        for face, c in counts.items():
            p *= faces[face] ** c
        yield combo, p


def _blocked(attack: list[int], defense: list[int]) -> int:
    """Most attack successes the defence successes can block, each blocking one of equal or lower score."""
    attack, j = sorted(attack), 0
    for d in sorted(defense):
        if j < len(attack) and attack[j] <= d:
            j += 1
    return j


def _exact(fp: int, attack_die: int, dfn: int, defense_die: int, morale_die: int) -> dict:
    """P(casualties, morale passed) of one fire: (0, None) and (FIGURES, None) have no morale check."""
    def faces(sides):  # "F" = any failure (1-3)
        return {"F": Fraction(3, sides), **{f: Fraction(1, sides) for f in range(4, sides + 1)}}

    hits: Counter = Counter()
    for a, pa in _multisets(faces(attack_die), fp):
        for d, pd in _multisets(faces(defense_die), dfn):
            ok_a = [x for x in a if x != "F"]
            ok_d = [x for x in d if x != "F"]
            hits[min(len(ok_a) - _blocked(ok_a, ok_d), FIGURES)] += pa * pd
    success = Fraction(morale_die - 3, morale_die)
    out = {}
    for h, p in hits.items():
        left = FIGURES - h
        if h == 0 or left == 0:
            out[(h, None)] = p
            continue
        passed = sum(comb(left, k) * success**k * (1 - success) ** (left - k) for k in range(left + 1) if k >= left - k)
        out[(h, True)] = p * passed
        out[(h, False)] = p * (1 - passed)
    return {k: float(v) for k, v in out.items()}


def test_casualties_and_morale_follow_the_rules_distribution():
    probe = _fresh()
    fire(probe, "tal.2", "usmc.A", [6] + [1] * 20)  # one hit: every kind of die is rolled once
    sides = {e.purpose.split(" of ")[0]: e.sides for e in events(probe, DiceRolled)}
    (res,) = fires(probe)
    assert (res.firepower, res.defense, sides["firepower"], sides["defense"], sides["morale"]) == (4, 4, 6, 8, 10)
    observed: Counter = Counter()
    for seed in range(FIRES):
        s = _fresh()
        s.dice = SeededDice(1_000_003 * seed + 17)
        fire(s, "tal.2", "usmc.A")
        (res,) = fires(s)
        morale = events(s, ev.MoraleChecked)
        observed[(res.casualties, morale[0].passed if morale else None)] += 1
    expected = _exact(4, 6, 4, 8, 10)
    chi2, dof = statistic(observed, expected, FIRES)
    assert chi2 < critical_value(dof), (chi2, dof, sorted(observed.items(), key=str))
