#!/usr/bin/env python3
"""Golden files that hold Glimpse's proto3 JSON to stock protobuf's (Python's
`google.protobuf.json_format`).

    json_golden.py [DIR]     writes the golden files into DIR (default: the committed
                             folder, Tests/Wire/GlimpseMessagesTests/JSONGolden)

For each case it writes
    <case>.binpb        the message in the protobuf wire format (deterministic)
    <case>.json         its canonical JSON: `MessageToDict` (default options), written
                        compactly with `json.dumps(..., separators=(",", ":"),
                        ensure_ascii=False)`; map entries are put in key order (numeric
                        for integer keys, false before true, code point order for
                        strings), since protobuf leaves a map's order open and Python's
                        follows its hash table
and for the parsing cases also
    <case>.input.json   JSON in the forms a parser must also accept (proto field names,
                        quoted numbers, enum numbers, URL-safe base64, offsets, nulls…):
                        <case>.binpb is what `json_format.Parse` makes of it
plus index.txt (one line per case: `<case> <full message name>`) and numbers.txt (some
4,400 floats and doubles, each as its bit pattern and the JSON json_format writes for it).

The Swift tests (JSONGoldenTests.swift) decode each .binpb and check that Swift writes
exactly <case>.json, and decode each .json (and .input.json) and check they give the
.binpb message. Tests/Peers/test_json_golden.py re-runs this script into a temporary
folder and checks the committed files are what stock protobuf makes now.
"""
import json
import math
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GOLDEN = ROOT / "Tests" / "Wire" / "GlimpseMessagesTests" / "JSONGolden"
sys.path.insert(0, str(HERE))

from glimpse_protos import glimpse_modules  # noqa: E402

STRING_WKTS = {"google.protobuf.Timestamp", "google.protobuf.Duration"}


def load_modules():
    """Glimpse's contract (glimpse_protos) and the test schema with every field kind."""
    glimpse_modules()
    out = tempfile.mkdtemp(prefix="glimpse-json-golden-")
    subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", f"-I{ROOT / 'Tests' / 'Proto'}",
         f"--python_out={out}", "glimpse/testing/v1/field_kinds.proto"],
        check=True)
    sys.path.insert(0, out)
    # `glimpse` (the SDK's stubs) may be imported already: its path takes the test schema too.
    import glimpse
    extra = str(pathlib.Path(out) / "glimpse")
    if extra not in glimpse.__path__:
        glimpse.__path__.append(extra)


# --- the cases ---------------------------------------------------------------------------

