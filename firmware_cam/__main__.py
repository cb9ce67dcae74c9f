"""``python -m firmware_cam``: the same as ``borne-cam``."""

import sys

from firmware_cam.cli import main

sys.exit(main())
