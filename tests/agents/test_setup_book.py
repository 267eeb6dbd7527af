"""Set-up books (agents.setup_book): read strictly, drawn only among legal listed points, used by ppo."""

from __future__ import annotations

import json
import shutil
from collections import Counter

import pytest

from agents import make_agent
from agents.ppo import BookSetup, shipped_model_path
from agents.setup_book import BOOK_FORMAT, book_path, read_book, write_book
from fof_env.core.registry import make_game

GAME = "lost_and_found"
SIDE = "taliban"


def first_placement():
    game = make_game(GAME)
    state = game.new_initial_state(3)
    assert state.current_player == game.player_index(SIDE) and state.is_unseen_placement()
    return game, state


def card(groups, sha="x"):
    return {"format": BOOK_FORMAT, "game": GAME, "side": SIDE, "model_sha256": sha, "groups": groups}


def write(tmp_path, obj, name="m.setups.json"):
    path = tmp_path / name
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return path


def test_book_path_is_beside_the_model():
    assert book_path("runs/a/model.safetensors").as_posix() == "runs/a/model.setups.json"


@pytest.mark.parametrize("content, words", [
    ("{not json", "not valid JSON"),
    ([1, 2], f"not a {BOOK_FORMAT} object"),
    ({**card([{"x19y11": 1}]), "format": "other"}, f"not a {BOOK_FORMAT} object"),
    ({**card([{"x19y11": 1}]), "game": "strike_force_one"}, "it is for 'strike_force_one'"),
    ({**card([{"x19y11": 1}]), "model_sha256": None}, "model_sha256 is missing"),
    (card([]), "groups must be a list of 1..64"),
    (card([{}]), "group 0 must map 1..64"),
    (card([{"x19y11": float("nan")}]), "weight of 'x19y11' must be a finite number over 0"),
    (card([{"x19y11": -1}]), "weight of 'x19y11' must be a finite number over 0"),
    (card([{"x19y11": True}]), "weight of 'x19y11' must be a finite number over 0"),
    (card([{"x19y11": 1}] * 65), "groups must be a list of 1..64"),
])
def test_a_malformed_book_is_refused_in_one_line(tmp_path, content, words):
    path = write(tmp_path, content)
    with pytest.raises(ValueError, match="cannot use set-up book") as info:
        read_book(path, make_game(GAME), SIDE)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_draw_takes_only_listed_legal_points_by_weight(tmp_path):
    game, state = first_placement()
    legal = [state.action_to_str(a) for a in state.legal_actions()]
    assert "x19y11" in legal and "x19y09" in legal and "x13y31" not in legal  # team 1's area, not team 4's
    book = read_book(write(tmp_path, card([{"x13y31": 1}, {"x19y11": 3, "x19y09": 1, "nowhere": 5}])), game, SIDE)
    draws = [0.0, 2.99, 3.0, 3.99]  # a total of 4: [0, 3) is x19y11, [3, 4) is x19y09; "nowhere" is not legal
    names = [state.action_to_str(book.draw(state, lambda total, x=x: x)) for x in draws]
    assert names == ["x19y11", "x19y11", "x19y09", "x19y09"]
    assert read_book(write(tmp_path, card([{"x13y31": 1}])), game, SIDE).draw(state, lambda t: 0.0) is None


def test_book_setup_falls_back_to_the_heuristic_where_the_book_has_no_legal_point(tmp_path):
    game, state = first_placement()
    book = read_book(write(tmp_path, card([{"x13y31": 1}])), game, SIDE)
    bot = BookSetup(book, game, game.player_index(SIDE), seed=1)
    assert bot.act(state) in state.legal_actions()


@pytest.fixture
def model_copy(tmp_path):
    source = shipped_model_path(GAME, SIDE)
    target = tmp_path / "model.safetensors"
    shutil.copy(source, target)
    shutil.copy(source.with_suffix(".json"), tmp_path / "model.json")
    sha = json.loads((tmp_path / "model.json").read_text())["weights"]["sha256"]
    return target, sha


def test_ppo_draws_its_set_up_from_a_matching_book(model_copy):
    path, sha = model_copy
    write_book(book_path(path), card([{"x21y11": 1, "x19y09": 1}], sha=sha))
    game, state = first_placement()
    player = game.player_index(SIDE)
    seen = Counter(state.action_to_str(make_agent("ppo", game, SIDE, seed=s, path=str(path)).act(state))
                   for s in range(40))
    assert set(seen) == {"x21y11", "x19y09"} and min(seen.values()) >= 10  # both drawn, each about half
    same = [make_agent("ppo", game, SIDE, seed=7, path=str(path)).act(state) for _ in range(2)]
    assert same[0] == same[1]  # the agent's own seed decides the draw
    assert isinstance(make_agent("ppo", game, player, seed=0, path=str(path)).setup_bot, BookSetup)


def test_ppo_ignores_a_book_for_other_weights_unless_told_to_use_it(model_copy):
    path, _ = model_copy
    write_book(book_path(path), card([{"x21y11": 1}], sha="0" * 64))
    game, _ = first_placement()
    assert not isinstance(make_agent("ppo", game, SIDE, seed=0, path=str(path)).setup_bot, BookSetup)
    with pytest.raises(ValueError, match="measured for other weights"):
        make_agent("ppo", game, SIDE, seed=0, path=str(path), setup="book")
    book_path(path).unlink()
    with pytest.raises(ValueError, match="has no set-up book model.setups.json"):
        make_agent("ppo", game, SIDE, seed=0, path=str(path), setup="book")


def test_write_book_leaves_no_temporary_file(tmp_path):
    write_book(tmp_path / "b.setups.json", card([{"x19y11": 1}]))
    assert [p.name for p in tmp_path.iterdir()] == ["b.setups.json"]
