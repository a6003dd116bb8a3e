"""``python -m citybuild.cli``: the ``citybuild`` command."""

import sys

from citybuild.cli import main

sys.exit(main())
