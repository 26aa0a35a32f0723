#!/usr/bin/env python3
"""Daily Steps' widget provider in Python: the same "LockScreenWidget" as
`glimpse-demo steps`, for the same manifest (Demos/steps/app.json), written with grpcio.

Any language with gRPC can be a Glimpse app's widget extension: implement
glimpse.app.v1.WidgetProvider and listen where the manifest's `defaultEndpoint` points
(127.0.0.1:7712 — stop `glimpse-demo steps` first, or give another --port and install a
copy of the manifest with that endpoint).

    pip install grpcio grpcio-tools
    python3 Demos/steps/python/provider.py [--port 7712] [--proto Proto]

prints `listening on port N` and serves until SIGTERM or Ctrl-C. The Python modules are
generated at start from the repository's Proto/ with grpcio-tools.

- Timeline: one entry at the device's `now`, `.after(now + 15 min)`.
- Placeholder, and Snapshot in the widget gallery: the article's sample, 8,420 steps.
- Views per family, as seed 003 draws them: accessoryCircular (a gauge toward 10,000
  over AccessoryWidgetBackground), accessoryRectangular (symbol, "Steps", "N steps"),
  accessoryInline (a Label); each with `.containerBackground(.fill.tertiary, for: .widget)`.
"""
import argparse
import datetime
import pathlib
import signal
import subprocess
import sys
import tempfile
import threading
from concurrent import futures

KIND = "LockScreenWidget"
GOAL = 10_000
PACE = 14           # steps a minute from 07:00 UTC: a stand-in pedometer, as the Swift app's
DAY_STARTS_AT = 7
REFRESH_MINUTES = 15
REPOSITORY = pathlib.Path(__file__).resolve().parents[3]


def load_modules(proto_dir):
    """Generates glimpse/**/*.proto into a temporary folder and puts it on sys.path."""
    out = tempfile.mkdtemp(prefix="steps-protos-")
    files = sorted(str(p.relative_to(proto_dir)) for p in (proto_dir / "glimpse").rglob("*.proto"))
    import grpc_tools
    well_known = pathlib.Path(grpc_tools.__file__).parent / "_proto"
    subprocess.run([sys.executable, "-m", "grpc_tools.protoc", f"-I{proto_dir}", f"-I{well_known}",
                    f"--python_out={out}", f"--grpc_python_out={out}", *files], check=True)
    sys.path.insert(0, out)


