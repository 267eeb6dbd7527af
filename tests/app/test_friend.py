"""Play a friend: a link to the other seat, a spectator link, and a takeback only by consent.

Each test drives the protocol as front ends on two or three connections would (the engine in process,
where the game's state is the ground truth, and a real ``fof serve`` on 127.0.0.1 over WebSocket): the
friend takes the free seat with the host's link, once; each side then sees only its own view and acts
only for its own side; a spectator sees what both sides may see and acts on nothing; a wrong, guessed
or used-up link reads exactly like any other wrong one.
"""

from __future__ import annotations

import json
import random
import secrets

import pytest

from fof_env.app.protocol import NO_LINK, Engine, check_message
from fof_env.core.game import State
from tests.app.conftest import start_server, stop_server
from tests.app.test_hostile_client import (
    SECRET_KINDS,
    InProcess,
    Socket,
    _assert_never_named,
    _hidden_taliban,
    _replay,
)


@pytest.fixture(scope="module")
def served():
    proc, address = start_server("--bot-timeout", "5")
    yield address
    stop_server(proc)


@pytest.fixture(params=["in process", "websocket"])
def connect(request, served):
    """A factory of connections to one engine: in this process, or to ``fof serve`` over WebSocket."""
    made = []
    engine = Engine(bot_timeout=5)

    def new():
        c = InProcess(engine, f"c{len(made)}") if request.param == "in process" else Socket(served)
        made.append(c)
        return c

    yield new
    for c in made:
        if isinstance(c, Socket):
            c.close()
    engine.close()


@pytest.fixture
def engine():
    e = Engine(bot_timeout=5)
    yield e
    e.close()


def ask(c, **msg) -> dict:
    """``msg`` on connection ``c``; the reply must satisfy its schema (``<cmd>_reply`` or ``error_reply``)."""
    reply = c.ask(**msg)
    problem = check_message(reply, f"{msg['cmd']}_reply" if reply.get("ok") else "error_reply")
    assert problem is None, (problem, reply)
    return reply


def friend_game(connect, game: str = "lost_and_found", friend: str = "taliban", **extra):
    """A host and a friend in a new game (the friend joined with the host's link), and the host's reply."""
    host, friend_c = connect(), connect()
    made = ask(host, cmd="new", game=game, friend=friend, spectators=True, **extra)
    assert made["ok"], made
    joined = ask(friend_c, cmd="join", token=made["join"])
    assert joined["ok"] and joined["game"] == made["game"], joined
    return host, friend_c, made, joined


def play_to_the_turn_of(c, gid: str, other, rng: random.Random, limit: int = 400) -> dict:
    """Play random legal actions on ``c`` until its side's turn is over (the other connection's, or the
    end); the last view."""
    view = ask(c, cmd="view", game=gid)["view"]
    for _ in range(limit):
        if not view["your_turn"] or view["terminal"]:
            return view
        view = ask(c, cmd="play", game=gid, action=rng.choice(view["legal"])["action"])["view"]
    raise AssertionError("the turn did not end")