def all_kinds(fk):
    m = fk.AllKinds()
    m.f_double = 3.141592653589793
    m.f_float = 0.1
    m.f_int64 = -9223372036854775808
    m.f_uint64 = 18446744073709551615
    m.f_int32 = -2147483648
    m.f_fixed64 = 1234567890123
    m.f_fixed32 = 4294967295
    m.f_bool = True
    m.f_string = 'héllo ☺ 😈 "quoted" \\ / \n\t\r\b\f \x01\x1f \x7f \u2028 end'
    m.f_message.name = "leaf"
    m.f_message.weight = 7
    m.f_bytes = bytes([0, 1, 2, 255, 0xfb, 0xff])
    m.f_uint32 = 3000000000
    m.f_enum = fk.MOOD_NEGATIVE
    m.f_sfixed32 = -42
    m.f_sfixed64 = -4242424242
    m.f_sint32 = -1
    m.f_sint64 = -9223372036854775807
    m.r_double.extend([1.0, -2.5, math.inf, -math.inf, math.nan, 1e16, 1e15, 1e-5, 1e-4, 5e-324,
                       1.7976931348623157e308, 0.1 + 0.2, -0.0, 0.0, 123456789012345678.0, 1e22, 100.0])
    # Not the largest float: json_format writes it as 3.4028235e+38 and then refuses that
    # as too large (its check compares the double); numbers.txt has it, for writing only.
    m.r_float.extend([0.25, -0.5, 0.1, 1e10, 16777217.0, 1.17549435e-38, 123456789.0,
                      0.3, 1e-7, 1e-45, math.inf, math.nan, -0.0, 2.5e-5, 65504.0, 0.2, -3.4028e38])
    m.r_int64.extend([1, -1, 9223372036854775807, -9223372036854775808, 0])
    m.r_uint64.extend([0, 18446744073709551615, 9007199254740993])
    m.r_int32.extend([-7, 0, 7, 2147483647])
    m.r_fixed64.extend([1, 2])
    m.r_fixed32.extend([3, 4])
    m.r_bool.extend([True, False, True])
    m.r_string.extend(["a", "", "ü", "𝄞"])
    m.r_message.add(name="x", weight=1)
    m.r_message.add()
    m.r_message.add(name="y", weight=-2)
    m.r_bytes.extend([b"", b"\x00", b"\x00\x01", b"\x00\x01\x02", b"\xff\xfe\xfd\xfc", b"hello"])
    m.r_uint32.extend([1, 4000000000])
    m.r_enum.extend([fk.MOOD_HAPPY, fk.MOOD_NEGATIVE, 99, fk.MOOD_UNSPECIFIED])
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
    m.m_string_int32["é"] = 3
    m.m_string_int32["Z"] = 4
    m.m_string_int32[""] = 0
    m.m_string_int32["aa"] = 5
    m.m_int64_string[-5] = "minus five"
    m.m_int64_string[5] = "five"
    m.m_int64_string[10] = "ten"
    m.m_int64_string[-9223372036854775808] = "min"
    m.m_int64_string[0] = ""
    m.m_bool_leaf[True].name = "yes"
    m.m_bool_leaf[False].weight = 0
    m.m_uint32_enum[1] = fk.MOOD_HAPPY
    m.m_uint32_enum[2] = 77
    m.m_uint32_enum[4294967295] = fk.MOOD_UNSPECIFIED
    m.m_string_bytes["k"] = b"\xff"
    m.m_string_bytes["empty"] = b""
    return m


def oneof_cases(fk):
    out = {}
    e = fk.AllKinds()
    e.c_empty.SetInParent()
    e.o_int32 = 5
    out["all_kinds_oneof_empty"] = e
    out["all_kinds_oneof_int64"] = fk.AllKinds(c_int64=-9223372036854775808, o_enum=fk.MOOD_GRUMPY)
    out["all_kinds_oneof_enum_default"] = fk.AllKinds(c_enum=fk.MOOD_UNSPECIFIED)
    out["all_kinds_oneof_bytes_empty"] = fk.AllKinds(c_bytes=b"")
    out["all_kinds_oneof_string_empty"] = fk.AllKinds(c_string="", o_double=-0.0)
    out["all_kinds_unknown_enum"] = fk.AllKinds(f_enum=12345, o_enum=-7, c_enum=2147483647)
    e = fk.AllKinds()
    e.c_message.SetInParent()
    e.f_message.SetInParent()
    out["all_kinds_empty_messages"] = e
    return out


def tree(fk):
    t = fk.Tree(label="root")
    node = t
    for i in range(12):
        node.left.label = f"l{i}"
        node.children.add(label=f"c{i}")
        node.right.SetInParent()
        node = node.left
    return t


