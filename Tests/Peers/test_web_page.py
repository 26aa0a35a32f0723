"""The device in a browser: the page glimpse-gateway serves at `/`, driven in headless
Chromium against a real stack with the five seed demos (`glimpse up --detach --manual`).

Needs Debian's `chromium` and `chromium-driver` and pip `selenium` (scripts/bootstrap.sh);
without them the tests fail and say which package is missing. The tests take screenshots
(PNG) as they go: into a temporary folder, or, with GLIMPSE_UPDATE_SCREENSHOTS=1, into
Demos/screens/web-*.png, the README's pictures."""
import json
import os
import pathlib
import subprocess
import sys
import tempfile

import pytest

import web_page as web
from test_timeline_service import _binary

SCREENS = web.ROOT / "Demos" / "screens" if os.environ.get("GLIMPSE_UPDATE_SCREENSHOTS") == "1" \
    else pathlib.Path(tempfile.mkdtemp(prefix="glimpse-web-screens-"))
APPS = ("Pixar Film Tracker", "MoviePlanner", "Daily Steps", "Ride the Lightning Air", "Pizza Delivery")


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    missing = web.missing_browser()
    if missing:
        pytest.fail("the web page tests drive headless Chromium; missing: " + "; ".join(missing) +
                    " (scripts/bootstrap.sh installs them)")
    if not web.ports_free():
        pytest.skip("the default ports are taken (a stack is running on this machine)")
    binaries = web.bin_dir(_binary)
    directory = tmp_path_factory.mktemp("web") / "stack"
    web.stack_up(binaries, directory)
    driver = None
    try:
        # The clock stays put unless a test moves it: the page shows the same instant throughout.
        web.gateway("clock/freeze")
        driver = web.chrome()
        driver.get(web.page_url())
        web.wait_for(lambda: driver.execute_script("return document.body.dataset.ready === 'true'"),
                     message="the page to load")
        yield directory, driver
    finally:
        if driver is not None:
            for entry in driver.get_log("browser"):
                if entry["level"] == "SEVERE" and "favicon" not in entry["message"]:
                    print("browser:", entry["message"])
            driver.quit()
        down = web.stack_down(binaries, directory)
        assert down.returncode == 0, down.stderr


def _save(element_or_driver, name):
    SCREENS.mkdir(parents=True, exist_ok=True)
    png = element_or_driver.screenshot_as_png if hasattr(element_or_driver, "screenshot_as_png") \
        else element_or_driver.get_screenshot_as_png()
    (SCREENS / name).write_bytes(png)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_every_seed_app_is_on_the_page_with_its_text_as_label(stack):
    _, driver = stack
    web.wait_for(lambda: all(any(app in label for label in web.labels(driver)) for app in APPS),
                 message="a labelled widget or Live Activity of each of the five apps")
    for hit in driver.find_elements("css selector", ".hit"):
        assert hit.get_attribute("role") == "button"
    # The labels carry the layout's texts.
    rtl = web.label_of(driver, '#home .hit[data-placement="4"]')
    assert "Ride the Lightning Air" in rtl and "Not Checked In" in rtl and "Check In" in rtl, rtl
    assert "steps" in web.label_of(driver, '#lock .hit[data-placement="7"]')
    assert "Tim" in web.label_of(driver, "#lock .hit[data-activity]")
    # At the device's proportions: the Home Screen is 393×852 points.
    home = driver.find_element("css selector", "#home .canvas img").rect
    assert abs(home["height"] / home["width"] - 852 / 393) < 0.02, home
    _save(driver.find_element("css selector", "#home"), "web-home.png")
    _save(driver.find_element("css selector", "#lock"), "web-lock.png")


def _click_button(driver, placement):
    """Clicks the widget's (only) Button where the layout draws it; returns its label."""
    node = web.layout_node("TARGET_HOME_SCREEN", placement)
    buttons = [n for n in web.walk(node) if n.get("intent") and n is not node]
    assert len(buttons) == 1, buttons
    web.click_at(driver, f'#home .hit[data-placement="{placement}"]', node, buttons[0]["frame"])
    return buttons[0]


def test_rtl_air_check_in_then_gate_changes_both_widgets(stack):
    _, driver = stack
    home = lambda: web.label_of(driver, '#home .hit[data-placement="4"]')
    lock = lambda: web.label_of(driver, '#lock .hit[data-placement="5"]')
    first_home, first_lock = home(), lock()
    assert "Not Checked In" in first_home

    button = _click_button(driver, 4)
    assert button.get("id") == "checkin", button
    web.wait_for(lambda: "Not Checked In" not in home() and "Checked In" in home(), message="Checked In on the Home Screen")
    web.wait_for(lambda: lock() != first_lock, message="the Lock Screen widget to follow")
    second_home, second_lock = home(), lock()

    button = _click_button(driver, 4)
    assert "Gate" in json.dumps(button) or button.get("id") == "gate", button
    web.wait_for(lambda: home() != second_home, message="the Home Screen widget after Gate M72")
    web.wait_for(lambda: lock() != second_lock, message="the Lock Screen widget after Gate M72")
    assert "Cleared" in home(), home()
    assert "Check In" not in home().split(":", 1)[1].replace("Checked In", "")
    # The event log says what happened.
    log = driver.find_element("css selector", "#events").text
    assert "intent_performed" in log