def test_a_friend_takes_the_free_seat_and_each_sees_only_its_side(connect):
    """The host plays the USMC, the friend the Taliban through the host's link: the friend sets up in
    secret; the host is told only that the Taliban decide something "secret", never sees a Hidden team,
    and can neither see the Taliban's view nor play, resign or pass for them; the same the other way."""
    host, friend, made, joined = friend_game(connect, seed=3)
    gid = made["game"]
    assert made["sides"] == {"taliban": "friend", "usmc": "front end"} and made["view"]["side"] == "usmc"
    assert joined["side"] == "taliban" and joined["sides"] == {"taliban": "front end", "usmc": "friend"}
    assert joined["view"]["your_turn"] and joined["view"]["decision"]["kind"] == "deploy"
    assert made["view"]["decision"] == {"kind": "secret", "side": "taliban", "player": 0, "reaction": False}
    refused = ask(host, cmd="play", game=gid, action="x01y01")
    assert not refused["ok"] and refused["error"] == "it is not your decision: taliban decides 'secret'"
    for cmd in ({"cmd": "view", "side": "taliban"}, {"cmd": "view", "side": 0}, {"cmd": "play", "action": "x01y01", "side": "taliban"}):
        assert not ask(host, game=gid, **cmd)["ok"]
    assert "not yours to see" in ask(host, cmd="view", game=gid, side="taliban")["error"]
    for cmd in ("resign", "pass_all"):
        r = ask(host, cmd=cmd, game=gid, side="taliban")
        assert not r["ok"] and "only a side you play" in r["error"], r
    rng = random.Random(4)
    view = play_to_the_turn_of(friend, gid, host, rng)  # the Taliban set up (some teams Hidden)
    assert not view["your_turn"] and view["decision"]["side"] == "usmc"
    set_up_seen = len(host.seen)  # (before, the roster lists every team "off table": names, no places)
    mine = ask(host, cmd="view", game=gid)["view"]
    assert mine["your_turn"] and mine["side"] == "usmc"
    assert not any(p["kind"] in SECRET_KINDS for p in mine["played"])
    for cmd in ({"cmd": "view", "side": "usmc"}, {"cmd": "resign", "side": "usmc"}, {"cmd": "pass_all", "side": "usmc"}):
        assert not ask(friend, game=gid, **cmd)["ok"]
    r = ask(friend, cmd="play", game=gid, action=mine["legal"][0]["action"])
    assert not r["ok"] and r["error"].startswith("it is not your decision: usmc decides")
    passing = ask(friend, cmd="pass_all", game=gid, side="taliban")  # a setting of its own: not the host's to know
    assert passing["view"]["pass_all"] == ["taliban"] and ask(host, cmd="view", game=gid)["view"]["pass_all"] == []
    for _ in range(3):  # a few turns each, every one from its own connection
        if play_to_the_turn_of(host, gid, friend, rng)["terminal"]:
            break
        if play_to_the_turn_of(friend, gid, host, rng)["terminal"]:
            break
    texts = host.seen[set_up_seen:]
    assert ask(host, cmd="resign", game=gid, side="usmc")["ok"]
    saved = ask(friend, cmd="save", game=gid)  # over: its record, the ground truth, for either player
    record = json.loads(saved["record"])
    assert record["session"]["seats"] == {"taliban": "friend", "usmc": "front end"}
    states = _replay(saved["record"])
    set_up = next(i for i, st in enumerate(states) if st.current_player == 1)  # the USMC's first decision
    hidden = set.intersection(*(set(_hidden_taliban(st)) for st in states[set_up:]))
    assert hidden, "the friend hid no team for the whole game: pick another seed"
    _assert_never_named(texts, sorted(hidden))  # (whichever teams the friend hid and kept hidden)


