"""The versioned protocol: hooks it would silently ignore are refused, removed names
fail naming their replacement, and declared hooks are honoured."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from pla_proof.cli import main
from pla_proof.errors import InputError
from pla_proof.variants import Case, Claim, LinearVariant, Order, Variant, run_case
from pla_proof.variants.catalog.bugs import BUGS
from pla_proof.variants.catalog.registry import BUILTIN, resolve
from pla_proof.variants.protocol.hooks import (
    LINEAR_HOOKS,
    PROTOCOL_VERSION,
    REMOVED_HOOKS,
    VARIANT_HOOKS,
    RemovedName,
    check_hooks,
)


class Misspelled(LinearVariant):
    def trigger(self, w: Any, x: Any, y: int) -> bool:
        return True


class WithVisit(LinearVariant):
    def visit(self, j: int, updated: bool, w: Any) -> None:
        pass


class WithPredict(LinearVariant):
    def predict(self, w: Any, x: Any) -> int:
        return 1


class Future(LinearVariant):
    protocol = PROTOCOL_VERSION + 1


class Written010(LinearVariant):
    protocol = 1


class WithHelpers(LinearVariant):
    """Helpers of its own: private, or named far from any hook."""

    def _trigger(self) -> None:
        pass

    def gram_matrix(self) -> None:
        pass


class PlainWithStep(Variant):
    """A plain Variant may call its own ``step`` from its own ``run``."""

    def step(self) -> None:
        pass


@pytest.mark.parametrize(
    ("cls", "message"),
    [
        (Misspelled, "Misspelled.trigger is not a hook .* did you mean triggers?"),
        (WithVisit, "WithVisit.visit: the variant protocol no longer calls visit .*Record.visits"),
        (WithPredict, "WithPredict.predict is not a hook .* use decision\\(case, output\\)"),
        (Future, f"written for variant protocol version {PROTOCOL_VERSION + 1}"),
    ],
)
def test_a_hook_the_protocol_would_ignore_is_refused(cls: type, message: str) -> None:
    with pytest.raises(InputError, match=message):
        check_hooks(cls())


def test_the_cli_refuses_it_in_one_line_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", f"{__file__}:Misspelled"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "did you mean triggers?" in err[0]


@pytest.mark.parametrize("cls", [Written010, WithHelpers, PlainWithStep])
def test_what_the_protocol_allows_passes(cls: type) -> None:
    check_hooks(cls())


def test_every_built_in_variant_and_seeded_bug_uses_only_hooks() -> None:
    for name in BUILTIN:
        check_hooks(resolve(name))
    for name in BUGS:
        check_hooks(resolve(f"bug:{name}"))


def test_the_hooks_and_the_removed_names_are_disjoint_and_documented() -> None:
    assert not set(REMOVED_HOOKS) & (set(VARIANT_HOOKS) | set(LINEAR_HOOKS))
    docs = (Path(__file__).parents[1] / "docs" / "variants.md").read_text(encoding="utf-8")
    for name in [*VARIANT_HOOKS, *LINEAR_HOOKS, *REMOVED_HOOKS]:
        assert re.search(rf"`[^`\n]*\b{name}\b[^`\n]*`", docs), name


def test_a_removed_name_fails_on_import_naming_its_replacement() -> None:
    replacement = r"check_step was removed .*variants\.evaluate\(claim, record\)"
    with pytest.raises(RemovedName, match=replacement):
        from pla_proof.variants import check_step
    with pytest.raises(RemovedName, match=replacement):
        from pla_proof.variants.harness import check_step  # type: ignore[import-not-found,no-redef]  # noqa: F401
    from pla_proof.variants import Selector
    from pla_proof.variants.protocol import Selector as Selector010  # its 0.1.0 home

    assert Selector010 is Selector


class MarginOwnStep(LinearVariant):
    """Declares tau = 1 and writes its step by hand: the default trigger keeps tau."""

    def tau(self, case: Case) -> Fraction:
        return Fraction(1)

    def step(self, w: Any, x: Any, y: int) -> Any:
        return [y * v for v in x]

    def claim(self, case: Case) -> Claim:
        return Claim(C=case.radius_squared + 2, g=case.gamma, uu=case.uu)


def test_a_declared_tau_is_honoured_beside_a_hand_written_step() -> None:
    # x = 1/2 (label +1): after one update y w.x = 1/4 <= 1, so the run goes on
    case = Case(((Fraction(1, 2),),), (1,), (Fraction(1),), Fraction(1, 2))
    rec, res = run_case(MarginOwnStep(), case, Order("cyclic"))
    assert MarginOwnStep().written_in_python()
    assert rec.updates == 5 and rec.output["w"] == (Fraction(5, 2),)  # 5/4 > 1 at last
    assert all(f is None for f in res.values())
