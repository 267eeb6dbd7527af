"""The event log: entries logged as (class, args) read back as the same events as built ones."""

import pytest

from fof_env.core.events import DiceRolled, EventLog


def test_pending_entries_read_as_the_events_they_describe():
    log = EventLog([DiceRolled(6, 1, "a")])
    log.add(DiceRolled, (6, 2, "b"))
    log.append(DiceRolled(10, 3, "c"))
    want = [DiceRolled(6, 1, "a"), DiceRolled(6, 2, "b"), DiceRolled(10, 3, "c")]
    assert len(log) == 3
    assert list(log) == want and log == want
    assert log[1] == want[1] and log[-1] == want[2] and log[1:] == want[1:] and log[5:] == []
    assert log[1] is log[1]  # built once, then kept
    with pytest.raises(IndexError):
        log[3]
    assert [e.to_dict() for e in log][1] == {"kind": "dice_rolled", "sides": 6, "value": 2, "purpose": "b"}


def test_a_copy_is_independent():
    log = EventLog()
    log.add(DiceRolled, (6, 4, "x"))
    other = log.copy()
    other.add(DiceRolled, (6, 5, "y"))
    assert len(log) == 1 and len(other) == 2
    assert other[0] == log[0] == DiceRolled(6, 4, "x")


def test_a_copy_shares_its_entries_until_either_side_writes():
    log = EventLog([DiceRolled(6, 1, "a")])
    other = log.copy()
    log.append(DiceRolled(6, 2, "b"))
    other.add(DiceRolled, (6, 3, "c"))
    assert list(log) == [DiceRolled(6, 1, "a"), DiceRolled(6, 2, "b")]
    assert list(other) == [DiceRolled(6, 1, "a"), DiceRolled(6, 3, "c")]


def test_a_discarding_log_keeps_nothing():
    from fof_env.core.events import DiscardedEvents

    log = DiscardedEvents()
    log.add(DiscardedEvents, ())
    log.append(DiscardedEvents())
    assert len(log) == 0 and list(log) == [] and isinstance(log.copy(), DiscardedEvents)
