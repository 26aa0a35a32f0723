"""GlimpseKit for Python: write an app's widget extension (providers, intents, Live Activity
views) and test it against Glimpse, the WidgetKit/ActivityKit system side for Linux.

    from glimpsekit import App, Entry, Timeline, VStack, Text   # the app
    from glimpsekit import Gateway                              # the device, from a script

With pytest, the `glimpse` fixture (this package's plugin) gives each test a device.
"""
from .app import ActivityViews, App, Context, Entry, IntentFailed, Island, PerformRequest, Timeline
from .gateway import Gateway, Shown, family, texts
from .views import (AccessoryWidgetBackground, Button, DateText, Divider, Gauge, HStack, Image, Label, Link,
                    ProgressView, Shape, Spacer, Stack, Text, TimerText, Toggle, View, VStack, ZStack, parameters,
                    timestamp)

__all__ = [
    "App", "Entry", "Timeline", "Context", "PerformRequest", "IntentFailed", "ActivityViews", "Island",
    "Gateway", "Shown", "family", "texts",
    "View", "Text", "Image", "Stack", "VStack", "HStack", "ZStack", "Spacer", "Divider", "Label", "Button",
    "Toggle", "Link", "Gauge", "ProgressView", "TimerText", "DateText", "Shape", "AccessoryWidgetBackground",
    "parameters", "timestamp",
]
