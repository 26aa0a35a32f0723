"""Your app's widget extension in Python, the way WidgetKit reads: a provider per widget
kind (timeline, placeholder, snapshot), intent handlers (`perform()`), and Live Activity
views, served over gRPC where your manifest's endpoint points.

    from glimpsekit import App, Entry, Timeline, Text

    app = App("com.example.steps")

    @app.timeline("LockScreenWidget")
    def timeline(context):                        # TimelineProvider.getTimeline(in:)
        return Timeline([Entry(context.now, Text(f"{steps(context.now):,} steps"))],
                        after=context.now + timedelta(minutes=15))

    @app.placeholder("LockScreenWidget")         # placeholder(in:); optional
    def placeholder(context):
        return Entry(context.now, Text("8,420 steps"))

    @app.intent("CheckInIntent")                  # AppIntent.perform()
    def check_in(request):
        request.app_group("group.example").set("status", "checkedIn")
        return request.reload_all_timelines()    # as WidgetCenter from perform(): part of the tap

    app.serve(port=7712)                          # or app.start(port=0) in a test

Without a `@app.snapshot`, the widget gallery gets the placeholder (as WidgetKit's default
does with sample data); without a `@app.placeholder`, the device draws its own.
"""
from __future__ import annotations

import dataclasses
import datetime
import json
import signal
import threading
from concurrent import futures

import grpc

from glimpse.app.v1 import (activity_configuration_pb2, activity_configuration_pb2_grpc, intent_handler_pb2,
                            intent_handler_pb2_grpc, provider_pb2, provider_pb2_grpc)
from glimpse.widget.v1 import activity_views_pb2, family_pb2, timeline_pb2

from .views import View, _view, timestamp

__all__ = ["App", "Entry", "Timeline", "Context", "PerformRequest", "ActivityViews", "Island"]

UTC = datetime.timezone.utc


def _family_name(value):
    name = family_pb2.WidgetFamily.Name(value).replace("WIDGET_FAMILY_", "").lower()
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def _datetime(stamp):
    return stamp.ToDatetime(tzinfo=UTC)


def _plain(values):
    """A map of `ParameterValue`s as plain Python values."""
    return {name: getattr(v, v.WhichOneof("kind")) if v.WhichOneof("kind") else None for name, v in values.items()}


@dataclasses.dataclass
class Context:
    """TimelineProviderContext: `family` ("systemSmall", "accessoryCircular"…), the display
    size in points, `is_preview` (the widget gallery), the configuration's values, the app,
    the placement, and the device's `now` (a manual clock may be far from the wall's)."""
    family: str
    display_size: tuple
    is_preview: bool
    configuration: dict
    bundle_id: str
    kind: str
    placement_id: int
    now: datetime.datetime
    rendering_mode: str
    message: object = None

    @classmethod
    def of(cls, request, now=None):
        c = request.context
        return cls(family=_family_name(c.family), display_size=(c.display_size.width, c.display_size.height),
                   is_preview=c.is_preview, configuration=_plain(c.configuration), bundle_id=c.bundle_id,
                   kind=request.widget.kind,
                   placement_id=request.widget.placement_id, now=now or datetime.datetime.now(UTC),
                   rendering_mode=view_mode(c.rendering_mode), message=c)


def view_mode(value):
    return family_pb2.WidgetRenderingMode.Name(value).replace("WIDGET_RENDERING_MODE_", "").lower()


class Entry:
    """A TimelineEntry: its date, its view, and the widget's URL (`.widgetURL`); a relevance
    `score` (and `duration` in seconds) for Smart Stacks."""

    def __init__(self, date, view, url="", score=None, duration=0):
        self.date, self.view, self.url, self.score, self.duration = date, view, url, score, duration

    @property
    def message(self):
        entry = timeline_pb2.TimelineEntry(date=timestamp(self.date), view=_view(self.view), widget_url=self.url)
        if self.score is not None:
            entry.relevance.score = self.score
            entry.relevance.duration.FromTimedelta(datetime.timedelta(seconds=self.duration))
        return entry


class Timeline:
    """Timeline(entries:policy:): `after=` a date, `never=True`, else `.atEnd`."""

    def __init__(self, entries, after=None, never=False):
        self.entries, self.after, self.never = list(entries), after, never

    @property
    def message(self):
        timeline = timeline_pb2.Timeline(entries=[e.message for e in self.entries])
        if self.after is not None:
            timeline.after.CopyFrom(timestamp(self.after))
        elif self.never:
            timeline.never.SetInParent()
        else:
            timeline.at_end.SetInParent()
        return timeline


class PerformRequest:
    """What a tap asks of an intent: its `parameters` (plain values), the placement or the
    Live Activity tapped; `reload_timelines(kind)` / `reload_all_timelines()` make the
    widgets reload with the tap, as WidgetCenter called from perform() does on iOS."""

    def __init__(self, message):
        self.message = message
        self.intent_type = message.intent_type
        self.parameters = _plain(message.parameters)
        self.placement_id = message.placement_id
        self.kind = message.kind
        self.activity_id = message.activity_id
        self.attributes_type = message.attributes_type
        self.idempotency_key = message.idempotency_key
        self.reloads = intent_handler_pb2.PerformResponse.Reloads()

    def reload_timelines(self, kind):
        self.reloads.kinds.append(kind)
        return self

    def reload_all_timelines(self):
        self.reloads.all_timelines = True
        return self


@dataclasses.dataclass
class Island:
    """DynamicIsland { expanded regions } compactLeading: compactTrailing: minimal:."""
    compact_leading: object = None
    compact_trailing: object = None
    minimal: object = None
    expanded_leading: object = None
    expanded_trailing: object = None
    expanded_center: object = None
    expanded_bottom: object = None
    url: str = ""


