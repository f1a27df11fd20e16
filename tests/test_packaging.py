"""The wheel: what it holds, and that it installs beside the kernel hub's ``kernels``.

The repository keeps kernels/, reference/ and properties/ at its top level, but
the wheel must install them only as ``attnfuzz.*``: a top-level ``kernels``
would overwrite and shadow Hugging Face's ``kernels`` (used with transformers).

The install tests need the package index (for the hub's ``kernels``, and for
attnfuzz's own dependencies where the wheel is installed alone): without it,
they fail under CI (which has the index) and skip elsewhere.
"""

from __future__ import annotations

import ast
import base64
import configparser
import csv
import email.parser
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import pytest
from filelock import FileLock

ROOT = Path(__file__).resolve().parents[1]
# The checkout's folders and where the wheel puts them (pyproject's package-dir).
MAPPED = {
    "attnfuzz": "attnfuzz",
    "kernels": "attnfuzz/kernels",
    "reference": "attnfuzz/reference",
    "properties": "attnfuzz/properties",
}
SUBPACKAGES = [
    "attnfuzz/kernels/__init__.py",
    "attnfuzz/reference/__init__.py",
    "attnfuzz/properties/__init__.py",
    "attnfuzz/properties/model/__init__.py",
    "attnfuzz/properties/checks/__init__.py",
    "attnfuzz/properties/implementations/__init__.py",
    "attnfuzz/properties/run/__init__.py",
    "attnfuzz/properties/mutation/__init__.py",
]
# Pinned so that a new hub release cannot change the API the probe uses.
HUB_VERSION = "0.17.2"
HUB = f"kernels=={HUB_VERSION}"
PIP = [sys.executable, "-m", "pip", "-q", "--disable-pip-version-check", "--no-input"]


def _source_version() -> str:
    """The checkout's ``attnfuzz.__version__``, read without importing it."""
    for node in ast.parse((ROOT / "attnfuzz" / "__init__.py").read_text()).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == [
            "__version__"
        ]:
            return ast.literal_eval(node.value)
    raise AssertionError("attnfuzz/__init__.py sets no __version__")


VERSION = _source_version()
DIST_INFO = f"attnfuzz-{VERSION}.dist-info"


def _run(cmd: list[str], what: str, timeout: float = 300, **kw) -> subprocess.CompletedProcess:
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{what}: no result within {timeout} s: {cmd}\n{exc.stderr}", pytrace=False)
    if done.returncode:
        pytest.fail(
            f"{what} failed (exit {done.returncode}): {cmd}\n{done.stdout}\n{done.stderr}",
            pytrace=False,
        )
    return done


def _once(
    tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]
) -> Path:
    """``make(dir)`` once per session, however many xdist workers ask; returns dir."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the session's directory, shared by its workers
    root, outcome = base / name, base / f"{name}.json"
    with FileLock(str(base / f"{name}.lock")):
        if outcome.exists():
            result = json.loads(outcome.read_text())
        else:
            try:
                make(root)
            except BaseException as exc:  # pytest's skip and fail are BaseExceptions
                kind = "skip" if isinstance(exc, pytest.skip.Exception) else "fail"
                outcome.write_text(json.dumps({kind: getattr(exc, "msg", None) or repr(exc)}))
                raise
            outcome.write_text("{}")
            result = {}
    if "skip" in result:
        pytest.skip(result["skip"])
    if "fail" in result:
        pytest.fail(f"(as in another worker) {result['fail']}", pytrace=False)
    return root


_TOP_JUNK = {".git", ".venv", "build", "dist", ".hypothesis", ".ruff_cache", ".attnfuzz", ".whl"}


def _junk(folder: str, names: list[str]) -> set[str]:
    top = Path(folder) == ROOT
    return {
        n
        for n in names
        if n == "__pycache__"
        or n.endswith(".egg-info")
        or (top and (n in _TOP_JUNK or n.startswith("venv")))
    }


def _local_backend_fits() -> bool:
    """Whether this environment meets pyproject's build-system requires."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10: let pip read them
        return False
    from packaging.requirements import Requirement

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    for text in pyproject["build-system"]["requires"]:
        req = Requirement(text)
        try:
            have = importlib.metadata.version(req.name)
        except importlib.metadata.PackageNotFoundError:
            return False
        if not req.specifier.contains(have, prereleases=True):
            return False
    return True


