#!/usr/bin/env bash
# Set everything up and build the book (README, command 1).
#   - a virtual environment in .venv (unless one is already active) with requirements.txt,
#     which also installs mctslib itself in editable mode;
#   - MathJax, require.js and the widget manager from the npm registry into book/_vendor,
#     so the published pages load nothing from the internet;
#   - Debian's Chromium for the browser tests and Debian's Graphviz (`dot`, for the tree
#     explorer's layouts), each only when running as root and it is missing;
#   - the book, built with warnings as errors, into _build/html.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${VIRTUAL_ENV:-}" ]; then
  [ -x .venv/bin/python ] || python3 -m venv .venv
  # shellcheck disable=SC1091
  source .venv/bin/activate
fi
python -m pip install --quiet --upgrade pip
python -m pip install --quiet -r requirements.txt

bash scripts/vendor_js.sh

# Build matplotlib's font cache once here: the process that builds it warns on stderr, and a
# chapter that did so under nbval would fail (an unexpected stderr output).
python -c "import matplotlib.pyplot"

# Debian packages: Chromium for the browser tests, Graphviz's `dot` for the tree layouts.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v dot >/dev/null 2>&1 || missing+=(graphviz)
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's ${missing[*]}..."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "NOTE: needs Debian's ${missing[*]} (e.g. 'sudo apt-get install ${missing[*]}'):" \
      "Chromium at /usr/bin/chromium for the browser tests, Graphviz's dot for the tree layouts."
  fi
fi

bash scripts/build_book.sh

cat <<'MSG'

Set-up done. The book is at _build/html/index.html (open it in a browser, or serve it with
  python -m http.server -d _build/html 8000   and visit http://127.0.0.1:8000 ).
To run the chapters yourself:
  source .venv/bin/activate && jupyter lab notebooks/
MSG
