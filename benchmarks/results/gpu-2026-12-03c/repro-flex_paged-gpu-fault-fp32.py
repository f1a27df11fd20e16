# Reproducer of an attention finding of attnfuzz, a differential fuzzer that checks
# attention implementations against a float64 reference within derived error bounds.
# It needs only PyTorch and the module under test.
#
# Case: B=1 Hq=1 Hkv=1 Sq=1 Sk=1 D=16 Dv=16 float32/ieee none scale=None values=normalx1 layouts
#     q=contiguous k=contiguous v=contiguous out=contiguous
# Mask: no mask: every query sees every key
# Property: oracle (every output within its derived error bound of the float64 reference)
# Implementation: flex_paged from /work/main/benchmarks/flex_paged.py, called by the paged
#     convention (flash_attention_paged's: fn(q, k_cache, v_cache, block_table, cache_seqlens,
#     *, causal, scale), q (B, H, Sq, D), caches (blocks, block_size, H, D))
# Found with: torch 2.11.0+cu130, triton 3.6.0, numpy 2.5.2, hypothesis 6.168.3, backend gpu,
#     gpu NVIDIA H200
# attnfuzz recorded: no result: the call faulted on the GPU (an illegal memory access or a
#     misaligned address), which ends the process's CUDA context
# Found by: attnfuzz --backend gpu run --impl
#     '/work/main/benchmarks/flex_paged.py:flex_paged@paged#head_dims=16,32,64,128;lse=yes;windows=yes'  # noqa: E501
#     --dtype float32 --property oracle --examples 1 --seed 5
# Exported from the dump oracle-flex_paged.py_flex_paged_paged-float32-20261203-204359-689 by:
#     attnfuzz replay DUMP --export repro-flex_paged-gpu-fault-fp32.py
#
# What it shows: Passed the inputs below, the implementation faulted on the GPU when attnfuzz
#     ran it; the script makes the call and lets the CUDA error show.
# Expected: output within the bound; rows that see no key are 0; the inputs unchanged.
#
# Run: python3 repro-flex_paged-gpu-fault-fp32.py. Exit status 1 while the bug is present (FAIL
#     lines, then an AssertionError), 0 once it is fixed ("OK: within bound"), 2 where it cannot
#     run (no CUDA GPU for a GPU dump).

import base64
import importlib.util
import math
import os
import pathlib
import sys
import zlib

import torch

# The case, as attnfuzz drew it.
CASE = (
    "B=1 Hq=1 Hkv=1 Sq=1 Sk=1 D=16 Dv=16 float32/ieee none scale=None values=normalx1 layouts"
    " q=contiguous k=contiguous v=contiguous out=contiguous"
)
IMPLEMENTATION = "/work/main/benchmarks/flex_paged.py:flex_paged@paged"
CAUSAL = False
ALIGNMENT = "bottom_right"  # if CAUSAL or WINDOW: query i sees key j iff j <= i + (Sk - Sq)
WINDOW = None  # (left, right): keys i + o - left .. i + o + right; None: unlimited
SCALE = None  # None: the default, D ** -0.5
DTYPE = torch.float32
INPUT_PRECISION = "ieee"  # "tf32": TF32 matmuls allowed
# Where the call runs: where attnfuzz found the finding.
DEVICE = "cuda"

# The function under test.  MODULE is a module name (importable from PYTHONPATH or
# the current directory) or the path of a .py file: edit these to try a fix.
MODULE = "benchmarks/flex_paged.py"  # run from the repository root
FUNCTION = "flex_paged"
PAGE = 256  # slots per page of the cache, and the seed of their order
PAGE_SEED = 504


