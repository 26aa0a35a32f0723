"""The device in a browser, measured (Benchmarks/web.sh runs it; prints numbers, not a test).

1. Push to page: a real `glimpse up --detach` stack, one headless Chromium page; N Live
   Activity pushes to the pizza activity over the APNs endpoint (aioapns, as the stock
   client), each with a new driver name. The page records, in a MutationObserver, when a
   hit area's label first shows the name (performance.timeOrigin + performance.now(), the
   same wall clock as time.time()); the latency is that minus the instant the push's 200
   arrived. p50/p99. The reference, in the same run: the same pushes seen by a bare
   server-sent-events client (http.client) on the gateway's event stream
   (`/v1/events/follow`, what the page follows): the push's 200 to its `activity_changed`
   event, so the difference is the page's own work (render request, SVG, DOM).
2. Page weight: the bytes of everything the page loads (Resource Timing): the static files
   and the JSON of the first render.
3. The gateway's resident memory (VmRSS, pid from <dir>/stack.json) idle, then with 20 pages
   open and following the event stream, after a few pushes re-rendered every page.
"""
import argparse
import http.client
import asyncio
import json
import pathlib
import ssl
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "Peers"))
import web_page as web  # noqa: E402

SINCE_2001 = 978_307_200
HOURLY_BUDGET = 15
OBSERVER = """
window.__seen = {};
const scan = () => {
  const t = performance.timeOrigin + performance.now();
  for (const e of document.querySelectorAll('.hit[data-activity]')) {
    const m = /Driver(\\d+)/.exec(e.getAttribute('aria-label') || '');
    if (m && !(m[1] in window.__seen)) window.__seen[m[1]] = t;
  }
};
new MutationObserver(scan).observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label']});
"""


def rss_kib(pid):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


class StreamWatcher(threading.Thread):
    """A bare SSE client on /v1/events/follow: when each `activity_changed` event arrives."""

    def __init__(self, after):
        super().__init__(daemon=True)
        self.after = after
        self.arrivals = []
        self.lock = threading.Lock()

    def run(self):
        query = urllib.parse.quote(json.dumps({"afterSequence": str(self.after)}))
        connection = http.client.HTTPConnection("127.0.0.1", 7700)
        connection.request("GET", "/v1/events/follow?json=" + query, headers={"Accept": "text/event-stream"})
        response = connection.getresponse()
        for raw in response:
            line = raw.decode().rstrip("\r\n")
            if line.startswith("data: ") and json.loads(line[6:]).get("kind") == "activity_changed":
                with self.lock:
                    self.arrivals.append(time.time())

    def first_after(self, instant):
        with self.lock:
            return next((t for t in self.arrivals if t >= instant), None)


class Pusher:
    """Live Activity updates to the pizza activity through the stack's APNs endpoint."""

    def __init__(self, directory):
        from aioapns import APNs
        from aioapns.connection import APNsProductionClientProtocol
        provider = json.loads((directory / "apns" / "provider.json").read_text())
        host, port = provider["tls"].rsplit(":", 1)
        APNsProductionClientProtocol.APNS_SERVER = host
        APNsProductionClientProtocol.APNS_PORT = int(port)
        self.client = APNs(key=pathlib.Path(provider["keyPath"]).read_text(), key_id=provider["keyId"],
                           team_id=provider["teamId"], topic="com.you.pizza.push-type.liveactivity",
                           ssl_context=ssl.create_default_context(cafile=provider["ca"]), use_sandbox=False)
        listed = web.gateway("activities", {"bundleId": "com.you.pizza"})
        self.token = next(a["activity"]["pushToken"] for a in listed["activities"]
                          if a["activity"].get("state") == "ACTIVITY_STATE_ACTIVE")
        from datetime import datetime
        now = web.gateway("clock/now")["now"]
        self.now = int(datetime.fromisoformat(now.replace("Z", "+00:00")).timestamp())
        self.sent = 0

    async def push(self, driver_name):
        from aioapns import NotificationRequest, PushType
        if self.sent and self.sent % HOURLY_BUDGET == 0:
            # The pizza app does not declare frequent updates: 15 priority-10 pushes an hour.
            # Move the (frozen) device clock past the hour so the next ones are applied.
            web.gateway("clock/advance", {"by": "3601s"})
            self.now += 3601
        self.sent += 1
        self.last_sent = time.time()
        state = {"driverName": driver_name, "status": "onTheWay",
                 "estimatedDeliveryTime": [self.now - SINCE_2001, self.now + 1800 - SINCE_2001]}
        aps = {"timestamp": self.now + self.sent, "event": "update", "content-state": state}
        result = await self.client.send_notification(NotificationRequest(
            device_token=self.token, push_type=PushType.LIVEACTIVITY, message={"aps": aps}))
        answered = time.time()
        if not result.is_successful:
            raise RuntimeError(f"push {driver_name}: {result.status} {result.description}")
        return answered


