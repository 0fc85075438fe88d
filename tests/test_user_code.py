"""One boundary for users' code: what every misbehaviour of a variant's hook, or of a
``fit(X, y)`` class's method, gets from ``pla-proof check`` (docs/variants.md, "What your
code's mistakes get").

Each row writes a small variant (or fit class) file into ``tmp_path`` that is correct but
for ONE hook misbehaving ONE way -- it raises, returns the wrong type or the wrong shape,
or never returns -- and checks it:

* in a run (``run``, ``claim``, ``step``, ``triggers``, ``score``, ``eta``, ``tau``,
  ``start``, ``factors``, ``strict_trigger``, ``after_run``, ``decision``, ``budget``;
  ``fit``, ``predict``, the fitted-weights getter): a ``RUNS`` failure (exit 1), or
  ``ENDS`` for a hook that never returns;
* before any run (``cases``, ``domain``, ``accepts``, ``examples``, ``orders``; a fit
  class's ``__init__``): exit 2 with one line on stderr;
* never exit 4 ("a bug in pla_proof"); the message names the hook and the user's file and
  line, and for a wrong type what was expected.

Every file carries ``BROKEN = True``; the same file with ``BROKEN = False`` is the row's
control and passes (exit 0), so no row passes by accident.  Hooks that never return run in
a subprocess (``--run-seconds 1`` under ``--time-limit 60``), as do the tests that no
process of the check outlives the command.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pla_proof.cli import main

ROOT = Path(__file__).resolve().parents[1]
#: a small, fast check (the report does not depend on --jobs)
FAST = ["--examples", "5", "--seed", "0", "--jobs", "1", "--shrink-runs", "5"]
#: seconds a never-returning hook may cost the whole command (its --time-limit is 60)
HANG_SECONDS = 30.0
INTERNAL = ("bug in pla_proof", "internal error")

# --- the files ---------------------------------------------------------------------------------

VARIANT_HEAD = '''\
"""A user's variant: the classic Perceptron, one hook written by hand."""

import json
import os
import sys
import time
from fractions import Fraction

from hypothesis import strategies as st

from pla_proof.variants import Claim, LinearVariant, Record

BROKEN = {broken}


def _dot(a, b):
    return sum((p * q for p, q in zip(a, b)), Fraction(0))


class V(LinearVariant):
    name = "mine"
    summary = "y w.x <= 0 -> w += y x: (C, g) = (R^2, gamma)"
'''

CLAIM = """\
def claim(self, case):
    return Claim(C=case.radius_squared, g=case.gamma, uu=case.uu)
"""

FIT_FILE = '''\
"""A user's Perceptron in the scikit-learn style."""

import sys
import time

import numpy as np

BROKEN = {broken}


