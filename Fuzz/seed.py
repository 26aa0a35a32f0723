#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (Fuzz/Corpus/<target>/) from the tests' own inputs:
the contracts' requests (Tests/Contracts), the proto3 JSON goldens, the demo apps' manifests,
APNs requests as the activity tests send them, HTTP/1.1 requests as the JSON front's tests
send them, and view trees like the seed apps'. Run again after the inputs change:

    python3 Fuzz/seed.py

Each file is named after its source, so a rerun rewrites the same files. The `proto`
target's inputs start with the message's index in AcceptedMessages.swift and the encoding.
"""
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
CORPUS = ROOT / "Fuzz" / "Corpus"
sys.path.insert(0, str(ROOT / "Tests" / "Peers"))
from glimpse_protos import glimpse_modules  # noqa: E402

glimpse_modules()
from google.protobuf import json_format, symbol_database  # noqa: E402
import importlib  # noqa: E402

for proto in sorted((ROOT / "Proto" / "glimpse").rglob("*.proto")):
    importlib.import_module(str(proto.relative_to(ROOT / "Proto").with_suffix("")).replace("/", ".") + "_pb2")
SYMBOLS = symbol_database.Default()


def write(target, name, data):
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    (folder / re.sub(r"[^A-Za-z0-9._-]", "_", name)).write_bytes(data)


def message(full_name):
    return SYMBOLS.GetSymbol(full_name)()


# The order of AcceptedMessages.types: Swift names -> protobuf names.
ACCEPTED = []
for line in (ROOT / "Fuzz/Sources/FuzzTargets/AcceptedMessages.swift").read_text().splitlines():
    m = re.match(r"\s+(\w+)\.(\w+)\.self,", line)
    if m:
        ACCEPTED.append((m.group(1), m.group(2)))


def proto_name(swift_namespace, swift_name):
    # GlimpseTimelineV1 -> glimpse.timeline.v1; GrpcHealthV1 -> grpc.health.v1
    parts = re.findall(r"[A-Z][a-z]*\d*", swift_namespace)
    package = ".".join(p.lower() for p in parts[:-1]) + "." + parts[-1].lower()
    return f"{package}.{swift_name}"


INDEX = {proto_name(ns, name): i for i, (ns, name) in enumerate(ACCEPTED)}


def proto_seed(name, full_name, value):
    """Both encodings of one request: JSON as written, and protobuf."""
    index = INDEX[full_name]
    text = json.dumps(value, separators=(",", ":"))
    write("proto", name + ".json", bytes([index, 1]) + text.encode())
    msg = message(full_name)
    try:
        json_format.Parse(text, msg)
    except json_format.ParseError:
        return  # a placeholder the contract replaces at run time: the JSON seed only
    write("proto", name + ".bin", bytes([index, 0]) + msg.SerializeToString())


def service_request(call):
    """glimpse.timeline.v1.TimelineService/InstallApp -> its request message's name."""
    service, method = call.split("/")
    pool = SYMBOLS.pool
    return pool.FindServiceByName(service).FindMethodByName(method).input_type.full_name


def substituted(value):
    return json.loads(json.dumps(value).replace("${run}", "1"))


# json: the proto3 JSON goldens, the demos' JSON, a few contracts.
for path in sorted((ROOT / "Tests/Wire/GlimpseMessagesTests/JSONGolden").glob("*.json")):
    write("json", "golden-" + path.name, path.read_bytes())
for path in sorted((ROOT / "Demos").rglob("*.json")):
    write("json", "demo-" + str(path.relative_to(ROOT / "Demos")), path.read_bytes())
contracts = sorted((ROOT / "Tests/Contracts").rglob("*.json"))
for path in contracts[::4]:
    write("json", "contract-" + str(path.relative_to(ROOT / "Tests/Contracts")), path.read_bytes())

# proto: every contract's request (each call a port answers), the demo manifests as
# installs, a provider's timeline.
seen = set()
for path in contracts:
    contract = json.loads(path.read_text())
    steps = [contract] + contract.get("setup", []) + contract.get("teardown", [])
    for i, step in enumerate(steps):
        if "call" not in step or "request" not in step:
            continue
        full_name = service_request(step["call"])
        key = (full_name, json.dumps(step["request"], sort_keys=True))
        if full_name not in INDEX or key in seen:
            continue
        seen.add(key)
        proto_seed(f"contract-{path.parent.name}-{path.stem}-{i}", full_name, substituted(step["request"]))
