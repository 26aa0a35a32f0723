"""Views the way SwiftUI reads, producing `glimpse.widget.v1.View`:

    VStack(Text("Steps").font("caption2", weight="semibold").foreground("secondary"),
           Text(f"{steps:,} steps").font("subheadline", weight="bold"),
           alignment="leading", spacing=1)
    .container_background(fill="tertiary")

Every view is a `View`; modifiers return the view, so they chain. Names are SwiftUI's, in
snake case (`.container_background`, `.privacy_sensitive`); enum values are given as the
Swift case names ("headline", "semibold", "leading", "secondary").
"""
from __future__ import annotations

import datetime

from glimpse.widget.v1 import intent_pb2, style_pb2, view_pb2

__all__ = [
    "View", "Text", "Image", "Stack", "VStack", "HStack", "ZStack", "Spacer", "Divider", "Label", "Button",
    "Toggle", "Link", "Gauge", "ProgressView", "TimerText", "DateText", "Shape", "AccessoryWidgetBackground",
    "parameters", "timestamp",
]


def _enum(enum, prefix, name):
    """`prefix` + NAME for a Swift case name ("subheadline" → FONT_TEXT_STYLE_SUBHEADLINE)."""
    if isinstance(name, int):
        return name
    snake = "".join("_" + c if c.isupper() else c for c in name).upper().lstrip("_")
    try:
        return enum.Value(prefix + snake)
    except ValueError:
        known = ", ".join(n[len(prefix):].lower() for n in enum.keys() if not n.endswith("UNSPECIFIED"))
        raise ValueError(f"{name!r} is not one of: {known}") from None


def timestamp(when):
    """A `google.protobuf.Timestamp` of a datetime (naive: UTC) or of seconds since 1970."""
    from google.protobuf import timestamp_pb2
    stamp = timestamp_pb2.Timestamp()
    if isinstance(when, datetime.datetime):
        if when.tzinfo is None:
            when = when.replace(tzinfo=datetime.timezone.utc)
        stamp.FromDatetime(when)
    else:
        stamp.FromNanoseconds(int(float(when) * 1e9))
    return stamp


def parameters(values):
    """An intent's parameters (`{"filmID": "coco", "count": 2}`) as `ParameterValue`s."""
    out = {}
    for name, value in (values or {}).items():
        if isinstance(value, bool):
            out[name] = intent_pb2.ParameterValue(bool_value=value)
        elif isinstance(value, int):
            out[name] = intent_pb2.ParameterValue(int_value=value)
        elif isinstance(value, float):
            out[name] = intent_pb2.ParameterValue(double_value=value)
        elif isinstance(value, (bytes, bytearray)):
            out[name] = intent_pb2.ParameterValue(bytes_value=bytes(value))
        elif isinstance(value, datetime.datetime):
            out[name] = intent_pb2.ParameterValue(date_value=timestamp(value))
        else:
            out[name] = intent_pb2.ParameterValue(string_value=str(value))
    return out


def _style(style=None, *, color=None, fill=None, rgba=None):
    """A ShapeStyle: a hierarchical level ("secondary"), a system color ("blue"), `fill=`
    a fill level ("tertiary"), `rgba=(r, g, b[, a])`."""
    if rgba is not None:
        r, g, b, *a = rgba
        return style_pb2.ShapeStyle(color=style_pb2.Color(rgba=style_pb2.Color.RGBA(
            red=r, green=g, blue=b, alpha=a[0] if a else 1)))
    if fill is not None:
        return style_pb2.ShapeStyle(fill=_enum(style_pb2.HierarchicalStyle, "HIERARCHICAL_STYLE_", fill))
    name = color or style
    if name in ("primary", "secondary", "tertiary", "quaternary") and color is None:
        return style_pb2.ShapeStyle(hierarchical=_enum(style_pb2.HierarchicalStyle, "HIERARCHICAL_STYLE_", name))
    return style_pb2.ShapeStyle(color=style_pb2.Color(system=_enum(style_pb2.SystemColor, "SYSTEM_COLOR_", name)))


def _alignment(alignment):
    """An Alignment from a Swift name ("leading", "topLeading", "center"); None: not given."""
    if alignment is None:
        return None
    horizontal = {"leading", "center", "trailing"}
    vertical = {"top", "center", "bottom"}
    parts = alignment.replace("_", " ").replace("Leading", " leading").replace("Trailing", " trailing").split()
    h = next((p.lower() for p in parts if p.lower() in horizontal), "center")
    v = next((p.lower() for p in parts if p.lower() in vertical - {"center"}), "center")
    return style_pb2.Alignment(horizontal=_enum(style_pb2.HorizontalAlignment, "HORIZONTAL_ALIGNMENT_", h),
                               vertical=_enum(style_pb2.VerticalAlignment, "VERTICAL_ALIGNMENT_", v))


