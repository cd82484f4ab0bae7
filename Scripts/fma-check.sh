#!/bin/sh
# Builds thumbgen a second time with its C modules compiled for FMA and allowed to contract
# (-mfma -ffp-contract=fast, passed with -Xcc into a scratch path of its own, so Package.swift
# needs no unsafe flags), runs the golden suite with both builds and demands the same bytes.
# The pragma `clang fp contract(off)` in each C file with floating-point arithmetic is what keeps
# them equal: it outranks the command line. x86-64 only (-mfma); elsewhere it says so and exits 0.
#
#   Scripts/fma-check.sh            (from the repository; takes a full release build)
#   PLAIN_BIN=path/to/thumbgen Scripts/fma-check.sh   (compare against a thumbgen already built)
set -eu
cd "$(dirname "$0")/.."
case "$(uname -m)" in
    x86_64) ;;
    *) echo "fma-check: -mfma is an x86-64 flag; skipped on $(uname -m)"; exit 0 ;;
esac
if ! grep -q fma /proc/cpuinfo; then echo "fma-check: this CPU has no FMA; skipped"; exit 0; fi
SWIFT=${SWIFT:-swift}
plain=${PLAIN_BIN:-}
if [ -z "$plain" ]; then
    $SWIFT build -c release --product thumbgen >/dev/null
    plain=.build/release/thumbgen
fi
$SWIFT build -c release --product thumbgen --scratch-path .build/fma -Xcc -mfma -Xcc -ffp-contract=fast >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
Scripts/golden-suite.sh "$plain" "$work/plain" 2>/dev/null
Scripts/golden-suite.sh .build/fma/release/thumbgen "$work/fma" 2>/dev/null
# Manifests record the sources' inodes and change times, which differ between the two copies.
if diff -r -x 'thumbgen-manifest*.json' -x in "$work/plain" "$work/fma"; then
    echo "fma-check: $(find "$work/plain" -type f ! -name 'thumbgen-manifest*' ! -path '*/in/*' | wc -l) outputs identical with -mfma -ffp-contract=fast"
else
    echo "fma-check: outputs differ with -mfma -ffp-contract=fast" >&2
    exit 1
fi