def pixar_timeline(tl, vw, st):
    """The Pixar Film Tracker's small widget: a padded VStack, four entries 15 minutes
    apart, with relevance durations and a reload policy."""
    timeline = tl.Timeline()
    for i in range(4):
        entry = timeline.entries.add()
        entry.date.seconds = 1767225600 + i * 900
        entry.date.nanos = [0, 5000000, 123000, 7][i]
        entry.relevance.score = 0.5 + i * 0.1
        entry.relevance.duration.seconds = [900, 0, -1, 315576000000][i]
        entry.relevance.duration.nanos = [0, 1, -500000000, 0][i]
        entry.widget_url = "pixartracker://film/coco?seed=000&x=1"
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
        button.intent.parameters["rating"].double_value = 4.5
        button.intent.parameters["count"].int_value = 9007199254740993
        button.intent.parameters["watched"].bool_value = False
        button.intent.parameters["at"].date_value.seconds = 1767225600
        button.intent.parameters["blob"].bytes_value = b"\x00\xff"
        button.label.symbol.system_name = "checkmark.circle.fill"
        button.style = vw.BUTTON_STYLE_PLAIN
        gauge = stack.children.add().gauge
        gauge.value = 0.42
        gauge.label.symbol.system_name = "film"
        gauge.style = vw.GAUGE_STYLE_ACCESSORY_CIRCULAR_CAPACITY
        entry.view.modifiers.add().padding.edges = vw.EDGE_ALL
        entry.view.modifiers.add().container_background.style.fill = st.HIERARCHICAL_STYLE_TERTIARY
    timeline.after.seconds = 1767229200
    timeline.after.nanos = 120000000
    return timeline


def placement_status(ts, tl, fam, it):
    s = ts.PlacementStatus()
    s.placement_id = 18446744073709551615
    s.bundle_id = "com.pixar.tracker"
    s.kind = "FilmProgress"
    s.family = fam.WIDGET_FAMILY_ACCESSORY_RECTANGULAR
    s.screen = ts.SCREEN_LOCK
    s.configuration["film"].string_value = "coco"
    s.configuration["since"].date_value.seconds = -62135596800
    s.configuration["until"].date_value.seconds = 253402300799
    s.configuration["until"].date_value.nanos = 999999999
    s.configuration["epoch"].date_value.SetInParent()
    s.configuration["before"].date_value.seconds = -1
    s.configuration["before"].date_value.nanos = 500000000
    s.configuration["zero"].int_value = 0
    s.current_entry.date.seconds = 1767225600
    s.current_entry.widget_url = "pixartracker://now"
    s.current_entry.view.text.content = "Now"
    s.timeline.entries.add().date.seconds = 1767225600
    s.timeline.never.SetInParent()
    s.last_error.at.seconds = 1767225600
    s.last_error.at.nanos = 1000
    s.last_error.code = "DEADLINE_EXCEEDED"
    s.last_error.message = "provider took 5.2 s"
    s.last_error.failures = 3
    s.last_error.retry_at.seconds = 1767225660
    s.budget.placement_id = 1
    s.budget.used = 40
    s.budget.limit = 70
    s.budget.remaining = 30
    s.budget.window_seconds = 86400.0
    s.budget.next_reload_at.seconds = 1767226500
    s.budget.waiting_for = ts.WAIT_REASON_LOW_POWER
    s.budget.window_frees_at.seconds = 1767300000
    s.display_size.width = 338.5
    s.display_size.height = 0.1
    return s


def activity_changes(ac):
    out = {}
    c = ac.ActivityChange(sequence=1, activity_id="a-1", bundle_id="net.insoc.rtlair")
    c.at.seconds = 1767225600
    c.state.to = ac.ACTIVITY_STATE_ACTIVE
    c.state.reason = "requested"
    out["activity_change_state"] = c
    c = ac.ActivityChange(sequence=2, activity_id="a-1", bundle_id="net.insoc.rtlair")
    c.at.seconds = 1767225601
    c.at.nanos = 250000000
    c.content.content.state_json = '{"score":"2:1","minute":88,"note":"Tor! ⚽","nested":{"a":[1,2.50]}}'
    c.content.content.stale_date.seconds = 1767229200
    c.content.content.relevance_score = 100.0
    c.content.alert.title = "Goal"
    c.content.alert.body = "2:1 in the 88'"
    c.content.alert.sound = "default"
    out["activity_change_content"] = c
    c = ac.ActivityChange(sequence=3, bundle_id="net.insoc.rtlair")
    c.push_to_start_token.push_token = "00ff" * 16
    c.push_to_start_token.attributes_type = "MatchAttributes"
    out["activity_change_token"] = c
    c = ac.ActivityChange(sequence=18446744073709551615, activity_id="a-2")
    c.dropped.kind = ac.Outcome.KIND_THROTTLED
    c.dropped.detail = "over the hourly budget"
    c.dropped.activity_id = "a-2"
    c.dropped.state = ac.ACTIVITY_STATE_STALE
    c.dropped.until.seconds = 1767229200
    out["activity_change_dropped"] = c
    return out


