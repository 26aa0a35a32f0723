#!/usr/bin/env python3
"""The Pizza Delivery app's push server (seed 002): moves one delivery along through
APNs Live Activity pushes, with a stock APNs client (aioapns) — pointed at
glimpse-activity's APNs-compatible endpoint instead of Apple's.

    pip install aioapns
    python3 Demos/pizza/push_server.py                 # against a `glimpse up` stack: nothing to give
    python3 Demos/pizza/push_server.py --device-token HEX [--apns 127.0.0.1:7443]
        [--ca CA.pem] [--key AuthKey.p8 --key-id KEYID --team-id TEAMID]
        [--now UNIX_SECONDS] [--interval 2]

Against a stack `glimpse up` started (./scripts/run.sh), what is not given comes from it:
the APNs endpoint, its CA and the provider key from `<stack>/apns/provider.json`, the
device token of the pizza activity and the device clock from the gateway (JSON over HTTP).

The device token is the activity's push token (the app starts the activity with
`pushType: .token` and sends the token to its server; `glimpse activity list` shows it).
The steps, one push each:

  1. update  baking — Tim, delivery in 20 min
  2. update  on the way — Tim, 15 min, with an alert
  3. update  driver changed — John, 60 min (the article's reassignment), with an alert
  4. update  on the way — John, almost there (5 min)
  5. end     delivered, dismissed at once

Content states are the app's `PizzaDeliveryAttributes.ContentState` as Swift's default
JSONEncoder writes it: `estimatedDeliveryTime` is a ClosedRange<Date>, `[lower, upper]`, each
a Date in seconds since 2001-01-01 — not UNIX time (ActivityKit decodes with the default
JSONDecoder; any other encoding fails on the device). `aps.timestamp` is UNIX seconds.

With a manual device clock, pass its instant as --now (e.g. from `glimpse clock`):
timestamps and delivery times then count from the device's time, not the wall's.
Without --key an ephemeral ES256 key signs the provider token (enough for a stack run with
`--apns-auth none`, as the local stack is).
"""
import argparse
import asyncio
import json
import os
import urllib.request
import ssl
import sys

from aioapns import APNs, NotificationRequest, PushType
from aioapns.connection import APNsProductionClientProtocol

BUNDLE = "com.you.pizza"
TOPIC = f"{BUNDLE}.push-type.liveactivity"
SINCE_2001 = 978_307_200  # UNIX seconds at 2001-01-01T00:00:00Z, the reference date of Swift's Date


def swift_date(unix_seconds):
    """A Date as JSONEncoder writes it by default: seconds since 2001-01-01."""
    return unix_seconds - SINCE_2001


def content_state(driver, now, minutes, status):
    return {"driverName": driver,
            "estimatedDeliveryTime": [swift_date(now), swift_date(now + minutes * 60)],
            "status": status}


def steps(now):
    """The delivery as (event, aps without timestamp) pairs, in order."""
    return [
        ("update", {"content-state": content_state("Tim", now, 20, "baking")}),
        ("update", {"content-state": content_state("Tim", now, 15, "onTheWay"),
                    "alert": {"title": "Your pizza is on the way", "body": "Tim is on the way!"}}),
        ("update", {"content-state": content_state("John", now, 60, "onTheWay"),
                    "alert": {"title": "Driver changed", "body": "John is taking over your delivery", "sound": "default"},
                    "relevance-score": 100}),
        ("update", {"content-state": content_state("John", now, 5, "onTheWay")}),
        ("end", {"content-state": content_state("John", now, 0, "delivered"), "dismissal-date": now}),
    ]


def gateway(address, path, body=None, device_key=None):
    """One call to glimpse-gateway's JSON API (a device call: with the stack's device key,
    when it has one)."""
    headers = {"content-type": "application/json"}
    if device_key:
        headers["authorization"] = f"Device {device_key}"
    request = urllib.request.Request(f"http://{address}/v1/{path}", data=json.dumps(body or {}).encode(),
                                     headers=headers)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read() or b"{}")


