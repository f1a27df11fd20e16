"""The code an exported script carries (``export.py`` assembles it): plain torch
and the standard library, never attnfuzz, so that the script runs where attnfuzz
is not installed.  Each constant is source text, filled in by ``str.format`` or
chosen by the case's convention."""

from __future__ import annotations

import inspect

from ...reference import oracle
from ..implementations import conventions

# Which key a query sees: the oracle's own functions, as source, so that the
# script and attnfuzz hold one rule.
VISIBILITY = "\n\n".join(inspect.getsource(f) for f in (oracle.offset, oracle.sees))

INPUTS = '''
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
'''


FLEX_CALL = '''
def call(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> dict:
    """The call under test, as attnfuzz makes it: FlexAttention compiled on CUDA."""
    sq, sk = q.shape[2], k.shape[2]
    shift = offset(sq, sk, ALIGNMENT)

    def visible(b, h, q_idx, kv_idx):  # the mask as a mask_mod
        return sees(q_idx, kv_idx, shift, CAUSAL, WINDOW)

    kwargs = {"scale": SCALE, "return_aux": flex.AuxRequest(lse=True)}
    if CAUSAL or WINDOW is not None:
        kwargs["block_mask"] = flex.create_block_mask(visible, None, None, sq, sk,
                                                      device=q.device)
    if q.shape[1] != k.shape[1]:
        kwargs["enable_gqa"] = True  # KV heads are shared, not repeated
    # On the CPU FlexAttention has only its uncompiled reference path.
    fn = (torch.compile(flex.flex_attention, dynamic=False, fullgraph=True) if q.is_cuda
          else flex.flex_attention)
    # TF32 for this call only, as attnfuzz sets it: a backward runs with it restored.
    tf32 = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = INPUT_PRECISION == "tf32"
    try:
        out, aux = fn(q, k, v, **kwargs)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = tf32
    return {"out": out} if aux.lse is None else {"out": out, "lse": aux.lse}
'''


FUNCTION = '''
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
'''


PAGED_CACHE = '''
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
'''


CONVENTION_CALLS = {
    "attnfuzz": '''
def call(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> dict:
    """The call under test, by the attnfuzz convention: (B, H, S, D) tensors."""
    window = {} if WINDOW is None else {"window": WINDOW}
    return results(function()(q, k, v, causal=CAUSAL, scale=SCALE, alignment=ALIGNMENT,
                              **window))
''',
    "sdpa": '''
def call(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> dict:
    """The call under test, by scaled_dot_product_attention's convention: (B, H, S, D)
    tensors, is_causal top-left aligned, enable_gqa=True only where the head counts differ
    and the function takes it (SDPA's signature before it gets other head counts plainly)."""
    fn = function()
    differ = q.shape[1] != k.shape[1]
    gqa = {"enable_gqa": True} if differ and takes_keyword(fn, "enable_gqa") else {}
    return results(fn(q, k, v, is_causal=CAUSAL, scale=SCALE, **gqa))


''' + inspect.getsource(conventions.takes_keyword),
    "flash_attn": '''
def call(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> dict:
    """The call under test, by flash_attn_func's convention: (B, S, H, D) tensors (views of
    the same memory, no copy), causal bottom-right aligned, GQA by head count."""
    qs, ks, vs = (t.transpose(1, 2) for t in (q, k, v))
    window = {} if WINDOW is None else {"window_size": tuple(-1 if n is None else n
                                                            for n in WINDOW)}
    found = results(function()(qs, ks, vs, softmax_scale=SCALE, causal=CAUSAL, **window))
    found["out"] = found["out"].transpose(1, 2)  # back to (B, H, S, D)
    return found
''',
    "varlen": '''
def call(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> dict:
    """The call under test, by flash_attention_varlen's convention: the batch elements as
    packed sequences of one length, (total, H, D), with int32 prefix sums (B + 1,)."""
    b, sq, sk = q.shape[0], q.shape[2], k.shape[2]
    packed = [t.transpose(1, 2).reshape(-1, t.shape[1], t.shape[-1]) for t in (q, k, v)]
    cu_q, cu_k = (torch.arange(b + 1, dtype=torch.int32, device=q.device) * n for n in (sq, sk))
    window = {} if WINDOW is None else {"window": WINDOW}
    found = results(function()(*packed, cu_q, cu_k, causal=CAUSAL, scale=SCALE,
                               alignment=ALIGNMENT, max_seqlen_q=sq, max_seqlen_k=sk, **window))
    found["out"] = found["out"].reshape(b, sq, *found["out"].shape[1:]).transpose(1, 2)
    if "lse" in found:  # (H, total_q) -> (B, H, Sq)
        found["lse"] = found["lse"].reshape(-1, b, sq).transpose(0, 1)
    return found
''',
    "paged": PAGED_CACHE + '''

def call(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> dict:
    """The call under test, by flash_attention_paged's convention: the keys in a paged cache
    (pages, page size, H, D) as attnfuzz laid them out, the queries the last Sq keys'."""
    b, sk = q.shape[0], k.shape[2]
    k_cache, v_cache, table = paged_cache(k, v, PAGE, PAGE_SEED)
    seqlens = torch.full((b,), sk, dtype=torch.int32, device=q.device)
    window = {} if WINDOW is None else {"window": WINDOW}
    return results(function()(q, k_cache, v_cache, table, seqlens, causal=CAUSAL, scale=SCALE,
                              **window))
''',
    "paged_varlen": PAGED_CACHE + '''

def call(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> dict:
    """The call under test, packed queries over a paged cache: q (total_q, H, D) with int32
    prefix sums cu_seqlens_q (B + 1,), the keys in a paged cache as attnfuzz laid them out,
    seq_lens (B,) the keys of each sequence, its queries the last ones'."""
    b, sq, sk = q.shape[0], q.shape[2], k.shape[2]
    k_cache, v_cache, table = paged_cache(k, v, PAGE, PAGE_SEED)
    packed = q.transpose(1, 2).reshape(-1, q.shape[1], q.shape[-1])
    cu_q = torch.arange(b + 1, dtype=torch.int32, device=q.device) * sq
    seq_lens = torch.full((b,), sk, dtype=torch.int32, device=q.device)
    window = {} if WINDOW is None else {"window": WINDOW}
    found = results(function()(packed, k_cache, v_cache, table, cu_q, seq_lens, causal=CAUSAL,
                               scale=SCALE, max_seqlen_q=sq, max_seqlen_k=sk, **window))
    found["out"] = found["out"].reshape(b, sq, *found["out"].shape[1:]).transpose(1, 2)
    if "lse" in found:  # (H, total_q) -> (B, H, Sq)
        found["lse"] = found["lse"].reshape(-1, b, sq).transpose(0, 1)
    return found
''',
}


