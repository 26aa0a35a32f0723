#!/bin/sh
# The README pictures: every seed view, the Pizza and Pixar Live Activities in each
# presentation, and the demo device's screens, as PNG from the seed goldens
# (Tests/Apps/DemoAppsTests/Golden/*.svg, images embedded; rewritten by
# `GLIMPSE_UPDATE_GOLDEN=1 swift test --filter SeedGoldenTests`). Same goldens, same PNGs.
#
#   Demos/screens/make.sh            # needs rsvg-convert (librsvg2-bin), Liberation fonts and fonts-noto-color-emoji
set -eu

here=$(cd "$(dirname "$0")" && pwd)
golden="$here/../../Tests/Apps/DemoAppsTests/Golden"
command -v rsvg-convert >/dev/null || { echo "make.sh: rsvg-convert not found (apt-get install librsvg2-bin)" >&2; exit 1; }

# Widgets and Live Activities at 2x; whole screens at 1x (they stay under 60 KB).
views="pixar-small pixar-medium pixar-large pixar-circular pixar-rectangular pixar-medium-dark
movieplanner-small movieplanner-medium movieplanner-large
steps-circular steps-rectangular steps-inline
rtlair-medium-not-checked-in rtlair-medium-checked-in rtlair-medium-gate-confirmed rtlair-medium-vibrant rtlair-rectangular
pizza-lockscreen pizza-compact pizza-minimal pizza-expanded
film-lockscreen film-compact film-minimal film-expanded
device-island-compact device-island-expanded"
screens="device-home device-lock"

render() {
    [ -f "$golden/$1.svg" ] || { echo "make.sh: no golden $1.svg (run the SeedGoldenTests with GLIMPSE_UPDATE_GOLDEN=1)" >&2; exit 1; }
    rsvg-convert --zoom "$2" "$golden/$1.svg" -o "$here/$1.png"
    size=$(wc -c < "$here/$1.png")
    [ "$size" -le 61440 ] || echo "make.sh: warning: $1.png is $size bytes" >&2
}

for name in $views; do render "$name" 2; done
for name in $screens; do render "$name" 1; done
echo "wrote $(echo $views $screens | wc -w) pictures to $here"
