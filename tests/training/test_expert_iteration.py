"""Expert iteration (training/expert_iteration.py): the search's visit distributions as the policy's
targets, a round that writes a model the ``ppo`` agent plays, with its command and figures in its card."""

from __future__ import annotations

import json

import numpy as np
import pytest

import fof_env
from agents import make_agent
from agents.ppo import PPOAgent, shipped_model_path
from agents.setup_book import book_path, read_book, write_book
from training.expert_iteration import keep_setup_book, main, play_search_games, train_on_visits

SEARCH = "mcts:simulations=6,opponent=heuristic,prior=ppo,rollout_limit=0"


def test_the_targets_are_the_searchs_visit_shares_on_legal_actions():
    init = str(shipped_model_path("strike_force_one", "us"))
    data = play_search_games("strike_force_one", 1, SEARCH, "heuristic", init, games=2, seed=3, workers=1)
    assert len(data["obs"]) == len(data["target"]) == len(data["mask"]) == len(data["result"]) > 0
    sums = data["target"].sum(1)
    assert np.allclose(sums, 1.0)
    assert not (data["target"][~data["mask"]] > 0).any()  # no visit share on an illegal action
    # 6 simulations: every share is a multiple of 1/6, and the move played had the most visits
    assert np.allclose(data["target"] * 6, np.round(data["target"] * 6))
    rows = np.arange(len(data["chosen"]))
    assert np.all(data["target"][rows, data["chosen"]] == data["target"].max(1))
    assert set(data["result"].tolist()) <= {-1.0, 0.0, 1.0} and set(data["game"].tolist()) == {0, 1}


def test_the_bots_unseen_placements_are_its_set_up_books_not_the_searchs():
    """The Lost & Found Taliban hide where the shipped bot would (its set-up book, seeded by the game):
    the first searched decision is the one after that set-up, and no set-up decision is a target."""
    game = fof_env.make_game("lost_and_found")
    init = str(shipped_model_path("lost_and_found", "taliban"))
    data = play_search_games("lost_and_found", 0, SEARCH, "heuristic", init, games=1, seed=4, workers=1)
    bot = PPOAgent(game, 0, path=init)
    assert bot.book is not None
    bot.reseed(4 * 2)
    state = game.new_initial_state(4)
    placed = []
    while state.is_unseen_placement():
        placed.append(state.action_to_str(action := bot.act(state)))
        state.apply(action)
    assert len(placed) >= 4 and all(p in group for p, group in zip(placed, bot.book.groups, strict=False))
    usmc = make_agent("heuristic", game, 1, seed=4 * 2 + 1)  # the round's opponent in its game 0
    while state.current_player != 0 or len(state.legal_actions()) < 2:  # the USMC set up
        state.apply(usmc.act(state) if state.current_player else state.legal_actions()[0])
    assert np.array_equal(data["obs"][0], bot.observe(state))


def test_a_round_keeps_its_init_models_set_up_book_for_the_new_weights(tmp_path):
    game = fof_env.make_game("lost_and_found")
    init = str(shipped_model_path("lost_and_found", "taliban"))
    card = json.loads(book_path(init).with_name("lost_and_found-taliban.json").read_text())
    kept = keep_setup_book(init, card, tmp_path / "model.safetensors", game, "taliban", "ab" * 32)
    assert kept == tmp_path / "model.setups.json"
    book, shipped = read_book(kept, game, "taliban"), read_book(book_path(init), game, "taliban")
    assert book.model_sha256 == "ab" * 32 and book.groups == shipped.groups
    assert book.card["kept_from"]["model_sha256"] == shipped.model_sha256
    sfo = str(shipped_model_path("strike_force_one", "us"))  # no book: none to keep
    sfo_card = json.loads(book_path(sfo).with_name("strike_force_one-us.json").read_text())
    assert keep_setup_book(sfo, sfo_card, tmp_path / "b.safetensors", fof_env.make_game("strike_force_one"), "us",
                           "0") is None  # fmt: skip
    stale = tmp_path / "stale.safetensors"  # a book measured for other weights than its model's is not kept
    stale.write_bytes(b"")
    stale_card = {**card, "weights": {**card["weights"], "sha256": "cd" * 32}}
    write_book(book_path(stale), shipped.card)
    assert keep_setup_book(str(stale), stale_card, tmp_path / "c.safetensors", game, "taliban", "0") is None


def test_training_moves_the_policy_towards_the_targets():
    """Targets that all name one legal action, trained on hard: the held-out cross-entropy falls."""
    init = str(shipped_model_path("strike_force_one", "us"))
    data = play_search_games("strike_force_one", 1, SEARCH, "heuristic", init, games=2, seed=5, workers=1)
    last = np.array([np.flatnonzero(m)[-1] for m in data["mask"]])  # the highest legal action (PASS here)
    data["target"][:] = 0.0
    data["target"][np.arange(len(last)), last] = 1.0
    data["chosen"] = last
    data["game"][:] = np.arange(len(last)) % 10  # ten "games": one is held out
    _policy, report = train_on_visits(init, data, epochs=30, learning_rate=3e-3, seed=0)
    assert report["held_out_after"]["cross_entropy"] < report["held_out_before"]["cross_entropy"]


