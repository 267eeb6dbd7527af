"""The Lost & Found position format refuses what it cannot mean, with one line, in milliseconds.

Each case was found by an outside review (issue 9): strings read as booleans, booleans read
as counts, names that silently meant nothing, figure counts that took the observation out
of its bounds, Hidden units the rules never allow, tables that allocated gigabytes.
"""

from __future__ import annotations

import copy
import json
import time

import pytest

from fof_env.core.errors import PositionError
from fof_env.core.game import State
from tests.force_on_force.helpers import game, open_table, position, unit, woods

WEST, EAST = "x05y17", "x31y17"


def refused(pos: dict, **options) -> str:
    with pytest.raises(PositionError) as exc:
        game(**options).state_from_position(pos)
    text = str(exc.value)
    assert text and "\n" not in text
    return text


def two_units(**usmc) -> dict:
    figures = usmc.pop("figures", None)
    spec = unit(WEST, **usmc)
    if figures is not None:
        spec["figures"] = figures
    return position({"usmc.A": spec, "tal.1": unit(EAST)})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"must_fire_first": "no"}, "must_fire_first must be true or false, got 'no'"),
        ({"must_fire_first": 1}, "must_fire_first must be true or false, got 1"),
        ({"turn": True}, "turn must be an integer 1..9, got True"),
        ({"seed": True}, "position['seed'] must be None or an integer 0..2**64-1, got True"),
        ({"seed": -3}, "position['seed'] must be None or an integer 0..2**64-1, got -3"),
        ({"leader": "usmc.Z"}, "leader must be null or a USMC unit listed in 'units'"),
        ({"leader": 5}, "leader must be null or a USMC unit listed in 'units'"),
        ({"leader": "usmc.B"}, "leader must be null or a USMC unit listed in 'units'"),
        ({"leader": "tal.1"}, "leader must be null or a USMC unit listed in 'units'"),
        ({"amped_up": "usmc"}, "amped_up must be a list of names from ('taliban', 'usmc')"),
        ({"amped_up": [["usmc"]]}, "amped_up must be a list of names from ('taliban', 'usmc')"),
        ({"initiative": ["usmc"]}, "initiative must be one of ('taliban', 'usmc')"),
        ({"pilot": {"exited_turn": "abc"}}, "pilot.exited_turn must be an integer 0..1, got 'abc'"),
        ({"pilot": {"exited_turn": True}}, "pilot.exited_turn must be an integer 0..1, got True"),
        ({"pilot": {"at": WEST, "contact": "yes"}}, "pilot.contact must be true or false, got 'yes'"),
        ({"pilot": {"exited_turn": 1, "with": "usmc.A"}}, "pilot.with: the pilot has left the table"),
    ],
)
def test_position_fields_of_the_wrong_type_or_meaning_are_refused(change, message):
    assert message in refused({**two_units(), **change})


@pytest.mark.parametrize(
    ("usmc", "message"),
    [
        ({"fires": True}, "unit usmc.A.fires must be an integer 0..5, got True"),
        ({"fires": 6}, "unit usmc.A.fires must be an integer 0..5, got 6"),
        ({"reaction_moves": 2}, "unit usmc.A.reaction_moves must be an integer 0..1, got 2"),
        ({"support": 5}, "unit usmc.A.support must be a list of names from ('light', 'medium', 'heavy'), got 5"),
        ({"support": ["light"] * 13}, "unit usmc.A.support: 13 weapons for at most 12 figures"),
        ({"supply": []}, "unit usmc.A.supply must be one of ['high', 'low', 'normal', 'poor'], got []"),
        ({"tq": True}, "unit usmc.A.tq must be an integer 4..12, got True"),
        ({"moved": ["rapid"]}, "unit usmc.A.moved must be one of ('none', 'tactical', 'rapid')"),
        ({"status": "pinned"}, "unit usmc.A.status must be a list of names from"),
        ({"status": [["pinned"]]}, "unit usmc.A.status must be a list of names from"),
        ({"status": ["hidden"]}, "unit usmc.A: only Taliban units hide"),
        ({"ok": 13}, "unit usmc.A.figures.ok must be an integer 0..12, got 13"),
        ({"ok": 8, "down": 5}, "unit usmc.A.figures: 13 figures in all; a unit holds at most 12"),
        ({"ok": True}, "unit usmc.A.figures.ok must be an integer 0..12, got True"),
        ({"figures": {"ok": 2, "wounded": 1}}, "unit usmc.A.figures: a dict with keys from"),
    ],
)
def test_unit_fields_of_the_wrong_type_or_size_are_refused(usmc, message):
    assert message in refused(two_units(**usmc))


