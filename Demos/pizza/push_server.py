#!/usr/bin/env python3
"""The Pizza Delivery app's push server (seed 002): moves one delivery along through
APNs Live Activity pushes, with a stock APNs client (aioapns) — pointed at
glimpse-activity's APNs-compatible endpoint instead of Apple's.

    pip install aioapns
    python3 Demos/pizza/push_server.py --device-token HEX [--apns 127.0.0.1:7443]
        [--ca CA.pem] [--key AuthKey.p8 --key-id KEYID --team-id TEAMID]
        [--now UNIX_SECONDS] [--interval 2]

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
import ssl
import sys
import time

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
    now = args.now if args.now is not None else int(time.time())
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
    parser.add_argument("--device-token", required=True, help="the activity's push token (hex)")
    parser.add_argument("--apns", default="127.0.0.1:7443", help="the APNs endpoint, host:port (TLS)")
    parser.add_argument("--ca", help="CA file to trust for the endpoint (glimpse-activity prints its own)")
    parser.add_argument("--topic", default=TOPIC)
    parser.add_argument("--key", help="the .p8 signing key (default: an ephemeral one)")
    parser.add_argument("--key-id", default="KEY1234567")
    parser.add_argument("--team-id", default="TEAM123456")
    parser.add_argument("--now", type=int, help="UNIX seconds to count from (default: the wall clock)")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between pushes")
    parser.add_argument("--steps", type=step_range, default=(1, 5), help="which steps to send, e.g. 1-3 (default 1-5)")
    sys.exit(asyncio.run(deliver(parser.parse_args())))


if __name__ == "__main__":
    main()
