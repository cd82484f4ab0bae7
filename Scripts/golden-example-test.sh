#!/usr/bin/env bash
# ThumbKitTesting as a user's package uses it (Examples/GoldenTests; `make test` runs this), in a
# copy under .build/golden-example with its goldens removed:
#  1. the first `swift test` records the missing golden and fails once, saying where;
#  2. the second passes;
#  3. with the fixture photo changed it fails, naming the golden, the number of differing pixels
#     and the .actual.png and .diff.png it wrote beside the golden;
#  4. THUMBKIT_RECORD_GOLDENS=1 accepts the new image, passes and removes those two files;
#  5. the checked-in example's golden is the one step 1 recorded (so the example passes as it is).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SWIFT=${SWIFT:-swift}
WORK=$ROOT/.build/golden-example
COPY=$WORK/GoldenTests
GOLDENS=$COPY/Tests/GoldenTests/Goldens
LOG=$WORK/test.log

fail() { echo "golden-example-test: FAIL: $*" >&2; [ -f "$LOG" ] && tail -20 "$LOG" >&2; exit 1; }
pass() { echo "golden-example-test: ok: $*"; }
run() { "$SWIFT" test --package-path "$COPY" --scratch-path "$WORK/scratch" >"$LOG" 2>&1; }

rm -rf "$COPY"
mkdir -p "$WORK"
cp -R Examples/GoldenTests "$COPY"
rm -rf "$GOLDENS"
# The copy depends on this checkout by absolute path.
sed -i "s|path: \"../..\"|path: \"$ROOT\"|" "$COPY/Package.swift"

if run; then fail "a missing golden passed"; fi
grep -q "no golden at $GOLDENS/cat-64.png; recorded" "$LOG" || fail "no message naming the recorded golden"
[ -f "$GOLDENS/cat-64.png" ] || fail "the golden was not recorded"
cp "$GOLDENS/cat-64.png" "$WORK/recorded.png"
pass "a missing golden is recorded and the test fails once"

run || fail "the recorded golden does not pass"
pass "the recorded golden passes"

# A grey square painted into the photo: the thumbnail's corner changes.
/usr/bin/python3 - "$COPY/Tests/GoldenTests/Fixtures/cat.png" <<'PY'
import sys
from PIL import Image
image = Image.open(sys.argv[1]).convert("RGBA")
for x in range(40, 100):
    for y in range(200, 260):
        image.putpixel((x, y), (128, 128, 128, 255))
image.save(sys.argv[1])
PY
if run; then fail "a changed image passed"; fi
grep -qE "$GOLDENS/cat-64.png: [0-9]+ pixels differ, maximum difference [0-9]+, PSNR [0-9.]+ dB \(tolerance 0\); wrote $GOLDENS/cat-64.actual.png and $GOLDENS/cat-64.diff.png" "$LOG" \
    || fail "the failure does not say what differs and where the images are"
[ -f "$GOLDENS/cat-64.actual.png" ] && [ -f "$GOLDENS/cat-64.diff.png" ] || fail "no actual and diff images"
pass "a changed image fails with a diff image beside the golden"

THUMBKIT_RECORD_GOLDENS=1 run || fail "recording did not pass"
[ ! -e "$GOLDENS/cat-64.actual.png" ] && [ ! -e "$GOLDENS/cat-64.diff.png" ] || fail "the failure images were left"
run || fail "the re-recorded golden does not pass"
pass "THUMBKIT_RECORD_GOLDENS=1 accepts the new image"

cmp -s "$WORK/recorded.png" Examples/GoldenTests/Tests/GoldenTests/Goldens/cat-64.png \
    || fail "Examples/GoldenTests' golden is not what the example records (copy $WORK/recorded.png there after looking at it)"
pass "the checked-in golden is the recorded one"