# Where attnfuzz's (B, H, S, D) index or shape is in the function's own tensors (as
# ``conventions.UserLayout`` says it in attnfuzz's messages): the script's report gives both.
LAYOUT = {
    "attnfuzz": '''
def user_index(name: str, at: tuple) -> str:
    """Where ``at`` is in the function's own tensor: where it is here (its layout is this)."""
    return ""


def user_shape(shape: tuple) -> tuple | None:
    return None
''',
    "flash_attn": '''
def user_index(name: str, at: tuple) -> str:
    """``at`` (attnfuzz's (B, H, S, D)) in the function's own (B, S, H, D) tensor."""
    if name == "lse" or len(at) != 4:
        return ""
    b, h, s, d = at
    return f" (the function's (B, S, H, D) {name}[{b}, {s}, {h}, {d}])"


def user_shape(shape: tuple) -> tuple | None:
    """A (B, H, S, D) shape as the function's (B, S, H, D)."""
    return (shape[0], shape[2], shape[1], shape[3]) if len(shape) == 4 else None
''',
    "varlen": '''
def user_index(name: str, at: tuple) -> str:
    """``at`` (attnfuzz's (B, H, S, D)) in the function's packed (total, H, D) tensor."""
    n = INPUTS["k" if name in ("dk", "dv") else "q"]["shape"][2]
    if name == "lse" and len(at) == 3:
        b, h, s = at
        return f" (the function's (H, total_q) lse[{h}, {b * n + s}]: sequence {b}, row {s})"
    if len(at) != 4:
        return ""
    b, h, s, d = at
    return f" (the function's (total, H, D) {name}[{b * n + s}, {h}, {d}]: sequence {b}, row {s})"


def user_shape(shape: tuple) -> tuple | None:
    """A (B, H, S, D) shape as the function's packed (total, H, D)."""
    return (shape[0] * shape[2], shape[1], shape[3]) if len(shape) == 4 else None
''',
}