class P:
    def __init__(self, n_iter=1000):
{init}        self.n_iter = n_iter
        self._w = None
        self._b = 0.0

    def fit(self, X, y):
{fit}        X = np.asarray(X, dtype=float)
        self._w = np.zeros(X.shape[1])
        self._b = 0.0
        for _ in range(self.n_iter):
            errors = 0
            for xi, yi in zip(X, y):
                if yi * (xi @ self._w + self._b) <= 0:
                    self._w = self._w + yi * xi
                    self._b += yi
                    errors += 1
            if errors == 0:
                break
        return self

    @property
    def coef_(self):
{coef_}        return self._w

    @property
    def intercept_(self):
        return self._b

    def predict(self, X):
{predict}        return np.where(np.asarray(X, dtype=float) @ self._w + self._b > 0, 1, -1)
'''


@dataclass(frozen=True)
class Hook:
    """One hook: its method (the correct body last), when it is called, and its wrong
    values (``type``/``shape``: a statement, ``expects``: what a message must say)."""

    name: str
    code: str  # the method, with {bad} where the misbehaviour goes
    phase: str  # "run" (RUNS/ENDS, exit 1), "before" (exit 2) or "either"
    type: str | None = "return None"
    shape: str | None = None
    expects: str = ""


def _m(sig: str, body: str, prop: bool = False) -> str:
    deco = "@property\n" if prop else ""
    return f"{deco}def {sig}:\n    if BROKEN:\n        {{bad}}  # HERE\n    {body}\n"


HOOKS = {
    h.name: h
    for h in [
        Hook(
            "run",
            _m("run(self, case, order)", "return super().run(case, order)"),
            "run",
            shape="rec = super().run(case, order); rec.output['w'] += (Fraction(1),); return rec",
            expects="Record",
        ),
        Hook(
            "claim",
            _m(
                "claim(self, case)",
                "return Claim(C=case.radius_squared, g=case.gamma, uu=case.uu)",
            ),
            "run",
            expects="expected a Claim",
        ),
        Hook(
            "cases",
            _m("cases(self)", "return super().cases()"),
            "before",
            shape="return st.just(5)",
            expects="expected a Hypothesis strategy of Case",
        ),
        Hook("domain", _m("domain(self, base)", "return base"), "before", expects="strategy"),
        Hook("accepts", _m("accepts(self, case)", "return True"), "before", expects="bool"),
        Hook(
            "examples",
            _m("examples(self)", "return super().examples()"),
            "before",
            shape="return [5]",
            expects="Case",
        ),
        Hook("orders", _m("orders(self)", "return super().orders()"), "before", expects="Order"),
        Hook(
            "decision",
            _m("decision(self, case, output)", "return [_dot(output['w'], x) for x in case.X]"),
            "run",
            type="return 42",
            shape="return [_dot(output['w'], x) for x in case.X] + [Fraction(1)]",
        ),
        Hook(
            "step",
            _m("step(self, w, x, y)", "return [y * v for v in x]"),
            "run",
            shape="return [y * v for v in x] + [Fraction(0)]",
        ),
        Hook(
            "triggers",
            _m("triggers(self, w, x, y)", "return y * _dot(w, x) <= 0"),
            "run",
            expects="bool",
        ),
        Hook("score", _m("score(self, w, x, y)", "return y * _dot(w, x)"), "run"),
        Hook("eta", _m("eta(self, case)", "return Fraction(1)"), "run"),
        Hook("tau", _m("tau(self, case)", "return Fraction(0)"), "run"),
        Hook(
            "start",
            _m("start(self, case)", "return [Fraction(0)] * case.d"),
            "run",
            shape="return [Fraction(0)] * (case.d + 1)",
        ),
        Hook(
            "factors",
            _m("factors(self, case)", "return None"),
            "run",
            type="return 'fast'",
            shape="return (Fraction(1),) * (case.n + 1)",
        ),
        Hook(
            "after_run",
            _m("after_run(self, case, order, record)", "return None"),
            "run",
            type=None,
        ),
        Hook(
            "budget",
            _m("budget(self, case)", "return super().budget(case)"),
            "run",
            shape="return (10, True, 3)",
        ),
        Hook(
            "strict_trigger",
            _m("strict_trigger(self, case)", "return False"),
            "run",
            type="return 'strict'",
            shape="return (False,) * (case.n + 1)",
        ),
        Hook("parameters", _m("parameters(self)", "return {}", prop=True), "either", "return 5"),
        Hook("assumes", _m("assumes(self)", "return ()", prop=True), "either", "return 5"),
    ]
}

#: the fitted weights as the user names them (its getters are properties, read when named)
FIT_ARGS = ["--weights", "coef_", "--bias", "intercept_"]
FIT_HOOKS = {"__init__": "before", "fit": "run", "predict": "run", "coef_": "run"}
FIT_WRONG = {
    ("predict", "type"): "return None",
    ("predict", "shape"): "return np.ones(len(X) + 1)",
    ("coef_", "type"): "return None",
    ("coef_", "shape"): "return np.zeros(len(self._w) + 1)",
}

MISBEHAVIOUR = {
    "raise": "raise ValueError('a mistake of mine')",
    "loop": "while True: pass",
    "sleep": "time.sleep(10**6)",
}


def _indent(text: str, by: int) -> str:
    return textwrap.indent(text, " " * by)


def variant_source(hook: str, bad: str, broken: bool = True) -> str:
    """The variant file: :data:`VARIANT_HEAD`, the claim, and ``hook`` misbehaving with
    the statement ``bad`` when ``BROKEN``."""
    h = HOOKS[hook]
    methods = [] if hook == "claim" else [CLAIM]
    methods.append(h.code.replace("{bad}", bad))
    body = "\n".join(_indent(m, 4) for m in methods)
    return VARIANT_HEAD.format(broken=broken) + "\n" + body


def fit_source(method: str, bad: str, broken: bool = True) -> str:
    slots = {"init": "", "fit": "", "coef_": "", "predict": ""}
    key = "init" if method == "__init__" else method
    slots[key] = f"        if BROKEN:\n            {bad}  # HERE\n"
    return FIT_FILE.format(broken=broken, **slots)


_COUNTER = iter(range(10**6))


def write(tmp_path: Path, source: str) -> Path:
    """A file with a neutral name (the hook's name must come from the message)."""
    path = tmp_path / f"mine{next(_COUNTER)}_{os.getpid()}.py"
    path.write_text(source, encoding="utf-8")
    return path


def marked_line(source: str) -> int:
    return next(i for i, line in enumerate(source.splitlines(), 1) if "# HERE" in line)


def def_line(source: str, hook: str) -> int:
    pat = re.compile(rf"^\s*def {re.escape(hook)}\(")
    return next(i for i, line in enumerate(source.splitlines(), 1) if pat.match(line))


# --- running the check -------------------------------------------------------------------------


@dataclass
class Outcome:
    code: int
    out: str
    err: str
    seconds: float = 0.0

    def doc(self) -> dict[str, Any]:
        doc: dict[str, Any] = json.loads(self.out)
        return doc

    def prop(self, pid: str) -> dict[str, Any]:
        return next(p for p in self.doc()["properties"] if p["id"] == pid)

    def failed(self) -> list[str]:
        return [p["id"] for p in self.doc()["properties"] if p["status"] == "fail"]

    def message(self, pid: str) -> str:
        """The failure's description and its other causes, as one text."""
        p = self.prop(pid)
        ce = p.get("counterexample") or {}
        parts = [(ce.get("failure") or {}).get("description", "")]
        parts += [json.dumps(c) for c in p.get("other_causes") or []]
        return "\n".join(parts)


def check(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, target: list[str], *extra: str
) -> Outcome:
    """``pla-proof check ... --json`` in this process."""
    code = main(["check", *target, *FAST, "--json", "--out", str(tmp_path / "ce"), *extra])
    got = capsys.readouterr()
    return Outcome(code, got.out, got.err)


def check_process(
    tmp_path: Path,
    target: list[str],
    *extra: str,
    env: dict[str, str] | None = None,
    timeout: float = HANG_SECONDS,
) -> Outcome:
    """``python -m pla_proof check ...`` in a subprocess of its own session; killed (with
    everything in its process group) if it is not done after ``timeout`` seconds."""
    argv = [sys.executable, "-m", "pla_proof", "check", *target, "--out", str(tmp_path / "ce")]
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    full_env.update(env or {})
    t0 = time.monotonic()
    proc = subprocess.Popen(
        [*argv, *extra],
        cwd=tmp_path,
        env=full_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc.pid)
        out, err = proc.communicate()
        pytest.fail(f"the check was still running after {timeout:g} s (killed): {err[-500:]}")
    return Outcome(proc.returncode, out, err, time.monotonic() - t0)


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)


def assert_user_error_line(o: Outcome, fragments: list[str]) -> None:
    """Exit 2 with one line on stderr holding every fragment."""
    lines = o.err.strip().splitlines()
    assert o.code == 2, (o.code, o.err[-800:])
    assert len(lines) == 1, lines
    for f in fragments:
        assert f in lines[0], (f, lines[0])
    assert not any(s in lines[0] for s in INTERNAL), lines[0]


def names_hook(text: str, hook: str) -> bool:
    """``hook()`` or ``Class.hook`` in the text; a fit class's method by its name (not
    the ``--fit`` option)."""
    if hook in FIT_HOOKS:
        return re.search(rf"(?<![-\w]){re.escape(hook)}(?!\w)", text) is not None
    return f"{hook}()" in text or f".{hook}" in text


def assert_not_internal(o: Outcome) -> None:
    assert o.code != 4, o.err[-800:]
    assert not any(s in o.err for s in INTERNAL), o.err[-800:]


# --- 1. an exception, a wrong type, a wrong shape -----------------------------------------------


def _rows() -> Iterator[Any]:
    for name, h in HOOKS.items():
        yield pytest.param(name, "raise", id=f"{name}-raise")
        if h.type is not None:
            yield pytest.param(name, "type", id=f"{name}-type")
        if h.shape is not None:
            yield pytest.param(name, "shape", id=f"{name}-shape")


def _bad(hook: str, kind: str) -> str:
    h = HOOKS[hook]
    if kind == "raise":
        return MISBEHAVIOUR["raise"]
    bad = h.type if kind == "type" else h.shape
    assert bad is not None
    return bad


@pytest.mark.parametrize(("hook", "kind"), list(_rows()))
def test_a_hook_that_raises_or_returns_the_wrong_thing_is_the_users_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], hook: str, kind: str
) -> None:
    h = HOOKS[hook]
    source = variant_source(hook, _bad(hook, kind))
    path = write(tmp_path, source)
    o = check(capsys, tmp_path, [f"{path}:V"])
    assert_not_internal(o)
    here = marked_line(source)
    lines = {here} if kind == "raise" else {here, def_line(source, hook)}
    where = [f"{path.name}:{n}" for n in sorted(lines)]
    phase = h.phase
    if phase == "either":
        phase = "before" if o.code == 2 else "run"
    if phase == "before":
        assert o.code == 2, (o.code, o.err[-800:])
        text = o.err.strip()
        assert len(text.splitlines()) == 1, text
    else:
        assert o.code == 1, (o.code, o.err[-800:])
        assert "RUNS" in o.failed(), o.failed()
        assert o.prop("RUNS")["status"] == "fail"
        text = o.message("RUNS")
    assert names_hook(text, hook), text
    assert any(w in text for w in where), (where, text)
    if kind == "raise":
        assert "ValueError: a mistake of mine" in text, text
    if kind == "type":
        wrong = _bad(hook, kind).split("return ", 1)[1]
        shown = (wrong, type(ast.literal_eval(wrong)).__name__)
        assert any(f"returned {s}" in text for s in shown), (shown, text)
        assert "expected" in text, text
        if h.expects:
            assert h.expects in text, text


@pytest.mark.parametrize("hook", list(HOOKS))
def test_the_same_file_without_the_misbehaviour_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], hook: str
) -> None:
    """The control of every row above: ``BROKEN = False``."""
    path = write(tmp_path, variant_source(hook, MISBEHAVIOUR["raise"], broken=False))
    o = check(capsys, tmp_path, [f"{path}:V"])
    assert o.code == 0, (o.code, o.err[-800:], o.out[-800:])
    assert o.doc()["verdict"] == "pass" and o.doc()["runs"] > 0


def test_the_message_names_the_users_line_not_the_librarys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An exception raised inside a library the hook calls is placed at the hook's line
    (the innermost frame in the user's file), not in the library's (json/decoder.py)."""
    source = variant_source("step", "return [json.loads('{') * v for v in x]")
    path = write(tmp_path, source)
    o = check(capsys, tmp_path, [f"{path}:V"])
    assert o.code == 1 and "RUNS" in o.failed(), (o.code, o.err[-800:])
    text = o.message("RUNS")
    assert names_hook(text, "step") and f"{path.name}:{marked_line(source)}" in text, text
    assert "decoder.py" not in text, text


@pytest.mark.parametrize(
    ("method", "kind"),
    [
        ("__init__", "raise"),
        ("fit", "raise"),
        ("predict", "raise"),
        ("predict", "type"),
        ("predict", "shape"),
        ("coef_", "raise"),
        ("coef_", "type"),
        ("coef_", "shape"),
    ],
)
def test_a_fit_class_that_raises_or_returns_the_wrong_thing_is_the_users_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], method: str, kind: str
) -> None:
    bad = MISBEHAVIOUR["raise"] if kind == "raise" else FIT_WRONG[(method, kind)]
    source = fit_source(method, bad)
    path = write(tmp_path, source)
    o = check(capsys, tmp_path, ["--fit", f"{path}:P", *FIT_ARGS])
    assert_not_internal(o)
    here = marked_line(source)
    where = {f"{path.name}:{here}", f"{path.name}:{def_line(source, method)}"}
    if kind == "raise":
        where = {f"{path.name}:{here}"}
    if FIT_HOOKS[method] == "before":
        assert o.code == 2, (o.code, o.err[-800:])
        text = o.err.strip()
        assert len(text.splitlines()) == 1, text
    else:
        assert o.code == 1, (o.code, o.err[-800:])
        assert "RUNS" in o.failed(), o.failed()
        text = o.message("RUNS")
    assert names_hook(text, method), text
    assert any(w in text for w in where), (where, text)
    if kind == "raise":
        assert "ValueError: a mistake of mine" in text, text
    if kind == "type":
        assert "returned None" in text and "expected" in text, text


def test_the_fit_class_without_the_misbehaviour_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, fit_source("fit", MISBEHAVIOUR["raise"], broken=False))
    o = check(capsys, tmp_path, ["--fit", f"{path}:P", *FIT_ARGS])
    assert o.code == 0, (o.code, o.err[-800:], o.out[-1500:])
    assert o.doc()["verdict"] == "pass" and o.doc()["runs"] > 0


# --- 2. a hook that never returns ---------------------------------------------------------------

HANGS = [pytest.param(name, "loop", id=f"{name}-loop") for name in HOOKS] + [
    pytest.param(name, "sleep", id=f"{name}-sleep") for name in ("claim", "step", "cases")
]


@pytest.mark.parametrize(("hook", "kind"), HANGS)
def test_a_hook_that_never_returns_is_stopped_by_the_per_run_limit(
    tmp_path: Path, hook: str, kind: str
) -> None:
    path = write(tmp_path, variant_source(hook, MISBEHAVIOUR[kind]))
    o = _hang_check(tmp_path, [f"{path}:V"])
    _assert_stopped(o, hook, HOOKS[hook].phase)


@pytest.mark.parametrize(
    ("method", "kind"),
    [
        ("__init__", "loop"),
        ("fit", "loop"),
        ("fit", "sleep"),
        ("predict", "loop"),
        ("coef_", "loop"),
    ],
)
def test_a_fit_method_that_never_returns_is_stopped_by_the_per_run_limit(
    tmp_path: Path, method: str, kind: str
) -> None:
    path = write(tmp_path, fit_source(method, MISBEHAVIOUR[kind]))
    o = _hang_check(tmp_path, ["--fit", f"{path}:P", *FIT_ARGS])
    _assert_stopped(o, method, FIT_HOOKS[method])


def _hang_check(tmp_path: Path, target: list[str]) -> Outcome:
    return check_process(
        tmp_path,
        target,
        *FAST,
        "--json",
        "--run-seconds",
        "0.1",  # the symbolic reading of the rule gets ten times that
        "--time-limit",
        "60",
    )


def _assert_stopped(o: Outcome, hook: str, phase: str) -> None:
    assert_not_internal(o)
    assert o.code != 3, f"stopped by --time-limit, not the per-run limit: {o.err[-500:]}"
    assert o.seconds < HANG_SECONDS
    if phase == "either":
        phase = "before" if o.code == 2 else "run"
    if phase == "before":
        assert o.code == 2, (o.code, o.err[-800:])
        lines = o.err.strip().splitlines()
        assert len(lines) == 1 and names_hook(lines[0], hook), lines
    else:
        assert o.code == 1, (o.code, o.err[-800:])
        assert "ENDS" in o.failed(), o.failed()


# --- 3. no process of the check outlives the command --------------------------------------------

PID_VARIANT = """\
import os
import time
from fractions import Fraction

from pla_proof.variants import Claim, LinearVariant

SLEEP = {sleep}


def _note():
    with open(os.environ["PLA_PROOF_TEST_PIDS"], "a", encoding="utf-8") as fh:
        fh.write(f"{{os.getpid()}}\\n")


class V(LinearVariant):
    name = "pids"

    def {hook}:
        _note()
        while SLEEP:
            time.sleep(1000)
        return {result}
"""


def _pids(file: Path) -> set[int]:
    if not file.exists():
        return set()
    return {int(t) for t in file.read_text(encoding="utf-8").split()}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - another user's process took the id
        return False
    try:  # a zombie (exited, not yet reaped by its parent) counts as gone
        with open(f"/proc/{pid}/stat", encoding="utf-8") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _survivors(pids: set[int], wait: float = 3.0) -> set[int]:
    deadline = time.monotonic() + wait
    alive = {p for p in pids if _alive(p)}
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = {p for p in alive if _alive(p)}
    for p in alive:  # clean up what this test started before failing
        with contextlib.suppress(ProcessLookupError):
            os.kill(p, signal.SIGKILL)
    return alive


@pytest.mark.parametrize(
    ("hook", "result", "codes"),
    [
        ("step(self, w, x, y)", "[y * v for v in x]", (1, 3)),  # in a run
        ("claim(self, case)", "Claim(C=case.radius_squared, g=case.gamma, uu=case.uu)", (1, 3)),
        ("cases(self)", "super().cases()", (2, 3)),  # before any run
    ],
    ids=["step", "claim", "cases"],
)
def test_no_process_of_the_check_outlives_a_hook_that_never_returns(
    tmp_path: Path, hook: str, result: str, codes: tuple[int, ...]
) -> None:
    pids = tmp_path / "pids.txt"
    path = write(tmp_path, PID_VARIANT.format(sleep=True, hook=hook, result=result))
    o = check_process(
        tmp_path,
        [f"{path}:V"],
        "--examples",
        "5",
        "--seed",
        "0",
        "--jobs",
        "2",
        "--time-limit",
        "1",  # (the check ends 10 s past it: its budget's slack)
        "--run-seconds",
        "60",
        env={"PLA_PROOF_TEST_PIDS": str(pids)},
    )
    assert_not_internal(o)
    assert o.code in codes, (o.code, o.err[-800:])
    seen = _pids(pids)
    assert seen, "the hook never ran"
    assert not _survivors(seen), f"still running after the command returned: {seen}"


def test_a_passing_check_with_two_jobs_leaves_no_process(tmp_path: Path) -> None:
    pids = tmp_path / "pids.txt"
    result = "Claim(C=case.radius_squared, g=case.gamma, uu=case.uu)"
    path = write(tmp_path, PID_VARIANT.format(sleep=False, hook="claim(self, case)", result=result))
    o = check_process(
        tmp_path,
        [f"{path}:V"],
        "--examples",
        "5",
        "--seed",
        "0",
        "--jobs",
        "2",
        env={"PLA_PROOF_TEST_PIDS": str(pids)},
    )
    assert o.code == 0, (o.code, o.err[-800:])
    seen = _pids(pids)
    assert seen
    assert not _survivors(seen), f"still running after the command returned: {seen}"


# --- 4. a hook that asserts its own domain ------------------------------------------------------

NORMALISED = '''\
"""Normalised updates w += y x/|x| on points of rational norm, written by hand."""

