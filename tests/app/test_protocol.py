"""The engine protocol in process: every command, its reply schema, bad input, no peeking."""

from __future__ import annotations

import json
import random
import time

import pytest

import fof_env
from agents.base import register_agent
from fof_env.app.protocol import COMMANDS, Engine, check_message, schema
from fof_env.core.game import State


def ask(engine: Engine, owner=None, **msg) -> dict:
    """Send ``msg``; the reply must satisfy its schema (``<cmd>_reply`` or ``error_reply``)."""
    reply = engine.handle(msg, owner)
    name = f"{msg.get('cmd')}_reply" if reply["ok"] else "error_reply"
    assert check_message(reply, name) is None, (name, check_message(reply, name))
    json.dumps(reply)  # plain JSON
    return reply


@pytest.fixture
def engine():
    e = Engine(bot_timeout=20)
    yield e
    e.close()


def test_schema_has_a_request_and_a_reply_for_every_command():
    defs = schema()["$defs"]
    for cmd in COMMANDS:
        assert f"{cmd}_request" in defs and f"{cmd}_reply" in defs
    assert {"view", "played", "error_reply"} <= set(defs)


def test_hello_lists_games_options_sides_and_agents(engine):
    r = ask(engine, cmd="hello", id=7)
    assert r["ok"] and r["id"] == 7 and r["protocol"] == "fof-protocol/1"
    games = {g["name"]: g for g in r["games"]}
    assert games["strike_force_one"]["sides"] == ["soviet", "us"]
    assert games["strike_force_one"]["board"] == "hexmap" and games["lost_and_found"]["board"] == "table"
    assert {
        k: games["strike_force_one"]["options"][0][k] for k in ("name", "type", "default")
    } == {"name": "optional_rules", "type": "bool", "default": False}
    assert "declare_interrupt" in games["lost_and_found"]["reaction_kinds"]
    kinds = {a["kind"]: a for a in r["agents"]}
    assert kinds["mcts"]["argument"] == "simulations" and kinds["ppo"]["argument"] == "model" and "lost_and_found-taliban" in kinds["ppo"]["models"]
    assert r["commands"] == list(COMMANDS)


def test_a_whole_game_against_a_bot(engine):
    r = ask(engine, cmd="new", game="strike_force_one", seed=1, bots={"us": "heuristic"})
    gid, view = r["game"], r["view"]
    assert r["sides"] == {"soviet": "front end", "us": "bot heuristic"}
    assert view["side"] == "soviet" and view["your_turn"] and view["decision"]["kind"] == "select_unit"
    assert [e["action"] for e in view["legal"]] == ["sov.A", "sov.B", "sov.C", "sov.D", "sov.E", "sov.F", "pass"]
    assert view["legal"][0] == {"action": "sov.A", "label": "Move sov.A (in 0802)", "unit": "sov.A", "hex": "0802"}
    rng = random.Random(0)
    moves = 0
    while not view["terminal"]:
        r = ask(engine, cmd="play", game=gid, action=rng.choice(view["legal"])["action"])
        view = r["view"]
        moves += 1
        assert view["terminal"] or view["your_turn"]  # the bot answered at once
    assert view["result"]["winner"] in ("soviet", "us") and view["decisions"] > moves
    assert any(p["by"] == "bot" and p["side"] == "us" for p in view["played"])
    saved = ask(engine, cmd="save", game=gid)
    state = State.from_json(saved["record"])  # a finished game's record comes back whole
    assert state.is_terminal and len(state.history) == view["decisions"]
    again = ask(engine, cmd="play", game=gid, action="pass")
    assert again == {"ok": False, "cmd": "play", "error": "the game is over"}


def test_play_errors_name_the_reason_and_change_nothing(engine):
    r = ask(engine, cmd="new", game="strike_force_one", seed=1, bots={"us": "random"})
    gid = r["game"]
    before = ask(engine, cmd="view", game=gid)["view"]
    cases = [
        ({"action": "0101"}, "'0101' is not legal for soviet's decision 'select_unit': legal now: sov.A, sov.B"),
        ({"action": "nonsense"}, "cannot read action 'nonsense'"),
        ({"action": "sov.A", "side": "us"}, "it is not us's decision: soviet decides 'select_unit'"),
        ({"action": 3}, "bad 'play' request: action: 3 is not of type 'string'"),
    ]
    for extra, error in cases:
        r = ask(engine, cmd="play", game=gid, **extra)
        assert not r["ok"] and error in r["error"], r
    assert ask(engine, cmd="view", game=gid, side="us")["error"] == (
        "us is played by the server's bot: its view is not yours to see"
    )
    assert ask(engine, cmd="view", game=gid)["view"] == before


