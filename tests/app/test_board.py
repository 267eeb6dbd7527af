"""The board a wargamer reads, in a real browser (Debian's chromium through Selenium), and its replay viewer.

Each test sets up what it checks (a game from the form, or a position sent with ``new``) on one server and
one browser for the module: hot seat hands the page to the side that decides; the log keeps the order of
play; counters carry the scenario's names and colours, stacks fan out, a selected unit shows its range and
line of sight; every attack shows its odds; victory conditions, the score in words, the legend and the card
hand are on the page; reactions do not cover the status line; the new-game form fits 1024 x 700; and a
finished game replays (from the page, an uploaded record, or a report's page opened from disk).
``FOF_SCREENSHOTS=DIR`` saves the screenshots of docs/screenshots.
"""

from __future__ import annotations

import json
from functools import cache

import pytest

import agents
import fof_env
from tests.app.browser import after, body, click, needs_browser, open_game, page_state, shoot, wait
from tests.app.test_views import HEDGEROW_STACK
from tests.force_on_force.hedgerow_helpers import deck_with

pytestmark = needs_browser

LAF_TURN_2 = {  # Lost & Found, turn 2: the Taliban teams 1 and 3 in sight of the Marines, 2 and 4 Hidden
    "turn": 2, "initiative": "usmc", "leader": "usmc.A", "must_fire_first": False,
    "units": {"tal.1": {"at": "x19y11", "figures": {"ok": 7}}, "tal.2": {"at": "x19y25", "figures": {"ok": 8}, "status": ["hidden"]},
              "tal.3": {"at": "x15y17", "figures": {"ok": 5}}, "tal.4": {"at": "x13y31", "figures": {"ok": 7}, "status": ["hidden"]},
              "usmc.A": {"at": "x07y17", "figures": {"ok": 5}}, "usmc.B": {"at": "x07y13", "figures": {"ok": 4}},
              "usmc.C": {"at": "x07y21", "figures": {"ok": 4}}},
    "pilot": {"at": "x21y17", "with": None, "contact": False, "exited_turn": 0},
}  # fmt: skip


def start(driver, server: str, msg: dict) -> None:
    """A game on the page from any ``new`` message (a position, bots), as the page's form sends it."""
    driver.get(f"http://{server}/?game={msg['game']}")
    wait(driver, lambda d: body(d, "ready") == "1")
    driver.execute_script("startGame(arguments[0])", {"cmd": "new", "practice": True, **msg})  # the seed as given
    wait(driver, lambda d: page_state(d).get("decisions") is not None and page_state(d).get("busy") != "1")


def texts(driver, css: str) -> list[str]:
    return driver.execute_script(f"return [...document.querySelectorAll({css!r})].map((e) => e.textContent)")


def no_errors(driver) -> None:
    assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []


def test_hot_seat_hands_the_page_to_the_side_that_decides(browser, server):
    """Both sides "you": when the Soviets end their movement phase the page turns to the U.S. view, with
    its units to choose, and back to the Soviets at turn 2."""
    d = browser
    open_game(d, server, "strike_force_one", {"soviet": "you", "us": "you"}, seed=1)
    assert (page_state(d)["side"], page_state(d)["yourTurn"]) == ("soviet", "1")
    assert d.find_element("id", "hotseat").is_displayed()
    click(d, d.find_element("css selector", "#actions button[data-action='pass']"))  # end the movement phase
    wait(d, lambda x: (page_state(x)["side"], page_state(x)["yourTurn"]) == ("us", "1"))
    assert d.find_elements("css selector", ".counter.legal[data-unit^='us.']")
    assert "us to play" in d.find_element("id", "hotseat").text
    assert "Waiting" not in d.find_element("id", "prompt").text
    shoot(d, "board_hot_seat.png")
    click(d, d.find_element("css selector", "#actions button[data-action='pass']"))
    wait(d, lambda x: (page_state(x)["side"], page_state(x)["yourTurn"]) == ("soviet", "1"))
    assert "turn 2" in d.find_element("id", "status").text
    no_errors(d)


