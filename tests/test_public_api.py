import subprocess
import sys

import pla_proof


def test_every_public_name_resolves() -> None:
    for name in pla_proof.__all__:
        assert getattr(pla_proof, name) is not None, name


def test_import_stays_light() -> None:
    code = (
        "import sys, pla_proof; "
        "print(sorted(m for m in ('scipy', 'z3', 'hypothesis') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_unknown_attribute_is_an_attribute_error() -> None:
    try:
        pla_proof.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("expected AttributeError")
