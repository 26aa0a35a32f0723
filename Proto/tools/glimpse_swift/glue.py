"""The glue between a Swift value and protobuf-c's C struct: lifting after `unpack`,
lowering before `pack`, by direct member access."""
from .naming import F, SCALARS, Writer, escape, lower_camel
from .registry import MessageInfo


class GlueWriter:
    """Mixed into Generator, which provides reg, plan(), kind_of(), swift_type()…"""

    def glue_tree(self, w: Writer, info: MessageInfo):
        if not info.map_entry:
            self.glue(w, info)
        for n in info.proto.nested_type:
            self.glue_tree(w, self.reg.message(f"{info.full}.{n.name}"))

    def lift_value(self, fl, expr: str, info: MessageInfo, index: str = "-1") -> str:
        """Swift expression turning the C value `expr` of field `fl` into its Swift value.
        `index`: the element's index in a repeated field (-1 for a singular one), so that
        a refusal names `field[i]`."""
        k = self.kind_of(fl)
        if k == "scalar":
            return SCALARS[fl.type][1].format(v=expr)
        if k == "string":
            # protoc-gen-c-compat gives protobuf-c every string as bytes: length and all.
            return f'try _liftString({expr}.data, {expr}.len, "{info.full}", "{fl.name}", {index})'
        if k == "bytes":
            return f"_liftBytes({expr}.data, {expr}.len)"
        if k == "enum":
            return f"{self.reg.enum(fl.type_name).swift}(rawValue: .init(truncatingIfNeeded: {expr}.rawValue))"
        target = self.reg.message(fl.type_name)
        return self.nested(info, fl.name, index, target.swift, f"try {target.swift}(_c: {expr}, depth: depth &+ 1)")

    @staticmethod
    def nested(info: MessageInfo, field: str, index: str, result: str, body: str) -> str:
        """`body` (lifting what field `field` holds) with a refusal inside it named from here:
        `field[index].inner` of this message."""
        return (f'try _liftNested("{info.full}", "{field}", {index}) '
                f"{{ () throws(ProtoDecodingError) -> {result} in {body} }}")

    def lower_value(self, fl, expr: str, info: MessageInfo) -> str:
        k = self.kind_of(fl)
        if k == "scalar":
            return SCALARS[fl.type][2].format(v=expr)
        if k == "string":
            return (f"ProtobufCBinaryData(len: {expr}.utf8.count, "
                    f'data: try arena.lowerString({expr}, "{info.full}", "{fl.name}"))')
        if k == "bytes":
            return f"ProtobufCBinaryData(len: {expr}.count, data: arena.lowerBytes({expr}))"
        if k == "enum":
            return f"{self.reg.enum(fl.type_name).c_type}(rawValue: .init(truncatingIfNeeded: {expr}.rawValue))"
        return f"try arena.lower({expr}, depth: depth)"

    def binds_c(self, fields, groups) -> bool:
        """Whether lifting reads the C struct at all (a message without fields does not)."""
        return bool(groups) or any(p.oneof is None for p in fields)

    def glue(self, w: Writer, info: MessageInfo):
        fields, groups = self.plan(info)
        m = info.proto
        # The C struct stays in this module: the runtime sees raw pointers only.
        w(f"extension {info.swift}: _ProtoCBacked {{")
        w.indent()
        w(f"package static var _isRecursive: Swift.Bool {{ {'true' if info.recursive else 'false'} }}")
        w("package static func _cMake(in arena: ProtoArena) -> Swift.UnsafeMutableRawPointer {")
        w(f"    let c = arena.allocate({info.c_type}.self, count: 1)")
        w(f"    {info.c_lower}__init(c)")
        w("    return Swift.UnsafeMutableRawPointer(c)")
        w("}")
        w(f"package static let _descriptor = _ProtoDescriptor({info.c_lower}__init)")
        w()
        # Lifting.
        binds = self.binds_c(fields, groups)
        w(f"package init(_c {'raw' if binds else '_'}: Swift.UnsafeRawPointer, depth: Swift.Int) throws(ProtoDecodingError) {{")
        w.indent()
        w(f'guard depth < _protoMaxDepth else {{ throw .tooDeep(message: "{info.full}") }}')
        if binds:
            w(f"let c = raw.assumingMemoryBound(to: {info.c_type}.self)")
        w("self.init()")
        for p in fields:
            fl = p.proto
            cf = f"c.pointee.{p.c_name}"
            if p.oneof is not None:
                continue
            if p.is_map:
                entry = self.reg.message(fl.type_name)
                key = next(x for x in entry.proto.field if x.number == 1)
                val = next(x for x in entry.proto.field if x.number == 2)
                val_expr = (f"try e.pointee.value.flatMap {{ v throws(ProtoDecodingError) in {self.lift_value(val, 'v', entry)} }} ?? .init()"
                            if val.type == F.TYPE_MESSAGE else self.lift_value(val, "e.pointee.value", entry))
                w(f"if {cf.replace(p.c_name, 'n_' + p.c_name)} > 0, let list = {cf} {{")
                w.indent()
                w(f"var map = {self.swift_type(p)}(minimumCapacity: {cf.replace(p.c_name, 'n_' + p.c_name)})")
                w(f"for i in 0..<{cf.replace(p.c_name, 'n_' + p.c_name)} {{")
                w.indent()
                w("guard let e = list[i] else { continue }")
                w(self.nested(info, fl.name, "i", "Swift.Void",
                              f"map[{self.lift_value(key, 'e.pointee.key', entry)}] = {val_expr}"))
                w.close()
                w(f"self.{p.swift_name} = map")
                w.close()
            elif p.repeated:
                n = f"c.pointee.n_{p.c_name}"
                if p.kind == "scalar" and fl.type != F.TYPE_BOOL:
                    w(f"self.{p.swift_name} = _liftScalars({cf}, {n})")
                elif p.kind == "message":
                    w(f"if {n} > 0, let list = {cf} {{")
                    w.indent()
                    w(f"var out: {self.swift_type(p)} = []")
                    w(f"out.reserveCapacity({n})")
                    w(f"for i in 0..<{n} {{ if let e = list[i] {{ out.append({self.lift_value(fl, 'e', info, 'i')}) }} }}")
                    w(f"self.{p.swift_name} = out")
                    w.close()
                else:
                    w(f"if {n} > 0, let list = {cf} {{")
                    w.indent()
                    w(f"var out: {self.swift_type(p)} = []")
                    w(f"out.reserveCapacity({n})")
                    w(f"for i in 0..<{n} {{ out.append({self.lift_value(fl, 'list[i]', info, 'i')}) }}")
                    w(f"self.{p.swift_name} = out")
                    w.close()
            elif p.optional:
                w(f"if c.pointee._{p.c_name}_case.rawValue == {fl.number} {{ self.{p.swift_name} = {self.lift_value(fl, cf, info)} }}")
            elif p.kind == "message":
                w(f"if let v = {cf} {{ self.{p.swift_name} = {self.lift_value(fl, 'v', info)} }}")
            else:
                w(f"self.{p.swift_name} = {self.lift_value(fl, cf, info)}")
        for idx, type_name, members in groups:
            decl = m.oneof_decl[idx]
            prop = escape(lower_camel(decl.name))
            w(f"switch Swift.Int(c.pointee.{decl.name}_case.rawValue) {{")
            for p in members:
                fl = p.proto
                cf = f"c.pointee.{p.c_name}"
                if self.is_empty_message(fl):
                    w(f"case {fl.number}: self.{prop} = .{p.swift_name}")
                elif p.kind == "message":
                    w(f"case {fl.number}: if let v = {cf} {{ self.{prop} = .{p.swift_name}({self.lift_value(fl, 'v', info)}) }}")
                else:
                    w(f"case {fl.number}: self.{prop} = .{p.swift_name}({self.lift_value(fl, cf, info)})")
            w("default: break")
            w("}")
        w.close()
        w()
        # Lowering.
        w("package func _lower(into raw: Swift.UnsafeMutableRawPointer, arena: ProtoArena, depth: Swift.Int) throws(ProtoEncodingError) {")
        w.indent()
        if not fields:
            w("_ = (raw, arena, depth)")
        else:
            w(f"let c = raw.assumingMemoryBound(to: {info.c_type}.self)")
        for p in fields:
            fl = p.proto
            cf = f"c.pointee.{p.c_name}"
            if p.oneof is not None:
                continue
            if p.is_map:
                entry = self.reg.message(fl.type_name)
                key = next(x for x in entry.proto.field if x.number == 1)
                val = next(x for x in entry.proto.field if x.number == 2)
                w(f"if !self.{p.swift_name}.isEmpty {{")
                w.indent()
                w(f"let list = arena.allocate(Swift.UnsafeMutablePointer<{entry.c_type}>?.self, count: self.{p.swift_name}.count)")
                key_sort = "{ !$0.key && $1.key }" if key.type == F.TYPE_BOOL else "{ $0.key < $1.key }"
                w(f"for (i, (key, value)) in self.{p.swift_name}.sorted(by: {key_sort}).enumerated() {{")
                w.indent()
                w(f"let e = arena.allocate({entry.c_type}.self, count: 1)")
                w(f"{entry.c_lower}__init(e)")
                w(f"e.pointee.key = {self.lower_value(key, 'key', entry)}")
                w(f"e.pointee.value = {self.lower_value(val, 'value', entry)}")
                w("list[i] = e")
                w.close()
                w(f"c.pointee.n_{p.c_name} = self.{p.swift_name}.count")
                w(f"{cf} = list")
                w.close()
            elif p.repeated:
                w(f"if !self.{p.swift_name}.isEmpty {{")
                w.indent()
                if p.kind == "scalar" and fl.type != F.TYPE_BOOL:
                    w(f"{cf} = arena.lowerScalars(self.{p.swift_name})")
                elif p.kind == "message":
                    w(f"{cf} = try arena.lowerMessages(self.{p.swift_name}, depth: depth)")
                else:
                    ctype = {"string": "ProtobufCBinaryData", "bytes": "ProtobufCBinaryData",
                             "enum": self.reg.enum(fl.type_name).c_type if p.kind == "enum" else "",
                             "scalar": "protobuf_c_boolean"}[p.kind]
                    w(f"let list = arena.allocate({ctype}.self, count: self.{p.swift_name}.count)")
                    w(f"for (i, v) in self.{p.swift_name}.enumerated() {{ list[i] = {self.lower_value(fl, 'v', info)} }}")
                    w(f"{cf} = list")
                w(f"c.pointee.n_{p.c_name} = self.{p.swift_name}.count")
                w.close()
            elif p.optional:
                w(f"if let v = self.{p.swift_name} {{")
                w(f"    c.pointee._{p.c_name}_case = .init(rawValue: {fl.number})")
                w(f"    {cf} = {self.lower_value(fl, 'v', info)}")
                w("}")
            elif p.kind == "message":
                w(f"if let v = self.{p.swift_name} {{ {cf} = {self.lower_value(fl, 'v', info)} }}")
            elif p.kind == "string":
                w(f"if !self.{p.swift_name}.isEmpty {{ {cf} = {self.lower_value(fl, 'self.' + p.swift_name, info)} }}")
            elif p.kind == "bytes":
                w(f"if !self.{p.swift_name}.isEmpty {{ {cf} = {self.lower_value(fl, 'self.' + p.swift_name, info)} }}")
            else:
                w(f"{cf} = {self.lower_value(fl, 'self.' + p.swift_name, info)}")
        for idx, type_name, members in groups:
            decl = m.oneof_decl[idx]
            prop = escape(lower_camel(decl.name))
            w(f"switch self.{prop} {{")
            w("case nil: break")
            for p in members:
                fl = p.proto
                cf = f"c.pointee.{p.c_name}"
                w(f"case .{p.swift_name}{'' if self.is_empty_message(fl) else '(let v)'}?:")
                w.indent()
                w(f"c.pointee.{decl.name}_case = .init(rawValue: {fl.number})")
                if self.is_empty_message(fl):
                    w(f"{cf} = try arena.lower({self.reg.message(fl.type_name).swift}(), depth: depth)")
                else:
                    w(f"{cf} = {self.lower_value(fl, 'v', info)}")
                w.dedent()
            w("}")
        w.close(2)
        w()
