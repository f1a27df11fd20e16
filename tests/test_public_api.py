"""The package's public face: what ``attnfuzz`` and ``attnfuzz.kernels`` export, and
the shape of the package (no name hides a module, no import circle, no bare
top-level ``kernels`` / ``reference`` / ``properties``)."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

import attnfuzz

KERNEL_FUNCTIONS = (
    "matmul",
    "matmul_nt",
    "softmax",
    "naive_attention",
    "flash_attention",
    "flash_prefill",
    "flash_decode",
    "flash_hopper",
    "flash_attention_varlen",
    "flash_attention_paged",
    "plan_paged",
    "plan_varlen",
)


def _modules() -> list[str]:
    """Every module of the attnfuzz package, as imported (not by file path)."""
    names = ["attnfuzz"]
    for sub in ("kernels", "reference", "properties"):
        pkg = importlib.import_module(f"attnfuzz.{sub}")
        names.append(pkg.__name__)
        names += [m.name for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")]
    return [n for n in names if not n.endswith("__main__")]


def test_kernels_export_the_twelve_functions():
    from attnfuzz import kernels

    assert sorted(kernels.__all__) == sorted(KERNEL_FUNCTIONS)
    for name in KERNEL_FUNCTIONS:
        fn = getattr(kernels, name)
        assert isinstance(fn, types.FunctionType), f"attnfuzz.kernels.{name} is {fn!r}"
        assert getattr(attnfuzz, name) is fn


@pytest.mark.parametrize("package", ["attnfuzz", "attnfuzz.kernels", "attnfuzz.reference",
                                     "attnfuzz.properties", "attnfuzz.properties.checks",
                                     "attnfuzz.properties.implementations"])
def test_no_public_name_hides_a_module(package):
    pkg = importlib.import_module(package)
    submodules = {m.name for m in pkgutil.iter_modules(pkg.__path__)}
    exported = set(getattr(pkg, "__all__", ()))
    hidden = sorted(exported & submodules)
    assert not hidden, f"{package} exports {hidden}, which are also its submodules' names"
    for name in submodules:
        value = getattr(pkg, name, None)
        assert value is None or isinstance(value, types.ModuleType), (
            f"{package}.{name} is {value!r}, not the submodule of that name"
        )


def test_face_names_resolve():
    for name in attnfuzz.__all__:
        assert getattr(attnfuzz, name) is not None, name
    assert attnfuzz.__version__
    with pytest.raises(AttributeError, match="nosuch"):
        attnfuzz.nosuch  # noqa: B018


def _imports(module: str) -> set[str]:
    """The attnfuzz modules ``module`` imports anywhere in its source (functions too)."""
    spec = importlib.util.find_spec(module)
    tree = ast.parse(Path(spec.origin).read_text())
    is_pkg = spec.submodule_search_locations is not None
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".")
                anchor = parts if is_pkg else parts[:-1]
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for a in node.names:
                full = f"{base}.{a.name}"
                out.add(full if importlib.util.find_spec(base) and _is_module(full) else base)
    return {m for m in out if m == "attnfuzz" or m.startswith("attnfuzz.")} - {module}


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def test_no_import_circle():
    modules = _modules()
    graph = {m: _imports(m) & set(modules) for m in modules}
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                cycle = path[path.index(n):] + [n]
                pytest.fail("import circle: " + " -> ".join(cycle))
            if n not in state:
                visit(n)
        path.pop()
        state[m] = 2

    for m in modules:
        if m not in state:
            visit(m)


def test_nothing_imports_bare_top_level_names():
    """Importing every module leaves ``kernels``, ``reference`` and ``properties``
    unimported: another distribution's package of that name is never shadowed."""
    code = (
        "import importlib, sys\n"
        f"for m in {_modules()!r}:\n"
        "    importlib.import_module(m)\n"
        "print(sorted(n for n in ('kernels', 'reference', 'properties') if n in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).parent, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "[]"


def test_readme_layout_matches_the_tree():
    """Every path in the README's layout table exists, and every package folder is listed."""
    root = Path(__file__).resolve().parents[1]
    text = (root / "README.md").read_text()
    table = text[text.index("## Layout") :].split("\n## ", 1)[0]
    listed: set[Path] = set()
    for row in table.splitlines():
        if not row.startswith("| `"):
            continue
        folder = root
        for item in row.split("|")[1].replace("`", "").split(","):
            item = item.strip()
            path = (root / item) if "/" in item else (folder / item)
            assert path.exists(), f"README layout lists {item}, which is not in the tree"
            folder = path if path.is_dir() else path.parent
            listed.add(path)
    packages = [root / "attnfuzz", root / "kernels", root / "reference", root / "tests",
                root / "benchmarks"]
    packages += [p.parent for p in (root / "properties").glob("*/__init__.py")]
    covered = listed | {p.parent for p in listed}
    missing = [str(p.relative_to(root)) for p in packages if p not in covered]
    assert not missing, f"README layout does not list {missing}"