def test_the_log_keeps_the_order_of_play(browser, server):
    """The Soviets end their move; the U.S. bot plays its turn: every bot decision comes after "=== Turn 1: us
    move ===" and before "=== Turn 2: soviet move ===", not all at the top of the reply."""
    d = browser
    open_game(d, server, "strike_force_one", {"soviet": "you", "us": "heuristic"}, seed=3, practice=True)
    decisions = page_state(d)["decisions"]
    click(d, d.find_element("css selector", "#actions button[data-action='pass']"))
    after(d, decisions)
    lines = [t.strip() for t in texts(d, "#log li")]
    us_move, soviet_move = lines.index("=== Turn 1: us move ==="), lines.index("=== Turn 2: soviet move ===")
    bots = [i for i, line in enumerate(lines) if line.startswith("[us bot]")]
    assert bots and us_move < min(bots) and max(bots) < soviet_move
    assert lines.index("[soviet] select_unit: pass") < us_move
    moved = next(i for i, line in enumerate(lines) if line.startswith("us.") and " moves " in line)
    assert min(bots) < moved  # the bot's choice, then what it did


def test_counters_stacks_and_line_of_sight(browser, server):
    """Hedgerow Hamlet: counters read the scenario's unit ids ("Sherman", "BAR"), drawn in its colours; three
    teams on one point fan out so each can be seen and clicked; a team out of action is faded and crossed;
    clicking a counter with no choice shows its Optimum Range and the enemy it sees (12" to ger.1)."""
    d = browser
    units = {**HEDGEROW_STACK["units"], "us.HQ": {"at": "x05y13", "figures": {"kia": 2}}}
    start(d, server, {"game": "wwii_hedgerow_hamlet", "position": {**HEDGEROW_STACK, "units": units}, "bots": {"ger": "heuristic"}})
    labels = set(texts(d, "#board text.token-label"))
    assert {"A", "B", "BAR", "Sherman", "HQ", "Doc", "MG", "PzIV"} <= labels and not {"TA", "TSherman", "UMG"} & labels
    fills = d.execute_script("return Object.fromEntries([...document.querySelectorAll('#board [data-unit]')]"
                             ".map((e) => [e.dataset.unit, e.getAttribute('fill')]))")
    assert fills["us.Sherman"] == fills["us.A"] == "#3a6030" and fills["ger.PzIV"] == "#52606e"
    boxes = d.execute_script(
        "return ['us.A', 'us.B', 'us.BAR'].map((id) => { const e = document.querySelector(`#board [data-unit='${id}']`);"
        " const r = e.getBoundingClientRect(); const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
        " return [r.left, r.top, r.right, r.bottom, hit && hit.dataset.unit]; })"
    )
    for i, (x0, y0, x1, y1, hit) in enumerate(boxes):
        assert hit == ["us.A", "us.B", "us.BAR"][i]  # its centre is its own: it takes the click
        for a0, b0, a1, b1, _ in boxes[i + 1:]:  # discs: centres at least a diameter apart
            gap = ((x0 + x1 - a0 - a1) ** 2 + (y0 + y1 - b0 - b1) ** 2) ** 0.5 / 2
            assert gap >= (x1 - x0 + a1 - a0) / 2 - 0.5
    hq = d.find_element("css selector", "#board [data-unit='us.HQ']")
    assert "out" in hq.get_attribute("class").split() and d.find_elements("css selector", "#board .out-cross")
    decisions = page_state(d)["decisions"]
    click(d, d.find_element("css selector", "#board [data-unit='us.B']"))  # activate the middle team of the stack
    after(d, decisions)
    assert page_state(d)["kind"] == "choose_action"
    click(d, d.find_element("css selector", "#board [data-unit='us.A']"))  # no choice now: inspect it
    wait(d, lambda x: x.find_element("id", "inspect").is_displayed())
    panel = d.find_element("id", "inspect").text
    assert "Rifle Team Able (us.A, us)" in panel and 'In line of sight: ger.1 at 12"' in panel and 'Optimum range 8"' in panel
    assert len(d.find_elements("css selector", "#board line.sight")) == 1 and d.find_elements("css selector", "#board .range-ring")
    assert '12"' in texts(d, "#board text.sight-label")
    legend = d.find_element("id", "legend").text
    assert "Pin: Pinned" in legend and "OW: Overwatch" in legend and "out of action" in legend and "vehicle" in legend
    shoot(d, "board_stack_sight.png")
    no_errors(d)


