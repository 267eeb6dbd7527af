"""The browser board in a real browser: Debian's chromium driven by Selenium through chromedriver.

One whole game of Strike Force One is played by clicking the page (units, hexes, buttons and
the reaction dialog), with an undo and a save on the way; then a Lost & Found game as the USMC
checks that no hidden Taliban unit ever reaches the page, and a "Hedgerow Hamlet" game watched as
the US that its tanks are drawn and no card of the German Fog of War hand reaches the page. Skipped, saying so, where chromium or
chromedriver is not installed (``.ci/run`` installs them). ``FOF_SCREENSHOTS=DIR`` saves PNGs.
"""

from __future__ import annotations

import json
import os
import shutil
import time

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="the browser test needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)",
)


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--window-size=1300,1000", "--disable-dev-shm-usage",
    ):  # fmt: skip
        opts.add_argument(arg)
    driver = webdriver.Chrome(options=opts, service=Service(CHROMEDRIVER))
    yield driver
    driver.quit()


def _body(driver, name: str) -> str | None:
    return driver.find_element("tag name", "body").get_attribute(f"data-{name}")


def _wait(driver, test, timeout: float = 15.0) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, timeout, poll_frequency=0.02).until(lambda d: test(d))


def _click(driver, element) -> None:
    """A real mouse click (press and release through the browser's input pipeline, hit-tested
    like a person's) at the centre of ``element``; a unit counter standing on a hex takes it."""
    x, y = driver.execute_script(
        "const e = arguments[0]; e.scrollIntoView({block: 'nearest'}); const r = e.getBoundingClientRect();"
        "return [r.left + r.width / 2, r.top + r.height / 2];",
        element,
    )
    for kind in ("mousePressed", "mouseReleased"):
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})


_FIRST_CLICKABLE = """return [...document.querySelectorAll('[data-action]')].find(
    (e) => e.getClientRects().length > 0 && !e.closest('dialog:not([open])'));"""


def _first_clickable(driver):
    """The first element of the page that plays an action and can be seen (one round trip)."""
    return driver.execute_script(_FIRST_CLICKABLE)


def _state(driver) -> dict:
    return driver.execute_script("return {...document.body.dataset}")


def _after(driver, decisions: str) -> None:
    """Wait until the page shows a later decision (or the end)."""
    _wait(driver, lambda d: (lambda s: s.get("busy") != "1" and (s.get("decisions") != decisions or s.get("terminal") == "1"))(_state(d)))


def _open(driver, server: str, game: str, sides: dict[str, str], seed: int) -> None:
    driver.get(f"http://{server}/?game={game}")
    _wait(driver, lambda d: _body(d, "ready") == "1")
    seed_box = driver.find_element("id", "seed")
    seed_box.clear()
    seed_box.send_keys(str(seed))
    for side, spec in sides.items():
        box = driver.find_element("id", f"side-{side}")
        box.clear()
        box.send_keys(spec)
    driver.find_element("id", "new-button").click()
    _wait(driver, lambda d: "decisions" in _state(d))  # the game's first view is on the page


def _shoot(driver, name: str) -> None:
    folder = os.environ.get("FOF_SCREENSHOTS")
    if folder:
        driver.save_screenshot(os.path.join(folder, name))


def test_a_whole_game_through_the_page(browser, server):
    driver = browser
    start = time.perf_counter()
    _open(driver, server, "strike_force_one", {"soviet": "you", "us": "random"}, seed=3)
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


def test_hidden_units_never_reach_the_page(browser, server):
    from evaluation.match import build_agent
    from fof_env.app.session import GameSession
    from fof_env.core.registry import make_game

    game = make_game("lost_and_found")
    session = GameSession(game.new_initial_state(3), {0: "heuristic"}, seed=3, make_agent=lambda s, g, p, x: build_agent(s, g, p, x))
    while session.state.current_player == 0:  # the Taliban's secret set-up, as the server's bot plays it
        session.apply(session.agents[0].act(session.state), "bot")
    hidden = [session.state.action_to_str(324 + u) for u in range(5) if session.state.hidden[u]]
    assert hidden
    driver = browser
    _open(driver, server, "lost_and_found", {"taliban": "heuristic", "usmc": "you"}, seed=3)
    for _ in range(3):  # attach the leader, set up two fire teams (the third starts turn 1)
        decisions = _body(driver, "decisions")
        _click(driver, _first_clickable(driver))
        _after(driver, decisions)
    _shoot(driver, "lost_and_found.png")
    received = driver.execute_script("return window.fofReceived")
    assert len(received) >= 5
    for text in received:
        for name in hidden:
            assert f'"{name}"' not in text, name
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


def _german_hands(seed: int) -> dict[int, tuple[str, ...]]:
    """The German Fog of War hand (card keys and names) after each decision of the heuristic-against-heuristic
    "Hedgerow Hamlet" game of ``seed``, replayed here as the server's bots play it."""
    from evaluation.match import build_agent
    from fof_env.app.session import GameSession
    from fof_env.core.registry import make_game
    from fof_env.force_on_force.rules.wwii_fog import card_specs

    game = make_game("wwii_hedgerow_hamlet")
    session = GameSession(game.new_initial_state(seed), {0: "heuristic", 1: "heuristic"}, seed=seed,
                          make_agent=lambda s, g, p, x: build_agent(s, g, p, x))  # fmt: skip
    hands = {}
    while not session.state.is_terminal:
        session.apply(session.agents[session.state.current_player].act(session.state), "bot")
        specs = [card_specs()[c] for c in session.state.cards.hands[1]]
        hands[len(session.state.history)] = tuple(x for c in specs for x in (c.key, c.name))
    return hands


def test_a_wwii_game_draws_its_tanks_and_never_shows_the_german_hand(browser, server):
    """"Hedgerow Hamlet" bot against bot, watched as the US: the Sherman (and the German tanks once seen) are
    drawn as vehicles (squares), nothing else is, and no message reaching the US page names a card while it is in the German hand
    (seed 14: the Germans draw An Excellent Position and hold it for a while)."""
    from fof_env.core.registry import make_game

    seed = 14
    hands = _german_hands(seed)
    assert any(hands.values())  # the Germans hold a card for a while
    driver = browser
    start = time.perf_counter()
    _open(driver, server, "wwii_hedgerow_hamlet", {"us": "heuristic", "ger": "heuristic"}, seed=seed)
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

    _wait(driver, ended, timeout=40)
    _shoot(driver, "wwii_hedgerow_hamlet.png")
    assert driver.find_element("id", "status").text.startswith("Game over: ")
    layout = make_game("wwii_hedgerow_hamlet").layout
    assert "us.Sherman" in tanks and tanks <= {u for u, afv in zip(layout.unit_names, layout.vehicles, strict=True) if afv}
    checked = 0
    views = [(text, json.loads(text).get("view")) for text in driver.execute_script("return window.fofReceived")]
    views = [(text, view) for text, view in views if view]
    assert views[0][1]["decisions"] == 0 and not hands.get(0)  # the Germans' first view: nothing held yet
    for text, view in views[1:]:
        assert view["side"] == "us"
        for secret in hands.get(view["decisions"], ()):
            checked += 1
            assert secret not in text, (view["decisions"], secret)
    assert checked  # some messages came while the Germans held a card
    assert views[-1][1]["decisions"] == max(hands)  # the page played the game replayed here
    assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []
    print(f"wwii game in the browser: {time.perf_counter() - start:.1f} s, tanks drawn {sorted(tanks)}")
