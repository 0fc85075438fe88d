"""The algorithm inside Coq: the cyclic Perceptron over Q as a library, and as a program.

``algorithm.v`` (shipped with the package) defines the cyclic Perceptron over Coq's
rationals -- any start ``(w0, b0)``, a bias input ``c``, an epoch budget -- and proves
that every run it makes is covered by the development's bound, that it returns within
``bound + 1`` epochs on data separable with a margin, that what it returns separates the
data, and that the data are separable exactly when it returns within some budget.  It is
compiled *after* the development, as one library :data:`LIBRARY` (:func:`library_text`):
the generated step lemmas, ``convergence.v``, then ``algorithm.v``.

:func:`build_library` compiles that library with ``coqc`` (run certificates ``Require``
it); :func:`build_program` extracts ``cyclic`` to OCaml with Coq's extraction and compiles
it with a small driver; :func:`run_program` runs the extracted program on exact data.

>>> "Fixpoint perceptron_q" in source() and "Theorem cyclic_iff" in source()
True
>>> print(program_input([(1,), (-1,)], [1, -1], epochs=3).strip())
3 2 1 0 1 0 1 0 1
1 1 1 1
-1 1 -1 1
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..errors import InputError

__all__ = [
    "LIBRARY",
    "ProgramRun",
    "build_library",
    "build_program",
    "compiled_library",
    "compiled_program",
    "library_text",
    "program_input",
    "run_program",
    "source",
]

#: the library's module name: certificates say ``Require Import PlaPerceptron.``
LIBRARY = "PlaPerceptron"

#: the headline theorems of ``algorithm.v``
THEOREMS = (
    "cyclic_bound",
    "cyclic_separates",
    "cyclic_converges",
    "cyclic_converges_from_zero",
    "every_run_from_zero",
    "every_perceptron_run",
    "cyclic_from_zero",
    "cyclic_iff",
    "cyclic_iff_stable",
    "gordan_no_separator",
    "gordan_never_returns",
    "not_separable_never_returns",
    "replay_from_zero",
)

_EXTRACT = f"""Require Import {LIBRARY}.
Require Extraction ExtrOcamlNativeString.
Extraction Language OCaml.
Extraction "pla_perceptron.ml" cyclic q_of_strings strings_of_q.
"""

#: the driver of the extracted program: reads the data on stdin, prints the result
DRIVER = r"""(* The driver of the extracted cyclic Perceptron (pla_proof.proof.algorithm): reads
   "E n d c b0 w0_1..w0_d" then n rows "y x_1..x_d" (every number a num den pair of
   decimal integers) on stdin, runs Coq's cyclic, prints "none" or
   "some k b w_1..w_d" (num den pairs, reduced). *)
open Pla_perceptron

let tokens =
  let b = Buffer.create 4096 in
  (try while true do Buffer.add_channel b stdin 1 done with End_of_file -> ());
  let blank c = c = '\n' || c = '\t' || c = '\r' in
  ref (List.filter (fun s -> s <> "")
    (String.split_on_char ' ' (String.map (fun c -> if blank c then ' ' else c)
      (Buffer.contents b))))

let next () = match !tokens with t :: r -> tokens := r; t | [] -> failwith "input ends early"
let int () = int_of_string (next ())
let rat () =
  let n = next () in
  let d = next () in
  match q_of_strings n d with Some q -> q | None -> failwith ("not a rational: " ^ n ^ "/" ^ d)
let rec nat_of_int i = if i <= 0 then O else S (nat_of_int (i - 1))
let rec int_of_nat = function O -> 0 | S m -> 1 + int_of_nat m
let show q = let (n, d) = strings_of_q q in n ^ " " ^ d

let () =
  let e = int () in
  let n = int () in
  let d = int () in
  let c = rat () in
  let b0 = rat () in
  let w0 = List.init d (fun _ -> rat ()) in
  let rows = List.init n (fun _ -> let y = rat () in (y, List.init d (fun _ -> rat ()))) in
  match cyclic (nat_of_int e) (List.map snd rows) (List.map fst rows) c w0 b0 with
  | None -> print_endline "none"
  | Some ((w, b), k) ->
      print_endline (String.concat " "
        ("some" :: string_of_int (int_of_nat k) :: show b :: List.map show w))