import math
import os
from fractions import Fraction

from pla_proof.variants import Claim, LinearVariant
from pla_proof.variants.cases import normalisable_cases

WRONG = {wrong}
ASSERT_IN = {where!r}


def _inside(ok, hook):
    if not ok:  # noted where the test can see it, even if the exception is swallowed
        with open(os.environ["PLA_PROOF_TEST_OUTSIDE"], "a", encoding="utf-8") as fh:
            fh.write(hook + "\\n")
    return ok


def _dot(a, b):
    return sum((p * q for p, q in zip(a, b)), Fraction(0))


def _rational_norm(x):
    v = Fraction(_dot(x, x))
    return all(math.isqrt(a) ** 2 == a for a in (v.numerator, v.denominator))


def _norm(x):
    v = Fraction(_dot(x, x))
    return Fraction(math.isqrt(v.numerator), math.isqrt(v.denominator))


class HandNormalised(LinearVariant):
    name = "hand-normalised"
    summary = "y w.x <= 0 -> w += y x/|x|: (C, g) = (1, min y u.x/|x|)"

    def cases(self):
        return normalisable_cases()

    def accepts(self, case):
        return all(_rational_norm(x) for x in case.X)

    def triggers(self, w, x, y):
        if ASSERT_IN == "triggers":
            assert _inside(_rational_norm(x), "triggers"), "x must have a rational norm"
        return y * _dot(w, x) <= 0

    def step(self, w, x, y):
        if ASSERT_IN == "step":
            assert _inside(_rational_norm(x), "step"), "x must have a rational norm"
        r = _norm(x)
        return [y * v / r for v in x]

    def claim(self, case):
        if ASSERT_IN == "claim":
            ok = all(_rational_norm(x) for x in case.X)
            assert _inside(ok, "claim"), "every x must have a rational norm"
        g = min(yi * _dot(case.u, x) / _norm(x) for x, yi in zip(case.X, case.y))
        C = Fraction(1, 4) if WRONG else Fraction(1)
        return Claim(C=C, g=g, uu=case.uu)
