# thumbgen — build, test, demo, assets, bench, install.
# Every target that compiles first makes sure libpng, zlib, libjpeg and lcms2 are there (see `deps`).

PREFIX ?= /usr/local
SWIFT ?= swift
CONFIG ?= release
BIN = .build/$(CONFIG)/thumbgen
# Where thumbgen.json (the demo project) writes.
DEMO_OUT = demo-output
# What `deps` installs on Debian.
DEB_PACKAGES = libpng-dev zlib1g-dev libdeflate-dev libjpeg-dev liblcms2-dev libwebp-dev libgif-dev libtiff-dev libheif-dev libde265-dev libdav1d-dev pkg-config time python3-pil python3-numpy icnsutils pngcheck aapt android-framework-res groff-base man-db zsh fish parallel libtiff-tools gcc libheif-examples chromium libimage-exiftool-perl dcraw tmux libjpeg-turbo-progs

.PHONY: all build deps test fma-check demo assets bench fuzz sanitize install uninstall clean

all: build

# libpng, zlib, libjpeg(-turbo), lcms2, libwebp, libtiff, libheif, libde265 and dav1d headers, found through pkg-config as Package.swift asks;
# giflib's header (it has no pkg-config file);
# GNU time, with which the tests and `make bench` measure peak memory;
# the independent readers the icon tests hand thumbgen's icons to: Pillow (python3-pil, run by
# /usr/bin/python3), icns2png (icnsutils), pngcheck, and aapt with the framework's resources;
# groff and man (groff-base, man-db), bash, zsh and fish, which the tests render the man pages and
# load the completions with; GNU parallel, which the scale-out test runs shards through; libtiff's
# tools (tiffcp, tiffcrop), which the fixture and reference scripts cut and flatten TIFFs with;
# heif-convert (libheif-examples), the independent reader of thumbgen's AVIFs; Chromium, which
# Scripts/browser-test.sh opens the generated <picture> page in; numpy, which the benchmark's SSIM
# uses; exiftool and dcraw, the independent extractors the camera RAW tests check the chosen
# preview against; tmux, the terminal a test runs the sheet command in to see its progress bar;
# djpeg and jpegtran (libjpeg-turbo-progs), the reference decode and the transcodes the JPEG
# scan-skipping tests hold thumbgen's progressive decode to.
# (Debian 12's libheif1 has libaom's AV1 encoder built in; later releases ship it as
# libheif-plugin-aomenc, installed below when the release has it.)
deps:
	@if ! pkg-config --exists libpng zlib libdeflate libjpeg lcms2 libwebpdemux libtiff-4 libheif libde265 dav1d 2>/dev/null || [ ! -f /usr/include/gif_lib.h ] || [ ! -x /usr/bin/time ] \
	    || [ ! -x /usr/bin/icns2png ] || [ ! -x /usr/bin/pngcheck ] || [ ! -x /usr/bin/aapt ] || [ ! -f /usr/share/android-framework-res/framework-res.apk ] \
	    || [ ! -x /usr/bin/groff ] || [ ! -x /usr/bin/man ] || [ ! -x /usr/bin/zsh ] || [ ! -x /usr/bin/fish ] || [ ! -x /usr/bin/parallel ] || [ ! -x /usr/bin/tiffcp ] \
	    || [ ! -x /usr/bin/heif-convert ] || [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/exiftool ] || [ ! -x /usr/bin/dcraw ] || [ ! -x /usr/bin/tmux ] || [ ! -x /usr/bin/djpeg ] || [ ! -x /usr/bin/jpegtran ] \
	    || ! /usr/bin/python3 -c 'import PIL, numpy' 2>/dev/null || ! command -v cc >/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "make: installing $(DEB_PACKAGES)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(DEB_PACKAGES) >/dev/null; \
	    if apt-cache show libheif-plugin-aomenc >/dev/null 2>&1; then DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libheif-plugin-aomenc >/dev/null; fi; \
	  else \
	    echo "make: development files are missing; run: sudo apt-get install -y $(DEB_PACKAGES)" >&2; \
	    exit 1; \
	  fi; \
	fi

build: deps
	$(SWIFT) build -c $(CONFIG) --product thumbgen

# Pixel-heavy tests run in release: Swift image loops are 10-100x slower in debug.
# Then the build tool plugin end to end on Examples/RatingsApp (debug, scratch paths under .build/):
# its test, the no-op rebuild, one touched image, a bad thumbgen.json, the command plugin.
# Then ThumbKitTesting in Examples/GoldenTests: record, pass, fail with a diff image.
# Then the web workflow in headless Chromium: which <picture> candidate loads at two viewports.
test: deps
	$(SWIFT) build -c release --product thumbgen
	$(SWIFT) test -c release
	SWIFT=$(SWIFT) Scripts/plugin-test.sh
	SWIFT=$(SWIFT) Scripts/golden-example-test.sh
	Scripts/browser-test.sh

# The golden suite with the C modules built for FMA and free to contract (-mfma -ffp-contract=fast,
# in .build/fma) against the normal build: the same bytes (a second full release build).
fma-check: deps
	SWIFT=$(SWIFT) Scripts/fma-check.sh

# The main job on the bundled sample images: the repository's thumbgen.json (thumbnails, a web set,
# rounded app thumbnails at @1x-@3x, star badges, icons for every platform), then a contact sheet.
demo: build
	@rm -rf $(DEMO_OUT)
	$(BIN) build
	$(BIN) sheet Assets/samples/photos -o $(DEMO_OUT)/sheet.png --columns 3
	@echo "demo: thumbnails, web, app, stars and icons in $(DEMO_OUT)/ (made by thumbgen.json), a contact sheet in $(DEMO_OUT)/sheet.png"

