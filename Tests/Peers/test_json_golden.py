"""The proto3 JSON golden files (Tests/Wire/GlimpseMessagesTests/JSONGolden) against stock
protobuf: they are what Tests/Peers/json_golden.py makes now (no drift), and Python's
`json_format.Parse` reads every canonical JSON file back to its .binpb message. The Swift
side (JSONGoldenTests.swift) checks Swift writes exactly these .json files and reads
them (and the .input.json forms) as the .binpb messages; so Python parses what Swift
writes."""
import json
import pathlib
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import json_golden  # noqa: E402

GOLDEN = json_golden.GOLDEN


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory):
    folder = tmp_path_factory.mktemp("json-golden")
    names = json_golden.write(folder)
    return folder, names


def test_committed_files_are_what_stock_protobuf_makes_now(regenerated):
    folder, names = regenerated
    committed = sorted(p.name for p in GOLDEN.iterdir())
    assert committed == sorted(names), "the committed folder has other files than json_golden.py writes"
    drifted = [n for n in names if (folder / n).read_bytes() != (GOLDEN / n).read_bytes()]
    assert not drifted, f"regenerate with `python3 Tests/Peers/json_golden.py`: {drifted}"


def cases():
    return [line.split() for line in (GOLDEN / "index.txt").read_text().splitlines()]


@pytest.mark.parametrize("name,full_name", cases())
def test_json_format_parses_the_canonical_json_to_the_binpb_message(regenerated, name, full_name):
    from google.protobuf import json_format, message_factory, symbol_database
    cls = message_factory.GetMessageClass(symbol_database.Default().pool.FindMessageTypeByName(full_name))
    expected = cls.FromString((GOLDEN / f"{name}.binpb").read_bytes())
    text = (GOLDEN / f"{name}.json").read_text(encoding="utf-8")
    parsed = json_format.Parse(text, cls())
    # Compared as bytes: NaN != NaN as a field value.
    assert parsed.SerializeToString(deterministic=True) == expected.SerializeToString(deterministic=True)
    # And the canonical form is a fixed point.
    assert json_golden.canonical_json(parsed) == text.rstrip("\n")
    assert isinstance(json.loads(text), (dict, str))