def _build_wheel(out: Path) -> None:
    # From a copy: setuptools writes build/ and *.egg-info into the source tree,
    # and a build/lib left by an older layout would leak into the wheel.
    src = out / "src"
    shutil.copytree(ROOT, src, ignore=_junk)
    if _local_backend_fits():  # offline
        flags = ["--no-build-isolation", "--check-build-dependencies"]
    else:  # pip fetches the backend
        _need_index()
        flags = []
    _run([*PIP, "wheel", "--no-deps", *flags, "-w", str(out / "dist"), str(src)], "wheel build")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    built = list((_once(tmp_path_factory, "attnfuzz-wheel", _build_wheel) / "dist").glob("*.whl"))
    assert len(built) == 1, built
    return built[0]


@pytest.fixture(scope="module")
def names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as z:
        return z.namelist()


def test_wheel_installs_only_attnfuzz(wheel: Path, names: list[str]) -> None:
    assert wheel.name == f"attnfuzz-{VERSION}-py3-none-any.whl"
    tops = {n.split("/")[0] for n in names}
    assert not tops & {"kernels", "reference", "properties", "tests", "benchmarks"}
    assert tops == {"attnfuzz", DIST_INFO}
    stray = [n for n in names if {"tests", "benchmarks", "conftest.py"} & set(n.split("/"))]
    assert not stray


def test_wheel_has_every_module_of_the_checkout(names: list[str]) -> None:
    for path in [*SUBPACKAGES, "attnfuzz/__init__.py", "attnfuzz/__main__.py"]:
        assert path in names
    # Listed by hand in pyproject: a new subpackage there is easily forgotten.
    expected = {
        f"{dest}/{py.relative_to(ROOT / src).as_posix()}"
        for src, dest in MAPPED.items()
        for py in (ROOT / src).rglob("*.py")
        if "__pycache__" not in py.parts
    }
    assert len(expected) > len(SUBPACKAGES)
    assert sorted(expected - set(names)) == []
    assert sorted(n for n in names if n.endswith(".py") and n not in expected) == []


def test_wheel_metadata(wheel: Path, names: list[str]) -> None:
    assert "attnfuzz/py.typed" in names
    with zipfile.ZipFile(wheel) as z:
        assert z.read(f"{DIST_INFO}/licenses/LICENSE") == (ROOT / "LICENSE").read_bytes()
        meta = email.parser.Parser().parsestr(z.read(f"{DIST_INFO}/METADATA").decode())
        entry_points = configparser.ConfigParser()
        entry_points.read_string(z.read(f"{DIST_INFO}/entry_points.txt").decode())
        top_level = z.read(f"{DIST_INFO}/top_level.txt").decode().split()
    assert (meta["Name"], meta["Version"]) == ("attnfuzz", VERSION)
    assert meta.get_all("License-File") == ["LICENSE"]
    assert top_level == ["attnfuzz"]
    target = entry_points["console_scripts"]["attnfuzz"]
    assert target == "attnfuzz.properties.run.cli:main"
    assert target.split(":")[0].replace(".", "/") + ".py" in names


class Fresh(NamedTuple):
    root: Path
    python: Path
    purelib: Path
    scripts: Path


def _unavailable(msg: str) -> None:
    """Fail under CI, which has what the install tests need, and skip elsewhere."""
    if os.environ.get("CI", "").lower() not in ("", "0", "false"):
        pytest.fail(msg, pytrace=False)
    pytest.skip(msg)


def _need_index() -> None:
    """Fail (under CI, which has the index) or skip unless the index serves the hub."""
    query = [*PIP, "index", "versions", "kernels", "--timeout", "15", "--retries", "1"]
    probe = subprocess.run(query, capture_output=True, text=True, timeout=120)
    if probe.returncode == 0:
        return
    _unavailable(
        f"the package index is unreachable or lacks the hub's kernels:\n{probe.stderr.strip()}"
    )


