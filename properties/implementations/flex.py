"""PyTorch's FlexAttention as an implementation under test.

``torch.nn.attention.flex_attention.flex_attention`` runs compiled
(``torch.compile``, ``dynamic=False``, ``fullgraph=True``) on CUDA tensors,
its fused Triton kernel, and uncompiled on CPU tensors, where FlexAttention
runs its reference ("math") path.  Its documented semantics are mapped onto
ours:

- causal, a sliding window (left, right) or both is a ``BlockMask`` from
  ``create_block_mask`` whose ``mask_mod`` is the oracle's rule
  (``reference.oracle.sees``) on the index tensors; a case with neither
  passes no mask.
  The mask depends on neither batch nor head (``B=None, H=None``), so one is
  built per (Sq, Sk, alignment, causal, window, device) and reused;
- GQA is ``enable_gqa=True`` (KV heads are not repeated by us);
- ``scale`` is passed through (FlexAttention's default is also D**-0.5);
- the LSE is requested (``return_aux=AuxRequest(lse=True)``, or the older
  ``return_lse=True`` where ``return_aux`` does not exist).  FlexAttention
  computes it in base 2 and converts it to the natural log before returning
  it, so it is compared with the oracle's natural-log LSE unchanged.

Rows that see no key (causal ``bottom_right`` with Sq > Sk): FlexAttention
returns output zeros and LSE -inf there, the harness's convention, so
nothing is mapped.  Empty lengths, which FlexAttention does not document
and the harness reports (it draws them only when asked): with no keys
(Sk = 0) the CPU path raises (``max()`` over an empty dim); with no queries
(Sq = 0) ``create_block_mask`` raises for a causal mask (vmap of
``mask_mod`` over an empty query dim), and without one FlexAttention
returns no LSE at all (``None``), so none is returned here: it would have
no elements to compare.

On the CPU the path is a reference, not a kernel: it materialises the
scores in float32, applies ``mask_mod`` to every element (the block mask's
sparsity is never used, so block-skipping bugs show only on CUDA) and
rounds the probabilities to the input dtype before the product with V.  It
takes float32, float16 and bfloat16 and every layout of ``layouts``;
FlexAttention documents layout requirements only for FP8 inputs, so a
layout the compiled kernel refuses is a finding.

Compiled on CUDA (seen on an H200, torch 2.11), every layout, dtype and
mask above passes too, rows that see no key included, and ``tf32`` gets a
kernel of its own.  Head dims below 16 (D or Dv) are refused there
("NYI: embedding dimension ... must be at least 16", an ``InductorError``;
``tl.dot`` needs 16): a deliberate limit, not a wrong answer, but stated
only in that message.  So its support declares head dims of 16 and more,
and the ``refuses`` property checks that smaller ones are refused (on the
CPU, where the reference path computes them, they are answered right).
Each new shape, stride or dtype compiles a kernel (2 to 3 s), so a GPU
campaign spends most of its time compiling.

FlexAttention cannot write into a given output tensor (``writes_out=False``).
"""

from __future__ import annotations

import functools
import inspect
import warnings

import torch

from ...reference import oracle
from .implementation import Implementation, Support

# The compiled kernel's head dims (``tl.dot`` needs 16): those the strategies
# draw from 16 up, and 256.
COMPILED_HEAD_DIMS = (16, 24, 32, 40, 64, 72, 80, 96, 112, 128, 256)

try:
    from torch.nn.attention import flex_attention as _flex
except ImportError:  # a torch without FlexAttention: no implementation
    _flex = None

# Uncompiled flex_attention warns once that it is "called without
# torch.compile()" and so materialises the scores: on the CPU that reference
# path is the one meant, so the warning says nothing.
_EAGER_WARNING = "flex_attention called without torch.compile"
# dynamic=False compiles one kernel per shape, stride, dtype, mask and
# allow_tf32 (dynamo guards on it); a campaign draws far more than dynamo's
# default 8 recompiles, past which fullgraph=True raises instead of silently
# running the uncompiled path.
_RECOMPILE_LIMIT = 1 << 16


@functools.cache
def _compiled():
    return torch.compile(_flex.flex_attention, dynamic=False, fullgraph=True)


@functools.lru_cache(maxsize=256)
def _block_mask(sq: int, sk: int, alignment: str, device: torch.device, causal: bool = True,
                window: tuple | None = None):
    shift = oracle.offset(sq, sk, alignment)

    def visible(b, h, q_idx, kv_idx):  # the oracle's rule, as a mask_mod
        return oracle.sees(kv_idx - q_idx - shift, causal, window)

    return _flex.create_block_mask(visible, None, None, sq, sk, device=device)


@functools.cache
def _lse_request() -> dict[str, object]:
    if "return_aux" in inspect.signature(_flex.flex_attention).parameters:
        return {"return_aux": _flex.AuxRequest(lse=True)}
    return {"return_lse": True}


def run(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, out: None, *,
    causal: bool, scale: float | None, alignment: str, input_precision: str,
    window: tuple | None = None,
) -> dict[str, torch.Tensor]:
    """FlexAttention on the harness's calling convention (``out`` is unused)."""
    kwargs: dict[str, object] = {"scale": scale, **_lse_request()}
    if causal or window is not None:
        kwargs["block_mask"] = _block_mask(q.shape[2], k.shape[2], alignment, q.device,
                                           causal, window)
    if q.shape[1] != k.shape[1]:
        kwargs["enable_gqa"] = True
    old_tf32 = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = input_precision == "tf32"
    try:
        if q.is_cuda:
            with torch._dynamo.config.patch(
                recompile_limit=_RECOMPILE_LIMIT, accumulated_recompile_limit=_RECOMPILE_LIMIT
            ):
                result, aux = _compiled()(q, k, v, **kwargs)
        else:
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message=_EAGER_WARNING, category=UserWarning)
                result, aux = _flex.flex_attention(q, k, v, **kwargs)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = old_tf32
    lse = aux.lse if "return_aux" in kwargs else aux
    if lse is None:
        if q.shape[0] * q.shape[1] * q.shape[2]:
            raise RuntimeError("flex_attention returned no LSE for a non-empty query")
        return {"out": result}
    return {"out": result, "lse": lse}


IMPLEMENTATIONS = () if _flex is None else (
    Implementation(
        "flex", "attention", run, writes_out=False,
        description="torch FlexAttention, compiled on CUDA",
        # FlexAttention has a backward on CUDA only ("does not support
        # backward on CPU").
        support=Support(head_dims=COMPILED_HEAD_DIMS, backward=torch.cuda.is_available(),
                        windows=True),
    ),
)
