"""``python -m tute.cli``: the ``tute`` command."""

import sys

from tute.cli import main

sys.exit(main())
