"""Reading a variant's rule as the linear template the generic lemma proves.

The template: update while ``y w.x <= tau`` (or ``< tau``) by ``w <- w + eta y x``,
from ``w = 0``, with a claim ``(C, g)`` that is a formula in ``R^2``, ``gamma`` and
``|u|^2``.  A :class:`~pla_proof.variants.protocol.variant.LinearVariant` *declares* its rule
(:meth:`eta`, :meth:`tau`, :meth:`start`, :meth:`factors`, :meth:`strict_trigger`); one
that writes :meth:`triggers` and :meth:`step` by hand is *read*: its step is probed on
exact random inputs for a constant multiple of ``y x``, its trigger for a threshold on
``y w.x``, and both are then confirmed on further probes.  Its hooks and its claim are
called on a symbolic case (``R^2``, ``gamma``, ``|u|^2`` as SymPy symbols), so the
constants are formulas, not numbers of one data set.

What cannot be read that way -- a hand-written score, per-point factors, a start that
is not zero, a claim that reads the data itself or states its own bound -- is
:class:`NotDeclarative`, with the reason.

>>> from pla_proof.variants import resolve
>>> read_rule(resolve("classic")).rule_text()
'y w.x <= 0 -> w += y x, from w = 0'
>>> from pla_proof.examples.half_step_margin import variant
>>> r = read_rule(variant)
>>> r.rule_text(), str(r.C), str(r.g)
('y w.x <= 1 -> w += 1/2 y x, from w = 0', 'R2/4 + 1', 'gamma/2')
>>> read_rule(resolve("pocket")).reason
'not a LinearVariant (its run() is its own algorithm)'
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..boundary.calls import HookError, defined_at, hook_error, one_line, stuck_in
from ..boundary.limits import DEFAULT_TIME_LIMIT, TOTAL_FACTOR, RunTimeout, time_limit
from ..protocol.claim import Claim
from ..protocol.variant import LinearVariant, Variant

__all__ = [
    "DeclaredRule",
    "Named",
    "NeedsSympy",
    "NotDeclarative",
    "SymbolicCase",
    "check_assumptions",
    "declared_assumptions",
    "declared_parameters",
    "read_plain",
    "read_rule",
]

#: Exact random probes of a hand-written trigger and step (each side).
PROBES = 200


@dataclass(frozen=True)
class DeclaredRule:
    """A rule of the linear template with its claim, as formulas (SymPy) in ``R2``,
    ``gamma`` and ``uu``; ``how`` says whether it was declared or read by probes."""

    eta: Any
    tau: Any
    strict: bool
    C: Any
    g: Any
    end: str | None
    how: str
    #: the declared parameters the rule or the claim reads, and their ranges (relations)
    parameters: tuple[str, ...] = ()
    assumptions: tuple[Any, ...] = ()
    #: the variant's ``assumes`` as it wrote them
    assumes: tuple[str, ...] = ()

    def rule_text(self) -> str:
        """The rule in one line (``y w.x <= tau -> w += eta y x, from w = 0``)."""
        op = "<" if self.strict else "<="
        eta = "" if self.eta == 1 else f"{str(self.eta).replace('**', '^').replace('*', ' ')} "
        return f"y w.x {op} {self.tau} -> w += {eta}y x, from w = 0"


@dataclass(frozen=True)
class NotDeclarative:
    """Why a variant's rule is not read as the template (its claim is tested only)."""

    reason: str


class _Unreadable(Exception):
    pass


_OPS = ("<=", ">=", "<", ">")


def parse_assumption(text: str) -> tuple[str, str, Fraction]:
    """A declared assumption ``"NAME OP NUMBER"`` (``LinearVariant.assumes``): ``NAME`` is
    ``R2``, ``gamma``, ``uu`` or a parameter, ``OP`` one of ``<= >= < >``.

    >>> parse_assumption("R2 <= 1")
    ('R2', '<=', Fraction(1, 1))
    >>> parse_assumption("gamma > 1/2")[2]
    Fraction(1, 2)
    """
    for op in _OPS:
        if op in text:
            name, _, number = text.partition(op)
            name = name.strip()
            try:
                value = Fraction(number.strip())
            except (ValueError, ZeroDivisionError):
                break
            if name.isidentifier():
                return name, op, value
            break
    raise ValueError(f"{text!r} is not 'NAME OP NUMBER' (OP one of <= >= < >)")