"""


def source() -> str:
    """The text of ``algorithm.v``."""
    from .coq import algorithm_source

    return algorithm_source()


def library_text() -> str:
    """The library :data:`LIBRARY`: the step lemmas and the development (as ``verify
    --coq`` compiles them), then ``algorithm.v``."""
    from .coq import export
    from .obligations import all_obligations

    return export(all_obligations(), development=True).text


def _binary(name: str, given: str | None, package: str) -> str:
    found = given or shutil.which(name)
    if found is None:
        raise InputError(f"{name} not found: install {package}")
    return found


def _run(cmd: list[str], cwd: Path, timeout: float, what: str) -> None:
    try:
        proc = subprocess.run(
            cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        raise InputError(f"{what}: timed out after {timeout:g} s") from None
    if proc.returncode != 0:
        lines = (proc.stderr or proc.stdout).strip().splitlines()
        raise InputError(f"{what} failed: {' '.join(lines[-4:])}")


def build_library(directory: str | Path, *, coqc: str | None = None, timeout: float = 600) -> Path:
    """Write ``PlaPerceptron.v`` into ``directory`` and compile it (``coqc``, about ten
    seconds); the path of the ``.v`` (the ``.vo`` beside it)."""
    binary = _binary("coqc", coqc, "Coq (Debian package 'coq')")
    where = Path(directory)
    path = where / f"{LIBRARY}.v"
    path.write_text(library_text(), encoding="utf-8")
    _run([binary, "-q", "-no-glob", path.name], where, timeout, f"coqc {path.name}")
    return path


#: the library's build directory per ``coqc``, once this process has asked
_BUILT: dict[str, Path] = {}


def compiled_library(*, coqc: str | None = None, timeout: float = 600) -> Path:
    """The directory holding this package's library, compiled once per machine: in the
    temporary directory, under a name made of a hash of the library's text and ``coqc``'s
    version (a file lock lets processes share it).  A certificate is always checked
    against this library, never a copy written beside it.

    >>> compiled_library().joinpath(f"{LIBRARY}.vo").exists()  # doctest: +SKIP
    True
    """
    import fcntl
    import hashlib
    import tempfile

    binary = _binary("coqc", coqc, "Coq (Debian package 'coq')")
    home = _BUILT.get(binary)
    if home is not None and (home / f"{LIBRARY}.vo").exists():
        return home  # (this process asked before: the key is the same)
    version = subprocess.run(
        [binary, "--version"], capture_output=True, text=True, check=False
    ).stdout
    key = hashlib.sha256((library_text() + version + DRIVER).encode()).hexdigest()[:16]
    home = _BUILT[binary] = Path(tempfile.gettempdir()) / f"pla-proof-coq-{key}"
    home.mkdir(exist_ok=True)
    with open(home / "library.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (home / f"{LIBRARY}.vo").exists():
            build_library(home, coqc=binary, timeout=timeout)
    return home


def compiled_program(*, coqc: str | None = None, timeout: float = 600) -> Path:
    """The extracted program, built once per machine beside :func:`compiled_library`
    (under the same file lock discipline): its path."""
    import fcntl

    home = compiled_library(coqc=coqc, timeout=timeout)
    with open(home / "program.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (home / "pla_perceptron").exists():
            build_program(home, coqc=coqc, timeout=timeout)
    return home / "pla_perceptron"


def build_program(
    directory: str | Path,
    *,
    coqc: str | None = None,
    timeout: float = 600,
    driver: str = DRIVER,
    name: str = "pla_perceptron",
) -> Path:
    """Extract ``cyclic`` to OCaml in ``directory`` (which holds the compiled library) and
    compile it with the ``driver`` (``ocamlfind ocamlopt``) as ``name``; the program's
    path.  (Another driver: the tests build a sabotaged reader to see the property that
    compares the program with the engine fail.)"""
    binary = _binary("coqc", coqc, "Coq (Debian package 'coq')")
    where = Path(directory)
    (where / "Extract.v").write_text(_EXTRACT, encoding="utf-8")
    _run([binary, "-q", "Extract.v"], where, timeout, "Coq's extraction")
    main = "main.ml" if name == "pla_perceptron" else f"main_{name}.ml"
    (where / main).write_text(driver, encoding="utf-8")
    finder = shutil.which("ocamlfind")
    compiler = (
        [finder, "ocamlopt"]
        if finder
        else [_binary("ocamlopt", None, "OCaml (Debian package 'ocaml-nox')")]
    )
    files = ["pla_perceptron.mli", "pla_perceptron.ml", main]
    _run([*compiler, *files, "-o", name], where, timeout, "ocamlopt")
    return where / name


def _pair(v: Any) -> str:
    f = Fraction(v)
    return f"{f.numerator} {f.denominator}"


def program_input(
    X: Sequence[Sequence[Any]],
    y: Sequence[Any],
    *,
    epochs: int,
    c: Any = 0,
    w0: Sequence[Any] | None = None,
    b0: Any = 0,
) -> str:
    """The extracted program's input for the data ``X``, ``y`` (exact numbers)."""
    d = len(X[0]) if len(X) else len(w0 or ())
    start = list(w0) if w0 is not None else [0] * d
    head = [str(epochs), str(len(X)), str(d), _pair(c), _pair(b0), *(_pair(v) for v in start)]
    rows = [" ".join([_pair(yi), *(_pair(v) for v in x)]) for x, yi in zip(X, y, strict=True)]
    return "\n".join([" ".join(head), *rows]) + "\n"


@dataclass(frozen=True)
class ProgramRun:
    """What the extracted program returned: the updates ``k``, the weights and the bias
    (``None`` everywhere when the budget ran out)."""

    k: int | None
    w: tuple[Fraction, ...] | None
    b: Fraction | None


def run_program(program: str | Path, text: str, *, timeout: float = 60) -> ProgramRun:
    """Run the extracted program on its input ``text`` (:func:`program_input`)."""
    proc = subprocess.run(
        [str(program)], input=text, capture_output=True, text=True, timeout=timeout, check=True
    )
    out = proc.stdout.split()
    if out == ["none"]:
        return ProgramRun(None, None, None)
    nums = [int(v) for v in out[2:]]
    vals = [Fraction(a, b) for a, b in zip(nums[::2], nums[1::2], strict=True)]
    return ProgramRun(int(out[1]), tuple(vals[1:]), vals[0])
