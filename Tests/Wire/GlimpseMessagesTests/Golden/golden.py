#!/usr/bin/env python3
"""Golden files that hold Glimpse's message layer to stock protobuf (Python's `protobuf`).

    golden.py make     writes <case>.python.bin: the bytes stock protobuf makes of each case
    golden.py verify   decodes every <case>.swift.bin (made by the Swift tests, committed)
                       with stock protobuf and checks it equals the same case built here;
                       also checks the committed .python.bin files are still what stock
                       protobuf makes (deterministic serialization)

The Swift tests (GoldenTests.swift) build the very same values by hand, decode the
.python.bin files and compare, and write/compare the .swift.bin files. Python modules for
the schema are generated into a temporary folder with grpc_tools.protoc at run time.
"""
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))  # Tests/Wire/GlimpseMessagesTests/Golden
GRPC_PROTO = "/usr/share/grpc-proto"


def load_modules():
    out = tempfile.mkdtemp(prefix="glimpse-golden-")
    import grpc_tools
    wkt = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
    files = [
        "glimpse/widget/v1/family.proto", "glimpse/widget/v1/style.proto",
        "glimpse/widget/v1/intent.proto", "glimpse/widget/v1/view.proto",
        "glimpse/widget/v1/timeline.proto", "glimpse/testing/v1/field_kinds.proto",
        "grpc/health/v1/health.proto",
    ]
    subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", f"-I{ROOT}/Proto", f"-I{ROOT}/Tests/Proto",
         f"-I{GRPC_PROTO}", f"-I{wkt}", f"--python_out={out}", *files],
        check=True)
    sys.path.insert(0, out)
    from glimpse.testing.v1 import field_kinds_pb2 as fk
    from glimpse.widget.v1 import timeline_pb2 as tl, view_pb2 as vw, style_pb2 as st, intent_pb2 as it
    from grpc.health.v1 import health_pb2 as hp
    return fk, tl, vw, st, it, hp