@dataclasses.dataclass
class ActivityViews:
    """ActivityConfiguration's views for one content state."""
    lock_screen: object
    island: Island = dataclasses.field(default_factory=Island)
    url: str = ""

    @property
    def message(self):
        island = activity_views_pb2.DynamicIslandViews(widget_url=self.island.url)
        for name in ("compact_leading", "compact_trailing", "minimal"):
            value = getattr(self.island, name)
            if value is not None:
                getattr(island, name).CopyFrom(_view(value))
        for name in ("expanded_leading", "expanded_trailing", "expanded_center", "expanded_bottom"):
            value = getattr(self.island, name)
            if value is not None:
                getattr(island, name).view.CopyFrom(_view(value))
        return activity_views_pb2.ActivityViews(lock_screen=_view(self.lock_screen), dynamic_island=island,
                                                widget_url=self.url)


class IntentFailed(Exception):
    """Raise from an intent handler: the tap's perform failed, with this message."""


class App:
    """One app's extension: register providers, intents and activity views, then serve."""

    def __init__(self, bundle_id=""):
        self.bundle_id = bundle_id
        self._timelines, self._placeholders, self._snapshots = {}, {}, {}
        self._intents, self._activities = {}, {}
        self.server = None
        self.port = None

    # Registration
    def timeline(self, kind):
        return self._register(self._timelines, kind)

    def placeholder(self, kind):
        return self._register(self._placeholders, kind)

    def snapshot(self, kind):
        return self._register(self._snapshots, kind)

    def intent(self, intent_type):
        return self._register(self._intents, intent_type)

    def activity(self, attributes_type):
        """Views of a Live Activity: `fn(attributes: dict, state: dict, context) -> ActivityViews`."""
        return self._register(self._activities, attributes_type)

    @staticmethod
    def _register(table, key):
        def decorate(fn):
            table[key] = fn
            return fn
        return decorate

    # Serving
    def start(self, port=0, host="127.0.0.1", workers=8):
        """Starts serving in the background; returns the port (0 picks a free one)."""
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=workers))
        app = self

        class Provider(provider_pb2_grpc.WidgetProviderServicer):
            def Placeholder(self, request, context):
                fn = app._lookup(app._placeholders, request.widget.kind, context, "placeholder")
                return provider_pb2.PlaceholderResponse(entry=_entry(fn(Context.of(request))))

            def Snapshot(self, request, context):
                fn = app._snapshots.get(request.widget.kind) or app._placeholders.get(request.widget.kind)
                if fn is None:
                    app._lookup(app._snapshots, request.widget.kind, context, "snapshot")
                return provider_pb2.SnapshotResponse(entry=_entry(fn(Context.of(request))))

            def Timeline(self, request, context):
                fn = app._lookup(app._timelines, request.widget.kind, context, "timeline")
                now = _datetime(request.now) if request.HasField("now") else None
                answer = fn(Context.of(request, now))
                if isinstance(answer, Entry):
                    answer = Timeline([answer])
                return provider_pb2.TimelineResponse(timeline=answer.message)

        class Intents(intent_handler_pb2_grpc.IntentHandlerServicer):
            def Perform(self, request, context):
                fn = app._lookup(app._intents, request.intent_type, context, "intent")
                perform = PerformRequest(request)
                response = intent_handler_pb2.PerformResponse()
                try:
                    value = fn(perform)
                except IntentFailed as failure:
                    response.failed.message = str(failure)
                    return response
                response.succeeded.SetInParent()
                if value is not None and not isinstance(value, PerformRequest):
                    from .views import parameters
                    response.succeeded.value.CopyFrom(parameters({"value": value})["value"])
                response.reloads.CopyFrom(perform.reloads)
                return response

        class Activities(activity_configuration_pb2_grpc.ActivityConfigurationServicer):
            def Views(self, request, context):
                fn = app._lookup(app._activities, request.attributes_type, context, "activity views")
                views = fn(json.loads(request.attributes_json or "{}"), json.loads(request.state_json or "{}"),
                           request)
                return activity_configuration_pb2.ActivityViewsResponse(views=views.message)

        provider_pb2_grpc.add_WidgetProviderServicer_to_server(Provider(), self.server)
        intent_handler_pb2_grpc.add_IntentHandlerServicer_to_server(Intents(), self.server)
        activity_configuration_pb2_grpc.add_ActivityConfigurationServicer_to_server(Activities(), self.server)
        self.port = self.server.add_insecure_port(f"{host}:{port}")
        self.server.start()
        return self.port

    def stop(self, grace=2):
        if self.server is not None:
            self.server.stop(grace).wait()
            self.server = None

    def serve(self, port=0, host="127.0.0.1"):
        """Serves until SIGTERM or Ctrl-C; prints `listening on port N` first."""
        bound = self.start(port, host)
        print(f"listening on port {bound}", flush=True)
        stopped = threading.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stopped.set())
        stopped.wait()
        self.stop(grace=5)

    @property
    def endpoint(self):
        return f"127.0.0.1:{self.port}"

    def _lookup(self, table, key, context, what):
        fn = table.get(key)
        if fn is None:
            known = ", ".join(sorted(table)) or "none"
            status = grpc.StatusCode.UNIMPLEMENTED if not table else grpc.StatusCode.NOT_FOUND
            context.abort(status, f"{self.bundle_id or 'this app'} has no {what} for {key!r} (it has: {known})")
        return fn


def _entry(answer):
    if isinstance(answer, Entry):
        return answer.message
    if isinstance(answer, View):
        return Entry(datetime.datetime.now(UTC), answer).message
    return answer
