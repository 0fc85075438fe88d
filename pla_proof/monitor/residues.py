"""Exact integer arrays known by their residues modulo several primes: moved to
:mod:`pla_proof.engine.residues` (the engine measures with them); the names stay
importable from here."""

from ..engine.residues import Residues, primes, primes_for, residues_of

__all__ = ["Residues", "primes", "primes_for", "residues_of"]