def cases():
    fk, tl, vw, st, it, hp = load_modules()
    out = {}

    m = fk.AllKinds()
    m.f_double = 3.141592653589793
    m.f_float = 1.5
    m.f_int64 = -9223372036854775808
    m.f_uint64 = 18446744073709551615
    m.f_int32 = -2147483648
    m.f_fixed64 = 1234567890123
    m.f_fixed32 = 4294967295
    m.f_bool = True
    m.f_string = "héllo ☺ 😈"
    m.f_message.name = "leaf"
    m.f_message.weight = 7
    m.f_bytes = bytes([0, 1, 2, 255])
    m.f_uint32 = 3000000000
    m.f_enum = fk.MOOD_GRUMPY
    m.f_sfixed32 = -42
    m.f_sfixed64 = -4242424242
    m.f_sint32 = -1
    m.f_sint64 = -9223372036854775807
    m.r_double.extend([1.0, -2.5, math.inf])
    m.r_float.extend([0.25, -0.5])
    m.r_int64.extend([1, -1, 9223372036854775807])
    m.r_uint64.extend([0, 18446744073709551615])
    m.r_int32.extend([-7, 0, 7])
    m.r_fixed64.extend([1, 2])
    m.r_fixed32.extend([3, 4])
    m.r_bool.extend([True, False, True])
    m.r_string.extend(["a", "", "ü"])
    m.r_message.add(name="x", weight=1)
    m.r_message.add(name="y", weight=-2)
    m.r_bytes.extend([b"", b"\x00\x01"])
    m.r_uint32.extend([1, 4000000000])
    m.r_enum.extend([fk.MOOD_HAPPY, fk.MOOD_NEGATIVE, 99])
    m.r_sfixed32.extend([-1, 1])
    m.r_sfixed64.extend([-2, 2])
    m.r_sint32.extend([-3, 3])
    m.r_sint64.extend([-4, 4])
    m.o_int32 = 0
    m.o_string = ""
    m.o_bool = False
    m.o_enum = fk.MOOD_UNSPECIFIED
    m.o_bytes = b""
    m.o_double = 0.0
    m.c_message.name = "chosen"
    m.c_message.weight = 3
    m.m_string_int32["b"] = 2
    m.m_string_int32["a"] = 1
    m.m_int64_string[-5] = "minus five"
    m.m_int64_string[5] = "five"
    m.m_bool_leaf[True].name = "yes"
    m.m_bool_leaf[False].weight = 0
    m.m_uint32_enum[1] = fk.MOOD_HAPPY
    m.m_uint32_enum[2] = 77
    m.m_string_bytes["k"] = b"\xff"
    out["all_kinds"] = m

    out["defaults"] = fk.AllKinds()

    e = fk.AllKinds()
    e.c_empty.SetInParent()
    e.o_int32 = 5
    out["oneof_empty"] = e

    t = fk.Tree(label="root")
    node = t
    for i in range(5):
        node.left.label = f"l{i}"
        node.children.add(label=f"c{i}")
        node = node.left
    out["tree"] = t

    out["health_serving"] = hp.HealthCheckResponse(status=hp.HealthCheckResponse.SERVING)

    # The Pixar Film Tracker's small widget (seed 000): a VStack of two texts, padded,
    # four entries 15 minutes apart, policy atEnd.
    timeline = tl.Timeline()
    for i in range(4):
        entry = timeline.entries.add()
        entry.date.seconds = 1767225600 + i * 900
        entry.relevance.score = 0.5 + i
        entry.relevance.duration.seconds = 900
        entry.widget_url = "pixartracker://film/coco"
        stack = entry.view.stack
        stack.axis = vw.STACK_AXIS_VERTICAL
        stack.spacing = 4
        stack.alignment.horizontal = st.HORIZONTAL_ALIGNMENT_LEADING
        title = stack.children.add()
        title.text.content = "Coco"
        title.modifiers.add().font.text_style = vw.FONT_TEXT_STYLE_HEADLINE
        title.modifiers.add().line_limit = 2
        progress = stack.children.add()
        progress.text.content = f"{42 + i}% watched"
        progress.modifiers.add().font.text_style = vw.FONT_TEXT_STYLE_CAPTION
        progress.modifiers.add().foreground_style.hierarchical = st.HIERARCHICAL_STYLE_SECONDARY
        button = stack.children.add().button
        button.intent.intent_type = "MarkFilmWatchedIntent"
        button.intent.parameters["filmID"].string_value = "coco"
        button.intent.parameters["filmTitle"].string_value = "Coco"
        button.label.symbol.system_name = "checkmark.circle.fill"
        button.style = vw.BUTTON_STYLE_PLAIN
        gauge = stack.children.add().gauge
        gauge.value = 0.42
        gauge.label.symbol.system_name = "film"
        gauge.style = vw.GAUGE_STYLE_ACCESSORY_CIRCULAR_CAPACITY
        entry.view.modifiers.add().padding.edges = vw.EDGE_ALL
        entry.view.modifiers.add().container_background.style.fill = st.HIERARCHICAL_STYLE_TERTIARY
    timeline.at_end.SetInParent()
    out["pixar_timeline"] = timeline
    return out


def main() -> int:
    mode = sys.argv[1] if len(sys.argv) > 1 else "verify"
    failures = 0
    checked = 0
    for name, message in cases().items():
        python_bin = os.path.join(HERE, f"{name}.python.bin")
        swift_bin = os.path.join(HERE, f"{name}.swift.bin")
        encoded = message.SerializeToString(deterministic=True)
        if mode == "make":
            with open(python_bin, "wb") as f:
                f.write(encoded)
            print(f"wrote {name}.python.bin ({len(encoded)} bytes)")
            continue
        with open(python_bin, "rb") as f:
            if f.read() != encoded:
                print(f"FAIL {name}: {name}.python.bin is not what stock protobuf makes now")
                failures += 1
        if not os.path.exists(swift_bin):
            print(f"FAIL {name}: {name}.swift.bin is missing (run the Swift tests with GLIMPSE_WRITE_GOLDEN=1)")
            failures += 1
            continue
        decoded = type(message)()
        with open(swift_bin, "rb") as f:
            decoded.ParseFromString(f.read())
        if decoded != message:
            print(f"FAIL {name}: Swift's bytes decode to a different value:\n{decoded}\n--- expected\n{message}")
            failures += 1
        checked += 1
    if mode != "make":
        print(f"golden: {checked - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
