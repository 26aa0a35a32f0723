"""proto3 canonical JSON (protobuf.dev/programming-guides/json) for every message: the
`ProtoJSONMessage` conformance, field by field, and each enum's name table.

The generated code only names fields: one writer call per field in `protoJSONValue()`,
one `case` per field number in `init(protoJSONValue:…)`, and a table of JSON and proto
names. What a field's Swift type decides (numbers or strings, base64, enum names, map
keys, presence, range checks) is the runtime's (Sources/Wire/GlimpseMessages/Runtime/
ProtoJSONCodec.swift), once per type, so the per-message code stays small."""
from .naming import F, Writer, escape, fail, lower_camel
from .registry import EnumInfo, MessageInfo

# Well-known types whose JSON is a string, by full name: (runtime writer, runtime reader).
STRING_WKTS = {
    "google.protobuf.Timestamp": ("timestampJSON", "timestamp"),
    "google.protobuf.Duration": ("durationJSON", "duration"),
}
# Well-known types with a JSON mapping of their own that this generator does not write.
UNSUPPORTED_WKTS = {
    "google.protobuf.Any", "google.protobuf.Struct", "google.protobuf.Value",
    "google.protobuf.ListValue", "google.protobuf.NullValue", "google.protobuf.FieldMask",
    "google.protobuf.DoubleValue", "google.protobuf.FloatValue", "google.protobuf.Int64Value",
    "google.protobuf.UInt64Value", "google.protobuf.Int32Value", "google.protobuf.UInt32Value",
    "google.protobuf.BoolValue", "google.protobuf.StringValue", "google.protobuf.BytesValue",
}


def json_name(fl) -> str:
    """The field's JSON name: protoc's `json_name` (always set in a plugin's request), else
    computed as protoc does (drop each `_`, upper-case the letter after it)."""
    if fl.HasField("json_name"):
        return fl.json_name
    out, up = [], False
    for ch in fl.name:
        if ch == "_":
            up = True
        elif up:
            out.append(ch.upper())
            up = False
        else:
            out.append(ch)
    return "".join(out)