def test_every_strike_force_one_attack_shows_its_odds(browser, server):
    """Two Soviet units next to one U.S. unit: the target's row reads 2 vs 1, +1, DE 17% DR 33% AR 33% AE 17%
    (the Combat Results Table's "Two (+1)" column); once declared, adding one unit reads +0; the victory
    conditions and the score are in words."""
    d = browser
    position = {"turn": 1, "phase": "soviet_combat",
                "units": {"soviet": {"A": "0503", "B": "0604"}, "us": {"A": "0504", "B": "0109"}}}
    start(d, server, {"game": "strike_force_one", "position": position, "bots": {"us": "heuristic"}})
    assert page_state(d)["kind"] == "attack_target"
    rows = d.execute_script("return [...document.querySelectorAll('#preview table.odds tr')].map((r) => [...r.cells].map((c) => c.textContent))")
    assert rows[0] == ["attack", "units vs defense", "diff.", "DE", "DR", "AR", "AE"]
    assert rows[1] == ["0504", "2 vs 1", "+1", "17%", "33%", "33%", "17%"]
    decisions = page_state(d)["decisions"]
    click(d, d.find_element("css selector", "#board polygon[data-hex='0504']"))
    after(d, decisions)
    rows = d.execute_script("return [...document.querySelectorAll('#preview table.odds tr')].map((r) => [...r.cells].map((c) => c.textContent))")
    assert ["0503", "1 vs 1", "+0", "0%", "33%", "33%", "33%"] in rows
    d.find_element("css selector", "#victory-box summary").click()
    assert "at least two of the three towns" in d.find_element("id", "victory").text
    assert d.find_element("id", "score").text.startswith("Soviets hold 0 of 3 towns")
    assert "town (T: victory hex)" in d.find_element("id", "legend").text
    shoot(d, "board_sfo_odds.png")
    no_errors(d)


def test_fire_odds_and_reactions_below_the_status_line(browser, server):
    """Lost & Found: the USMC's fire targets show firepower, defence and expected casualties; when the Taliban
    act first the USMC's interrupt comes as a dialog that leaves the status line in sight."""
    d = browser
    start(d, server, {"game": "lost_and_found", "position": LAF_TURN_2, "bots": {"taliban": "heuristic"}})
    for action in ("usmc.A", "fire"):
        decisions = page_state(d)["decisions"]
        d.execute_script("play(arguments[0])", action)
        after(d, decisions)
    assert page_state(d)["kind"] == "fire_target"
    header = texts(d, "#preview table.odds tr:first-child th")
    assert header == ["target", "firepower", "defense", "exp. casualties", "P(≥1)"]
    assert [r[0] for r in d.execute_script("return [...document.querySelectorAll('#preview tr')].slice(1).map((r) => [...r.cells].map((c) => c.textContent))")] == ["tal.1", "tal.3"]
    shoot(d, "board_fof_fire_odds.png")
    start(d, server, {"game": "lost_and_found", "position": {**LAF_TURN_2, "initiative": "taliban"}, "bots": {"taliban": "heuristic"}})
    wait(d, lambda x: page_state(x).get("kind") == "declare_interrupt")
    dialog, status = (d.execute_script("const r = document.getElementById(arguments[0]).getBoundingClientRect(); return [r.top, r.bottom];", i)
                      for i in ("reaction", "status"))
    assert d.find_element("id", "reaction").is_displayed() and dialog[0] >= status[1]
    assert "tal.2" not in d.find_element("id", "reaction").text  # a Hidden team is nowhere on the page
    shoot(d, "board_reaction.png")
    no_errors(d)


def test_the_fog_of_war_hand_is_shown_to_its_owner(browser, server):
    """Hedgerow Hamlet watched as the Germans, from a position where they hold An Excellent Position: their
    hand is on the page, by name; the U.S. page shows only how many cards they hold."""
    d = browser
    deck = deck_with("excellent_position")[1:]  # every other card stays in the deck
    position = {**HEDGEROW_STACK, "fog_cards": {"deck": deck, "hands": {"us": [], "ger": ["excellent_position"]}}}
    start(d, server, {"game": "wwii_hedgerow_hamlet", "position": position,
                      "bots": {"us": "heuristic", "ger": "heuristic"}})  # fmt: skip
    d.execute_script("const w = document.getElementById('watch-side'); w.value = 'ger'; w.dispatchEvent(new Event('change'));")
    wait(d, lambda x: page_state(x).get("side") == "ger")
    own = d.execute_script("const e = document.getElementById('own-hand'); return e ? e.textContent : ''")
    assert own.startswith("Your hand (ger): ") and "An Excellent Position" in own
    shoot(d, "board_wwii_hand.png")
    d.execute_script("const w = document.getElementById('watch-side'); w.value = 'us'; w.dispatchEvent(new Event('change'));")
    wait(d, lambda x: page_state(x).get("side") == "us")
    hand = d.execute_script("return document.getElementById('hand').textContent")
    assert "An Excellent Position" not in hand and "The enemy holds 1" in hand and "Your hand (us): " in hand