'''


@pytest.mark.parametrize("where", ["step", "triggers", "claim"])
@pytest.mark.parametrize("wrong", [False, True], ids=["correct", "wrong-claim"])
def test_a_hook_that_asserts_its_domain_is_never_called_outside_it(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    where: str,
    wrong: bool,
) -> None:
    outside = tmp_path / "outside.txt"
    monkeypatch.setenv("PLA_PROOF_TEST_OUTSIDE", str(outside))
    path = write(tmp_path, NORMALISED.format(wrong=wrong, where=where))
    o = check(capsys, tmp_path, [f"{path}:HandNormalised"])
    assert_not_internal(o)
    assert not outside.exists(), f"called outside its domain: {outside.read_text()}"
    doc = o.doc()
    assert doc["runs"] > 0 and doc["skipped"] == 0, (doc["runs"], doc["skip_reasons"])
    if wrong:
        assert o.code == 1, (o.code, o.err[-800:])
        assert "RUNS" not in o.failed() and "G1" in o.failed(), o.failed()
        assert o.prop("G1").get("counterexample"), o.prop("G1")
    else:
        assert o.code == 0, (o.code, o.failed(), o.err[-800:])
    proof = doc["proof"]
    assert proof["status"] != "proved", proof
    if proof["status"] == "not declarative":
        assert proof["reason"] and "tested, not proved" in proof["description"], proof
        assert "AssertionError" not in proof["reason"], proof  # read inside the domain only


# --- 5. the user's prints never break --json -----------------------------------------------------

PRINTING = {
    "claim": "print('claim for', case.n, 'points')",
    "step": "print('updating on', x)",
    "triggers": "print('margin', y * _dot(w, x))",
    "cases": "print('drawing my cases')",
}


def _printing_variant(prints: bool) -> str:
    src = VARIANT_HEAD.format(broken=prints)
    methods = [
        "def claim(self, case):\n    if BROKEN:\n        "
        + PRINTING["claim"]
        + "\n    return Claim(C=case.radius_squared, g=case.gamma, uu=case.uu)\n",
        "def step(self, w, x, y):\n    if BROKEN:\n        "
        + PRINTING["step"]
        + "\n    return [y * v for v in x]\n",
        "def triggers(self, w, x, y):\n    if BROKEN:\n        "
        + PRINTING["triggers"]
        + "\n    return y * _dot(w, x) <= 0\n",
        "def cases(self):\n    if BROKEN:\n        "
        + PRINTING["cases"]
        + "\n    return super().cases()\n",
    ]
    body = "\n".join(_indent(m, 4) for m in methods)
    return src + "\n" + body + "\n\nif BROKEN:\n    print('loaded my variant')\n"


def _verdict(o: Outcome) -> tuple[int, str, list[str]]:
    doc = o.doc()  # raises when stdout is not one JSON document
    return o.code, doc["verdict"], o.failed()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_variant_that_prints_keeps_json_clean(tmp_path: Path, jobs: str) -> None:
    quiet = write(tmp_path, _printing_variant(False))
    loud = write(tmp_path, _printing_variant(True))
    argv = ["--examples", "5", "--seed", "0", "--jobs", jobs, "--json"]
    q = check_process(tmp_path, [f"{quiet}:V"], *argv)
    n = check_process(tmp_path, [f"{loud}:V"], *argv)
    assert _verdict(q) == (0, "pass", [])
    assert _verdict(n) == _verdict(q), n.out[:800]
    # (a variant printing at every update goes past the cap on users' output: the lines
    # in the middle -- the claim's among them, when the proof no longer evaluates it
    # here -- are dropped, and the output says how many)
    dropped = "more lines dropped" in n.err
    texts = ["loaded my variant", "updating on", "margin"] + ([] if dropped else ["claim for"])
    _prints_prefixed(n.err, texts)


def _prints_prefixed(err: str, texts: list[str]) -> None:
    """Each of ``texts`` was printed on standard error, every such line headed by
    ``[user] `` (and never in the middle of a line)."""
    for text in texts:
        lines = [line for line in err.splitlines() if text in line]
        assert lines, (text, err[-800:])
        assert all(line.startswith(f"[user] {text}") for line in lines), lines[:3]


def test_a_fit_class_that_prints_keeps_json_clean(tmp_path: Path) -> None:
    bad = "print(f'Round 0:{len(X)} training')"
    quiet = write(tmp_path, fit_source("fit", bad, broken=False))
    loud = write(tmp_path, fit_source("fit", bad, broken=True))
    argv = ["--examples", "5", "--seed", "0", "--jobs", "2", "--json"]
    q = check_process(tmp_path, ["--fit", f"{quiet}:P", *FIT_ARGS], *argv)
    n = check_process(tmp_path, ["--fit", f"{loud}:P", *FIT_ARGS], *argv)
    assert _verdict(q) == (0, "pass", [])
    assert _verdict(n) == _verdict(q), n.out[:800]
    _prints_prefixed(n.err, ["Round 0:"])
    assert "Round" not in q.err


def test_a_fit_class_that_prints_keeps_the_text_report_apart(tmp_path: Path) -> None:
    loud = write(tmp_path, fit_source("fit", "print(f'Round 0:{len(X)} training')"))
    argv = ["--examples", "5", "--seed", "0", "--jobs", "1"]
    n = check_process(tmp_path, ["--fit", f"{loud}:P", *FIT_ARGS], *argv)
    assert n.code == 0, n.err[-800:]
    assert "Round" not in n.out and "pass" in n.out.lower(), n.out[-800:]
    _prints_prefixed(n.err, ["Round 0:"])


def test_prints_in_process_keep_json_clean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    loud = write(tmp_path, _printing_variant(True))
    o = check(capsys, tmp_path, [f"{loud}:V"])
    assert _verdict(o) == (0, "pass", []), o.out[:800]
    # users' output is capped (its first and last lines): which of the hooks' prints
    # survive depends on how much the runs print, but each line that does is prefixed
    shown = [t for t in ("claim for", "updating on") if t in o.err]
    assert shown, o.err[-800:]
    _prints_prefixed(o.err, shown)


# --- 6. an own loop's helpers named like hooks ----------------------------------------------------

OWN_LOOP = '''\
"""The classic algorithm in a loop of my own, with helpers named margin and update."""