def app_manifest(mf, fam):
    m = mf.AppManifest()
    m.bundle_id = "net.insoc.rtlair"
    m.display_name = "RTL Air"
    m.app_groups.extend(["group.net.insoc.rtlair"])
    w = m.widgets.add(kind="NowPlaying", display_name="Now Playing", description="What's on air")
    w.supported_families.extend([fam.WIDGET_FAMILY_SYSTEM_SMALL, fam.WIDGET_FAMILY_ACCESSORY_INLINE])
    p = w.configuration.add(name="station", title="Station")
    p.default_value.string_value = "rtl"
    w.configuration.add(name="count", title="Count").default_value.int_value = -3
    w.provider_endpoint = "127.0.0.1:7001"
    i = m.intents.add(type="ToggleFavoriteIntent", title="Favorite")
    i.parameters.add(name="song", type=mf.VALUE_TYPE_STRING)
    i.widget_kinds.extend(["NowPlaying"])
    op = i.store.operations.add()
    op.set.key = "favorite"
    op.set.literal.bool_value = True
    i.store.operations.add().toggle = "liked"
    i.store.operations.add().increment.by = -1
    op = i.store.operations.add()
    op.set.key = "song"
    op.set.parameter = "song"
    i.store.app_group = "group.net.insoc.rtlair"
    i.store.reloads.all_timelines = False
    m.intents.add(type="PlayIntent", handler_endpoint="default")
    m.intents.add(type="SkipIntent").store.reloads.kinds.kinds.extend(["NowPlaying", "Queue"])
    m.activity_attributes.add(type_name="MatchAttributes")
    m.assets.add(name="posters/coco", path="assets/coco.png", use=mf.AssetDeclaration.USE_LIVE_ACTIVITY_MINIMAL)
    m.assets.add(name="icons/star", path="assets/star.png")
    m.push_topics.extend(["net.insoc.rtlair.push-type.liveactivity"])
    m.default_endpoint = "127.0.0.1:7000"
    m.supports_frequent_updates = True
    return m


# Inputs in the other forms a proto3 JSON parser must accept, as Python parses them.
INPUTS = {
    "input_all_kinds_forms": ("glimpse.testing.v1.AllKinds", {
        "f_double": "1.5", "fFloat": "-Infinity", "f_int64": 12.0, "fUint64": "18446744073709551615",
        "f_int32": "-12", "fFixed64": 1e3, "fFixed32": "1E2", "f_bool": True, "f_string": "ü\u2028",
        "f_message": {"name": "n", "weight": "3"}, "fBytes": "-_-_", "f_uint32": 4294967295,
        "f_enum": 2, "fSfixed32": None, "f_sfixed64": "-9223372036854775808",
        "r_double": ["NaN", 1, "2", -0.0], "rFloat": [1e-45, "-1.5e38", "0.1"],
        "r_int64": ["-1", 2, 3e0], "r_bool": [False], "r_string": [], "r_message": [{}, {"name": None}],
        "r_bytes": ["AQ==", "AQ", "_w", "+/8="], "r_enum": ["MOOD_GRUMPY", 1, -3, 42],
        "o_int32": 0, "oString": None, "o_bool": False, "oEnum": "MOOD_UNSPECIFIED",
        "c_string": None, "cInt64": "-5",
        "m_string_int32": {"x": "7", "y": -1}, "mInt64String": {"-1": "a", "9223372036854775807": "b"},
        "m_bool_leaf": {"true": {}, "false": {"weight": 1}}, "m_uint32_enum": {"0": "MOOD_HAPPY", "7": 5},
        "mStringBytes": {"k": "AP8"},
    }),
    "input_timestamps": ("glimpse.timeline.v1.ProviderError", {
        "at": "1972-01-01T10:00:20.021-05:00", "retry_at": "2026-01-01T00:00:00.000000001+14:00",
        "code": "", "failures": "0",
    }),
    "input_durations": ("glimpse.widget.v1.TimelineEntryRelevance", {
        "score": 1, "duration": "-0.5s",
    }),
    "input_parameter_date": ("glimpse.widget.v1.ParameterValue", {
        "dateValue": "0001-01-01T00:00:00Z",
    }),
}


