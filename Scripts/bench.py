#!/usr/bin/env python3
"""thumbgen benchmarks (`make bench`): medians of repeated runs, measured in the same session.

Corpus (built once into .build/bench-corpus from files the repository ships, so it needs nothing
installed; a larger real corpus is used too when ../shared/bench/make-corpus.sh has filled
$BENCH_CACHE/corpus):
  (photos-jpeg from make-corpus.sh too: JPEGs, where libvips and thumbgen both shrink on load)
  large/  the three sample photos enlarged by thumbgen (Lanczos-3) to about 12 megapixels
  many/   300 PNGs from 64 to 900 px: the sample photos and icons at many sizes

Reports, for each set: wall and CPU time, images/s, megapixels/s and peak RSS of thumbgen at
-j1 (and -j2 for `many`), of a bare libpng decode of the same files (thumbgen-bench decode), and of
vipsthumbnail, ImageMagick convert and Pillow when they are installed; ratios are to the bare
decode measured in the same run. The tools of a set take turns, one run each a round, and every
run writes into a new empty directory (see OUTPUTS). Also thumbgen-bench's decode-versus-resample split on one
12-megapixel photo, the peak RSS of one 12-megapixel photo and of a generated 4000x40000 PNG, the
peak RSS of a single-scale thumbnail (--no-shrink-on-load) of a 6000x4000 (24 MP) baseline JPEG and
of a 6000x8000 one (a sample photo enlarged by thumbgen, encoded with cjpeg or Pillow at quality 90;
skipped when neither is installed) with their file sizes, and a
"targets" section with every ratio the performance issues ask for (each from the same session;
wall-time ratios from medians, with the ratio of minimums beside them).

Environment: THUMBGEN_BIN (the thumbgen measured; `make bench` sets the static build),
THUMBGEN_BENCH_BIN (thumbgen-bench, default .build/release/thumbgen-bench), BENCH_RUNS (rounds,
default 5), BENCH_CACHE (where make-corpus.sh put its corpus). A/B: THUMBGEN_BASELINE_BIN names a
second thumbgen (the "before"); every thumbgen measurement of every set, and every peak-RSS
measurement, then also runs that binary in the same rounds (one run each a round, next to the run
it is compared with), and the report adds before -> after medians with after/before ratios per set
and a summary of them at the end. Corpora are made with THUMBGEN_BIN, so both read the same files.
"""
import atexit
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
# `make bench` points this at the binary `make install` would install (Swift runtime linked in).
BIN = os.path.abspath(os.environ.get("THUMBGEN_BIN", os.path.join(ROOT, ".build", "release", "thumbgen")))
BENCH = os.path.abspath(os.environ.get("THUMBGEN_BENCH_BIN", os.path.join(ROOT, ".build", "release", "thumbgen-bench")))
# A/B: the "before" thumbgen, measured beside BIN in the same rounds (None: no comparison).
BASELINE = os.path.abspath(os.environ["THUMBGEN_BASELINE_BIN"]) if os.environ.get("THUMBGEN_BASELINE_BIN") else None
CORPUS = os.path.join(ROOT, ".build", "bench-corpus")
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
# BENCH_ONLY=memory: the peak-memory sections alone (a few minutes instead of half an hour);
# BENCH_ONLY=formats: the memory sections, the new input formats (WebP, GIF, TIFF, HEIC, AVIF) against
# vipsthumbnail, and JPEG/WebP output; BENCH_ONLY=output: the memory sections and JPEG/WebP output only;
# BENCH_ONLY=sheet: the memory sections and the 200-photo contact sheet against ImageMagick's montage.
# BENCH_ONLY=sets: the memory sections and one run of widths x formats against six single-output runs.
# BENCH_ONLY=raw: only the camera RAW section (thumbgen against exiftool | vipsthumbnail).
# BENCH_ONLY=summary: only the one-screen summary (every input kind against its peer, -j2 scaling).
# BENCH_ONLY=web: only the web section (AVIF encode CPU against vipsthumbnail, bytes at equal SSIM).
# BENCH_ONLY=peers: the memory sections and each corpus against vipsthumbnail, ImageMagick and Pillow
# (thumbgen -j1 only), ending with the README's performance table.
ONLY = os.environ.get("BENCH_ONLY", "")
BOX = 256
# GNU time measures each command's peak RSS (see run_measured); Debian package "time".
TIME = shutil.which("time") or "/usr/bin/time"


def run_measured(argv, env=None):
    """Runs a command; returns (wall s, cpu s, peak RSS MiB).

    The peak RSS comes from GNU time, not from this process's wait4: Linux carries a process's
    high-water mark across fork and exec, so a child forked from this (large) Python process
    reports at least Python's own RSS, whatever it runs. time(1) is small, and forks the command."""
    start = time.perf_counter()
    with tempfile.NamedTemporaryFile(mode="r", suffix=".rss") as rss:
        proc = subprocess.Popen([TIME, "-f", "%M", "-o", rss.name, *argv],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        err = proc.stderr.read().decode(errors="replace")
        proc.stderr.close()
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"bench: {' '.join(argv[:3])} … failed:\n{err}")
        kib = int(rss.read().split()[-1])
    return wall, usage.ru_utime + usage.ru_stime, kib / 1024


class Measured(tuple):
    """(median wall, median CPU, median peak RSS) with .min_wall and .min_cpu alongside."""


def summarise(results):
    m = Measured(tuple(statistics.median(r[i] for r in results) for i in range(3)))
    m.min_wall = min(r[0] for r in results)
    m.min_cpu = min(r[1] for r in results)
    return m


# Every measured run writes into a new, empty directory under OUTPUTS, removed only when the
# bench ends. Deleting outputs between runs made file creation the bottleneck of the small-file
# sets: ext4 without a journal (this machine's disk) passes over every inode freed in the last
# 60 s when it allocates one, so each new file scanned past the previous run's deleted ones
# (53% of thumbgen's samples on the icons were in ext4_new_inode). Fresh directories give every
# tool the same first-write conditions.
OUTPUTS = tempfile.mkdtemp(prefix="thumbgen-bench-outputs-")
atexit.register(shutil.rmtree, OUTPUTS, True)


def fresh_output():
    return tempfile.mkdtemp(prefix="run-", dir=OUTPUTS)


def round_robin(commands, runs=None):
    """Runs each (label, argv for an output directory, env) once a round, so that the machine's
    drift over time is spread across every tool alike; each round starts one tool later, since
    the same binary measured twice a round took about 2% more CPU in the second slot (9 rounds on
    the PNG photos), which would favour whichever tool goes first. Returns [(label, Measured)]."""
    results = {label: [] for label, _, _ in commands}
    for round_index in range(runs or RUNS):
        for k in range(len(commands)):
            label, argv_for, env = commands[(round_index + k) % len(commands)]
            results[label].append(run_measured(argv_for(fresh_output()), env))
    return [(label, summarise(results[label])) for label, _, _ in commands]


