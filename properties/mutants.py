"""Mutation testing of the harness: does it catch realistic kernel bugs?

Each ``Mutant`` is one source edit that plants a bug of a known real-world
class.  ``run_mutant`` copies ``kernels/`` into a temporary directory, applies
the edit there (never to the working tree: Triton re-reads kernel source from
files), and runs a worker process whose ``PYTHONPATH`` puts the mutated copy
first, so ``import kernels`` gets the mutant while ``properties`` and
``reference`` stay the real ones.  The worker runs the mutant's properties in
order with a fixed Hypothesis seed and stops at the first failure: the mutant
is *killed* by that property, after that many examples and seconds.

Mutants that provably cannot change any result are listed with the reason
(``equivalent``) and not counted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (property, implementation, dtype), tried in order until one kills the mutant.
MATMUL = (("oracle", "matmul", "float32"), ("oracle", "matmul_nt", "float32"),
          ("oracle", "naive", "float32"), ("oracle", "matmul", "float16"))  # fmt: skip
SOFTMAX = (("oracle", "softmax", "float32"), ("softmax_invariants", "softmax", "float32"),
           ("oracle", "naive", "float32"), ("oracle", "softmax", "float16"))  # fmt: skip
NAIVE = (("oracle", "naive", "float32"), ("oracle", "naive", "float16"),
         ("metamorphic", "naive", "float32"))  # fmt: skip
FLASH = (("oracle", "flash", "float32"), ("oracle", "flash", "float16"),
         ("metamorphic", "flash", "float32"))  # fmt: skip
DECODE = (("oracle", "decode", "float32"), ("oracle", "decode", "float16"),
          ("metamorphic", "decode", "float32"))  # fmt: skip
ALL_ATTENTION = (*NAIVE[:1], *FLASH[:1], *DECODE[:1], ("oracle", "softmax", "float32"))


@dataclass(frozen=True)
class Mutant:
    name: str
    file: str  # under kernels/
    edits: tuple[tuple[str, str], ...]  # (old, new); each old must occur exactly once
    mimics: str
    targets: tuple[tuple[str, str, str], ...]
    equivalent: str | None = None  # why no input can tell it apart, if so


def _m(name, file, edits, mimics, targets, equivalent=None) -> Mutant:
    if isinstance(edits[0], str):
        edits = (edits,)
    return Mutant(name, file, tuple(edits), mimics, targets, equivalent)


CATALOGUE: tuple[Mutant, ...] = (
    # --- matmul / matmul_nt ------------------------------------------------------------
    _m("matmul.bh_flat_one_stride", "matmul.py",
       ("a_ptr + batch * s_ab + head * s_ah", "a_ptr + (batch * H + head) * s_ah"),
       "batch x head flattened into one index times the head stride "
       "(right only for contiguous tensors)", MATMUL),
    _m("matmul.gqa_h_mod_groups", "matmul.py",
       ("head_b = head // GROUP", "head_b = head % GROUP"),
       "GQA head mapping h % groups instead of h // (Hq/Hkv)", NAIVE),
    _m("matmul.gqa_h_div_hkv", "matmul.py",
       ("head_b = head // GROUP", "head_b = head // (H // GROUP)"),
       "GQA head mapping h // Hkv (right only when Hkv equals the group size)", NAIVE),
    _m("matmul.k_tail_unmasked", "matmul.py",
       ("mask_k = offs_k < K - k0", "mask_k = offs_k < BLOCK_K"),
       "K-loop tail loaded without its mask", MATMUL),
    _m("matmul.stride_of_a_for_b", "matmul.py",
       ("offs_k[:, None].to(tl.int64) * s_bk", "offs_k[:, None].to(tl.int64) * s_ak"),
       "a stride of one tensor used for another", MATMUL),
    _m("matmul.scale_twice", "matmul.py", ("acc = acc * scale", "acc = acc * scale * scale"),
       "scale applied twice", MATMUL),
    _m("matmul.scale_missing", "matmul.py", ("acc = acc * scale", "acc = acc * 1.0"),
       "scale not applied", MATMUL),
    _m("matmul.fp16_running_sum", "matmul.py",
       ("        a_ptrs += BLOCK_K * s_ak\n",
        "        acc = acc.to(tl.float16).to(tl.float32)\n        a_ptrs += BLOCK_K * s_ak\n"),
       "accumulating in fp16", MATMUL),
    _m("matmul.out_row_stride_for_col", "matmul.py",
       ("offs_n[None, :].to(tl.int64) * s_cn", "offs_n[None, :].to(tl.int64) * s_cm"),
       "output written through the wrong stride", MATMUL),
    _m("matmul_nt.strides_not_swapped", "matmul_nt.py",
       ("return sb, sh, sk, sn", "return sb, sh, sn, sk"),
       "K read as (K, N) instead of (N, K): a missing transpose", MATMUL[1:]),
    # --- softmax ------------------------------------------------------------------------
    _m("softmax.no_max_subtraction", "softmax.py",
       (("shift = tl.where(new_max == float(\"-inf\"), 0.0, new_max)", "shift = new_max * 0.0"),
        ("shift = tl.where(row_max == float(\"-inf\"), 0.0, row_max)", "shift = row_max * 0.0")),
       "no max subtraction: exp overflows for large logits", SOFTMAX),
    _m("softmax.padding_as_zero", "softmax.py",
       (("logits = tl.where(visible, x.to(tl.float32) * scale, float(\"-inf\"))\n"
         "        new_max", "logits = tl.where(visible, x.to(tl.float32) * scale, 0.0)\n"
         "        new_max"),),
       "padding / masked lanes loaded as 0 instead of -inf", SOFTMAX),
    _m("softmax.causal_lt", "softmax.py",
       (("visible = visible & (cols[None, :] <= rows[:, None] + DIAGONAL)\n        x = tl.load("
         "x_row + cols[None, :].to(tl.int64) * s_xn, mask=visible, other=0.0)\n        logits = "
         "tl.where(visible, x.to(tl.float32) * scale, float(\"-inf\"))\n        new_max",
         "visible = visible & (cols[None, :] < rows[:, None] + DIAGONAL)\n        x = tl.load("
         "x_row + cols[None, :].to(tl.int64) * s_xn, mask=visible, other=0.0)\n        logits = "
         "tl.where(visible, x.to(tl.float32) * scale, float(\"-inf\"))\n        new_max"),),
       "'<' for '<=' in the causal mask (first pass only)", SOFTMAX),
    _m("softmax.causal_flat_row", "softmax.py",
       (("visible = visible & (cols[None, :] <= rows[:, None] + DIAGONAL)\n        x = tl.load("
         "x_row + cols[None, :].to(tl.int64) * s_xn, mask=visible, other=0.0)\n        logits = "
         "tl.where(visible, x.to(tl.float32) * scale, float(\"-inf\"))\n        p =",
         "visible = visible & (cols[None, :] <= (rows + pid_bh * M)[:, None] + DIAGONAL)\n"
         "        x = tl.load("
         "x_row + cols[None, :].to(tl.int64) * s_xn, mask=visible, other=0.0)\n        logits = "
         "tl.where(visible, x.to(tl.float32) * scale, float(\"-inf\"))\n        p ="),),
       "causal mask from the flattened row index instead of the row within its sequence",
       (*SOFTMAX[:1], *NAIVE)),
    _m("softmax.nan_on_empty_rows", "softmax.py",
       ("inv_sum = tl.where(row_sum > 0.0, 1.0 / tl.where(row_sum > 0.0, row_sum, 1.0), 0.0)",
        "inv_sum = 1.0 / row_sum"),
       "NaN for rows that see no key", SOFTMAX),
    _m("softmax.scale_missing", "softmax.py",
       ("logits = tl.where(visible, x.to(tl.float32) * scale, float(\"-inf\"))\n        p =",
        "logits = tl.where(visible, x.to(tl.float32) * 1.0, float(\"-inf\"))\n        p ="),
       "scale not applied in the second pass", SOFTMAX),
    _m("softmax.sum_not_rescaled", "softmax.py",
       ("row_sum = row_sum * tl.exp(row_max - shift) +", "row_sum = row_sum +"),
       "online sum not rescaled when the running max changes", SOFTMAX),
    _m("softmax.mask_extra_lanes_in_bounds", "softmax.py",
       ("        visible = in_bounds\n", "        visible = in_bounds & row_ok[:, None]\n"),
       "a redundant mask term", SOFTMAX,
       equivalent="in_bounds already includes row_ok: the mask is unchanged for every input"),
    # --- causal alignment (shared by every kernel) ---------------------------------------
    _m("checks.bottom_right_sign", "_checks.py",
       ("return n - m if alignment == \"bottom_right\" else 0",
        "return m - n if alignment == \"bottom_right\" else 0"),
       "bottom-right causal offset with the wrong sign", ALL_ATTENTION),
    _m("checks.bottom_right_missing", "_checks.py",
       ("return n - m if alignment == \"bottom_right\" else 0", "return 0"),
       "bottom-right causal offset missing (top-left used for the KV-cache convention)",
       ALL_ATTENTION),
    _m("checks.default_scale", "_checks.py", ("scale_f = d**-0.5", "scale_f = 1.0 / d"),
       "default scale 1/D instead of 1/sqrt(D)", ALL_ATTENTION),
    # --- naive attention -------------------------------------------------------------------
    _m("naive.pv_ignores_gqa", "naive_attention.py",
       ("k=dims.sk, group=dims.group, scale=1.0", "k=dims.sk, group=1, scale=1.0"),
       "P V reads V with the query head index (GQA mapping lost)", NAIVE),
    _m("naive.scale_twice", "naive_attention.py",
       ("launch_softmax(probs, probs, scale=1.0,",
        "launch_softmax(probs, probs, scale=dims.scale,"),
       "scale applied twice (in Q K^T and in the softmax)", NAIVE),
)  # fmt: skip


@dataclass
class Result:
    name: str
    mimics: str
    killed: bool
    error: bool = False  # the worker itself broke: neither killed nor survived
    property: str | None = None
    examples: int | None = None
    seconds: float | None = None
    detail: str = ""
    equivalent: str | None = None


def apply(mutant: Mutant, dest: Path) -> Path:
    """Copy kernels/ to dest/kernels with the mutant's edits; return dest."""
    pkg = dest / "kernels"
    shutil.copytree(ROOT / "kernels", pkg, ignore=shutil.ignore_patterns("__pycache__"))
    path = pkg / mutant.file
    src = path.read_text()
    for old, new in mutant.edits:
        count = src.count(old)
        if count != 1:
            raise ValueError(f"mutant {mutant.name}: {old!r} occurs {count} times in {mutant.file}")
        src = src.replace(old, new)
    path.write_text(src)
    return dest


