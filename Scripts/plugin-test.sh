#!/usr/bin/env bash
# ThumbgenPlugin end to end on Examples/RatingsApp (`make test` runs this; debug builds throughout).
#
#  1. `swift test` in the example: the plugin generates 42 PNGs (24 thumbnails and badges, 18 of the
#     app icon), the test loads each through Bundle.module and checks its pixel size.
#  2. A second build with nothing changed runs no thumbgen command (from `swift build -v`).
#  3. Touching one source image reruns only its command and rewrites only its three outputs.
#  4. Editing thumbgen.json reruns every command; a bad value fails the build with one error line
#     naming the file and the member.
#  5. A temporary copy of the example with a bad thumbgen.json fails planning with one such line.
#  6. The command plugin writes the same PNGs, and an asset catalog, into that copy's target folder;
#     a second run changes nothing; the catalog matches what `thumbgen stars --xcassets` writes.
#     The icon set's tree (AppIcon.appiconset, AppIcon.icns, web/) lands in its Icons/ folder, each
#     PNG the same as the build's resource.
#     A group with widths and two formats (named by each image's width, which only the command
#     plugin can do) lands in the folder too, each file at its width.
#  7. More mistakes, each one error line naming the member (the validation the plugin and its
#     build step share, run through the step directly).
#
# Scratch paths: .build/example (the example) and .build/example-bad (the copy), so a clean clone
# works and nothing is written outside .build/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SWIFT=${SWIFT:-swift}
EXAMPLE=Examples/RatingsApp
SCRATCH=$ROOT/.build/example
CONFIG=$EXAMPLE/Sources/RatingsApp/thumbgen.json
# SwiftPM names the plugin work directory after the package identity and target.
OUTPUTS=$SCRATCH/plugins/outputs/ratingsapp/RatingsApp/destination/ThumbgenPlugin
# A line of `swift build -v` that runs one of the plugin's commands starts with the step's path.
RUN_PATTERN='^[^ ]*/thumbgen-plugin-step(-tool)? '
LOG=$ROOT/.build/plugin-test.log

fail() { echo "plugin-test: FAIL: $*" >&2; exit 1; }
pass() { echo "plugin-test: ok: $*"; }
build() { "$SWIFT" build -v --package-path "$EXAMPLE" --scratch-path "$SCRATCH" >"$LOG" 2>&1; }
runs() { grep -cE "$RUN_PATTERN" "$LOG" || true; }
# Distinct error lines naming thumbgen.json. (When SwiftPM has just rebuilt the plugin's tools it
# plans a second time and prints the plugin's error again, word for word, each time followed by its
# own "build planning stopped due to build-tool plugin failures".)
error_lines() { grep '^error: .*thumbgen\.json' "$LOG" | sort -u | wc -l; }
stamps() { (cd "$OUTPUTS" && find . -type f -name '*.png' -printf '%T@ %p\n' | sort -k2); }

restore_config() { if [ -f "$LOG.config" ]; then mv "$LOG.config" "$CONFIG"; fi; }
trap restore_config EXIT
mkdir -p "$ROOT/.build"

# 1. Build and test the example.
start=$(date +%s)
"$SWIFT" test --package-path "$EXAMPLE" --scratch-path "$SCRATCH"
pass "example built and tested in $(( $(date +%s) - start )) s"

# 2. Nothing changed: no thumbgen command runs. (The first build after `swift test` may relink
# nothing but still reads the plan; a second one is what is measured.)
build || { cat "$LOG"; fail "build after swift test"; }
build || { cat "$LOG"; fail "no-op build"; }
[ "$(runs)" = 0 ] || { grep -E "$RUN_PATTERN" "$LOG"; fail "a build with nothing changed ran thumbgen"; }
pass "second build with nothing changed: 0 thumbgen commands (swift build -v)"