def test_a_pizza_push_changes_the_dynamic_island(stack):
    directory, driver = stack
    island = lambda: " ".join(web.labels(driver, "#island .hit"))
    assert "John" not in island()
    push = subprocess.run([sys.executable, str(web.ROOT / "Demos" / "pizza" / "push_server.py"),
                           "--stack", str(directory), "--steps", "1-3", "--interval", "0"],
                          cwd=web.ROOT, capture_output=True, text=True, timeout=60)
    assert push.returncode == 0, push.stdout + push.stderr
    assert push.stdout.count("-> 200") == 3, push.stdout
    # The page follows the event stream by itself (no reload); how fast is Benchmarks/web.sh's.
    web.wait_for(lambda: "John" in island(), message="John in the Dynamic Island")
    # The driver-change alert expanded the island; a click (a long press) expands it otherwise.
    if driver.execute_script("return document.querySelector('#island').dataset.mode") != "expanded":
        web.click(driver, "#island .hit")
    web.wait_for(lambda: driver.execute_script("return document.querySelector('#island').dataset.mode") == "expanded",
                 message="the expanded island")
    assert "John" in island()
    _save(driver.find_element("css selector", "#home"), "web-island-expanded.png")
    # The activity's panel: its state, dates and the three pushes.
    web.click(driver, "#lock .hit[data-activity]")
    # The panel is redrawn as events arrive: read its text in one script each time.
    panel = lambda: driver.execute_script(
        "const d = document.querySelector('#detail [data-detail=\"activity\"]'); return d ? d.innerText : '';")
    text = web.wait_for(lambda: (lambda t: t if "Push log (" in t and "applied" in t else None)(panel()),
                        message="the activity panel with its push log")
    assert "Stale date" in text and "Dismissal" in text, text
    assert "John" in text, text


def test_an_hour_on_the_clock_moves_pixar_to_its_next_entry(stack):
    _, driver = stack
    selector = '#home .hit[data-placement="1"]'
    pixar = lambda: web.label_of(driver, selector)
    shown = lambda: driver.execute_script(
        "const e = document.querySelector(arguments[0]); return e && [e.dataset.entrySequence, e.dataset.entryDate]", selector)
    sequence, date = shown()
    assert sequence == web.gateway("widgets/get", {"placementId": "1"}).get("entrySequence")
    driver.find_element("css selector", 'button[data-advance="3600s"]').click()
    web.wait_for(lambda: web.gateway("widgets/get", {"placementId": "1"}).get("entrySequence") != sequence,
                 message="glimpse-timeline to move placement 1 on")
    # At 10:00 the last of the five entries is due and `.atEnd` brings a new timeline: the page
    # shows the entry the gateway shows, dated 10:00.
    def same():
        widget = web.gateway("widgets/get", {"placementId": "1"})
        return shown() == [widget["entrySequence"], widget["entry"]["date"]]
    try:
        web.wait_for(same, message="the Pixar widget's next entry on the page")
    finally:
        print("page", shown(), "gateway", web.gateway("widgets/get", {"placementId": "1"}))
    assert shown()[1].startswith("2026-11-24T10:00"), shown()
    assert "10:00" in driver.find_element("css selector", "#clock").text
    # A quarter of an hour on, the next entry of that timeline: the watch progress moves on.
    before = pixar()
    driver.find_element("css selector", 'button[data-advance="900s"]').click()
    web.wait_for(lambda: pixar() != before, message="the Pixar widget's entry of 10:15")
    assert "Coco" in pixar() and "%" in pixar()


def test_clicking_a_widget_shows_its_timeline(stack):
    _, driver = stack
    web.click(driver, '#home .hit[data-placement="1"]')
    # The panel is redrawn as events arrive: read it in one script, not element by element.
    panel = web.wait_for(lambda: driver.execute_script("""
        const d = document.querySelector('#detail [data-detail="widget"][data-placement="1"]');
        return d && d.querySelector('table.timeline tbody tr') && {
          text: d.innerText,
          rows: d.querySelectorAll('table.timeline tbody tr').length,
          current: d.querySelectorAll('tr[aria-current="true"]').length};"""), message="the timeline panel")
    text = panel["text"]
    assert "PixarFilmWidget" in text and "Reload policy" in text and "Budget" in text and "Last error" in text
    assert panel["rows"] > 0, text
    assert panel["current"] == 1, text
    assert "atEnd" in text, text
    # The widget's widgetURL: the URL the app would receive.
    opened = web.wait_for(lambda: driver.find_element("css selector", "#opened-url"), message="opened URL")
    web.wait_for(lambda: "pixartracker://" in opened.text, message="the widgetURL shown")
    _save(driver, "web-why.png")
