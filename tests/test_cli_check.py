"""The `pla-proof check` command."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from pla_proof.cli import main
from pla_proof.data import read_csv


def test_passing_variant_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", "classic", "--examples", "10", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert "all 9 properties of the claim hold" in out
    assert not os.listdir(tmp_path)


def test_failing_variant_exits_1_and_saves_a_replayable_counterexample(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--examples", "10", "--shrink-runs", "50", "--out", str(tmp_path)]
    code = main(["check", "bug:doubled-update", *argv])
    out = capsys.readouterr().out
    assert code == 1
    assert "G1         FAIL" in out
    csv = tmp_path / "bug_doubled-update-G1.csv"
    data = read_csv(csv)
    assert data.n == 1  # the shrunk counterexample, readable by read_csv
    replay = tmp_path / "bug_doubled-update-G1.json"
    assert f"pla-proof check bug:doubled-update --replay {replay}" in out
    code = main(["check", "bug:doubled-update", "--replay", str(replay)])
    assert code == 1
    assert "G1       FAIL" in capsys.readouterr().out
    # the same file replayed with the correct variant: every claim holds
    assert main(["check", "classic", "--replay", str(replay)]) == 0


def test_classic_dynamics_failures_print_a_trace_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--examples", "10", "--shrink-runs", "50", "--out", str(tmp_path)]
    assert main(["check", "bug:bound-minus-one", *argv]) == 1
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("trace:"))
    argv = line.split("trace:")[1].split()[1:]  # drop the program name
    assert argv[0] == "trace"
    assert main(argv) == 0  # the run replays (the classic monitor's true bound holds)


def test_json_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["check", "bug:strict-trigger", "--examples", "10", "--json", "--out", str(tmp_path)]
    )
    obj = json.loads(capsys.readouterr().out)
    assert code == 1 and obj["ok"] is False
    sep = next(p for p in obj["properties"] if p["id"] == "SEP")
    assert sep["status"] == "fail" and sep["counterexample"]["points"] == 1
    assert os.path.exists(sep["counterexample"]["csv"])


def test_json_of_several_variants_and_of_float_mode_validates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pla_proof.schemas import validate

    argv = ["check", "classic", "bug:plus-x", "--examples", "10", "--shrink-runs", "30", "--json"]
    assert main([*argv, "--out", str(tmp_path)]) == 1
    obj = json.loads(capsys.readouterr().out)
    validate(obj)
    assert [r["variant"] for r in obj["reports"]] == ["classic", "bug:plus-x"]
    assert obj["ok"] is False and [r["ok"] for r in obj["reports"]] == [True, False]
    assert main(["check", "classic", "--mode", "float", "--examples", "10", "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    validate(obj)
    assert obj["mode"] == "float" and obj["max_missed"] >= 0.0 and obj["seconds"] > 0.0
    # a report that does not say which variant it is does not validate
    with pytest.raises(Exception, match="variant"):
        validate({k: v for k, v in obj.items() if k != "variant"})


def test_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--list"]) == 0
    out = capsys.readouterr().out
    assert "kernel-rbf" in out and "bug:plus-x" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["check", "nonsense"], "unknown variant"),
        (["check", "no_such_mod_q:thing"], "no module named"),
        (["check", "pla_proof.variants.catalog.classic:Missing"], "has no attribute"),
        (["check", "classic", "--examples", "0"], "--examples"),
        (["check", "classic", "--replay", "/no/such.json"], "no such file"),
        (["check"], "give a VARIANT"),
    ],
)
def test_bad_input_exits_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


# --- the shared counterexample database ------------------------------------------------------

RARE_BUG = """
from pla_proof.variants.catalog.classic import Classic


class LargeCoordinates(Classic):
    \"\"\"Doubles the step on a coordinate of 1000 or more: only large data show it.\"\"\"

    name = "test:large-coordinates"
    classic_dynamics = False

    def examples(self):
        return []  # no fixed examples: what is not generated is not run

    def step(self, w, x, y):
        k = 2 if max(abs(v) for v in x) >= 1000 else 1
        return [k * y * v for v in x]