def _outer_dirs() -> list[str]:
    # Where torch, triton, numpy and hypothesis live (the outer venv's
    # site-packages).  A .pth line only appends its directory: that directory's
    # own .pth files, the editable attnfuzz among them, do not run.
    dirs = []
    for name in ("torch", "triton", "numpy", "hypothesis"):
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin, f"{name} is not installed here"
        dirs.append(str(Path(spec.origin).parents[1]))
    return list(dict.fromkeys(dirs))


def _make_fresh(wheel: Path) -> Callable[[Path], None]:
    def make(root: Path) -> None:
        _need_index()
        venv.EnvBuilder(with_pip=False, symlinks=os.name != "nt").create(root)
        python = root / "bin" / "python"
        show = "import json, sysconfig; print(json.dumps(sysconfig.get_paths()))"
        paths = json.loads(_run([str(python), "-I", "-c", show], "fresh venv paths").stdout)
        target = [*PIP, "--python", str(python), "install"]
        # Both before the outer directories join: the resolver sees only this venv.
        _run([*target, "--only-binary=:all:", HUB], f"installing {HUB}")
        _run([*target, "--no-deps", str(wheel)], "installing the attnfuzz wheel")
        (Path(paths["purelib"]) / "_outer_site.pth").write_text("\n".join(_outer_dirs()) + "\n")
        (root / "probe.py").write_text(PROBE)
        (root / "paths.json").write_text(json.dumps(paths))

    return make


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Fresh:
    root = _once(tmp_path_factory, "fresh-venv", _make_fresh(wheel))
    paths = json.loads((root / "paths.json").read_text())
    return Fresh(root, root / "bin" / "python", Path(paths["purelib"]), Path(paths["scripts"]))


def _env(fresh: Fresh) -> dict[str, str]:
    # Nothing of this session's setup: the backend choice is the fresh import's.
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTHON", "TRITON_", "ATTNFUZZ_", "VIRTUAL_ENV"))
    }
    env.update(PYTHONNOUSERSITE="1", HF_HUB_OFFLINE="1", HF_HOME=str(fresh.root / "hf"))
    return env


def _record(dist_info: Path) -> dict[str, str]:
    with open(dist_info / "RECORD", newline="") as f:
        return {row[0]: row[1] for row in csv.reader(f) if row}


def _sha256(path: Path) -> str:
    digest = hashlib.sha256(path.read_bytes()).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def test_installing_attnfuzz_leaves_hub_kernels_intact(fresh: Fresh) -> None:
    records = {d.name: _record(d) for d in fresh.purelib.glob("*.dist-info")}
    hub = f"kernels-{HUB_VERSION}.dist-info"
    owners = sorted(d for d, files in records.items() if "kernels/__init__.py" in files)
    assert owners == [hub]
    changed = [p for p, h in records[hub].items() if h and _sha256(fresh.purelib / p) != h]
    assert changed == []
    ours = {Path(p).parts[0] for p in records[DIST_INFO]} - {".."}  # ../../../bin/attnfuzz
    assert ours == {"attnfuzz", DIST_INFO}


