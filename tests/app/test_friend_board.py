"""Play a friend on the board, in a real browser (Debian's chromium through Selenium): three windows of one
browser on one ``fof serve``, each its own page and WebSocket connection: the host, the friend who opened the
host's link, and a spectator who opened the spectators' link. ``FOF_SCREENSHOTS=DIR`` saves the screenshots
of docs/screenshots.
"""

from __future__ import annotations

import json

from tests.app.browser import (
    after,
    body,
    click,
    first_clickable,
    needs_browser,
    open_game,
    page_state,
    shoot,
    wait,
)

pytestmark = needs_browser

HIDDEN = "tal.1"  # the Taliban team the friend hides


def received(driver) -> list[str]:
    return driver.execute_script("return window.fofReceived")


def play_first(driver, times: int = 1) -> None:
    """Click the first choice on the page ``times`` times, each time waiting for the next decision."""
    for _ in range(times):
        decisions = page_state(driver)["decisions"]
        click(driver, first_clickable(driver))
        after(driver, decisions)


def play(driver, action: str) -> None:
    decisions = page_state(driver)["decisions"]
    click(driver, driver.find_element("css selector", f"[data-action='{action}']"))
    after(driver, decisions)


def test_two_windows_play_lost_and_found_and_a_third_watches(browser, server):
    """The host (USMC) makes a game with the Taliban a friend's; the friend's window opens the host's link and
    sets up, hiding a team; the host's window follows (it polls), deploys, asks to take a deployment back, the
    friend agrees; the spectator's window sees the moves both sides see, never the Hidden team, with nothing
    to click. Each window acts only for its own side."""
    d = browser
    open_game(d, server, "lost_and_found", {"taliban": "friend", "usmc": "you"}, seed=5)
    host = d.current_window_handle
    assert page_state(d)["role"] == "host" and page_state(d)["yourTurn"] == "0"
    join, watch = (d.find_element("id", i).get_attribute("value") for i in ("join-link", "watch-link"))
    assert join.startswith(f"http://{server}/?join=") and watch.startswith(f"http://{server}/?watch=")
    assert "Waiting for your friend (taliban)" in d.find_element("id", "prompt").text
    assert not d.find_elements("css selector", "#board [data-action]")  # nothing of the Taliban's to click

    d.switch_to.new_window("window")
    friend = d.current_window_handle
    d.get(join)
    wait(d, lambda x: page_state(x).get("role") == "friend" and page_state(x).get("yourTurn") == "1")
    assert page_state(d)["side"] == "taliban" and page_state(d)["kind"] == "deploy"
    assert "your friend plays usmc" in d.find_element("id", "friend-bar").text

    d.switch_to.new_window("window")
    spectator = d.current_window_handle
    d.get(watch)
    wait(d, lambda x: page_state(x).get("role") == "spectator" and "decisions" in page_state(x))
    assert "(spectating)" in d.find_element("id", "status").text and not d.find_element("id", "controls").is_displayed()

    d.switch_to.window(friend)
    play_first(d, 4)  # the four teams set up, in secret
    assert page_state(d)["kind"] == "declare_hidden"
    play(d, HIDDEN)
    if page_state(d)["kind"] == "declare_hidden":
        play(d, "pass")  # done hiding
    hidden = d.execute_script("return ui.view.board.units.filter((u) => u.status.includes('hidden')).map((u) => u.id)")
    assert hidden == [HIDDEN] and page_state(d)["yourTurn"] == "0"
    d.refresh()  # a reload: the friend's page takes its seat back (the link itself is used up)
    wait(d, lambda x: page_state(x).get("role") == "friend" and page_state(x).get("side") == "taliban")
    assert d.execute_script("return ui.view.board.units.filter((u) => u.status.includes('hidden')).map((u) => u.id)") == [HIDDEN]
    shoot(d, "board_friend_taliban.png")

    d.switch_to.window(host)
    wait(d, lambda x: page_state(x).get("yourTurn") == "1")  # the host's page saw the set-up end
    set_up = len(received(d))
    play_first(d, 2)  # the squad leader joins a team; the first team deploys
    decisions = page_state(d)["decisions"]
    click(d, d.find_element("id", "undo-button"))  # "Ask to take back"
    wait(d, lambda x: page_state(x).get("undoAsked") == "usmc")
    d.switch_to.window(friend)
    wait(d, lambda x: x.find_element("id", "takeback").is_displayed())
    assert "usmc asks to take back" in d.find_element("id", "takeback").text
    click(d, d.find_element("id", "takeback-agree"))
    d.switch_to.window(host)
    wait(d, lambda x: int(page_state(x)["decisions"]) == int(decisions) - 1 and page_state(x)["undoAsked"] == "")
    play_first(d, 3)  # the three teams deploy
    assert page_state(d)["yourTurn"] == "0"
    assert not d.find_elements("css selector", f"#board [data-unit='{HIDDEN}']")
    assert not any(HIDDEN in text for text in received(d)[set_up:])  # not one message after the set-up names it
    shoot(d, "board_friend_host.png")

    d.switch_to.window(friend)
    wait(d, lambda x: page_state(x).get("yourTurn") == "1")
    play_first(d, 3)  # Overwatch declarations, each seen by the other two windows
    d.switch_to.window(host)
    wait(d, lambda x: sum('"declare_overwatch"' in t for t in received(x)[set_up:]) > 0)
    host_units = d.execute_script("return ui.view.board.units.map((u) => u.id).sort()")

    d.switch_to.window(spectator)
    wait(d, lambda x: "declare_overwatch" in x.find_element("id", "log").text)
    assert not d.find_elements("css selector", "[data-action]") and page_state(d)["yourTurn"] == "0"
    public = d.execute_script("return ui.view")
    assert public["side"] == "spectator" and public["legal"] == []
    assert sorted(u["id"] for u in public["board"]["units"]) == sorted(u for u in host_units if u != HIDDEN)
    assert not any(HIDDEN in text for text in received(d))  # the spectator never heard of the Hidden team
    assert not any(json.loads(t).get("ok") is False for t in received(d))
    shoot(d, "board_friend_spectator.png")
    assert [e for e in d.get_log("browser") if e["level"] == "SEVERE"] == []
    for handle in (spectator, friend):
        d.switch_to.window(handle)
        d.close()
    d.switch_to.window(host)
    assert body(d, "role") == "host"