def test_a_link_fills_its_seat_once_and_a_wrong_one_reads_the_same(connect):
    """The friend's link fills the seat once; used again, guessed, altered, of a game that is gone or
    of a seat someone holds, it gets the same words as any wrong token. The friend takes the seat back
    after leaving with its own rejoin token (once too). A bot's seat has no link at all."""
    host, friend, made, joined = friend_game(connect, game="strike_force_one", friend="us", seed=2)
    gid = made["game"]
    tokens = [made["join"], made["watch"], joined["rejoin"]]
    assert len(set(tokens)) == 3 and all(len(t) >= 32 for t in tokens)  # 192 bits from the secrets module
    third = connect()
    wrong = [made["join"], secrets.token_urlsafe(24), made["join"][:-1] + ("A" if made["join"][-1] != "A" else "B"),
             joined["rejoin"]]  # used up, guessed, altered, a seat someone holds  # fmt: skip
    for token in wrong:
        r = ask(third, cmd="join", token=token)
        assert not r["ok"] and r["error"] == NO_LINK, (token, r)
    assert not ask(third, cmd="view", game=gid)["ok"]
    again = ask(host, cmd="join", token=made["watch"])  # the host can not become its own spectator or friend
    assert not again["ok"] and "already" in again["error"]
    assert ask(friend, cmd="close", game=gid)["ok"]  # the friend leaves: its seat is free, for its token only
    assert ask(third, cmd="join", token=made["join"])["error"] == NO_LINK
    back = ask(third, cmd="join", token=joined["rejoin"])
    assert back["ok"] and back["side"] == "us" and back["rejoin"] not in tokens
    assert ask(friend, cmd="join", token=joined["rejoin"])["error"] == NO_LINK
    assert not ask(host, cmd="view", game=gid, side="us")["ok"]  # the seat is the friend's, whoever holds it
    assert ask(host, cmd="close", game=gid)["ok"]  # the game is gone: its links are nothing now
    assert ask(third, cmd="view", game=gid)["error"].startswith("no game")
    assert ask(connect(), cmd="join", token=made["watch"])["error"] == NO_LINK
    assert ask(third, cmd="join", token=back["rejoin"])["error"] == NO_LINK
    # a bot's seat: no seat link, and no friend next to a bot
    bot_game = ask(host, cmd="new", game="strike_force_one", bots={"us": "random"}, spectators=True)
    assert "join" not in bot_game and bot_game["watch"]
    watcher = ask(third, cmd="join", token=bot_game["watch"])
    assert watcher["ok"] and watcher["side"] == "spectator" and watcher["sides"] == {"soviet": "player", "us": "bot random"}
    assert not ask(third, cmd="bot", game=bot_game["game"])["ok"]
    for extra in ({"bots": {"us": "random"}}, {"practice": True}, {"position": {"turn": 1}}, {"record": "{}"}):
        r = ask(host, cmd="new", game="strike_force_one", friend="us", **extra)
        assert not r["ok"] and r["error"].startswith("a game with a friend is a new game between two players"), r
    assert not ask(host, cmd="new", game="strike_force_one", friend="martians")["ok"]


def _subsequence(small: list, big: list) -> bool:
    it = iter(big)
    return all(any(x == y for y in it) for x in small)


def test_the_spectator_sees_only_what_both_sides_may_see(engine):
    """A Lost & Found game between two connections, watched by a third, checked against the engine's state
    after every decision: the spectator's board holds exactly the units both sides know of, each as the
    other side sees it; no Hidden team, no secret decision, no decision context, no legal action; its
    log is the events and decisions both sides were shown, in their order."""
    conns = [InProcess(engine, name) for name in ("host", "friend", "watcher")]
    made = ask(conns[0], cmd="new", game="lost_and_found", friend="taliban", spectators=True, seed=5)
    gid = made["game"]
    assert ask(conns[1], cmd="join", token=made["join"])["side"] == "taliban"
    watched = ask(conns[2], cmd="join", token=made["watch"])
    assert watched["side"] == "spectator" and watched["view"]["player"] == -1
    session = engine.games[gid].session
    by_side = {0: conns[1], 1: conns[0]}  # taliban: the friend, usmc: the host
    rng = random.Random(7)
    secret_seen = hidden_checked = 0
    for _ in range(250):
        if session.over:
            break
        state = session.state
        p = state.current_player
        view = ask(by_side[p], cmd="view", game=gid)["view"]
        ask(by_side[p], cmd="play", game=gid, action=rng.choice(view["legal"])["action"])
        state = session.state
        public = ask(conns[2], cmd="view", game=gid)["view"]
        boards = [session.view(q)["board"] for q in (0, 1)]
        known = [{u["id"]: u for u in b["units"]} for b in boards]
        board = json.dumps(public["board"])
        for name in _hidden_taliban(state):
            hidden_checked += 1
            assert f'"{name}"' not in board and f"{name} " not in public["text"]
        units = {u["id"]: u for u in public["board"]["units"]}
        assert set(units) == set(known[0]) & set(known[1])
        for uid, u in units.items():  # each as the other side sees it
            other = 1 if u["side"] == "taliban" else 0
            assert u == {**known[other][uid], "focus": False, "sees": [s for s in known[other][uid]["sees"] if s["unit"] in units]}
        assert public["legal"] == [] and not public["your_turn"] and "context" not in (public["decision"] or {})
        if not state.is_terminal and session.view_of.secret_from(state, 1 - state.current_player):
            assert public["decision"]["kind"] == "secret"
            secret_seen += 1
        secret = [(d["side"], d["kind"]) for d in [*public["played"], public["decision"] or {"side": "", "kind": ""}]]
        assert not any(side == "taliban" and kind in SECRET_KINDS for side, kind in secret)
    assert secret_seen and hidden_checked, (secret_seen, hidden_checked)
    public = ask(conns[2], cmd="view", game=gid)["view"]
    sides = [ask(by_side[q], cmd="view", game=gid)["view"] for q in (0, 1)]
    strip = lambda e: {k: v for k, v in e.items() if k not in ("index", "events_before")}  # noqa: E731
    for mine in sides:
        assert _subsequence([strip(e) for e in public["events"]], [strip(e) for e in mine["events"]])
        assert _subsequence([strip(p) for p in public["played"]], [strip(p) for p in mine["played"]])
    assert public["decisions"] == len(public["played"]) < len(session.state.history)
    assert [e["index"] for e in public["events"]] == list(range(len(public["events"])))