PROBE = r'''
import importlib
import importlib.metadata
import json
import os
import sys

interpret_before = os.environ.get("TRITON_INTERPRET")
for name in sys.argv[1:]:
    importlib.import_module(name)

import torch

import attnfuzz
import kernels

U32, U64 = 2.0**-24, 2.0**-53


def gamma(n, u):
    """Higham's gamma_n: the relative error of n roundings."""
    return n * u / (1 - n * u)


report = {
    "interpret_before": interpret_before,
    "interpret": os.environ.get("TRITON_INTERPRET"),
    "cuda": torch.cuda.is_available(),
    "attnfuzz_file": attnfuzz.__file__,
    "kernels_file": kernels.__file__,
    "version": attnfuzz.__version__,
    "dist_version": importlib.metadata.version("attnfuzz"),
    "hub_version": getattr(kernels, "__version__", None),
}
dev = "cuda" if report["cuda"] else "cpu"
g = torch.Generator().manual_seed(1234)

M, K, N = 5, 37, 6
a, b = torch.randn(M, K, generator=g), torch.randn(K, N, generator=g)
c = attnfuzz.matmul(a.to(dev), b.to(dev)).cpu().double()
a64, b64 = a.double(), b.double()
# Each fp32 product a_ik b_kj is rounded once and then meets at most K - 1
# additions on its way through any summation tree (zero padding adds exactly),
# so |c - a @ b| <= gamma_K(u32) * (|a| @ |b|) whatever the blocking.  The
# float64 reference's own sum (exact products) adds gamma_K(u64) of the same.
tol = (gamma(K, U32) + gamma(K, U64)) * (a64.abs() @ b64.abs())
report["matmul"] = ((c - a64 @ b64).abs() / tol).max().item()

B, H, SQ, SK, D = 1, 2, 5, 7, 16
q, k, v = (torch.randn(B, H, s, D, generator=g) for s in (SQ, SK, SK))
o = attnfuzz.flash_attention(q.to(dev), k.to(dev), v.to(dev)).cpu().double()
q64, k64, v64 = q.double(), k.double(), v.double()
scale = D**-0.5
t = scale * q64 @ k64.transpose(-1, -2)
m = t.amax(-1, keepdim=True)
p = torch.softmax(t, -1)
# Weight j is exp(t_j - m) with its argument off by at most
#   d_j = gamma_D(u32) * scale * sum_d |q_d k_jd|   the fp32 q.k dot
#       + 2 u32 |t_j|                             rounding scale * log2(e), and the
#                                                 logit times it
#       + 2 u32 |t_j - m| + 4 u32                 the subtraction; exp2 (2 ulp)
# so a normalised weight is off by a factor within exp(+-2 max_j d_j) (the
# normaliser moves by at most exp(+-max_j d_j)).  The row sum and the P @ V sum
# (SK terms each), one rescale and the division add gamma_{2 SK + 8}:
#   |o - p @ v| <= (exp(2 d) (1 + gamma_{2 SK + 8}) - 1) * (p @ |v|).
d = gamma(D, U32) * scale * (q64.abs() @ k64.abs().transpose(-1, -2))
d = (d + 2 * U32 * t.abs() + 2 * U32 * (t - m).abs() + 4 * U32).amax(-1, keepdim=True)
tol = (torch.exp(2 * d) * (1 + gamma(2 * SK + 8, U32)) - 1) * (p @ v64.abs())
report["flash"] = ((o - p @ v64).abs() / tol).max().item()
report["attnfuzz_kernels_file"] = sys.modules["attnfuzz.kernels"].__file__

try:
    from kernels import (
        LayerRepository,
        Mode,
        kernelize,
        use_kernel_forward_from_hub,
        use_kernel_mapping,
    )

    @use_kernel_forward_from_hub("AttnfuzzProbe")
    class Double(torch.nn.Module):
        def forward(self, x):
            return 2 * x

    # The mapping names a CUDA kernel only, so on the CPU kernelize keeps the
    # layer's own forward, and HF_HUB_OFFLINE=1 would stop any download.
    cuda_only = {"AttnfuzzProbe": {"cuda": LayerRepository(
        repo_id="kernels-community/activation", layer_name="SiluAndMul", version=1)}}
    with use_kernel_mapping(cuda_only):
        model = kernelize(torch.nn.Sequential(Double()), mode=Mode.INFERENCE, device="cpu")
    report["hub_layer"] = Double.kernel_layer_name
    report["hub_out"] = model(torch.arange(3.0)).tolist()
except Exception as exc:  # reported, so that the test names what broke
    report["hub_error"] = repr(exc)
report["kernels_kept"] = sys.modules["kernels"] is kernels
print(json.dumps(report))
'''


