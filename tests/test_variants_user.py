"""A variant written from the docs' example is checked without editing the library."""

from __future__ import annotations

import os
import re

from checking import budget, cli_budget

from pla_proof.cli import main
from pla_proof.examples import path
from pla_proof.testing import check_variant
from pla_proof.variants import resolve, search

HERE = os.path.dirname(__file__)
EXAMPLE = str(path("half_step_margin.py"))
DOCS = os.path.join(HERE, os.pardir, "docs", "variants.md")


def test_docs_example_is_the_tested_file() -> None:
    with open(DOCS, encoding="utf-8") as fh:
        docs = fh.read()
    blocks = re.findall(r"```python\n(.*?)```", docs, flags=re.S)
    with open(EXAMPLE, encoding="utf-8") as fh:
        source = fh.read()
    assert source in blocks


def test_user_variant_loads_by_path_and_passes() -> None:
    v = resolve(f"{EXAMPLE}:variant")
    assert v.name == "half-step-margin"
    assert check_variant(v, **budget(10)).ok


def test_user_variant_via_the_command_line(tmp_path: object, capsys: object) -> None:
    argv = ["check", f"{EXAMPLE}:HalfStepMargin", *cli_budget(10), "--out", str(tmp_path)]
    code = main([*argv, "--jobs", "1"])
    assert code == 0


def test_a_wrong_user_claim_is_refuted() -> None:
    v = resolve(f"{EXAMPLE}:variant")
    original = type(v).claim

    class Wrong(type(v)):  # type: ignore[misc]
        def claim(self, case):  # type: ignore[no-untyped-def]
            c = original(self, case)
            return type(c)(C=case.radius_squared / 4, g=c.g, uu=c.uu)  # forgot the margin term

    report = search(Wrong(), **budget(10, 50))
    assert not report.result("G1").ok