# 3. Touch one image: one command, and only its outputs get new dates.
before=$(stamps)
sleep 0.05
touch "$EXAMPLE/Sources/RatingsApp/Photos/ladybird.jpg"
build || { cat "$LOG"; fail "build after touching an image"; }
[ "$(runs)" = 1 ] || { grep -E "$RUN_PATTERN" "$LOG"; fail "touching ladybird.jpg ran $(runs) commands, expected 1"; }
grep -E "$RUN_PATTERN" "$LOG" | grep -q 'Photos/ladybird.jpg' || fail "the command that ran is not ladybird.jpg's"
changed=$( (diff <(echo "$before") <(stamps) || true) | sed -n 's/^> [0-9.]* //p' | sort | tr '\n' ' ')
expected="./thumbnails/0/ladybird.jpg/ladybird.png ./thumbnails/0/ladybird.jpg/ladybird@2x.png ./thumbnails/0/ladybird.jpg/ladybird@3x.png "
[ "$changed" = "$expected" ] || fail "touching ladybird.jpg rewrote: $changed"
pass "touching ladybird.jpg: 1 thumbgen command, only ladybird.png, @2x, @3x rewritten (of $(echo "$before" | wc -l) outputs)"

# 4. Editing thumbgen.json reruns every command with the new options; a bad value fails the build.
cp "$CONFIG" "$LOG.config"
sed 's/"cornerRadius": 6/"cornerRadius": 7/' "$LOG.config" >"$CONFIG"
build || { cat "$LOG"; fail "build after editing thumbgen.json"; }
[ "$(runs)" = 5 ] || fail "editing thumbgen.json ran $(runs) commands, expected 5 (3 images, 1 icon set, 1 star set)"
grep -E "$RUN_PATTERN" "$LOG" >/dev/null
pass "editing thumbgen.json: all 5 commands reran"
sed 's/"fit": "cover"/"fit": "crop"/' "$LOG.config" >"$CONFIG"
if build; then fail "a bad fit in thumbgen.json did not fail the build"; fi
want='error: Sources/RatingsApp/thumbgen.json: thumbnails[0].fit: expected one of inside, cover, contain, fill, got "crop"'
[ "$(error_lines)" = 1 ] && grep -qxF "$want" "$LOG" || { cat "$LOG"; fail "expected one line: $want"; }
pass "bad thumbgen.json at build time: $want"
restore_config
build || { cat "$LOG"; fail "build after restoring thumbgen.json"; }

# 5. A fresh copy with a bad thumbgen.json: the plugin refuses it when the build is planned.
COPY=$ROOT/.build/plugin-bad/RatingsApp
rm -rf "$ROOT/.build/plugin-bad"
mkdir -p "$ROOT/.build/plugin-bad"
cp -R "$EXAMPLE" "$COPY"
rm -rf "$COPY/.build" "$COPY/.swiftpm"
sed -i "s|path: \"../..\"|path: \"$ROOT\"|" "$COPY/Package.swift"
sed -i 's/"size": "40x40"/"size": "40y"/' "$COPY/Sources/RatingsApp/thumbgen.json"
start=$(date +%s)
if "$SWIFT" build --package-path "$COPY" --scratch-path "$ROOT/.build/example-bad" >"$LOG" 2>&1; then
    fail "a copy with a bad size in thumbgen.json built"
fi
want='error: Sources/RatingsApp/thumbgen.json: thumbnails[0].size: expected N, WxH, Wx or xH with sides 1 to 1048576 (suffix >, <, ! or ^ allowed), got "40y"'
[ "$(error_lines)" = 1 ] && grep -qxF "$want" "$LOG" || { cat "$LOG"; fail "expected one line: $want"; }
pass "bad thumbgen.json in a fresh copy ($(( $(date +%s) - start )) s): $want"