BACKWARD = '''
def backward(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, do: torch.Tensor) -> dict:
    """The call differentiated as attnfuzz differentiates it: q, k, v as leaves (detach keeps
    a view's strides), dO the output's gradient; the forward's results, then dq, dk, dv."""
    leaves = {"dq": q.detach().requires_grad_(), "dk": k.detach().requires_grad_(),
              "dv": v.detach().requires_grad_()}
    got = call(*leaves.values())
    out = got.get("out")
    if not isinstance(out, torch.Tensor) or not out.requires_grad:
        raise AssertionError("out does not require grad: autograd cannot differentiate it")
    grads = torch.autograd.grad(out, list(leaves.values()), do, allow_unused=True)
    found = {name: t.detach() for name, t in got.items()}
    for (name, leaf), g in zip(leaves.items(), grads, strict=True):
        # No gradient is a zero gradient (an output that does not depend on the input).
        zero = torch.zeros(leaf.shape, dtype=leaf.dtype, device=leaf.device)
        found[name] = zero if g is None else g
    return found
'''


CHECK = '''
def visible(sq: int, sk: int) -> torch.Tensor:
    """(Sq, Sk) bool: whether query i sees key j (``sees``)."""
    i, j = torch.arange(sq)[:, None], torch.arange(sk)[None, :]
    return sees(i, j, offset(sq, sk, ALIGNMENT), CAUSAL, WINDOW)


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
    err = err.nan_to_num(nan=math.inf, posinf=math.inf)
    ratio = torch.where(bound > 0, err / bound, torch.where(err > 0, math.inf, 0.0))
    outside = int((ratio > 1).sum())
    at = tuple(int(i) for i in torch.unravel_index(ratio.argmax(), ratio.shape))
    print(f"{'FAIL' if outside else 'ok'} {name}: {outside} of {got.numel()} elements outside "
          f"the bound; worst error/bound {float(ratio[at]):.3g} at index {at}"
          f"{user_index(name, at)}:")
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
            mine, wanted = (user_shape(t) if what == "shape" else None for t in (have, expected))
            theirs = (f" (in the function's own layout: {mine}, expected {wanted})"
                      if mine is not None and wanted is not None else "")
            print(f"FAIL {name}: returned {what} {have}, expected {expected}{theirs}")
            return False
    return True
'''


GRADIENT_CHECK = '''
def reference_grads(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, do: torch.Tensor) -> dict:
    """dq, dk, dv of reference() above with the gradient dO: float64 autograd on the CPU."""
    leaves = [t.detach().double().cpu().requires_grad_() for t in (q, k, v)]
    out = reference(*leaves)["out"]
    grads = torch.autograd.grad(out, leaves, do.double().cpu())
    return dict(zip(("dq", "dk", "dv"), grads, strict=True))


def terms(x: dict) -> dict:
    """The size of each gradient element's terms, which float64 rounding (and so the 1e-9
    agreement) is relative to: the backward's sums with every product's magnitude, where
    dS = P (dP - rowsum(P dP)) with dP = dO V^T is at most P (|dP| + rowsum(P |dP|))."""
    q, k, v, do = (x[r].detach().double().cpu().abs() for r in ("q", "k", "v", "do"))
    hkv = k.shape[1]
    group = q.shape[1] // max(hkv, 1)
    k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
    p = reference(x["q"], x["k"], x["v"])["probs"]
    dp = do @ v.transpose(-1, -2)
    ds = p * (dp + (p * dp).sum(dim=-1, keepdim=True))
    scale = abs(SCALE if SCALE is not None else q.shape[-1] ** -0.5)

    def per_kv_head(t: torch.Tensor) -> torch.Tensor:  # a KV head's sums run over its group
        return t.reshape(t.shape[0], hkv, group, *t.shape[2:]).sum(dim=2)

    return {"dq": scale * (ds @ k), "dk": per_kv_head(scale * (ds.transpose(-1, -2) @ q)),
            "dv": per_kv_head(p.transpose(-1, -2) @ do)}
'''


MAIN = '''
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
@NOTE@
@CALL@
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
@AGREE@

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
'''


GRADIENT_AGREE = '''
    grads, size = reference_grads(cpu["q"], cpu["k"], cpu["v"], cpu["do"]), terms(cpu)
    if not all(agrees(n, grads[n], want[n], size[n]) for n in ("dq", "dk", "dv")):
        return 2
    print("reference: its float64 gradients by autograd in reference_grads() agree with the "
          "embedded dq, dk, dv")
'''
# Its results are packed as varlen's (its keys, in a cache, are never a result).
LAYOUT["paged_varlen"] = LAYOUT["varlen"]
