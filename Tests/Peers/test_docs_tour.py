"""docs/rendering.md's five-minute tour, pasted as it stands into bash: every command runs
and does what its comment says. Only what the page cannot know is supplied: the stack comes
from the debug build (`scripts/run.sh` here is a stand-in that starts `glimpse up` from it,
ports offset so a stack of the reader's own may run beside it), in a folder of its own with
the repository's Demos/."""
import os
import pathlib
import re
import subprocess

from test_timeline_service import _binary

ROOT = pathlib.Path(__file__).resolve().parents[2]
OFFSET = 400


def test_the_five_minute_tour_runs_as_written(tmp_path):
    page = (ROOT / "docs" / "rendering.md").read_text()
    tour = page.split("## A five-minute tour", 1)[1]
    script = re.search(r"```sh\n(.*?)```", tour, re.S).group(1)
    assert script.startswith("./scripts/run.sh --detach --manual ") and "./scripts/run.sh down" in script
    bin_dir = pathlib.Path(_binary("glimpse")).parent
    (tmp_path / "Demos").symlink_to(ROOT / "Demos")
    (tmp_path / "scripts").mkdir()
    run = tmp_path / "scripts" / "run.sh"
    run.write_text(f"""#!/bin/sh
if [ "$1" = down ]; then shift; exec glimpse down "$@"; fi
exec glimpse up --bin {bin_dir} --port-offset {OFFSET} "$@"
""")
    run.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}", GLIMPSE_GATEWAY=f"127.0.0.1:{7700 + OFFSET}")
    try:
        done = subprocess.run(["bash", "-e", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=900)
    finally:
        subprocess.run([_binary("glimpse"), "down"], cwd=tmp_path, env=env, capture_output=True, timeout=120)
    out = done.stdout
    assert done.returncode == 0, out[-6000:] + done.stderr[-3000:]
    # What the comments promise, in the order they promise it.
    promised = [
        "Checked In ✓",                                   # tap 4 checkin
        "Cleared ⚡️",                                     # tap 4 gate
        "56% watched",                                    # clock advance 15m: the next entry
        "pixartracker://film/Up",                         # markWatched: the next film
        "3. update onTheWay driver=John -> 200",          # the stock APNs client
        "John is on his way!",                            # the island expanded for the alert
        "requested ",                                     # the playback activity
        "5. end delivered driver=John -> 200",
        "(TogglePlaybackIntent): performed",              # the Lock Screen's play/pause
        '"isPlaying":false',                              # ... paused, through the app's ActivityKit call
        "push_received",                                  # the event log
        '"target": "activity ',                           # the layout as JSON
    ]
    at = 0
    for text in promised:
        found = out.find(text, at)
        assert found >= 0, f"{text!r} not shown after offset {at}:\n{out[at:at + 4000]}"
        at = found
    assert (tmp_path / "lock.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