def test_a_round_writes_a_model_the_ppo_agent_plays(tmp_path):
    out = tmp_path / "r1"
    argv = ["--game", "strike_force_one", "--side", "us", "--search", SEARCH, "--games", "10", "--eval-games", "4",
            "--epochs", "1", "--workers", "1", "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    card = json.loads((out / "model.json").read_text())
    assert card["command"].startswith("python -m training.expert_iteration --game strike_force_one")
    round_ = card["expert_iteration"]
    assert round_["games"] == 10 and round_["init"]["file"] == "strike_force_one-us.safetensors"
    assert round_["evaluation"]["new"]["games"] == round_["evaluation"]["init"]["games"] == 4
    assert json.loads((out / "round.json").read_text()) == round_
    game = fof_env.make_game("strike_force_one")
    agent = make_agent("ppo", game, "us", seed=0, path=str(out / "model.safetensors"))
    state = game.new_initial_state(0)
    while state.current_player != 1:
        state.apply(state.legal_actions()[0])
    assert agent.act(state) in state.legal_actions()


def test_bad_arguments_are_one_line_before_any_game(capsys):
    for argv, words in [
        (["--game", "nope", "--side", "us", "--search", "mcts:8"], "unknown game 'nope'"),
        (["--game", "strike_force_one", "--side", "us", "--search", "mcts:bogus=1"], "unknown mcts option(s)"),
        (["--game", "strike_force_one", "--side", "us", "--search", "mcts:8", "--init", "/no/such.safetensors"],
         "no model file /no/such.safetensors"),
    ]:
        with pytest.raises(SystemExit) as stop:
            main([*argv, "--out", "/tmp/never-written"])
        assert stop.value.code == 2 and words in capsys.readouterr().err


def test_resume_reads_the_rounds_saved_search_games_and_no_others(tmp_path, monkeypatch, capsys):
    import training.expert_iteration as ei

    out = tmp_path / "r1"
    argv = ["--game", "strike_force_one", "--side", "us", "--search", SEARCH, "--games", "10", "--eval-games", "2",
            "--epochs", "1", "--workers", "1", "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    played = np.load(out / ei.GAMES_FILE, allow_pickle=False)["chosen"]

    def no_search(*_args, **_kwargs):
        raise AssertionError("the search games were played again")

    monkeypatch.setattr(ei, "play_search_games", no_search)
    assert main([*argv, "--resume", "--target", "move"]) == 0
    assert "10 search games read from" in capsys.readouterr().out
    card = json.loads((out / "model.json").read_text())
    assert card["expert_iteration"]["target"] == "move"
    assert card["expert_iteration"]["training"]["decisions"] == len(played)
    with pytest.raises(AssertionError, match="played again"):  # another seed: another round's games
        main([*argv, "--resume", "--seed", "1"])
    assert "holds no search games of this round; playing them" in capsys.readouterr().out
    (out / ei.GAMES_FILE).write_bytes(b"not an npz")
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--resume"])
    assert stop.value.code == 2 and "cannot resume from" in capsys.readouterr().err


def test_move_targets_are_one_hot_on_the_move_played():
    from training.expert_iteration import move_targets

    data = {"target": np.array([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5]], dtype=np.float32), "chosen": np.array([1, 2])}
    assert move_targets(data).tolist() == [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]


def test_a_gumbel_searchs_target_is_its_improved_policy():
    """``root=gumbel``: the target is ``softmax(logits + sigma(q))`` over the legal actions, not the
    halving's visit counts (with 6 simulations those are multiples of 1/6; the improved policy's
    shares are not)."""
    from agents.mcts import SearchStats
    from training.expert_iteration import search_target

    stats = SearchStats(6, 7, {1: 3, 2: 3}, {1: 1.0, 2: -1.0}, 0.0, {1: 0.9, 2: 0.07, 3: 0.03})
    assert search_target(stats, 5).tolist() == pytest.approx([0.0, 0.9, 0.07, 0.03, 0.0])
    plain = SearchStats(6, 7, {1: 4, 2: 2}, {1: 1.0, 2: -1.0}, 0.0)
    assert search_target(plain, 3).tolist() == pytest.approx([0.0, 4 / 6, 2 / 6])
    init = str(shipped_model_path("strike_force_one", "us"))
    data = play_search_games("strike_force_one", 1, SEARCH + ",root=gumbel,considered=4", "heuristic", init,
                             games=1, seed=3, workers=1)
    assert np.allclose(data["target"].sum(1), 1.0)
    assert not (data["target"][~data["mask"]] > 0).any()
    assert (data["target"][data["mask"]] > 0).all()  # every legal action keeps a share
    assert not np.allclose(data["target"] * 6, np.round(data["target"] * 6))


def test_the_card_names_the_target_a_round_fitted():
    from training.expert_iteration import _target_name

    assert _target_name("visits", SEARCH) == "visits"
    assert _target_name("visits", SEARCH + ",root=gumbel") == "improved_policy"
    assert _target_name("move", SEARCH + ",root=gumbel") == "move"
