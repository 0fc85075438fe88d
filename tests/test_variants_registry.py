"""Errors in the user's code are the user's: a variant or --fit file that does not
import, or whose constructor raises, exits 2 with one line naming the file, the line
and the error; exit 4 stays for pla_proof's own bugs."""

from __future__ import annotations

from pathlib import Path

import pytest

from pla_proof.cli import main
from pla_proof.errors import InputError
from pla_proof.testing import check_variant

FILES = {
    "syntax.py": (
        "from pla_proof.variants import LinearVariant\n\nclass V(LinearVariant:\n    pass\n",
        3,
        "SyntaxError",
    ),
    "removed.py": (
        "from pla_proof.variants import LinearVariant, check_step\n\nV = 1\n",
        1,
        "RemovedName: pla_proof.variants.check_step was removed",
    ),
    "old_selector.py": (
        "import math\nfrom pla_proof.variants import NoSuchHelper\n",
        2,
        "ImportError: cannot import name 'NoSuchHelper'",
    ),
    "at_import.py": (
        "import math\n\nraise RuntimeError('no data directory')\n",
        3,
        "RuntimeError: no data directory",
    ),
    "missing.py": (
        "import no_such_package_for_pla\n",
        1,
        "ModuleNotFoundError: No module named 'no_such_package_for_pla'",
    ),
    "constructor.py": (
        "from pla_proof.variants import LinearVariant\n\nclass V(LinearVariant):\n"
        "    def __init__(self):\n        raise ValueError('needs a config file')\n",
        5,
        "ValueError: needs a config file",
    ),
}


@pytest.mark.parametrize("name", sorted(FILES))
def test_an_error_in_a_variant_file_exits_2_naming_file_line_and_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    text, line, error = FILES[name]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert main(["check", f"{path}:V"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert f"{path}:{line}: {error}" in err[0]
    assert "internal error" not in err[0] and "bug in pla_proof" not in err[0]


def test_an_error_in_a_fit_file_exits_2_the_same_way(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "model.py"
    path.write_text("import numpy as np\n\nclass P:\n    def fit(self, X, y)\n", encoding="utf-8")
    assert main(["check", "--fit", f"{path}:P"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{path}:4: SyntaxError: expected ':'" in err[0]


def test_check_variant_raises_the_same_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "at_import.py"
    path.write_text(FILES["at_import.py"][0], encoding="utf-8")
    with pytest.raises(InputError, match=r"at_import\.py:3: RuntimeError: no data directory"):
        check_variant(f"{path}:V")


def test_an_importable_module_that_raises_names_its_own_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pkg = tmp_path / "mylab"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "variants.py").write_text("x = 1\ny = 1 / 0\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["check", "mylab.variants:V"]) == 2
    err = capsys.readouterr().err
    assert "mylab/variants.py:2: ZeroDivisionError: division by zero" in err


def test_a_bug_of_pla_proofs_own_still_exits_4(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import pla_proof.variants.catalog.registry as registry

    def broken(spec: str) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr(registry, "resolve", broken)
    assert main(["check", "classic"]) == 4
    assert "internal error: KeyError" in capsys.readouterr().err