def test_a_game_just_played_replays_with_a_move_list(browser, server):
    """Bot against bot to the end, then "Replay this game": the move list has every decision, the buttons and
    the arrow keys step through it, a turn can be jumped to, the last decision is marked on the board, and
    the umpire's view or either side's can be chosen."""
    d = browser
    open_game(d, server, "strike_force_one", {"soviet": "random", "us": "heuristic"}, seed=4, practice=True)
    d.execute_script("document.getElementById('speed').value = '0'")
    d.find_element("id", "watch-button").click()
    wait(d, lambda x: page_state(x).get("terminal") == "1", timeout=30)
    total = int(page_state(d)["decisions"])
    d.find_element("id", "replay-button").click()
    wait(d, lambda x: page_state(x).get("replay") == "1")
    assert [o.get_attribute("value") for o in d.find_elements("css selector", "#replay-viewer option")] == ["umpire", "soviet", "us"]
    assert len(d.find_elements("css selector", "#moves li.move")) == total and page_state(d)["step"] == "0"
    d.find_element("id", "replay-next").click()
    d.find_element("id", "replay-next").click()
    assert page_state(d)["step"] == "2" and d.find_element("css selector", "#moves li.move.current").get_attribute("data-step") == "2"
    d.find_element("tag name", "body").send_keys("\ue012")  # the left arrow key
    assert page_state(d)["step"] == "1"
    turn = d.find_element("css selector", "#replay-turn option[value]:nth-child(3)")  # turn 2
    d.execute_script("const s = document.getElementById('replay-turn'); s.value = arguments[0]; s.dispatchEvent(new Event('change'));",
                     turn.get_attribute("value"))
    assert page_state(d)["step"] == turn.get_attribute("value") and "turn 2" in d.find_element("id", "status").text
    move = d.find_elements("css selector", "#moves li.move")[20]
    move.click()
    assert page_state(d)["step"] == move.get_attribute("data-step")
    step = next(int(li.get_attribute("data-step")) for li in d.find_elements("css selector", "#moves li.move") if "move target" in li.text)
    d.execute_script("gotoStep(arguments[0])", step)
    assert d.find_elements("css selector", "#board .last-move") or d.find_elements("css selector", "#board .last-ring")
    shoot(d, "board_replay.png")
    d.find_element("id", "replay-last").click()
    assert page_state(d)["terminal"] == "1" and "wins" in d.find_element("id", "status").text
    d.execute_script("const s = document.getElementById('replay-viewer'); s.value = 'us'; s.dispatchEvent(new Event('change'));")
    assert page_state(d)["viewer"] == "us" and len(d.find_elements("css selector", "#moves li.move")) == total
    no_errors(d)


@cache
def _record(name: str, seed: int, stop: int | None = None) -> str:
    game = fof_env.make_game(name)
    state = game.new_initial_state(seed)
    bots = [agents.make_agent("heuristic", game, p, seed=p) for p in (0, 1)]
    while not state.is_terminal and (stop is None or len(state.history) < stop):
        state.apply(bots[state.current_player].act(state))
    return state.to_json()


def test_an_uploaded_record_opens_on_the_viewer(browser, server, tmp_path):
    """A finished record replays with the umpire's view; an unfinished one as each side saw it, and can be
    played on from its last position."""
    d = browser
    d.get(f"http://{server}/")
    wait(d, lambda x: body(x, "ready") == "1")
    done, cut = tmp_path / "done.json", tmp_path / "cut.json"
    done.write_text(_record("fubar_village_patrol", 2))
    cut.write_text(_record("lost_and_found", 3, stop=30))
    d.find_element("id", "record-file").send_keys(str(done))
    wait(d, lambda x: page_state(x).get("replay") == "1")
    assert [o.get_attribute("value") for o in d.find_elements("css selector", "#replay-viewer option")] == ["umpire", "patrol", "insurgents"]
    assert not d.find_element("id", "continue-button").is_displayed()
    d.find_element("id", "record-file").send_keys(str(cut))
    wait(d, lambda x: "not finished" in x.find_element("id", "replay-title").text)
    assert [o.get_attribute("value") for o in d.find_elements("css selector", "#replay-viewer option")] == ["taliban", "usmc"]
    d.find_element("id", "continue-button").click()
    from fof_env.app.protocol import Engine  # the view the page continues from: the side to move's count

    shown = Engine().handle({"cmd": "new", "id": 1, "record": json.loads(cut.read_text())}, owner="test")["view"]
    wait(d, lambda x: page_state(x).get("replay") == "0" and page_state(x).get("decisions") == str(shown["decisions"]))
    no_errors(d)