def run_mutant(
    mutant: Mutant,
    *,
    examples: int,
    seed: int,
    backend: str = "auto",
    layouts: list[str] | None = None,
    families: list[str] | None = None,
) -> Result:
    if mutant.equivalent:
        return Result(mutant.name, mutant.mimics, False, equivalent=mutant.equivalent)
    with tempfile.TemporaryDirectory(prefix="attnfuzz-mutant-") as tmp:
        try:
            apply(mutant, Path(tmp))
        except ValueError as exc:  # the kernel source moved on: the edit no longer applies
            return Result(mutant.name, mutant.mimics, False, error=True, detail=str(exc))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([tmp, str(ROOT), env.get("PYTHONPATH", "")])
        env["ATTNFUZZ_DUMP_DIR"] = str(Path(tmp) / "dumps")
        env["ATTNFUZZ_MUTANT_ROOT"] = str(Path(tmp).resolve())
        env.setdefault("OMP_NUM_THREADS", "1")
        cmd = [
            sys.executable, "-m", "properties.mutants", "--worker",
            "--targets", json.dumps(mutant.targets), "--examples", str(examples),
            "--seed", str(seed), "--backend", backend,
            *(["--layouts", ",".join(layouts)] if layouts else []),
            *(["--families", ",".join(families)] if families else []),
        ]  # fmt: skip
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=tmp)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr or proc.stdout)[-2000:]
        return Result(mutant.name, mutant.mimics, False, error=True, detail=tail)
    out = json.loads(lines[-1])
    return Result(mutant.name, mutant.mimics, out["killed"], False, out.get("property"),
                  out.get("examples"), out.get("seconds"), out.get("detail", ""))  # fmt: skip


