"""``python -m mctslib``: see :mod:`mctslib.cli.main`."""

import sys

from .cli.main import main

sys.exit(main())
