"""The browser board in a real browser: Debian's chromium driven by Selenium through chromedriver.

One whole game of Strike Force One is played by clicking the page (units, hexes, buttons and
the reaction dialog), with an undo and a save on the way; then a Lost & Found game as the USMC
checks that no hidden Taliban unit ever reaches the page, and a "Hedgerow Hamlet" game watched as
the US that its tanks are drawn and no card of the German Fog of War hand reaches the page. Skipped, saying so, where chromium or
chromedriver is not installed (``.ci/run`` installs them). ``FOF_SCREENSHOTS=DIR`` saves PNGs.
"""

from __future__ import annotations

import json
import time

from tests.app.browser import after as _after
from tests.app.browser import body as _body
from tests.app.browser import click as _click
from tests.app.browser import first_clickable as _first_clickable
from tests.app.browser import needs_browser
from tests.app.browser import open_game as _open
from tests.app.browser import page_state as _state
from tests.app.browser import shoot as _shoot
from tests.app.browser import wait as _wait

pytestmark = needs_browser


def test_a_whole_game_through_the_page(browser, server):
    driver = browser
    start = time.perf_counter()
    _open(driver, server, "strike_force_one", {"soviet": "you", "us": "random"}, seed=3, practice=True)
    assert driver.find_elements("css selector", ".counter.legal[data-unit='sov.A']")  # units to pick
    clicks = undone = 0
    kinds = set()
    while True:
        page = _state(driver)
        if page.get("terminal") == "1":
            break
        assert clicks < 400, "the game did not end"
        decisions = page["decisions"]
        kinds.add(page.get("kind", ""))
        if clicks == 3 and not undone:
            driver.find_element("id", "undo-button").click()
            _after(driver, decisions)
            undone = 1
            continue
        if clicks == 20:
            _shoot(driver, "strike_force_one.png")
        target = _first_clickable(driver)
        assert target is not None, f"nothing to click: {page}"
        _click(driver, target)
        clicks += 1
        _after(driver, decisions)
    status = driver.find_element("id", "status").text
    assert status.startswith("Game over: ") and ("soviet wins" in status or "us wins" in status)
    assert {"select_unit", "move_target", "attack_target", "attack_add", "advance", "retreat_hex"} <= kinds, kinds  # reactions: the dialog
    assert undone and driver.find_element("id", "log").text.count("===") >= 4
    driver.find_element("id", "save-button").click()
    _wait(driver, lambda d: d.find_element("id", "download-record").is_displayed())
    assert driver.find_element("id", "save-id").get_attribute("value").startswith("s")
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []
    assert time.perf_counter() - start < 30


def _secrets_by_count(record: str, side: str, secrets) -> dict[int, set[str]]:
    """For each number of decisions ``side`` has been shown in the finished game ``record``, the
    names ``secrets(state)`` gives at the last point where ``side`` had been shown that many: where the
    game rested when the page got a view with that count (a bot's secret decisions after a decision
    the page was shown are played before the reply). The record is the ground truth, revealed at the end."""
    from fof_env.core.dice import ScriptedDice
    from fof_env.core.game import record_data
    from fof_env.core.registry import make_game
    from fof_env.core.view import EventLog

    data = record_data(record)
    game = make_game(data["game"], **data["options"])
    p = game.player_index(side)
    state = game.state_from_position(data["start"], dice=ScriptedDice(list(data["rolls"])))
    log = EventLog(state)
    out: dict[int, set[str]] = {}

    def note() -> None:
        out[len(log.played[p])] = set(secrets(state))

    note()
    for text in data["actions"]:
        action = state.str_to_action(text)
        log.before(state, action, "record")
        state.apply(action)
        log.after(state)
        note()
    return out


def _finished_record(driver) -> str:
    """Save the finished game on the page: its record, now revealed, as the page received it."""
    driver.find_element("id", "save-button").click()
    _wait(driver, lambda d: d.find_element("id", "download-record").is_displayed())
    replies = [json.loads(t) for t in driver.execute_script("return window.fofReceived")]
    return next(r["record"] for r in reversed(replies) if r.get("cmd") == "save" and "record" in r)


def test_hidden_units_never_reach_the_page(browser, server):
    driver = browser
    _open(driver, server, "lost_and_found", {"taliban": "heuristic", "usmc": "you"}, seed=3)
    for _ in range(3):  # attach the leader, set up two fire teams (the third starts turn 1)
        decisions = _body(driver, "decisions")
        _click(driver, _first_clickable(driver))
        _after(driver, decisions)
    _shoot(driver, "lost_and_found.png")
    received = driver.execute_script("return window.fofReceived")
    assert len(received) >= 5
    driver.execute_script("window.confirm = () => true")
    driver.find_element("id", "resign-button").click()
    _wait(driver, lambda d: _state(d).get("terminal") == "1")
    record = _finished_record(driver)

    def hidden(state) -> list[str]:
        return [state.action_to_str(324 + u) for u in range(5) if state.hidden[u]]

    secret = _secrets_by_count(record, "usmc", hidden)
    checked = 0
    for text in received:
        view = json.loads(text).get("view")
        for name in secret.get(view["decisions"], ()) if view else ():
            checked += 1
            assert f'"{name}"' not in text, name
    assert checked or not any(secret.values())  # (a set-up that hid no team has nothing to check)
    units = [json.loads(t).get("view", {}).get("board", {}).get("units", []) for t in received]
    assert any(u["side"] == "usmc" for us in units for u in us)