@pytest.mark.parametrize("first", ["attnfuzz", "kernels"])
def test_both_import_and_work_in_one_venv(fresh: Fresh, first: str) -> None:
    order = [first, *({"attnfuzz", "kernels"} - {first})]
    probe = [str(fresh.python), "-I", str(fresh.root / "probe.py"), *order]
    done = _run(probe, "probe", env=_env(fresh))
    r = json.loads(done.stdout.splitlines()[-1])
    site = fresh.purelib
    assert r["attnfuzz_file"] == str(site / "attnfuzz" / "__init__.py")
    assert r["attnfuzz_kernels_file"] == str(site / "attnfuzz" / "kernels" / "__init__.py")
    assert r["kernels_file"] == str(site / "kernels" / "__init__.py")
    assert r["kernels_kept"]
    assert r["hub_version"] == HUB_VERSION
    assert r.get("hub_error") is None
    assert (r["hub_layer"], r["hub_out"]) == ("AttnfuzzProbe", [0.0, 2.0, 4.0])
    assert r["version"] == r["dist_version"] == VERSION
    # The backend is the fresh import's choice, not inherited from this session.
    assert r["interpret_before"] is None
    assert r["interpret"] == ("0" if r["cuda"] else "1")
    # Measured error over the derived bound, at the worst element.
    assert r["matmul"] <= 1
    assert r["flash"] <= 1


def test_cli_entry_point(fresh: Fresh) -> None:
    command = fresh.scripts / "attnfuzz"
    assert command.read_text().splitlines()[0] == f"#!{fresh.python}"
    done = _run([str(command), "--help"], "attnfuzz --help", env=_env(fresh), cwd=fresh.root)
    assert done.stdout.startswith("usage: attnfuzz")


# The CPU build that .ci/run installs from local disk (pip's find-links).
TORCH = "torch==2.13.0"


