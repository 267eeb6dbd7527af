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
