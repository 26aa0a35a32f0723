"""Proto/breaking.sh: the contract's breaking-change check (buf's FILE rules).

Each test works in a throwaway git repository: the real Proto/ tree plus a small fixture proto
with one of every construct the rules look at, committed; the test then breaks the working
tree in one small way, runs the real script there and looks for the rule's line. A few edits
are made to the real .proto files too, found by pattern so that new fields and rpcs in the
contract do not break these tests. The last test runs the script on this repository itself.
"""
import os
import pathlib
import re
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "Proto" / "breaking.sh"
FIXTURE = "glimpse/fixture/v1/fixture.proto"
FIXTURE_PACKAGE = "glimpse.fixture.v1"

# Something of every kind a rule compares: services with unary and streaming rpcs, scalar,
# repeated, proto3 optional, enum, message, map and oneof fields, a nested message and enum,
# reserved numbers and names in a message and an enum.
FIXTURE_TEXT = """\
syntax = "proto3";

package glimpse.fixture.v1;

import "google/protobuf/timestamp.proto";

service Fixtures {
  rpc Get(GetRequest) returns (Thing);
  rpc Watch(GetRequest) returns (stream Thing);
  rpc Upload(stream Thing) returns (GetRequest);
}

service Spare {
  rpc Ping(GetRequest) returns (GetRequest);
}

message GetRequest {
  string id = 1;
}

message Thing {
  reserved 9, 20 to 25;
  reserved "legacy";
  string name = 1;
  int64 size = 2;
  repeated string tags = 3;
  optional bool pinned = 4;
  Kind kind = 5;
  google.protobuf.Timestamp created = 6;
  map<string, string> labels = 7;
  oneof source {
    string url = 10;
    bytes data = 11;
  }
  Inner inner = 12;

  message Inner {
    uint32 depth = 1;
  }

  enum Shade {
    SHADE_UNSPECIFIED = 0;
    SHADE_DARK = 1;
  }
}

enum Kind {
  reserved 7;
  reserved "KIND_OLD";
  KIND_UNSPECIFIED = 0;
  KIND_SMALL = 1;
  KIND_LARGE = 2;
}

message Unused {
  string note = 1;
}
"""

LINE = re.compile(r"^glimpse/\S+\.proto: [A-Z0-9_]+: \S.*$")
GIT_ENV = {
    "GIT_AUTHOR_NAME": "breaking test", "GIT_AUTHOR_EMAIL": "breaking@example.invalid",
    "GIT_COMMITTER_NAME": "breaking test", "GIT_COMMITTER_EMAIL": "breaking@example.invalid",
}


def git(repo, *args):
    subprocess.run(["git", "-c", "commit.gpgsign=false", *args], cwd=repo, check=True,
                   capture_output=True, env={**os.environ, **GIT_ENV})


def commit_all(repo, message):
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


