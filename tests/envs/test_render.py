"""Text and RGB renderings, through the environments and directly."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import fof_env
from fof_env.envs.aec_env import WargameAECEnv
from fof_env.envs.gym_env import WargameEnv
from fof_env.force_on_force.render import render_rgb as laf_render_rgb
from fof_env.strike_force_one.render import render_rgb, render_text
from tests.envs.conftest import GAME, LAF

HEDGEROW = "wwii_hedgerow_hamlet"


def test_ansi_shows_every_hex_and_the_units():
    env = WargameEnv(GAME, side="soviet", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str)
    for name in env.game_state.sc.grid.names:
        assert name in text
    board = text.split("key:")[0]
    assert board.count("sA") == 1 and board.count("uD") == 1
    assert "select_unit" in text


def test_ansi_marks_the_decision():
    game = fof_env.make_game(GAME)
    state = game.new_initial_state(0)
    state.apply("sov.A")
    text = render_text(state)
    assert "@" in text and "move_target" in text


def test_text_layout_even_columns_half_a_hex_lower():
    lines = render_text(fof_env.make_game(GAME).new_initial_state(0)).splitlines()
    row_of = {
        name: i for i, line in enumerate(lines) for name in line.split() if name.isdigit() and len(name) == 4
    }
    assert row_of["0201"] - row_of["0101"] == 2  # half of the 4-line row pitch
    assert row_of["0102"] - row_of["0101"] == 4
    assert row_of["0301"] == row_of["0101"]


def test_rgb_array():
    env = WargameEnv(GAME, side="us", render_mode="rgb_array")
    env.reset(seed=0)
    image = env.render()
    assert isinstance(image, np.ndarray) and image.dtype == np.uint8
    assert image.ndim == 3 and image.shape[2] == 3 and image.shape[0] > 200 and image.shape[1] > 200
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 20  # a picture, not a blank canvas
    # unit counters are drawn: the Soviet red appears
    assert ((image[:, :, 0] > 150) & (image[:, :, 1] < 80) & (image[:, :, 2] < 80)).sum() > 100


def test_rgb_direct_size():
    state = fof_env.make_game(GAME).new_initial_state(0)
    small = render_rgb(state, hex_radius=18)
    large = render_rgb(state, hex_radius=36)
    assert small.shape[0] < large.shape[0] and small.shape[2] == 3


# ------------------------------------------------------------------ Lost & Found
def test_lost_and_found_ansi_is_the_state_text():
    env = gym.make("fof_env/LostAndFound-v0", side="usmc", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    state = env.unwrapped.game_state
    assert text == str(state)
    assert "pilot: x21y17" in text and "usmc.A" in text and state.decision.kind in text
    assert text.splitlines()[0].split()[:3] == ["01", "03", "05"]  # the table's x coordinates


def test_lost_and_found_rgb_array():
    env = WargameEnv(LAF, side="taliban", render_mode="rgb_array")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(8):  # deploy a few teams so there are counters on the table
        _, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if terminated:
            break
    image = env.render()
    assert isinstance(image, np.ndarray) and image.dtype == np.uint8
    assert image.ndim == 3 and image.shape[2] == 3 and image.shape[0] > 200 and image.shape[1] > 200
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 20  # a picture, not a blank canvas
    assert np.array_equal(image, laf_render_rgb(env.game_state))
    assert laf_render_rgb(env.game_state, scale=8).shape[0] < image.shape[0]


# ------------------------------------------------------------------ the umpire's picture and a player's
def _hedgerow_position() -> dict:
    """Hedgerow Hamlet, turn 1: each side holds a Fog of War card; the German Hunted! sniper is Hidden."""
    from fof_env.force_on_force.rules.wwii_fog import card_keys, full_deck

    deck = [card_keys()[c] for c in full_deck()]
    for card in ("excellent_position", "medic"):
        deck.remove(card)
    units = {"us.A": {"at": "x05y05"}, "ger.1": {"at": "x31y05"},
             "ger.Sniper": {"at": "x21y15", "status": ["hidden", "in_cover"]}}  # fmt: skip
    hands = {"us": ["excellent_position"], "ger": ["medic"]}
    return {"turn": 1, "initiative": "us", "units": units, "fog_cards": {"deck": deck, "hands": hands}}


def test_render_is_the_umpires_picture_and_render_player_is_that_players():
    """``render()`` shows everything, both hands and the Hidden sniper included (the umpire's picture);
    ``render(player=...)`` is that player's text view: its own hand, the size of the other, no Hidden enemy."""
    env = WargameEnv(HEDGEROW, side="us", render_mode="ansi")
    env.reset(seed=0, options={"position": _hedgerow_position()})
    umpire = env.render()
    assert "us Fog of War hand: excellent_position" in umpire and "ger Fog of War hand: medic" in umpire
    assert "ger.Sniper" in umpire
    us = env.render(player="us")
    assert us == env.game_state.view_text(0) == env.render(player=0)
    assert "us Fog of War hand: excellent_position" in us and "ger Fog of War hand: 1 card(s)" in us
    assert "medic" not in us and "ger.Sniper" not in us
    ger = env.render(player="ger")
    assert "ger Fog of War hand: medic" in ger and "us Fog of War hand: 1 card(s)" in ger
    assert "excellent_position" not in ger and "ger.Sniper" in ger


def test_the_aec_env_renders_a_players_picture_and_human_prints_it(capsys):
    e = WargameAECEnv(HEDGEROW, render_mode="human")
    e.reset(seed=0, options={"position": _hedgerow_position()})
    assert e.render(player="us") is None
    printed = capsys.readouterr().out
    assert printed.strip() == e.game_state.view_text(0).strip() and "medic" not in printed
    assert e.render() is None and "ger Fog of War hand: medic" in capsys.readouterr().out


def test_render_refuses_a_player_it_cannot_honour():
    env = WargameEnv(HEDGEROW, side="us", render_mode="rgb_array")
    env.reset(seed=0, options={"position": _hedgerow_position()})
    with pytest.raises(ValueError, match="rgb_array") as info:
        env.render(player="us")
    assert "\n" not in str(info.value)
    env = WargameEnv(HEDGEROW, side="us", render_mode="ansi")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="unknown side 'taliban'"):
        env.render(player="taliban")