# --- canonical JSON ----------------------------------------------------------------------

def map_key_order(key_field):
    from google.protobuf.descriptor import FieldDescriptor as FD
    if key_field.type == FD.TYPE_BOOL:
        return lambda k: k == "true"
    if key_field.type == FD.TYPE_STRING:
        return lambda k: k
    return int


def canonical(descriptor, js):
    """`js` (MessageToDict of a message of `descriptor`) with map entries in key order."""
    if descriptor.full_name in STRING_WKTS:
        return js
    from google.protobuf.descriptor import FieldDescriptor as FD
    by_json = {f.json_name: f for f in descriptor.fields}
    out = {}
    for name, value in js.items():
        f = by_json[name]
        if f.type != FD.TYPE_MESSAGE:
            out[name] = value
        elif f.message_type.GetOptions().map_entry:
            key_f = f.message_type.fields_by_name["key"]
            val_f = f.message_type.fields_by_name["value"]
            entries = sorted(value.items(), key=lambda kv: map_key_order(key_f)(kv[0]))
            if val_f.type == FD.TYPE_MESSAGE:
                out[name] = {k: canonical(val_f.message_type, v) for k, v in entries}
            else:
                out[name] = dict(entries)
        elif f.is_repeated:
            out[name] = [canonical(f.message_type, v) for v in value]
        else:
            out[name] = canonical(f.message_type, value)
    return out


def canonical_json(message) -> str:
    from google.protobuf import json_format
    js = canonical(message.DESCRIPTOR, json_format.MessageToDict(message))
    return json.dumps(js, separators=(",", ":"), ensure_ascii=False)


def number_samples(seed: int = 2026):
    """Floats and doubles whose JSON text both sides must agree on: random bit patterns
    (every exponent alike) and the edges (subnormals, powers of two and ten, integers
    around 2^24 and 2^53, values whose shortest form has few digits)."""
    import random
    import struct
    rng = random.Random(seed)
    floats, doubles = set(), set()
    as_float = lambda bits: struct.unpack("<f", struct.pack("<I", bits))[0]
    as_double = lambda bits: struct.unpack("<d", struct.pack("<Q", bits))[0]
    while len(floats) < 800:
        v = as_float(rng.getrandbits(32))
        if math.isfinite(v):
            floats.add(v)
    for bits in list(range(1, 40)) + [0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0x80000001]:
        floats.add(as_float(bits))
    for e in range(-45, 39):
        for mantissa in (1, 1.5, 2.5, 3, 5, 9.999999):
            v = struct.unpack("<f", struct.pack("<f", mantissa * 10.0 ** e))[0] if abs(mantissa * 10.0 ** e) < 3.4e38 else None
            if v is not None and math.isfinite(v):
                floats.add(v)
    for e in range(-149, 128):
        floats.add(2.0 ** e)
    for i in range(16777200, 16777230):
        floats.add(float(struct.unpack("<f", struct.pack("<f", float(i)))[0]))
    for i in range(1, 1000):
        floats.add(struct.unpack("<f", struct.pack("<f", i / 1000))[0])
    while len(doubles) < 500:
        v = as_double(rng.getrandbits(64))
        if math.isfinite(v):
            doubles.add(v)
    for e in range(-324, 309, 3):
        doubles.add(float(f"1e{e}"))
    for e in range(-1074, 1024, 17):
        doubles.add(2.0 ** e)
    for i in range(2 ** 53 - 5, 2 ** 53 + 5):
        doubles.add(float(i))
    for i in range(1, 1000):
        doubles.add(i / 1000)
    doubles.update([5e-324, 1.7976931348623157e308, 2.2250738585072014e-308, 0.1 + 0.2, 1 / 3])
    return sorted(floats), sorted(doubles)