def test_undo_takes_back_what_taught_nothing_and_refuses_the_rest(engine):
    gid = ask(engine, cmd="new", game="strike_force_one", seed=5, bots={"us": "heuristic"})["game"]
    for action in ("sov.A", "0703"):
        ask(engine, cmd="play", game=gid, action=action)
    r = ask(engine, cmd="undo", game=gid)  # the move only: nothing was rolled, the bot has not answered
    assert r["undone"] == 1 and r["view"]["decision"]["kind"] == "move_target" and r["view"]["decisions"] == 1
    ask(engine, cmd="play", game=gid, action="0703")
    view = ask(engine, cmd="play", game=gid, action="pass")["view"]  # ends the Soviet movement: the U.S. answer
    assert not view["can_undo"]
    r = ask(engine, cmd="undo", game=gid)
    assert r["error"].startswith("undo refused: since that decision ") and "practice game" in r["error"]
    assert ask(engine, cmd="view", game=gid)["view"] == view  # a refusal changes nothing
    gid = ask(engine, cmd="new", game="strike_force_one", seed=5)["game"]  # no bot: undo to the start
    for action in ("sov.A", "0703", "pass"):
        ask(engine, cmd="play", game=gid, action=action)
    while ask(engine, cmd="undo", game=gid)["ok"]:
        pass
    assert ask(engine, cmd="undo", game=gid)["error"].startswith("nothing to undo")
    assert ask(engine, cmd="view", game=gid)["view"]["decisions"] == 0


def test_resign_pass_all_close_and_games(engine):
    gid = ask(engine, cmd="new", game="lost_and_found", seed=3, bots={"taliban": "heuristic"})["game"]
    # the Taliban's seven set-up decisions are secret: the USMC was shown none of them, and counts none
    assert ask(engine, cmd="games")["games"] == [{"game": gid, "name": "lost_and_found", "over": False, "decisions": 0, "role": "host"}]
    r = ask(engine, cmd="pass_all", game=gid, side="usmc")
    assert r["view"]["pass_all"] == ["usmc"]
    assert ask(engine, cmd="resign", game=gid, side="taliban")["error"].startswith("taliban is the server's bot")
    r = ask(engine, cmd="resign", game=gid, side="usmc")
    assert r["view"]["terminal"] and r["view"]["result"]["winner"] == "taliban"
    assert r["view"]["result"]["reason"] == "usmc resigned" and r["view"]["legal"] == []
    assert ask(engine, cmd="close", game=gid)["ok"]
    assert "no game" in ask(engine, cmd="view", game=gid)["error"]


def test_pass_all_declines_every_reaction_until_the_turn_ends(engine):
    r = ask(engine, cmd="new", game="lost_and_found", seed=3, bots={"taliban": "heuristic"}, options={"rules": "quick"})
    gid, view = r["game"], r["view"]
    while not view["decision"]["reaction"]:  # set up, then wait for the first interrupt question
        view = ask(engine, cmd="play", game=gid, action=view["legal"][0]["action"])["view"]
    turn = view["turn"]
    r = ask(engine, cmd="pass_all", game=gid, side="usmc")
    autos = [p for p in r["played"] if p["by"] == "auto"]
    assert autos and all(p["action"] == "pass" and p["side"] == "usmc" for p in autos)
    view = r["view"]
    assert view["terminal"] or not view["decision"]["reaction"] or view["turn"] != turn


def test_no_peeking_the_usmc_never_receives_hidden_taliban_units():
    """Every reply to a front end playing the USMC, as text, never names a Taliban unit while it is
    hidden, nor the secret set-up's points (rulings R27; boardgame.io #1159 leaked exactly this)."""
    engine = Engine()
    fof_env.make_game("lost_and_found")
    r = engine.handle({"cmd": "new", "game": "lost_and_found", "seed": 3, "bots": {"taliban": "heuristic"}})
    gid = r["game"]
    session = engine.games[gid].session
    # a record mid-game holds the hidden set-up and the dice: it stays on the server
    saved = engine.handle({"cmd": "save", "game": gid})
    assert saved["ok"] and "record" not in saved and saved["save_id"].startswith("s")
    loaded = engine.handle({"cmd": "load", "save_id": saved["save_id"], "bots": {"taliban": "heuristic"}})
    assert loaded["ok"] and loaded["view"]["decisions"] == 0 and loaded["view"]["board"] == r["view"]["board"]
    assert "tal.1" not in json.dumps(loaded) and loaded["view"]["played"] == []
    gid, r = loaded["game"], loaded  # the save resumed the game: the one it was saved from is closed
    session = engine.games[gid].session
    rng = random.Random(1)
    view = r["view"]
    checked = 0
    while not view["terminal"] and checked < 60:
        text = json.dumps(r)
        state = session.state
        for u in range(5):
            if state.hidden[u]:
                name = state.action_to_str(324 + u)
                assert f'"{name}"' not in text and f"{name} " not in text, (name, checked)
        checked += 1
        r = engine.handle({"cmd": "play", "game": gid, "action": rng.choice(view["legal"])["action"]})
        view = r["view"]
    assert checked > 10
    assert not any(p.side == "taliban" and p.kind in ("deploy", "declare_hidden") for p in session.log.played[1])
    engine.close()