def make_tall_png(path, width=4000, height=40000):
    """A width x height RGB PNG (non-interlaced, smooth gradients plus a pattern) written row by
    row with zlib, so making it needs neither the whole image nor Pillow's pixel limit."""
    import struct
    import zlib
    if os.path.exists(path):
        return path
    tmp = path + ".tmp"
    xs = bytearray()
    for x in range(width):
        xs += bytes(((x * 255) // width, (x * 7) % 256, 128))
    with open(tmp, "wb") as f:
        def chunk(kind, data):
            f.write(struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))
        f.write(b"\x89PNG\r\n\x1a\n")
        chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        z = zlib.compressobj(6)
        out = bytearray()
        base = bytes(xs)
        for y in range(height):
            shade = (y * 255) // height
            # Filter type 0; the blue channel follows the row so every row differs.
            line = bytearray(base)
            line[2::3] = bytes([shade]) * width
            out += z.compress(b"\x00" + bytes(line))
            if len(out) > (1 << 20):
                chunk(b"IDAT", bytes(out))
                out.clear()
        out += z.flush()
        chunk(b"IDAT", bytes(out))
        chunk(b"IEND", b"")
    os.rename(tmp, path)
    return path


def real_convert():
    """ImageMagick's convert, when the one on PATH is the real one (some machines have a stand-in)."""
    return shutil.which("convert") and subprocess.run(["convert", "-version"], capture_output=True).returncode == 0


def have_pillow():
    try:
        import PIL
        return bool(PIL)
    except ImportError:
        return False


def jpeg_encoder():
    """(name, encode(png, jpeg)) for a baseline (sequential) JPEG at quality 90, 4:2:0: cjpeg from
    libjpeg-turbo-progs (fed a PPM, which Pillow, vips or ImageMagick make from the PNG), else
    Pillow's encoder; (None, why) when neither can."""
    if have_pillow():
        def to_ppm(png, ppm):
            from PIL import Image
            with Image.open(png) as im:
                im.convert("RGB").save(ppm, "PPM")
    elif shutil.which("vips"):
        to_ppm = lambda png, ppm: subprocess.run(["vips", "copy", png, ppm], check=True)
    elif real_convert():
        to_ppm = lambda png, ppm: subprocess.run(["convert", png, ppm], check=True)
    else:
        to_ppm = None
    if shutil.which("cjpeg") and to_ppm:
        def encode(png, jpeg):
            ppm = jpeg + ".ppm"
            to_ppm(png, ppm)
            # cjpeg writes sequential JPEG unless -progressive; 4:2:0 is its default for colour.
            subprocess.run(["cjpeg", "-quality", "90", "-sample", "2x2", "-outfile", jpeg, ppm], check=True)
            os.remove(ppm)
        return "cjpeg", encode
    if have_pillow():
        def encode(png, jpeg):
            from PIL import Image
            with Image.open(png) as im:
                im.convert("RGB").save(jpeg, "JPEG", quality=90, progressive=False, subsampling=2)
        return "pillow", encode
    if shutil.which("cjpeg"):
        return None, "cjpeg is installed but nothing here turns a PNG into its PPM input (pip install Pillow)"
    return None, "neither cjpeg (apt-get install libjpeg-turbo-progs) nor Pillow (pip install Pillow) is installed"


def make_big_jpegs():
    """The largest sample photo, enlarged by thumbgen (Lanczos-3, cropped to fill) to 6000x4000 and
    to 6000x8000 (same width, twice the height) and encoded as baseline JPEG quality 90.
    Returns (encoder name, [(width, height, path)]), or (None, why) when no encoder is installed.
    The encoder is in the file name: cjpeg and Pillow make files of different sizes."""
    name, encode = jpeg_encoder()
    if name is None:
        return None, encode
    photos = images(os.path.join(ROOT, "Assets", "samples", "photos"))
    source = max(photos, key=lambda p: describe(p)[0])
    stem = os.path.splitext(os.path.basename(source))[0]
    made = []
    for width, height in [(6000, 4000), (6000, 8000)]:
        path = os.path.join(CORPUS, f"{stem}-{width}x{height}-baseline-q90-{name}.jpg")
        if not os.path.exists(path):
            tmp = path + ".tmp"
            shutil.rmtree(tmp, ignore_errors=True)
            subprocess.run([BIN, source, "-o", tmp, "--size", f"{width}x{height}", "--fit", "cover", "--enlarge",
                            "-q", "--progress", "never", "--no-fsync"], check=True)
            encode(os.path.join(tmp, stem + ".png"), tmp + ".jpg")
            with open(tmp + ".jpg", "rb") as f:
                marker, w, h, _ = jpeg_frame(f.read(1 << 16))
            if (marker, w, h) != (0xC0, width, height):
                sys.exit(f"bench: {tmp}.jpg is not a {width}x{height} baseline JPEG (SOF {marker}, {w}x{h})")
            os.rename(tmp + ".jpg", path)
            shutil.rmtree(tmp, ignore_errors=True)
        made.append((width, height, path))
    return name, made


def build_corpus():
    large, many = os.path.join(CORPUS, "large"), os.path.join(CORPUS, "many")
    samples = os.path.join(ROOT, "Assets", "samples")
    if not os.path.isdir(large):
        tmp = large + ".tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        subprocess.run([BIN, os.path.join(samples, "photos"), "-o", tmp, "--size", "4240x4240", "--enlarge", "-q",
                        "--progress", "never"], check=True)
        os.remove(os.path.join(tmp, "thumbgen-manifest.json"))
        os.rename(tmp, large)
    if not os.path.isdir(many):
        tmp = many + ".tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        sizes = list(range(64, 900, 28))  # 30 sizes
        for size in sizes:
            subprocess.run([BIN, samples, "-o", os.path.join(tmp, str(size)), "--size", str(size), "--enlarge", "-q",
                            "--progress", "never"], check=True)
            os.remove(os.path.join(tmp, str(size), "thumbgen-manifest.json"))
        os.rename(tmp, many)
    return {"large": large, "many": many}


def images(directory, extensions=(".png", ".jpg", ".jpeg")):
    out = []
    for base, dirs, files in os.walk(directory):
        dirs.sort()
        out += [os.path.join(base, f) for f in sorted(files) if f.lower().endswith(extensions)]
    return out


