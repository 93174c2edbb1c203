"""``python -m mctslib.experiments.uttt``: regenerate the chapter's stored results (see ``--help``)."""

import sys

from .registry import main

sys.exit(main())
