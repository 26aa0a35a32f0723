"""The docs lead somewhere real: every relative link in the README, docs/ and the other
Markdown pages of the repository points at a file or folder that exists, and every path
named in backticks (`Sources/…`, `Tests/…`, `docs/…`, …) exists. The pages' code runs
elsewhere: the Swift page's and docs/writing-an-app.md's test in test_glimpsekit_examples.py,
the Python page's in test_python_sdk.py, docs/rendering.md's five-minute tour in
test_docs_tour.py."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOP = ("Sources/", "Services/", "Tests/", "Proto/", "docs/", "deploy/", "scripts/", "sdk/", "Demos/", "Examples/",
       "Benchmarks/", "Fuzz/", ".ci/")


def pages():
    found = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for folder in ("Services", "sdk", "Demos", "Examples", "deploy", "Benchmarks", "Fuzz"):
        found += sorted((ROOT / folder).rglob("*.md"))
    return [page for page in found if ".build" not in page.parts]


def test_every_relative_link_and_named_path_exists():
    missing = []
    for page in pages():
        text = page.read_text()
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = (page.parent / target.split("#", 1)[0]).resolve()
            if not path.exists():
                missing.append(f"{page.relative_to(ROOT)}: link {target}")
        for name in re.findall(r"`([^`\s]+)`", text):
            name = name.rstrip(".,;:)")
            if not name.startswith(TOP) or any(c in name for c in "*<>{}$…|"):
                continue
            if not (ROOT / name.split(":", 1)[0]).exists():
                missing.append(f"{page.relative_to(ROOT)}: path {name}")
    assert not missing, "\n".join(missing)
