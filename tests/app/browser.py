"""Selenium helpers of the browser tests: Debian's chromium through chromedriver, real mouse clicks.

``browser`` is a module-scoped fixture (one browser per test module); ``FOF_SCREENSHOTS=DIR`` makes
:func:`shoot` save PNGs there.
"""

from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
needs_browser = pytest.mark.skipif(
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


def body(driver, name: str) -> str | None:
    return driver.find_element("tag name", "body").get_attribute(f"data-{name}")


def wait(driver, test, timeout: float = 15.0) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, timeout, poll_frequency=0.02).until(lambda d: test(d))


def click(driver, element) -> None:
    """A real mouse click (press and release through the browser's input pipeline, hit-tested
    like a person's) at the centre of ``element``; a unit counter standing on a hex takes it."""
    x, y = driver.execute_script(
        "const e = arguments[0]; e.scrollIntoView({block: 'nearest'}); const r = e.getBoundingClientRect();"
        "return [r.left + r.width / 2, r.top + r.height / 2];",
        element,
    )
    for kind in ("mousePressed", "mouseReleased"):
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})


FIRST_CLICKABLE = """return [...document.querySelectorAll('[data-action]')].find(
    (e) => e.getClientRects().length > 0 && !e.closest('dialog:not([open])'));"""


def first_clickable(driver):
    """The first element of the page that plays an action and can be seen (one round trip)."""
    return driver.execute_script(FIRST_CLICKABLE)


def page_state(driver) -> dict:
    return driver.execute_script("return {...document.body.dataset}")


def after(driver, decisions: str) -> None:
    """Wait until the page shows a later decision (or the end)."""
    wait(driver, lambda d: (lambda s: s.get("busy") != "1" and (s.get("decisions") != decisions or s.get("terminal") == "1"))(page_state(d)))


def open_game(driver, server: str, game: str, sides: dict[str, str], seed: int, practice: bool = False) -> None:
    """A new game from the page's form; ``practice``: the seed as it is (the same game every run)."""
    driver.get(f"http://{server}/?game={game}")
    wait(driver, lambda d: body(d, "ready") == "1")
    seed_box = driver.find_element("id", "seed")
    seed_box.clear()
    seed_box.send_keys(str(seed))
    if practice:
        driver.find_element("id", "practice").click()
    for side, spec in sides.items():
        box = driver.find_element("id", f"side-{side}")
        box.clear()
        box.send_keys(spec)
    driver.find_element("id", "new-button").click()
    wait(driver, lambda d: "decisions" in page_state(d))  # the game's first view is on the page


def shoot(driver, name: str) -> None:
    """Save a screenshot as ``$FOF_SCREENSHOTS/name`` (256 colours: small enough for the docs)."""
    folder = os.environ.get("FOF_SCREENSHOTS")
    if folder:
        import io

        from PIL import Image

        path = os.path.join(folder, name)
        image = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
        image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path, optimize=True)


