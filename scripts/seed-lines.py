#!/usr/bin/env python3
"""How much of each seed article's Swift Examples/SeedWidgets keeps verbatim.

    python3 scripts/seed-lines.py [--seeds DIR]      (default: ../shared/seeds)

A line of an example counts as kept when the same line (spaces at the ends aside) is in the
article and is compiled here. The import block (`#if canImport(WidgetKit)` … `#endif`,
`import GlimpseKit`) is added, not counted; lines an `#if canImport(WidgetKit)` keeps for
Xcode alone (a `#Preview`) are counted apart, as not compiled; any other line not in the
article is a changed one, printed. Files that are Glimpse's own are not counted:
AppActions.swift (the App Intents a script performs), AppIntents.swift (the intents listed
for the manifest, which Xcode extracts on iOS); every line of a Completions.swift (what an
article calls but never shows) counts as changed.
"""
import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "Examples" / "SeedWidgets" / "Sources"
SEEDS = {"000": "PixarTracker", "001": "MoviePlanner", "002": "PizzaDelivery", "003": "DailySteps", "004": "RTLAir"}
OWN_FILES = {"AppActions.swift", "AppIntents.swift"}
# What an article's code calls but never shows, written here: every line counts as changed,
# even one that happens to read like an article's (a `}`).
COMPLETIONS = {"Completions.swift"}
IMPORT_BLOCK = {"#if canImport(WidgetKit)", "#if canImport(ActivityKit)", "#else", "#endif", "import GlimpseKit", "import AppIntents",
                "import Foundation", "import WidgetKit", "import SwiftUI", "import ActivityKit"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default=str(ROOT.parent / "shared" / "seeds"))
    args = parser.parse_args()
    seeds = pathlib.Path(args.seeds)
    if not seeds.is_dir():
        sys.exit(f"seed-lines: no seed articles at {seeds} (--seeds DIR)")
    for number, target in SEEDS.items():
        article = next(seeds.glob(f"{number}_*.txt")).read_text()
        article_lines = {line.strip() for line in article.splitlines()}
        kept, changed, added, xcode_only = 0, [], 0, 0
        for source in sorted((EXAMPLES / target).glob("*.swift")):
            if source.name in OWN_FILES:
                continue
            apple_only = False          # inside `#if canImport(…)`, before its #else
            for number_in_file, line in enumerate(source.read_text().splitlines(), 1):
                text = line.strip()
                if text.startswith("#if canImport("):
                    apple_only = True
                elif text in ("#else", "#endif"):
                    apple_only = False
                if not text or (text.startswith("//") and text not in article_lines):
                    continue
                if apple_only and text not in IMPORT_BLOCK:
                    xcode_only += 1
                elif text in article_lines and text not in IMPORT_BLOCK and source.name not in COMPLETIONS:
                    kept += 1
                elif text in IMPORT_BLOCK:
                    added += 1
                else:
                    changed.append(f"{source.name}:{number_in_file}: {text}")
        share = 100.0 * kept / (kept + len(changed)) if kept + len(changed) else 0
        print(f"seed {number} ({target}): {kept} lines kept verbatim, {len(changed)} changed ({share:.1f} % kept); "
              f"{added} import lines added" + (f"; {xcode_only} lines for Xcode only, not compiled" if xcode_only else ""))
        for line in changed:
            print(f"    changed  {line}")


if __name__ == "__main__":
    main()