@pytest.fixture(scope="module")
def base_repo(tmp_path_factory):
    """A repository whose HEAD~1 has no Proto/ and whose HEAD has the real Proto/ plus the
    fixture; tests copy it, so each starts from a clean working tree."""
    repo = tmp_path_factory.mktemp("breaking") / "base"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "README.md").write_text("before the contract\n")
    commit_all(repo, "no Proto/ yet")
    shutil.copytree(ROOT / "Proto", repo / "Proto",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (repo / "Proto" / FIXTURE).parent.mkdir(parents=True)
    (repo / "Proto" / FIXTURE).write_text(FIXTURE_TEXT)
    commit_all(repo, "the contract")
    return repo


@pytest.fixture
def repo(base_repo, tmp_path):
    copy = tmp_path / "repo"
    shutil.copytree(base_repo, copy, symlinks=True)
    return copy


def run(cwd, *args):
    return subprocess.run([str(SCRIPT), *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def edit(repo, path, old, new):
    """Replaces exactly one occurrence of `old`, so a test never silently edits nothing."""
    file = repo / "Proto" / path
    text = file.read_text()
    assert text.count(old) == 1, f"{old!r} is not in {path} exactly once"
    file.write_text(text.replace(old, new))


def breaks(result):
    assert result.returncode == 1, f"expected breaks, got {result.returncode}:\n{result.stdout}{result.stderr}"
    lines = result.stdout.splitlines()
    assert lines and all(LINE.match(line) for line in lines), result.stdout
    assert lines == sorted(lines)
    assert re.search(r"\d+ breaking changes? against HEAD", result.stderr), result.stderr
    return lines


def assert_break(repo, line):
    lines = breaks(run(repo, "HEAD"))
    assert line in lines, "\n".join(lines)


def assert_rule(repo, path, rule, *fragments):
    """A line for `rule` in `path` that mentions every fragment."""
    lines = breaks(run(repo, "HEAD"))
    prefix = f"{path}: {rule}: "
    assert any(line.startswith(prefix) and all(f in line for f in fragments) for line in lines), \
        f"no {rule} line with {fragments} in:\n" + "\n".join(lines)


def assert_clean(repo):
    result = run(repo, "HEAD")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == "no breaking changes against HEAD\n"


# --- the real contract, edited by pattern ---------------------------------------------------

def real_files(repo):
    proto = repo / "Proto"
    return sorted(p.relative_to(proto).as_posix() for p in (proto / "glimpse").rglob("*.proto")
                  if not p.relative_to(proto).as_posix().startswith("glimpse/fixture/"))


def first_match(repo, block, member):
    """The first `member` line directly inside a top-level `block` ("message"/"service") of a
    real file: (path, package, block name, the line's index, the member's match)."""
    opening = re.compile(rf"^{block} (\w+) {{$")
    for path in real_files(repo):
        text = (repo / "Proto" / path).read_text()
        package = re.search(r"^package (\S+);$", text, re.M).group(1)
        current = None
        for index, line in enumerate(text.splitlines()):
            if (found := opening.match(line)):
                current = found.group(1)
            elif line == "}":
                current = None
            elif current and (found := member.match(line)):
                return path, package, current, index, found
    pytest.fail(f"no {block} member matching {member.pattern} in the real protos")


def delete_line(repo, path, index):
    """By position: the same declaration text can occur in several messages of a file."""
    file = repo / "Proto" / path
    lines = file.read_text().splitlines(keepends=True)
    del lines[index]
    file.write_text("".join(lines))


def test_real_file_deleted(repo):
    imported = set()
    for path in real_files(repo):
        imported |= set(re.findall(r'^import "([^"]+)";', (repo / "Proto" / path).read_text(), re.M))
    victim = next(p for p in real_files(repo) if p not in imported)
    (repo / "Proto" / victim).unlink()
    assert_break(repo, f"{victim}: FILE_NO_DELETE: file was deleted")


def test_real_field_deleted(repo):
    scalar = re.compile(r"^  (?:string|bool|int32|int64|uint32|uint64|double|bytes) (\w+) = (\d+);")
    path, package, message, index, found = first_match(repo, "message", scalar)
    delete_line(repo, path, index)
    name, number = found.groups()
    assert_rule(repo, path, "FIELD_NO_DELETE",
                f'field {number} ("{name}") of message {package}.{message} was deleted without being reserved')


def test_real_rpc_deleted(repo):
    path, package, service, index, found = first_match(repo, "service", re.compile(r"^  rpc (\w+)\(.*\);$"))
    delete_line(repo, path, index)
    assert_break(repo, f"{path}: RPC_NO_DELETE: rpc {package}.{service}.{found.group(1)} was deleted")


def test_real_additions_pass(repo):
    path, _, message, _, _ = first_match(repo, "message", re.compile(r"^  \S"))
    edit(repo, path, f"message {message} {{\n", f"message {message} {{\n  string added_by_test = 4999;\n")
    with open(repo / "Proto" / path, "a") as file:
        file.write("\nmessage AddedByTest {\n  string note = 1;\n}\n")
    assert_clean(repo)


# --- one test per rule, on the fixture ------------------------------------------------------

THING = f"{FIXTURE_PACKAGE}.Thing"


def test_file_no_delete(repo):
    (repo / "Proto" / FIXTURE).unlink()
    assert_break(repo, f"{FIXTURE}: FILE_NO_DELETE: file was deleted")


def test_file_same_package(repo):
    edit(repo, FIXTURE, "package glimpse.fixture.v1;", "package glimpse.fixture.v2;")
    assert_break(repo, f'{FIXTURE}: FILE_SAME_PACKAGE: package changed from '
                       f'"glimpse.fixture.v1" to "glimpse.fixture.v2"')


def test_file_same_syntax(repo):
    plain = repo / "Proto" / "glimpse/fixture/v1/plain.proto"
    plain.write_text('syntax = "proto3";\n\npackage glimpse.fixture.v1;\n\n'
                     "message Plain {\n  string text = 1;\n}\n")
    commit_all(repo, "a second fixture")
    plain.write_text('syntax = "proto2";\n\npackage glimpse.fixture.v1;\n\n'
                     "message Plain {\n  optional string text = 1;\n}\n")
    assert_break(repo, 'glimpse/fixture/v1/plain.proto: FILE_SAME_SYNTAX: '
                       'syntax changed from "proto3" to "proto2"')


def test_message_no_delete(repo):
    edit(repo, FIXTURE, "message Unused {\n  string note = 1;\n}\n", "")
    assert_break(repo, f"{FIXTURE}: MESSAGE_NO_DELETE: message {FIXTURE_PACKAGE}.Unused was deleted")


def test_nested_message_no_delete(repo):
    edit(repo, FIXTURE, "  message Inner {\n    uint32 depth = 1;\n  }\n", "")
    edit(repo, FIXTURE, "  Inner inner = 12;\n", "  reserved 12;\n")
    lines = breaks(run(repo, "HEAD"))
    assert lines == [f"{FIXTURE}: MESSAGE_NO_DELETE: message {THING}.Inner was deleted"]


def test_field_no_delete(repo):
    edit(repo, FIXTURE, "  int64 size = 2;\n", "")
    assert_rule(repo, FIXTURE, "FIELD_NO_DELETE",
                f'field 2 ("size") of message {THING} was deleted without being reserved')


def test_field_deleted_with_number_reserved_passes(repo):
    edit(repo, FIXTURE, "  int64 size = 2;\n", "  reserved 2;\n")
    assert_clean(repo)


def test_field_deleted_into_existing_reserved_range_passes(repo):
    # Widening a range to take in a deleted field's number is reserving it, too.
    edit(repo, FIXTURE, "  reserved 9, 20 to 25;\n", "  reserved 9, 20 to 25, 1 to 2;\n")
    edit(repo, FIXTURE, "  string name = 1;\n  int64 size = 2;\n", "")
    assert_clean(repo)


def test_field_same_type_scalar(repo):
    edit(repo, FIXTURE, "int64 size = 2;", "int32 size = 2;")
    assert_break(repo, f'{FIXTURE}: FIELD_SAME_TYPE: field 2 ("size") of message {THING} '
                       "changed type from int64 to int32")


def test_field_same_type_message(repo):
    edit(repo, FIXTURE, "google.protobuf.Timestamp created = 6;", "GetRequest created = 6;")
    lines = breaks(run(repo, "HEAD"))
    assert lines == [f'{FIXTURE}: FIELD_SAME_TYPE: field 6 ("created") of message {THING} changed type '
                     f"from google.protobuf.Timestamp to {FIXTURE_PACKAGE}.GetRequest"]


def test_field_same_type_map_value(repo):
    edit(repo, FIXTURE, "map<string, string> labels = 7;", "map<string, bytes> labels = 7;")
    assert_break(repo, f'{FIXTURE}: FIELD_SAME_TYPE: field 7 ("labels") of message {THING} changed type '
                       "from map<string, string> to map<string, bytes>")


def test_field_same_cardinality_repeated(repo):
    edit(repo, FIXTURE, "repeated string tags = 3;", "string tags = 3;")
    assert_break(repo, f'{FIXTURE}: FIELD_SAME_CARDINALITY: field 3 ("tags") of message {THING} '
                       "changed cardinality from repeated to implicit presence")


def test_field_same_cardinality_proto3_optional(repo):
    edit(repo, FIXTURE, "optional bool pinned = 4;", "bool pinned = 4;")
    lines = breaks(run(repo, "HEAD"))
    # The synthetic oneof of a proto3 optional is presence, not a oneof: one line only.
    assert lines == [f'{FIXTURE}: FIELD_SAME_CARDINALITY: field 4 ("pinned") of message {THING} '
                     "changed cardinality from optional (explicit presence) to implicit presence"]


def test_field_same_name(repo):
    edit(repo, FIXTURE, "string name = 1;", "string title = 1;")
    lines = breaks(run(repo, "HEAD"))
    assert f'{FIXTURE}: FIELD_SAME_NAME: field 1 of message {THING} was renamed from "name" to "title"' in lines
    assert any(line.startswith(f"{FIXTURE}: FIELD_SAME_JSON_NAME: ") for line in lines)


def test_field_same_json_name(repo):
    edit(repo, FIXTURE, "string name = 1;", 'string name = 1 [json_name = "label"];')
    lines = breaks(run(repo, "HEAD"))
    assert lines == [f'{FIXTURE}: FIELD_SAME_JSON_NAME: field 1 ("name") of message {THING} '
                     'changed its JSON name from "name" to "label"']


def test_field_same_oneof(repo):
    edit(repo, FIXTURE, "    bytes data = 11;\n  }\n", "  }\n  bytes data = 11;\n")
    assert_break(repo, f'{FIXTURE}: FIELD_SAME_ONEOF: field 11 ("data") of message {THING} '
                       'moved from oneof "source" to no oneof')


def test_oneof_no_delete(repo):
    edit(repo, FIXTURE, "oneof source {", "oneof origin {")
    lines = breaks(run(repo, "HEAD"))
    assert f'{FIXTURE}: ONEOF_NO_DELETE: oneof "source" of message {THING} was deleted' in lines
    assert f'{FIXTURE}: FIELD_SAME_ONEOF: field 10 ("url") of message {THING} moved from oneof "source" ' \
           'to oneof "origin"' in lines


def test_enum_no_delete(repo):
    edit(repo, FIXTURE, "  enum Shade {\n    SHADE_UNSPECIFIED = 0;\n    SHADE_DARK = 1;\n  }\n", "")
    assert_break(repo, f"{FIXTURE}: ENUM_NO_DELETE: enum {THING}.Shade was deleted")


def test_enum_value_no_delete(repo):
    edit(repo, FIXTURE, "  KIND_LARGE = 2;\n", "")
    assert_rule(repo, FIXTURE, "ENUM_VALUE_NO_DELETE",
                f'enum value 2 ("KIND_LARGE") of enum {FIXTURE_PACKAGE}.Kind was deleted without being reserved')


def test_enum_value_deleted_with_number_reserved_passes(repo):
    edit(repo, FIXTURE, "  KIND_LARGE = 2;\n", "")
    edit(repo, FIXTURE, "  reserved 7;\n", "  reserved 2, 7;\n")
    assert_clean(repo)


def test_enum_value_same_name(repo):
    edit(repo, FIXTURE, "KIND_LARGE = 2;", "KIND_BIG = 2;")
    assert_break(repo, f'{FIXTURE}: ENUM_VALUE_SAME_NAME: enum value 2 of enum {FIXTURE_PACKAGE}.Kind '
                       'was renamed from "KIND_LARGE" to "KIND_BIG"')


def test_reserved_message_no_delete(repo):
    edit(repo, FIXTURE, "reserved 9, 20 to 25;", "reserved 9, 20 to 22;")
    assert_break(repo, f"{FIXTURE}: RESERVED_MESSAGE_NO_DELETE: reserved numbers 23 to 25 of message {THING} "
                       "no longer reserved")


def test_reserved_message_name_no_delete(repo):
    edit(repo, FIXTURE, '  reserved "legacy";\n', "")
    assert_break(repo, f'{FIXTURE}: RESERVED_MESSAGE_NO_DELETE: reserved name "legacy" of message {THING} '
                       "no longer reserved")


def test_reserved_enum_no_delete(repo):
    edit(repo, FIXTURE, '  reserved "KIND_OLD";\n', "")
    edit(repo, FIXTURE, "  reserved 7;\n", "")
    lines = breaks(run(repo, "HEAD"))
    assert lines == [
        f'{FIXTURE}: RESERVED_ENUM_NO_DELETE: reserved name "KIND_OLD" of enum {FIXTURE_PACKAGE}.Kind '
        "no longer reserved",
        f"{FIXTURE}: RESERVED_ENUM_NO_DELETE: reserved number 7 of enum {FIXTURE_PACKAGE}.Kind "
        "no longer reserved",
    ]


def test_service_no_delete(repo):
    edit(repo, FIXTURE, "service Spare {\n  rpc Ping(GetRequest) returns (GetRequest);\n}\n", "")
    assert_break(repo, f"{FIXTURE}: SERVICE_NO_DELETE: service {FIXTURE_PACKAGE}.Spare was deleted")


def test_rpc_no_delete(repo):
    edit(repo, FIXTURE, "  rpc Get(GetRequest) returns (Thing);\n", "")
    assert_break(repo, f"{FIXTURE}: RPC_NO_DELETE: rpc {FIXTURE_PACKAGE}.Fixtures.Get was deleted")


def test_rpc_same_request_type(repo):
    edit(repo, FIXTURE, "rpc Get(GetRequest) returns (Thing);", "rpc Get(Unused) returns (Thing);")
    assert_break(repo, f"{FIXTURE}: RPC_SAME_REQUEST_TYPE: rpc {FIXTURE_PACKAGE}.Fixtures.Get changed its "
                       f"request type from {FIXTURE_PACKAGE}.GetRequest to {FIXTURE_PACKAGE}.Unused")


def test_rpc_same_response_type(repo):
    edit(repo, FIXTURE, "rpc Get(GetRequest) returns (Thing);", "rpc Get(GetRequest) returns (Unused);")
    assert_break(repo, f"{FIXTURE}: RPC_SAME_RESPONSE_TYPE: rpc {FIXTURE_PACKAGE}.Fixtures.Get changed its "
                       f"response type from {FIXTURE_PACKAGE}.Thing to {FIXTURE_PACKAGE}.Unused")


def test_rpc_same_client_streaming(repo):
    edit(repo, FIXTURE, "rpc Upload(stream Thing)", "rpc Upload(Thing)")
    assert_break(repo, f"{FIXTURE}: RPC_SAME_CLIENT_STREAMING: rpc {FIXTURE_PACKAGE}.Fixtures.Upload "
                       "request is no longer a stream")


def test_rpc_same_server_streaming(repo):
    edit(repo, FIXTURE, "rpc Get(GetRequest) returns (Thing);", "rpc Get(GetRequest) returns (stream Thing);")
    assert_break(repo, f"{FIXTURE}: RPC_SAME_SERVER_STREAMING: rpc {FIXTURE_PACKAGE}.Fixtures.Get "
                       "response became a stream")


# --- passing changes, output shape, errors --------------------------------------------------

def test_additions_pass(repo):
    edit(repo, FIXTURE, "  Inner inner = 12;\n", "  Inner inner = 12;\n  string extra = 13;\n")
    edit(repo, FIXTURE, "  KIND_LARGE = 2;\n", "  KIND_LARGE = 2;\n  KIND_HUGE = 3;\n")
    edit(repo, FIXTURE, "  rpc Get(GetRequest) returns (Thing);\n",
         "  rpc Get(GetRequest) returns (Thing);\n  rpc Count(GetRequest) returns (Added);\n")
    with open(repo / "Proto" / FIXTURE, "a") as file:
        file.write("\nmessage Added {\n  uint64 count = 1;\n  oneof more {\n    string a = 2;\n  }\n}\n"
                   "\nservice AlsoAdded {\n  rpc Ping(Added) returns (Added);\n}\n")
    (repo / "Proto" / "glimpse/fixture/v1/new.proto").write_text(
        'syntax = "proto3";\n\npackage glimpse.fixture.v1;\n\nmessage Brand {\n  string name = 1;\n}\n')
    assert_clean(repo)


def test_unchanged_tree_passes_from_a_subdirectory(repo):
    result = run(repo / "Proto" / "glimpse", "HEAD")
    assert (result.returncode, result.stdout) == (0, "no breaking changes against HEAD\n"), result.stderr


def test_many_breaks_are_sorted_and_deterministic(repo):
    edit(repo, FIXTURE, "  rpc Get(GetRequest) returns (Thing);\n", "")
    edit(repo, FIXTURE, "message Unused {\n  string note = 1;\n}\n", "")
    edit(repo, FIXTURE, "int64 size = 2;", "int32 size = 2;")
    edit(repo, FIXTURE, "KIND_LARGE = 2;", "KIND_BIG = 2;")
    first, second = run(repo, "HEAD"), run(repo, "HEAD")
    lines = breaks(first)
    assert first.stdout == second.stdout
    assert [line.split(": ")[1] for line in lines] == [
        "ENUM_VALUE_SAME_NAME", "FIELD_SAME_TYPE", "MESSAGE_NO_DELETE", "RPC_NO_DELETE"]
    assert first.stderr.strip() == "breaking.sh: 4 breaking changes against HEAD " \
                                   "(buf FILE rules; see Proto/tools/breaking.py)"


def test_unknown_ref_is_a_usage_error(repo):
    result = run(repo, "no-such-ref")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "unknown git ref 'no-such-ref'" in result.stderr


def test_ref_without_proto_is_a_usage_error(repo):
    result = run(repo, "HEAD~1")
    assert result.returncode == 2
    assert "'HEAD~1' has no Proto/ folder" in result.stderr


@pytest.mark.parametrize("args", [[], ["HEAD", "HEAD~1"], ["--help"], [""]])
def test_bad_arguments_are_a_usage_error(repo, args):
    result = run(repo, *args)
    assert result.returncode == 2
    assert result.stderr.startswith("usage: Proto/breaking.sh <git-ref>")


def test_protos_that_do_not_compile_are_an_error_not_a_break(repo):
    edit(repo, FIXTURE, "int64 size = 2;", "NoSuchType size = 2;")
    result = run(repo, "HEAD")
    assert result.returncode == 2
    assert "the protos in the working tree do not compile" in result.stderr


# --- this repository ------------------------------------------------------------------------

def test_this_repository_against_head():
    """Others edit Proto/ while this runs, so the working tree may hold a deliberate break:
    only the shape of the answer is checked."""
    result = run(ROOT, "HEAD")
    assert result.returncode in (0, 1), result.stderr
    if result.returncode == 0:
        assert result.stdout == "no breaking changes against HEAD\n"
    else:
        breaks(result)
