"""The page stays true between events, and keyboard users reach everything: a real-time
stack (`glimpse up --detach`, system clocks, the five seed demos) in headless Chromium.

- An alert expands the Dynamic Island for 4 s; on a system clock nothing is sent when that
  time runs out, yet the page folds the island back by itself, because every rendering says
  when it next changes (`Rendering.next_change`) and the page draws again then.
- Tab reaches each Button, Toggle and Link inside the widgets; Enter taps that element (not
  the widget's URL); focus stays on it across the redraw the tap causes."""
import subprocess
import sys

import pytest

import web_page as web
from test_timeline_service import _binary


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    missing = web.missing_browser()
    if missing:
        pytest.fail("the web page tests drive headless Chromium; missing: " + "; ".join(missing) +
                    " (scripts/bootstrap.sh installs them)")
    if not web.ports_free():
        pytest.skip("the default ports are taken (a stack is running on this machine)")
    binaries = web.bin_dir(_binary)
    directory = tmp_path_factory.mktemp("web-live") / "stack"
    web.stack_up(binaries, directory, manual=None)
    driver = None
    try:
        driver = web.chrome()
        driver.get(web.page_url())
        web.wait_for(lambda: driver.execute_script("return document.body.dataset.ready === 'true'"),
                     message="the page to load")
        yield directory, driver
    finally:
        if driver is not None:
            driver.quit()
        down = web.stack_down(binaries, directory)
        assert down.returncode == 0, down.stderr


def _page(driver, script):
    return driver.execute_script(script)


def test_an_alerts_expanded_island_folds_back_by_itself(live):
    directory, driver = live
    push = subprocess.run([sys.executable, str(web.ROOT / "Demos" / "pizza" / "push_server.py"),
                           "--stack", str(directory), "--steps", "1-2", "--interval", "0"],
                          cwd=web.ROOT, capture_output=True, text=True, timeout=60)
    assert push.returncode == 0, push.stdout + push.stderr
    mode = "return document.querySelector('#island').dataset.mode"
    web.wait_for(lambda: _page(driver, mode) == "expanded", message="the alert's expanded island")
    # The rendering says when the island folds back (the alert's 4 s), the page waits for it.
    assert _page(driver, "return document.querySelector('#connection').dataset.nextChange"), \
        "the page knows no next change"
    events = lambda: _page(driver, "return document.body.dataset.lastSequence")
    seen = events()
    web.wait_for(lambda: _page(driver, mode) == "compact", timeout=30, message="the island folding back by itself")
    # Nothing new in the event log made it: the page drew again on its own.
    assert events() == seen


def test_the_keyboard_reaches_a_widgets_button_and_enter_taps_it(live):
    from selenium.webdriver.common.keys import Keys
    _, driver = live
    flight = web.wait_for(lambda: _page(driver, """
        const hit = [...document.querySelectorAll('#home .hit[data-kind="widget"]')]
          .find(h => /Ride the Lightning Air/.test(h.getAttribute('aria-label')) && h.querySelector('.element'));
        return hit ? hit.dataset.key : null;"""), message="the RTL Air widget with a button")
    # Tab from the widget reaches its Check In button: an element of its own, with its label.
    driver.execute_script("document.querySelector(arguments[0]).focus()", f'#home .hit[data-key="{flight}"]')
    driver.switch_to.active_element.send_keys(Keys.TAB)
    focused = lambda: _page(driver, """
        const e = document.activeElement;
        return {label: e.getAttribute('aria-label'), role: e.getAttribute('role'), element: e.dataset.element || '',
                widget: e.closest('.hit') ? e.closest('.hit').dataset.key : ''};""")
    first = focused()
    assert first["widget"] == flight and first["role"] == "button" and "Check In" in first["label"], first
    # A redraw (another widget's reload, an event) keeps the keyboard on that very button.
    rendered = _page(driver, "return document.querySelector('#connection').dataset.rendered")
    other = next(w["placementId"] for w in web.gateway("widgets/list")["widgets"] if w["placementId"] != flight)
    web.gateway("widgets/reload", {"placementId": other})
    web.wait_for(lambda: _page(driver, "return document.querySelector('#connection').dataset.rendered") != rendered,
                 message="a redraw")
    assert focused() == first, focused()
    before = web.gateway("widgets/get", {"placementId": flight})
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    # Enter ran the button's intent (the app checked in), it did not open the widget's URL.
    web.wait_for(lambda: web.gateway("widgets/get", {"placementId": flight}).get("entrySequence")
                 != before.get("entrySequence"), message="the tap's new entry")
    after = web.gateway("widgets/get", {"placementId": flight})
    assert "Checked In" in str(after["entry"]), after
    assert not _page(driver, "return !document.querySelector('#opened-url').hidden")
    # The button is gone with the tap (the widget now offers the gate's): the keyboard stays
    # on that widget, not thrown back to the top of the page.
    web.wait_for(lambda: focused()["widget"] == flight, message="focus kept on the widget")


def test_toasts_stay_inside_the_viewport(live):
    _, driver = live
    _page(driver, """const box = document.querySelector('#opened-url');
        box.textContent = 'x'.repeat(400); box.hidden = false;""")
    inside = _page(driver, """const r = document.querySelector('#opened-url').getBoundingClientRect();
        return r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;""")
    _page(driver, "document.querySelector('#opened-url').hidden = true")
    assert inside