def numbers_file(fk) -> str:
    """`f <bits> <json>` / `d <bits> <json>` lines: each value's bit pattern in hex and the
    JSON `json_format` writes for it in a float / double field."""
    import struct
    from google.protobuf import json_format
    floats, doubles = number_samples()
    m = fk.AllKinds(r_float=floats, r_double=doubles)
    js = json_format.MessageToDict(m)
    lines = []
    for v, text in zip(floats, js["rFloat"]):
        lines.append(f"f {struct.unpack('<I', struct.pack('<f', v))[0]:08x} {json.dumps(text)}")
    for v, text in zip(doubles, js["rDouble"]):
        lines.append(f"d {struct.unpack('<Q', struct.pack('<d', v))[0]:016x} {json.dumps(text)}")
    return "\n".join(lines) + "\n"


def cases():
    load_modules()
    from glimpse.testing.v1 import field_kinds_pb2 as fk
    from glimpse.widget.v1 import timeline_pb2 as tl, view_pb2 as vw, style_pb2 as st, family_pb2 as fam
    from glimpse.widget.v1 import intent_pb2 as it
    from glimpse.timeline.v1 import timeline_pb2 as ts
    from glimpse.activity.v1 import activity_pb2 as ac
    from glimpse.app.v1 import manifest_pb2 as mf
    out = {"all_kinds": all_kinds(fk), "defaults": fk.AllKinds()}
    out.update(oneof_cases(fk))
    out["tree"] = tree(fk)
    out["leaf_v2"] = fk.LeafV2(name="v2", weight=-1, color="blue", tags=[1, 18446744073709551615],
                               nested=fk.Leaf(name="in"))
    out["pixar_timeline"] = pixar_timeline(tl, vw, st)
    out["placement_status"] = placement_status(ts, tl, fam, it)
    out.update(activity_changes(ac))
    out["app_manifest"] = app_manifest(mf, fam)
    return out


def write(folder: pathlib.Path) -> list[str]:
    """Writes every golden file into `folder`; returns their names."""
    from google.protobuf import json_format, symbol_database
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    index = []
    all_cases = cases()
    for name, message in all_cases.items():
        (folder / f"{name}.binpb").write_bytes(message.SerializeToString(deterministic=True))
        (folder / f"{name}.json").write_text(canonical_json(message) + "\n", encoding="utf-8")
        written += [f"{name}.binpb", f"{name}.json"]
        index.append(f"{name} {message.DESCRIPTOR.full_name}")
    pool = symbol_database.Default().pool
    from google.protobuf import message_factory
    for name, (full_name, js) in INPUTS.items():
        cls = message_factory.GetMessageClass(pool.FindMessageTypeByName(full_name))
        text = json.dumps(js, separators=(",", ":"), ensure_ascii=False)
        message = json_format.Parse(text, cls())
        (folder / f"{name}.input.json").write_text(text + "\n", encoding="utf-8")
        (folder / f"{name}.binpb").write_bytes(message.SerializeToString(deterministic=True))
        (folder / f"{name}.json").write_text(canonical_json(message) + "\n", encoding="utf-8")
        written += [f"{name}.input.json", f"{name}.binpb", f"{name}.json"]
        index.append(f"{name} {full_name}")
    (folder / "index.txt").write_text("\n".join(index) + "\n", encoding="utf-8")
    written.append("index.txt")
    from glimpse.testing.v1 import field_kinds_pb2 as fk
    (folder / "numbers.txt").write_text(numbers_file(fk), encoding="utf-8")
    written.append("numbers.txt")
    return written


def main() -> int:
    folder = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else GOLDEN
    names = write(folder)
    print(f"json_golden: wrote {len(names)} files into {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
