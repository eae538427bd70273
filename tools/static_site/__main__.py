"""``python -m tools.static_site``: build the static site (see :mod:`tools.static_site`)."""

import sys

from tools.static_site import main

sys.exit(main())