class View:
    """A view tree node and its modifiers; `.message` is the `glimpse.widget.v1.View`."""

    def __init__(self, **kind):
        self.message = view_pb2.View(**kind)

    def _add(self, **modifier):
        self.message.modifiers.append(view_pb2.Modifier(**modifier))
        return self

    # Text and color
    def font(self, style=None, *, size=None, weight=None, design=None):
        f = view_pb2.Font()
        if style:
            f.text_style = _enum(view_pb2.FontTextStyle, "FONT_TEXT_STYLE_", style)
        if size is not None:
            f.size = size
        if weight:
            f.weight = _enum(view_pb2.FontWeight, "FONT_WEIGHT_", weight)
        if design:
            f.design = _enum(view_pb2.FontDesign, "FONT_DESIGN_", design)
        return self._add(font=f)

    def font_weight(self, weight):
        return self._add(font_weight=_enum(view_pb2.FontWeight, "FONT_WEIGHT_", weight))

    def bold(self):
        return self.font_weight("bold")

    def foreground(self, style=None, **kwargs):
        return self._add(foreground_style=_style(style, **kwargs))

    foreground_style = foreground

    def tint(self, style=None, **kwargs):
        return self._add(tint=_style(style, **kwargs))

    def line_limit(self, n):
        return self._add(line_limit=n)

    def minimum_scale_factor(self, factor):
        return self._add(minimum_scale_factor=factor)

    def monospaced_digit(self, on=True):
        return self._add(monospaced_digit=on)

    def multiline_text_alignment(self, alignment):
        return self._add(multiline_text_alignment=_enum(view_pb2.TextAlignment, "TEXT_ALIGNMENT_", alignment))

    # Layout
    def padding(self, length=None, edges="all"):
        p = view_pb2.Padding(edges=_enum(view_pb2.Edge, "EDGE_", edges))
        if length is not None:
            p.length = length
        return self._add(padding=p)

    def frame(self, width=None, height=None, *, min_width=None, max_width=None, min_height=None, max_height=None,
              alignment=None):
        f = view_pb2.Frame()
        if alignment is not None:
            f.alignment.CopyFrom(_alignment(alignment))
        for name, value in (("width", width), ("height", height), ("min_width", min_width), ("max_width", max_width),
                            ("min_height", min_height), ("max_height", max_height)):
            if value is not None:
                setattr(f, name, float("inf") if value == "infinity" else value)
        return self._add(frame=f)

    def corner_radius(self, radius):
        return self._add(corner_radius=radius)

    def opacity(self, value):
        return self._add(opacity=value)

    def scale_effect(self, x, y=None):
        return self._add(scale_effect=view_pb2.ScaleEffect(x=x, y=x if y is None else y))

    def background(self, style=None, **kwargs):
        return self._add(background=_style(style, **kwargs))

    def container_background(self, style=None, **kwargs):
        """`.containerBackground(_:for: .widget)`; no argument: the system's background."""
        background = view_pb2.ContainerBackground()
        if style is not None or kwargs:
            background.style.CopyFrom(_style(style, **kwargs))
        return self._add(container_background=background)

    def activity_background_tint(self, style=None, **kwargs):
        return self._add(activity_background_tint=_style(style, **kwargs))

    # Widgets and accessibility
    def widget_accentable(self, on=True):
        return self._add(widget_accentable=on)

    def accessibility_label(self, label):
        return self._add(accessibility_label=label)

    def privacy_sensitive(self, on=True):
        return self._add(privacy_sensitive=on)

    def redacted(self, reason="placeholder"):
        return self._add(redacted=_enum(view_pb2.RedactionReason, "REDACTION_REASON_", reason))

    def invalidatable_content(self, on=True):
        return self._add(invalidatable_content=on)

    def id(self, identifier):
        """`.id(_:)`: the name a tap uses (`glimpse tap 1 checkin`)."""
        self.message.id = identifier
        return self


def _view(v):
    if isinstance(v, View):
        return v.message
    if isinstance(v, str):
        return Text(v).message
    if isinstance(v, view_pb2.View):
        return v
    raise TypeError(f"not a view: {v!r}")


def Text(content):  # noqa: N802 (SwiftUI's names)
    return View(text=view_pb2.Text(content=str(content)))


def Image(asset=None, *, system_name=None, resizable=False, content_mode=None):  # noqa: N802
    """`Image("poster")` (an app asset) or `Image(system_name="bolt.fill")`."""
    if system_name is not None:
        return View(symbol=view_pb2.SymbolImage(system_name=system_name))
    image = view_pb2.Image(asset_name=asset, resizable=resizable)
    if content_mode:
        image.content_mode = _enum(view_pb2.ContentMode, "CONTENT_MODE_", content_mode)
    return View(image=image)


