"""The proof as data (:mod:`.statements`) and its symbolic checkers."""

from .statements import END_LEMMAS, LEMMAS, RUNTIME_LEMMAS, Lemma, lemma

__all__ = ["END_LEMMAS", "LEMMAS", "RUNTIME_LEMMAS", "Lemma", "lemma"]
