"""A training function of the data alone, ``perceptron(data)``: its layout found by
behaviour (``pla_proof.variants.estimators.data_layout``)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from pla_proof.errors import InputError
from pla_proof.variants.estimators.estimator import resolve_factory

FIT = Path(__file__).parent / "compat" / "fit"


def test_a_function_of_the_data_alone_is_given_the_layout_it_reads() -> None:
    from pla_proof.variants.estimators.data_layout import DataLayout

    for name, layout in (("pla_columns", "columns"), ("pla_pairs", "pairs")):
        made = resolve_factory(f"{FIT / 'fit_data_layout.py'}:{name}")
        assert isinstance(made, DataLayout) and made.layout == layout, name
        assert pickle.loads(pickle.dumps(made)).layout == layout


def test_a_function_of_one_argument_that_runs_in_no_layout_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "one.py"
    f.write_text("def train(config):\n    return config['rate']\n")
    with pytest.raises(InputError, match="a function of 1 required parameter"):
        resolve_factory(f"{f}:train")