# The inputs.
# Each is a view into a larger buffer that holds NaN besides the view's elements, so a
# read outside the view would show as NaN in the result.  A buffer is its raw
# little-endian bytes, zlib-compressed and base64-encoded: every value comes back bit
# for bit.  inputs() below rebuilds the views with torch.as_strided.
INPUTS = {
    "q": {
        "dtype": torch.float32, "shape": (1, 1, 1, 16), "stride": (16, 16, 16, 1),
        "offset": 0, "numel": 32,  # 16 of them NaN
        "data": (
            "eNqLSJy/T73TbL/ZEqv9PIYz972obtzXnLljX2llgX3+yin2+iv09iWvLLHZ8clpb5sXj/2vh/P3"
            "W05fbPdGV8I+zKjdnoHhQD0lGAAThjKK"
        ),
    },
    "k": {
        "dtype": torch.float32, "shape": (1, 1, 1, 16), "stride": (16, 16, 16, 1),
        "offset": 0, "numel": 32,  # 16 of them NaN
        "data": (
            "eNrTtvLcf2rbg33OT9fZn8ti2h+w6tx++Wv37E66x+9t2MW2/8x11gNm5jdtdwa72Tcumbj/dMrB"
            "/VNFJu3PfMOwv1VbzJ6B4UA9JRgAEmQ1AA=="
        ),
    },
    "v": {
        "dtype": torch.float32, "shape": (1, 1, 1, 16), "stride": (16, 16, 16, 1),
        "offset": 0, "numel": 32,  # 16 of them NaN
        "data": (
            "eNrr+hm3r8NIzO6Zh7b94rnM+0UZT+93zLbfH5embn9PNNO+4ba4Xb2w//4ZIqft13Zt3GeUxGPf"
            "f2qSfbnE/70rn/PaMzAcqKcEAwAG0zAj"
        ),
    },
}

# attnfuzz's float64 oracle, computed when this script was written: the exact results
# (reference() below recomputes them plainly and must agree to 1e-9) and the bound
# on each element's error, derived from the dtype, the lengths of the sums and the
# values.  The LSE is checked if the implementation returns one.
WANT = {
    "out": {
        "dtype": torch.float64, "shape": (1, 1, 1, 16), "stride": (16, 16, 16, 1),
        "offset": 0, "numel": 16,  # 0 of them NaN
        "data": (
            "eNpjYGBwMLx/ej8DEAQeO2QPpA7IZD4F0Qlbih+AxBcoJfwE0QoZb5+D6AOn3zwBq9ut9BZEMxT8"
            "But7kP/oJdicyUk/QfwFoYbXQHwHt56HYPnAyE9gmu/xfrB5X/c8tAcA/TotNA=="
        ),
    },
    "lse": {
        "dtype": torch.float64, "shape": (1, 1, 1), "stride": (1, 1, 1),
        "offset": 0, "numel": 1,  # 0 of them NaN
        "data": (
            "eNpb0/drn8P/U/YAGKwFOw=="
        ),
    },
}
RESULT_DTYPE = {"out": torch.float32, "lse": torch.float32}
BOUND = {
    "out": {
        "dtype": torch.float64, "shape": (1, 1, 1, 16), "stride": (16, 16, 16, 1),
        "offset": 0, "numel": 16,  # 0 of them NaN
        "data": (
            "eNoBgAB//1KOJ/45kb4+eTHr2SCXtD6fNWTJLnvXPs/dfTADC9I+DfUj+13U6z6QZuA1yT3aPp3W"
            "cQnY8tY+YrYkhg703z6wa6v9YtG0PkA5mSlFY9w+oTkJvQrX6z7eJNqjxFbIPuy2tj23PtM+r7Jc"
            "QZcf5D6UuwFyP3yxPtV7+WEbdNM+R75AvQ=="
        ),
    },
    "lse": {
        "dtype": torch.float64, "shape": (1, 1, 1), "stride": (1, 1, 1),
        "offset": 0, "numel": 1,  # 0 of them NaN
        "data": (
            "eNr7Xed9UiL9kh0AFHgEHQ=="
        ),
    },
}