variant = LargeCoordinates()
"""


def _check_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["check", *argv, "--jobs", "1", "--json"])
    return code, json.loads(capsys.readouterr().out)


def _replayed_first(capsys: pytest.CaptureFixture[str], tmp_path: Path, database: str) -> None:
    """A failure one run finds is replayed first by the next run with the same database:
    with one generated example per shard the second run finds nothing by itself, and
    with the database it reports the first run's counterexample as a fixed example."""
    spec = str(tmp_path / "rare.py") + ":variant"
    (tmp_path / "rare.py").write_text(RARE_BUG)
    out = ["--out", str(tmp_path / "ce")]
    code, first = _check_json(
        capsys, spec, "--examples", "20", "--shrink-runs", "100", "--database", database, *out
    )
    assert code == 1 and first["database"]["replayed"] == 0
    failed = {p["id"]: p for p in first["properties"] if p["status"] == "fail"}
    assert "G1" in failed and first["database"]["recorded"] == len(failed)
    # the control: the second run's own search does not find the mistake
    code, alone = _check_json(capsys, spec, "--examples", "1", *out)
    assert code == 0 and alone["ok"]
    code, second = _check_json(capsys, spec, "--examples", "1", "--database", database, *out)
    assert code == 1 and second["database"]["replayed"] == len(failed)
    g1 = next(p for p in second["properties"] if p["id"] == "G1")["counterexample"]
    assert g1["explicit"] is True  # a stored case, run before anything was generated
    assert g1["points"] == failed["G1"]["counterexample"]["points"]
    assert g1["failure"] == failed["G1"]["counterexample"]["failure"]
    # once the variant is fixed, its stored facts no longer fail and are forgotten
    (tmp_path / "rare.py").write_text(RARE_BUG.replace("k = 2 if", "k = 1 if"))
    code, fixed = _check_json(capsys, spec, "--examples", "1", "--database", database, *out)
    assert code == 0 and fixed["database"]["replayed"] == 0
    code, again = _check_json(capsys, spec, "--examples", "1", "--database", database, *out)
    assert code == 0 and again["database"]["replayed"] == 0


def test_a_directory_database_replays_a_failure_first(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _replayed_first(capsys, tmp_path, str(tmp_path / "db"))


@pytest.mark.redis
def test_a_redis_database_replays_a_failure_first(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, redis_url: str
) -> None:
    _replayed_first(capsys, tmp_path, redis_url.rsplit("/", 1)[0] + "/3")


def test_a_read_only_database_replays_but_records_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db, out = str(tmp_path / "db"), ["--out", str(tmp_path / "ce")]
    argv = ["--examples", "5", "--shrink-runs", "20", "--database", db, *out]
    assert main(["check", "bug:plus-x", *argv]) == 1
    capsys.readouterr()
    stored = sorted(os.listdir(db))
    code, obj = _check_json(capsys, "bug:doubled-update", "--read-only", *argv)
    assert code == 1 and obj["database"]["where"].startswith("read-only directory")
    assert sorted(os.listdir(db)) == stored  # nothing written
    assert main(["check", "classic", "--read-only"]) == 2
    assert "--read-only needs --database" in capsys.readouterr().err


def test_several_variants_each_run_in_their_own_mode(capsys: pytest.CaptureFixture[str]) -> None:
    """With several variants (``--all`` too) each is checked in its own mode -- an
    estimator's float weights on enclosures, the exact variants exactly -- as when it is
    checked alone; ``--mode`` sets one mode for all."""
    pytest.importorskip("sklearn")
    argv = ["classic", "sklearn-perceptron", "--examples", "3"]
    code, doc = _check_json(capsys, *argv)
    assert code == 0
    assert [(r["variant"], r["mode"]) for r in doc["reports"]] == [
        ("classic", "exact"),
        ("sklearn-perceptron", "float"),
    ]
    _, doc = _check_json(capsys, *argv, "--mode", "exact")
    assert {r["mode"] for r in doc["reports"]} == {"exact"}


def test_a_counterexample_file_records_its_mode_and_replays_in_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["check", "bug:doubled-update", "--examples", "30", "--out", str(tmp_path)]
    assert main([*argv, "--mode", "float"]) == 1
    capsys.readouterr()
    path = tmp_path / "bug_doubled-update-G1.json"
    doc = json.loads(path.read_text())
    assert doc["mode"] == "float"
    code = main(["check", "bug:doubled-update", "--replay", str(path), "--json"])
    assert code == 1 and json.loads(capsys.readouterr().out)["mode"] == "float"
    doc["mode"] = "fuzzy"  # a damaged file is refused, not replayed in some other mode
    path.write_text(json.dumps(doc))
    assert main(["check", "bug:doubled-update", "--replay", str(path)]) == 2
    assert "unknown mode 'fuzzy'" in capsys.readouterr().err


def test_the_commands_default_examples_is_the_searchs() -> None:
    """One fact written twice (so that building the parser stays light): kept equal."""
    from pla_proof.cli.check import DEFAULT_EXAMPLES as CLI
    from pla_proof.variants.checking.shard import DEFAULT_EXAMPLES

    assert CLI == DEFAULT_EXAMPLES
