#!/usr/bin/env python3
"""Breaking-change check for the Proto/ contract, by buf's FILE category (run by Proto/breaking.sh).

    breaking.py --ref REF OLD_SET NEW_SET

OLD_SET and NEW_SET are FileDescriptorSets (protoc --include_imports --descriptor_set_out).
Only the project's own files are compared (everything but google/*, which comes from protoc's
bundled include). Prints one line per break, sorted, to stdout:

    glimpse/gateway/v1/gateway.proto: FIELD_NO_DELETE: field 3 ("name") of message ... was deleted ...

and a summary line to stderr; exits 1 when anything broke, 0 (with one line on stdout) when not.

Rules checked (buf's IDs, their FILE-category meaning unless noted):
    FILE_NO_DELETE, FILE_SAME_PACKAGE, FILE_SAME_SYNTAX,
    MESSAGE_NO_DELETE (nested too), ENUM_NO_DELETE (nested too), SERVICE_NO_DELETE,
    FIELD_NO_DELETE (with FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED's leniency: deleting a field
        is fine when its number is now reserved; buf's FILE rule itself never allows it),
    FIELD_SAME_TYPE (message and enum fields by type name; maps by key and value type),
    FIELD_SAME_CARDINALITY (buf's successor of FIELD_SAME_LABEL: implicit presence, optional
        with explicit presence, repeated, map),
    FIELD_SAME_NAME, FIELD_SAME_JSON_NAME, FIELD_SAME_ONEOF, ONEOF_NO_DELETE,
    ENUM_VALUE_NO_DELETE (with ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED's leniency, as for
        fields), ENUM_VALUE_SAME_NAME,
    RESERVED_MESSAGE_NO_DELETE, RESERVED_ENUM_NO_DELETE,
    RPC_NO_DELETE, RPC_SAME_REQUEST_TYPE, RPC_SAME_RESPONSE_TYPE,
    RPC_SAME_CLIENT_STREAMING, RPC_SAME_SERVER_STREAMING.

FILE rules not checked, and why (the contract is proto3 and sets no options; a change that
starts using one of these features should add its rule here first):
    FILE_SAME_GO_PACKAGE, FILE_SAME_JAVA_PACKAGE, FILE_SAME_JAVA_MULTIPLE_FILES,
    FILE_SAME_JAVA_OUTER_CLASSNAME, FILE_SAME_JAVA_STRING_CHECK_UTF8, FILE_SAME_CSHARP_NAMESPACE,
    FILE_SAME_OBJC_CLASS_PREFIX, FILE_SAME_PHP_CLASS_PREFIX, FILE_SAME_PHP_NAMESPACE,
    FILE_SAME_PHP_METADATA_NAMESPACE, FILE_SAME_RUBY_PACKAGE, FILE_SAME_SWIFT_PREFIX,
    FILE_SAME_OPTIMIZE_FOR, FILE_SAME_CC_GENERIC_SERVICES, FILE_SAME_JAVA_GENERIC_SERVICES,
    FILE_SAME_PY_GENERIC_SERVICES, FILE_SAME_PHP_GENERIC_SERVICES, FILE_SAME_CC_ENABLE_ARENAS
        -- file options; no file in Proto/ sets one.
    FIELD_SAME_CPP_STRING_TYPE (formerly FIELD_SAME_CTYPE), FIELD_SAME_JSTYPE,
    FIELD_SAME_JAVA_UTF8_VALIDATION, MESSAGE_NO_REMOVE_STANDARD_DESCRIPTOR_ACCESSOR,
    MESSAGE_SAME_MESSAGE_SET_WIRE_FORMAT, RPC_SAME_IDEMPOTENCY_LEVEL
        -- field, message and method options; none is set.
    FIELD_SAME_DEFAULT, MESSAGE_SAME_REQUIRED_FIELDS
        -- proto2/editions only: proto3 has neither explicit defaults nor required fields.
    ENUM_SAME_TYPE, ENUM_SAME_JSON_FORMAT, MESSAGE_SAME_JSON_FORMAT, FIELD_SAME_UTF8_VALIDATION
        -- editions features; in proto3 they are fixed by the syntax, which FILE_SAME_SYNTAX checks.
    EXTENSION_NO_DELETE, EXTENSION_MESSAGE_NO_DELETE
        -- proto3 has no extension ranges and extends only option messages (custom options),
           which the contract does not declare.
"""
import argparse
import sys

from google.protobuf import descriptor_pb2

FieldProto = descriptor_pb2.FieldDescriptorProto

# Files that come from protoc's bundled include (the well-known types), never from Proto/.
EXTERNAL_PREFIXES = ("google/",)

