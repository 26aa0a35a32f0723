#!/usr/bin/env python3
"""Daily Steps' widget provider on GlimpseKit for Python (`pip install ./sdk/python`): the
"LockScreenWidget" of `glimpse-demo steps`, for Demos/steps/app.json, as seed 003 draws it.
`python3 Demos/steps/python/provider.py [--port 7712]`"""
import datetime
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "sdk" / "python" / "src"))
from glimpsekit import (AccessoryWidgetBackground, App, Entry, Gauge, HStack, Image, Label, Text,  # noqa: E402
                        Timeline, VStack, ZStack)

GOAL, PACE, SAMPLE = 10_000, 14, 8_420   # steps a minute from 07:00 UTC: a stand-in pedometer
app = App("com.soarias.dailysteps")


def steps_at(now):
    start = now.replace(hour=7, minute=0, second=0, microsecond=0)
    return max(0, int((now - start).total_seconds() // 60)) * PACE


def view(family, value):
    if family == "accessoryCircular":
        gauge = Gauge(min(value, GOAL), minimum=0, maximum=GOAL, style="accessoryCircular",
                      label=Image(system_name="figure.walk").font(size=16, weight="semibold"),
                      current_value_label=Text(f"{value // 1000}k").font(size=13, weight="bold", design="rounded"))
        body = ZStack(AccessoryWidgetBackground(), gauge).accessibility_label(f"Steps: {value}")
    elif family == "accessoryRectangular":
        body = HStack(Image(system_name="figure.walk").font("title3", weight="semibold"),
                      VStack(Text("Steps").font("caption2", weight="semibold").foreground("secondary"),
                             Text(f"{value:,} steps").font("subheadline", weight="bold"),
                             spacing=1, alignment="leading"),
                      spacing=8, alignment="center")
        body = body.frame(max_width="infinity", alignment="leading").accessibility_label(f"Steps: {value} steps")
    elif family == "accessoryInline":
        body = Label(f"{value:,} steps", "figure.walk")
    else:
        body = Text("Steps")
    return body.container_background(fill="tertiary")


@app.placeholder("LockScreenWidget")
def placeholder(context):
    return Entry(context.now, view(context.family, SAMPLE), url="dailysteps://today")


@app.snapshot("LockScreenWidget")  # the widget gallery: the sample
def snapshot(context):
    value = SAMPLE if context.is_preview else steps_at(context.now)
    return Entry(context.now, view(context.family, value), url="dailysteps://today")


@app.timeline("LockScreenWidget")
def timeline(context):
    entry = Entry(context.now, view(context.family, steps_at(context.now)), url="dailysteps://today")
    return Timeline([entry], after=context.now + datetime.timedelta(minutes=15))


if __name__ == "__main__":  # --port N: 0 picks a free one (default 7712, the manifest's)
    app.serve(port=int(sys.argv[sys.argv.index("--port") + 1]) if "--port" in sys.argv else 7712)