def format_corpus(photos, count=20):
    """The first `count` photos of the JPEG set as WebP (libwebp through Pillow, quality 80), GIF
    (Pillow, 256 colours), TIFF (libtiff through Pillow, LZW) and HEIC and AVIF (heif-enc, quality
    80, when libheif-examples is installed), made once into the bench corpus folder: real-size files of the formats
    thumbgen reads beside PNG and JPEG. Returns {format: directory}, empty without Pillow."""
    if not have_pillow():
        return {}
    made = {}
    for extension, save in (("webp", "im.save(out, quality=80, method=4)"), ("gif", "im.quantize(256).save(out)"),
                            ("tif", "im.save(out, compression='tiff_lzw')")):
        directory = os.path.join(CORPUS, "formats", extension)
        if len(images(directory, ("." + extension,))) < count:
            os.makedirs(directory, exist_ok=True)
            script = ("import sys\nfrom PIL import Image\n"
                      "for i, p in enumerate(sys.argv[2:]):\n"
                      " im = Image.open(p).convert('RGB'); out = '%s/%02d.{0}' % (sys.argv[1], i)\n"
                      " {1}\n").format(extension, save)
            subprocess.run([sys.executable, "-c", script, directory] + photos[:count], check=True)
        made[extension] = directory
    # HEIC (x265) and AVIF (libaom) by libheif's own encoder, from the JPEGs as they are; the
    # faster encoder presets (x265 veryfast, aom speed 8) only shorten making the corpus once.
    if shutil.which("heif-enc"):
        for extension, options in (("heic", ["-q", "80", "-p", "preset=ultrafast"]), ("avif", ["-q", "80", "-p", "speed=8"])):
            directory = os.path.join(CORPUS, "formats", extension)
            if len(images(directory, ("." + extension,))) < count:
                os.makedirs(directory, exist_ok=True)
                for i, photo in enumerate(photos[:count]):
                    subprocess.run(["heif-enc", *options, "-o", os.path.join(directory, "%02d.%s" % (i, extension)), photo],
                                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            made[extension] = directory
    return made


def jpeg_segments(data):
    """(marker, payload) of each marker segment up to and including the first SOF."""
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            i += 1 if marker == 0xFF else 2
            continue
        length = int.from_bytes(data[i + 2:i + 4], "big")
        yield marker, data[i + 4:i + 2 + length]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return
        i += 2 + length


def jpeg_frame(data):
    """(SOF marker, width, height, components' (h, v) sampling) from a JPEG's first SOF marker."""
    for marker, body in jpeg_segments(data):
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            count = body[5] if len(body) > 5 else 0
            sampling = [(body[7 + 3 * c] >> 4, body[7 + 3 * c] & 15) for c in range(count) if 8 + 3 * c < len(body)]
            return marker, int.from_bytes(body[3:5], "big"), int.from_bytes(body[1:3], "big"), sampling
    return None, 0, 0, []


def jpeg_size(data):
    """Width and height from a JPEG's first SOF marker."""
    return jpeg_frame(data)[1:3]


def megapixels(files):
    total = 0
    for path in files:
        with open(path, "rb") as f:
            data = f.read(1 << 20)
        if data.startswith(b"\xff\xd8"):
            w, h = jpeg_size(data)
            total += w * h
        else:
            total += int.from_bytes(data[16:20], "big") * int.from_bytes(data[20:24], "big")
    return total / 1e6


PNG_COLOUR = {0: "grey", 2: "RGB", 3: "palette", 4: "grey+alpha", 6: "RGBA"}
JPEG_SOF = {0xC0: "baseline", 0xC1: "extended", 0xC2: "progressive", 0xC3: "lossless"}


def describe(path):
    """(pixels, width, height, kind, extras) of one PNG or JPEG, from its header segments only."""
    with open(path, "rb") as f:
        data = f.read(1 << 20)
    extras = []
    if data.startswith(b"\xff\xd8"):
        marker, w, h, sampling = jpeg_frame(data)
        kind = f"JPEG {JPEG_SOF.get(marker, hex(marker or 0))}"
        if len(sampling) == 1:
            kind += " grey"
        elif len(sampling) == 3:
            (h0, v0) = sampling[0]
            kind += {(1, 1): " 4:4:4", (2, 1): " 4:2:2", (2, 2): " 4:2:0", (1, 2): " 4:4:0"}.get((h0, v0), f" {h0}x{v0}")
        else:
            kind += f" {len(sampling)} components"
        for seg, body in jpeg_segments(data):
            if seg == 0xE2 and body.startswith(b"ICC_PROFILE"):
                extras.append("ICC")
            elif seg == 0xE1 and body.startswith(b"Exif"):
                extras.append("EXIF")
        return w * h, w, h, kind, sorted(set(extras))
    w, h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    depth, colour, interlace = data[24], data[25], data[28]
    kind = f"PNG {depth}-bit {PNG_COLOUR.get(colour, colour)}" + (" interlaced" if interlace else "")
    i = 8
    while i + 8 <= len(data):
        length, chunk = int.from_bytes(data[i:i + 4], "big"), data[i + 4:i + 8]
        if chunk in (b"IDAT", b"IEND"):
            break
        if chunk == b"iCCP":
            extras.append("ICC")
        elif chunk == b"tRNS":
            extras.append("tRNS")
        i += 12 + length
    return w * h, w, h, kind, extras


def stats(directory):
    """`bench.py stats DIR` (what make-corpus.sh prints for each set): counts, bytes, megapixels,
    the spread of image sizes and how many files of each kind."""
    from collections import Counter
    files = images(directory)
    if not files:
        print(f"{os.path.basename(directory.rstrip('/'))}: no images in {directory}")
        return
    described = [describe(p) for p in files]
    total_bytes = sum(os.path.getsize(p) for p in files)
    by_pixels = sorted(described, key=lambda d: d[0])
    low, mid, high = by_pixels[0], by_pixels[len(by_pixels) // 2], by_pixels[-1]
    kinds = Counter(d[3] for d in described)
    extras = Counter(e for d in described for e in d[4])
    print(f"{os.path.basename(directory.rstrip('/'))}: {len(files)} files, {total_bytes / 2**20:.1f} MiB, "
          f"{sum(d[0] for d in described) / 1e6:.1f} megapixels")
    print(f"  size: min {low[1]}x{low[2]}, median {mid[1]}x{mid[2]}, max {high[1]}x{high[2]} "
          f"({low[0] / 1e6:.2f} / {mid[0] / 1e6:.2f} / {high[0] / 1e6:.2f} MP)")
    print("  kinds: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))))
    if extras:
        print("  with: " + ", ".join(f"{k} {n}" for k, n in sorted(extras.items())))


def before(label):
    """The label of BASELINE's run of the measurement labelled `label`."""
    return label + " (before)"


def ratio(after, before_value):
    return after / before_value if before_value > 0 else float("nan")


AB = []  # (what, before -> after text) for the A/B summary at the end


def ab_line(label, after, prior, width=26):
    """Before -> after medians of wall, CPU and peak RSS, each with its after/before ratio
    (and the ratio of the minimum walls)."""
    return (f"{label:<{width}} wall {prior[0]:6.2f} -> {after[0]:6.2f} s {ratio(after[0], prior[0]):5.2f}x"
            f" (min {ratio(after.min_wall, prior.min_wall):4.2f}x)"
            f"   CPU {prior[1]:6.2f} -> {after[1]:6.2f} s {ratio(after[1], prior[1]):5.2f}x"
            f"   RSS {prior[2]:5.0f} -> {after[2]:5.0f} MiB {ratio(after[2], prior[2]):5.2f}x")


def report(name, files, rows):
    count, mp = len(files), megapixels(files)
    base = rows[0][1]
    lw = max([30] + [len(label) + 2 for label, _ in rows])
    print(f"\n{name}: {count} images, {mp:.0f} megapixels, into a {BOX}x{BOX} box; median (min) of {RUNS} runs")
    print(f"  {'tool':<{lw}}{'wall s':>8}{'(min)':>8}{'CPU s':>8}{'(min)':>8}{'img/s':>9}{'MP/s':>8}{'RSS MiB':>9}{'CPU/decode':>12}")
    for label, m in rows:
        wall, cpu, rss = m
        print(f"  {label:<{lw}}{wall:8.2f}{m.min_wall:8.2f}{cpu:8.2f}{m.min_cpu:8.2f}{count / wall:9.1f}{mp / wall:8.1f}"
              f"{rss:9.0f}{cpu / base[1]:11.2f}x")


TARGETS = []
PEERS = []  # (corpus, files, {tool: Result}) for the performance table at the end
PEER_TOOLS = ("thumbgen -j1", "vipsthumbnail (1 thread)", "ImageMagick convert", "Pillow thumbnail")


def peers_table():
    """The README's performance table: CPU seconds (median) of each tool on each corpus, and each
    tool's CPU over thumbgen's from the same rounds."""
    lines = ["| images | thumbgen | vipsthumbnail | ImageMagick | Pillow |", "|---|---|---|---|---|"]
    for name, files, by in PEERS:
        ours = by["thumbgen -j1"][1]
        cells = [f"{ours:.2f} s"]
        for tool in PEER_TOOLS[1:]:
            cells.append(f"{by[tool][1]:.2f} s ({by[tool][1] / ours:.2f}x)" if tool in by else "—")
        lines.append(f"| {name.split(' ')[0]}: {len(files)} files, {megapixels(files):.0f} MP | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def target(text, value, goal, higher_is_better, minimum=None):
    met = value >= goal if higher_is_better else value <= goal
    extra = f" (from minimums {minimum:.2f})" if minimum is not None else ""
    TARGETS.append(f"  {'MET ' if met else 'MISS'} {text}: {value:.2f}{extra}; target {'>=' if higher_is_better else '<='} {goal}")


def peak_rss(images_, flags, runs=3):
    """Peak RSS of thumbgen on each (label, path) alone; with BASELINE, each image's before run
    follows its after run in every round. Returns {label: Measured} (before(label) too)."""
    commands = []
    for label, path in images_:
        argv = lambda binary, path=path: lambda out: [binary, path, "-o", out, *flags, "--force", "--progress", "never"]
        commands.append((label, argv(BIN), None))
        if BASELINE:
            commands.append((before(label), argv(BASELINE), None))
    return dict(round_robin(commands, runs=runs))


def rss_ab(label, after, prior):
    """The before line under an after line of a peak-RSS block; also kept for the A/B summary."""
    AB.append((f"peak RSS, {label}", f"RSS {prior[2]:5.0f} -> {after[2]:5.0f} MiB {ratio(after[2], prior[2]):5.2f}x"
               f"   wall {prior[0]:6.2f} -> {after[0]:6.2f} s {ratio(after[0], prior[0]):5.2f}x"))
    return (f"  {'  before':<30} {prior[2]:6.0f} MiB   wall {prior[0]:.2f} s (min {prior.min_wall:.2f});"
            f" after/before RSS {ratio(after[2], prior[2]):.2f}x, wall {ratio(after[0], prior[0]):.2f}x")


def formats_section(corpus, have_vips, env1):
    """Issue #16's bar for each new input format: 20 real-size files at least as fast as
    vipsthumbnail (one thread each) on the same files."""
    jpegs = [p for name, d in corpus.items() if name.startswith("photos-jpeg") for p in images(d)]
    if not jpegs:
        TARGETS.append("  n/a  new input formats: no photos-jpeg set to make them from (make-corpus.sh)")
        return
    # BENCH_FORMATS=heic,avif measures only those (a rerun of one format's bar).
    chosen = [f for f in os.environ.get("BENCH_FORMATS", "").split(",") if f]
    for extension, directory in format_corpus(jpegs).items():
        if chosen and extension not in chosen:
            continue
        files = images(directory, ("." + extension,))
        thumbgen = lambda *flags, d=directory, binary=BIN: lambda out: [binary, d, "-o", out, "--size", str(BOX), "-j1",
                                                                        *flags, "--progress", "never"]
        # vipsthumbnail does not flush its outputs to disk; --no-fsync is the like-for-like run.
        commands = [("thumbgen -j1", thumbgen(), None), ("thumbgen -j1 --no-fsync", thumbgen("--no-fsync"), None)]
        if BASELINE:  # the before binary's like-for-like run, in the same rounds
            commands.append((before("thumbgen -j1 --no-fsync"), thumbgen("--no-fsync", binary=BASELINE), None))
        if have_vips:
            commands.append(("vipsthumbnail (1 thread)", vipsthumbnail(files), env1))
        rows = round_robin(commands)
        print(f"\n{extension}: {len(files)} files made from the JPEG photos, into a {BOX}x{BOX} box; median (min) of {RUNS} runs")
        for label, m in rows:
            print(f"  {label:<28}{m[0]:8.2f} s ({m.min_wall:.2f}){m[1]:8.2f} s CPU ({m.min_cpu:.2f}){m[2]:7.0f} MiB")
        by = dict(rows)
        if BASELINE:
            after, was = by["thumbgen -j1 --no-fsync"], by[before("thumbgen -j1 --no-fsync")]
            print(f"  A/B --no-fsync wall {was[0]:.2f} -> {after[0]:.2f} s (x{ratio(after[0], was[0]):.2f}), "
                  f"CPU {was[1]:.2f} -> {after[1]:.2f} s, RSS {was[2]:.0f} -> {after[2]:.0f} MiB")
            AB.append((f"{extension} input, thumbgen -j1 --no-fsync", f"{was[0]:.2f} -> {after[0]:.2f} s"))
            if "vipsthumbnail (1 thread)" in by:
                vips = by["vipsthumbnail (1 thread)"]
                print(f"  vs vipsthumbnail (their wall / ours): before {vips[0] / was[0]:.2f}, after {vips[0] / after[0]:.2f}")
        if "vipsthumbnail (1 thread)" in by:
            vips, ours = by["vipsthumbnail (1 thread)"], by["thumbgen -j1 --no-fsync"]
            target(f"{extension} input: speed vs vipsthumbnail (their wall / thumbgen -j1 --no-fsync wall)", vips[0] / ours[0],
                   1.0, True, vips.min_wall / ours.min_wall)
            target(f"{extension} input: CPU vs vipsthumbnail (their CPU / thumbgen -j1 CPU)", vips[1] / ours[1], 1.0, True,
                   vips.min_cpu / ours.min_cpu)
        sys.stdout.flush()


def one_thread_env():
    """The environment the peers run in: one thread each (libvips, OpenMP, ImageMagick)."""
    return dict(os.environ, VIPS_CONCURRENCY="1", OMP_NUM_THREADS="1", MAGICK_THREAD_LIMIT="1")


def vipsthumbnail(files):
    """The argv for an output folder of vipsthumbnail thumbnailing `files` into the box, as PNG."""
    return lambda out: ["vipsthumbnail", "-s", str(BOX), "-o", os.path.join(out, "%s.png")] + files


def pillow_thumbnail(files):
    """The argv for an output folder of Pillow's thumbnail() (Lanczos) of `files`, saved as PNG."""
    script = ("import sys,os\nfrom PIL import Image\nout=sys.argv[1]\n"
              "for i,p in enumerate(sys.argv[2:]):\n im=Image.open(p); im.thumbnail((%d,%d), Image.LANCZOS)\n"
              " im.save(os.path.join(out,'%%d.png'%%i))\n" % (BOX, BOX))
    return lambda out: [sys.executable, "-c", script, out] + files


def print_targets():
    print(f"\ntargets ({os.cpu_count()} cores; MET/MISS judged on medians):")
    print("\n".join(TARGETS))


SUMMARY = []  # the one-screen summary's lines, printed at the end


def summary_section(corpus, have_vips, pillow_installed, env1):
    """The one-screen summary the README's performance section reproduces: each kind of input into
    a 256 box, thumbgen -j1 --no-fsync (vipsthumbnail and Pillow do not flush their outputs either)
    against its peer in the same rounds, CPU medians, their ratio and the goal the performance issue
    set; then -j2 over -j1 wall time on the photo sets. The peers: vipsthumbnail on one thread for
    photos (it too shrinks JPEGs and WebPs on load), Pillow for the small icons (the peer that is
    fastest on many tiny files), and for PNG photos the bare libpng decode of the same files
    (thumbgen-bench decode), the floor any PNG thumbnailer stands on."""
    jpegs = next((d for name, d in corpus.items() if name.startswith("photos-jpeg")), None)
    pngs = next((d for name, d in corpus.items() if name.startswith("photos-png")), None)
    icons = next((d for name, d in corpus.items() if name.startswith("icons-png")), None)
    if not (jpegs and pngs and icons and have_vips and pillow_installed):
        TARGETS.append("  n/a  summary: needs make-corpus.sh's photos and icons, vipsthumbnail and Pillow")
        return
    made = format_corpus(images(jpegs))
    decode = lambda files: lambda out: [BENCH, "decode"] + files
    # (label, directory, extensions, peer, its argv, goal: thumbgen CPU / peer CPU at most)
    sets = [("JPEG photos", jpegs, (".jpg", ".jpeg"), "vipsthumbnail", vipsthumbnail, 0.6)]
    for extension, label, goal in (("webp", "WebP photos", 0.9), ("tif", "TIFF photos (LZW)", 0.9), ("gif", "GIF photos", 1.0),
                                   ("heic", "HEIC photos", 1.0), ("avif", "AVIF photos", 1.0)):
        if extension in made:
            sets.append((label, made[extension], ("." + extension,), "vipsthumbnail", vipsthumbnail, goal))
    sets += [("small PNG icons", icons, (".png",), "Pillow", pillow_thumbnail, 0.4),
             ("PNG photos", pngs, (".png",), "bare libpng decode", decode, 1.0)]
    ours = lambda directory, jobs: lambda out: [BIN, directory, "-o", out, "--size", str(BOX), f"-j{jobs}", "--no-fsync",
                                                "--progress", "never"]
    rows = ["| input, 256 box | files | thumbgen CPU | peer | peer CPU | thumbgen / peer | goal |", "|---|---|---|---|---|---|---|"]
    for label, directory, extensions, peer, argv, goal in sets:
        files = images(directory, extensions)
        measured = dict(round_robin([("thumbgen", ours(directory, 1), None), (peer, argv(files), env1)]))
        mine, theirs = measured["thumbgen"], measured[peer]
        value = mine[1] / theirs[1]
        target(f"summary: {label}, thumbgen -j1 CPU / {peer} CPU", value, goal, False, mine.min_cpu / theirs.min_cpu)
        rows.append(f"| {label} | {len(files)} | {mine[1]:.2f} s | {peer} | {theirs[1]:.2f} s | **{value:.2f}×** | ≤ {goal}× |")
        print(f"summary: {label}: thumbgen {mine[1]:.2f} s CPU, {peer} {theirs[1]:.2f} s CPU, ratio {value:.2f}")
        sys.stdout.flush()
    rows += ["", "| photo set | -j1 wall | -j2 wall | -j2 speed-up | goal |", "|---|---|---|---|---|"]
    for label, directory, extensions, _, _, _ in sets:
        if label not in ("JPEG photos", "PNG photos", "HEIC photos"):
            continue
        measured = dict(round_robin([("-j1", ours(directory, 1), None), ("-j2", ours(directory, 2), None)]))
        one, two = measured["-j1"], measured["-j2"]
        target(f"summary: {label}, -j2 speed-up over -j1 (wall)", one[0] / two[0], 1.85, True, one.min_wall / two.min_wall)
        rows.append(f"| {label} | {one[0]:.2f} s | {two[0]:.2f} s | **{one[0] / two[0]:.2f}×** | ≥ 1.85× |")
        print(f"summary: {label}: -j1 {one[0]:.2f} s, -j2 {two[0]:.2f} s wall")
        sys.stdout.flush()
    SUMMARY.extend(rows)


def sheet_section(corpus, env1, count=200):
    """Issue #18's bar: a contact sheet of 200 photos, its time and peak memory beside ImageMagick's
    montage on the same files. The 200 are the JPEG photos, linked under new names until there are
    200; ImageMagick is given its JPEG size hint (-define jpeg:size), without which montage holds
    every photo at full size at once (some 20 GB here) before it shrinks any."""
    jpegs = [p for name, d in corpus.items() if name.startswith("photos-jpeg") for p in images(d)]
    montage = shutil.which("montage")
    if not jpegs:
        TARGETS.append("  n/a  contact sheet: no photos-jpeg set (make-corpus.sh)")
        return
    directory = os.path.join(CORPUS, f"sheet-{count}")
    if not os.path.isdir(directory) or len(os.listdir(directory)) != count:
        shutil.rmtree(directory, True)
        os.makedirs(directory)
        for n in range(count):
            source = jpegs[n % len(jpegs)]
            os.symlink(source, os.path.join(directory, f"photo-{n:03d}.jpg"))
    files = sorted(os.path.join(directory, f) for f in os.listdir(directory))
    sheet = lambda *flags: lambda out: [BIN, "sheet", directory, "-o", os.path.join(out, "sheet.png"), "--columns", "10",
                                        "--cell", "128", *flags]
    commands = [("thumbgen sheet -j1", sheet("-j1"), None), ("thumbgen sheet -j2", sheet("-j2"), None)]
    if montage:
        commands.append(("montage (1 thread)", lambda out: [montage, "-define", "jpeg:size=256x256", *files, "-geometry",
                                                            "128x128+8+8", "-tile", "10x", os.path.join(out, "sheet.png")], env1))
    rows = round_robin(commands)
    print(f"\ncontact sheet of {count} photos ({len(jpegs)} JPEGs linked round), 10 columns of 128 px cells; "
          f"median (min) of {RUNS} runs")
    for label, m in rows:
        print(f"  {label:<24}{m[0]:8.2f} s ({m.min_wall:.2f}){m[1]:8.2f} s CPU ({m.min_cpu:.2f}){m[2]:7.0f} MiB")
    by = dict(rows)
    if "montage (1 thread)" in by:
        ours, theirs = by["thumbgen sheet -j1"], by["montage (1 thread)"]
        target("contact sheet, 200 photos: speed vs montage (their wall / thumbgen sheet -j1 wall)", theirs[0] / ours[0], 1.0,
               True, theirs.min_wall / ours.min_wall)
        target("contact sheet, 200 photos: peak RSS vs montage (thumbgen / montage)", ours[2] / theirs[2], 1.0, False)
    sys.stdout.flush()


def ssim(a, b):
    """Mean SSIM of two equal-size luma arrays (0-255): Wang et al.'s Gaussian window (11 taps,
    sigma 1.5) and constants, over the positions where the whole window fits."""
    import numpy as np
    taps = np.exp(-0.5 * ((np.arange(11) - 5) / 1.5) ** 2)
    taps /= taps.sum()

    def blur(x):
        x = np.apply_along_axis(lambda r: np.convolve(r, taps, mode="valid"), 1, x)
        return np.apply_along_axis(lambda c: np.convolve(c, taps, mode="valid"), 0, x)
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    mu_a, mu_b = blur(a), blur(b)
    var_a, var_b, cov = blur(a * a) - mu_a ** 2, blur(b * b) - mu_b ** 2, blur(a * b) - mu_a * mu_b
    return float(np.mean(((2 * mu_a * mu_b + c1) * (2 * cov + c2)) / ((mu_a ** 2 + mu_b ** 2 + c1) * (var_a + var_b + c2))))


class FloatReference:
    """What a thumbnail of a photo should be, computed apart from every tool measured: the source
    (upright, RGB) in linear light as 32-bit floats, Lanczos-3 to the output's own size with
    Pillow's float resampler, back to sRGB; compared on luma (BT.601 weights)."""

    def __init__(self):
        self.sources = {}

    def luma(self, source, width, height):
        import numpy as np
        from PIL import Image, ImageOps
        if source not in self.sources:
            image = ImageOps.exif_transpose(Image.open(source)).convert("RGB")
            v = np.asarray(image, dtype=np.float64) / 255
            linear = np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4).astype(np.float32)
            self.sources = {source: [Image.fromarray(np.ascontiguousarray(linear[:, :, c]), "F") for c in range(3)]}
        channels = [np.asarray(c.resize((width, height), Image.LANCZOS), dtype=np.float64) for c in self.sources[source]]
        rgb = [np.where(c <= 0.0031308, c * 12.92, 1.055 * np.clip(c, 0, None) ** (1 / 2.4) - 0.055) for c in channels]
        return 255 * np.clip(0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2], 0, 1)


def plain_source(path):
    from PIL import Image
    with Image.open(path) as image:
        return image.mode in ("RGB", "L") and not image.info.get("icc_profile")


def decoded_luma(path):
    import numpy as np
    from PIL import Image
    image = Image.open(path)
    if image.mode in ("RGBA", "LA", "P"):
        image = image.convert("RGBA")
        white = Image.new("RGBA", image.size, (255, 255, 255, 255))
        image = Image.alpha_composite(white, image)
    v = np.asarray(image.convert("RGB"), dtype=np.float64)
    return 0.299 * v[:, :, 0] + 0.587 * v[:, :, 1] + 0.114 * v[:, :, 2]


def output_section(corpus, have_vips, pillow_installed, env1):
    """Issue #16's bar for JPEG and WebP output on the photo sets, one job each, in the same
    rounds: CPU against vipsthumbnail at the same quality (JPEG: at most 0.8x), and the files'
    total size and mean SSIM against a float reference beside vipsthumbnail's and Pillow's."""
    reference = FloatReference() if pillow_installed else None
    for name, directory in corpus.items():
        if not name.startswith("photos"):
            continue
        files = images(directory)
        for fmt, quality, extension, pillow_save in (("jpeg", 85, "jpg", "quality=85"), ("webp", 80, "webp", "quality=80, method=4")):
            thumbgen = lambda out, fmt=fmt, q=quality: [BIN, directory, "-o", out, "--size", str(BOX), "-j1", "--no-fsync",
                                                          "--format", fmt, "--quality", str(q), "--progress", "never"]
            commands = [(f"thumbgen -j1 --format {fmt}", thumbgen, None)]
            if have_vips:
                commands.append((f"vipsthumbnail [Q={quality}]", lambda out, e=extension, q=quality: [
                    "vipsthumbnail", "-s", str(BOX), "-o", os.path.join(out, f"%s.{e}[Q={q}]")] + files, env1))
            if pillow_installed:
                script = ("import sys,os\nfrom PIL import Image, ImageOps\nout=sys.argv[1]\n"
                          "for p in sys.argv[2:]:\n im=ImageOps.exif_transpose(Image.open(p)); im.thumbnail((%d,%d), Image.LANCZOS)\n"
                          " im=im.convert('RGB') if '%s'=='jpg' else im\n"
                          " im.save(os.path.join(out,os.path.splitext(os.path.basename(p))[0]+'.%s'), %s)\n"
                          % (BOX, BOX, extension, extension, pillow_save))
                commands.append((f"Pillow [quality={quality}]", lambda out, s=script: [sys.executable, "-c", s, out] + files, None))
            rows = round_robin(commands)
            print(f"\n{name}: {fmt.upper()} output, {len(files)} files into a {BOX}x{BOX} box, one job; median (min) of {RUNS} runs")
            by = dict(rows)
            for label, argv_for, env in commands:
                out = fresh_output()
                run_measured(argv_for(out), env)
                made = sorted(os.path.join(root, f) for root, _, names in os.walk(out) for f in names
                              if f.lower().endswith("." + extension))
                size = sum(os.path.getsize(f) for f in made)
                quality_text = ""
                if reference and len(made) == len(files):
                    # Only opaque sources without a colour profile: the tools differ in what they
                    # flatten transparency onto (thumbgen white, vips black, Pillow drops alpha)
                    # and in whether they convert a profile (Pillow does not), neither of which is
                    # what SSIM should measure here.
                    scores = []
                    for source, output in zip(sorted(files, key=lambda p: os.path.splitext(os.path.basename(p))[0]),
                                              sorted(made, key=lambda p: os.path.splitext(os.path.basename(p))[0])):
                        if not plain_source(source):
                            continue
                        luma = decoded_luma(output)
                        scores.append(ssim(luma, reference.luma(source, luma.shape[1], luma.shape[0])))
                    quality_text = f"  SSIM {statistics.mean(scores):.4f} ({len(scores)} opaque untagged)" if scores else ""
                m = by[label]
                print(f"  {label:<28}{m[0]:8.2f} s ({m.min_wall:.2f}){m[1]:8.2f} s CPU ({m.min_cpu:.2f})"
                      f"{size / 1024:9.1f} KiB in {len(made)} files{quality_text}")
            vips = by.get(f"vipsthumbnail [Q={quality}]")
            ours = by[f"thumbgen -j1 --format {fmt}"]
            if vips:
                goal = 0.8 if fmt == "jpeg" else 1.0
                target(f"{name}: {fmt} output CPU, thumbgen / vipsthumbnail [Q={quality}]", ours[1] / vips[1], goal, False,
                       ours.min_cpu / vips.min_cpu)
            sys.stdout.flush()


SET_WIDTHS = (320, 640, 1280)
SET_FORMATS = (("webp", 80), ("jpeg", 85))


def sets_section(corpus, have_vips, env1):
    """Issue #25's bar: the JPEG and PNG photos to widths 320, 640, 1280 in WebP and JPEG, in one
    run (one decode per photo) against six single-output runs of thumbgen, and against
    vipsthumbnail making the six outputs (six runs); one job each, CPU time, the same rounds.
    Peak RSS of the one run beside one single-output run."""
    sets = [(name, d) for name, d in corpus.items() if name.startswith("photos-jpeg") or name.startswith("photos-png")]
    if not sets:
        TARGETS.append("  n/a  widths x formats in one run: no photos sets (make-corpus.sh)")
        return
    widths = ",".join(str(w) for w in SET_WIDTHS)
    formats = ",".join(f for f, _ in SET_FORMATS)
    for name, directory in sets:
        files = images(directory)
        one = lambda out, d=directory: [BIN, d, "-o", out, "--widths", widths, "--format", formats, "-j1", "--no-fsync",
                                        "--progress", "never"]
        six_runs = " ".join(f"\"$1\" \"$2\" -o \"$0/{w}-{f}\" --size {w}x --format {f} -j1 --no-fsync --progress never &&"
                            for w in SET_WIDTHS for f, _ in SET_FORMATS) + " true"
        six = lambda out, d=directory: ["bash", "-c", six_runs, out, BIN, d]
        single = lambda out, d=directory: [BIN, d, "-o", out, "--size", f"{SET_WIDTHS[-1]}x", "--format", "webp", "-j1",
                                           "--no-fsync", "--progress", "never"]
        commands = [("thumbgen, one run (6 outputs each)", one, None), ("thumbgen, six runs", six, None),
                    ("thumbgen, one output (1280 webp)", single, None)]
        if BASELINE:
            commands.append((before("thumbgen, six runs"), lambda out, d=directory: ["bash", "-c", six_runs, out, BASELINE, d], None))
        if have_vips:
            vips_runs = " ".join(f"vipsthumbnail -s {w}x -o \"$0/%s-{w}.{f if f != 'jpeg' else 'jpg'}[Q={q},strip]\" \"$@\" &&"
                                 for w in SET_WIDTHS for f, q in SET_FORMATS) + " true"
            commands.append(("vipsthumbnail, six runs (1 thread)", lambda out, f=files: ["bash", "-c", vips_runs, out] + f, env1))
        rows = round_robin(commands)
        print(f"\nwidths {widths} x {formats}: {name}, {len(files)} photos, {megapixels(files):.0f} megapixels;"
              f" -j1, median (min) of {RUNS} runs")
        for label, m in rows:
            print(f"  {label:<38}{m[0]:8.2f} s ({m.min_wall:.2f}){m[1]:8.2f} s CPU ({m.min_cpu:.2f}){m[2]:7.0f} MiB")
        by = dict(rows)
        ours, separate = by["thumbgen, one run (6 outputs each)"], by["thumbgen, six runs"]
        target(f"{name}: widths x formats, one run CPU / six runs CPU", ours[1] / separate[1], 0.5, False,
               ours.min_cpu / separate.min_cpu)
        if "vipsthumbnail, six runs (1 thread)" in by:
            vips = by["vipsthumbnail, six runs (1 thread)"]
            target(f"{name}: widths x formats, one run CPU / vipsthumbnail's six runs CPU", ours[1] / vips[1], 1.0, False,
                   ours.min_cpu / vips.min_cpu)
        print(f"  peak RSS: one run {ours[2]:.0f} MiB, one single-output run {by['thumbgen, one output (1280 webp)'][2]:.0f} MiB")
        sys.stdout.flush()

WEB_SIDE = 640
# Quality sweeps per tool and format: the size each tool needs for one SSIM is interpolated on them.
WEB_QUALITIES = {"jpeg": (60, 75, 85, 92), "webp": (60, 70, 80, 90), "avif": (35, 50, 65, 80)}
WEB_DEFAULTS = {"jpeg": 85, "webp": 80, "avif": 50}


def web_photos(corpus):
    """A handful of the JPEG photos (BENCH_WEB_COUNT, default 8), copied into one folder."""
    jpegs = sorted(p for name, d in corpus.items() if name.startswith("photos-jpeg") for p in images(d))
    if not jpegs:
        jpegs = sorted(p for p in images(corpus.get("large", "")) if p.lower().endswith((".jpg", ".jpeg")))
    folder = os.path.join(OUTPUTS, "web-photos")
    os.makedirs(folder, exist_ok=True)
    for path in jpegs[: int(os.environ.get("BENCH_WEB_COUNT", "8"))]:
        shutil.copy(path, folder)
    return folder, sorted(images(folder))


def decoded_luma_any(path):
    """decoded_luma, AVIF through heif-convert (Pillow 9 reads no AVIF)."""
    if path.endswith(".avif"):
        png = path + ".png"
        subprocess.run(["heif-convert", path, png], check=True, capture_output=True)
        return decoded_luma(png)
    return decoded_luma(path)


def web_encode(tool, fmt, quality, folder, files, out):
    """Argv for one tool making every photo at 640 px in one format and quality."""
    ext = {"jpeg": "jpg", "webp": "webp", "avif": "avif"}[fmt]
    if tool == "thumbgen":
        return [BIN, folder, "-o", out, "--size", str(WEB_SIDE), "-j1", "--no-fsync", "--format", fmt,
                "--quality", str(quality), "--progress", "never"]
    if tool == "vipsthumbnail":
        return ["vipsthumbnail", "-s", str(WEB_SIDE), "-o", os.path.join(out, f"%s.{ext}[Q={quality}]")] + files
    save = {"jpeg": f"quality={quality}", "webp": f"quality={quality}, method=4"}[fmt]
    script = ("import sys,os\nfrom PIL import Image, ImageOps\nout=sys.argv[1]\n"
              "for p in sys.argv[2:]:\n im=ImageOps.exif_transpose(Image.open(p)).convert('RGB'); im.thumbnail((%d,%d), Image.LANCZOS)\n"
              " im.save(os.path.join(out,os.path.splitext(os.path.basename(p))[0]+'.%s'), %s)\n" % (WEB_SIDE, WEB_SIDE, ext, save))
    return [sys.executable, "-c", script, out] + files


def web_point(tool, fmt, quality, folder, files, reference, env1):
    """(total KiB, mean SSIM against the float reference) of one tool at one quality."""
    import numpy as np
    out = fresh_output()
    run_measured(web_encode(tool, fmt, quality, folder, files, out), env1 if tool == "vipsthumbnail" else None)
    ext = {"jpeg": ".jpg", "webp": ".webp", "avif": ".avif"}[fmt]
    made = sorted(os.path.join(out, f) for f in os.listdir(out) if f.endswith(ext))
    size = sum(os.path.getsize(f) for f in made) / 1024
    scores = []
    for source, output in zip(files, made):
        luma = decoded_luma_any(output)
        key = (source, luma.shape[1], luma.shape[0])
        if key not in WEB_REFERENCES:  # the float reference is slow on a large photo: once per size
            WEB_REFERENCES[key] = reference.luma(source, luma.shape[1], luma.shape[0])
        scores.append(ssim(luma, WEB_REFERENCES[key]))
    return size, float(np.mean(scores))


WEB_REFERENCES = {}


def size_at(points, target_ssim):
    """The size a tool needs for target_ssim, linear between its two nearest sweep points (None
    when the target is outside its sweep)."""
    points = sorted(points, key=lambda p: p[1])
    for (s0, q0), (s1, q1) in zip(points, points[1:]):
        if q0 <= target_ssim <= q1:
            return s0 + (s1 - s0) * ((target_ssim - q0) / (q1 - q0) if q1 > q0 else 0)
    return None


def web_section(corpus, have_vips, pillow_installed, env1):
    """Issue #26's bar, the JPEG photos at 640 px, one job: AVIF encode CPU against vipsthumbnail's
    heifsave at the same quality; and per format the bytes each tool needs for the SSIM thumbgen
    reaches at its default quality (each tool's quality sweep, interpolated), against a float
    reference (FloatReference)."""
    if not pillow_installed:
        TARGETS.append("  n/a  web: Pillow (python3-pil) and numpy are needed for SSIM")
        return
    folder, files = web_photos(corpus)
    if not files:
        TARGETS.append("  n/a  web: no JPEG photos (make-corpus.sh, or ../shared/corpus)")
        return
    print(f"\nweb: {len(files)} JPEG photos to {WEB_SIDE} px, one job; median (min) of {RUNS} runs")
    commands = [("thumbgen -j1 --format avif", lambda out: web_encode("thumbgen", "avif", 50, folder, files, out), None)]
    if have_vips:
        commands.append(("vipsthumbnail .avif[Q=50]", lambda out: web_encode("vipsthumbnail", "avif", 50, folder, files, out), env1))
    rows = dict(round_robin(commands))
    for label, m in rows.items():
        print(f"  {label:<30}{m[0]:8.2f} s ({m.min_wall:.2f}){m[1]:8.2f} s CPU ({m.min_cpu:.2f})")
    if have_vips:
        ours, theirs = rows["thumbgen -j1 --format avif"], rows["vipsthumbnail .avif[Q=50]"]
        target("web: AVIF encode CPU, thumbgen / vipsthumbnail [Q=50], 640 px", ours[1] / theirs[1], 1.0, False,
               ours.min_cpu / theirs.min_cpu)
    reference = FloatReference()
    for fmt in ("jpeg", "webp", "avif"):
        tools = ["thumbgen"] + (["vipsthumbnail"] if have_vips else []) + (["Pillow"] if fmt != "avif" else [])
        sweeps = {tool: [web_point(tool, fmt, q, folder, files, reference, env1) for q in WEB_QUALITIES[fmt]] for tool in tools}
        ours = sweeps["thumbgen"][WEB_QUALITIES[fmt].index(WEB_DEFAULTS[fmt])]
        print(f"\n  {fmt.upper()}: thumbgen at its default quality {WEB_DEFAULTS[fmt]}: {ours[0]:.1f} KiB, SSIM {ours[1]:.4f}")
        for tool in tools:
            points = ", ".join(f"q{q} {s:.0f} KiB/{x:.4f}" for q, (s, x) in zip(WEB_QUALITIES[fmt], sweeps[tool]))
            needed = size_at(sweeps[tool], ours[1])
            needed_text = f"{needed:.1f} KiB" if needed is not None else "outside its sweep"
            print(f"    {tool:<14} needs {needed_text:>18} for SSIM {ours[1]:.4f}   ({points})")
            if tool != "thumbgen" and needed:
                target(f"web: {fmt} bytes at equal SSIM, thumbgen / {tool}", ours[0] / needed, 1.0, False)
        sys.stdout.flush()



# The camera RAW fixtures with a real-size preview, and the exiftool tag that extracts it.
RAW_FIXTURES = {"synthetic.dng": "PreviewImage", "synthetic.cr2": "PreviewImage", "synthetic.cr3": "PreviewImage",
                "synthetic.nef": "JpgFromRaw", "synthetic.raf": "PreviewImage"}


def raw_section():
    """Camera RAW input (issue 32): thumbgen over the RAW fixtures against the usual pipeline
    without it, `exiftool -b -PreviewImage FILE | vipsthumbnail stdin`, one process per file for
    both, in the same rounds; medians and their ratio. (vipsthumbnail does not apply the RAW's
    orientation, which the preview lacks; thumbgen does.)"""
    exiftool, vips = shutil.which("exiftool"), shutil.which("vipsthumbnail")
    if not exiftool or not vips:
        TARGETS.append("  n/a  camera RAW: exiftool or vipsthumbnail is missing (make deps)")
        return
    folder = os.path.join(ROOT, "Tests", "Fixtures", "raw")
    files = [(os.path.join(folder, name), tag) for name, tag in RAW_FIXTURES.items()]
    ours = " ; ".join(f"{shlex.quote(BIN)} {shlex.quote(path)} -o \"$1\" --size {BOX} -j1 --progress never" for path, _ in files)
    theirs = " ; ".join(f"{shlex.quote(exiftool)} -b -{tag} {shlex.quote(path)} | {shlex.quote(vips)} stdin -s {BOX} "
                        f"-o \"$1/{i}.png\"" for i, (path, tag) in enumerate(files))
    env1 = dict(os.environ, VIPS_CONCURRENCY="1")
    rows = round_robin([("thumbgen, a process per file", lambda out: ["sh", "-c", "set -e; " + ours, "sh", out], None),
                        ("exiftool | vipsthumbnail", lambda out: ["sh", "-c", "set -e; " + theirs, "sh", out], env1)])
    print(f"\ncamera RAW: {len(files)} RAW fixtures (DNG, CR2, CR3, NEF, RAF; 1-2.5 MP previews) into a {BOX}x{BOX} box; "
          f"median (min) of {RUNS} runs")
    for label, m in rows:
        print(f"  {label:<30}{m[0]:8.3f} s ({m.min_wall:.3f}){m[1]:8.3f} s CPU ({m.min_cpu:.3f})")
    by = dict(rows)
    mine, peer = by["thumbgen, a process per file"], by["exiftool | vipsthumbnail"]
    print(f"  ratio (theirs / ours): wall {peer[0] / mine[0]:.2f}, CPU {peer[1] / mine[1]:.2f}")
    target("camera RAW: speed vs exiftool | vipsthumbnail (their wall / ours)", peer[0] / mine[0], 1.0, True,
           peer.min_wall / mine.min_wall)
    sys.stdout.flush()


def main():
    if not os.access(TIME, os.X_OK):
        sys.exit("bench: GNU time measures peak memory and is missing; run: sudo apt-get install -y time")
    if ONLY == "raw":
        # BENCH_ONLY=raw: the camera RAW section alone (its fixtures need no corpus).
        print(f"machine: {os.cpu_count()} cores; {subprocess.run([BIN, '--version'], capture_output=True, text=True).stdout.strip()}")
        raw_section()
        print_targets()
        return
    corpus = build_corpus()
    extra = os.environ.get("BENCH_CACHE", os.path.expanduser("~/.cache/thumbgen-bench"))
    if os.path.isdir(os.path.join(extra, "corpus", "photos-png")):
        corpus["photos-png (make-corpus.sh)"] = os.path.join(extra, "corpus", "photos-png")
    if os.path.isdir(os.path.join(extra, "corpus", "icons-png")):
        corpus["icons-png (make-corpus.sh)"] = os.path.join(extra, "corpus", "icons-png")
    if os.path.isdir(os.path.join(extra, "corpus", "photos-jpeg")):
        corpus["photos-jpeg (make-corpus.sh)"] = os.path.join(extra, "corpus", "photos-jpeg")

    print(f"machine: {os.cpu_count()} cores; {subprocess.run([BIN, '--version'], capture_output=True, text=True).stdout.strip()}")
    if BASELINE:
        print(f"A/B: after  = {BIN}\n     before = {BASELINE} "
              f"({subprocess.run([BASELINE, '--version'], capture_output=True, text=True).stdout.strip()})")
    if ONLY == "summary":
        # BENCH_ONLY=summary: the one-screen summary alone (the README's performance table).
        env1 = one_thread_env()
        summary_section(corpus, shutil.which("vipsthumbnail"), have_pillow(), env1)
        print(f"\nsummary (CPU medians of {RUNS} rounds, same runs; {os.cpu_count()} cores):")
        print("\n".join(SUMMARY))
        print_targets()
        return
    if ONLY == "web":
        # BENCH_ONLY=web: AVIF encoding and file size at equal SSIM (web_section), nothing else.
        env1 = one_thread_env()
        web_section(corpus, shutil.which("vipsthumbnail"), have_pillow(), env1)
        print_targets()
        return
    photo = images(corpus["large"])[0]
    print(f"\nresampling versus decoding, one {photo.split('/')[-1]} (thumbgen-bench, single thread):")
    sys.stdout.flush()
    split = subprocess.run([BENCH, photo, str(BOX), str(max(RUNS, 7))], check=True, capture_output=True, text=True).stdout
    print(split, end="")
    for line in split.splitlines():
        if line.startswith("ratio"):
            parts = line.split()
            target("resample / decode time, one 12 MP photo, 1 thread (%)", float(parts[1]), 20, False,
                   float(line.split("min ")[1].rstrip(")%")) if "min " in line else None)

    # Peak memory: one 12 MP photo, and a 4000x40000 PNG (160 MP) generated here.
    tall = make_tall_png(os.path.join(CORPUS, "tall-4000x40000.png"))
    print("\npeak RSS, one image into a 256 box, -j1 (median of 3):")
    memory = [(photo.split("/")[-1] + " (12 MP)", photo), ("tall-4000x40000.png (160 MP)", tall)]
    by = peak_rss(memory, ["--size", str(BOX), "-j1"])
    for label, path in memory:
        m = by[label]
        print(f"  {label:<30} {m[2]:6.0f} MiB   wall {m[0]:.2f} s (min {m.min_wall:.2f})")
        if BASELINE:
            print(rss_ab(label, m, by[before(label)]))
        target(f"peak RSS MiB, {label}", m[2], 64, False)

    # Peak memory of one single-scale thumbnail of a 24 MP baseline JPEG, decoded at full size, and
    # of one twice as tall: the redesign is held to <= 32 MiB for the first and to the same for the
    # second (memory flat in the image's height). The file sizes are printed beside the RSS: builds
    # before issue #15 read the whole file into memory; now the file does not count.
    encoder, jpegs = make_big_jpegs()
    jpeg_flags = ["--size", str(BOX), "-j1", "--no-shrink-on-load"]
    if encoder is None:
        print(f"\npeak RSS, baseline JPEG 6000x4000 and 6000x8000, {' '.join(jpeg_flags)}: skipped: {jpegs}")
        TARGETS.append(f"  n/a  peak RSS MiB, 24 / 48 MP baseline JPEG: skipped ({jpegs})")
    else:
        memory = [(f"{os.path.basename(p)[:-4]} ({w * h / 1e6:.0f} MP)", p) for w, h, p in jpegs]
        print(f"\npeak RSS, one baseline JPEG (quality 90, {encoder}; a sample enlarged) into a {BOX} box, "
              f"-j1, --no-shrink-on-load (median of 3):")
        by = peak_rss(memory, jpeg_flags)
        sizes = [os.path.getsize(p) / 2**20 for _, p in memory]
        lw = max(len(label) for label, _ in memory) + 1
        for (label, path), size in zip(memory, sizes):
            m = by[label]
            print(f"  {label:<{lw}} file {size:6.2f} MiB   RSS {m[2]:6.0f} MiB   wall {m[0]:.2f} s (min {m.min_wall:.2f})")
            if BASELINE:
                prior = by[before(label)]
                print(f"  {'  before':<{lw}} file {size:6.2f} MiB   RSS {prior[2]:6.0f} MiB   wall {prior[0]:.2f} s"
                      f" (min {prior.min_wall:.2f}); after/before RSS {ratio(m[2], prior[2]):.2f}x,"
                      f" wall {ratio(m[0], prior[0]):.2f}x")
                AB.append((f"peak RSS, {label}, --no-shrink-on-load",
                           f"RSS {prior[2]:5.0f} -> {m[2]:5.0f} MiB {ratio(m[2], prior[2]):5.2f}x"
                           f"   wall {prior[0]:6.2f} -> {m[0]:6.2f} s {ratio(m[0], prior[0]):5.2f}x"))
        small, tall_jpeg = by[memory[0][0]], by[memory[1][0]]
        print(f"  twice the height: RSS {tall_jpeg[2] / small[2]:.2f}x ({tall_jpeg[2] - small[2]:+.0f} MiB), "
              f"file {sizes[1] / sizes[0]:.2f}x ({sizes[1] - sizes[0]:+.2f} MiB)")
        if BASELINE:
            b_small, b_tall = by[before(memory[0][0])], by[before(memory[1][0])]
            print(f"  {'  before:':<17} RSS {b_tall[2] / b_small[2]:.2f}x ({b_tall[2] - b_small[2]:+.0f} MiB)")
        target(f"peak RSS MiB, {memory[0][0]} JPEG, --no-shrink-on-load", small[2], 32, False)
        target("peak RSS 48 MP / 24 MP JPEG (flat in height), --no-shrink-on-load", tall_jpeg[2] / small[2], 1.10, False)

    have_vips, have_convert, pillow_installed = shutil.which("vipsthumbnail"), shutil.which("convert"), have_pillow()
    env1 = one_thread_env()
    if ONLY == "formats":
        formats_section(corpus, have_vips, env1)
    if ONLY in ("formats", "output") and not os.environ.get("BENCH_FORMATS"):
        output_section(corpus, have_vips, pillow_installed, env1)
    if ONLY in ("", "sheet"):
        sheet_section(corpus, env1)
    if ONLY in ("", "sets"):
        sets_section(corpus, have_vips, env1)
    for name, directory in (corpus.items() if ONLY in ("", "peers") else []):
        files = images(directory)
        thumbgen = lambda binary, *flags: lambda out: [binary, directory, "-o", out, "--size", str(BOX), *flags,
                                                       "--progress", "never"]
        variants = [("thumbgen -j1", ("-j1",)), ("thumbgen -j2", ("-j2",)),
                    ("thumbgen -j1 --no-fsync", ("-j1", "--no-fsync")), ("thumbgen -j2 --no-fsync", ("-j2", "--no-fsync"))]
        if ONLY == "peers":
            variants = variants[:1]
        commands = [("bare decode (full size)", lambda out: [BENCH, "decode"] + files, None)]
        for label, flags in variants:
            commands.append((label, thumbgen(BIN, *flags), None))
            if BASELINE:  # right after the run it is compared with, in every round
                commands.append((before(label), thumbgen(BASELINE, *flags), None))
        if have_vips:
            commands.append(("vipsthumbnail (1 thread)", vipsthumbnail(files), env1))
        if pillow_installed:
            commands.append(("Pillow thumbnail", pillow_thumbnail(files), None))
        if have_convert and subprocess.run(["convert", "-version"], capture_output=True).returncode == 0 and len(files) <= 60:
            magick = "for f in \"$@\"; do convert \"$f\" -thumbnail %dx%d \"$0/$(basename \"$f\")\"; done" % (BOX, BOX)
            commands.append(("ImageMagick convert", lambda out: ["bash", "-c", magick, out] + files, env1))
        rows = round_robin(commands)
        report(name, files, rows)
        by = dict(rows)
        PEERS.append((name, files, by))
        if ONLY == "peers":
            continue
        if BASELINE:
            print(f"  A/B, before -> after (medians of {RUNS}), after/before (< 1: after is faster / smaller):")
            for label, _ in variants:
                print("    " + ab_line(label, by[label], by[before(label)]))
                AB.append((f"{name}: {label}", ab_line("", by[label], by[before(label)], width=0).lstrip()))
        j1, j2, decode = by["thumbgen -j1"], by["thumbgen -j2"], by["bare decode (full size)"]
        j1n, j2n = by["thumbgen -j1 --no-fsync"], by["thumbgen -j2 --no-fsync"]
        if len(files) >= 8:
            target(f"{name}: -j2 / -j1 throughput", j1[0] / j2[0], 1.85, True, j1.min_wall / j2.min_wall)
            target(f"{name}: -j2 / -j1 throughput, --no-fsync", j1n[0] / j2n[0], 1.85, True, j1n.min_wall / j2n.min_wall)
        else:
            # Files are the unit of parallelism: three images give two workers at most 1.5x.
            TARGETS.append(f"  n/a  {name}: -j2 / -j1 throughput {j1[0] / j2[0]:.2f}; {len(files)} images cannot keep 2 workers busy")
        if name.startswith("large"):
            # The bar, set for 12+ megapixel PNGs.
            target(f"{name}: thumbgen -j1 CPU / bare decode CPU", j1[1] / decode[1], 1.20, False, j1.min_cpu / decode.min_cpu)
        elif name.startswith("photos"):
            # Photos of every size and kind (palette, 16-bit, interlaced, ICC): the issue asks to beat
            # every other tool's CPU against the same decode, not for a fixed ratio.
            for other in ("vipsthumbnail (1 thread)", "Pillow thumbnail"):
                if other in by:
                    target(f"{name}: CPU / bare decode, {other} {by[other][1] / decode[1]:.2f} / thumbgen -j1",
                           by[other][1] / j1[1], 1.0, True, by[other].min_cpu / j1.min_cpu)
        for other in ("vipsthumbnail (1 thread)", "Pillow thumbnail"):
            if other in by:
                goal = 1.3 if not (name.startswith("large") or name.startswith("photos")) else 1.0
                if name.startswith("photos-jpeg") and other.startswith("Pillow"):
                    continue
                target(f"{name}: speed vs {other} (their wall / thumbgen -j1 wall)", by[other][0] / j1[0], goal, True,
                       by[other].min_wall / j1.min_wall)
                target(f"{name}: speed vs {other}, thumbgen -j1 --no-fsync", by[other][0] / j1n[0], goal, True,
                       by[other].min_wall / j1n.min_wall)
        sys.stdout.flush()
    if ONLY == "":
        formats_section(corpus, have_vips, env1)
        output_section(corpus, have_vips, pillow_installed, env1)
        raw_section()
        summary_section(corpus, have_vips, pillow_installed, env1)
    shutil.rmtree(OUTPUTS, ignore_errors=True)
    if PEERS:
        print(f"\nperformance table (CPU seconds, medians of {RUNS}; in brackets each tool's CPU / thumbgen's):")
        print(peers_table())
    if SUMMARY:
        print(f"\nsummary (CPU medians of {RUNS} rounds, same runs; {os.cpu_count()} cores):")
        print("\n".join(SUMMARY))
    print_targets()
    if BASELINE:
        print(f"\nA/B summary: before {BASELINE}\n             after  {BIN}\n"
              "before -> after medians, after/before (< 1: after is faster / smaller):")
        width = max(len(label) for label, _ in AB) + 1
        print("\n".join(f"  {label:<{width}}{text}" for label, text in AB))


if __name__ == "__main__":
    if sys.argv[1:2] == ["stats"]:
        for d in sys.argv[2:]:
            stats(d)
    else:
        main()
