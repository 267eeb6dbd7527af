"""No peeking: nothing the USMC player sees depends on where a Hidden Taliban unit stands (R27, R28).

Seed 000_294bccfd88f0ebda.txt: "The Taliban player may declare that any of his units starting in the
woods are Hidden. They may not be fired upon until they are spotted." R27: "No observation of the USMC
player shows a hidden unit's place, strength or status." Two positions on the scenario map differ only
in where Hidden tal.2 stands in the south woods (and, for the second pair, how strong it is); every USMC
observation and every USMC legal mask must be equal, while the Taliban's own observation differs (so
these tests can fail).
"""

import numpy as np
import pytest

from fof_env.force_on_force import events as ev
from fof_env.force_on_force import observation as obs_layout

from .helpers import LAF, game, script, uid

SEED = "000_294bccfd88f0ebda.txt"
TALIBAN, USMC = 0, 1


def scenario_position(tal2: dict) -> dict:
    """Turn 2, USMC initiative, on the scenario map; usmc.C stands 6" from the south woods."""
    return {
        "stage": "activation",
        "turn": 2,
        "initiative": "usmc",
        "units": {
            "tal.1": {"at": "x19y09"},
            "tal.2": {"status": ["hidden"], **tal2},
            "tal.3": {"at": "x29y23"},
            "usmc.A": {"at": "x01y11"},
            "usmc.B": {"at": "x01y17"},
            "usmc.C": {"at": "x13y23"},
        },
        "pilot": {"at": "x21y17"},
    }


PAIRS = {
    "place": ({"at": "x21y25"}, {"at": "x23y27"}),
    "place_and_strength": ({"at": "x19y25"}, {"at": "x25y29", "figures": {"ok": 3, "light": 2}, "tq": 8}),
}


def twins(which: str):
    g = game()
    a, b = (g.state_from_position(scenario_position(t)) for t in PAIRS[which])
    assert a.hidden[uid("tal.2")] and b.hidden[uid("tal.2")]
    return a, b


def same_for_usmc(a, b) -> None:
    assert a.decision_kind == b.decision_kind and a.current_player == b.current_player
    assert np.array_equal(a.observation(USMC), b.observation(USMC))
    if a.current_player == USMC:
        assert np.array_equal(a.legal_mask(), b.legal_mask())


@pytest.mark.parametrize("which", sorted(PAIRS))
def test_usmc_observation_and_mask_do_not_depend_on_a_hidden_unit(which):
    """R27: the USMC observation and mask at the USMC select_unit decision are equal; the Taliban's
    observations are not (they know where their unit is)."""
    a, b = twins(which)
    assert a.decision_kind == "select_unit" and a.current_player == USMC
    same_for_usmc(a, b)
    assert not np.array_equal(a.observation(TALIBAN), b.observation(TALIBAN))


def test_hidden_enemy_slot_is_blank_but_for_the_hidden_flag():
    """R27 and the observation layout: "A hidden enemy unit is all zeros except "hidden"", and the
    board plane of known enemy units does not mark it."""
    a, _ = twins("place")
    o = a.observation(USMC)
    base = obs_layout.unit_row(LAF.LAYOUT, USMC, uid("tal.2"))
    row = o[base : base + obs_layout.UNIT_FEATURES]
    assert row[14] == 1.0 and np.count_nonzero(row) == 1
    n = 324
    board_at = obs_layout.piece(LAF.LAYOUT, "board")[0]
    enemy_plane = o[board_at + 5 * n : board_at + 6 * n]
    assert enemy_plane[a.pos[uid("tal.2")]] == 0.0 and enemy_plane[a.pos[uid("tal.1")]] == 1.0