# What `reserved 5 to max` ends at: the largest field number, and the largest enum number.
MAX_FIELD_NUMBER = 536_870_911
MAX_ENUM_NUMBER = 2_147_483_647

SCALAR_NAMES = {
    value: name[len("TYPE_"):].lower()
    for name, value in FieldProto.Type.items()
    if value not in (FieldProto.TYPE_MESSAGE, FieldProto.TYPE_ENUM, FieldProto.TYPE_GROUP)
}


class Report:
    """Collects breaks as (file, rule, message) and prints them sorted, so the output never
    depends on the order of files or declarations."""

    def __init__(self):
        self.breaks = set()

    def add(self, file_name, rule, message):
        self.breaks.add((file_name, rule, message))

    def lines(self):
        return [f"{file_name}: {rule}: {message}" for file_name, rule, message in sorted(self.breaks)]


def read_set(path):
    descriptor_set = descriptor_pb2.FileDescriptorSet()
    with open(path, "rb") as handle:
        descriptor_set.ParseFromString(handle.read())  # an empty file is an empty set
    return descriptor_set


def project_files(descriptor_set):
    return {f.name: f for f in descriptor_set.file if not f.name.startswith(EXTERNAL_PREFIXES)}


def messages_by_full_name(descriptor_set):
    """Every message of every file, by its type_name spelling (".pkg.Outer.Inner"); map fields
    are described through their entry messages, which may live in any file."""
    found = {}

    def walk(prefix, messages):
        for message in messages:
            full = f"{prefix}.{message.name}"
            found[full] = message
            walk(full, message.nested_type)

    for file in descriptor_set.file:
        walk(f".{file.package}" if file.package else "", file.message_type)
    return found


def syntax_of(file):
    return file.syntax or "proto2"  # protoc leaves the field empty for proto2


def strip_dot(type_name):
    return type_name[1:] if type_name.startswith(".") else type_name


def is_map_entry(message):
    return message.options.map_entry


def map_entry_of(field, messages):
    if field.label != FieldProto.LABEL_REPEATED or field.type != FieldProto.TYPE_MESSAGE:
        return None
    entry = messages.get(field.type_name)
    return entry if entry is not None and is_map_entry(entry) else None


def type_text(field, messages):
    """A field's type as written in .proto (without its label): "string", "glimpse.x.v1.Foo",
    "map<string, bytes>". Maps compare by key and value, not by their entry's generated name."""
    entry = map_entry_of(field, messages)
    if entry is not None:
        key, value = sorted(entry.field, key=lambda f: f.number)
        return f"map<{type_text(key, messages)}, {type_text(value, messages)}>"
    if field.type in (FieldProto.TYPE_MESSAGE, FieldProto.TYPE_ENUM, FieldProto.TYPE_GROUP):
        return strip_dot(field.type_name)
    return SCALAR_NAMES[field.type]


def real_oneof_name(field, message):
    """The oneof a field is a member of, or None. proto3 `optional` puts a field in a synthetic
    oneof of its own: that is presence (cardinality), not a oneof."""
    if not field.HasField("oneof_index") or field.proto3_optional:
        return None
    return message.oneof_decl[field.oneof_index].name


def cardinality(field, message, syntax, messages):
    if field.label == FieldProto.LABEL_REPEATED:
        return "map" if map_entry_of(field, messages) is not None else "repeated"
    if field.label == FieldProto.LABEL_REQUIRED:
        return "required"
    explicit = (syntax != "proto3" or field.proto3_optional
                or field.type in (FieldProto.TYPE_MESSAGE, FieldProto.TYPE_GROUP)
                or real_oneof_name(field, message) is not None)
    return "optional (explicit presence)" if explicit else "implicit presence"


def synthetic_oneof_indexes(message):
    return {f.oneof_index for f in message.field if f.HasField("oneof_index") and f.proto3_optional}


def message_ranges(message):
    # DescriptorProto.ReservedRange ends are exclusive: make them inclusive like enums'.
    return [(r.start, r.end - 1) for r in message.reserved_range]


def enum_ranges(enum):
    return [(r.start, r.end) for r in enum.reserved_range]  # already inclusive


def in_ranges(number, ranges):
    return any(start <= number <= end for start, end in ranges)


def uncovered(old_ranges, new_ranges):
    """Parts of the old inclusive ranges that no new range covers (ranges can reach `max`, so
    this works on intervals, never on the numbers one by one)."""
    merged = []
    for start, end in sorted(new_ranges):
        if merged and start <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    missing = []
    for start, end in sorted(old_ranges):
        cursor = start
        for covered_start, covered_end in merged:
            if covered_end < cursor or covered_start > end:
                continue
            if covered_start > cursor:
                missing.append((cursor, covered_start - 1))
            cursor = max(cursor, covered_end + 1)
            if cursor > end:
                break
        if cursor <= end:
            missing.append((cursor, end))
    return missing


