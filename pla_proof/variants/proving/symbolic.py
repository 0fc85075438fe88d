"""A hand-written step or trigger shown equal to the template for *every* input.

Exact probes read a hand-written rule (:mod:`.declared`); they are evidence, not proof: a
step that rounds through ``limit_denominator(2**53)`` is right on every probe and wrong
at ``x = 10^-16``.  The rule is proved only when its hooks, called (as users' code,
:func:`~pla_proof.variants.boundary.calls.call_hook`, under the read's time limit) on
SymPy symbols -- ``w = (w0, ...)``, ``x = (x0, ...)`` rational symbols, ``y = +1`` and
``y = -1`` separately, in each dimension of the variant's own domain -- give the
template's expressions:

- the step, ``eta y x`` (``expand``, else ``simplify``, of the difference is 0);
- the trigger, a relation ``c (y w.x - tau) <= 0`` (``< 0`` when strict) with ``c`` a
  positive number -- a comparison returned as is, since ``bool()`` of a relation
  between symbols has no answer.

Evaluated on symbols, code shows the one path it takes there; so every users' function
the call enters is read whole, and a conditional jump, an equality/identity/membership
test (``==``, ``!=``, ``is``, ``in``; in a step, any comparison), or a ``try`` block
anywhere in one leaves the rule unproved.  What raises on symbols (``Fraction(...)``,
``float()``, numpy floats, ``bool()`` of a relation), returns a float or differs leaves
it unproved too: each a one-line reason (``None``: shown equal).

>>> import sympy as sp
>>> from pla_proof.variants import LinearVariant
>>> class Half(LinearVariant):
...     def step(self, w, x, y):
...         return [sp.Rational(1, 2) * y * v for v in x]
>>> step_differs(Half(), sp.Rational(1, 2), [2]) is None
True
>>> step_differs(Half(), sp.Integer(1), [1])
"its step() on symbols gives x0/2, not the template's x0 (y = 1, d = 1)"
"""

from __future__ import annotations

import contextlib
import dis
import inspect
import io
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import CodeType
from typing import Any

from ..boundary.calls import HookError, call_hook, is_users, one_line
from ..protocol.variant import LinearVariant

__all__ = ["rule_differs", "step_differs", "trigger_differs"]

#: An expression longer than this is cut in a reason (a reason is one line).
SHOWN = 80


