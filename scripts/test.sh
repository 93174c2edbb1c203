#!/usr/bin/env bash
# Run every test (README, command 2): the import contracts of mctslib's layers, unit tests,
# browser tests on the freshly built book and in JupyterLab, and nbval over every chapter
# notebook (a fresh kernel must reproduce every stored output). Extra arguments go to pytest, e.g. `bash scripts/test.sh -x -k bandit`.
# Two pytest-xdist workers, one a core, each taking whole files (a notebook's cells share one kernel).
# The plugin scripts/nbval_reruns.py runs each chapter cell twice in a row and its quick cells again
# after the whole chapter (a learner re-running cells must see the same); scripts/nbval_status.py
# records each chapter's nbval time and result; the book is rebuilt afterwards (pass or fail)
# so that its Status page shows this run.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${VIRTUAL_ENV:-}" ] || source .venv/bin/activate
export MCTSLIB_PROGRESS=0   # progress bars are for people; stored outputs have none
lint-imports               # the layers of mctslib (contracts in pyproject.toml)
bash scripts/build_book.sh   # the browser tests read this build
result=0
python -m pytest tests notebooks --nbval --nbval-current-env --nbval-cell-timeout=900 \
  -p no:cacheprovider -p scripts.nbval_reruns -p scripts.nbval_status -n 2 --dist loadfile \
  "$@" || result=$?
bash scripts/build_book.sh   # the Status page now shows this run
exit "$result"