def test_a_spectators_card_counts_follow_the_game(engine):
    """Hedgerow Hamlet between two connections, watched by a third: after every decision the spectator's
    board holds the hands' sizes, never a hand. The server seeds its own dice and a card is drawn only on
    a Reaction Test's unmodified 1, so games are played until one has drawn a card."""
    conns = [InProcess(engine, name) for name in ("host", "friend", "watcher")]
    rng = random.Random(3)
    drawn = 0
    for _game in range(12):
        made = ask(conns[0], cmd="new", game="wwii_hedgerow_hamlet", friend="ger", spectators=True)
        gid = made["game"]
        ask(conns[1], cmd="join", token=made["join"])
        ask(conns[2], cmd="join", token=made["watch"])
        session = engine.games[gid].session
        while not session.over and not drawn:
            p = session.state.current_player
            c = conns[1] if session.names[p] == "ger" else conns[0]
            view = ask(c, cmd="view", game=gid)["view"]
            deck = len(session.state.cards.deck)
            ask(c, cmd="play", game=gid, action=rng.choice(view["legal"])["action"])
            drawn += len(session.state.cards.deck) < deck
            fog = ask(conns[2], cmd="view", game=gid)["view"]["board"]["fog_of_war"]
            assert fog["hand"] is None and fog["deck"] == len(session.state.cards.deck)
            assert fog["hand_sizes"] == {session.names[q]: len(session.state.hand_names(q)) for q in (0, 1)}
        ask(conns[0], cmd="close", game=gid)
        if drawn:
            break
    assert drawn, "no card was drawn in 12 games"


