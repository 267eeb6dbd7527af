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


def test_a_record_written_with_the_numpy_dice_goes_on_with_them():
    """Records from before the dice moved to ``random.Random`` keep NumPy's PCG64 state: read back, the game
    continues with the rolls it would have had, and the dice write the same state again."""
    import numpy as np

    from fof_env.core.dice import PcgDice

    old = np.random.Generator(np.random.PCG64(5))
    old.integers(1, 7)
    state = old.bit_generator.state
    dice = dice_from_json({"kind": "seeded", "state": state})
    assert isinstance(dice, PcgDice) and dice.to_json() == {"kind": "seeded", "state": state}
    assert [dice.roll(6) for _ in range(10)] == [int(old.integers(1, 7)) for _ in range(10)]


@pytest.mark.parametrize(
    "bad",
    [
        {"kind": "seeded", "seed": -1, "draws": 0},
        {"kind": "seeded", "seed": 2**64, "draws": 0},
        {"kind": "seeded", "seed": 3, "draws": -2},
        {"kind": "seeded", "seed": 3, "draws": 10**12},  # would take hours to reach: refused at once
        {"kind": "seeded", "seed": "3", "draws": 0},
        {"kind": "seeded", "seed": 3, "draws": True},
        {"kind": "seeded", "state": {"bit_generator": "PCG64", "state": "nonsense"}},
        {"kind": "loaded"},
    ],
)
def test_bad_dice_states_are_refused_with_one_line(bad):
    from fof_env.core.errors import PositionError

    with pytest.raises(PositionError):
        dice_from_json(bad)


def test_the_dice_state_is_the_seed_and_the_words_drawn():
    dice = SeededDice(9)
    assert dice.to_json() == {"kind": "seeded", "seed": 9, "draws": 0}
    dice.roll(8)  # 3 bits of one word, never redrawn: a d8 has 8 faces
    assert dice.to_json()["draws"] == 1
    assert SeededDice().seed != SeededDice().seed  # unseeded: a seed from the operating system
