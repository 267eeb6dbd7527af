"""Value nets as data (agents/value_net.py) and their training on game results (training/value_net.py):
files that round-trip and refuse every malformed variant in one line, the held-out report's arithmetic,
and the calibration of the shipped nets: on positions from games none of them was trained on, each
predicts the game result better than the constant predictor."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import fof_env
from agents.policy_io import ModelFileError
from agents.value_net import VALUES_DIR, ValueNet, check_fits, load_value_net
from training.value_net import Positions, auc, collect, fit, held_out_report, write_value_net

SHIPPED = sorted(VALUES_DIR.glob("*.safetensors"))


def _net(inputs=5, seed=0) -> ValueNet:
    rng = np.random.default_rng(seed)
    return ValueNet([(rng.normal(size=(4, inputs)).astype(np.float32), rng.normal(size=4).astype(np.float32)),
                     (rng.normal(size=(1, 4)).astype(np.float32), rng.normal(size=1).astype(np.float32))])  # fmt: skip


def _card(**extra):
    return {"game": "strike_force_one", "side": "us", "scenario": None, **extra}


def test_a_written_net_reads_back_with_the_same_values(tmp_path):
    net = _net()
    path = tmp_path / "v.safetensors"
    card = write_value_net(net, path, _card())
    again = load_value_net(path)
    x = np.random.default_rng(1).normal(size=(7, 5)).astype(np.float32)
    assert np.array_equal(net.values(x), again.values(x))
    assert card["hidden"] == [4] and card["observation_shape"] == [5] and again.card["game"] == "strike_force_one"
    assert np.all(np.abs(again.values(x * 100)) <= 1.0)  # a tanh output: a result in [-1, 1]


def test_the_value_of_one_observation_is_the_mlp_worked_by_hand():
    """One hidden unit: v = tanh(w2 * tanh(w1 . x + b1) + b2), worked out with literal numbers."""
    net = ValueNet([(np.array([[1.0, -2.0]], np.float32), np.array([0.5], np.float32)),
                    (np.array([[2.0]], np.float32), np.array([-1.0], np.float32))])  # fmt: skip
    # x = (1, 1): tanh(1 - 2 + 0.5) = tanh(-0.5) = -0.46212; tanh(2 * -0.46212 - 1) = tanh(-1.92423) = -0.95826
    assert net.value(np.array([1.0, 1.0])) == pytest.approx(-0.95826, abs=1e-5)


@pytest.mark.parametrize(
    ("spoil", "words"),
    [
        (lambda p: p.with_suffix(".json").unlink(), "its card"),
        (lambda p: p.with_suffix(".json").write_text("{"), "not readable JSON"),
        (lambda p: _edit_card(p, format="fof-model-card/2"), "not a value-net card"),
        (lambda p: _edit_card(p, hidden=[10**9]), "hidden must list"),
        (lambda p: _edit_card(p, hidden=[4, 4]), "the card asks"),
        (lambda p: _edit_card(p, observation_shape=[5, 5]), "observation_shape"),
        (lambda p: p.write_bytes(p.read_bytes()[:-7]), "do not hash"),
        (lambda p: _edit_card(p, weights={"sha256": "0" * 64}), "do not hash"),
    ],
)
def test_a_spoilt_file_is_refused_in_one_line(tmp_path, spoil, words):
    path = tmp_path / "v.safetensors"
    write_value_net(_net(), path, _card())
    spoil(path)
    with pytest.raises(ModelFileError) as err:
        load_value_net(path)
    assert words in str(err.value) and "\n" not in str(err.value)


def _edit_card(path, **fields):
    card_path = path.with_suffix(".json")
    card = json.loads(card_path.read_text())
    card.update(fields)
    card_path.write_text(json.dumps(card))


def test_a_net_for_another_game_or_side_does_not_fit():
    game = fof_env.make_game("strike_force_one")
    size = game.new_initial_state(0).observation(1).shape[0]
    net = _net(inputs=size)
    net.card = _card()
    check_fits(net, game, 1, "v")  # US is player 1
    with pytest.raises(ModelFileError, match="side 'us', not 'soviet'"):
        check_fits(net, game, 0, "v")
    net.card = _card(game="lost_and_found")
    with pytest.raises(ModelFileError, match="game 'lost_and_found'"):
        check_fits(net, game, 1, "v")
    small = _net()
    small.card = _card()
    with pytest.raises(ModelFileError, match="observations of 5 floats"):
        check_fits(small, game, 1, "v")


def test_auc_counts_ranked_pairs_and_ties_half():
    assert auc(np.array([0.9, 0.8, 0.1]), np.array([1.0, 1.0, -1.0])) == 1.0
    assert auc(np.array([0.1, 0.9]), np.array([1.0, -1.0])) == 0.0
    assert auc(np.array([0.5, 0.5, 0.5]), np.array([1.0, -1.0, 0.0])) == 0.5  # a tie, and the draw left out
    # wins 0.6, 0.2; losses 0.4, 0.2: pairs (0.6>0.4) 1, (0.6>0.2) 1, (0.2<0.4) 0, (0.2=0.2) 0.5 -> 2.5 / 4
    assert auc(np.array([0.6, 0.2, 0.4, 0.2]), np.array([1.0, 1.0, -1.0, -1.0])) == 0.625
    assert auc(np.array([0.3]), np.array([1.0])) is None


def test_the_report_compares_with_the_constant_per_turn_and_mover():
    net = ValueNet([(np.array([[1.0]], np.float32), np.array([0.0], np.float32))])
    held = Positions(np.array([[10.0], [-10.0], [10.0], [-10.0]], np.float32), np.array([1.0, -1.0, 1.0, 1.0], np.float32),
                     np.array([1, 1, 2, 2]), np.array([True, False, True, False]), np.array([0, 0, 1, 1]))  # fmt: skip
    report = held_out_report(net, held, constant=0.5)
    # values tanh(+-10) = +-1 (to 1e-8): errors 0, 0, 0, 4 -> MSE 1.0; the constant: 0.25, 2.25, 0.25, 0.25 -> 0.75
    assert report["overall"]["mse"] == 1.0 and report["overall"]["constant_mse"] == 0.75
    assert report["beats_constant"] is False
    assert report["by_turn"]["1"]["mse"] == 0.0 and report["by_turn"]["2"]["mse"] == 2.0
    assert report["by_mover"]["side"]["positions"] == 2 and report["by_mover"]["other"]["mse"] == 2.0


def test_collect_keeps_the_sides_own_observation_and_its_result():
    """Every row is the side's observation at a decision of a game, labelled with that game's result for
    the side; the same seed collects the same rows."""
    game = fof_env.make_game("strike_force_one")
    data = collect("strike_force_one", {}, 1, "heuristic", "random", games=3, seed=4)
    again = collect("strike_force_one", {}, 1, "heuristic", "random", games=3, seed=4)
    assert np.array_equal(data.observations, again.observations) and np.array_equal(data.results, again.results)
    assert set(data.games.tolist()) == {0, 1, 2} and set(data.results.tolist()) <= {-1.0, 0.0, 1.0}
    first = game.new_initial_state(4)
    assert np.array_equal(data.observations[0], first.observation(1))
    assert data.movers.any() and not data.movers.all()


def test_fit_learns_a_result_the_observation_gives_away():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(300, 3)).astype(np.float32)
    y = np.where(x[:, 0] > 0, 1.0, -1.0).astype(np.float32)
    data = Positions(x, y, np.zeros(300, int), np.ones(300, bool), np.arange(300) // 3)
    net, training = fit(data, [8], seed=0, epochs=40, batch=16)
    test = rng.normal(size=(200, 3)).astype(np.float32)
    truth = np.where(test[:, 0] > 0, 1.0, -1.0)
    assert np.mean((net.values(test) - truth) ** 2) < 0.3 < np.mean(truth**2)
    assert training["epochs_run"] >= 1


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_a_shipped_net_beats_the_constant_on_games_it_never_saw(path):
    """Calibration: positions of fresh games (dice seeds from 900,000, far from the training seeds),
    played as the card's games were; the net's mean squared error is below the constant predictor's
    (the training games' mean result), and its card's own held-out report says the same. At least 30
    games, and enough that the rarer result is expected in 10 of them: where one side wins nine games
    in ten, the constant's error is set by its few losses, and 30 games hold about three."""
    net = load_value_net(path)
    card = net.card
    game = fof_env.make_game(card["game"])
    player = game.side_in_any_case(card["side"])
    check_fits(net, game, player, str(path))
    assert card["metrics"]["beats_constant"] is True
    constant = card["games"]["mean_result_train"]
    rarer = (1 - abs(constant)) / 2  # the share of games with the rarer result (a win is +1, a loss -1)
    games = min(120, max(30, math.ceil(10 / max(rarer, 1e-9))))
    fresh = collect(card["game"], {}, player, card["games"]["agent"], card["games"]["opponent"], games=games,
                    seed=900_000, workers=1)  # fmt: skip
    report = held_out_report(net, fresh, constant)
    assert report["overall"]["mse"] < report["overall"]["constant_mse"]


def test_bad_arguments_are_one_line_and_write_nothing(tmp_path, capsys):
    from training.value_net import main

    out = tmp_path / "v.safetensors"
    for argv, words in [
        (["--game", "nope", "--side", "us"], "unknown game 'nope'"),
        (["--game", "strike_force_one", "--side", "martians"], "no side 'martians'"),
        (["--game", "strike_force_one", "--side", "us", "--agent", "mcts:bogus=2"], "unknown mcts option(s)"),
    ]:
        assert main([*argv, "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert words in err and err.count("\n") == 1
    assert not out.exists()
