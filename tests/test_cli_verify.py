"""``pla-proof verify``: the blueprint, its JSON, and the exit code."""

from __future__ import annotations

import json

import pytest

from pla_proof.cli import main
from pla_proof.cli import verify as verify_cmd
from pla_proof.proof.obligations import all_obligations, implication
from pla_proof.proof.statements import n1, rel


def test_json_reports_every_obligation_proved(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["all_proved"] is True
    assert len(data["obligations"]) == len(all_obligations())
    for ob in data["obligations"]:
        assert {"id", "statement", "depends_on", "checker", "status", "seconds"} <= set(ob)
        assert ob["status"] == "proved"
        assert isinstance(ob["seconds"], float) and ob["seconds"] >= 0
    checkers = {(ob["checker"], ob["scope"]) for ob in data["obligations"]}
    assert ("sympy", "general d") in checkers and ("z3", "reals") in checkers
    assert data["trusted_axioms"] == [] and data["ok"] is True
    assert set(data["trusted"]) == {"sympy", "z3", "induction", "coq"}
    assert data["coverage"]["ok"] is True
    assert data["chain"]["ok"] is True and data["chain"]["undischarged"] == []
    by_id = {ob["id"]: ob for ob in data["obligations"]}
    sources = by_id["L3.step"]["hypotheses"]
    assert [(h["kind"], h["source"], h["renaming"]) for h in sources] == [
        ("domain", "DOM.step", ""),
        ("conclusion", "L3", "previous update"),
        ("conclusion", "L2", "same"),
    ]
    assert sources[1]["hypothesis"] == "u·w_k ≥ (k − 1)·g"
    for ob in data["obligations"]:
        assert all(h["kind"] != "undischarged" for h in ob["hypotheses"]), ob["id"]


def test_text_blueprint_ends_with_the_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify"]) == 0
    out = capsys.readouterr().out.rstrip().splitlines()
    assert out[-1].startswith("verdict: all") and "obligations proved" in out[-1]
    text = "\n".join(out)
    for needle in ("L3.base", "L3.step", "chain: all", "sympy (general d)", "z3 (reals)",
                   "no trusted axiom", "u·w_{k+1} ≥ k·g"):  # fmt: skip
        assert needle in text


def test_only_selects_obligations(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--json", "--only", "L7*", "--only", "Q_G.*"]) == 0
    ids = [ob["id"] for ob in json.loads(capsys.readouterr().out)["obligations"]]
    assert ids == ["L7.base", "L7.step", "Q_G.base", "Q_G.step"]


def test_bad_options_are_input_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--only", "NOPE"]) == 2
    assert "no obligation matches" in capsys.readouterr().err
    assert main(["verify", "--timeout", "0"]) == 2
    assert "--timeout" in capsys.readouterr().err


def test_an_unproved_obligation_exits_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = implication("WRONG", "T", [rel(n1, ">=", 0)], rel(n1, ">", 0))
    monkeypatch.setattr(verify_cmd, "all_obligations", lambda: (*all_obligations(), wrong))
    assert main(["verify", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["all_proved"] is False
    assert data["obligations"][-1]["status"] == "refuted"
    assert main(["verify"]) == 1
    out = capsys.readouterr().out
    assert "NOT proved: WRONG (refuted)" in out and "counterexample: n1 = 0" in out
