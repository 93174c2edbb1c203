"""``python -m mctslib``: see :mod:`mctslib.cli`."""

import sys

from .cli import main

sys.exit(main())
