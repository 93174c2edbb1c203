#!/usr/bin/env bash
# Build the book from the outputs stored in the notebooks, warnings as errors.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${VIRTUAL_ENV:-}" ] || source .venv/bin/activate
bash scripts/vendor_js.sh
jupyter-book build . -W -n --keep-going --quiet
