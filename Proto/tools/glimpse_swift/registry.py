"""Every message and enum of a request, with its Swift and C names, and the
recursion analysis that decides which fields are boxed."""
from dataclasses import dataclass, field as dc_field

from google.protobuf import descriptor_pb2 as d

from .naming import F, camel_to_lower, namespace_for, to_camel


@dataclass
class EnumInfo:
    full: str              # glimpse.widget.v1.WidgetFamily
    swift: str             # GlimpseWidgetV1.WidgetFamily
    c_type: str
    proto: d.EnumDescriptorProto
    file: str


@dataclass
class MessageInfo:
    full: str
    swift: str
    c_type: str
    c_lower: str           # glimpse__widget__v1__timeline_entry
    proto: d.DescriptorProto
    file: str
    map_entry: bool = False
    boxed_fields: set = dc_field(default_factory=set)
    recursive: bool = False


class Registry:
    def __init__(self, request):  # a CodeGeneratorRequest
        self.messages: dict[str, MessageInfo] = {}
        self.enums: dict[str, EnumInfo] = {}
        self.comments: dict[tuple, str] = {}
        for f in request.proto_file:
            ns = namespace_for(f.package)
            c_pkg = "__".join(to_camel(p) for p in f.package.split(".") if p)
            l_pkg = "__".join(camel_to_lower(p) for p in f.package.split(".") if p)
            for i, e in enumerate(f.enum_type):
                self._add_enum(f, e, f.package, ns, c_pkg)
            for m in f.message_type:
                self._add_message(f, m, f.package, ns, c_pkg, l_pkg)
            for loc in f.source_code_info.location:
                text = loc.leading_comments or loc.trailing_comments
                if text:
                    self.comments[(f.name, tuple(loc.path))] = text

    @staticmethod
    def _join(*parts):
        return "__".join(p for p in parts if p)

    def _add_enum(self, f, e, scope_full, scope_swift, scope_c):
        full = f"{scope_full}.{e.name}" if scope_full else e.name
        self.enums[full] = EnumInfo(full, f"{scope_swift}.{e.name}", self._join(scope_c, e.name), e, f.name)

    def _add_message(self, f, m, scope_full, scope_swift, scope_c, scope_l):
        full = f"{scope_full}.{m.name}" if scope_full else m.name
        info = MessageInfo(
            full=full,
            swift=f"{scope_swift}.{m.name}",
            c_type=self._join(scope_c, m.name),
            c_lower=self._join(scope_l, camel_to_lower(m.name)),
            proto=m,
            file=f.name,
            map_entry=m.options.map_entry,
        )
        self.messages[full] = info
        for e in m.enum_type:
            self._add_enum(f, e, full, info.swift, info.c_type)
        for n in m.nested_type:
            self._add_message(f, n, full, info.swift, info.c_type, info.c_lower)

    def message(self, type_name: str) -> MessageInfo:
        return self.messages[type_name.lstrip(".")]

    def enum(self, type_name: str) -> EnumInfo:
        return self.enums[type_name.lstrip(".")]

    # --- recursion: which by-value containments must be boxed ---------------------------

    def resolve_cycles(self):
        """Box the fewest by-value edges so no struct contains itself.

        An edge A -> B is a singular message field or a oneof member of A of type B (held
        inline). Within each strongly connected component, a greedy feedback vertex set is
        chosen; every inline edge pointing at a chosen vertex is boxed.
        """
        edges: dict[str, set] = {k: set() for k in self.messages}
        for name, info in self.messages.items():
            for fl in info.proto.field:
                if fl.type == F.TYPE_MESSAGE and fl.label != F.LABEL_REPEATED:
                    edges[name].add(fl.type_name.lstrip("."))
        chosen: set = set()
        active = set(self.messages)
        while True:
            sccs = [c for c in tarjan(active, edges) if len(c) > 1 or any(v in edges[v] for v in c)]
            if not sccs:
                break
            for comp in sccs:
                best = max(sorted(comp), key=lambda v: (
                    sum(1 for u in comp if v in edges[u]) * len(edges[v] & comp), v))
                chosen.add(best)
                active.discard(best)
                for v in comp:
                    self.messages[v].recursive = True
        for name, info in self.messages.items():
            for fl in info.proto.field:
                if fl.type == F.TYPE_MESSAGE and fl.label != F.LABEL_REPEATED:
                    if fl.type_name.lstrip(".") in chosen:
                        info.boxed_fields.add(fl.number)
        # Anything that can reach a recursive message is itself of unbounded depth.
        changed = True
        while changed:
            changed = False
            for name, info in self.messages.items():
                if info.recursive:
                    continue
                for fl in info.proto.field:
                    if fl.type == F.TYPE_MESSAGE and self.message(fl.type_name).recursive:
                        info.recursive = True
                        changed = True
                        break


def tarjan(nodes: set, edges: dict) -> list:
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def strong(v):
        # Iterative Tarjan, so deep schemas cannot overflow Python's stack.
        work = [(v, iter(sorted(edges[v] & nodes)))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w] & nodes))))
                    advanced = True
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = set()
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.add(w)
                    if w == node:
                        break
                out.append(comp)

    for v in sorted(nodes):
        if v not in index:
            strong(v)
    return out
