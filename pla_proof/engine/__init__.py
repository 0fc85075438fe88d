"""The one engine that runs every variant (see :mod:`pla_proof.engine.run`)."""
