"""Why a Force on Force game ended (its Outcome's termination), from the scenario's three endings."""

from __future__ import annotations

from .helpers import make, script, unit

SEED = "000_294bccfd88f0ebda.txt"
PILOT = "x21y17"


def _game(units, pilot, **kw):
    kw.setdefault("initiative", "usmc")
    return make(units, pilot=pilot, rules="quick", **kw)


def _plain(at, n=2):
    return unit(at, n, support=[])


def test_an_air_strike_called_in_ends_the_scenario():
    """000_294bccfd88f0ebda.txt: "He makes a TQ check. If he is successful, the scenario immediately ends
    and victory points are tallied." """
    s = _game({"tal.1": _plain("x33y05"), "usmc.A": _plain("x05y05"), "usmc.B": _plain("x05y11")},
              {"with": "usmc.A"})  # fmt: skip
    s.apply("pass")
    script(s, [8])  # turn 2 initiative: 0D6 v 1D8
    s.apply("pass")
    script(s, [4])  # the pilot's TQ check on a D8 passes
    s.apply("yes")
    assert s.is_terminal and s.outcome().termination == "air strike"
    assert s.outcome().winner == 1 and s.outcome().returns == (-1.0, 1.0)  # 3 VP for the contact, 0 for the Taliban


def test_the_pilot_on_the_table_at_the_end_of_turn_8_is_an_automatic_victory():
    """000_294bccfd88f0ebda.txt: "Pilot still on table at end of Turn 8: VICTORY!" """
    s = _game({"tal.1": _plain("x33y05"), "usmc.A": _plain("x05y05")}, {"with": "usmc.A"}, turn=8)
    s.apply("pass")
    script(s, [])
    s.apply("pass")
    assert s.is_terminal and s.outcome().termination == "auto victory" and s.outcome().winner == 0


def test_otherwise_the_last_turn_ends_it():
    """000_294bccfd88f0ebda.txt: "Duration of Game: 9 Turns" """
    s = _game({"tal.1": _plain("x33y05"), "usmc.A": _plain("x05y05"), "usmc.B": _plain("x05y11")},
              {"exited_turn": 5, "contact": True}, turn=8)  # fmt: skip
    s.apply("pass")
    script(s, [1])  # turn 9 initiative
    for _ in range(4):
        s.apply("pass")
    assert s.is_terminal and s.turn == 9 and s.outcome().termination == "turn limit" and s.outcome().winner == 1
