"""``python -m pla_proof`` runs the ``pla-proof`` command."""

import sys

from .cli import main

sys.exit(main())
