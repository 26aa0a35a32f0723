"""Each file's FileDescriptorProto and symbols, embedded for server reflection."""
import base64

from google.protobuf import descriptor_pb2 as d

from .naming import HEADER


def symbols_of(f: d.FileDescriptorProto) -> list[str]:
    """Fully-qualified names server reflection answers `file_containing_symbol` for."""
    prefix = f.package + "." if f.package else ""
    out = []

    def message(m, scope):
        name = scope + m.name
        out.append(name)
        for e in m.enum_type:
            out.append(f"{name}.{e.name}")
        for n in m.nested_type:
            message(n, name + ".")

    for m in f.message_type:
        message(m, prefix)
    for e in f.enum_type:
        out.append(prefix + e.name)
    for svc in f.service:
        out.append(prefix + svc.name)
        out.extend(f"{prefix}{svc.name}.{m.name}" for m in svc.method)
    return out


def descriptors_file(name: str, request, by_name, visibility: str, runtime_import: str | None) -> str:
    lines = [HEADER.format(source=", ".join(sorted(request.file_to_generate))).rstrip("\n"), ""]
    if runtime_import:
        # `files` is of the runtime's ProtoFileDescriptor type, in this module's API.
        lines += [f"{visibility} import {runtime_import}", ""]
    lines.append("/// The FileDescriptorProtos of this module's .proto files, made at generation time.")
    lines.append(f"{visibility} enum {name} {{")
    lines.append(f"    {visibility} static let files: [ProtoFileDescriptor] = [")
    for file_name in sorted(request.file_to_generate):
        f = d.FileDescriptorProto()
        f.CopyFrom(by_name[file_name])
        f.ClearField("source_code_info")
        encoded = base64.b64encode(f.SerializeToString()).decode()
        deps = ", ".join(f'"{x}"' for x in f.dependency)
        syms = ", ".join(f'"{x}"' for x in symbols_of(f))
        lines.append("        ProtoFileDescriptor(")
        lines.append(f'            name: "{file_name}",')
        lines.append(f"            dependencies: [{deps}],")
        lines.append(f"            symbols: [{syms}],")
        lines.append(f'            base64: "{encoded}"),')
    lines.append("    ]")
    lines.append("}")
    return "\n".join(lines) + "\n"
