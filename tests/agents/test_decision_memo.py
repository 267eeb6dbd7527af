"""agents.decision_memo: values remembered for one decision only."""

from __future__ import annotations

import pytest

from agents.decision_memo import DecisionMemo


def counter():
    calls = []

    def compute():
        calls.append(1)
        return len(calls)

    return calls, compute


def test_inside_a_decision_a_value_is_computed_once_per_key():
    memo, (calls, compute) = DecisionMemo(), counter()
    with memo.deciding():
        assert memo.get(("threat", 3, 17), compute) == 1
        assert memo.get(("threat", 3, 17), compute) == 1
        assert memo.get(("threat", 3, 18), compute) == 2
    assert len(calls) == 2


def test_a_falsy_value_is_remembered_too():
    memo, calls = DecisionMemo(), []
    with memo.deciding():
        for _ in range(3):
            memo.get(("rescue",), lambda: calls.append(1) or -1)
            memo.get(("none",), lambda: calls.append(1))
    assert len(calls) == 2


def test_outside_a_decision_nothing_is_remembered():
    memo, (_, compute) = DecisionMemo(), counter()
    assert [memo.get(("k",), compute) for _ in range(3)] == [1, 2, 3]


def test_the_next_decision_starts_empty_even_after_an_error():
    memo, (_, compute) = DecisionMemo(), counter()
    with memo.deciding():
        memo.get(("k",), compute)
    with memo.deciding():
        assert memo.get(("k",), compute) == 2
    with pytest.raises(KeyError), memo.deciding():
        memo.get(("k",), compute)
        raise KeyError("the bot failed mid-decision")
    assert memo.get(("k",), compute) == 4
    with memo.deciding():
        assert memo.get(("k",), compute) == 5
