"""Does ``pla-proof check --all --json`` give the same verdicts, failing properties and
counterexamples as another revision?  The structural changes of the package promise
that it does; this script is how that promise is checked.

    python benchmarks/check_all_same.py REV          # REV: a commit, e.g. fd395f2
    python benchmarks/check_all_same.py OLD.json NEW.json

With a revision, the script checks it out into a temporary worktree, runs
``python -m pla_proof check --all --json`` there and in this checkout (one after the
other, the same options), and compares the two documents with every timing left out
(``seconds`` and the like).  It prints the differences, if any, and exits 1 when there
are some.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
#: Keys whose values are measured times, not results.
TIMINGS = {"seconds", "compile_seconds", "elapsed", "wall_seconds"}


def normalise(doc: Any) -> Any:
    """The document without its timings."""
    if isinstance(doc, dict):
        return {k: normalise(v) for k, v in doc.items() if k not in TIMINGS}
    if isinstance(doc, list):
        return [normalise(v) for v in doc]
    return doc


def differences(old: Any, new: Any, where: str = "") -> list[str]:
    """Every path at which the two documents differ."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for k in sorted(set(old) | set(new)):
            if k not in old or k not in new:
                out.append(f"{where}/{k}: only in {'new' if k in new else 'old'}")
            else:
                out += differences(old[k], new[k], f"{where}/{k}")
        return out
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return [f"{where}: {len(old)} items before, {len(new)} after"]
        return [
            d
            for i, (a, b) in enumerate(zip(old, new, strict=True))
            for d in differences(a, b, f"{where}[{i}]")
        ]
    return [] if old == new else [f"{where}: {old!r} -> {new!r}"]


def check_all(tree: Path, extra: list[str]) -> Any:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.run(
        [sys.executable, "-m", "pla_proof", "check", "--all", "--json", *extra],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode not in (0, 1):
        sys.exit(f"check --all in {tree} exited {proc.returncode}: {proc.stderr.strip()}")
    return json.loads(proc.stdout)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("old", help="a revision, or the old document (.json)")
    p.add_argument("new", nargs="?", help="the new document (.json); default: run this checkout")
    p.add_argument("--jobs", default="2")
    a = p.parse_args(argv)
    extra = ["--jobs", a.jobs]
    if a.old.endswith(".json"):
        old = json.loads(Path(a.old).read_text())
    else:
        with tempfile.TemporaryDirectory() as tmp:
            wt = Path(tmp) / "old"
            subprocess.run(
                ["git", "worktree", "add", "-q", "--detach", str(wt), a.old], cwd=HERE, check=True
            )
            try:
                old = check_all(wt, extra)
            finally:
                subprocess.run(
                    ["git", "worktree", "remove", "--force", str(wt)], cwd=HERE, check=False
                )
    new = json.loads(Path(a.new).read_text()) if a.new else check_all(HERE, extra)
    diff = differences(normalise(old), normalise(new))
    n = len(old.get("reports", []))
    if diff:
        print(f"check --all --json differs in {len(diff)} place(s):")
        print("\n".join(diff))
        return 1
    print(f"check --all --json: the same verdicts, properties and counterexamples ({n} reports)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