class _Path:
    """What a call's users' code could do that symbols cannot show for every input: the
    first conditional jump or equality test (or, ``ordered``, any comparison), and the
    first ``try`` block, in any users' function the call entered, each as ``(at
    file.py:LINE)``.

    The functions it may enter are found by reading the code, not by watching it run
    (no trace or profile hook: in a long-lived test worker both left the interpreter
    spinning or crashing): the hook's function, the functions nested in it
    (comprehensions, lambdas), and every users' function it names -- a module global, a
    method or attribute of the variant, a class of users' code (its methods), a
    function in a closure -- and so on from each.  Each is read whole: a test anywhere
    in one counts, run on symbols or not -- stricter than the one path taken."""

    def __init__(self, ordered: bool, files: frozenset[str]) -> None:
        self.ordered = ordered
        self.files = files
        self.entered: dict[CodeType, None] = {}  # (in the order they were found)
        self._watched: dict[str, bool] = {}  # file name -> users' (asked once per file)

    def _tests(self, ins: dis.Instruction) -> bool:
        name = ins.opname
        if "JUMP" in name and "IF" in name:
            return True
        if name in ("IS_OP", "CONTAINS_OP"):
            return True
        if name == "COMPARE_OP":
            return self.ordered or "==" in ins.argrepr or "!=" in ins.argrepr
        return False

    def watched(self, code: CodeType) -> bool:
        """Whether ``code`` is users' code or the variant's own class's (never this
        module's)."""
        name = code.co_filename
        seen = self._watched.get(name)
        if seen is None:
            mine = os.path.realpath(name) == os.path.realpath(__file__)
            seen = not mine and (is_users(name) or os.path.realpath(name) in self.files)
            self._watched[name] = seen
        return seen

    def read_from(self, variant: Any, hook: str) -> None:
        """Collect the code ``variant.<hook>`` may run (see the class)."""
        todo: list[tuple[CodeType, dict[str, Any], Any]] = []

        def add(obj: Any) -> None:
            obj = inspect.unwrap(obj) if callable(obj) else obj
            if isinstance(obj, staticmethod | classmethod):
                obj = obj.__func__
            if isinstance(obj, property):
                for f in (obj.fget, obj.fset):
                    if f is not None:
                        add(f)
                return
            if inspect.ismethod(obj):
                obj = obj.__func__
            if inspect.isclass(obj):
                for k in obj.__mro__:
                    if k is not object:
                        for v in vars(k).values():
                            if inspect.isfunction(v) or isinstance(v, staticmethod | classmethod):
                                add(v)
                return
            if inspect.isfunction(obj):
                todo.append((obj.__code__, obj.__globals__, obj.__closure__))

        add(getattr(type(variant), hook, None))
        own = vars(variant) if hasattr(variant, "__dict__") else {}
        while todo:
            code, space, closure = todo.pop(0)
            if code in self.entered or not self.watched(code):
                continue
            self.entered[code] = None
            for const in code.co_consts:
                if isinstance(const, CodeType):
                    todo.append((const, space, None))
            for cell in closure or ():
                with contextlib.suppress(ValueError):
                    add(cell.cell_contents)
            for name in code.co_names:
                if name in space:
                    add(space[name])
                with contextlib.suppress(AttributeError):
                    add(inspect.getattr_static(type(variant), name))
                if name in own:
                    add(own[name])

    def _where(self, code: CodeType, line: int | None) -> str:
        return f"(at {code.co_filename.rsplit('/', 1)[-1]}:{line or code.co_firstlineno})"

    @property
    def branch(self) -> str:
        for code in self.entered:
            line = code.co_firstlineno
            for ins in dis.get_instructions(code):
                if ins.starts_line is not None:
                    line = ins.starts_line
                if self._tests(ins):
                    return self._where(code, line)
        return ""

    @property
    def caught(self) -> str:
        for code in self.entered:
            if code.co_exceptiontable and _has_try(code):
                return f"a try block {self._where(code, _try_line(code))}"
        return ""


def _handlers(code: CodeType) -> list[dis.Instruction]:
    """The instructions that start an ``except`` clause (``PUSH_EXC_INFO``)."""
    return [i for i in dis.get_instructions(code) if i.opname == "PUSH_EXC_INFO"]


def _has_try(code: CodeType) -> bool:
    return bool(_handlers(code))


def _try_line(code: CodeType) -> int | None:
    line = None
    for ins in dis.get_instructions(code):
        if ins.starts_line is not None:
            line = ins.starts_line
        if ins.opname == "PUSH_EXC_INFO":
            return line
    return None


@contextmanager
def _quiet() -> Iterator[None]:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        yield


def _symbols(d: int) -> tuple[list[Any], list[Any]]:
    import sympy as sp

    w = list(sp.symbols(f"w0:{d}", rational=True))
    x = list(sp.symbols(f"x0:{d}", rational=True))
    return w, x


def _cut(expr: Any) -> str:
    text = str(expr)
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


def _own_files(variant: LinearVariant) -> frozenset[str]:
    """The files of the variant's own classes (the catalog's too), whose frames are
    traced beside users' code; pla_proof's helpers they call are not."""
    out = set()
    for k in type(variant).__mro__:
        if k in (LinearVariant, object) or k.__module__ == "pla_proof.variants.protocol.variant":
            continue
        try:
            out.add(os.path.realpath(inspect.getfile(k)))
        except TypeError:
            continue
    return frozenset(out)