def assumption_holds(text: str, case: Any) -> bool:
    """Does a concrete case satisfy the declared assumption (exactly)?

    >>> from pla_proof.variants.protocol.variant import orthonormal_cases
    >>> c = orthonormal_cases([2])[0]
    >>> assumption_holds("R2 <= 1", c), assumption_holds("R2 < 1", c)
    (True, False)
    """
    name, op, bound = parse_assumption(text)
    value = {"R2": case.radius_squared, "gamma": case.gamma, "uu": case.uu}.get(name)
    if value is None:
        value = case.params[name]
    return bool(
        {"<=": value <= bound, ">=": value >= bound, "<": value < bound, ">": value > bound}[op]
    )


#: The ranges a variant may declare for its parameters (``LinearVariant.parameters``).
RANGES = {"> 0": "positive", ">= 0": "nonnegative", "real": "any real"}


class _Params(Mapping[str, Any]):
    """A symbolic case's parameters: a declared one is a symbol (its range an assumption
    of the proof); reading one that is not declared is outside the template."""

    def __init__(self, declared: Mapping[str, str]) -> None:
        import sympy as sp

        self.declared = dict(declared)
        self.symbols = {name: sp.Symbol(name) for name in self.declared}
        self.read: list[str] = []

    def __getitem__(self, key: str) -> Any:
        if key not in self.symbols:
            raise _Unreadable(
                f"it reads the parameter {key!r}, whose range is not declared (a number "
                f"can be: parameters = {{{key!r}: '> 0'}}, or '>= 0', 'real')"
            )
        if key not in self.read:
            self.read.append(key)
        return self.symbols[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.symbols)

    def __len__(self) -> int:
        return len(self.symbols)

    def get(self, key: str, default: Any = None) -> Any:
        return self[key]

    def assumptions(self) -> tuple[Any, ...]:
        """The declared ranges of the parameters read, as relations."""
        out = []
        for name in self.read:
            sym, rng = self.symbols[name], self.declared[name]
            if rng == "> 0":
                out.append(sym > 0)
            elif rng == ">= 0":
                out.append(sym >= 0)
        return tuple(out)


class SymbolicCase:
    """Stands for every case: ``radius_squared``, ``gamma`` and ``uu`` are the SymPy
    symbols ``R2``, ``gamma``, ``uu``; ``d`` is a given dimension; reading the data
    (``X``, ``y``, ``u``) or a parameter is outside the template."""

    def __init__(self, d: int = 3, parameters: Mapping[str, str] | None = None) -> None:
        import sympy as sp

        self.radius_squared = sp.Symbol("R2", positive=True)
        self.gamma = sp.Symbol("gamma", positive=True)
        self.uu = sp.Symbol("uu", positive=True)
        self.d = d
        self.params = _Params(parameters or {})
        self.name = "symbolic"

    def __getattr__(self, name: str) -> Any:
        raise _Unreadable(f"it reads case.{name} (the data, not R^2, gamma or |u|^2)")


def _symbolic(value: Any) -> Any:
    import sympy as sp

    out = sp.nsimplify(value) if isinstance(value, Fraction | int) else sp.sympify(value)
    if not isinstance(out, sp.Expr):
        raise _Unreadable(f"{value!r} is not a number or a formula in R^2, gamma and |u|^2")
    return out


class NeedsSympy(Exception):
    """A hook computed with a symbol of the claim: the rule is SymPy's to read."""


def _refuse(self: Named, *args: Any) -> Any:
    raise NeedsSympy(f"a formula in {self.name}")


class Named:
    """A symbol of the claim's formulas (``R2``, ``gamma``, ``uu``) read without SymPy
    (:func:`read_plain`): it prints as SymPy prints the symbol, equals the same name
    only, and converts with ``sympy.sympify`` (to the positive symbol
    :class:`SymbolicCase` has); any arithmetic, order or truth value of it raises
    :class:`NeedsSympy`.

    >>> g = Named("gamma")
    >>> str(g), g == Named("gamma"), g == 0
    ('gamma', True, False)
    >>> import sympy as sp
    >>> sp.sympify(g) == sp.Symbol("gamma", positive=True)
    True
    """

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __str__(self) -> str:
        return self.name

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Named) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("Named", self.name))

    def _sympy_(self) -> Any:
        import sympy as sp

        return sp.Symbol(self.name, positive=True)

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _refuse
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = _refuse
    __pow__ = __rpow__ = __neg__ = __pos__ = __abs__ = __bool__ = _refuse
    __lt__ = __le__ = __gt__ = __ge__ = _refuse
    __int__ = __float__ = __index__ = __round__ = __trunc__ = __floor__ = __ceil__ = _refuse


