#!/usr/bin/env bash
# Copy the JavaScript the published book needs into book/_vendor, from the npm registry.
# Without it, pages would load MathJax, require.js and the ipywidgets manager from CDNs.
set -euo pipefail
cd "$(dirname "$0")/.."
vendor=book/_vendor
extra=book/_vendor_extra
[ -f "$vendor/.complete-v2" ] && [ -d "$extra" ] && exit 0
command -v npm >/dev/null || { echo "npm is needed once, to fetch MathJax and the widget manager" >&2; exit 1; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent mathjax@3.2.2 requirejs@2.3.8 @jupyter-widgets/html-manager@1.0.15 >/dev/null)
for tgz in "$work"/*.tgz; do mkdir -p "${tgz%.tgz}" && tar xzf "$tgz" -C "${tgz%.tgz}"; done
rm -rf "$vendor" && mkdir -p "$vendor/html-manager"
cp -r "$work"/mathjax-3.2.2/package/es5 "$vendor/mathjax"
cp "$work"/requirejs-2.3.8/package/require.js "$vendor/require.js"
# The widget manager's icon fonts sit beside embed-amd.js; its source maps are not needed.
find "$work"/jupyter-widgets-html-manager-1.0.15/package/dist -maxdepth 1 -type f \
  ! -name '*.map' ! -name 'embed.js*' ! -name 'libembed-amd.js' -exec cp {} "$vendor/html-manager/" \;
# The widgets' CSS asks for its icon fonts relative to the page, under "@jupyter-widgets/";
# html_extra_path puts a copy there for the chapter pages (all under notebooks/).
rm -rf "$extra" && mkdir -p "$extra/notebooks/@jupyter-widgets"
find "$vendor/html-manager" -maxdepth 1 -type f \( -name '*.woff*' -o -name '*.ttf' -o -name '*.eot' -o -name '*.svg' \) \
  -exec cp {} "$extra/notebooks/@jupyter-widgets/" \;
touch "$vendor/.complete-v2"
echo "Vendored MathJax 3.2.2, require.js 2.3.8 and @jupyter-widgets/html-manager 1.0.15 into $vendor"