@pytest.fixture(scope="module")
def bare(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Iterator[Fresh]:
    """A venv with the wheel installed as a user installs it: no extras, its
    dependencies resolved by pip, nothing of this environment on the path."""
    _need_index()
    root = tmp_path_factory.mktemp("bare-venv")
    venv.EnvBuilder(with_pip=False, symlinks=os.name != "nt").create(root)
    python = root / "bin" / "python"
    show = "import json, sysconfig; print(json.dumps(sysconfig.get_paths()))"
    paths = json.loads(_run([str(python), "-I", "-c", show], "bare venv paths").stdout)
    # --no-compile: byte-compiling all of torch's files would cost far more than
    # the test itself; the one run below compiles only what it imports.
    target = [*PIP, "--python", str(python), "install", "--only-binary=:all:", "--no-compile"]
    # From local disk only (--no-index): from the index, pip would take a
    # multi-GB CUDA build.  Its own dependencies come with the wheel's below.
    local = subprocess.run([*target, "--no-index", "--no-deps", TORCH],
                           capture_output=True, text=True, timeout=300)
    if local.returncode:
        _unavailable(f"{TORCH} is not on local disk (pip's find-links):\n{local.stderr.strip()}")
    _run([*target, str(wheel), TORCH], "installing the attnfuzz wheel without extras")
    yield Fresh(root, python, Path(paths["purelib"]), Path(paths["scripts"]))
    shutil.rmtree(root, ignore_errors=True)  # over 1 GB, torch and triton mostly


def test_the_command_runs_without_pytest(bare: Fresh, tmp_path: Path) -> None:
    # pytest is the plugin's alone (the test extra): the command must not need it.
    probe = subprocess.run([str(bare.python), "-I", "-c", "import pytest"],
                           capture_output=True, text=True, timeout=60)
    assert probe.returncode == 1, probe.stdout + probe.stderr
    assert "No module named 'pytest'" in probe.stderr, probe.stderr
    argv = [str(bare.scripts / "attnfuzz"), "run", "--impl", "matmul", "--dtype", "float32",
            "--examples", "1", "--seed", "1"]
    env = {**_env(bare), "OMP_NUM_THREADS": "1"}
    assert not tmp_path.resolve().is_relative_to(ROOT)  # no checkout to import from
    done = _run(argv, "attnfuzz run in a venv without pytest", env=env, cwd=tmp_path)
    assert "0 failing implementation/dtype pairs" in done.stdout, done.stdout


USER_KERNEL = '''
import torch


def attention(q, k, v, dropout_p=0.0, softmax_scale=None, causal=False, bug=None):
    """flash_attn_func's convention, (B, S, H, D) tensors, in plain torch."""
    scale = q.shape[-1] ** -0.5 if softmax_scale is None else softmax_scale
    hq, hkv = q.shape[2], k.shape[2]
    # The GQA bug: query head h reads KV head h % Hkv, where flash_attn groups them.
    heads = torch.tensor([h % hkv if bug == "gqa" else h // (hq // hkv) for h in range(hq)])
    k, v = k[:, :, heads].float(), v[:, :, heads].float()
    logits = torch.einsum("bqhd,bkhd->bhqk", q.float(), k) * scale
    if causal:
        sq, sk = q.shape[1], k.shape[1]
        hidden = torch.arange(sk)[None, :] > torch.arange(sq)[:, None] + sk - sq
        logits = logits.masked_fill(hidden, float("-inf"))
    out = torch.einsum("bhqk,bkhd->bqhd", torch.softmax(logits, -1).nan_to_num(0.0), v)
    out = out.to(q.dtype)
    return out.transpose(1, 2) if bug == "shape" else out


def gqa_bug(q, k, v, **kw):
    return attention(q, k, v, bug="gqa", **kw)


def wrong_shape(q, k, v, **kw):
    return attention(q, k, v, bug="shape", **kw)
'''

USER_TEST = '''
import attnfuzz
from user_kernel import attention

test_attention = attnfuzz.fuzz_test(
    attention, convention="flash_attn", supports=attnfuzz.Support(dtypes="float32", max_seq=16),
    properties=("oracle",), dtypes=("float32",), max_examples=3)
'''


def test_a_user_finding_from_the_installed_wheel(fresh: Fresh, tmp_path: Path) -> None:
    """A kernel author's first session, outside the repository with the installed wheel: a
    GQA head-mapping bug shrinks to one query over one key and is named at an index
    of the user's (B, S, H, D) output; a result of the wrong shape is a dumped
    finding; --export refuses to overwrite; the documented profiles load."""
    assert not tmp_path.resolve().is_relative_to(ROOT)
    (tmp_path / "user_kernel.py").write_text(USER_KERNEL)
    env = {**_env(fresh), "OMP_NUM_THREADS": "1"}
    attnfuzz = str(fresh.scripts / "attnfuzz")

    def campaign(fn: str, dumps: str) -> tuple[str, Path]:
        argv = [attnfuzz, "run", "--impl", f"user_kernel.py:{fn}", "--convention", "flash_attn",
                "--supports", "dtypes=float32;max_seq=16", "--property", "oracle",
                "--dtype", "float32", "--examples", "40", "--seed", "1", "--dump-dir", dumps]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=env,
                              cwd=tmp_path)
        assert done.returncode == 1, done.stdout + done.stderr
        written = sorted((tmp_path / dumps).iterdir())
        assert len(written) == 1, (written, done.stdout)
        return done.stdout + done.stderr, written[0]

    out, dump = campaign("gqa_bug", "gqa")
    assert "Sq=1 Sk=1" in out, out
    replayed = subprocess.run([attnfuzz, "replay", str(dump)], capture_output=True, text=True,
                              timeout=300, env=env, cwd=tmp_path)
    assert replayed.returncode == 1, replayed.stdout + replayed.stderr
    assert "of its (B, S, H, D) out" in replayed.stdout, replayed.stdout

    out, dump = campaign("wrong_shape", "shape")
    assert "contract" in out and "as (B, S, H, D)" in out, out
    mine = tmp_path / "user_kernel.py"
    refused = subprocess.run([attnfuzz, "replay", str(dump), "--export", str(mine)],
                             capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert refused.returncode == 2 and "--force" in refused.stderr, refused.stderr
    assert mine.read_text() == USER_KERNEL

    (tmp_path / "test_user.py").write_text(USER_TEST)
    for profile in ("dev", "thorough"):
        done = subprocess.run([str(fresh.python), "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               f"--hypothesis-profile={profile}", "test_user.py"],
                              capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "1 passed" in done.stdout, done.stdout
