"""The ``--fit`` compatibility corpus (tests/compat/README.md, "The `--fit` corpus: `fit/`"):
Perceptron implementations written in the shapes public code gives them -- no bias at
all, epoch budgets under names the reading does not know, 0/1 classes, training
functions returning extra values, averaged and voted classes, unseeded shuffles, numba,
prints, int32 and float32 weights -- and broken ones with real mistakes, each with the
verdict ``pla-proof check --fit`` should give.

Each row is checked through the command itself, in-process (``main([...])``), with a
small search: ``"pass"`` is exit 0; a set of properties is exit 1 with each of them
failing; :class:`Alone` is exit 1 with exactly those failing (a budget too small is
``EPOCHS`` and nothing else: never a wrong update, bias or predictor).  ``SEP`` in an
expected set stands for the end claim, whichever the model's sign(0) makes it (``SEP``,
``SEP0`` or ``SEP0N``).  The options a row gives are those the check should need
(``--output averaged|voted`` included).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from checking import cli_budget

from pla_proof.cli import main

FIT = Path(__file__).parent / "compat" / "fit"


class Alone(frozenset[str]):
    """Exactly these properties fail (a row whose mistake is its budget alone)."""


PASS = "pass"
#: no property fails: it passes, or is inconclusive (exit 3) where it is slow, not wrong
#: (a float class whose updates round away, judged from its own start)
NOT_WRONG = "not wrong"
EPOCHS_ALONE = Alone({"EPOCHS"})
#: the end claim's ids: which one a model gets depends on its sign(0)
END_CLAIMS = frozenset({"SEP", "SEP0", "SEP0N"})

#: (module in tests/compat/fit, attribute) -> (expected verdict, extra options)
CORPUS: dict[tuple[str, str], tuple[str | frozenset[str], tuple[str, ...]]] = {
    # no bias at all: through the origin
    ("fit_origin_class", "OriginPerceptron"): (PASS, ()),
    ("fit_origin_function", "perceptron_origin"): (PASS, ()),
    ("fit_origin_dual", "LinearKernelPerceptron"): (PASS, ()),
    # epoch budgets under names the reading does not know today
    ("fit_budget_t", "perceptron"): (PASS, ()),
    ("fit_budget_t", "perceptron_two_passes"): (EPOCHS_ALONE, ()),
    ("fit_budget_niterations", "PerceptronNI"): (PASS, ()),
    ("fit_budget_niterations", "FewIterations"): (EPOCHS_ALONE, ()),
    ("fit_budget_updates", "pla"): (PASS, ()),
    ("fit_budget_updates", "pla_two_updates"): (EPOCHS_ALONE, ()),
    ("fit_budget_max_epoch", "MaxEpochPerceptron"): (PASS, ()),
    ("fit_budget_constant", "ConstantEpochs"): (PASS, ()),
    ("fit_budget_constant_few", "ConstantEpochsFew"): (EPOCHS_ALONE, ()),
    ("fit_budget_helper", "HelperDefault"): (PASS, ()),
    ("fit_budget_helper", "OnePassHelper"): (EPOCHS_ALONE, ()),
    ("fit_budget_fit_default", "FitDefault"): (PASS, ()),
    # 0/1 classes that do not refuse -1/+1
    ("fit_labels_01", "StepPerceptron"): (PASS, ()),
    ("fit_labels_01", "ZeroOneTextbook"): (PASS, ()),
    # the data's dimension as a constructor parameter; a random start; predict one row
    ("fit_dimension_param", "InputSizedPerceptron"): (PASS, ()),
    ("fit_dimension_param", "InputSizedWrongSign"): (frozenset({"SEP", "PREDICT", "STOP"}), ()),
    ("fit_dimension_param", "RandomStartOneRow"): (EPOCHS_ALONE, ()),
    # fit(X, y, n_epochs) with no default: given by --param, then found as the budget
    ("fit_required_fit_arg", "EpochsRequired"): (PASS, ("--param", "n_epochs=1000")),
    # a partial_fit of its own (not scikit-learn's)
    ("fit_partial_own", "PassByPass"): (PASS, ()),
    # a rate under a name the reading does not know: measured, not read
    ("fit_rate_alpha", "AlphaPerceptron"): (PASS, ()),
    ("fit_rate_alpha", "StepThroughOrigin"): (PASS, ()),
    # a 0/1 training function whose step is score > 0: sign(0) is class 0 (SEP0N)
    ("fit_step_positive", "train_step"): (PASS, ()),
    ("fit_step_positive", "train_step_frozen_offset"): (frozenset({"SEP"}), ()),
    # ... score >= 0 from a random start: sign(0) read at the zero point (SEP0)
    ("fit_step_positive", "train_random_start"): (NOT_WRONG, ()),
    # a training function of one argument, the data: its layout found by behaviour
    ("fit_data_layout", "pla_columns"): (PASS, ()),
    ("fit_data_layout", "pla_pairs"): (PASS, ()),
    ("fit_data_layout", "pla_columns_no_bias_update"): (frozenset({"SEP"}), ()),
    # code written for lists (x + [1] appends there, adds on an array): given lists
    ("fit_lists_append", "AppendsOne"): (PASS, ()),
    ("fit_lists_append", "prepends_one"): (PASS, ()),
    ("fit_lists_append", "AppendsOneWrongSign"): (frozenset({"PREDICT", "STOP"}), ()),
    # a predict of one point that does not raise on a square matrix: asked point by point
    ("fit_predict_one_point", "OnePointDot"): (PASS, ()),
    # code that raises beyond its homework's data: read where it runs, its error the finding
    ("fit_broken_small_only", "train_five_slots"): (frozenset({"RUNS"}), ()),
    ("fit_broken_small_only", "ReportsUndefined"): (Alone({"RUNS"}), ()),
    # training functions returning more than their weights
    ("fit_returns_extra", "perceptron_with_accuracy"): (PASS, ()),
    ("fit_returns_extra", "train_counting"): (PASS, ()),
    ("fit_returns_extra", "train_history"): (PASS, ()),
    # a predictor beside the training function in its module: the pair is judged
    ("fit_predict_beside", "train"): (PASS, ()),
    ("fit_predict_beside_broken", "perceptron_train"): (frozenset({"PREDICT", "READ"}), ()),
    ("fit_predict_beside_one_point", "fit_weights"): (PASS, ()),
    # sized by the data's dimension; three methods take the points and labels: the
    # trainer is the one that changes the object and that no other calls
    ("fit_trainer_among_methods", "StepLearner"): (EPOCHS_ALONE, ()),
    # predict answers (sign + 1) / 2: 0.5, neither class, at a score of 0
    ("fit_half_label", "TieAsPositive"): (frozenset({"PREDICT"}), ()),
    ("fit_half_label", "TieAsMistake"): (PASS, ()),
    # a bias made 1 by the constructor, rate 0.01, step s > 0: SEP0N read from a zero start
    ("fit_bias_starts_at_one", "BiasStartsAtOne"): (EPOCHS_ALONE, ()),
    # no bias; -> (w, accuracy_per_pass, converged_at), the count 0 where it did not
    # converge: no bias; classify(x, w) beside it, for one point, given the weights alone
    ("fit_returns_counter_no_bias", "train_no_bias"): (PASS, ()),
    # predict(x) for one point returns (label, score): the label is its answer
    ("fit_predict_pair", "LabelAndScore"): (PASS, ()),
    # averaged and voted outputs, declared
    ("fit_averaged", "AveragedPerceptron"): (PASS, ("--output", "averaged")),
    ("fit_averaged", "AveragedReturnsModel"): (
        PASS,
        ("--output", "averaged", "--param", "rounds=50"),
    ),
    ("fit_voted", "VotedPerceptron"): (PASS, ("--output", "voted")),
    # ... broken: the counts forgotten, so given passes enough they still mispredict
    ("fit_voted", "VotedUnweighted"): (frozenset({"PREDICT"}), ("--output", "voted")),
    ("fit_averaged", "AveragedMistakesOnly"): (frozenset({"PREDICT"}), ("--output", "averaged")),
    ("fit_averaged", "ShuffledAveraged"): (PASS, ("--output", "averaged")),
    ("fit_averaged", "AveragedRateThroughOrigin"): (PASS, ("--output", "averaged")),
    # a training function's start weights, a required parameter: zeros made for each call
    ("fit_start_vector", "pla_from"): (PASS, ()),
    ("fit_start_vector", "pla_from_wrong_sign"): (frozenset({"SEP"}), ()),
    # fit and nothing else: what it learned kept on the object, read as returned
    ("fit_kept_weights", "KeepsWeights"): (PASS, ()),
    ("fit_kept_weights", "KeepsWeightsBiasSlip"): (frozenset({"SEP"}), ()),
    # no predict: forward(x) of one point answers (label, change), read by its label
    ("fit_forward_pair", "ForwardPair"): (PASS, ()),
    ("fit_forward_pair", "ForwardPairWrongSign"): (frozenset({"SEP", "PREDICT", "STOP"}), ()),
    # a threshold instead of a bias (w.x > theta): the bias -theta, found by behaviour
    ("fit_threshold", "ThresholdPerceptron"): (PASS, ()),
    ("fit_threshold", "ThresholdFromOnes"): (EPOCHS_ALONE, ()),
    ("fit_threshold", "ThresholdWrongSign"): (frozenset({"SEP"}), ()),
    # a start away from zero made inside the trainer: a stop at 0 cannot be probed
    ("fit_start_inside_fit", "ListThreshold"): (NOT_WRONG, ()),
    # a random start that a fit with no epochs cannot show (it raises): slow, not wrong
    ("fit_random_start_count", "pla_random_start"): (EPOCHS_ALONE, ()),
    # the data in one argument, then a rate and epochs with no default (given); the
    # start first, before the points and labels
    ("fit_data_first_params", "train_rows"): (
        PASS,
        ("--param", "rate=1.0", "--param", "epochs=1000"),
    ),
    ("fit_start_first", "pocket_from"): (PASS, ()),
    ("fit_start_first", "pocket_from_wrong_sign"): (frozenset({"SEP"}), ()),
    # the data in one argument after a rate (given); the start between points and labels
    ("fit_data_after_rate", "pla_rate_first"): (PASS, ("--param", "eta=1")),
    ("fit_data_after_rate", "pla_rate_first_wrong_sign"): (
        frozenset({"SEP"}),
        ("--param", "eta=1"),
    ),
    ("fit_data_after_rate", "pocket_between"): (PASS, ()),
    # points as the columns of the matrix (d x n), found by behaviour
    ("fit_points_as_columns", "columns_perceptron"): (PASS, ()),
    ("fit_points_as_columns", "columns_wrong_bias"): (frozenset({"SEP"}), ()),
    # no labels: the two classes as two sets of points, in either order
    ("fit_two_sets", "train_sets"): (PASS, ()),
    ("fit_two_sets", "train_negatives_first"): (PASS, ()),
    ("fit_two_sets", "sets_positives_only"): (frozenset({"SEP"}), ()),
    # a start with a bias of its own, a number; the data in one argument, then the start
    ("fit_start_scalar_bias", "train_from"): (PASS, ()),
    ("fit_start_scalar_bias", "train_from_bias_outside"): (frozenset({"SEP"}), ()),
    ("fit_start_scalar_bias", "perceptron_pairs"): (PASS, ()),
    ("fit_start_scalar_bias", "perceptron_pairs_bias_outside"): (frozenset({"SEP"}), ()),
    # labels as a column (n, 1), found by its behaviour
    ("fit_column_labels", "train_column"): (PASS, ()),
    # no predict(): the method that answers labels, found by its behaviour
    ("fit_no_predict", "LabelsByClassify"): (PASS, ()),
    ("fit_no_predict", "LabelsByClassifyWrongSign"): (frozenset({"SEP", "PREDICT", "STOP"}), ()),
    ("fit_no_predict", "TrainAndClassify"): (PASS, ()),
    ("fit_no_predict", "FitReturnsWeights"): (PASS, ()),
    # an early stop on a small change of the weights: a mistake (it stops with errors)
    ("fit_tolerance_stop", "MeanChangeStop"): (frozenset({"PREDICT", "STOP"}), ()),
    ("fit_tolerance_stop", "NoChangeStop"): (PASS, ()),
    # unseeded shuffles, numba, prints
    ("fit_shuffle", "ShufflingPerceptron"): (PASS, ()),
    ("fit_shuffle", "MisalignedShuffle"): (frozenset({"PREDICT"}), ()),
    ("fit_numba_parallel", "NumbaPerceptron"): (PASS, ()),
    ("fit_verbose", "VerbosePerceptron"): (PASS, ()),
    # number types
    ("fit_int32_weights", "IntWeightsPerceptron"): (frozenset({"RUNS"}), ()),
    # from w = ones in float32: on tiny coordinates its updates round away, and from its
    # own start the theorem allows ~3e18 updates: slow, not wrong (never SEP or ENDS)
    ("fit_float32_textbook", "Float32Textbook"): (NOT_WRONG, ()),
    # trained by a method that is not fit: sized by the constructor; train(X, y, rate,
    # rounds) with no defaults (given by --param) and a one-sample predictor; a fit that
    # always raises, predicting through _predict only
    ("fit_train_method", "SizedTrainer"): (PASS, ()),
    ("fit_train_method", "CourseTrainer"): (PASS, ("--param", "rate=1", "--param", "rounds=1000")),
    ("fit_train_method", "CourseTrainerFewRounds"): (
        EPOCHS_ALONE,
        ("--param", "rate=1", "--param", "rounds=2"),
    ),
    ("fit_train_method", "CourseTrainerLastOnly"): (
        frozenset({"PREDICT", "STOP"}),
        ("--param", "rate=1", "--param", "rounds=1000"),
    ),
    ("fit_train_method", "HelperTypo"): (frozenset({"RUNS"}), ()),
    # made with its training data, Perceptron(X, y), then trained by learn()
    ("fit_data_in_constructor", "DataFirst"): (PASS, ()),
    ("fit_data_in_constructor", "DataFirstFrozenBias"): (frozenset({"SEP"}), ()),
    # ... trained by fit(step) with no default (given by --param); made with the data's
    # sizes too; with no method that predicts, train() returning what it learned
    ("fit_data_in_constructor", "DataAndStep"): (PASS, ("--param", "step=1")),
    ("fit_data_in_constructor", "DataAndSizes"): (PASS, ()),
    ("fit_data_in_constructor", "ReturnsItsWeights"): (PASS, ()),
    ("fit_data_in_constructor", "ReturnsItsWeightsBiasAway"): (frozenset({"SEP"}), ()),
    # a fit of one pass that goes on from where the last call ended: its calls, a budget
    ("fit_budget_calls", "OnePassOn"): (EPOCHS_ALONE, ()),
    # real mistakes
    ("fit_broken_sign", "ListPerceptronWrongSign"): (frozenset({"SEP"}), ()),
    ("fit_broken_bias", "FrozenBias"): (frozenset({"SEP"}), ()),
    ("fit_broken_two_features", "TwoFeatureLoop"): (frozenset({"RUNS", "PREDICT"}), ()),
    ("fit_broken_two_features", "train_two_features"): (frozenset({"RUNS"}), ()),
    ("fit_broken_multiclass", "UndoneMulticlass"): (frozenset({"PREDICT"}), ()),
}

#: correct rows without options whose report must not depend on --jobs (a subset, for
#: CI time: a class, a function, a dual class, an unknown budget name, 0/1 labels, the
#: unseeded shuffle, numba's threads, prints)
JOBS_ROWS = [
    ("fit_origin_class", "OriginPerceptron"),
    ("fit_budget_t", "perceptron"),
    ("fit_origin_dual", "LinearKernelPerceptron"),
    ("fit_budget_niterations", "PerceptronNI"),
    ("fit_labels_01", "StepPerceptron"),
    ("fit_shuffle", "ShufflingPerceptron"),
    ("fit_numba_parallel", "NumbaPerceptron"),
    ("fit_verbose", "VerbosePerceptron"),
]


def run_check(
    module: str,
    attr: str,
    extra: tuple[str, ...],
    jobs: int,
    out: Path,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, list[str], dict[str, Any] | None, str]:
    """``pla-proof check --fit`` on one row: exit code, failing properties, the JSON
    report (None when there is none) and the first line of stderr.  A row expected to
    fail shrinks with 20 runs, not 100: its verdict is pinned, not its smallest
    counterexample (a failing row's fits run to their budgets, in Python loops)."""
    shrink_runs = 100 if CORPUS[module, attr][0] == PASS else 20
    if module == "fit_numba_parallel":
        pytest.importorskip("numba")
    capsys.readouterr()
    code = main(
        [
            "check",
            "--fit",
            f"{FIT / module}.py:{attr}",
            "--json",
            "--jobs",
            str(jobs),
            "--out",
            str(out),
            *cli_budget(10, shrink_runs),
            *extra,
        ]
    )
    captured = capsys.readouterr()
    err = next((line for line in captured.err.splitlines() if not line.startswith("[user]")), "")
    try:
        doc = json.loads(captured.out)
    except ValueError:
        return code, [], None, err
    failed = [p["id"] for p in doc["properties"] if p["status"] == "fail"]
    return code, failed, doc, err


def _named(failed: list[str]) -> set[str]:
    """The failing properties, the end claim under its family name ``SEP``."""
    return {"SEP" if p in END_CLAIMS else p for p in failed}


def _said(code: int, failed: list[str], doc: dict[str, Any] | None, err: str) -> str:
    reading = doc.get("reading", "") if doc else ""
    return f"exit {code}, failing {failed}; reading: {reading!r}; stderr: {err!r}"


@pytest.mark.parametrize(("module", "attr"), sorted(CORPUS))
def test_the_corpus_gets_its_verdict(
    module: str, attr: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected, extra = CORPUS[module, attr]
    code, failed, doc, err = run_check(module, attr, extra, 1, tmp_path, capsys)
    said = _said(code, failed, doc, err)
    if expected == PASS:
        assert code == 0 and not failed, said
        assert doc is not None and doc["runs"] > 0, said
    elif expected == NOT_WRONG:
        assert code in (0, 3) and not failed, said
        assert doc is not None and doc["runs"] > 0, said
    elif isinstance(expected, Alone):
        assert code == 1 and set(failed) == set(expected), said
    else:
        assert code == 1 and set(expected) <= _named(failed), said


@pytest.mark.parametrize(("module", "attr"), JOBS_ROWS)
def test_a_correct_row_gets_the_same_report_on_one_and_two_jobs(
    module: str, attr: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert CORPUS[module, attr] == (PASS, ())
    one = run_check(module, attr, (), 1, tmp_path / "one", capsys)
    two = run_check(module, attr, (), 2, tmp_path / "two", capsys)
    assert one[0] == two[0] and one[1] == two[1], f"{_said(*one)} / {_said(*two)}"
    assert one[2] is not None and two[2] is not None
    assert one[2]["verdict"] == two[2]["verdict"], f"{_said(*one)} / {_said(*two)}"
