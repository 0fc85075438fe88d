"""The package as a user gets it: the built wheel installed in a fresh virtual environment.

The wheel is built from a copy of the source tree (nothing is written into the
repository) and installed with ``--no-deps`` into a new venv; the running environment's
site-packages are made visible to it through a ``.pth`` file, so no dependency is
downloaded, and the test checks that ``pla_proof`` is imported from the wheel.  Then, from
a directory outside the checkout, it runs what a user runs: ``pla-proof --help``, every
``$ pla-proof`` command of the README and its Python one-liner, the shipped examples,
``pytest -p pla_proof`` with each profile, and a user script checked by mypy (``py.typed``).
"""

from __future__ import annotations

import email
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

import pla_proof
from pla_proof.build_loops import REUSE

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
pytestmark = pytest.mark.packaging


def test_version_is_the_installed_metadata() -> None:
    assert pla_proof.__version__ == PROJECT["version"]


def test_license_is_declared_per_pep_639() -> None:
    assert PROJECT["license"] == "MIT"
    assert PROJECT["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]
    assert "setuptools>=77" in build["requires"]  # the first with license expressions


def test_changelog_keeps_an_unreleased_section_and_the_current_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text()
    headings = re.findall(r"^## \[([^\]]+)\]", text, flags=re.M)
    assert headings[0] == "Unreleased"
    assert PROJECT["version"] in headings
    for section in re.findall(r"^### (.+)$", text, flags=re.M):
        assert section in {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


@dataclass
class Installed:
    venv: Path
    wheel: Path
    seconds: float
    work: Path

    @property
    def bin(self) -> Path:
        return self.venv / "bin"

    def run(self, *cmd: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PLA_PROOF", "HYPOTHESIS"))}
        env["PATH"] = f"{self.bin}{os.pathsep}{env.get('PATH', '')}"
        env.pop("PYTHONPATH", None)
        return subprocess.run(
            list(cmd), cwd=self.work, env=env, capture_output=True, text=True, timeout=timeout
        )


def _copy_tree(dest: Path) -> Path:
    ignore = shutil.ignore_patterns(
        ".git",
        ".hypothesis",
        "*_cache",
        "__pycache__",
        "build",
        "dist",
        "*.egg-info",
        ".venv",
        "_loops.*",  # an editable install's loops: the wheel's build makes its own
    )
    # a worker that died mid-build (pytest-timeout) leaves its copy: start afresh
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(ROOT, dest, ignore=ignore)
    return dest


def _build_and_install(tmp: Path) -> Installed:
    t0 = time.perf_counter()
    src = _copy_tree(tmp / "src")
    dist = tmp / "dist"
    # the loops the editable install built from these same sources are reused (a cache
    # keyed on the engine's sources, the processor and Python: two minutes of compiling
    # saved; CI's own install is the build from scratch); anything else is built afresh
    env = {**os.environ, REUSE: str(ROOT / "pla_proof" / "engine")}
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(src)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    if build.returncode != 0 and "setuptools" in build.stderr and "No matching" in build.stderr:
        pytest.skip("cannot build the wheel: setuptools>=77 is not reachable")
    assert build.returncode == 0, build.stderr
    (wheel,) = dist.glob("pla_proof-*.whl")
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()
    pip = [sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps"]
    install = subprocess.run(
        [*pip, "--no-index", str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stderr
    # the running environment provides the dependencies (nothing is downloaded)
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(purelib, "zz_running_environment.pth").write_text("\n".join(sorted(deps)) + "\n")
    (tmp / "built").write_text(f"{time.perf_counter() - t0}\n")
    return Installed(venv, wheel, time.perf_counter() - t0, tmp)


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The wheel, built and installed once per run: under ``pytest -n N`` the first
    worker to get here builds it (the others wait on a file lock) and all share it --
    the xdist pattern for session fixtures, whatever the scheduler does."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        tmp = tmp_path_factory.mktemp("wheel")
        built = _build_and_install(tmp)
    else:
        import fcntl

        tmp = tmp_path_factory.getbasetemp().parent / "wheel"
        tmp.mkdir(exist_ok=True)
        with open(tmp.parent / "wheel.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                if (tmp / "built").exists():
                    seconds = float((tmp / "built").read_text())
                    (wheel,) = (tmp / "dist").glob("pla_proof-*.whl")
                    built = Installed(tmp / "venv", wheel, seconds, tmp)
                else:
                    built = _build_and_install(tmp)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
    work = Path(tempfile.mkdtemp(prefix="user-", dir=tmp))
    return Installed(built.venv, built.wheel, built.seconds, work)


def test_the_wheel_ships_its_metadata_types_examples_and_entry_points(
    installed: Installed,
) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
    for required in (
        "pla_proof/py.typed",
        "pla_proof/examples/half_step_margin.py",
        "pla_proof/examples/students.csv",
        "pla_proof/examples/decimals.csv",
        "pla_proof/examples/xor.csv",
        "pla_proof/testing/plugin.py",
        "_pla_proof_hypothesis.py",
        f"{info}/licenses/LICENSE",
        f"{info}/entry_points.txt",
    ):
        assert required in names, required
    assert not any(n.startswith(("tests/", "properties/", "benchmarks/")) for n in names)
    with zipfile.ZipFile(installed.wheel) as z:
        meta = email.message_from_bytes(z.read(f"{info}/METADATA"))
        entry_points = z.read(f"{info}/entry_points.txt").decode()
    assert meta["License-Expression"] == "MIT"
    assert meta["Version"] == PROJECT["version"]
    assert "Typing :: Typed" in (meta.get_all("Classifier") or [])
    assert "pla_proof = pla_proof.testing.plugin" in entry_points
    assert "pla_proof = _pla_proof_hypothesis:setup_hook" in entry_points
    # built and installed quickly enough to run in CI (building the loops ahead of time
    # takes about 45 s of it on one idle core)
    assert installed.seconds < 240, f"{installed.seconds:.1f} s"


def test_the_wheel_ships_the_loops_built_ahead_of_time(installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    assert "pla_proof/engine/_loops.json" in names
    assert any(re.fullmatch(r"pla_proof/engine/_loops\..*\.so", n) for n in names), names
    code = (
        "import sys\n"
        "from pla_proof import load, train\n"
        "from pla_proof.engine import aot\n"
        "r = train(load('orthonormal:40'), mode='float')\n"
        "print(aot.status(), r.status, 'numba' in sys.modules)"
    )
    done = installed.run("python", "-c", code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["loaded", "converged", "False"]


def test_pla_proof_is_imported_from_the_wheel(installed: Installed) -> None:
    done = installed.run(
        "python", "-c", "import pla_proof; print(pla_proof.__file__, pla_proof.__version__)"
    )
    assert done.returncode == 0, done.stderr
    where, version = done.stdout.split()
    assert Path(where).is_relative_to(installed.venv)
    assert version == PROJECT["version"]
    helped = installed.run("pla-proof", "--help")
    assert helped.returncode == 0 and "verify" in helped.stdout


def readme_commands() -> list[tuple[str, int]]:
    """Every ``$ pla-proof ...`` command shown in the README, with its exit code."""
    text = (ROOT / "README.md").read_text()
    commands = re.findall(r"^\$ (pla-proof .+)$", text, flags=re.M)
    assert len(commands) >= 5
    return [(c, 3 if c == "pla-proof trace xor" else 0) for c in commands]


@pytest.mark.parametrize(("command", "code"), readme_commands())
def test_every_readme_command_runs_from_the_wheel(
    installed: Installed, command: str, code: int
) -> None:
    done = installed.run(*command.split())
    assert done.returncode == code, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.strip()


def test_the_readme_python_example_runs_from_the_wheel(
    installed: Installed,
) -> None:
    text = (ROOT / "README.md").read_text()
    (snippet,) = re.findall(r'^\$ python -c "(.+?)"$', text, flags=re.M | re.S)
    done = installed.run("python", "-c", re.sub(r"\n\s*", " ", snippet))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("L1 (progress identity) fails at update k=2")


def test_the_shipped_examples(installed: Installed) -> None:
    listing = installed.run("python", "-m", "pla_proof.examples")
    assert listing.returncode == 0
    shipped = [Path(ln.strip()) for ln in listing.stdout.splitlines() if ln.startswith(" ")]
    assert len(shipped) == 5 and all(p.is_relative_to(installed.venv) for p in shipped)
    for data, code in (("students.csv", 0), ("xor.csv", 3)):
        done = installed.run(
            "sh", "-c", f'pla-proof bound "$(python -m pla_proof.examples {data})" --bias augment'
        )
        assert done.returncode == code, done.stdout + done.stderr
    spec = "pla_proof.examples.perceptrons:Textbook"
    fit = installed.run("pla-proof", "check", "--fit", spec, "--examples", "20", "--epochs", "500")
    assert fit.returncode == 0, fit.stdout + fit.stderr
    assert "read as: weights w_[1:], bias w_[0]" in fit.stdout
    copied = installed.run("python", "-m", "pla_proof.examples", "--copy", "mine")
    assert copied.returncode == 0
    mine = installed.work / "mine" / "half_step_margin.py"
    checked = installed.run("pla-proof", "check", f"{mine}:variant", "--examples", "20")
    assert checked.returncode == 0 and "all 9 properties of the claim hold" in checked.stdout
    # the copy is the user's own: a broken claim in it is refuted
    mine.write_text(mine.read_text().replace("radius_squared / 4 + 1", "radius_squared / 4"))
    broken = installed.run(
        "pla-proof", "check", f"{mine}:variant", "--examples", "30", "--out", "ce"
    )
    assert broken.returncode == 1 and "G1" in broken.stdout


USER_SUITE = """
from hypothesis import given, strategies as st
from pla_proof import Dataset, train
from pla_proof.strategies import SeparableCase


@given(st.from_type(SeparableCase))
def test_the_bound_holds(case: SeparableCase) -> None:
    run = train(case.data, comparator=case.u)
    assert run.status == "converged" and run.updates <= case.bound


@given(st.from_type(Dataset))
def test_datasets(data: Dataset) -> None:
    assert data.n >= 1


def test_fixtures(pla_profile, pla_check_variant, pla_report):
    pla_report("profile", pla_profile)
    assert pla_check_variant("classic", examples=10).ok
"""


@pytest.mark.parametrize("profile", ["dev", "ci", "thorough", "campaign"])
def test_pytest_p_pla_proof_with_each_profile(installed: Installed, profile: str) -> None:
    suite = installed.work / f"suite_{profile}"
    suite.mkdir()
    (suite / "test_user.py").write_text(USER_SUITE)
    args = ["python", "-m", "pytest", str(suite), "-p", "pla_proof", f"--pla-profile={profile}"]
    args += ["-p", "no:cacheprovider", "-q"]
    if profile == "campaign":
        args += ["--pla-minutes=0.1"]
    if profile in ("dev", "thorough"):  # their searches are long; ci and campaign run one
        args += ["-k", "fixtures"]
    done = installed.run(*args)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"test_fixtures: profile = {profile}" in done.stdout
    if profile == "campaign":
        assert "test_the_bound_holds: campaign = " in done.stdout


def test_pytest_p_pla_proof_loads_the_plugin_without_autoloading(installed: Installed) -> None:
    suite = installed.work / "suite_no_autoload"
    suite.mkdir()
    (suite / "test_user.py").write_text(USER_SUITE)
    env_cmd = ["env", "PYTEST_DISABLE_PLUGIN_AUTOLOAD=1", "python", "-m", "pytest", str(suite)]
    without = installed.run(*env_cmd, "-q", "--pla-profile=ci")
    assert without.returncode == pytest.ExitCode.USAGE_ERROR  # no plugin, no option
    loaded = installed.run(*env_cmd, "-q", "-p", "pla_proof", "--pla-profile=ci")
    assert loaded.returncode == 0, loaded.stdout + loaded.stderr


USER_SCRIPT = """
from fractions import Fraction

from pla_proof import Run, load, train


def updates(name: str) -> int:
    run: Run = train(load(name), rule="cyclic")
    bound: Fraction | None = run.bound
    assert bound is not None
    return run.updates


print(updates("orthonormal:3"))
"""


def test_a_user_script_is_type_checked_against_the_wheel(installed: Installed) -> None:
    script = installed.work / "user_script.py"
    script.write_text(USER_SCRIPT)
    mypy = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(installed.work / ".mypy")]
    mypy += ["--python-executable", str(installed.bin / "python"), str(script)]
    ok = installed.run(*mypy)
    assert ok.returncode == 0, ok.stdout
    assert installed.run("python", str(script)).stdout.strip() == "3"
    # py.typed: mypy reads the library's annotations, so a wrong call is an error
    script.write_text(USER_SCRIPT.replace('train(load(name), rule="cyclic")', "train(name)"))
    wrong = installed.run(*mypy)
    assert wrong.returncode == 1
    assert 'Argument 1 to "train" has incompatible type "str"' in wrong.stdout


def test_citation_cff_is_valid(tmp_path: Path) -> None:
    """``cffconvert --validate`` in a venv of its own (it pins an old jsonschema)."""
    venv = tmp_path / "cff"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    pip = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "cffconvert==2.0.0"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if pip.returncode != 0:
        pytest.skip(f"cffconvert cannot be installed here: {pip.stderr.strip()[-200:]}")
    cff = [str(venv / "bin" / "cffconvert"), "--validate", "-i"]
    ok = subprocess.run([*cff, str(ROOT / "CITATION.cff")], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    broken = tmp_path / "CITATION.cff"
    text = (ROOT / "CITATION.cff").read_text()
    broken.write_text(text.replace("cff-version: 1.2.0", "cff-version: 1.2.0\nauthorz: []"))
    bad = subprocess.run([*cff, str(broken)], capture_output=True, text=True)
    assert bad.returncode != 0