def test_a_spectator_acts_on_nothing(connect):
    """Every command of a player, sent by the spectator: refused in one line, and the game unchanged."""
    host, friend, made, joined = friend_game(connect, game="strike_force_one", friend="us", seed=4)
    gid = made["game"]
    ask(host, cmd="play", game=gid, action="sov.A")
    watcher = connect()
    assert ask(watcher, cmd="join", token=made["watch"])["ok"]
    before = ask(host, cmd="view", game=gid)["view"]
    asked = ask(host, cmd="undo", game=gid)  # a takeback request stands: the spectator may not answer it
    assert asked["ok"] and asked["takeback"] == "asked"
    attempts = [
        {"cmd": "play", "action": before["legal"][0]["action"]}, {"cmd": "play", "action": "pass", "side": "soviet"},
        {"cmd": "bot"}, {"cmd": "undo"}, {"cmd": "undo", "decline": True}, {"cmd": "undo", "side": "us"},
        {"cmd": "resign", "side": "soviet"}, {"cmd": "resign", "side": "us"}, {"cmd": "pass_all", "side": "us"},
        {"cmd": "save"}, {"cmd": "view", "side": "soviet"}, {"cmd": "view", "side": 1},
    ]  # fmt: skip
    for attempt in attempts:
        r = ask(watcher, game=gid, **attempt)
        assert not r["ok"] and "\n" not in r["error"], (attempt, r)
    saved = ask(host, cmd="new", game="strike_force_one", seed=1)  # the host's own saves are not the spectator's
    save = ask(host, cmd="save", game=saved["game"])
    assert not ask(watcher, cmd="load", save_id=save["save_id"])["ok"]
    after = ask(host, cmd="view", game=gid)["view"]
    assert after["board"] == before["board"] and after["decisions"] == before["decisions"] and after["undo_asked"] == "soviet"
    assert not after["terminal"]
    assert ask(watcher, cmd="close", game=gid)["ok"] and ask(host, cmd="view", game=gid)["ok"]  # it leaves; the game goes on
    assert not ask(watcher, cmd="view", game=gid)["ok"]


def test_a_takeback_needs_the_other_players_consent(connect):
    """Strike Force One between two connections: a side asks to take back its own last decision and the
    other agrees or declines; a request lapses when a decision is played; a decision the other side has
    answered, or one after which a die was rolled, is not taken back at all."""
    host, friend, made, joined = friend_game(connect, game="strike_force_one", friend="us", seed=6)
    gid = made["game"]
    assert made["view"]["can_undo"] is False
    ask(host, cmd="play", game=gid, action="sov.A")
    asked = ask(host, cmd="undo", game=gid)
    assert asked["takeback"] == "asked" and asked["undone"] == 0 and asked["view"]["undo_asked"] == "soviet"
    theirs = ask(friend, cmd="view", game=gid)["view"]
    assert theirs["undo_asked"] == "soviet" and theirs["decisions"] == 1
    declined = ask(friend, cmd="undo", game=gid, decline=True)
    assert declined["takeback"] == "declined" and declined["view"]["undo_asked"] is None
    assert ask(host, cmd="view", game=gid)["view"]["decisions"] == 1
    assert ask(host, cmd="undo", game=gid)["takeback"] == "asked"
    assert "no takeback request" in ask(host, cmd="undo", game=gid, decline=True)["error"]  # not its own
    made_it = ask(friend, cmd="undo", game=gid)
    assert made_it["takeback"] == "made" and made_it["undone"] == 1 and made_it["view"]["takebacks"] == 1
    mine = ask(host, cmd="view", game=gid)["view"]
    assert mine["decisions"] == 0 and mine["takebacks"] == 1 and mine["your_turn"] and mine["undo_asked"] is None
    ask(host, cmd="play", game=gid, action="sov.A")
    assert ask(host, cmd="undo", game=gid)["takeback"] == "asked"
    ask(host, cmd="play", game=gid, action=ask(host, cmd="view", game=gid)["view"]["legal"][0]["action"])  # lapses
    assert ask(friend, cmd="view", game=gid)["view"]["undo_asked"] is None
    assert ask(friend, cmd="undo", game=gid)["error"].startswith("nothing to undo")  # the friend asks for nothing
    view = ask(host, cmd="view", game=gid)["view"]
    while view["your_turn"]:  # the Soviets end their turn; the U.S. answer with a decision of their own
        actions = [choice["action"] for choice in view["legal"]]
        view = ask(host, cmd="play", game=gid, action="pass" if "pass" in actions else actions[0])["view"]
    theirs = ask(friend, cmd="view", game=gid)["view"]
    assert theirs["your_turn"] and theirs["side"] == "us"
    ask(friend, cmd="play", game=gid, action=theirs["legal"][0]["action"])
    late = ask(host, cmd="undo", game=gid)
    assert not late["ok"] and late["error"].startswith("undo refused: us has decided since"), late
    assert ask(friend, cmd="undo", game=gid)["takeback"] == "asked"  # its own last decision: it may ask
    assert ask(host, cmd="undo", game=gid, decline=True)["takeback"] == "declined"
    rng = random.Random(1)
    for _ in range(400):  # on until a decision rolls a die: that one is never taken back
        view = ask(host, cmd="view", game=gid)["view"]
        assert not view["terminal"], "no die was rolled: pick another seed"
        c = host if view["your_turn"] else friend
        mover = view if c is host else ask(friend, cmd="view", game=gid)["view"]
        r = ask(c, cmd="play", game=gid, action=rng.choice(mover["legal"])["action"], since=mover["events_total"])
        if any(e["kind"] == "dice_rolled" for e in r["view"]["events"]):
            undo = ask(c, cmd="undo", game=gid)
            assert not undo["ok"] and undo["error"].startswith("undo refused: since that decision a die was rolled"), undo
            break
    else:
        raise AssertionError("no die was rolled")
    ask(host, cmd="resign", game=gid, side="soviet")
    assert ask(friend, cmd="undo", game=gid)["error"].startswith("the game is over")


