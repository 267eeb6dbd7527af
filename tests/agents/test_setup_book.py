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
    ({**card([{"x19y11": 1}]), "plans": {}}, "plans must be a list of at most 64"),
    ({**card([{"x19y11": 1}]), "plans": [{"weight": 1, "points": ["x19y11"]}] * 65}, "plans must be a list"),
    ({**card([{"x19y11": 1}]), "plans": [{"weight": 0, "points": ["x19y11"]}]}, "plan 0: weight must be"),
    ({**card([{"x19y11": 1}]), "plans": [{"weight": float("inf"), "points": ["x19y11"]}]}, "plan 0: weight"),
    ({**card([{"x19y11": 1}]), "plans": [[1]]}, "plan 0: weight must be"),
    ({**card([{"x19y11": 1}]), "plans": [{"weight": 1, "points": []}]}, "one point for each of the 1"),
    ({**card([{"x19y11": 1}]), "plans": [{"weight": 1, "points": ["x19y09"]}]}, "'x19y09' is not a point of"),
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
    names = [state.action_to_str(book.draw(state, lambda total, x=x: x)[0]) for x in draws]
    assert names == ["x19y11", "x19y11", "x19y09", "x19y09"]
    assert read_book(write(tmp_path, card([{"x13y31": 1}])), game, SIDE).draw(state, lambda t: 0.0) == (None, None)


def plan_book(tmp_path, game):
    groups = [{"x19y11": 1, "x19y09": 1}, {"x19y27": 1, "x19y25": 1}, {"x25y23": 1, "x27y23": 1},
              {"x13y31": 1, "x15y31": 1}]
    plans = [{"weight": 3, "points": ["x19y11", "x19y27", "x25y23", "x13y31"]},
             {"weight": 1, "points": ["x19y09", "x19y25", "x27y23", "x15y31"]}]
    return read_book(write(tmp_path, {**card(groups), "format": BOOK_FORMAT, "plans": plans}), game, SIDE)


def taliban_setup(bot, game, seed):
    """The Taliban's four unseen placements made by ``bot`` in a game of ``seed`` (heuristic USMC)."""
    state = game.new_initial_state(seed)
    player = game.player_index(SIDE)
    other = make_agent("heuristic", game, 1 - player, seed=seed)
    made = []
    while state.current_player == player and state.is_unseen_placement() or state.current_player != player:
        if state.current_player == player:
            action = bot.act(state)
            made.append(state.action_to_str(action))
        else:
            action = other.act(state)
        state.apply(action)
        if len(made) == 4 or state.is_terminal:
            break
    return tuple(made)


def test_a_book_with_plans_plays_one_whole_plan_drawn_by_weight(tmp_path):
    game, state = first_placement()
    book = plan_book(tmp_path, game)
    first = ("x19y11", "x19y27", "x25y23", "x13y31")
    assert book.plans == ((3.0, first), (1.0, ("x19y09", "x19y25", "x27y23", "x15y31")))
    # a total weight of 4: [0, 3) draws the first plan, [3, 4) the second
    assert [state.action_to_str(book.draw(state, lambda t, x=x: x)[0]) for x in (2.99, 3.0)] == ["x19y11", "x19y09"]
    action, plan = book.draw(state, lambda t: 0.0)
    assert plan == first and state.action_to_str(action) == "x19y11"
    seen = Counter(taliban_setup(BookSetup(book, game, game.player_index(SIDE), seed=s), game, s) for s in range(40))
    assert set(seen) == {first, ("x19y09", "x19y25", "x27y23", "x15y31")}  # never a mix of the two
    assert 20 <= seen[first] <= 38  # about 3 in 4


class SharedArea:
    """A stand-in state whose every placement may take any of the same three points."""

    names = ("a", "b", "c")

    def legal_actions(self):
        return [0, 1, 2]

    def action_to_str(self, action):
        return self.names[action]


def test_where_units_share_an_area_the_placement_count_picks_the_group():
    from agents.setup_book import SetupBook

    book = SetupBook(({"a": 1.0}, {"b": 1.0}, {"c": 1.0}), "x", {})
    state = SharedArea()
    assert [book.draw(state, lambda t: 0.0, made=k)[0] for k in (0, 1, 2)] == [0, 1, 2]
    assert book.draw(state, lambda t: 0.0)[0] == 0  # no count: the first group with a legal point
    assert book.draw(state, lambda t: 0.0, made=7)[0] == 0  # past the book: the same
    planned = SetupBook(({"a": 1.0, "c": 1.0},) * 2, "x", {}, plans=((1.0, ("c", "a")),))
    assert [planned.draw(state, lambda t: 0.0, plan=("c", "a"), made=k)[0] for k in (0, 1)] == [2, 0]


def test_a_book_of_format_1_is_still_read(tmp_path):
    game, _ = first_placement()
    book = read_book(write(tmp_path, {**card([{"x19y11": 1}]), "format": "fof-setup-book/1"}), game, SIDE)
    assert book.groups == ({"x19y11": 1.0},) and book.plans == ()


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


def test_ppo_setup_points_draws_a_plan_book_placement_by_placement(model_copy, tmp_path):
    path, sha = model_copy
    game, _ = first_placement()
    plans = plan_book(tmp_path, game).card["plans"]
    write_book(book_path(path), {**plan_book(tmp_path, game).card, "model_sha256": sha})
    whole = {tuple(p["points"]) for p in plans}
    by_plan = {taliban_setup(make_agent("ppo", game, SIDE, seed=s, path=str(path)), game, s) for s in range(12)}
    mixed = {taliban_setup(make_agent("ppo", game, SIDE, seed=s, path=str(path), setup="points"), game, s)
             for s in range(12)}
    assert by_plan <= whole  # the default plays whole plans
    assert mixed - whole  # setup=points mixes them: some set-up that is no plan
    assert all(point in {p["points"][k] for p in plans} for setup in mixed for k, point in enumerate(setup))


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
    with pytest.raises(ValueError, match="setup=points, but model .* has no set-up book"):
        make_agent("ppo", game, SIDE, seed=0, path=str(path), setup="points")


def test_write_book_leaves_no_temporary_file(tmp_path):
    write_book(tmp_path / "b.setups.json", card([{"x19y11": 1}]))
    assert [p.name for p in tmp_path.iterdir()] == ["b.setups.json"]