def _tensor(spec: dict, device: str = "cpu") -> torch.Tensor:
    """One embedded tensor: its whole buffer, rebuilt bit for bit, viewed as it was."""
    raw = bytearray(zlib.decompress(base64.b64decode(spec["data"])))
    dtype = spec["dtype"]
    buffer = torch.frombuffer(raw, dtype=dtype) if raw else torch.empty(0, dtype=dtype)
    assert buffer.numel() == spec["numel"], "damaged data"
    buffer = buffer.clone().to(device)  # its own memory, not the bytearray's
    return torch.as_strided(buffer, spec["shape"], spec["stride"], spec["offset"])


def inputs(device: str = "cpu") -> dict[str, torch.Tensor]:
    """q, k, v (and dO) on ``device``, with the values, strides and storage offsets (inside
    the same NaN-filled buffers) that the implementation read when attnfuzz ran it."""
    return {role: _tensor(spec, device) for role, spec in INPUTS.items()}


def function():
    """MODULE's FUNCTION, imported as attnfuzz imports it."""
    if not torch.cuda.is_available():
        # Triton reads this when a kernel is decorated, at import: without a
        # GPU, its kernels run (as attnfuzz ran them) under the interpreter.
        os.environ.setdefault("TRITON_INTERPRET", "1")
    if MODULE.endswith(".py"):
        path = pathlib.Path(MODULE)
        sys.path.insert(0, str(path.resolve().parent))  # the module's own sibling imports
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[path.stem] = module
        spec.loader.exec_module(module)
    else:
        if os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())
        module = importlib.import_module(MODULE)
    fn = module
    for part in FUNCTION.split("."):  # a qualified name: Class.method
        fn = getattr(fn, part)
    return fn


def results(got: object) -> dict:
    """out and, if returned, the LSE, from a tensor or a tuple (out, lse, ...)."""
    if isinstance(got, torch.Tensor):
        return {"out": got}
    if isinstance(got, (tuple, list)) and got and isinstance(got[0], torch.Tensor):
        found = {"out": got[0]}
        if len(got) > 1 and isinstance(got[1], torch.Tensor):
            found["lse"] = got[1]
        return found
    raise AssertionError(f"returned {type(got).__name__}, not a tensor or (out, lse, ...)")


