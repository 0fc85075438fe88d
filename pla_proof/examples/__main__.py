"""``python -m pla_proof.examples``."""

from . import main

raise SystemExit(main())