def test_load_a_record_and_new_from_a_position(engine):
    state = fof_env.make_game("strike_force_one").new_initial_state(4)
    for action in ("sov.B", "0704"):
        state.apply(action)
    r = ask(engine, cmd="load", record=state.to_json(), bots={"us": "random"})
    assert r["view"]["decisions"] == 2 and r["view"]["your_turn"] and not r["view"]["can_undo"]
    assert [e["text"] for e in r["view"]["events"][:2]] == ["=== Turn 1: soviet move ===", "  sov.B moves 0803 -> 0704"]
    bad = ask(engine, cmd="load", record='{"format": "fof-record/2"}')
    assert bad["error"] == "malformed game record: missing 'game'"
    position = state.to_position()
    r = ask(engine, cmd="new", game="strike_force_one", position=position, seed=9)
    assert r["ok"] and r["sides"] == {"soviet": "front end", "us": "front end"}


def test_bots_with_budgets_and_watch_mode(engine):
    r = ask(engine, cmd="new", game="strike_force_one", seed=2, bots={"soviet": "mcts:5", "us": "random"})
    gid = r["game"]
    assert r["view"]["side"] == "soviet" and not r["view"]["your_turn"]  # nobody plays: watch
    r = ask(engine, cmd="bot", game=gid, budget={"simulations": 3}, count=3)
    assert len(r["played"]) == 3 and len(r["seconds"]) == 3 and all(p["by"] == "bot" for p in r["played"])
    assert engine.games[gid].session.agents[0].simulations == 5  # the budget was for those decisions
    r = ask(engine, cmd="bot", game=gid, budget={"time": 0.05})
    assert r["ok"] and r["view"]["decisions"] == 4
    assert ask(engine, cmd="view", game=gid, side="us")["view"]["side"] == "us"  # a watcher sees either side
    assert ask(engine, cmd="bot", game=gid, budget={"time": 100})["error"].startswith("budget.time 100 s is over")


class _Sleepy:
    def __init__(self, game, player, seed=None):
        self.player = player

    def act(self, state):
        time.sleep(0.5)
        return state.legal_actions()[0]


def test_a_bot_out_of_time_leaves_the_game_unchanged():
    register_agent("sleepy_test_bot", _Sleepy)
    engine = Engine(bot_timeout=0.1)
    r = engine.handle({"cmd": "new", "game": "strike_force_one", "seed": 1, "bots": {"soviet": "sleepy_test_bot"}, "autoplay": False})
    gid = r["game"]
    r = engine.handle({"cmd": "bot", "game": gid})
    assert r == {
        "ok": False,
        "cmd": "bot",
        "error": "soviet's bot 'sleepy_test_bot' did not decide within 0.1 s; the game is unchanged",
    }
    assert engine.handle({"cmd": "view", "game": gid})["view"]["decisions"] == 0
    engine.close()


def test_client_model_paths_are_refused(engine):
    r = ask(engine, cmd="new", game="strike_force_one", bots={"us": "ppo:/etc/passwd"})
    assert r["error"].startswith("bot 'ppo:/etc/passwd': model '/etc/passwd' is not a model of this server (clients name")
    assert "at most 20000 simulations" in ask(engine, cmd="new", game="strike_force_one", bots={"us": "mcts:999999"})["error"]
    # a side suffix does not hide the simulation count from the check
    assert "at most 20000 simulations" in ask(engine, cmd="new", game="strike_force_one", bots={"us": "mcts:999999@us"})["error"]
    assert "is not a model of this server" in ask(engine, cmd="new", game="strike_force_one", bots={"us": "ppo:/x@us"})["error"]
    r = ask(engine, cmd="new", game="strike_force_one", bots={"us": "ppo:strike_force_one-us"})  # a model by its id
    assert r["ok"] and r["sides"]["us"] == "bot ppo:strike_force_one-us"


def test_games_belong_to_their_connection(engine):
    gid = ask(engine, owner="a", cmd="new", game="strike_force_one")["game"]
    assert "no game" in ask(engine, owner="b", cmd="view", game=gid)["error"]
    assert engine.drop_owner("a") == 1 and not engine.games


def test_the_documented_schema_is_the_one_the_engine_checks():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    docs = json.loads((root / "docs" / "schemas" / "protocol.schema.json").read_text())
    assert docs == schema()
    text = (root / "docs" / "protocol.md").read_text()
    for cmd in COMMANDS:
        assert f"| `{cmd}` |" in text