@pytest.mark.parametrize("which", sorted(PAIRS))
def test_usmc_activation_reveals_nothing(which):
    """R27/R28 through a whole USMC activation: select usmc.C (6" from the woods), try to spot (a failing
    die), move next to the woods (the move mask must not skip the hidden unit's point), the Taliban
    let the move go, then the fire-after-move choice. Every USMC observation and mask stays equal."""
    a, b = twins(which)
    steps = [("usmc.C", None), ("spot", [3]), ("move", None), ("x17y25", None)]
    for action, dice in steps:
        for s in (a, b):
            if dice is not None:
                script(s, list(dice))
            s.apply(action)
        same_for_usmc(a, b)
    while a.decision_kind == "declare_interrupt":  # each Taliban unit is asked in turn; all pass
        assert a.decision.context["unit"] == b.decision.context["unit"]
        a.apply("pass")
        b.apply("pass")
        same_for_usmc(a, b)
    assert a.hidden[uid("tal.2")] and b.hidden[uid("tal.2")]
    assert a.table.name(a.pos[uid("usmc.C")]) == "x17y25"
    assert a.decision_kind in ("fire_target", "select_unit")
    same_for_usmc(a, b)
    assert not np.array_equal(a.observation(TALIBAN), b.observation(TALIBAN))


@pytest.mark.parametrize("which", sorted(PAIRS))
def test_spot_is_offered_the_same_whatever_is_hidden(which):
    """R28: ``spot`` is "available whether or not anything is hidden (so the mask reveals nothing)":
    the same USMC unit is offered the same actions with a Hidden unit near or far, and with none."""
    a, b = twins(which)
    nothing_hidden = scenario_position({})
    del nothing_hidden["units"]["tal.2"]
    c = game().state_from_position(nothing_hidden)
    for s in (a, b, c):
        s.apply("usmc.C")
    assert a.legal_action_strings() == b.legal_action_strings() == c.legal_action_strings()
    assert "spot" in a.legal_action_strings()


@pytest.mark.parametrize("hidden_at", ["x11y23", "x09y25"])
def test_pilot_flight_ignores_hidden_units(hidden_at):
    """000_294bccfd88f0ebda.txt: "the pilot will move to the nearest cover that takes him away from the
    nearest Taliban unit" (R31); R27: a Hidden unit is not known to the Marines, so it does not steer
    him. tal.1 (visible, 8" east) wipes out usmc.A; a Hidden tal.2 in the wood to the south (6.3" away,
    nearer than tal.1, or 8.9") changes nothing: he goes to x13y21, the nearest cover farther from
    tal.1."""
    from .helpers import make, table_with, unit, woods

    table = table_with(woods(14, 14, 16, 16, "copse"), woods(8, 20, 14, 26, "wood"))
    s = make(
        {"tal.1": unit("x21y17", 2, support=[]), "tal.2": unit(hidden_at, 2, support=[], status=["hidden"]),
         "usmc.A": unit("x13y17", 1, support=[])},
        rules="quick", initiative="taliban", table=table, pilot={"with": "usmc.A"},
    )  # fmt: skip
    s.apply("tal.1")
    s.apply("fire")
    s.apply("usmc.A")
    script(s, [6, 6, 1, 1])  # 2D6 v 2D8: one hit, usmc.A is wiped out
    s.apply("pass")
    assert s.hidden[uid("tal.2")] == 1 and s.pilot_unit == -1
    assert s.table.name(s.pilot_pos) == "x13y21"


def test_events_about_a_hidden_unit_are_hidden_from_the_usmc():
    """R27: events that name a hidden Taliban unit (a Fog of War mortar round on it, its morale) are
    kept from the USMC's narration while it stays hidden; its own side and revealed units are told."""
    s = game().state_from_position(scenario_position({"at": "x21y27"}))
    mortar = ev.FireResolved("mortar fire", "tal.2", 6, 3, (6,), (1,), 1)
    assert s.event_hidden_from(mortar, USMC)
    assert not s.event_hidden_from(mortar, TALIBAN)
    assert not s.event_hidden_from(ev.FireResolved("mortar fire", "tal.1", 6, 3, (6,), (1,), 1), USMC)
    assert not s.event_hidden_from(ev.Note("the pilot's air strike call fails"), USMC)