def test_watch_bot_against_bot(browser, server):
    driver = browser
    _open(driver, server, "strike_force_one", {"soviet": "random", "us": "heuristic"}, seed=4)
    assert driver.find_element("id", "watch").is_displayed()
    driver.execute_script("document.getElementById('speed').value = '0'")
    driver.find_element("id", "watch-button").click()
    _wait(driver, lambda d: _state(d).get("terminal") == "1", timeout=25)
    assert driver.find_element("id", "status").text.startswith("Game over: ")
    assert "[us bot]" in driver.find_element("id", "log").text


def test_a_fubar_vehicle_game_draws_and_plays_to_the_end(browser, server):
    """FUBAR on the same table board: vehicles as squares, figures as discs, each side's edge named."""
    driver = browser
    _open(driver, server, "fubar_village_patrol", {"patrol": "heuristic", "insurgents": "heuristic"}, seed=1)
    driver.execute_script("document.getElementById('speed').value = '0'")
    driver.find_element("id", "watch-button").click()
    read = (  # in one go: the board redraws while the bots play
        "const b = document.getElementById('board');"
        "return {labels: [...b.querySelectorAll('text')].map((t) => t.textContent),"
        " vehicles: b.querySelectorAll('rect.token.side0').length, teams: b.querySelectorAll('circle.token.side1').length};")
    _wait(driver, lambda d: (lambda drawn: drawn["vehicles"] and drawn["teams"])(d.execute_script(read)))  # both sides set up
    _shoot(driver, "fubar_village_patrol.png")
    assert {"patrol edge", "insurgents edge"} <= set(driver.execute_script(read)["labels"])
    _wait(driver, lambda d: _state(d).get("terminal") == "1", timeout=40)
    assert driver.find_element("id", "status").text.startswith("Game over: ")
    assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []


def _german_hand(state) -> list[str]:
    """The keys and names of the cards in the German Fog of War hand."""
    from fof_env.force_on_force.rules.wwii_fog import card_specs

    specs = [card_specs()[c] for c in state.cards.hands[1]]
    return [x for c in specs for x in (c.key, c.name)]


def test_a_wwii_game_draws_its_tanks_and_never_shows_the_german_hand(browser, server):
    """"Hedgerow Hamlet" bot against bot, watched as the US: the Sherman (and the German tanks once seen) are
    drawn as vehicles (squares), nothing else is, and no message reaching the US page names a card while it
    is in the German hand (the game's record, revealed at the end, says which cards those were)."""
    from fof_env.core.registry import make_game

    driver = browser
    start = time.perf_counter()
    # a practice game keeps the seed as it is: in seed 14's game the Germans hold cards for a while
    _open(driver, server, "wwii_hedgerow_hamlet", {"us": "heuristic", "ger": "heuristic"}, seed=14, practice=True)
    driver.execute_script(  # watch as the US from now on (the first view was the Germans', who set up first)
        "const w = document.getElementById('watch-side'); w.value = 'us'; w.dispatchEvent(new Event('change'));"
    )
    _wait(driver, lambda d: d.execute_script("return window.fofReceived.length") >= 3)
    driver.execute_script("document.getElementById('speed').value = '0'")
    driver.find_element("id", "watch-button").click()
    read = (
        "const b = document.getElementById('board');"
        "return [...b.querySelectorAll('rect.token')].map((r) => r.dataset.unit);"
    )
    tanks: set[str] = set()

    def ended(d) -> bool:
        tanks.update(d.execute_script(read))
        return _state(d).get("terminal") == "1"

    _wait(driver, ended, timeout=150)  # a whole game at the page's pace: a busy machine is slow
    _shoot(driver, "wwii_hedgerow_hamlet.png")
    assert driver.find_element("id", "status").text.startswith("Game over: ")
    layout = make_game("wwii_hedgerow_hamlet").layout
    assert "us.Sherman" in tanks and tanks <= {u for u, afv in zip(layout.unit_names, layout.vehicles, strict=True) if afv}
    views = [(text, json.loads(text).get("view")) for text in driver.execute_script("return window.fofReceived")]
    views = [(text, view) for text, view in views if view]
    hands = _secrets_by_count(_finished_record(driver), "us", _german_hand)
    assert views[0][1]["side"] == "ger" and views[0][1]["decisions"] == 0  # the Germans' first view
    checked = 0
    for text, view in views[1:]:
        assert view["side"] == "us"
        for secret in hands.get(view["decisions"], ()):
            checked += 1
            assert secret not in text, (view["decisions"], secret)
    assert views[-1][1]["decisions"] == max(hands)  # the page played to the end of the record's game
    assert checked  # some messages came while the Germans held a card
    assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []
    print(f"wwii game in the browser: {time.perf_counter() - start:.1f} s, tanks drawn {sorted(tanks)}, {checked} checks")
