"""``python -m tute.cli``: the ``tute`` command."""

import sys

from tute.cli import main

if __name__ == "__main__":        # imported (the docs' test reads every module): nothing
    sys.exit(main())