def range_text(start, end, largest):
    if start == end:
        return str(start)
    return f"{start} to {'max' if end >= largest else end}"


class FilePair:
    """One file as it was and as it is; the checks below run on it declaration by declaration.
    Declarations are matched by their name inside the package: a changed package is one
    FILE_SAME_PACKAGE, not every message deleted and added again."""

    def __init__(self, old, new, old_messages, new_messages, report):
        self.old, self.new = old, new
        self.old_messages, self.new_messages = old_messages, new_messages
        self.report = report
        self.old_prefix = f"{old.package}." if old.package else ""
        self.new_syntax = syntax_of(new)

    def add(self, rule, message):
        self.report.add(self.old.name, rule, message)

    def check(self):
        if self.old.package != self.new.package:
            self.add("FILE_SAME_PACKAGE",
                     f'package changed from "{self.old.package}" to "{self.new.package}"')
        if syntax_of(self.old) != self.new_syntax:
            self.add("FILE_SAME_SYNTAX",
                     f'syntax changed from "{syntax_of(self.old)}" to "{self.new_syntax}"')
        self.check_messages("", self.old.message_type, self.new.message_type)
        self.check_enums("", self.old.enum_type, self.new.enum_type)
        self.check_services()

    def check_messages(self, scope, old_messages, new_messages):
        new_by_name = {m.name: m for m in new_messages}
        for old in old_messages:
            path = f"{scope}{old.name}"
            new = new_by_name.get(old.name)
            if is_map_entry(old):
                continue  # a map field's shadow: the field itself is compared
            if new is None:
                self.add("MESSAGE_NO_DELETE", f"message {self.old_prefix}{path} was deleted")
                continue
            self.check_message(path, old, new)

    def check_message(self, path, old, new):
        full = f"{self.old_prefix}{path}"
        self.check_fields(full, old, new)
        self.check_oneofs(full, old, new)
        self.check_reserved("RESERVED_MESSAGE_NO_DELETE", "message", full,
                            message_ranges(old), message_ranges(new),
                            old.reserved_name, new.reserved_name)
        self.check_messages(f"{path}.", old.nested_type, new.nested_type)
        self.check_enums(f"{path}.", old.enum_type, new.enum_type)

    def check_fields(self, full, old_message, new_message):
        new_by_number = {f.number: f for f in new_message.field}
        new_reserved = message_ranges(new_message)
        for old in old_message.field:
            what = f'field {old.number} ("{old.name}") of message {full}'
            new = new_by_number.get(old.number)
            if new is None:
                if not in_ranges(old.number, new_reserved):
                    self.add("FIELD_NO_DELETE", f"{what} was deleted without being reserved "
                                                f'(keep its number out of use with "reserved {old.number};")')
                continue
            if old.name != new.name:
                self.add("FIELD_SAME_NAME", f'field {old.number} of message {full} was renamed '
                                            f'from "{old.name}" to "{new.name}"')
            if old.json_name != new.json_name:
                self.add("FIELD_SAME_JSON_NAME", f'{what} changed its JSON name from '
                                                 f'"{old.json_name}" to "{new.json_name}"')
            old_type = type_text(old, self.old_messages)
            new_type = type_text(new, self.new_messages)
            if old_type != new_type:
                self.add("FIELD_SAME_TYPE", f"{what} changed type from {old_type} to {new_type}")
            old_cardinality = cardinality(old, old_message, syntax_of(self.old), self.old_messages)
            new_cardinality = cardinality(new, new_message, self.new_syntax, self.new_messages)
            if old_cardinality != new_cardinality:
                self.add("FIELD_SAME_CARDINALITY", f"{what} changed cardinality from "
                                                   f"{old_cardinality} to {new_cardinality}")
            old_oneof = real_oneof_name(old, old_message)
            new_oneof = real_oneof_name(new, new_message)
            if old_oneof != new_oneof:
                self.add("FIELD_SAME_ONEOF", f"{what} moved from {oneof_text(old_oneof)} "
                                             f"to {oneof_text(new_oneof)}")

    def check_oneofs(self, full, old, new):
        old_synthetic = synthetic_oneof_indexes(old)
        new_names = {o.name for i, o in enumerate(new.oneof_decl)
                     if i not in synthetic_oneof_indexes(new)}
        for index, oneof in enumerate(old.oneof_decl):
            if index not in old_synthetic and oneof.name not in new_names:
                self.add("ONEOF_NO_DELETE", f'oneof "{oneof.name}" of message {full} was deleted')

    def check_reserved(self, rule, kind, full, old_ranges, new_ranges, old_names, new_names):
        largest = MAX_FIELD_NUMBER if kind == "message" else MAX_ENUM_NUMBER
        for start, end in uncovered(old_ranges, new_ranges):
            self.add(rule, f"reserved number{'s' if start != end else ''} "
                           f"{range_text(start, end, largest)} of {kind} {full} no longer reserved")
        for name in sorted(set(old_names) - set(new_names)):
            self.add(rule, f'reserved name "{name}" of {kind} {full} no longer reserved')

    def check_enums(self, scope, old_enums, new_enums):
        new_by_name = {e.name: e for e in new_enums}
        for old in old_enums:
            full = f"{self.old_prefix}{scope}{old.name}"
            new = new_by_name.get(old.name)
            if new is None:
                self.add("ENUM_NO_DELETE", f"enum {full} was deleted")
                continue
            self.check_enum(full, old, new)

    def check_enum(self, full, old, new):
        # With allow_alias a number can carry several names; compare the sets.
        def names_by_number(enum):
            names = {}
            for value in enum.value:
                names.setdefault(value.number, set()).add(value.name)
            return names

        old_names, new_names = names_by_number(old), names_by_number(new)
        new_reserved = enum_ranges(new)
        for number, names in sorted(old_names.items()):
            listed = ", ".join(f'"{n}"' for n in sorted(names))
            if number not in new_names:
                if not in_ranges(number, new_reserved):
                    self.add("ENUM_VALUE_NO_DELETE",
                             f"enum value {number} ({listed}) of enum {full} was deleted without "
                             f'being reserved (keep its number out of use with "reserved {number};")')
                continue
            if not names <= new_names[number]:
                now = ", ".join(f'"{n}"' for n in sorted(new_names[number]))
                self.add("ENUM_VALUE_SAME_NAME",
                         f"enum value {number} of enum {full} was renamed from {listed} to {now}")
        self.check_reserved("RESERVED_ENUM_NO_DELETE", "enum", full,
                            enum_ranges(old), new_reserved, old.reserved_name, new.reserved_name)

    def check_services(self):
        new_by_name = {s.name: s for s in self.new.service}
        for old in self.old.service:
            full = f"{self.old_prefix}{old.name}"
            new = new_by_name.get(old.name)
            if new is None:
                self.add("SERVICE_NO_DELETE", f"service {full} was deleted")
                continue
            new_methods = {m.name: m for m in new.method}
            for method in old.method:
                rpc = f"rpc {full}.{method.name}"
                now = new_methods.get(method.name)
                if now is None:
                    self.add("RPC_NO_DELETE", f"{rpc} was deleted")
                    continue
                if method.input_type != now.input_type:
                    self.add("RPC_SAME_REQUEST_TYPE", f"{rpc} changed its request type from "
                             f"{strip_dot(method.input_type)} to {strip_dot(now.input_type)}")
                if method.output_type != now.output_type:
                    self.add("RPC_SAME_RESPONSE_TYPE", f"{rpc} changed its response type from "
                             f"{strip_dot(method.output_type)} to {strip_dot(now.output_type)}")
                if method.client_streaming != now.client_streaming:
                    self.add("RPC_SAME_CLIENT_STREAMING",
                             f"{rpc} {streaming_change(method.client_streaming, 'request')}")
                if method.server_streaming != now.server_streaming:
                    self.add("RPC_SAME_SERVER_STREAMING",
                             f"{rpc} {streaming_change(method.server_streaming, 'response')}")


