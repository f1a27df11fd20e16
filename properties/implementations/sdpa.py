"""PyTorch's ``scaled_dot_product_attention`` as implementations under test.

One implementation per SDPA backend (math, flash, cuDNN, memory-efficient),
each pinned with ``torch.nn.attention.sdpa_kernel`` so a case runs on that
backend or fails loudly.  The documented semantics are mapped onto ours:

- causal ``top_left`` is SDPA's ``is_causal=True`` convention, passed as
  ``torch.nn.attention.bias.causal_upper_left`` (which calls SDPA with
  ``is_causal=True``); ``bottom_right`` (the KV-cache convention) is
  ``causal_lower_right``;
- GQA is ``enable_gqa=True`` (KV heads are not repeated by us);
- ``scale`` is passed through (SDPA's default is also D**-0.5);
- a sliding window (math, memory-efficient and cuDNN, which take a boolean
  ``attn_mask``; the flash backend takes none) is the boolean mask of the
  oracle's rule (``reference.oracle.visible``), the causal limit folded in.
  A causal case without one keeps torch's own variant for its alignment, so
  that SDPA's causal paths are run and checked against that rule.

SDPA documents no result for a query row that sees no key; the harness
expects zeros there, so such rows are reported as findings, not hidden.
SDPA cannot write into a given output tensor (``writes_out=False``).
"""

from __future__ import annotations

from dataclasses import replace

import torch

from ...reference import oracle
from .implementation import Implementation, Support

BACKENDS = {
    "sdpa_math": "MATH",
    "sdpa_flash": "FLASH_ATTENTION",
    "sdpa_cudnn": "CUDNN_ATTENTION",
    "sdpa_efficient": "EFFICIENT_ATTENTION",
}
# What each backend declares it takes: flash and cuDNN are 16-bit only (and
# must refuse float32), the others take every dtype.
# Every backend has a backward (autograd).
SIXTEEN_BIT = Support(dtypes=("float16", "bfloat16"), backward=True)
SUPPORT = {"sdpa_math": Support(backward=True, windows=True), "sdpa_flash": SIXTEEN_BIT,
           "sdpa_cudnn": replace(SIXTEEN_BIT, windows=True),
           "sdpa_efficient": Support(backward=True, windows=True)}


# Our causal alignments, as SDPA's causal biases (torch.nn.attention.bias).
CAUSAL_VARIANT = {"bottom_right": "causal_lower_right", "top_left": "causal_upper_left"}


def _runner(name: str):
    def run(q, k, v, out, *, causal, scale, alignment, input_precision, window=None):
        import torch.nn.functional as F
        from torch.nn.attention import SDPBackend, bias, sdpa_kernel

        sq, sk = q.shape[2], k.shape[2]
        kwargs: dict[str, object] = {"scale": scale}
        if window is not None:
            kwargs["attn_mask"] = oracle.visible(sq, sk, alignment, causal=causal,
                                                 window=window, device=q.device)
        elif causal:
            kwargs["attn_mask"] = getattr(bias, CAUSAL_VARIANT[alignment])(sq, sk)
        group = q.shape[1] // k.shape[1] if k.shape[1] else 1
        if group > 1:
            kwargs["enable_gqa"] = True
        old_tf32 = torch.backends.cuda.matmul.allow_tf32
        torch.backends.cuda.matmul.allow_tf32 = input_precision == "tf32"
        try:
            with sdpa_kernel(getattr(SDPBackend, BACKENDS[name])):
                result = F.scaled_dot_product_attention(q, k, v, **kwargs)
        finally:
            torch.backends.cuda.matmul.allow_tf32 = old_tf32
        return {"out": result}

    return run


IMPLEMENTATIONS = tuple(
    Implementation(
        name, "attention", _runner(name), writes_out=False,
        description=f"torch SDPA, {BACKENDS[name].lower()} backend",
        support=SUPPORT[name],
    )
    for name in BACKENDS
)
