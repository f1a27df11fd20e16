"""Peers' test methods on the same mutants as ``attnfuzz mutants``.

How much of attnfuzz's kill rate would a kernel author get from the tests
they would otherwise write?  Two published methods, re-implemented from
their descriptions and applied to this package's public functions:

- ``tutorial``: the Triton fused-attention tutorial's ``test_op``.  A grid of
  fixed shapes (Z in {1, 4}, H in {2, 48}, N in {128, 1024, 4096}, D in {64,
  128}, causal or not), fp16 inputs from normal(0, 0.5), scale 0.5, a random
  dO; forward and dQ, dK, dV against PyTorch's matmul-softmax-matmul (the
  softmax in fp32, the rest in fp16), ``atol=1e-2, rtol=0``.  It tests the
  attention ops it is written for: ``flash_attention`` and ``naive_attention``.
- ``kernelbench``: KernelBench's correctness check.  One fixed problem per
  op, fp32 inputs from ``torch.randn``, five trials each with its own seed,
  ``torch.allclose(atol=1e-2, rtol=1e-2)`` against the PyTorch model's output,
  forward only; the ops: ``flash_attention`` and ``naive_attention`` (against
  ``scaled_dot_product_attention``), ``softmax`` and ``matmul``.

A mutant is killed by a method when any of its checks fails or raises (as
its test would fail); a run that outlives ``--timeout`` is reported as hung.
Each mutant runs in its own copy of the package (``runner.apply``), as
``attnfuzz mutants`` runs it, after the unmutated package has passed every
check (else the method's failures would say nothing).

    python benchmarks/peer_methods.py --from MUTANTS.json [--only PATTERNS] [--json OUT]
    python benchmarks/peer_methods.py --only 'hopper.*' --attnfuzz MUTANTS_RESULT.json

``--attnfuzz`` names an ``attnfuzz mutants --json`` result of the same
mutants: the table then says, per mutant, what each method and attnfuzz did,
and lists the mutants a peer kills that attnfuzz does not.  ``--tiny`` swaps
every shape for a small one, to try the plumbing under Triton's interpreter.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

PEERS = ("tutorial", "kernelbench")


# --------------------------------------------------------------------------
# The checks, run in a child process whose ``attnfuzz`` is the mutated copy.
# --------------------------------------------------------------------------

def _tutorial_reference(q, k, v, dout, causal: bool, scale: float):
    """The tutorial's reference, one batch element at a time (the same numbers
    in a twelfth of the memory at Z = 4, H = 48, N = 4096)."""
    import torch

    outs, grads = [], []
    n = q.shape[2]
    mask = torch.tril(torch.ones((n, n), device=q.device)) == 0
    for b in range(q.shape[0]):
        qb, kb, vb = (t[b:b + 1].detach().clone().requires_grad_() for t in (q, k, v))
        p = torch.matmul(qb, kb.transpose(2, 3)) * scale
        if causal:
            p = p.masked_fill(mask, float("-inf"))
        p = torch.softmax(p.float(), dim=-1).half()
        out = torch.matmul(p, vb)
        out.backward(dout[b:b + 1])
        outs.append(out.detach())
        grads.append([t.grad for t in (qb, kb, vb)])
    return torch.cat(outs), [torch.cat([g[i] for g in grads]) for i in range(3)]


def _tutorial(fn_name: str, tiny: bool) -> tuple[int, str | None]:
    import torch

    import attnfuzz

    fn = getattr(attnfuzz, fn_name)
    grid = ([(1, 2, 32, 16, c) for c in (False, True)] if tiny else
            [(z, h, n, d, c) for z in (1, 4) for h in (2, 48) for n in (128, 1024, 4096)
             for d in (64, 128) for c in (False, True)])
    device = "cuda" if torch.cuda.is_available() else "cpu"
    checks = 0
    for z, h, n, d, causal in grid:
        g = torch.Generator(device=device).manual_seed(20)
        q, k, v = (torch.empty((z, h, n, d), dtype=torch.float16, device=device)
                   .normal_(mean=0.0, std=0.5, generator=g).requires_grad_() for _ in range(3))
        dout = torch.randn(q.shape, dtype=q.dtype, device=device, generator=g)
        ref, ref_grads = _tutorial_reference(q, k, v, dout, causal, 0.5)
        what = f"{fn_name} Z={z} H={h} N={n} D={d} causal={causal}"
        out = fn(q, k, v, causal=causal, scale=0.5)
        checks += 1
        try:
            torch.testing.assert_close(out, ref, atol=1e-2, rtol=0)
        except AssertionError as exc:
            return checks, f"{what}: forward: {str(exc).splitlines()[0]}"
        out.backward(dout)
        for name, t, r in zip(("dq", "dk", "dv"), (q, k, v), ref_grads, strict=True):
            checks += 1
            try:
                torch.testing.assert_close(t.grad, r, atol=1e-2, rtol=0)
            except AssertionError as exc:
                return checks, f"{what}: {name}: {str(exc).splitlines()[0]}"
        del q, k, v, dout, out, ref, ref_grads
    return checks, None


def _kernelbench(fn_name: str, tiny: bool) -> tuple[int, str | None]:
    import torch
    import torch.nn.functional as F

    import attnfuzz

    fn = getattr(attnfuzz, fn_name)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    if fn_name in ("flash_attention", "naive_attention"):
        shape = (2, 2, 32, 16) if tiny else (32, 32, 512, 128)

        def inputs(g):
            return [torch.randn(shape, device=device, generator=g) for _ in range(3)]

        def model(q, k, v):
            return F.scaled_dot_product_attention(q, k, v)
    elif fn_name == "softmax":
        shape = (4, 64) if tiny else (16, 16384)

        def inputs(g):
            return [torch.randn(shape, device=device, generator=g)]

        def model(x):
            return torch.softmax(x, dim=1)
    else:  # matmul
        m, k_, n = (32, 48, 40) if tiny else (1024, 4096, 2048)

        def inputs(g):
            return [torch.randn((m, k_), device=device, generator=g),
                    torch.randn((k_, n), device=device, generator=g)]

        def model(a, b):
            return torch.matmul(a, b)
    for trial in range(5):
        g = torch.Generator(device=device).manual_seed(42 + trial)
        args = inputs(g)
        want = model(*args)
        got = fn(*args)
        if got.shape != want.shape or not torch.allclose(got, want, atol=1e-2, rtol=1e-2):
            worst = ((got - want).abs().max().item() if got.shape == want.shape
                     else f"shape {tuple(got.shape)}")
            return trial + 1, f"{fn_name} trial {trial}: not allclose (max |diff| {worst})"
    return 5, None


def _check(peer: str, tiny: bool) -> dict:
    from attnfuzz.properties.checks.execution import out_of_memory

    fns = (("flash_attention", "naive_attention") if peer == "tutorial"
           else ("flash_attention", "naive_attention", "softmax", "matmul"))
    run = _tutorial if peer == "tutorial" else _kernelbench
    checks = 0
    for fn_name in fns:
        try:
            n, failed = run(fn_name, tiny)
        except Exception as exc:
            if out_of_memory(exc):  # the machine's limit, not the kernel's fault
                return {"killed": False, "error": f"{fn_name}: {str(exc)[:200]}",
                        "checks": checks}
            # Any other raise fails the peer's test as an assertion does.
            n, failed = 1, f"{fn_name}: raised {type(exc).__name__}: {str(exc)[:200]}"
        checks += n
        if failed:
            return {"killed": True, "checks": checks, "failed": failed}
    return {"killed": False, "checks": checks, "failed": None}


# --------------------------------------------------------------------------
# The driver: one child per mutant and method.
# --------------------------------------------------------------------------

def _child(peer: str, tiny: bool, tmp: str, timeout: float) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([tmp, os.environ.get("PYTHONPATH", "")]))
    env.setdefault("OMP_NUM_THREADS", "1")
    cmd = [sys.executable, str(Path(__file__).resolve()), "--check", peer,
           *(["--tiny"] if tiny else [])]
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, env=env, cwd=tmp, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"killed": False, "hung": True, "failed": f"hung past {timeout:g}s",
                "seconds": round(time.monotonic() - start, 1)}
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if not lines:  # the process died (a fault kills the context): the test fails
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        out = {"killed": True, "checks": None, "failed": f"process died: {tail[0][:200]}"}
    else:
        out = json.loads(lines[-1])
    out["seconds"] = round(time.monotonic() - start, 1)
    return out


def _one(mutant, peers: tuple[str, ...], tiny: bool, timeout: float) -> dict:
    from attnfuzz.properties.mutation import runner

    with tempfile.TemporaryDirectory(prefix="attnfuzz-peer-") as tmp:
        runner.apply(mutant, Path(tmp))
        return {peer: _child(peer, tiny, tmp, timeout) for peer in peers}


def _status(r: dict, clean: bool = False) -> str:
    return (("failed" if clean else "killed") if r.get("killed") else "hung" if r.get("hung")
            else "error" if r.get("error") else "passed" if clean else "survived")


def _attnfuzz_results(path: str | None) -> dict[str, str]:
    if not path:
        return {}
    from attnfuzz.properties.mutation.runner import Result

    data = json.loads(Path(path).read_text())
    return {r["name"]: Result(**r).status() for r in data["results"]}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--from", dest="source", help="mutants as JSON (attnfuzz mutants --from)")
    p.add_argument("--only", default="", help="comma-separated mutant names or patterns")
    p.add_argument("--peers", default=",".join(PEERS), help=f"of {', '.join(PEERS)}")
    p.add_argument("--attnfuzz", help="an attnfuzz mutants --json result to compare with")
    p.add_argument("--jobs", type=int, default=1, help="mutants at once")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds per mutant and method")
    p.add_argument("--tiny", action="store_true", help="small shapes (the interpreter)")
    p.add_argument("--json", help="write the results here")
    p.add_argument("--check", choices=PEERS, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.check:
        print(json.dumps(_check(args.check, args.tiny)))
        return 0

    # The driver's attnfuzz is this checkout (each child's is its mutated copy).
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from attnfuzz.properties.mutation import runner
    from attnfuzz.properties.mutation.mutant import Mutant

    peers = tuple(x for x in args.peers.split(",") if x)
    unknown = [x for x in peers if x not in PEERS]
    if unknown or not peers:
        p.error(f"--peers: expected some of {', '.join(PEERS)}, got {args.peers!r}")
    muts = [m for m in runner.catalogue(source=args.source)
            if not args.only or any(fnmatch.fnmatchcase(m.name, pat)
                                    for pat in args.only.split(","))]
    if not muts:
        p.error("no mutant matches --only")
    clean = _one(Mutant("baseline", "", (), "", ()), peers, args.tiny, args.timeout)
    for peer, r in clean.items():
        print(f"baseline {peer}: {_status(r, clean=True)} ({r.get('checks')} checks, "
              f"{r['seconds']}s)" + (f": {r['failed']}" if r.get("failed") else ""), flush=True)
    if any(r.get("killed") or r.get("hung") or r.get("error") for r in clean.values()):
        raise SystemExit("a method fails on the unmutated kernels: its kills would mean nothing")
    theirs = _attnfuzz_results(args.attnfuzz)
    results: dict[str, dict] = {}
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        todo = [m for m in muts if not m.equivalent]
        futures = {m.name: pool.submit(_one, m, peers, args.tiny, args.timeout) for m in todo}
        for i, m in enumerate(todo):
            results[m.name] = futures[m.name].result()
            print(f"[{i + 1}/{len(todo)}] {m.name}: "
                  + ", ".join(f"{peer} {_status(r)}" for peer, r in results[m.name].items())
                  + (f", attnfuzz {theirs[m.name]}" if m.name in theirs else ""), flush=True)
    print()
    width = max(len(n) for n in results) + 2
    print(f"{'mutant':<{width}}" + "".join(f"{x:<13}" for x in peers)
          + ("attnfuzz" if theirs else ""))
    for name, r in results.items():
        print(f"{name:<{width}}" + "".join(f"{_status(r[x]):<13}" for x in peers)
              + theirs.get(name, ""))
    for peer in peers:
        print(f"{peer}: killed {sum(r[peer].get('killed', False) for r in results.values())}"
              f" of {len(results)}")
    if theirs:
        print(f"attnfuzz: killed {sum(theirs.get(n) == 'killed' for n in results)} "
              f"of {len(results)}")
        missed = [n for n, r in results.items()
                  if any(r[x].get("killed") for x in peers) and theirs.get(n) != "killed"]
        print("killed by a peer, not by attnfuzz: " + (", ".join(missed) or "none"))
        for n in missed:
            for peer in peers:
                if results[n][peer].get("killed"):
                    print(f"  {n}: {peer}: {results[n][peer]['failed']}")
    if args.json:
        Path(args.json).write_text(json.dumps({"baseline": clean, "results": results,
                                               "attnfuzz": theirs}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
