#!/usr/bin/env bash
# Build the book from the outputs stored in the notebooks, warnings as errors.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${VIRTUAL_ENV:-}" ] || source .venv/bin/activate
bash scripts/vendor_js.sh
python scripts/status_page.py   # book/status.md from the last test run (generated, not committed)
jupyter-book build . -W -n --keep-going --quiet