def test_a_reports_replay_page_opens_from_disk(browser, tmp_path):
    """A report's replay page (evaluation.replay_page) opened as a file: no server, the same viewer."""
    from evaluation.replay_page import replay_page, write_viewer

    viewer = write_viewer(tmp_path)
    page = replay_page(json.loads(_record("lost_and_found", 3)), tmp_path / "replays" / "game.html", viewer)
    d = browser
    d.get(page.as_uri())
    wait(d, lambda x: body(x, "ready") == "1")
    assert "static-replay" in d.find_element("tag name", "body").get_attribute("class")
    assert not d.find_element("tag name", "header").is_displayed()
    total = len(json.loads(_record("lost_and_found", 3))["actions"])
    assert len(d.find_elements("css selector", "#moves li.move")) == total
    d.find_element("id", "replay-last").click()
    assert page_state(d)["step"] == str(total) and "taliban" in d.find_element("id", "replay-viewer").text
    no_errors(d)


def test_the_new_game_form_fits_a_small_screen(browser, server):
    """At 1024 x 700: nothing runs off the side; Strike Force One is the first game offered, by its name;
    a check box comes before its words."""
    d = browser
    try:
        d.set_window_size(1024, 700)
        d.get(f"http://{server}/")
        wait(d, lambda x: body(x, "ready") == "1")
        select = d.find_element("id", "game-select")
        assert select.get_attribute("value") == "strike_force_one"
        assert "Force on Force WWII: Hedgerow Hamlet (wwii_hedgerow_hamlet)" in select.text
        d.execute_script("const s = document.getElementById('game-select'); s.value = 'lost_and_found'; s.dispatchEvent(new Event('change'));")
        first = d.execute_script("const l = document.querySelector('#option-fields input[type=checkbox]').parentElement;"
                                 " return [l.firstElementChild.tagName, l.textContent.trim()];")
        assert first == ["INPUT", "fog of war"]
        open_game(d, server, "lost_and_found", {"taliban": "heuristic", "usmc": "you"}, seed=3)
        assert d.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
        shoot(d, "board_small_screen.png")
    finally:
        d.set_window_size(1300, 1000)


def test_fof_replay_serve_opens_the_record_on_the_page(browser, tmp_path):
    """``fof replay RECORD --serve``: it verifies the record, then the address it prints opens the record on
    the replay viewer (and no other id)."""
    import os
    import subprocess
    import sys
    import urllib.error
    import urllib.request

    from tests.app.conftest import stop_server

    path = tmp_path / "game.json"
    path.write_text(_record("strike_force_one", 2))
    proc = subprocess.Popen([sys.executable, "-m", "fof_env.cli", "replay", str(path), "--quiet", "--serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        lines = [proc.stdout.readline() for _ in range(4)]
        assert lines[0].startswith("Result: ") and lines[1].startswith("Verified: ")
        assert lines[2].startswith("fof serve: board http://127.0.0.1:") and lines[3].startswith("replay: ")
        url = lines[3].split(" ", 1)[1].strip()
        assert url.endswith("/?replay=r1")
        with pytest.raises(urllib.error.HTTPError, match="404"):
            urllib.request.urlopen(url.replace("/?replay=r1", "/replay/r2"))
        d = browser
        d.get(url)
        wait(d, lambda x: page_state(x).get("replay") == "1")
        total = len(json.loads(path.read_text())["actions"])
        assert len(d.find_elements("css selector", "#moves li.move")) == total
        assert d.find_element("id", "replay-title").text.startswith("Replay: Strike Force One")
        no_errors(d)
    finally:
        stop_server(proc)