def from_stack(args):
    """Fills what was not given from a stack `glimpse up` started, and the gateway."""
    provider = os.path.join(args.stack, "apns", "provider.json")
    if os.path.exists(provider):
        with open(provider) as f:
            stack = json.load(f)
        if args.key is None:
            args.key, args.key_id, args.team_id = stack["keyPath"], stack["keyId"], stack["teamId"]
        args.ca = args.ca or stack.get("ca")
        args.apns = args.apns or stack.get("tls")
        args.gateway = args.gateway or stack.get("gateway")
    args.apns = args.apns or "127.0.0.1:7443"
    args.gateway = args.gateway or "127.0.0.1:7700"
    args.key_id = args.key_id or "KEY1234567"
    args.team_id = args.team_id or "TEAM123456"
    key = None
    if args.device_key:
        with open(args.device_key) as f:
            key = f.read().strip()
    if args.device_token is None:
        listed = gateway(args.gateway, "activities", {"bundleId": BUNDLE}, key)
        tokens = [a["activity"].get("pushToken") for a in listed.get("activities", [])
                  if a["activity"].get("state") == "ACTIVITY_STATE_ACTIVE" and a["activity"].get("pushToken")]
        if not tokens:
            sys.exit(f"push_server: no active {BUNDLE} activity with a push token at {args.gateway}; give --device-token")
        args.device_token = tokens[0]
    if args.now is None:
        from datetime import datetime
        now = gateway(args.gateway, "clock/now", device_key=key)["now"]
        args.now = int(datetime.fromisoformat(now.replace("Z", "+00:00")).timestamp())


def step_range(text):
    first, _, last = text.partition("-")
    return int(first), int(last or first)


def private_key(path):
    if path:
        with open(path) as f:
            return f.read()
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    return ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()


async def deliver(args):
    host, port = args.apns.rsplit(":", 1)
    # aioapns talks to Apple's production host; point it at glimpse-activity instead.
    APNsProductionClientProtocol.APNS_SERVER = host
    APNsProductionClientProtocol.APNS_PORT = int(port)
    context = ssl.create_default_context(cafile=args.ca) if args.ca else ssl.create_default_context()
    client = APNs(key=private_key(args.key), key_id=args.key_id, team_id=args.team_id, topic=args.topic,
                  ssl_context=context, use_sandbox=False)
    now = args.now
    first, last = args.steps
    for index, (event, aps) in enumerate(steps(now)):
        if not first <= index + 1 <= last:
            continue
        aps = {"timestamp": now + index + 1, "event": event, **aps}
        result = await client.send_notification(NotificationRequest(
            device_token=args.device_token, push_type=PushType.LIVEACTIVITY, message={"aps": aps}))
        state = aps["content-state"]
        print(f"{index + 1}. {event} {state['status']} driver={state['driverName']} -> "
              f"{'200' if result.is_successful else result.status} {result.description or ''}".rstrip(), flush=True)
        if not result.is_successful:
            return 1
        if args.interval and index + 1 < last:
            await asyncio.sleep(args.interval)
    return 0


def main():
    parser = argparse.ArgumentParser(description="Moves a Pizza Delivery Live Activity along over APNs.")
    parser.add_argument("--device-token", help="the activity's push token (hex; default: the active pizza activity's, from the gateway)")
    parser.add_argument("--apns", help="the APNs endpoint, host:port (TLS; default: the stack's, else 127.0.0.1:7443)")
    parser.add_argument("--ca", help="CA file to trust for the endpoint (glimpse-activity prints its own)")
    parser.add_argument("--topic", default=TOPIC)
    parser.add_argument("--key", help="the .p8 signing key (default: the stack's, else an ephemeral one)")
    parser.add_argument("--key-id")
    parser.add_argument("--team-id")
    parser.add_argument("--now", type=int, help="UNIX seconds to count from (default: the device clock, from the gateway)")
    parser.add_argument("--stack", default=".glimpse", help="the directory of a `glimpse up` stack (default .glimpse)")
    parser.add_argument("--gateway", default=os.environ.get("GLIMPSE_GATEWAY"),
                        help="glimpse-gateway (default: $GLIMPSE_GATEWAY, else the stack's, else 127.0.0.1:7700)")
    parser.add_argument("--device-key", default=os.environ.get("GLIMPSE_DEVICE_KEY") or None,
                        help="a file holding the stack's device key, for its gateway calls (default: $GLIMPSE_DEVICE_KEY; "
                             "a stack on loopback needs none)")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between pushes")
    parser.add_argument("--steps", type=step_range, default=(1, 5), help="which steps to send, e.g. 1-3 (default 1-5)")
    args = parser.parse_args()
    from_stack(args)
    sys.exit(asyncio.run(deliver(args)))


if __name__ == "__main__":
    main()