async def push_to_page(directory, driver, count):
    pusher = Pusher(directory)
    driver.execute_script(OBSERVER)
    watcher = StreamWatcher(0)  # replays the log first; only arrivals after each push count
    watcher.start()
    time.sleep(0.3)
    latencies, stream = [], []
    for i in range(1, count + 1):
        answered = await pusher.push(f"Driver{i}")
        seen = web.wait_for(lambda: driver.execute_script("return window.__seen[arguments[0]]", str(i)),
                            timeout=5, interval=0.002, message=f"Driver{i} on the page")
        latencies.append((seen / 1000.0 - answered) * 1000.0)
        arrived = web.wait_for(lambda: watcher.first_after(pusher.last_sent), timeout=5, message="the event")
        stream.append((arrived - answered) * 1000.0)
    return latencies, stream, pusher


def page_weight(driver):
    return driver.execute_script("""
      const nav = performance.getEntriesByType('navigation')[0];
      const resources = performance.getEntriesByType('resource');
      const bytes = (e) => e.encodedBodySize || e.transferSize || 0;
      const statics = resources.filter(e => !e.name.includes('/v1/'));
      const api = resources.filter(e => e.name.includes('/v1/'));
      return {html: bytes(nav), static: statics.reduce((s, e) => s + bytes(e), 0), files: statics.map(e => e.name),
              api: api.reduce((s, e) => s + bytes(e), 0), apiCalls: api.length};
    """)


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="folder with glimpse and the services")
    parser.add_argument("--pushes", type=int, default=100)
    parser.add_argument("--pages", type=int, default=20)
    args = parser.parse_args()
    missing = web.missing_browser()
    if missing:
        sys.exit("web_bench: missing " + "; ".join(missing))
    if not web.ports_free():
        sys.exit("web_bench: the default ports are taken (a stack is running); stop it first")
    binaries = pathlib.Path(args.bin).resolve()
    directory = pathlib.Path(tempfile.mkdtemp(prefix="glimpse-web-bench-")) / "stack"
    record = web.stack_up(binaries, directory)
    gateway_pid = next(p["pid"] for p in record["processes"] if p["name"] == "glimpse-gateway")
    drivers = []
    try:
        web.gateway("clock/freeze")
        idle = rss_kib(gateway_pid)

        driver = web.chrome()
        drivers.append(driver)
        driver.get(web.page_url())
        web.wait_for(lambda: driver.execute_script("return document.body.dataset.ready === 'true'"), timeout=30,
                     message="the page")
        time.sleep(0.5)
        weight = page_weight(driver)
        latencies, stream, pusher = await push_to_page(directory, driver, args.pushes)

        # 20 pages: two tabs per browser (a browser allows six HTTP/1.1 connections per
        # host; each page holds one for its event stream).
        pages = 1
        while pages < args.pages:
            browser = drivers[-1] if pages % 2 == 1 and len(drivers) > 1 else None
            if browser is None:
                browser = web.chrome(1200, 900)
                drivers.append(browser)
            else:
                browser.switch_to.new_window("tab")
            browser.get(web.page_url())
            web.wait_for(lambda: browser.execute_script("return document.body.dataset.ready === 'true'"),
                         timeout=60, message="a page")
            pages += 1
        opened = rss_kib(gateway_pid)
        for i in range(5):
            await pusher.push(f"Crowd{i}")
            time.sleep(1.0)
        after_pushes = rss_kib(gateway_pid)
    finally:
        for driver in drivers:
            driver.quit()
        web.stack_down(binaries, directory)

    print(f"push → page ({len(latencies)} pushes, one page): p50 {percentile(latencies, 50):.1f} ms, "
          f"p99 {percentile(latencies, 99):.1f} ms, mean {statistics.mean(latencies):.1f} ms, "
          f"max {max(latencies):.1f} ms")
    print(f"  reference, the same pushes on the event stream (bare SSE client): p50 {percentile(stream, 50):.1f} ms, "
          f"p99 {percentile(stream, 99):.1f} ms (negative: the event came before the 200)")
    names = [name.rsplit("/", 1)[-1] for name in weight["files"]]
    print(f"page weight: {weight['html'] + weight['static']:,} bytes of files {names} "
          f"(index.html {weight['html']:,} + {len(weight['files'])} files {weight['static']:,}), "
          f"first render {weight['api']:,} bytes of JSON in {weight['apiCalls']} calls")
    print(f"gateway RSS: idle {idle / 1024:.1f} MiB, {pages} pages open {opened / 1024:.1f} MiB, "
          f"after 5 pushes re-rendered them {after_pushes / 1024:.1f} MiB")


if __name__ == "__main__":
    asyncio.run(main())