def paged_cache(k: torch.Tensor, v: torch.Tensor, page: int, seed: int) -> tuple:
    """(k_cache, v_cache, block_table): each batch element's keys in pages of ``page``
    slots, in a shuffled order, NaN in every other slot and in one spare page, which every
    unused table entry names."""
    b, hkv, sk = k.shape[:3]
    count = -(-sk // page)
    order = torch.randperm(b * count + 1, generator=torch.Generator().manual_seed(seed))
    order = order.tolist()
    caches = [torch.full((len(order), page, hkv, t.shape[-1]), float("nan"), dtype=t.dtype,
                         device=t.device) for t in (k, v)]
    table = torch.full((b, count + 1), order[-1], dtype=torch.int32)
    fresh = iter(order)
    for i in range(b):
        for j in range(count):
            p = table[i, j] = next(fresh)
            n = min(page, sk - j * page)
            for cache, t in zip(caches, (k, v), strict=True):
                cache[p, :n] = t[i, :, j * page:j * page + n].transpose(0, 1)
    return (*caches, table.to(k.device))


def call(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> dict:
    """The call under test, by flash_attention_paged's convention: the keys in a paged cache
    (pages, page size, H, D) as attnfuzz laid them out, the queries the last Sq keys'."""
    b, sk = q.shape[0], k.shape[2]
    k_cache, v_cache, table = paged_cache(k, v, PAGE, PAGE_SEED)
    seqlens = torch.full((b,), sk, dtype=torch.int32, device=q.device)
    window = {} if WINDOW is None else {"window": WINDOW}
    return results(function()(q, k_cache, v_cache, table, seqlens, causal=CAUSAL, scale=SCALE,
                              **window))


def visible(sq: int, sk: int) -> torch.Tensor:
    """(Sq, Sk) bool: whether query i sees key j.  With o the alignment's offset (Sk - Sq
    bottom-right, 0 top-left): j <= i + o if CAUSAL; i + o - left <= j <= i + o + right
    within a WINDOW (left, right), a side of None unlimited."""
    i, j = torch.arange(sq)[:, None], torch.arange(sk)[None, :]
    o = sk - sq if ALIGNMENT == "bottom_right" else 0
    seen = j <= i + o if CAUSAL else torch.ones(sq, sk, dtype=torch.bool)
    left, right = WINDOW if WINDOW is not None else (None, None)
    if left is not None:
        seen = seen & (j >= i + o - left)
    if right is not None:
        seen = seen & (j <= i + o + right)
    return seen


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> dict:
    """Attention from its definition, in float64 on the CPU: out, the log-sum-exp and P."""
    q, k, v = (t.double().cpu() for t in (q, k, v))
    group = q.shape[1] // k.shape[1]  # GQA: query head h reads KV head h // group
    k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
    scale = SCALE if SCALE is not None else q.shape[-1] ** -0.5
    scores = scale * (q @ k.transpose(-1, -2))
    seen = visible(*scores.shape[-2:])
    scores = scores.masked_fill(~seen, -math.inf)
    sees_a_key = seen.any(dim=-1, keepdim=True)  # a row that sees none gives 0
    probs = torch.where(sees_a_key, torch.softmax(scores, dim=-1), 0.0)
    return {"out": probs @ v, "lse": torch.logsumexp(scores, dim=-1), "probs": probs}


def compare(name: str, got: torch.Tensor, want: torch.Tensor, bound: torch.Tensor) -> bool:
    """Print how ``got`` compares with ``want`` within ``bound``; True if all are within."""
    got = got.detach().double().cpu()
    if got.numel() == 0:
        print(f"ok {name}: empty")
        return True
    bound = torch.broadcast_to(bound, want.shape)
    err = (got - want).abs()
    # As attnfuzz judges: an exact value past the dtype's largest by more than its bound
    # must come back as an infinity of its sign, one within its bound of it may; other
    # non-finite exact values (an LSE of -inf) must come back exactly.
    limit = torch.finfo(RESULT_DTYPE[name]).max
    want = torch.where(want.abs() - bound > limit, want.sign() * math.inf, want)
    same_inf = torch.isinf(got) & (got.sign() == want.sign())
    err = torch.where((want.abs() + bound > limit) & same_inf, 0.0, err)
    err = torch.where(torch.isfinite(want), err, torch.where(got == want, 0.0, math.inf))
    err = err.nan_to_num(nan=math.inf)
    ratio = torch.where(bound > 0, err / bound, torch.where(err > 0, math.inf, 0.0))
    outside = int((ratio > 1).sum())
    at = tuple(int(i) for i in torch.unravel_index(ratio.argmax(), ratio.shape))
    print(f"{'FAIL' if outside else 'ok'} {name}: {outside} of {got.numel()} elements outside "
          f"the bound; worst error/bound {float(ratio[at]):.3g} at index {at}:")
    print(f"  got {float(got[at])!r}, want {float(want[at])!r}, |error| {float(err[at]):.3g}, "
          f"bound {float(bound[at]):.3g}")
    print(f"  non-finite: got has {int(got.isnan().sum())} NaN and {int(got.isinf().sum())} "
          f"infinite elements; want has {int((~torch.isfinite(want)).sum())} non-finite")
    return outside == 0


def agrees(name: str, plain: torch.Tensor, embedded: torch.Tensor, scale: float) -> bool:
    """The plain reference and attnfuzz's oracle agree to 1e-9, relative to ``scale``."""
    close = (plain - embedded).abs() <= 1e-9 * (embedded.abs() + scale)
    if bool((close | (plain == embedded)).all()):
        return True
    print(f"the plain reference disagrees with attnfuzz's oracle on {name}", file=sys.stderr)
    return False


def returned(name: str, got: object, shape: tuple, dtype=None, device=None) -> bool:
    """The result is a tensor of the expected shape (and dtype and device, where given),
    as attnfuzz requires."""
    if not isinstance(got, torch.Tensor):
        print(f"FAIL {name}: returned {type(got).__name__}, not a tensor")
        return False
    for what, have, expected in (("shape", tuple(got.shape), shape), ("dtype", got.dtype, dtype),
                                 ("device", got.device, device)):
        if expected is not None and have != expected:
            print(f"FAIL {name}: returned {what} {have}, expected {expected}")
            return False
    return True


def main() -> int:
    print(f"case: {CASE}")
    print(f"implementation: {IMPLEMENTATION}, on {DEVICE} (torch {torch.__version__})")
    if not __debug__:
        print("run this without -O: its verdict is an assert", file=sys.stderr)
        return 2
    if sys.byteorder != "little":
        print("the data in this script is little-endian, this machine is not", file=sys.stderr)
        return 2
    if DEVICE == "cuda" and not torch.cuda.is_available():
        print(f"this reproducer needs a CUDA GPU: torch {torch.__version__} sees none "
              "(torch.cuda.is_available() is False)", file=sys.stderr)
        return 2
    if DEVICE == "cuda":
        print(f"GPU: {torch.cuda.get_device_name()}")

    x = inputs(DEVICE)
    # The whole buffers, to check afterwards that the call left its inputs alone.
    buffers = {r: t.as_strided((INPUTS[r]["numel"],), (1,), 0) for r, t in x.items()}
    before = {r: b.clone() for r, b in buffers.items()}
    # When attnfuzz ran it, this call faulted on the GPU (the process's CUDA context was lost,
    # so no result was recorded): expect a CUDA error here or at the synchronize below.
    # CUDA_LAUNCH_BLOCKING=1 pins it to the launch; compute-sanitizer --tool memcheck python3
    # repro-flex_paged-gpu-fault-fp32.py names the faulting access.
    got = call(x["q"], x["k"], x["v"])
    if DEVICE == "cuda":
        torch.cuda.synchronize()  # an asynchronous CUDA error in the call surfaces here

    want = {name: _tensor(spec) for name, spec in WANT.items()}
    bound = {name: _tensor(spec) for name, spec in BOUND.items()}
    cpu = inputs()
    plain = reference(cpu["q"], cpu["k"], cpu["v"])
    v_max = float(cpu["v"].double().abs().max()) if cpu["v"].numel() else 0.0
    lse = want["lse"][torch.isfinite(want["lse"])]
    lse_max = float(lse.abs().max()) if lse.numel() else 0.0
    if not (agrees("out", plain["out"], want["out"], v_max)
            and agrees("lse", plain["lse"], want["lse"], 1.0 + lse_max)):
        return 2
    print("reference: the plain float64 attention in reference() agrees with the embedded one")

    failed = []
    q = x["q"]
    for name in (n for n in WANT if n != "lse"):  # out (and dq, dk, dv)
        if not (returned(name, got.get(name), tuple(want[name].shape), DTYPE, q.device)
                and compare(name, got[name], want[name], bound[name])):
            failed.append(name)
    if "lse" in got:
        if not returned("lse", got["lse"], tuple(want["lse"].shape)):
            failed.append("lse")
        elif not compare("lse", got["lse"], want["lse"], bound["lse"]):
            failed.append("lse")
    for role, buffer in buffers.items():
        same = (buffer == before[role]) | (buffer.isnan() & before[role].isnan())
        if not bool(same.all()):
            print(f"FAIL input {role} modified: {int((~same).sum())} elements of its buffer")
            failed.append(f"input {role}")

    # While the bug is present this fails (exit status 1); once it is fixed, it passes.
    assert not failed, f"outside the bound or wrong: {', '.join(failed)}"
    print("OK: within bound")
    return 0


if __name__ == "__main__":
    sys.exit(main())