for path in sorted((ROOT / "Demos").glob("*/app.json")):
    manifest = json.loads(path.read_text())
    proto_seed(f"demo-{path.parent.name}-install", "glimpse.gateway.v1.InstallRequest", {"manifest": manifest})
timeline = json.loads((ROOT / "Tests/Wire/GlimpseMessagesTests/JSONGolden/pixar_timeline.json").read_text())
proto_seed("golden-pixar-timeline", "glimpse.app.v1.TimelineResponse", {"timeline": timeline})

# manifest: the demo apps' manifests, as JSON and as YAML.
def yaml(value, indent=0):
    pad = "  " * indent
    if isinstance(value, dict):
        if not value:
            return "{}"
        lines = []
        for k, v in value.items():
            if isinstance(v, (dict, list)) and v:
                lines.append(f"{pad}{k}:\n{yaml(v, indent + 1)}")
            else:
                lines.append(f"{pad}{k}: {yaml(v)}")
        return "\n".join(lines)
    if isinstance(value, list):
        if not value:
            return "[]"
        out = []
        for v in value:
            if isinstance(v, (dict, list)) and v:
                inner = yaml(v, indent + 1).lstrip()
                out.append(f"{pad}- {inner}")
            else:
                out.append(f"{pad}- {yaml(v)}")
        return "\n".join(out)
    return json.dumps(value)


for path in sorted((ROOT / "Demos").glob("*/app.json")):
    write("manifest", f"{path.parent.name}.json", path.read_bytes())
    write("manifest", f"{path.parent.name}.yaml", yaml(json.loads(path.read_text())) + "\n")

# render: view trees like the seed apps' (byte 0: even = a View at family byte0>>1, odd =
# ActivityViews), and the pixar timeline's views.
def text(content, *modifiers):
    return {"text": {"content": content}, "modifiers": list(modifiers)}


font = {"font": {"textStyle": "FONT_TEXT_STYLE_HEADLINE"}}
views = {
    "pixar-entry": timeline["entries"][0]["view"],
    "stack-mixed": {"stack": {"axis": "STACK_AXIS_VERTICAL", "spacing": 4, "children": [
        text("Coco", font), {"divider": {}}, {"spacer": {"minLength": 2}},
        {"stack": {"axis": "STACK_AXIS_HORIZONTAL", "children": [
            {"symbol": {"systemName": "bolt.fill"}}, text("12,345 steps", {"lineLimit": 1}, {"minimumScaleFactor": 0.5})]}},
        {"image": {"assetName": "posters/coco", "resizable": True, "contentMode": "CONTENT_MODE_FILL"}},
    ]}, "modifiers": [{"padding": {}}, {"frame": {"maxWidth": 1e9, "alignment": {"horizontal": "HORIZONTAL_ALIGNMENT_LEADING"}}}]},
    "gauge": {"gauge": {"value": 0.4, "label": text("Steps"), "currentValueLabel": text("40%"),
                        "style": "GAUGE_STYLE_ACCESSORY_CIRCULAR_CAPACITY"}},
    "timer": {"stack": {"axis": "STACK_AXIS_DEPTH", "children": [
        {"accessoryWidgetBackground": {}},
        {"timerText": {"timerInterval": {"start": "2026-01-01T09:00:00Z", "end": "2026-01-01T09:30:00Z"}, "countsDown": True}},
        {"progress": {"timerInterval": {"start": "2026-01-01T09:00:00Z", "end": "2026-01-01T10:00:00Z"},
                      "style": "PROGRESS_VIEW_STYLE_CIRCULAR"}},
    ]}},
    "button-toggle": {"stack": {"children": [
        {"button": {"label": text("Done"), "style": "BUTTON_STYLE_BORDERED_PROMINENT"}},
        {"toggle": {"isOn": True, "label": text("Reminder")}},
        {"link": {"destination": "rtlair://flight/42", "label": text("Boarding pass")}},
        {"dateText": {"date": "2026-01-01T09:00:00Z", "style": "DATE_TEXT_STYLE_RELATIVE"}},
    ]}, "modifiers": [{"containerBackground": {}}, {"cornerRadius": 8}, {"opacity": 0.9}]},
}
for i, (name, view) in enumerate(views.items()):
    msg = message("glimpse.widget.v1.View")
    json_format.Parse(json.dumps(view), msg)
    write("render", f"view-{name}", bytes([(i % 8) << 1]) + msg.SerializeToString())
