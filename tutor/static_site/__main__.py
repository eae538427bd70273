"""``python -m tutor.static_site``: build the static site (see :mod:`tutor.static_site`)."""

import sys

from tutor.static_site import main

sys.exit(main())