# 6. The command plugin, on the copy with its config fixed.
cp "$CONFIG" "$COPY/Sources/RatingsApp/thumbgen.json"
command_plugin() {
    "$SWIFT" package --package-path "$COPY" --scratch-path "$ROOT/.build/example-bad" \
        --allow-writing-to-package-directory thumbgen --output Generated --xcassets Ratings.xcassets >"$LOG" 2>&1 \
        || { cat "$LOG"; fail "swift package thumbgen"; }
}
command_plugin
TARGET=$COPY/Sources/RatingsApp
[ "$(ls "$TARGET/Generated" | wc -l)" = 24 ] || fail "Generated/ holds $(ls "$TARGET/Generated" | wc -l) files, expected 24"
RESOURCES=$SCRATCH/debug/RatingsApp_RatingsApp.resources
for file in "$TARGET"/Generated/*.png; do
    cmp -s "$file" "$RESOURCES/$(basename "$file")" || fail "Generated/$(basename "$file") differs from the build's resource"
done
# The icon set as a tree; each PNG is the resource named by its path with / as -.
[ -f "$TARGET/Icons/ios/AppIcon.appiconset/Contents.json" ] && [ -f "$TARGET/Icons/macos/AppIcon.icns" ] \
    && [ -f "$TARGET/Icons/web/site.webmanifest" ] || fail "Icons/ lacks the asset catalog, the .icns or the web manifest"
icons=0
while IFS= read -r png; do
    cmp -s "$TARGET/Icons/$png" "$RESOURCES/${png//\//-}" || fail "Icons/$png differs from the build's resource ${png//\//-}"
    icons=$((icons + 1))
done < <(cd "$TARGET/Icons" && find . -name '*.png' | sed 's|^\./||' | sort)
[ "$icons" = 18 ] || fail "Icons/ holds $icons PNGs, expected 18"
[ "$(ls -d "$TARGET"/Ratings.xcassets/*.imageset | wc -l)" = 8 ] || fail "Ratings.xcassets should hold 8 image sets"
"$SCRATCH"/debug/thumbgen-tool stars --scales 1,2,3 -o "$ROOT/.build/plugin-bad/stars" --xcassets "$ROOT/.build/plugin-bad/Reference.xcassets" >/dev/null
for set in "$ROOT"/.build/plugin-bad/Reference.xcassets/*.imageset; do
    diff -r "$set" "$TARGET/Ratings.xcassets/$(basename "$set")" >/dev/null || fail "$(basename "$set") differs from thumbgen stars --xcassets"
done
cmp -s "$ROOT/.build/plugin-bad/Reference.xcassets/Contents.json" "$TARGET/Ratings.xcassets/Contents.json" || fail "catalog Contents.json differs"
command_plugin
grep -q '24 image files, 0 changed' "$LOG" && grep -q '0 files changed' "$LOG" && grep -q '24 icon files, 0 changed' "$LOG" \
    || { cat "$LOG"; fail "a second swift package thumbgen changed files"; }
pass "swift package thumbgen: 24 PNGs as built, an asset catalog matching thumbgen stars --xcassets, the icon set's 24 files (18 PNGs as built); a rerun changes nothing"
# 6b. Widths and formats through the command plugin: 3 photos (200 px wide) x widths 64, 120 and
#     400 (above the photos: collapsed onto 200, since 120 x 1.25 < 200) x 2 formats. A target
#     that uses the build plugin cannot have widths (its outputs must be named before the build),
#     so the copy's target drops the plugin first, as a package that checks its images in would.
sed -i 's|plugins: \[.plugin(name: "ThumbgenPlugin", package: "thumbgen")\]|plugins: []|' "$COPY/Package.swift"
python3 - "$TARGET/thumbgen.json" <<'PY'
import json, sys
path = sys.argv[1]
config = json.load(open(path))
config["thumbnails"].append({"source": "Photos", "widths": [64, 120, 400], "formats": ["webp", "jpeg"], "name": "web-%s-%w"})
json.dump(config, open(path, "w"), indent=2)
PY
"$SWIFT" package --package-path "$COPY" --scratch-path "$ROOT/.build/example-bad" \
    --allow-writing-to-package-directory thumbgen --output Web >"$LOG" 2>&1 || { cat "$LOG"; fail "swift package thumbgen with widths"; }
web=$(cd "$TARGET/Web" && ls web-* | sort | tr '\n' ' ')
want=""
for photo in dune fresh-flower ladybird; do for w in 120 200 64; do want="${want}web-$photo-$w.jpg web-$photo-$w.webp "; done; done
[ "$web" = "$want" ] || fail "Web/ holds '$web', expected '$want'"
python3 -c "
from struct import unpack
data = open('$TARGET/Web/web-dune-120.jpg', 'rb').read()
i = 2
while data[i + 1] not in (0xC0, 0xC1, 0xC2):
    i += 2 + unpack('>H', data[i + 2:i + 4])[0]
h, w = unpack('>HH', data[i + 5:i + 9])
assert (w, h) == (120, 75), (w, h)
" || fail "web-dune-120.jpg is not 120x75"
pass "swift package thumbgen with widths x formats: 18 files named by their real widths"
# 7. More mistakes in thumbgen.json, checked by the step itself (the same code the plugin plans with).
STEP=$SCRATCH/debug/thumbgen-plugin-step-tool
BAD=$ROOT/.build/plugin-bad/Bad
mkdir -p "$BAD/Photos"
check_bad() {
    printf '%s\n' "$1" >"$BAD/thumbgen.json"
    local got
    got=$("$STEP" /bin/false "$BAD/thumbgen.json" thumbgen.json stars 0 "$BAD/out" x.png 2>&1 >/dev/null) && fail "accepted: $1"
    [ "$got" = "error: thumbgen.json: $2" ] || fail "for $1: got '$got', expected 'error: thumbgen.json: $2'"
}
check_bad '{"thumbnails": [{"source": "Photos", "size": "40"}], "stars": 3}' 'stars: expected an array, got a number'
check_bad '{"thumbnails": [{"source": "Nowhere"}]}' 'thumbnails[0].source: no folder "Nowhere" next to thumbgen.json'
check_bad '{"thumbnails": [{"source": "../x"}]}' 'thumbnails[0].source: expected a path inside the project'"'"'s folder, got "../x"'
check_bad '{"thumbnails": [{"size": "40x40"}]}' 'thumbnails[0]: missing member "source" (a folder beside thumbgen.json)'
check_bad '{"thumbnails": [{"source": "Photos", "scales": [1, 9]}]}' 'thumbnails[0].scales[1]: expected a scale above 0 and up to 8 with at most three decimals, got 9'
check_bad '{"thumbnails": [{"source": "Photos", "cornerRadius": "6"}]}' 'thumbnails[0].cornerRadius: expected a number, got a string'
check_bad '{"thumbnails": [{"source": "Photos", "name": "%q"}]}' 'thumbnails[0].name: unknown placeholder %q in "%q" (use %s, %w, %e or %%)'
check_bad '{"thumbnails": [{"source": "Photos", "radius": 6}]}' 'thumbnails[0].radius: unknown member (known: allowPartial, background, badgeHalo, badgeMargin, badgePlate, badgeSize, chroma, colorType, cornerRadius, effort, empty, enlarge, fill, fillMode, fit, formats, gravity, half, html, keepProfile, kernel, lossless, maxFileBytes, maxMemory, maxPixels, metadata, name, noLinear, noRotate, noShrinkOnLoad, noSidecars, outline, outlineWidth, output, pairs, placeholders, progressive, quality, ratingBadge, ratingsFile, scales, size, sizes, source, strictScales, urlPrefix, widths)'
check_bad '{"stars": [{"slots": 5, "ratings": [1, 6]}]}' 'stars[0].ratings[1]: expected a rating from 0 to 5 (slots), got 6'
check_bad '{"stars": [{"fill": "orange"}]}' 'stars[0].fill: expected RRGGBB or RRGGBBAA, got "orange"'
check_bad '{"stars": [{"half": "yes"}]}' 'stars[0].half: expected true or false, got "yes"'
check_bad '{"stars": [{"ratings": [1, 1.0]}]}' 'stars[0].ratings: ratings 1 and 1 are both named "1StarSmall"'
check_bad '{"stars": [{"outlineWidth": 3}]}' 'stars[0].outlineWidth: expected pixels from 0 to under 0.1545 x size (2.472), got 3'
check_bad '{"thumbnails": [], }' 'line 1, column 20: expected a member name in double quotes'
check_bad '{"stars": [], "stars": []}' 'line 1, column 15: member "stars" appears twice'
check_bad '{"icons": [{"source": "nope.png"}]}' 'icons[0].source: cannot read "nope.png" next to thumbgen.json'
check_bad '{"icons": [{"source": "Photos/../x.png"}]}' 'icons[0].source: expected a path inside the project'"'"'s folder, got "Photos/../x.png"'
pass "17 more mistakes, each reported as one line naming the member"
echo "plugin-test: all passed"
