"""Swift declarations of messages and enums: structs, oneof enums, open enums."""
from dataclasses import dataclass

from google.protobuf import descriptor_pb2 as d

from .glue import GlueWriter
from .protojson import JSONWriter
from .naming import (F, C_KEYWORDS, RESERVED_MEMBERS, SCALARS, HEADER, Writer, escape, fail,
                     lower_camel, upper_camel, namespace_for, camel_to_lower)
from .registry import EnumInfo, MessageInfo, Registry


@dataclass
class FieldPlan:
    proto: d.FieldDescriptorProto
    swift_name: str
    c_name: str
    kind: str                 # scalar | string | bytes | enum | message
    repeated: bool = False
    is_map: bool = False
    optional: bool = False    # proto3 optional (synthetic oneof)
    oneof: int | None = None  # index of a real oneof
    boxed: bool = False
    index: int = 0            # position in the message's field list (for comments)


class Generator(GlueWriter, JSONWriter):
    def __init__(self, reg: Registry, c_module: str, visibility: str, runtime_import: str | None):
        self.reg = reg
        self.runtime_import = runtime_import
        self.c_module = c_module
        self.vis = visibility

    # --- type helpers --------------------------------------------------------------------

    def kind_of(self, fl) -> str:
        if fl.type == F.TYPE_STRING:
            return "string"
        if fl.type == F.TYPE_BYTES:
            return "bytes"
        if fl.type == F.TYPE_ENUM:
            return "enum"
        if fl.type == F.TYPE_MESSAGE:
            return "message"
        if fl.type == F.TYPE_GROUP:
            fail(f"groups are not supported ({fl.name})")
        return "scalar"

    def element_type(self, fl) -> str:
        k = self.kind_of(fl)
        if k == "scalar":
            return SCALARS[fl.type][0]
        if k == "string":
            return "Swift.String"
        if k == "bytes":
            return "[Swift.UInt8]"
        if k == "enum":
            return self.reg.enum(fl.type_name).swift
        return self.reg.message(fl.type_name).swift

    def default_value(self, fl) -> str:
        k = self.kind_of(fl)
        if k == "scalar":
            return SCALARS[fl.type][3]
        if k == "string":
            return '""'
        if k == "bytes":
            return "[]"
        if k == "enum":
            return ".init(rawValue: 0)"
        return ".init()"

    def is_empty_message(self, fl) -> bool:
        return fl.type == F.TYPE_MESSAGE and len(self.reg.message(fl.type_name).proto.field) == 0

    def plan(self, info: MessageInfo) -> tuple[list[FieldPlan], list[tuple[int, str, list[FieldPlan]]]]:
        m = info.proto
        fields: list[FieldPlan] = []
        oneofs: dict[int, list[FieldPlan]] = {}
        taken = set()
        for position, fl in enumerate(m.field):
            if fl.name in C_KEYWORDS:
                fail(f"{info.full}.{fl.name}: field name is a C keyword; protobuf-c cannot compile it")
            name = lower_camel(fl.name)
            if name in RESERVED_MEMBERS or name in taken:
                fail(f"{info.full}.{fl.name}: Swift name {name} is taken")
            taken.add(name)
            p = FieldPlan(fl, escape(name), fl.name, self.kind_of(fl), index=position)
            p.repeated = fl.label == F.LABEL_REPEATED
            if p.repeated and fl.type == F.TYPE_MESSAGE and self.reg.message(fl.type_name).map_entry:
                p.is_map = True
            if fl.HasField("oneof_index"):
                if fl.proto3_optional:
                    p.optional = True
                else:
                    p.oneof = fl.oneof_index
                    oneofs.setdefault(fl.oneof_index, []).append(p)
            p.boxed = fl.number in info.boxed_fields
            fields.append(p)
        groups = []
        for idx, members in sorted(oneofs.items()):
            decl = m.oneof_decl[idx]
            type_name = upper_camel(decl.name)
            if any(n.name == type_name for n in m.nested_type) or any(e.name == type_name for e in m.enum_type):
                type_name = "OneOf_" + type_name
            groups.append((idx, type_name, members))
        return fields, groups

    # --- files --------------------------------------------------------------------------

    def file(self, f: d.FileDescriptorProto) -> str:
        w = Writer()
        w(HEADER.format(source=f.name).rstrip("\n"))
        w()
        if not f.message_type and not f.enum_type:
            w(f"// {f.name} defines no messages or enums (services only).")
            return w.text()
        w("#if canImport(FoundationEssentials)")
        w("import FoundationEssentials")
        w("#else")
        w("import Foundation")
        w("#endif")
        # C modules stay internal: the glue binds the runtime's raw pointers to its own C
        # structs, so no C type appears in a public or package declaration.
        w(f"internal import {self.c_module}")
        w("internal import CProtobufC")
        if self.runtime_import:
            # The generated types conform to the runtime's GlimpseMessage in their API.
            # An enum-only file still names the runtime's package JSON name table.
            level = self.vis if f.message_type else "package"
            w(f"{level} import {self.runtime_import}")
        if f.message_type:
            # ProtoJSONMessage's requirements name JSONValue.
            w(f"{self.vis} import GlimpseJSON")
        w()
        ns = namespace_for(f.package)
        for i, e in enumerate(f.enum_type):
            self.enum_decl(w, self.reg.enum(f"{f.package}.{e.name}"), ns, (4, i))
        for i, m in enumerate(f.message_type):
            self.message_decl(w, self.reg.message(f"{f.package}.{m.name}"), ns, (4, i))
        for m in f.message_type:
            self.glue_tree(w, self.reg.message(f"{f.package}.{m.name}"))
        w("// MARK: - proto3 JSON")
        w()
        for e in f.enum_type:
            self.json_enum(w, self.reg.enum(f"{f.package}.{e.name}"))
        for m in f.message_type:
            self.json_enum_tree(w, self.reg.message(f"{f.package}.{m.name}"))
        for m in f.message_type:
            self.json_tree(w, self.reg.message(f"{f.package}.{m.name}"))
        return w.text().rstrip("\n") + "\n"

    def comment(self, info_file: str, path: tuple) -> str | None:
        return self.reg.comments.get((info_file, path))

    # --- enums --------------------------------------------------------------------------

    def enum_cases(self, e: EnumInfo) -> list[tuple[str, int]]:
        prefix = camel_to_lower(e.proto.name).upper() + "_"
        seen, out = set(), []
        for v in e.proto.value:
            raw = v.name[len(prefix):] if v.name.startswith(prefix) else v.name
            if not raw or raw[0].isdigit():
                raw = v.name
            name = lower_camel(raw.lower())
            if name == "unrecognized":
                fail(f"{e.full}.{v.name}: 'unrecognized' is reserved for unknown values")
            if v.number in {n for _, n in out}:
                continue  # allow_alias: the first name wins
            if name in seen:
                fail(f"{e.full}: two values map to .{name}")
            seen.add(name)
            out.append((name, v.number))
        return out

    def enum_decl(self, w: Writer, e: EnumInfo, scope: str, path: tuple):
        cases = self.enum_cases(e)
        w(f"extension {scope} {{")
        w.indent()
        w.doc(self.comment(e.file, path))
        w(f"{self.vis} enum {e.proto.name}: Swift.RawRepresentable, Swift.CaseIterable, Swift.Hashable, Swift.Sendable {{")
        w.indent()
        for (name, number), v in zip(cases, e.proto.value):
            w(f"case {escape(name)} // = {number}")
        w("/// A value this version of the schema does not know; kept, not dropped.")
        w("case unrecognized(Swift.Int32)")
        w()
        w(f"{self.vis} init(rawValue: Swift.Int32) {{")
        w.indent()
        w("switch rawValue {")
        for name, number in cases:
            w(f"case {number}: self = .{escape(name)}")
        w("default: self = .unrecognized(rawValue)")
        w("}")
        w.close()
        w()
        w(f"{self.vis} var rawValue: Swift.Int32 {{")
        w.indent()
        w("switch self {")
        for name, number in cases:
            w(f"case .{escape(name)}: return {number}")
        w("case .unrecognized(let value): return value")
        w("}")
        w.close()
        w()
        w(f"{self.vis} static let allCases: [Self] = [{', '.join('.' + escape(n) for n, _ in cases)}]")
        w.close(2)
        w()

    # --- messages -----------------------------------------------------------------------

    def swift_type(self, p: FieldPlan) -> str:
        if p.is_map:
            entry = self.reg.message(p.proto.type_name)
            key = next(x for x in entry.proto.field if x.number == 1)
            val = next(x for x in entry.proto.field if x.number == 2)
            return f"[{self.element_type(key)}: {self.element_type(val)}]"
        t = self.element_type(p.proto)
        if p.repeated:
            return f"[{t}]"
        return t

    def property_decl(self, p: FieldPlan) -> tuple[str, str]:
        """(Swift type as seen by users, default)."""
        t = self.swift_type(p)
        if p.repeated:
            return t, "[:]" if p.is_map else "[]"
        if p.kind == "message" or p.optional:
            return t + "?", "nil"
        return t, self.default_value(p.proto)

    def message_decl(self, w: Writer, info: MessageInfo, scope: str, path: tuple):
        if info.map_entry:
            return
        fields, groups = self.plan(info)
        m = info.proto
        w(f"extension {scope} {{")
        w.indent()
        w.doc(self.comment(info.file, path))
        w(f"{self.vis} struct {m.name}: GlimpseMessage {{")
        w.indent()
        w(f'{self.vis} static let protoMessageName = "{info.full}"')
        w()
        one_of_names = {idx: tn for idx, tn, _ in groups}
        emitted_oneofs = set()
        for p in fields:
            fi = p.index
            if p.oneof is not None:
                if p.oneof in emitted_oneofs:
                    continue
                emitted_oneofs.add(p.oneof)
                decl = m.oneof_decl[p.oneof]
                w.doc(self.comment(info.file, path + (8, p.oneof)))
                w(f"{self.vis} var {escape(lower_camel(decl.name))}: {one_of_names[p.oneof]}? = nil")
                continue
            t, default = self.property_decl(p)
            w.doc(self.comment(info.file, path + (2, fi)))
            if p.boxed:
                inner = t[:-1]
                w(f"{self.vis} var {p.swift_name}: {t} {{")
                w.indent()
                w(f"get {{ _{p.swift_name.strip('`')}?.value }}")
                w(f"set {{ _{p.swift_name.strip('`')} = newValue.map {{ _ProtoBox($0) }} }}")
                w.close()
                w(f"private var _{p.swift_name.strip('`')}: _ProtoBox<{inner}>? = nil")
            else:
                w(f"{self.vis} var {p.swift_name}: {t} = {default}")
        for idx, type_name, members in groups:
            w()
            self.oneof_decl(w, info, type_name, members, path + (8, idx))
        w()
        w(f"{self.vis} init() {{}}")
        # Memberwise initializer with defaults, so callers name only what they set.
        params, assigned, seen = [], [], set()
        for p in fields:  # in declaration order; a oneof sits where its first member is
            if p.oneof is not None:
                if p.oneof in seen:
                    continue
                seen.add(p.oneof)
                n = escape(lower_camel(m.oneof_decl[p.oneof].name))
                params.append(f"{n}: {one_of_names[p.oneof]}? = nil")
                assigned.append(n)
                continue
            t, default = self.property_decl(p)
            params.append(f"{p.swift_name}: {t} = {default}")
            assigned.append(p.swift_name)
        if params:
            w()
            w(f"{self.vis} init(")
            w.indent()
            for i, prm in enumerate(params):
                w(prm + ("," if i < len(params) - 1 else ""))
            w.dedent()
            w(") {")
            w.indent()
            for n in assigned:
                w(f"self.{n} = {n}")
            w.close()
        w()
        w(f"{self.vis} func serializedBytes() throws(ProtoEncodingError) -> [Swift.UInt8] {{")
        w("    try _ProtoWire.encode(self)")
        w("}")
        w()
        w(f"{self.vis} func serialize(appendingTo buffer: inout [Swift.UInt8]) throws(ProtoEncodingError) {{")
        w("    try _ProtoWire.append(self, to: &buffer)")
        w("}")
        w()
        w(f"{self.vis} init(serializedBytes bytes: Swift.UnsafeRawBufferPointer) throws(ProtoDecodingError) {{")
        w("    self = try _ProtoWire.decode(Self.self, from: bytes)")
        w("}")
        w.close(2)
        w()
        for i, e in enumerate(m.enum_type):
            self.enum_decl(w, self.reg.enum(f"{info.full}.{e.name}"), info.swift, path + (4, i))
        for i, n in enumerate(m.nested_type):
            self.message_decl(w, self.reg.message(f"{info.full}.{n.name}"), info.swift, path + (3, i))

    def oneof_decl(self, w: Writer, info: MessageInfo, type_name: str, members: list[FieldPlan], path: tuple):
        indirect = any(p.boxed for p in members)
        w(f"{self.vis} {'indirect ' if indirect else ''}enum {type_name}: Swift.Hashable, Swift.Sendable {{")
        w.indent()
        for p in members:
            w.doc(self.comment(info.file, path[:-2] + (2, p.index)))
            if self.is_empty_message(p.proto):
                w(f"case {p.swift_name}")
            else:
                w(f"case {p.swift_name}({self.element_type(p.proto)})")
        w()
        w("/// The set member's field name in the .proto file.")
        w(f"{self.vis} var protoFieldName: Swift.String {{")
        w.indent()
        w("switch self {")
        for p in members:
            w(f'case .{p.swift_name}: "{p.proto.name}"')
        w("}")
        w.close()
        w.close()

    # --- glue ---------------------------------------------------------------------------
