"""pla_proof: a formally checked proof companion for the Perceptron convergence theorem.

>>> from pla_proof import load, train
>>> run = train(load("orthonormal:5"))
>>> run.status, run.updates, run.bound
('converged', 5, Fraction(5, 1))
"""

from .data import Bias, Dataset, from_arrays, load, read_csv, read_npz
from .errors import InputError, SolverError
from .monitor import Comparator, Step, Violation, make_comparator
from .proof.statements import LEMMAS, Lemma, lemma
from .trainer import RULES, Certificate, Run, train

__all__ = [
    "LEMMAS",
    "RULES",
    "Bias",
    "Certificate",
    "Comparator",
    "Dataset",
    "InputError",
    "Lemma",
    "Run",
    "SolverError",
    "Step",
    "Violation",
    "from_arrays",
    "lemma",
    "load",
    "make_comparator",
    "read_csv",
    "read_npz",
    "train",
]

__version__ = "0.1.0"
