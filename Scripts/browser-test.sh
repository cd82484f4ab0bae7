#!/usr/bin/env bash
# The web workflow in a real browser (`make test` runs this after the Swift tests).
#
# One `thumbgen build` makes AVIF, WebP and JPEG at 160, 320 and 640 px of the sample photos, with
# lqip and colour placeholders, images.json and index.html (relative URLs). Headless Chromium then
# opens index.html (plus a script appended to a copy, page.html, that waits for every <img>, reads
# its currentSrc and naturalWidth, decodes every AVIF, WebP and JPEG candidate and each lqip
# placeholder on its own, and writes the results into the DOM as JSON) at two device-pixel ratios
# (headless Chromium's window is at least 500 px wide, so the page says sizes="50vw"):
#   500 px at 1x: 250 px wanted, so the 320w AVIF must be chosen;
#   500 px at 2x: 500 device pixels, so the 640w AVIF.
# Each run uses a fresh profile (no cached larger candidate). Fails with the first wrong answer.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BIN=${THUMBGEN_BIN:-$ROOT/.build/release/thumbgen}
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
  echo "browser-test: chromium is missing (make deps installs it: apt-get install chromium)" >&2
  exit 1
fi
WORK=$ROOT/.build/browser-test
rm -rf "$WORK"
mkdir -p "$WORK/photos"
cp Assets/samples/photos/dune.png Assets/samples/photos/ladybird.png Assets/samples/photos/fresh-flower.png "$WORK/photos/"
cat > "$WORK/thumbgen.json" <<'JSON'
{
  "thumbnails": [
    { "source": "photos", "output": "site/img", "widths": [160, 320, 640], "formats": ["avif", "webp", "jpeg"],
      "placeholders": ["lqip", "color"], "metadata": "site/img/images.json", "html": "site/img/index.html",
      "sizes": "50vw" }
  ]
}
JSON
"$BIN" build "$WORK/thumbgen.json"
SITE=$WORK/site/img
for f in images.json index.html dune-640.avif dune-320.webp ladybird-160.jpg; do
  [ -s "$SITE/$f" ] || { echo "browser-test: $SITE/$f was not written" >&2; exit 1; }
done

# The page under test: thumbgen's HTML, lazy images made eager (a headless window is short), and
# a script that reports what the browser did.
sed 's#</body>#<pre id="results">pending</pre>\n<script src="report.js"></script>\n</body>#' "$SITE/index.html" > "$SITE/page.html"
cat > "$SITE/report.js" <<'JS'
(async () => {
  const load = (src) => new Promise((resolve) => {
    const im = new Image();
    im.onload = () => resolve(im.naturalWidth);
    im.onerror = () => resolve(0);
    im.src = src;
  });
  const imgs = [...document.querySelectorAll('picture img')];
  for (const img of imgs) img.loading = 'eager';
  // Each <img> loaded (or failed), with a time limit in case one never starts.
  await Promise.all(imgs.map((img) => (img.complete ? Promise.resolve() : new Promise((done) => {
    img.addEventListener('load', done); img.addEventListener('error', done); setTimeout(done, 5000);
  }))));
  const out = { images: [], candidates: [], placeholders: [] };
  for (const img of imgs) {
    out.images.push({ source: img.dataset.source, currentSrc: img.currentSrc.split('/').pop(), naturalWidth: img.naturalWidth,
                      width: img.getAttribute('width'), height: img.getAttribute('height') });
    const urls = [img.src];
    for (const s of img.parentElement.querySelectorAll('source')) {
      for (const part of s.srcset.split(', ')) urls.push(new URL(part.split(' ')[0], document.baseURI).href);
    }
    for (const part of img.srcset.split(', ')) urls.push(new URL(part.split(' ')[0], document.baseURI).href);
    for (const url of urls) out.candidates.push({ url: url.split('/').pop(), naturalWidth: await load(url) });
    const bg = getComputedStyle(img).backgroundImage;
    const m = /url\("?(data:[^")]*)"?\)/.exec(bg);
    out.placeholders.push({ lqip: m ? await load(m[1]) : 0 });
  }
  document.getElementById('results').textContent = JSON.stringify(out);
})();
JS

check() {  # check WIDTH DPR EXPECTED-WIDTH
  local width=$1 dpr=$2 expected=$3 profile
  profile=$(mktemp -d)
  "$CHROMIUM" --headless --disable-gpu --no-sandbox --user-data-dir="$profile" --allow-file-access-from-files \
      --window-size="$width,900" --force-device-scale-factor="$dpr" --virtual-time-budget=10000 \
      --dump-dom "file://$SITE/page.html" 2>/dev/null > "$WORK/dom-$width-$dpr.html" || true
  rm -rf "$profile"
  /usr/bin/python3 - "$WORK/dom-$width-$dpr.html" "$expected" "$width" "$dpr" <<'PY'
import html, json, re, sys
dom, expected, width, dpr = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3], sys.argv[4]
m = re.search(r'<pre id="results">(.*?)</pre>', dom, re.S)
if not m or m.group(1) == 'pending':
    sys.exit(f"browser-test: no results from Chromium at {width}px {dpr}x")
r = json.loads(html.unescape(m.group(1)))
problems = []
if len(r['images']) != 3: problems.append(f"{len(r['images'])} images, not 3")
for im in r['images']:
    want = f"-{expected}.avif"
    if not im['currentSrc'].endswith(want): problems.append(f"{im['source']}: loaded {im['currentSrc']}, not *{want}")
    # naturalWidth of a w-descriptor candidate is its width over its density: > 0 once decoded.
    if im['naturalWidth'] <= 0: problems.append(f"{im['source']}: {im['currentSrc']} did not decode")
for c in r['candidates']:
    if c['naturalWidth'] <= 0: problems.append(f"{c['url']} did not decode")
kinds = {c['url'].rsplit('.', 1)[1] for c in r['candidates'] if c['naturalWidth'] > 0}
if kinds != {'avif', 'webp', 'jpg'}: problems.append(f"decoded kinds {sorted(kinds)}")
for p in r['placeholders']:
    if p['lqip'] != 16: problems.append(f"lqip placeholder decoded at {p['lqip']} px, not 16")
if problems:
    sys.exit("browser-test: " + "; ".join(problems))
print(f"browser-test: {width}px at {dpr}x: " + ", ".join(im['currentSrc'] for im in r['images'])
      + f"; {len(r['candidates'])} AVIF/WebP/JPEG candidates and {len(r['placeholders'])} lqip placeholders decoded")
PY
}
check 500 1 320
check 500 2 640
check 1200 1 640