def oneof_text(name):
    return f'oneof "{name}"' if name is not None else "no oneof"


def streaming_change(was_streaming, side):
    return f"{side} is no longer a stream" if was_streaming else f"{side} became a stream"


def compare(old_set, new_set):
    report = Report()
    old_files, new_files = project_files(old_set), project_files(new_set)
    old_messages, new_messages = messages_by_full_name(old_set), messages_by_full_name(new_set)
    for name, old in old_files.items():
        new = new_files.get(name)
        if new is None:
            report.add(name, "FILE_NO_DELETE", "file was deleted")
            continue
        FilePair(old, new, old_messages, new_messages, report).check()
    return report.lines()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ref", required=True, help="the git ref the old set was built from")
    parser.add_argument("old_set")
    parser.add_argument("new_set")
    args = parser.parse_args(argv)
    lines = compare(read_set(args.old_set), read_set(args.new_set))
    if not lines:
        print(f"no breaking changes against {args.ref}")
        return 0
    for line in lines:
        print(line)
    noun = "change" if len(lines) == 1 else "changes"
    print(f"breaking.sh: {len(lines)} breaking {noun} against {args.ref} "
          f"(buf FILE rules; see Proto/tools/breaking.py)", file=sys.stderr)
    return 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception:  # exit 1 means "something broke" to CI: a crash here must not look like that
        import traceback
        traceback.print_exc()
        sys.exit(2)
