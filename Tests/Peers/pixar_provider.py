#!/usr/bin/env python3
"""An app's widget provider in Python: the Pixar Film Tracker's "PixarFilmWidget".

Any language with gRPC can be a Glimpse app: implement glimpse.app.v1.WidgetProvider
(WidgetKit's TimelineProvider) and name its address in the app's manifest
(`default_endpoint`). glimpse-timeline calls it when a placed widget needs a timeline.

    python3 Tests/Peers/pixar_provider.py --port 0

prints `listening on port N` and serves until SIGTERM or Ctrl-C.

- Placeholder and Snapshot: one entry, the text "Coco".
- Timeline: five entries 0, 15, 30, 45 and 60 minutes after `request.now` (the device's
  clock, which the service sends; a manual clock is not the wall clock), each the text
  "Coco 42% +<minute>", then reload at the end.
- Any other kind: NOT_FOUND.
"""
import argparse
import signal
import sys
from concurrent import futures

import grpc
from google.protobuf import timestamp_pb2

from glimpse_protos import glimpse_modules

glimpse_modules()
from glimpse.app.v1 import provider_pb2, provider_pb2_grpc  # noqa: E402
from glimpse.widget.v1 import timeline_pb2, view_pb2  # noqa: E402

KIND = "PixarFilmWidget"
MINUTES = (0, 15, 30, 45, 60)


def text_entry(date, content):
    """A TimelineEntry at `date` whose view is one Text."""
    return timeline_pb2.TimelineEntry(date=date, view=view_pb2.View(text=view_pb2.Text(content=content)))


def now_timestamp():
    stamp = timestamp_pb2.Timestamp()
    stamp.GetCurrentTime()
    return stamp


class PixarProvider(provider_pb2_grpc.WidgetProviderServicer):
    def _check_kind(self, request, context):
        if request.widget.kind != KIND:
            context.abort(grpc.StatusCode.NOT_FOUND, f"no widget kind {request.widget.kind!r}")

    def Placeholder(self, request, context):
        self._check_kind(request, context)
        return provider_pb2.PlaceholderResponse(entry=text_entry(now_timestamp(), "Coco"))

    def Snapshot(self, request, context):
        self._check_kind(request, context)
        return provider_pb2.SnapshotResponse(entry=text_entry(now_timestamp(), "Coco"))

    def Timeline(self, request, context):
        self._check_kind(request, context)
        # The device's clock, as the service sends it; the wall clock only if it sent none.
        now = request.now if request.HasField("now") else now_timestamp()
        entries = [
            text_entry(timestamp_pb2.Timestamp(seconds=now.seconds + minute * 60, nanos=now.nanos),
                       f"Coco 42% +{minute}")
            for minute in MINUTES
        ]
        timeline = timeline_pb2.Timeline(entries=entries, at_end=timeline_pb2.Timeline.AtEnd())
        return provider_pb2.TimelineResponse(timeline=timeline)


def serve(port, host="127.0.0.1"):
    """Starts the server; returns (server, bound port)."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    provider_pb2_grpc.add_WidgetProviderServicer_to_server(PixarProvider(), server)
    bound = server.add_insecure_port(f"{host}:{port}")
    if bound == 0:
        raise SystemExit(f"could not listen on {host}:{port}")
    server.start()
    return server, bound


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args()
    server, port = serve(args.port, args.host)
    signal.signal(signal.SIGTERM, lambda *_: server.stop(grace=1))
    print(f"listening on port {port}", flush=True)
    try:
        server.wait_for_termination()
    except KeyboardInterrupt:
        server.stop(grace=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
