"""``python -m appliance`` is the ``openclaw`` command."""

import sys

from appliance.cli import main

sys.exit(main())