def _worker(
    targets: list[list[str]],
    examples: int,
    seed: int,
    layouts: tuple[str, ...] | None = None,
    families: tuple[str, ...] | None = None,
) -> dict:
    """In the mutated environment: run properties until one fails."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    import kernels
    from properties import backend, harness, strategies

    expected = os.environ.get("ATTNFUZZ_MUTANT_ROOT")
    if expected and not kernels.__file__.startswith(expected):
        raise RuntimeError(f"worker imported {kernels.__file__}, not the mutant under {expected}")
    start = time.monotonic()
    total = 0
    for prop, impl, dtype in targets:
        if dtype == "bfloat16" and not backend.supports_bf16():
            continue
        count = 0

        def probe_for(prop: str, impl: str, strategy):
            @hseed(seed)
            @settings(max_examples=examples, deadline=None, database=None, derandomize=False,
                      phases=(Phase.generate,), suppress_health_check=list(HealthCheck),
                      print_blob=False)  # fmt: skip
            @given(strategy)
            def probe(case):
                nonlocal count
                count += 1
                try:
                    harness.check(prop, impl, case)
                except AssertionError:
                    raise
                except Exception as exc:  # the mutant crashed the kernel: also a kill
                    raise AssertionError(f"crash: {exc!r}") from exc

            return probe

        try:
            restrict = {"layout_names": layouts or strategies.NAMES,
                        "families": families or strategies.FAMILIES}  # fmt: skip
            probe_for(prop, impl, strategies.for_property(prop, impl, dtype, **restrict))()
        except Exception as exc:
            failures = harness.failures_of(exc)
            if failures is None:
                raise
            first = str(failures[0]).strip().splitlines()
            return {
                "killed": True,
                "property": f"{prop}/{impl}/{dtype}",
                "examples": total + count,
                "seconds": round(time.monotonic() - start, 2),
                "detail": (first[1] if len(first) > 1 else first[0] if first else repr(exc))[:300],
            }
        total += count
    return {"killed": False, "examples": total, "seconds": round(time.monotonic() - start, 2)}


PROPERTY_IMPLS = {
    "oracle": None,  # any implementation
    "metamorphic": ("naive", "flash", "decode"),
    "agree": ("naive", "flash"),
    "softmax_invariants": ("softmax",),
    "shift_invariance": ("softmax",),
}


def restrict(mutant: Mutant, prop: str) -> Mutant | None:
    """The mutant with only ``prop`` as its check (on the implementations it
    targets that ``prop`` applies to), or None if it applies to none."""
    impls = PROPERTY_IMPLS[prop]
    targets = tuple(
        dict.fromkeys((prop, impl, dtype) for _, impl, dtype in mutant.targets
                      if impls is None or impl in impls)
    )  # fmt: skip
    if not targets:
        return None
    return Mutant(mutant.name, mutant.file, mutant.edits, mutant.mimics, targets, mutant.equivalent)


def catalogue(names: list[str] | None = None) -> list[Mutant]:
    muts = list(CATALOGUE)
    try:
        from properties.flash_mutants import FLASH_MUTANTS
    except ImportError:  # pragma: no cover
        FLASH_MUTANTS = ()
    muts += list(FLASH_MUTANTS)
    if names:
        known = {m.name: m for m in muts}
        missing = [n for n in names if n not in known]
        if missing:
            raise SystemExit(f"unknown mutants: {', '.join(missing)}")
        muts = [known[n] for n in names]
    return muts


def run_all(muts: list[Mutant], *, examples: int, seed: int, jobs: int, backend: str,
            progress=print, layouts=None, families=None) -> list[Result]:  # fmt: skip
    results: list[Result] = []
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(run_mutant, m, examples=examples, seed=seed, backend=backend,
                               layouts=layouts, families=families)
                   for m in muts]  # fmt: skip
        for i, f in enumerate(futures):
            r = f.result()
            results.append(r)
            status = ("equivalent" if r.equivalent else "KILLED" if r.killed
                      else "ERROR" if r.error else "SURVIVED")  # fmt: skip
            progress(f"[{i + 1}/{len(muts)}] {r.name}: {status}"
                     + (f" by {r.property} after {r.examples} examples" if r.killed else "")
                     + (f"\n{r.detail}" if r.error else ""))
    return results


def table(results: list[Result]) -> str:
    rows = [f"{'mutant':<40}{'status':<10}{'killed by':<34}{'examples':>9}{'seconds':>9}"]
    for r in results:
        status = ("equiv." if r.equivalent else "killed" if r.killed
                  else "ERROR" if r.error else "SURVIVED")  # fmt: skip
        rows.append(
            f"{r.name:<40}{status:<10}{(r.property or '-'):<34}"
            f"{r.examples if r.examples is not None else '-':>9}"
            f"{r.seconds if r.seconds is not None else '-':>9}"
        )
    counted = [r for r in results if not r.equivalent]
    killed = [r for r in counted if r.killed]
    rate = 100.0 * len(killed) / len(counted) if counted else 100.0
    times = sorted(r.seconds for r in killed if r.seconds is not None)
    median = times[len(times) // 2] if times else float("nan")
    rows.append(f"kill rate {len(killed)}/{len(counted)} = {rate:.0f}% of non-equivalent "
                f"mutants; median time to kill {median:.1f}s")  # fmt: skip
    for r in results:
        if r.equivalent:
            rows.append(f"equivalent: {r.name}: {r.equivalent}")
    return "\n".join(rows)


def cmd_mutants(args: argparse.Namespace) -> int:
    muts = catalogue(args.only)
    if args.property:
        muts = [r for m in muts if (r := restrict(m, args.property)) is not None]
    if args.list:
        for m in muts:
            tag = " (equivalent)" if m.equivalent else ""
            print(f"{m.name:<34}{m.mimics}{tag}")
        return 0
    results = run_all(muts, examples=args.examples, seed=args.seed, jobs=args.jobs,
                      backend=args.backend, layouts=args.layouts,
                      families=args.families)  # fmt: skip
    print(table(results))
    if args.json:
        Path(args.json).write_text(json.dumps([asdict(r) for r in results], indent=2))
    survivors = [r for r in results if not r.killed and not r.equivalent]
    return 1 if survivors else 0  # a worker error counts as a survivor: nothing was shown


def _main() -> int:
    p = argparse.ArgumentParser(prog="python -m properties.mutants")
    p.add_argument("--worker", action="store_true")
    p.add_argument("--targets", required=True)
    p.add_argument("--examples", type=int, default=60)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--backend", default="auto")
    p.add_argument("--layouts", default="")
    p.add_argument("--families", default="")
    args = p.parse_args()
    from properties import backend

    backend.configure(args.backend)
    layouts = tuple(x for x in args.layouts.split(",") if x) or None
    families = tuple(x for x in args.families.split(",") if x) or None
    print(json.dumps(_worker(json.loads(args.targets), args.examples, args.seed, layouts,
                             families)))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(_main())
