"""Data sets: the exact :class:`Dataset`, bias conventions, readers and built-ins.

>>> from pla_proof.data import load
>>> load("orthonormal:2").n
2
"""

from .builtins import BUILTINS
from .dataset import BIAS_CONVENTIONS, Bias, Dataset, from_arrays
from .readers import load, read_csv, read_npz

__all__ = [
    "BIAS_CONVENTIONS",
    "BUILTINS",
    "Bias",
    "Dataset",
    "from_arrays",
    "load",
    "read_csv",
    "read_npz",
]