def test_a_hidden_taliban_unit_must_stand_in_woods():
    """000: "any of his units starting in the woods are Hidden"; "They remain Hidden so long as they do
    not move or fire": a Hidden unit in the open cannot arise."""
    in_the_open = position({"usmc.A": unit(WEST), "tal.1": unit(EAST, status=["hidden"])})
    assert "unit tal.1 is hidden but not in woods" in refused(in_the_open)
    table = {**open_table(), "features": [woods(28, 14, 34, 20)]}
    in_the_woods = position({"usmc.A": unit(WEST), "tal.1": unit(EAST, status=["hidden"])}, table=table)
    assert game().state_from_position(in_the_woods).hidden[0] == 1


def test_a_unit_outside_the_games_order_of_battle_is_refused():
    """rulings R10: ``taliban_teams=3`` plays without Team Four, so no position may field it."""
    pos = position({"usmc.A": unit(WEST), "tal.4": unit(EAST)})
    assert "unit tal.4 is not in this game's order of battle" in refused(pos, taliban_teams=3)


@pytest.mark.parametrize(
    "table",
    [
        {"table": {"width_in": 36, "height_in": 36, "spacing_in": 0.3}, "features": []},
        {"table": {"width_in": 40, "height_in": 40, "spacing_in": 2}, "features": []},
        {"table": {"width_in": True, "height_in": 36, "spacing_in": 2}, "features": []},
        {"table": {"width_in": 36, "height_in": 36, "spacing_in": 2}},
    ],
)
def test_a_custom_table_keeps_the_scenarios_grid_and_is_refused_at_once(table):
    """A 0.3" grid once allocated 5.8 GB; a 40" table gave legal actions beyond num_actions."""
    start = time.perf_counter()
    text = refused(position({"usmc.A": unit(WEST)}, table=table))
    assert time.perf_counter() - start < 0.5
    assert "position['table']" in text


def test_a_custom_table_has_a_bounded_number_of_features():
    features = [woods(1, 1, 2, 2, fid=f"w{i}") for i in range(65)]
    text = refused(position({"usmc.A": unit(WEST)}, table={**open_table(), "features": features}))
    assert "at most 64 features" in text


def test_custom_tables_are_cached_with_a_bound():
    g = game()
    for i in range(20):
        table = {**open_table(), "features": [woods(1, 1, 2 + i / 10, 3, fid="w")]}
        g.state_from_position(position({"usmc.A": unit(WEST)}, table=table))
    assert len(g._tables) == 16


def test_state_from_position_copies_its_input():
    pos = two_units()
    state = game().state_from_position(pos)
    kept = copy.deepcopy(pos)
    record = state.to_json()
    pos["units"]["usmc.A"]["at"] = EAST
    pos["turn"] = 5
    assert state.to_json() == record and state._start == kept


def test_a_position_whose_set_up_rolls_dice_round_trips_through_its_record():
    """The review's repro: at ``stage: activation`` with no Taliban unit able to act, the set-up itself
    ends turn 1 and rolls initiative for turn 2. The record replays those rolls once, not twice."""
    pos = {"stage": "activation", "initiative": "usmc", "portion": "non_initiative",
           "units": {"usmc.A": {"at": "x13y07"}, "usmc.C": {"at": "x35y31"}}, "seed": 2}  # fmt: skip
    state = game().state_from_position(pos)
    assert state.turn == 2 and len(state._rolls) == 1 and state.decision.kind == "call_airstrike"
    state.apply("yes")
    again = State.from_json(state.to_json())
    assert again.is_terminal == state.is_terminal and again.digest() == state.digest()
    assert json.loads(again.to_json()) == json.loads(state.to_json())


def test_the_scenario_before_set_up_is_written_as_a_setup_position():
    """``to_position`` writes the start of the scenario as ``{"stage": "setup"}``; once a team has deployed
    the set-up is under way, which the format cannot describe (positions reach it by applying actions)."""
    state = game().new_initial_state(4)
    assert state.to_position() == {"stage": "setup"}
    state.apply(state.legal_actions()[0])
    with pytest.raises(PositionError, match="a deploy decision cannot be written as a position"):
        state.to_position()