def steps_at(instant):
    """Today's steps at `instant` (UTC): a steady pace from 07:00."""
    start = instant.replace(hour=DAY_STARTS_AT, minute=0, second=0, microsecond=0)
    minutes = int((instant - start).total_seconds() // 60)
    return max(0, minutes) * PACE


def build_views(view_pb2, style_pb2):
    """The view constructors, bound to the generated modules."""
    def text(content, *modifiers):
        return view_pb2.View(text=view_pb2.Text(content=content), modifiers=list(modifiers))

    def symbol(name, *modifiers):
        return view_pb2.View(symbol=view_pb2.SymbolImage(system_name=name), modifiers=list(modifiers))

    def font(text_style=0, size=None, weight=0, design=0):
        f = view_pb2.Font(text_style=text_style, weight=weight, design=design)
        if size is not None:
            f.size = size
        return view_pb2.Modifier(font=f)

    secondary = view_pb2.Modifier(foreground_style=style_pb2.ShapeStyle(hierarchical=style_pb2.HIERARCHICAL_STYLE_SECONDARY))
    background = view_pb2.Modifier(container_background=view_pb2.ContainerBackground(
        style=style_pb2.ShapeStyle(fill=style_pb2.HIERARCHICAL_STYLE_TERTIARY)))

    def label(title, system_image):
        return view_pb2.View(label=view_pb2.Label(title=text(title), icon=symbol(system_image)))

    def grouped(value):
        return f"{value:,}"

    def circular(value):
        gauge = view_pb2.Gauge(
            value=float(min(value, GOAL)), minimum=0, maximum=float(GOAL), style=view_pb2.GAUGE_STYLE_ACCESSORY_CIRCULAR,
            label=symbol("figure.walk", font(size=16, weight=view_pb2.FONT_WEIGHT_SEMIBOLD)),
            current_value_label=text(f"{value // 1000}k", font(size=13, weight=view_pb2.FONT_WEIGHT_BOLD,
                                                               design=view_pb2.FONT_DESIGN_ROUNDED)))
        return view_pb2.View(stack=view_pb2.Stack(axis=view_pb2.STACK_AXIS_DEPTH, children=[
            view_pb2.View(accessory_widget_background=view_pb2.AccessoryWidgetBackground()),
            view_pb2.View(gauge=gauge)]),
            modifiers=[view_pb2.Modifier(accessibility_label=f"Steps: {value}")])

    def rectangular(value):
        column = view_pb2.Stack(axis=view_pb2.STACK_AXIS_VERTICAL, spacing=1,
                                alignment=style_pb2.Alignment(horizontal=style_pb2.HORIZONTAL_ALIGNMENT_LEADING),
                                children=[
                                    text("Steps", font(view_pb2.FONT_TEXT_STYLE_CAPTION2, weight=view_pb2.FONT_WEIGHT_SEMIBOLD), secondary),
                                    text(f"{grouped(value)} steps", font(view_pb2.FONT_TEXT_STYLE_SUBHEADLINE, weight=view_pb2.FONT_WEIGHT_BOLD))])
        row = view_pb2.Stack(axis=view_pb2.STACK_AXIS_HORIZONTAL, spacing=8, alignment=style_pb2.Alignment(), children=[
            symbol("figure.walk", font(view_pb2.FONT_TEXT_STYLE_TITLE3, weight=view_pb2.FONT_WEIGHT_SEMIBOLD)),
            view_pb2.View(stack=column)])
        frame = view_pb2.Modifier(frame=view_pb2.Frame(
            max_width=float("inf"), alignment=style_pb2.Alignment(horizontal=style_pb2.HORIZONTAL_ALIGNMENT_LEADING)))
        return view_pb2.View(stack=row, modifiers=[frame, view_pb2.Modifier(accessibility_label=f"Steps: {value} steps")])

    def body(family, value):
        from glimpse.widget.v1 import family_pb2
        if family == family_pb2.WIDGET_FAMILY_ACCESSORY_CIRCULAR:
            view = circular(value)
        elif family == family_pb2.WIDGET_FAMILY_ACCESSORY_RECTANGULAR:
            view = rectangular(value)
        elif family == family_pb2.WIDGET_FAMILY_ACCESSORY_INLINE:
            view = label(f"{grouped(value)} steps", "figure.walk")
        else:
            view = text("Steps")
        view.modifiers.append(background)
        return view

    return body


def serve(port, proto_dir):
    load_modules(proto_dir)
    import grpc
    from google.protobuf import timestamp_pb2
    from glimpse.app.v1 import provider_pb2, provider_pb2_grpc
    from glimpse.widget.v1 import style_pb2, timeline_pb2, view_pb2

    body = build_views(view_pb2, style_pb2)

    def stamp(instant):
        t = timestamp_pb2.Timestamp()
        t.FromDatetime(instant)
        return t

    def entry(instant, family, value):
        return timeline_pb2.TimelineEntry(date=stamp(instant), view=body(family, value), widget_url="dailysteps://today")

    def wall_now():
        return datetime.datetime.now(datetime.timezone.utc)

    class LockScreenWidgetProvider(provider_pb2_grpc.WidgetProviderServicer):
        def _kind(self, request, context):
            if request.widget.kind != KIND:
                context.abort(grpc.StatusCode.NOT_FOUND, f"no widget kind {request.widget.kind!r} (this app has {KIND})")

        def Placeholder(self, request, context):
            self._kind(request, context)
            return provider_pb2.PlaceholderResponse(entry=entry(wall_now(), request.context.family, 8_420))

        def Snapshot(self, request, context):
            self._kind(request, context)
            now = wall_now()
            value = 8_420 if request.context.is_preview else steps_at(now)
            return provider_pb2.SnapshotResponse(entry=entry(now, request.context.family, value))

        def Timeline(self, request, context):
            self._kind(request, context)
            now = request.now.ToDatetime(tzinfo=datetime.timezone.utc) if request.HasField("now") else wall_now()
            timeline = timeline_pb2.Timeline(
                entries=[entry(now, request.context.family, steps_at(now))],
                after=stamp(now + datetime.timedelta(minutes=REFRESH_MINUTES)))
            return provider_pb2.TimelineResponse(timeline=timeline)

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    provider_pb2_grpc.add_WidgetProviderServicer_to_server(LockScreenWidgetProvider(), server)
    bound = server.add_insecure_port(f"127.0.0.1:{port}")
    server.start()
    print(f"listening on port {bound}", flush=True)
    stopped = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stopped.set())
    stopped.wait()
    server.stop(grace=5).wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=7712, help="0 picks a free one (default 7712, the manifest's)")
    parser.add_argument("--proto", type=pathlib.Path, default=REPOSITORY / "Proto", help="the Proto/ directory")
    args = parser.parse_args()
    serve(args.port, args.proto.resolve())


if __name__ == "__main__":
    main()
