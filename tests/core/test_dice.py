"""Dice: seeded reproducibility, cloning, scripted rolls."""

import pytest

from fof_env.core.dice import ScriptedDice, SeededDice, dice_from_json


def test_same_seed_same_rolls():
    a, b = SeededDice(3), SeededDice(3)
    assert [a.roll() for _ in range(50)] == [b.roll() for _ in range(50)]


def test_clone_continues_identically():
    a = SeededDice(9)
    a.roll()
    b = a.clone()
    assert [a.roll(10) for _ in range(20)] == [b.roll(10) for _ in range(20)]


def test_json_round_trip_continues_identically():
    a = SeededDice(4)
    a.roll()
    b = dice_from_json(a.to_json())
    assert [a.roll() for _ in range(20)] == [b.roll() for _ in range(20)]


def test_scripted_dice_replay_and_run_out():
    d = ScriptedDice([6, 1])
    assert (d.roll(), d.roll()) == (6, 1)
    with pytest.raises(RuntimeError, match="ran out"):
        d.roll()


def test_scripted_dice_reject_impossible_face():
    with pytest.raises(RuntimeError, match="d6"):
        ScriptedDice([7]).roll(6)


# ------------------------------------------------------------------ exact distributions
# Every face of a die of ``sides`` faces has probability exactly 1/sides. Seeded, so these are fixed
# outcomes, not flaky ones: the counts of 60,000 rolls per die must fit the uniform distribution
# (chi-square at the 0.1% level) and every face must be within 5 standard deviations of its share.
@pytest.mark.parametrize("sides", [2, 3, 6, 8, 10, 12, 20, 100])
def test_seeded_dice_are_fair(sides):
    from tests.chi_square import critical_value, statistic

    n = 60_000 if sides < 100 else 200_000
    dice = SeededDice(20240501 + sides)
    counts: dict[int, int] = {}
    for _ in range(n):
        face = dice.roll(sides)
        counts[face] = counts.get(face, 0) + 1
    assert set(counts) == set(range(1, sides + 1))
    chi2, dof = statistic(counts, {f: 1 / sides for f in range(1, sides + 1)}, n)
    assert dof == sides - 1 and chi2 < critical_value(dof), (chi2, dof)
    sd = (n * (1 / sides) * (1 - 1 / sides)) ** 0.5
    assert all(abs(c - n / sides) < 5 * sd for c in counts.values()), counts


def test_clones_and_records_continue_the_same_rolls_from_any_point():
    a = SeededDice(77)
    firsts = [a.roll(s) for s in (6, 10, 8, 12, 6, 100)]
    b = a.clone()
    c = dice_from_json(a.to_json())
    rest = [a.roll(6) for _ in range(30)]
    assert [b.roll(6) for _ in range(30)] == rest == [c.roll(6) for _ in range(30)]
    again = SeededDice(77)
    assert [again.roll(s) for s in (6, 10, 8, 12, 6, 100)] == firsts
