"""The FUBAR view (fof_env/fubar/view.py): valid protocol data, the same board for both sides, labels."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import numpy as np
import pytest

import fof_env
from fof_env.core.view import view

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "fof_env/app/schemas/protocol.schema.json").read_text())


@pytest.mark.parametrize("name", ["fubar_lost_and_found", "fubar_village_patrol"])
def test_views_are_valid_and_the_same_board_for_both_sides(name):
    validator = jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": "#/$defs/view"})
    s = fof_env.make_game(name).new_initial_state(2)
    rng = np.random.default_rng(2)
    for _ in range(80):
        if s.is_terminal:
            break
        views = [json.loads(json.dumps(view(s, p))) for p in (0, 1)]
        for v in views:
            validator.validate(v)
        assert views[0]["board"] == views[1]["board"] and views[0]["board"]["type"] == "table"
        owner = s.current_player
        assert "context" in views[owner]["decision"] and "context" not in views[1 - owner]["decision"]
        assert [e["action"] for e in views[owner]["legal"]] == s.legal_action_strings()
        legal = s.legal_actions()
        s.apply(int(legal[rng.integers(len(legal))]))


def test_labels_name_what_an_action_does():
    g = fof_env.make_game("fubar_lost_and_found")
    s = g.state_from_position({"stage": "activation", "initiative": "usmc", "units": {"usmc.A": {"at": "x05y17"}}},
                              dice=fof_env.ScriptedDice([5]))  # fmt: skip
    legal = {e["action"]: e for e in view(s, 1)["legal"]}
    assert legal["usmc.A"]["label"] == "Activate usmc.A" and legal["usmc.A"]["point"] == "x05y17"
    s.apply("usmc.A")
    labels = {e["action"]: e["label"] for e in view(s, 1)["legal"]}
    assert labels["walk"] == 'Walk 6" (fire at one point)' and labels["run"] == 'Run 12"'