activity = {
    "lockScreen": views["stack-mixed"],
    "dynamicIsland": {
        "expandedLeading": {"view": text("Tim"), "priority": 1},
        "expandedTrailing": {"view": views["timer"]},
        "expandedBottom": {"view": views["gauge"], "belowIfTooWide": True},
        "compactLeading": {"symbol": {"systemName": "car.fill"}},
        "compactTrailing": text("10 min"),
        "minimal": {"symbol": {"systemName": "car.fill"}},
    },
}
msg = message("glimpse.widget.v1.ActivityViews")
json_format.Parse(json.dumps(activity), msg)
write("render", "activity-pizza-like", bytes([1]) + msg.SerializeToString())

# apns: requests as the activity service's tests send them (UPDATE, START, CHANNEL stand
# for the fuzz device's tokens and channel).
live = "apns-push-type: liveactivity\napns-topic: com.example.pizza.push-type.liveactivity\n"
t = 1767258060
apns = {
    "update": (f"POST /3/device/UPDATE\n{live}apns-priority: 10\n",
               {"aps": {"timestamp": t, "event": "update", "content-state": {"driverName": "John"},
                        "stale-date": t + 600, "relevance-score": 50,
                        "alert": {"title": "On the way", "body": "John is 5 min away", "sound": "default"}}}),
    "end": (f"POST /3/device/UPDATE\n{live}", {"aps": {"timestamp": t, "event": "end", "dismissal-date": t + 60,
                                                       "content-state": {"driverName": "John"}}}),
    "start": (f"POST /3/device/START\n{live}apns-id: 123e4567-e89b-12d3-a456-426614174000\n",
              {"aps": {"timestamp": t, "event": "start", "attributes-type": "PizzaDeliveryAttributes",
                       "attributes": {"numberOfPizzas": 1}, "content-state": {"driverName": "Tim"},
                       "alert": {"title": {"loc-key": "ORDER", "loc-args": ["1"]}, "body": "Tim"},
                       "input-push-token": 1}}),
    "broadcast": (f"POST /4/broadcasts/apps/com.example.pizza\n{live}apns-channel-id: CHANNEL\napns-priority: 5\n",
                  {"aps": {"timestamp": t, "event": "update", "content-state": {"driverName": "Ann"}}}),
    "token": ("POST /3/device/UPDATE\n" + live + "authorization: bearer eyJhbGciOiJFUzI1NiIsImtpZCI6IktFWTEyMzQ1NjcifQ."
              "eyJpc3MiOiJURUFNMTIzNDU2IiwiaWF0IjoxNzY3MjU4MDAwfQ.c2lnbmF0dXJl\n",
              {"aps": {"timestamp": t, "event": "update", "content-state": {}}}),
    "widgets": ("POST /3/device/UPDATE\napns-push-type: widgets\napns-topic: com.example.pizza.push-type.widgets\n",
                {"aps": {"content-changed": True}}),
    "duplicate": (f"POST /3/device/UPDATE\n{live}apns-priority: 5\napns-priority: 10\n",
                  {"aps": {"timestamp": t, "event": "update"}}),
}
for name, (head, body) in apns.items():
    write("apns", name, head + "\n" + json.dumps(body))

# http1: requests as the JSON front's tests send them.
body = json.dumps({"placementId": "3", "target": "TARGET_WIDGET"})
http = {
    "post-tap": f"POST /v1/widgets/tap HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n{body}",
    "get-json": "GET /v1/device/render?json=%7B%22target%22%3A%22TARGET_HOME_SCREEN%22%7D HTTP/1.1\r\nHost: x\r\n\r\n",
    "events-sse": "GET /v1/events/follow HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n",
    "static": "GET /web/app.js HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"x\", W/\"y\"\r\n\r\n",
    "index": "GET / HTTP/1.1\r\nHost: x\r\n\r\n",
    "chunked-install": "POST /v1/apps/install HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                      "b\r\n{\"manifest\"\r\n9\r\n:{\"a\":1}}\r\n0\r\n\r\n",
    "pipelined": "POST /v1/events HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"
                 "POST /v1/events/list HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
    "expect-continue": "POST /v1/widgets/tap HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n"
                       "grpc-timeout: 1S\r\n\r\n{}",
    "http10": "POST /v1/device/render HTTP/1.0\r\nContent-Length: 2\r\n\r\n{}",
    "h2-preface": "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
}
for name, request in http.items():
    write("http1", name, request)

for target in sorted(CORPUS.iterdir()):
    print(f"{target.name}: {len(list(target.iterdir()))} files")