from fractions import Fraction

from pla_proof.variants import Claim, LinearVariant, Measure, Record, Selector


def _dot(a, b):
    return sum((p * q for p, q in zip(a, b)), Fraction(0))


class Own(LinearVariant):
    name = "own-loop-helpers"

    def margin(self, w, x, y):
        return y * _dot(w, x)

    def update(self, w, x, y):
        return [a + y * b for a, b in zip(w, x)]

    def claim(self, case):
        return Claim(C=case.radius_squared, g=case.gamma, uu=case.uu)

    def run(self, case, order):
        X, y, u = case.X, case.y, case.u
        w = [Fraction(0)] * case.d
        rec, sel = Record(), Selector(order, case.n)

        def m(i):
            return {call_margin}

        k = 0
        while (j := sel.next(lambda i: m(i) <= 0, m)) is not None:
            if k == 1000:
                rec.complete = False
                break
            k += 1
            new = {call_update}
            if rec.add(Measure(k, j, m(j), _dot(u, w), _dot(u, new), _dot(w, w), _dot(new, new))):
                w = new
                break
            w = new
        rec.output["w"] = tuple(w)
        return rec
'''

CALLED = {
    "call_margin": "self.margin(w, X[i], y[i])",
    "call_update": "self.update(w, X[j], y[j])",
}
NOT_CALLED = {
    "call_margin": "y[i] * _dot(w, X[i])",
    "call_update": "[a + y[j] * b for a, b in zip(w, X[j])]",
}


def test_an_own_loop_that_calls_its_helpers_margin_and_update_is_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, OWN_LOOP.format(**CALLED))
    o = check(capsys, tmp_path, [f"{path}:Own"])
    assert o.code == 0, (o.code, o.err[-800:])
    assert o.doc()["verdict"] == "pass" and o.doc()["runs"] > 0


@pytest.mark.parametrize("uncalled", ["margin", "update", "both"])
def test_helpers_named_margin_or_update_that_nothing_calls_are_still_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], uncalled: str
) -> None:
    parts = dict(CALLED)
    for name in ("margin", "update") if uncalled == "both" else (uncalled,):
        parts[f"call_{name}"] = NOT_CALLED[f"call_{name}"]
    path = write(tmp_path, OWN_LOOP.format(**parts))
    o = check(capsys, tmp_path, [f"{path}:Own"])
    names = ["margin", "update"] if uncalled == "both" else [uncalled]
    assert_user_error_line(o, ["Own."])
    assert any(f"Own.{n}" in o.err for n in names), o.err


def test_a_near_miss_of_a_hook_is_still_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = VARIANT_HEAD.format(broken=False) + _indent(
        CLAIM + "\ndef trigger(self, w, x, y):\n    return y * _dot(w, x) <= 0\n", 4
    )
    path = write(tmp_path, source)
    o = check(capsys, tmp_path, [f"{path}:V"])
    assert_user_error_line(o, ["V.trigger", "triggers"])
