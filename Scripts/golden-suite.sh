#!/bin/sh
# The golden suite: thumbgen run over PNG, JPEG, WebP and HEIF inputs with every fit, every kernel,
# rounded corners, rating badges, every output format, star badges, a contact sheet and an icon
# set. PlatformMathTests runs it with and without a libm that is an ulp off, and
# Scripts/fma-check.sh with C modules built for FMA, and demand the same bytes.
#
#   Scripts/golden-suite.sh THUMBGEN OUT   (OUT must not exist; inputs from Tests/Fixtures)
#
# Paths inside OUT are relative (the sheet's map records its sources' paths as given), so two
# runs into two folders give the same bytes.
set -eu
case $1 in /*) bin=$1 ;; *) bin=$PWD/$1 ;; esac
fixtures=$(cd "$(dirname "$0")/../Tests/Fixtures" && pwd)
mkdir -p "$2/in"
cd "$2"
out=.
for f in photos/cat-rgba8.png fuzz-seeds/baseline.jpg fuzz-seeds/oriented.jpg webp/lossy.webp webp/lossless.webp \
         heif/opaque.heic heif/alpha.avif ratings/xmp.webp ratings/exif.jpg ratings/xmp-half.png; do
    cp "$fixtures/$f" "$out/in/$(echo "$f" | tr / -)"
done
in=in
for fit in inside cover contain fill; do
    "$bin" "$in" -o "$out/fit-$fit" --size 40x30 --fit "$fit" --background 336699
done
for kernel in lanczos3 lanczos2 mitchell catrom bilinear box nearest; do
    "$bin" "$in" -o "$out/kernel-$kernel" --size 37 --kernel "$kernel"
done
"$bin" "$in" -o "$out/no-linear" --size 29 --no-linear
"$bin" "$in" -o "$out/corners" --size 48 --fit cover --corner-radius 11 --scales 1,2,3
"$bin" "$in" -o "$out/badges" --size 64 --enlarge --rating-badge southeast --badge-plate 00000080 --scales 1,2
"$bin" "$in" -o "$out/formats" --size 33 --format png,jpeg,webp
"$bin" stars -o "$out/stars" --half --scales 1,2,3
"$bin" sheet "$in" -o "$out/sheet/sheet.png" --cell 40 --columns 3
"$bin" icons "$fixtures/icons/master.png" -o "$out/icons"
