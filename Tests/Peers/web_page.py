"""Helpers for driving the gateway's web page in headless Chromium (Debian's `chromium`
and `chromium-driver`, pip `selenium`) against a real `glimpse up --detach` stack.
Shared by Tests/Peers/test_web_page.py and Benchmarks/web_bench.py."""
import json
import os
import pathlib
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
GATEWAY = "127.0.0.1:7700"
DEFAULT_PORTS = (7700, 7701, 7702, 7703, 7704, 7710, 7711, 7712, 7713, 7714, 7443, 7444)
PRODUCTS = ("glimpse", "glimpse-timeline", "glimpse-intent", "glimpse-activity", "glimpse-asset",
            "glimpse-gateway", "glimpse-demo")


def missing_browser():
    """What is missing to drive Chromium, as the packages that bring it (empty: nothing)."""
    missing = []
    if not (shutil.which("chromium") or os.path.exists("/usr/bin/chromium")):
        missing.append("the Debian package `chromium` (apt-get install chromium)")
    if not (shutil.which("chromedriver") or os.path.exists("/usr/bin/chromedriver")):
        missing.append("the Debian package `chromium-driver` (apt-get install chromium-driver)")
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("the pip package `selenium` (python3 -m pip install selenium)")
    return missing


def ports_free():
    for port in DEFAULT_PORTS:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return False
    return True


def bin_dir(find_binary):
    """The folder with the stack's executables; `find_binary` is test_timeline_service._binary
    (GLIMPSE_BIN_DIR when set, else `swift build --show-bin-path`, built if missing)."""
    paths = [pathlib.Path(find_binary(product)) for product in PRODUCTS]
    return paths[0].parent


def stack_up(binaries, directory, manual="2026-11-24T09:00:00Z"):
    """`glimpse up --detach` with the seed demos on manual clocks; returns the stack record."""
    argv = [str(binaries / "glimpse"), "up", "--detach", "--dir", str(directory), "--bin", str(binaries)]
    if manual:
        argv += ["--manual", manual]
    up = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=180)
    if up.returncode != 0:
        raise RuntimeError(f"glimpse up failed ({up.returncode}):\n{up.stderr[-3000:]}")
    return json.loads((pathlib.Path(directory) / "stack.json").read_text())


def stack_down(binaries, directory):
    return subprocess.run([str(binaries / "glimpse"), "down", "--dir", str(directory)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def gateway(path, body=None, address=GATEWAY):
    """One call to the gateway's JSON API; raises urllib.error.HTTPError on an error status."""
    request = urllib.request.Request(f"http://{address}/v1/{path}", data=json.dumps(body or {}).encode(),
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read() or b"{}")


def page_url(address=GATEWAY):
    return os.environ.get("GLIMPSE_WEB_URL") or f"http://{address}/"


def chrome(width=1500, height=1150):
    """A headless Chromium driven by chromedriver (both from Debian)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={width},{height}", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    return webdriver.Chrome(service=service, options=options)


def wait_for(predicate, timeout=60.0, interval=0.02, message="condition"):
    """Polls `predicate` until it returns something truthy; returns it or raises."""
    deadline = time.monotonic() + timeout
    last_error = None
    while True:
        try:
            value = predicate()
            if value:
                return value
        except Exception as error:  # a stale element between re-renders, for instance
            last_error = error
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {message}" +
                                 (f" (last error: {last_error!r})" if last_error else ""))
        time.sleep(interval)


def labels(driver, selector=".hit"):
    """The aria-labels of the page's hit areas, in one round trip."""
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(e => e.getAttribute('aria-label'))", selector)


def label_of(driver, selector):
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.getAttribute('aria-label') : null", selector)


# ---------------------------------------------------------------------------------------
# Layout: where a view is, so a test clicks it where a user would

def walk(node):
    yield node
    for child in node.get("children", []):
        yield from walk(child)


def layout_node(target, name=None, **request):
    """The node of a screen's layout that a hit area covers: a widget by placement id
    (its `name`), or the screen's first node of kind `island`/`activity`."""
    layout = gateway("device/render", {"target": target, "layout": True, **request})["layout"]
    for node in walk(layout["root"]):
        if name is not None and node.get("kind") == "widget" and node.get("name") == str(name):
            return node
        if name is None and node.get("kind") in ("island", "activity"):
            return node
    raise AssertionError(f"no node {name!r} in the {target} layout")


def _fresh(driver, selector, act):
    """Finds `selector` and does `act(element)`, again if the page redrew the element in
    between (the page replaces hit areas as events arrive)."""
    from selenium.common.exceptions import StaleElementReferenceException
    for _ in range(20):
        element = wait_for(lambda: driver.find_element("css selector", selector), message=selector)
        try:
            return act(element)
        except StaleElementReferenceException:
            time.sleep(0.05)
    raise AssertionError(f"{selector} kept being redrawn")


def click(driver, selector):
    """Clicks the element `selector` names (at its centre)."""
    _fresh(driver, selector, lambda element: element.click())


def click_at(driver, selector, covering, frame):
    """Clicks the centre of `frame` (layout points) inside the element `selector` names,
    the hit area laid over the layout node `covering`."""
    from selenium.webdriver.common.action_chains import ActionChains

    def act(element):
        box = element.rect
        outer = covering["frame"]
        x = frame.get("x", 0) + frame.get("width", 0) / 2
        y = frame.get("y", 0) + frame.get("height", 0) / 2
        dx = (x - outer.get("x", 0)) / outer["width"] * box["width"] - box["width"] / 2
        dy = (y - outer.get("y", 0)) / outer["height"] * box["height"] - box["height"] / 2
        ActionChains(driver).move_to_element_with_offset(element, int(dx), int(dy)).click().perform()
    _fresh(driver, selector, act)