class _PlainCase:
    """:class:`SymbolicCase` without SymPy: ``radius_squared``, ``gamma`` and ``uu`` are
    :class:`Named`; no parameter is declared; anything else is SymPy's to read."""

    def __init__(self, d: int = 3) -> None:
        self.radius_squared = Named("R2")
        self.gamma = Named("gamma")
        self.uu = Named("uu")
        self.d = d
        self.params: Mapping[str, Any] = {}
        self.name = "symbolic"

    def __getattr__(self, name: str) -> Any:
        raise NeedsSympy(f"case.{name}")


def _integer(value: Any) -> int | None:
    """An exact integer (an int or a Fraction that is one; never a bool), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return int(value)
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return None


def _constant(value: Any, case: _PlainCase) -> int | Named | None:
    """A claim's constant read without SymPy: an integer or one of the case's symbols."""
    if any(value is s for s in (case.radius_squared, case.gamma, case.uu)):
        return value  # type: ignore[no-any-return]
    return _integer(value)


def read_plain(variant: Variant, limit: float | None = DEFAULT_TIME_LIMIT) -> DeclaredRule | None:
    """The rule :func:`read_rule` reads, read without SymPy where that reading is plain:
    a :class:`~pla_proof.variants.protocol.variant.LinearVariant` of the template that
    declares its rule (no hand-written trigger or step, no parameters, no ``assumes``),
    whose hooks on a symbolic case return integers (``eta >= 1``) and whose claim is
    ``(C, g)`` with each an integer or the symbol ``R2``, ``gamma`` or ``uu`` itself, from
    ``w = 0`` with the comparator's ``|u|^2``.  The rule's numbers are then ints and its
    symbols :class:`Named`; ``None`` for anything else (:func:`read_rule` reads it, and
    says why it is not the template when it is not).

    >>> from pla_proof.variants import resolve
    >>> r = read_plain(resolve("classic"))
    >>> r.rule_text(), str(r.C), str(r.g), r.how
    ('y w.x <= 0 -> w += y x, from w = 0', 'R2', 'gamma', 'declared (eta, tau, start)')
    >>> read_plain(resolve("unit-ball")) is None  # it assumes R2 <= 1
    True
    """
    try:
        with time_limit(None if limit is None else TOTAL_FACTOR * limit):
            return _read_plain(variant)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:  # a time out, a hook's error, a formula: read_rule's to say
        return None


def _read_plain(variant: Variant) -> DeclaredRule | None:
    if not isinstance(variant, LinearVariant):
        return None
    cls = type(variant)
    hand_written = (LinearVariant.run, LinearVariant.score, LinearVariant.triggers)
    if (cls.run, cls.score, cls.triggers) != hand_written or cls.step is not LinearVariant.step:
        return None
    if declared_parameters(variant) or declared_assumptions(variant):
        return None
    case = _PlainCase()
    eta, tau = _integer(variant.eta(case)), _integer(variant.tau(case))  # type: ignore[arg-type]
    if eta is None or eta < 1 or tau is None or variant.factors(case) is not None:  # type: ignore[arg-type]
        return None
    strict = variant.strict_trigger(case)  # type: ignore[arg-type]
    if not isinstance(strict, bool):
        return None
    if any(_integer(v) != 0 for v in variant.start(case)):  # type: ignore[arg-type]
        return None
    claim = variant.claim(case)  # type: ignore[arg-type]
    if not isinstance(claim, Claim) or claim.bound is not None or claim.strict:
        return None
    C, g = _constant(claim.C, case), _constant(claim.g, case)
    if C is None or g is None or claim.uu is not case.uu:
        return None
    if _integer(claim.pu0) != 0 or _integer(claim.n0) != 0:
        return None
    return DeclaredRule(eta, tau, strict, C, g, claim.end, "declared (eta, tau, start)")


def read_rule(
    variant: Variant, limit: float | None = DEFAULT_TIME_LIMIT
) -> DeclaredRule | NotDeclarative:
    """The variant's rule and claim as the linear template, or why not.  Its hooks are
    users' code, read under the per-run ``limit`` (times ``TOTAL_FACTOR``, in all): what
    they do wrong makes the claim "tested, not proved", with the reason."""
    try:
        with time_limit(None if limit is None else TOTAL_FACTOR * limit):
            return _read_rule(variant)
    except RunTimeout as exc:
        assert limit is not None
        return NotDeclarative(
            f"{stuck_in(exc, 'claim')} did not return in {TOTAL_FACTOR * limit:g} s when "
            "read on a symbolic case or on points of its own domain"
        )
    except HookError as exc:
        return NotDeclarative(str(exc))


def declared_parameters(variant: Any) -> dict[str, str]:
    """The variant's ``parameters`` (name -> range), read as users' code."""
    value = _declared(variant, "parameters", {})
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise HookError(
            f"{type(variant).__name__}.parameters {_is(variant, 'parameters')} {value!r}"
            f"{_where(variant, 'parameters')}; "
            "expected a dict name -> "
            "range ('> 0', '>= 0', 'real')"
        )
    return dict(value)


def declared_assumptions(variant: Any) -> tuple[str, ...]:
    """The variant's ``assumes`` ('NAME OP NUMBER' strings), read as users' code."""
    value = _declared(variant, "assumes", ())
    if isinstance(value, tuple | list) and all(isinstance(t, str) for t in value):
        return tuple(value)
    raise HookError(
        f"{type(variant).__name__}.assumes {_is(variant, 'assumes')} {value!r}"
        f"{_where(variant, 'assumes')}; expected a "
        "tuple of "
        "'NAME OP NUMBER' strings"
    )


def _declared(variant: Any, name: str, default: Any) -> Any:
    try:
        value = getattr(variant, name, default)
    except Exception as exc:  # a property of the user's that raised
        raise HookError(hook_error(name, exc)) from exc
    return default if value is None else value


def _is(variant: Any, name: str) -> str:
    """``returned`` for a property, ``is`` for a value."""
    found = next((vars(k)[name] for k in type(variant).__mro__ if name in vars(k)), None)
    return "returned" if isinstance(found, property) else "is"


def _where(variant: Any, name: str) -> str:
    """Where the class writes ``name`` (a property's getter, else the class)."""
    for k in type(variant).__mro__:
        if name in vars(k):
            found = vars(k)[name]
            return defined_at(found.fget if isinstance(found, property) else k)
    return ""


def _read_rule(variant: Variant) -> DeclaredRule | NotDeclarative:
    shape = _not_template(variant)
    if shape is not None:
        return shape
    assert isinstance(variant, LinearVariant)
    case: Any = SymbolicCase(parameters=declared_parameters(variant))
    try:
        read = _read_hooks(variant, case)
        if isinstance(read, NotDeclarative):
            return read
        eta, tau, strict, how = read
        if any(_symbolic(v) != 0 for v in variant.start(case)):
            return NotDeclarative("it starts from w != 0 (the template starts from 0)")
        claim = variant.claim(case)
    except _Unreadable as exc:
        return NotDeclarative(f"not the template: {exc}")
    except (TypeError, ValueError, ArithmeticError) as exc:
        why = f"{type(exc).__name__}: {exc}"
        return NotDeclarative(f"not a formula in R^2, gamma and |u|^2 ({why})")
    except Exception as exc:  # the variant's own code, on a symbolic case or its own points
        return NotDeclarative(
            f"its code raised {one_line(exc)} when read on a symbolic case or on points "
            "of its own domain"
        )
    reason = _not_template_claim(claim, case)
    if reason is not None:
        return NotDeclarative(reason)
    assumed = _assumed(variant, case)
    if isinstance(assumed, NotDeclarative):
        return assumed
    texts = declared_assumptions(variant)
    from .assumptions import contradiction  # SymPy and Z3: only where a rule is proved

    vacuous = contradiction(list(zip(texts, assumed, strict=True)), case.params.declared)
    if vacuous is not None:
        return NotDeclarative(f"{vacuous}: no case can meet them, a proof from them says nothing")
    params = case.params
    return DeclaredRule(
        eta,
        tau,
        strict,
        _symbolic(claim.C),
        _symbolic(claim.g),
        claim.end,
        how,
        tuple(params.read),
        params.assumptions() + assumed,
        texts,
    )


def _not_template(variant: Variant) -> NotDeclarative | None:
    """Why the variant's class is not the template's shape (None: it may be)."""
    if not isinstance(variant, LinearVariant):
        return NotDeclarative("not a LinearVariant (its run() is its own algorithm)")
    cls = type(variant)
    if cls.run is not LinearVariant.run:
        return NotDeclarative("its run() is overridden (what runs is not only the rule)")
    if cls.score is not LinearVariant.score:
        return NotDeclarative("its score() is written by hand (not a threshold on y w.x)")
    declared = declared_parameters(variant)
    bad = {k: v for k, v in declared.items() if v not in RANGES}
    if bad:
        name, rng = next(iter(bad.items()))
        return NotDeclarative(
            f"parameters[{name!r}] = {rng!r} is not a range ({', '.join(map(repr, RANGES))})"
        )
    return None


def _read_hooks(variant: LinearVariant, case: Any) -> tuple[Any, Any, bool, str] | NotDeclarative:
    """``(eta, tau, strict, how)``: declared, or read from a hand-written step and
    trigger by exact probes on points of the variant's own domain."""
    cls = type(variant)
    own_trigger = cls.triggers is not LinearVariant.triggers
    own_step = cls.step is not LinearVariant.step
    rng = random.Random(20)
    read = []
    points = domain_points(variant) if own_step or own_trigger else []
    if own_step:  # the hand-written step replaces eta and the factors
        eta = _probe_step(variant, rng, points)
        read.append("step()")
    else:
        eta = _symbolic(variant.eta(case))
        if variant.factors(case) is not None:
            return NotDeclarative("per-point factors a_i (the template has a_i = 1)")
    if own_trigger:  # the hand-written trigger replaces tau and strict_trigger
        tau, strict = _probe_trigger(variant, rng, points)
        read.append("triggers()")
    else:
        tau = _symbolic(variant.tau(case))
        flag = variant.strict_trigger(case)
        if not isinstance(flag, bool):
            return NotDeclarative("its trigger is strict for some points only")
        strict = flag
    if not read:
        return eta, tau, strict, "declared (eta, tau, start)"
    # probes are evidence; a proof needs the template for every input: on symbols
    from .symbolic import rule_differs

    dims = sorted({len(x) for x, _ in points})
    why = rule_differs(variant, eta, tau, strict, dims, own_step, own_trigger)
    if why is not None:
        return NotDeclarative(why)
    how = (
        f"read from {' and '.join(read)} by exact probes ({PROBES} each) and shown equal "
        "to the template on symbols, the rest declared"
    )
    return eta, tau, strict, how


def _not_template_claim(claim: Any, case: Any) -> str | None:
    """Why the claim is not the template's (None: it is)."""
    if not isinstance(claim, Claim):
        return f"claim() returned {type(claim).__name__}; expected a Claim"
    if claim.bound is not None:
        return "the claim states its own bound (the template proves C |u|^2/g^2)"
    if claim.strict:
        return "the claim's bound is strict (the template proves k g^2 <= C |u|^2)"
    if claim.C is None or claim.g is None:
        return "the claim has no (C, g)"
    if _symbolic(claim.pu0) != 0 or _symbolic(claim.n0) != 0:
        return "the claim starts from w != 0"
    if _symbolic(claim.uu) != case.uu:
        return "the claim's |u|^2 is not the comparator's"
    return None


def _assumed(variant: Variant, case: Any) -> tuple[Any, ...] | NotDeclarative:
    """The variant's declared assumptions (``assumes``) as relations."""
    params = case.params
    data: list[Any] = []
    for text in declared_assumptions(variant):
        try:
            name, op, bound = parse_assumption(text)
        except ValueError as exc:
            return NotDeclarative(f"assumes: {exc}")
        symbol = {"R2": case.radius_squared, "gamma": case.gamma, "uu": case.uu}.get(name)
        if symbol is None:
            if name not in params.symbols:
                return NotDeclarative(
                    f"assumes {text!r}: {name} is not R2, gamma, uu or a declared parameter"
                )
            symbol = params[name]
        data.append(_relation(symbol, op, bound))
    return tuple(data)


def _relation(symbol: Any, op: str, bound: Fraction) -> Any:
    """``symbol OP bound``, unevaluated: ``R2 <= 0`` stays a relation (SymPy would fold it
    to ``False``, ``R2`` being positive), for the provers to judge."""
    import sympy as sp

    b = sp.Rational(bound.numerator, bound.denominator)
    return {"<=": sp.Le, ">=": sp.Ge, "<": sp.Lt, ">": sp.Gt}[op](symbol, b, evaluate=False)


def check_assumptions(variant: Any) -> None:
    """The variant's ``assumes`` and parameter ranges, checked before any run: each
    ``'NAME OP NUMBER'`` about ``R2``, ``gamma``, ``uu`` or a declared parameter, and all
    of them able to hold together with the facts of every case (Z3); else a
    :class:`HookError` naming them (a search would skip every case, and a proof from
    them would say nothing).

    >>> class Never(LinearVariant):
    ...     assumes = ("uu >= 2", "uu <= 1")
    >>> check_assumptions(Never())
    Traceback (most recent call last):
    ...
    pla_proof.variants.boundary.calls.HookError: Never: assumes ('uu >= 2', 'uu <= 1') cannot hold together; no case can meet them, nothing would be checked
    """  # noqa: E501
    texts = declared_assumptions(variant)
    if not texts:
        return
    import sympy as sp  # only for a variant that assumes something

    ranges = declared_parameters(variant)
    where = _where(variant, "assumes")
    cls = type(variant).__name__
    assumed = []
    for text in texts:
        try:
            name, op, bound = parse_assumption(text)
        except ValueError as exc:
            raise HookError(f"{cls}.assumes{where}: {exc}") from None
        if name not in ("R2", "gamma", "uu") and name not in ranges:
            raise HookError(
                f"{cls}.assumes {text!r}{where}: {name} is not R2, gamma, uu or a declared "
                f"parameter (parameters = {{{name!r}: '> 0'}}, or '>= 0', 'real')"
            )
        assumed.append((text, _relation(sp.Symbol(name), op, bound)))
    from .assumptions import contradiction

    why = contradiction(assumed, {k: v for k, v in ranges.items() if v in RANGES})
    if why is not None:
        them = "it" if why.startswith("assume ") else "them"
        raise HookError(f"{cls}{where}: {why}; no case can meet {them}, nothing would be checked")


# --- reading a hand-written trigger and step by exact probes --------------------------------

#: A point of a variant's domain with its label: ``(x, y)``.
Point = tuple[list[Fraction], int]
#: Cases of a variant's own domain drawn for its probes (beside its fixed examples).
DOMAIN_CASES = 12


def domain_points(variant: Variant) -> list[Point]:
    """Points (with their labels) of the variant's own domain, where its hooks may be
    called: those of its fixed examples, then of cases drawn from its ``cases()``
    (deterministically), each accepted by its ``accepts()``; ``_Unreadable`` when there
    is none (a rule is read only where the variant says it applies)."""
    from hypothesis import HealthCheck, Phase, given, settings

    found = [c for c in variant.examples() if variant.accepts(c)]
    strategy = variant.cases()

    @settings(
        max_examples=DOMAIN_CASES,
        database=None,
        derandomize=True,
        deadline=None,
        phases=(Phase.generate,),
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def collect(case: Any) -> None:
        if variant.accepts(case):
            found.append(case)

    collect()
    points = [
        ([Fraction(v) for v in x], int(y))
        for case in found
        for x, y in zip(case.X, case.y, strict=True)
        if any(v != 0 for v in x)
    ]
    if not points:
        raise _Unreadable("no point of its own domain to read its step and trigger on")
    return points


def _vector(rng: random.Random, d: int, *, nonzero: bool = False) -> list[Fraction]:
    out = []
    for _ in range(d):
        v = Fraction(rng.randint(-9, 9), rng.randint(1, 4))
        while nonzero and v == 0:
            v = Fraction(rng.randint(-9, 9), rng.randint(1, 4))
        out.append(v)
    return out


def _dot(a: list[Fraction], b: list[Fraction]) -> Fraction:
    return sum((p * q for p, q in zip(a, b, strict=True)), Fraction(0))


def _with_score(
    rng: random.Random, s: Fraction, point: Point
) -> tuple[list[Fraction], list[Fraction], int]:
    """A probe ``(w, x, y)`` at the point ``(x, y)`` with ``y w.x = s`` exactly (and a
    random part of ``w`` orthogonal to ``x``)."""
    x, y = point
    d = len(x)
    r = _vector(rng, d)
    xx = _dot(x, x)
    t = s / (y * xx)
    c = _dot(r, x) / xx
    w = [t * xi + ri - c * xi for xi, ri in zip(x, r, strict=True)]
    return w, x, y


def _fires(variant: LinearVariant, w: list[Fraction], x: list[Fraction], y: int) -> bool:
    out = variant.triggers(list(w), list(x), y)
    if not isinstance(out, bool | int):
        out = bool(out)
    return bool(out)


def _simplest_between(lo: Fraction, hi: Fraction) -> Fraction:
    """The rational with the smallest denominator in ``[lo, hi]`` (Stern-Brocot)."""
    if lo <= 0 <= hi:
        return Fraction(0)
    if hi < 0:
        return -_simplest_between(-hi, -lo)
    fl = lo.numerator // lo.denominator
    if fl == lo or fl + 1 <= hi:
        return Fraction(fl if fl == lo else fl + 1)
    rest = _simplest_between(1 / (hi - fl), 1 / (lo - fl))
    return fl + 1 / rest


def _probe_step(variant: LinearVariant, rng: random.Random, points: list[Point]) -> Any:
    """``eta`` of a hand-written step ``z = eta y x`` (the same ``eta > 0`` on every probe,
    each a point ``x`` with its label ``y`` from the variant's own domain and a random
    ``w``)."""
    import sympy as sp

    c: Fraction | None = None
    for i in range(PROBES):
        x, y = points[i % len(points)]
        d = len(x)
        w = _vector(rng, d)
        z = [Fraction(v) for v in variant.step(list(w), list(x), y)]
        if len(z) != d:
            raise _Unreadable(f"its step returns {len(z)} coordinates for d = {d}")
        c0 = next(i for i, v in enumerate(x) if v != 0)
        ratio = z[c0] / (y * x[c0])
        if any(zi != ratio * y * xi for zi, xi in zip(z, x, strict=True)):
            raise _Unreadable("its step is not a constant multiple of y x")
        if c is None:
            c = ratio
        elif ratio != c:
            raise _Unreadable("its step's factor changes with w, x or y")
    assert c is not None
    if c <= 0:
        raise _Unreadable(f"its step is {c} y x (the template needs eta > 0)")
    return sp.Rational(c.numerator, c.denominator)


def _probe_trigger(
    variant: LinearVariant, rng: random.Random, points: list[Point]
) -> tuple[Any, bool]:
    """``(tau, strict)`` of a hand-written trigger that fires exactly while ``y w.x <= tau``
    (``< tau`` when strict): the threshold found by bisection, then confirmed (each probe
    a point of the variant's own domain with its label, and a ``w`` made for the score)."""
    import sympy as sp

    first = points[0]
    lo, hi = Fraction(-(2**20)), Fraction(2**20)
    if not _fires(variant, *_with_score(rng, lo, first)) or _fires(
        variant, *_with_score(rng, hi, first)
    ):
        raise _Unreadable("its trigger is not a threshold on y w.x in [-2^20, 2^20]")
    for _ in range(80):
        mid = (lo + hi) / 2
        if _fires(variant, *_with_score(rng, mid, first)):
            lo = mid
        else:
            hi = mid
    tau = _simplest_between(lo, hi)
    strict = not _fires(variant, *_with_score(rng, tau, first))
    for i in range(PROBES):
        scale = rng.choice((Fraction(1), Fraction(1, 1000)))
        s = tau + Fraction(rng.randint(-40, 40), rng.randint(1, 8)) * scale
        w, x, y = _with_score(rng, s, points[i % len(points)])
        expect = s < tau if strict else s <= tau
        if _fires(variant, w, x, y) != expect:
            raise _Unreadable(f"its trigger is not a threshold on y w.x (at y w.x = {s})")
    return sp.Rational(tau.numerator, tau.denominator), strict