def _call(variant: LinearVariant, hook: str, d: int, y: int, ordered: bool) -> Any:
    """The hook's value on symbols in dimension ``d``, or the reason (a str prefixed by
    ``!``) it shows nothing for every input."""
    w, x = _symbols(d)
    function = getattr(variant, hook)
    try:  # (what it prints on symbols is not shown: the probes showed its prints)
        path = _Path(ordered, _own_files(variant))
        path.read_from(variant, hook)
        with _quiet():
            value = call_hook(function, hook, list(w), list(x), y)
    except HookError as exc:
        cause = exc.__cause__
        why = one_line(cause) if cause is not None else str(exc)
        return f"!its {hook}() could not be evaluated on symbols ({why})"
    if path.caught:
        return (
            f"!its {hook}() may have caught an exception on symbols ({path.caught}): "
            "evaluated on symbols it shows one path, not every input's"
        )
    if path.branch:
        what = "branches or compares" if ordered else "branches or compares for equality"
        return (
            f"!its {hook}() {what} on symbols {path.branch}: evaluated on symbols it "
            "shows one path, not every input's"
        )
    return value


def step_differs(variant: LinearVariant, eta: Any, dims: Sequence[int]) -> str | None:
    """Why the hand-written step is not shown to be ``eta y x`` for every ``w``, ``x``
    and ``y`` (``None``: it is)."""
    import sympy as sp

    for d in dims:
        for y in (1, -1):
            value = _call(variant, "step", d, y, ordered=True)
            if isinstance(value, str) and value.startswith("!"):
                return value[1:]
            _, x = _symbols(d)
            try:
                z = [sp.sympify(v, strict=True) for v in value]
            except (TypeError, sp.SympifyError):
                return f"its step() on symbols returned {_cut(value)}, not formulas in w and x"
            if len(z) != d:
                return f"its step() on symbols returns {len(z)} coordinates for d = {d}"
            for zi, xi in zip(z, x, strict=True):
                if not isinstance(zi, sp.Expr) or zi.has(sp.Float):
                    return f"its step() on symbols returned {_cut(zi)} (not exact)"
                want = eta * y * xi
                diff = zi - want
                if sp.expand(diff) != 0 and sp.simplify(diff) != 0:
                    return (
                        f"its step() on symbols gives {_cut(zi)}, not the template's "
                        f"{_cut(want)} (y = {y}, d = {d})"
                    )
    return None


def trigger_differs(
    variant: LinearVariant, tau: Any, strict: bool, dims: Sequence[int]
) -> str | None:
    """Why the hand-written trigger is not shown to be ``y w.x <= tau`` (``< tau`` when
    ``strict``) for every ``w``, ``x`` and ``y`` (``None``: it is)."""
    import sympy as sp

    op = "<" if strict else "<="
    for d in dims:
        for y in (1, -1):
            value = _call(variant, "triggers", d, y, ordered=False)
            if isinstance(value, str) and value.startswith("!"):
                why = value[1:]
                if "could not be evaluated" in why:
                    why += (
                        f"; return the comparison as is (return y * dot(w, x) {op} {tau}), "
                        "or declare tau() and strict_trigger()"
                    )
                return why
            w, x = _symbols(d)
            s = y * sum((a * b for a, b in zip(w, x, strict=True)), sp.Integer(0))
            if isinstance(value, sp.Le | sp.Lt):
                f, is_strict = value.lhs - value.rhs, isinstance(value, sp.Lt)
            elif isinstance(value, sp.Ge | sp.Gt):
                f, is_strict = value.rhs - value.lhs, isinstance(value, sp.Gt)
            else:
                f, is_strict = None, strict
            c = sp.cancel(f / (s - tau)) if f is not None else None
            if (
                c is None
                or is_strict != strict
                or c.free_symbols
                or not (c.is_number and c.is_positive)
            ):
                return (
                    f"its triggers() on symbols is {_cut(value)}, not shown to be the "
                    f"threshold y w.x {op} {tau} (y = {y}, d = {d})"
                )
    return None


def rule_differs(
    variant: LinearVariant,
    eta: Any,
    tau: Any,
    strict: bool,
    dims: Sequence[int],
    own_step: bool,
    own_trigger: bool,
) -> str | None:
    """Why the hand-written step (``own_step``) and trigger (``own_trigger``) are not
    shown equal to the template for every input (``None``: they are)."""
    why = step_differs(variant, eta, dims) if own_step else None
    return why or (trigger_differs(variant, tau, strict, dims) if own_trigger else None)