class JSONWriter:
    """Mixed into Generator, which provides reg, plan(), swift_type(), element_type()…"""

    def json_enum(self, w: Writer, e: EnumInfo):
        """The enum's value names (every name, so aliases read too), in declaration order."""
        table = " ".join(f"{v.name}={v.number}" for v in e.proto.value)
        w(f"extension {e.swift}: _ProtoJSONEnum {{")
        w(f'    package static let _protoJSONNames = _ProtoJSONEnumNames("{e.full}", "{table}")')
        w("}")
        w()

    def json_enum_tree(self, w: Writer, info: MessageInfo):
        for e in info.proto.enum_type:
            self.json_enum(w, self.reg.enum(f"{info.full}.{e.name}"))
        for n in info.proto.nested_type:
            self.json_enum_tree(w, self.reg.message(f"{info.full}.{n.name}"))

    def json_tree(self, w: Writer, info: MessageInfo):
        if not info.map_entry:
            self.json_message(w, info)
        for n in info.proto.nested_type:
            self.json_tree(w, self.reg.message(f"{info.full}.{n.name}"))

    def json_message(self, w: Writer, info: MessageInfo):
        v = self.vis
        fields, groups = self.plan(info)
        for p in fields:
            if p.kind == "message" and p.proto.type_name.lstrip(".") in UNSUPPORTED_WKTS:
                fail(f"{info.full}.{p.proto.name}: {p.proto.type_name.lstrip('.')} has a JSON mapping this generator does not write")
        w(f"extension {info.swift}: ProtoJSONMessage, _ProtoJSONField {{")
        w.indent()
        if info.full in STRING_WKTS:
            writer, reader = STRING_WKTS[info.full]
            names = sorted(f.name for f in info.proto.field)
            if names != ["nanos", "seconds"]:
                fail(f"{info.full}: expected the fields seconds and nanos")
            w(f"{v} func protoJSONValue() -> JSONValue {{")
            w(f"    _ProtoJSONWellKnown.{writer}(seconds: self.seconds, nanos: self.nanos)")
            w("}")
            w()
            w(f"{v} init(protoJSONValue value: JSONValue, path: Swift.String, ignoringUnknownFields: Swift.Bool) throws(ProtoJSONError) {{")
            w("    self.init()")
            w(f"    (self.seconds, self.nanos) = try _ProtoJSONWellKnown.{reader}(value, path)")
            w("}")
            w.close()
            w()
            return
        # JSON order is field-number order (what protobuf's printers, Python's
        # ListFields among them, produce), whatever the declaration order.
        ordered = sorted(fields, key=lambda p: p.proto.number)
        oneof_names = {idx: lower_camel(info.proto.oneof_decl[idx].name) for idx, _, _ in groups}
        table = []
        for p in ordered:
            fl = p.proto
            entry = f"{fl.number},{json_name(fl)},{fl.name}"
            if p.oneof is not None:
                entry += f",{info.proto.oneof_decl[p.oneof].name}"
            table.append(entry)
        # Encoding.
        w(f"{v} func protoJSONValue() -> JSONValue {{")
        w.indent()
        if not ordered:
            w(".object([])")
        else:
            w("var w = _ProtoJSONWriter()")
            for p in ordered:
                fl = p.proto
                name = json_name(fl)
                prop = f"self.{p.swift_name}"
                if p.oneof is not None:
                    one = f"self.{escape(oneof_names[p.oneof])}"
                    if self.is_empty_message(fl):
                        w(f'if case .{p.swift_name}? = {one} {{ w.member("{name}", {self.reg.message(fl.type_name).swift}()) }}')
                    else:
                        w(f'if case .{p.swift_name}(let v)? = {one} {{ w.member("{name}", v) }}')
                elif p.is_map:
                    w(f'w.map("{name}", {prop})')
                elif p.repeated:
                    w(f'w.repeated("{name}", {prop})')
                elif p.optional or p.kind == "message":
                    w(f'w.optional("{name}", {prop})')
                else:
                    w(f'w.field("{name}", {prop})')
            w("return w.value")
        w.close()
        w()
        # Decoding.
        w(f"{v} init(protoJSONValue value: JSONValue, path: Swift.String, ignoringUnknownFields: Swift.Bool) throws(ProtoJSONError) {{")
        w.indent()
        w("self.init()")
        if not ordered:
            w("try _ProtoJSONReader.readEmpty(value, path, Self._protoJSONFields, ignoringUnknownFields)")
        else:
            w("var r = try _ProtoJSONReader(value, path, Self._protoJSONFields, ignoringUnknownFields)")
            w("while let number = try r.next() {")
            w.indent()
            w("switch number {")
            for p in ordered:
                fl = p.proto
                prop = f"self.{p.swift_name}"
                if p.oneof is not None:
                    one = f"self.{escape(oneof_names[p.oneof])}"
                    t = self.element_type(fl)
                    if self.is_empty_message(fl):
                        w(f"case {fl.number}: _ = try r.value({t}.self); {one} = .{p.swift_name}")
                    else:
                        w(f"case {fl.number}: if let v = try r.value({t}.self) {{ {one} = .{p.swift_name}(v) }}")
                elif p.is_map:
                    w(f"case {fl.number}: try r.readMap(&{prop})")
                elif p.repeated:
                    w(f"case {fl.number}: try r.readRepeated(&{prop})")
                elif p.optional or p.kind == "message":
                    w(f"case {fl.number}: try r.readOptional(&{prop})")
                else:
                    w(f"case {fl.number}: try r.read(&{prop})")
            w("default: break")
            w("}")
            w.close()
        w.close()
        w()
        w(f'private static let _protoJSONFields = _ProtoJSONFieldTable("{info.full}", "{" ".join(table)}")')
        w.close()
        w()