def test_a_friend_game_is_saved_once_over_and_its_seed_mixes_server_entropy(connect):
    """The host's seed does not fix the dice of a game against a friend (the host could work out the rolls
    to come otherwise): it is mixed with server entropy, revealed in the record at the end. Until then
    neither player can save (the record holds both sides' secrets); after it, both can."""
    records = []
    for _ in range(2):
        host, friend, made, joined = friend_game(connect, game="strike_force_one", friend="us", seed=77)
        gid = made["game"]
        for c in (host, friend):
            r = ask(c, cmd="save", game=gid)
            assert not r["ok"] and "saved once it is over" in r["error"]
        for action in ("sov.A", "0703", "pass"):
            assert ask(host, cmd="play", game=gid, action=action)["ok"]
        assert ask(friend, cmd="resign", game=gid, side="us")["ok"]
        saves = [ask(c, cmd="save", game=gid) for c in (host, friend)]
        assert saves[0]["record"] == saves[1]["record"]
        records.append(json.loads(saves[0]["record"]))
    for record in records:
        seed = record["session"]["seed"]
        assert seed["client"] == 77 and seed["effective"] != 77 and len(seed["server_entropy"]) >= 32
        assert record["session"]["seats"] == {"soviet": "front end", "us": "friend"}
        assert State.from_json(json.dumps(record)).digest() == record["final"]["digest"]  # replays exactly
    assert records[0]["session"]["seed"]["effective"] != records[1]["session"]["seed"]["effective"]
    loaded = ask(connect(), cmd="load", record=json.dumps(records[0]))  # a finished record: a game to look at
    assert loaded["ok"] and loaded["view"]["terminal"] and set(loaded["sides"].values()) == {"front end"}


def test_the_host_leaving_ends_the_game_for_everyone(connect):
    host, friend, made, joined = friend_game(connect, game="strike_force_one", friend="us", seed=8)
    gid = made["game"]
    watcher = connect()
    ask(watcher, cmd="join", token=made["watch"])
    assert {g["role"] for c in (host, friend, watcher) for g in ask(c, cmd="games")["games"]} == {"host", "friend", "spectator"}
    if isinstance(host, Socket):
        host.close()  # a WebSocket's games are forgotten when it closes
        assert _eventually(lambda: not ask(friend, cmd="view", game=gid)["ok"])
    else:
        assert ask(host, cmd="close", game=gid)["ok"]
    for c in (friend, watcher):
        assert ask(c, cmd="view", game=gid)["error"].startswith("no game") and ask(c, cmd="games")["games"] == []
    assert ask(connect(), cmd="join", token=joined["rejoin"])["error"] == NO_LINK


def _eventually(test, seconds: float = 5.0) -> bool:
    import time

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if test():
            return True
        time.sleep(0.05)
    return False