def Stack(axis, *children, spacing=None, alignment=None):  # noqa: N802
    stack = view_pb2.Stack(axis=_enum(view_pb2.StackAxis, "STACK_AXIS_", axis),
                           children=[_view(c) for c in children if c is not None])
    if alignment is not None:
        stack.alignment.CopyFrom(_alignment(alignment))
    if spacing is not None:
        stack.spacing = spacing
    return View(stack=stack)


def VStack(*children, spacing=None, alignment=None):  # noqa: N802
    return Stack("vertical", *children, spacing=spacing, alignment=alignment)


def HStack(*children, spacing=None, alignment=None):  # noqa: N802
    return Stack("horizontal", *children, spacing=spacing, alignment=alignment)


def ZStack(*children, alignment=None):  # noqa: N802
    return Stack("depth", *children, alignment=alignment)


def Spacer(min_length=None):  # noqa: N802
    spacer = view_pb2.Spacer()
    if min_length is not None:
        spacer.min_length = min_length
    return View(spacer=spacer)


def Divider():  # noqa: N802
    return View(divider=view_pb2.Divider())


def Label(title, system_image):  # noqa: N802
    return View(label=view_pb2.Label(title=_view(title), icon=Image(system_name=system_image).message))


def Button(intent, label, **params):  # noqa: N802
    """`Button(intent: CheckInIntent())`: the intent's type and its parameters."""
    return View(button=view_pb2.Button(
        intent=intent_pb2.IntentInvocation(intent_type=intent, parameters=parameters(params)), label=_view(label)))


def Toggle(intent, label, is_on, **params):  # noqa: N802
    return View(toggle=view_pb2.Toggle(
        intent=intent_pb2.IntentInvocation(intent_type=intent, parameters=parameters(params)), is_on=is_on,
        label=_view(label)))


def Link(destination, label):  # noqa: N802
    return View(link=view_pb2.Link(destination=destination, label=_view(label)))


def Gauge(value, *, minimum=0.0, maximum=1.0, label=None, current_value_label=None, minimum_value_label=None,
          maximum_value_label=None, style="accessoryCircular"):  # noqa: N802
    gauge = view_pb2.Gauge(value=float(value), minimum=float(minimum), maximum=float(maximum),
                           style=_enum(view_pb2.GaugeStyle, "GAUGE_STYLE_", style))
    for name, v in (("label", label), ("current_value_label", current_value_label),
                    ("minimum_value_label", minimum_value_label), ("maximum_value_label", maximum_value_label)):
        if v is not None:
            getattr(gauge, name).CopyFrom(_view(v))
    return View(gauge=gauge)


def ProgressView(value=None, total=1.0, *, timer_interval=None, counts_down=False, label=None,
                 style="automatic"):  # noqa: N802
    progress = view_pb2.ProgressView(counts_down=counts_down,
                                     style=_enum(view_pb2.ProgressViewStyle, "PROGRESS_VIEW_STYLE_", style))
    if timer_interval is not None:
        start, end = timer_interval
        progress.timer_interval.start.CopyFrom(timestamp(start))
        progress.timer_interval.end.CopyFrom(timestamp(end))
    else:
        progress.fraction.value = float(value or 0)
        progress.fraction.total = float(total)
    if label is not None:
        progress.label.CopyFrom(_view(label))
    return View(progress=progress)


def TimerText(start, end, counts_down=True):  # noqa: N802
    """`Text(timerInterval: start...end, countsDown:)`."""
    timer = view_pb2.TimerText(counts_down=counts_down)
    timer.timer_interval.start.CopyFrom(timestamp(start))
    timer.timer_interval.end.CopyFrom(timestamp(end))
    return View(timer_text=timer)


def DateText(date, style="time"):  # noqa: N802
    """`Text(date, style: .relative)`."""
    return View(date_text=view_pb2.DateText(date=timestamp(date),
                                            style=_enum(view_pb2.DateTextStyle, "DATE_TEXT_STYLE_", style)))


def Shape(kind="roundedRectangle", fill=None, stroke_width=None, corner_radius=None):  # noqa: N802
    shape = style_pb2.Shape(kind=_enum(style_pb2.ShapeKind, "SHAPE_KIND_", kind))
    if corner_radius is not None:
        shape.corner_radius = corner_radius
    view = view_pb2.ShapeView(shape=shape)
    if fill is not None:
        view.fill.CopyFrom(fill if isinstance(fill, style_pb2.ShapeStyle) else _style(fill))
    if stroke_width is not None:
        view.stroke_width = stroke_width
    return View(shape=view)


def AccessoryWidgetBackground():  # noqa: N802
    return View(accessory_widget_background=view_pb2.AccessoryWidgetBackground())