# Regenerates the project's own star badges and their golden manifest from Assets/stars/badge-spec.json
# (`make test` checks them byte for byte).
assets: build
	$(BIN) stars --spec Assets/stars/badge-spec.json -o Assets/stars --manifest Assets/stars/golden-manifest.json

# Measures thumbgen as `make install` builds it (Swift runtime linked in). A/B against another build:
# THUMBGEN_BASELINE_BIN=/path/to/before/.build/static/release/thumbgen make bench (each thumbgen
# measurement also runs that binary in the same rounds; the report adds after/before ratios).
# BENCH_RUNS=N sets the rounds (default 5); BENCH_ONLY=memory runs only the peak-memory sections, BENCH_ONLY=formats those and the WebP/GIF/TIFF input ones,
# BENCH_ONLY=summary only the one-screen summary the README reproduces. Run by /usr/bin/python3, which has Debian's Pillow and numpy.
bench: deps
	$(SWIFT) build -c release --product thumbgen --scratch-path .build/static --static-swift-stdlib
	$(SWIFT) build -c release --product thumbgen-bench
	THUMBGEN_BIN=.build/static/release/thumbgen /usr/bin/python3 Scripts/bench.py

# libFuzzer over decode -> thumbnail -> encode, seeded with the PngSuite and a few small JPEGs. FUZZ_SECONDS=N sets the time;
# new inputs collect in .build/fuzz-corpus, crashes in .build/fuzz-crashes (check them in as
# regression tests under Tests/Fixtures/hostile/).
FUZZ_SECONDS ?= 300
FUZZ_FLAGS = -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -use-ld=lld
fuzz: deps
	$(SWIFT) build -c release --product thumbgen-fuzz --scratch-path .build/fuzz $(FUZZ_FLAGS)
	@mkdir -p .build/fuzz-corpus .build/fuzz-crashes
	@cp -n Tests/Fixtures/pngsuite/*.png Tests/Fixtures/fuzz-seeds/*.jpg Tests/Fixtures/webp/*.webp Tests/Fixtures/gif/*.gif Tests/Fixtures/tiff/*.tif Tests/Fixtures/heif/*.heic Tests/Fixtures/heif/*.avif Tests/Fixtures/ratings/*.jpg Tests/Fixtures/ratings/*.png Tests/Fixtures/ratings/*.xmp Tests/Fixtures/raw/synthetic* Tests/Fixtures/raw/exiftool-* .build/fuzz-corpus/ 2>/dev/null || true
	.build/fuzz/release/thumbgen-fuzz .build/fuzz-corpus -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=4096 \
	  -artifact_prefix=.build/fuzz-crashes/ -print_final_stats=1

# The test suite under AddressSanitizer, then ThreadSanitizer (debug builds; slow). Leaks inside the
# Swift toolchain's own libraries (XCTest, Foundation) are suppressed by Scripts/lsan.supp.
# TSAN_FILTER=Batch limits TSan to the threaded suites when time is short.
TSAN_FILTER ?=
sanitize: deps
	LSAN_OPTIONS=suppressions=$(CURDIR)/Scripts/lsan.supp $(SWIFT) test --scratch-path .build/asan --sanitize=address
	$(SWIFT) test --scratch-path .build/tsan --sanitize=thread $(if $(TSAN_FILTER),--filter '$(TSAN_FILTER)')

# The installed binary carries the Swift runtime inside it: it starts in 2.6 ms instead of 5.1
# (hyperfine, `thumbgen --version`), which counts when a Makefile runs it once per image. Built in
# a scratch path of its own so the other targets' builds are not redone with other flags.
# The man pages and the bash, zsh and fish completions are generated by the binary from the
# option tables it parses with (hidden options --generate-man DIR, --generate-completion SHELL).
MANDIR ?= $(PREFIX)/share/man/man1
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
install: deps
	$(SWIFT) build -c release --product thumbgen --scratch-path .build/static --static-swift-stdlib
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR) $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	install -m 755 .build/static/release/thumbgen $(DESTDIR)$(PREFIX)/bin/thumbgen
	rm -rf .build/static/man && .build/static/release/thumbgen --generate-man .build/static/man
	install -m 644 .build/static/man/*.1 $(DESTDIR)$(MANDIR)/
	.build/static/release/thumbgen --generate-completion bash > .build/static/thumbgen.bash
	.build/static/release/thumbgen --generate-completion zsh > .build/static/_thumbgen
	.build/static/release/thumbgen --generate-completion fish > .build/static/thumbgen.fish
	install -m 644 .build/static/thumbgen.bash $(DESTDIR)$(BASHCOMPDIR)/thumbgen
	install -m 644 .build/static/_thumbgen $(DESTDIR)$(ZSHCOMPDIR)/_thumbgen
	install -m 644 .build/static/thumbgen.fish $(DESTDIR)$(FISHCOMPDIR)/thumbgen.fish

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/thumbgen $(DESTDIR)$(MANDIR)/thumbgen.1 $(DESTDIR)$(MANDIR)/thumbgen-*.1
	rm -f $(DESTDIR)$(BASHCOMPDIR)/thumbgen $(DESTDIR)$(ZSHCOMPDIR)/_thumbgen $(DESTDIR)$(FISHCOMPDIR)/thumbgen.fish

clean:
	rm -rf .build $(DEMO_OUT)
