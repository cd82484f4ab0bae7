#!/usr/bin/env python3
"""What JPEG shrink-on-load costs in quality and saves in time, measured with the release binary.

Quality: for each JPEG, the default thumbnail (libjpeg reduces the decode by 1/2, 1/4 or 1/8,
keeping at least 2x the target) against the exact one (--no-shrink-on-load: full decode), at
--size 256 and 128, in linear light (the default) and with --no-linear: the largest difference on
any channel, the share of samples more than 1 off, PSNR over all samples pooled, and the worst
single file's PSNR. Sources: the bench corpus's real photos (photos-jpeg, skipped when absent) and
synthetic JPEGs made here with Pillow (a photo-like picture and 2x2-cell noise, 4096x3072).

Margins other than thumbgen's 2 (k = 3, 4, 8) are measured by a Swift test that goes through the
library's own loader, since the binary has no such knob:
    THUMBGEN_MEASURE=1 swift test -c release --filter ShrinkOnLoadMeasurement

Speed: wall time of thumbgen -j1 and -j2 on the photos-jpeg folder, default against
--no-shrink-on-load, and of vipsthumbnail -s 256 (VIPS_CONCURRENCY=1) on the same files, interleaved in one session;
medians of --runs (default 5) with ratios of the medians.

Needs `swift build -c release` first, and numpy and Pillow (pip install numpy pillow).
Usage: Scripts/shrink-on-load.py [--runs N] [--photos DIR] [--no-timing]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
BIN = os.path.join(ROOT, ".build", "release", "thumbgen")
PHOTOS = os.path.join(os.environ.get("BENCH_CACHE", os.path.expanduser("~/.cache/thumbgen-bench")), "corpus", "photos-jpeg")
BOXES = (256, 128)

try:
    import numpy as np
    from PIL import Image
except ImportError:
    sys.exit("shrink-on-load: needs numpy and Pillow: pip install numpy pillow")


def jpegs(directory):
    found = []
    for base, _, names in os.walk(directory):
        found += [os.path.join(base, n) for n in names if n.lower().endswith((".jpg", ".jpeg"))]
    return sorted(found)


def synthetic(directory):
    """A photo-like picture (gradients, a soft texture, hard-edged tiles: the shrink-on-load
    tests' pattern) and independent noise in 2x2 cells, both 4096x3072, quality 90, 4:2:0."""
    for name in ("photo-like", "noise"):
        os.makedirs(os.path.join(directory, name), exist_ok=True)
    w, h = 4096, 3072
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    fx, fy = x / w, y / h
    texture = 25 * np.sin(x * 0.05) * np.cos(y * 0.043)
    rgb = np.stack([60 + 150 * fx + texture, 40 + 170 * fy - texture / 2, 200 - 120 * fx * fy + texture / 3], axis=-1)
    tiles = ((x // 200 + y // 200) % 5) == 0
    rgb[tiles] = (240, 230, 40)
    Image.fromarray(np.clip(np.rint(rgb), 0, 255).astype(np.uint8)).save(
        os.path.join(directory, "photo-like", "photo-like.jpg"), quality=90, subsampling=2)
    cells = np.random.default_rng(7).integers(0, 256, (h // 2, w // 2, 3), dtype=np.uint8)
    Image.fromarray(cells.repeat(2, 0).repeat(2, 1)).save(os.path.join(directory, "noise", "noise.jpg"), quality=90, subsampling=2)
    return directory


def thumbnails(directory, out, box, *flags):
    """Runs thumbgen on a folder into `out` (it mirrors the tree); returns {source path: RGB array}."""
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run([BIN, directory, "-o", out, "--size", str(box), "--progress", "never", "-q", *flags], check=True)
    return {f: np.asarray(Image.open(os.path.join(out, os.path.splitext(os.path.relpath(f, directory))[0] + ".png"))
                          .convert("RGB"), dtype=np.int32) for f in jpegs(directory)}


def psnr(mse):
    return float("inf") if mse == 0 else 10 * np.log10(255 * 255 / mse)


def quality(sets, work):
    print("quality: default (shrink-on-load, margin 2) against --no-shrink-on-load, per channel")
    print("| source | box | light | files | max diff | samples >1 off | PSNR dB | worst file PSNR dB |")
    print("|---|---|---|---|---|---|---|---|")
    for name, directory in sets.items():
        for box in BOXES:
            for light, flags in (("linear", ()), ("srgb", ("--no-linear",))):
                reduced = thumbnails(directory, os.path.join(work, "reduced"), box, *flags)
                exact = thumbnails(directory, os.path.join(work, "exact"), box, "--no-shrink-on-load", *flags)
                files = sorted(reduced)
                peak = over = count = 0
                squares, worst = 0.0, float("inf")
                for f in files:
                    d = np.abs(reduced[f] - exact[f])
                    peak = max(peak, int(d.max()))
                    over += int((d > 1).sum())
                    count += d.size
                    squares += float((d.astype(np.float64) ** 2).sum())
                    worst = min(worst, psnr(float((d.astype(np.float64) ** 2).mean())))
                print(f"| {name} | {box} | {light} | {len(files)} | {peak} | {100 * over / count:.2f}% | "
                      f"{psnr(squares / count):.1f} | {worst:.1f} |")
                sys.stdout.flush()


def timing(directory, runs, work):
    out = os.path.join(work, "timing")
    vips = shutil.which("vipsthumbnail")
    env1 = dict(os.environ, VIPS_CONCURRENCY="1", OMP_NUM_THREADS="1")
    files = jpegs(directory)
    commands = [
        ("thumbgen -j1 (shrink-on-load)", [BIN, directory, "-o", out, "--size", "256", "-j1", "--progress", "never", "-q"]),
        ("thumbgen -j1 --no-shrink-on-load",
         [BIN, directory, "-o", out, "--size", "256", "-j1", "--progress", "never", "-q", "--no-shrink-on-load"]),
        ("thumbgen -j2 (shrink-on-load)", [BIN, directory, "-o", out, "--size", "256", "-j2", "--progress", "never", "-q"]),
        ("thumbgen -j2 --no-shrink-on-load",
         [BIN, directory, "-o", out, "--size", "256", "-j2", "--progress", "never", "-q", "--no-shrink-on-load"]),
    ]
    if vips:
        commands.append(("vipsthumbnail -s 256 (1 thread)", ["vipsthumbnail", "-s", "256", "-o", os.path.join(out, "%s.png"), *files]))
    else:
        print("vipsthumbnail not installed: not timed")
    walls = {label: [] for label, _ in commands}
    for _ in range(runs):
        # Interleaved, so a slow spell on a shared machine hits every command alike.
        for label, argv in commands:
            shutil.rmtree(out, ignore_errors=True)
            os.makedirs(out)
            start = time.perf_counter()
            subprocess.run(argv, check=True, env=env1, stdout=subprocess.DEVNULL)
            walls[label].append(time.perf_counter() - start)
    base = statistics.median(walls[commands[0][0]])
    print(f"\nspeed: {len(files)} photos-jpeg files into a 256 box, wall time, median of {runs} (all runs in s)")
    for label, values in walls.items():
        median = statistics.median(values)
        print(f"  {label:<36} {median:6.2f} s  ×{median / base:.2f} of thumbgen -j1   "
              f"[{' '.join(f'{v:.2f}' for v in values)}]")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--photos", default=PHOTOS)
    parser.add_argument("--no-timing", action="store_true")
    args = parser.parse_args()
    if not os.access(BIN, os.X_OK):
        sys.exit(f"shrink-on-load: {BIN} not found: run swift build -c release first")
    work = tempfile.mkdtemp(prefix="thumbgen-shrink-on-load-")
    try:
        photos = os.path.isdir(args.photos) and jpegs(args.photos)
        if not photos:
            print(f"{args.photos}: no JPEGs there, measuring synthetic JPEGs only (no timing)")
        synthetic_folder = synthetic(os.path.join(work, "synthetic"))
        sets = ({"photos-jpeg": args.photos} if photos else {}) | {
            f"synthetic {name}": os.path.join(synthetic_folder, name) for name in ("photo-like", "noise")}
        print(subprocess.run([BIN, "--version"], capture_output=True, text=True).stdout.strip())
        quality(sets, work)
        if photos and not args.no_timing:
            timing(args.photos, args.runs, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
