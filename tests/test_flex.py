"""FlexAttention (``flex``) on the CPU: its uncompiled reference path against the oracle.

Fixed cases, one per mapping ``implementations.flex`` makes: no mask, both
causal alignments with Sq < Sk and Sq > Sk (rows that see no key included),
GQA, strided and broadcast layouts, the 16-bit dtypes, and lengths past one
128-wide block of the block mask.
"""

from __future__ import annotations

import warnings

import pytest

from attnfuzz.properties import implementations
from attnfuzz.properties.checks.agreement import implementations_agree
from attnfuzz.properties.checks.oracle import against_oracle
from attnfuzz.properties.model.cases import AttentionCase
from attnfuzz.properties.model.layouts import named
from attnfuzz.properties.model.values import Values

flex_attention = pytest.importorskip("torch.nn.attention.flex_attention")

CASES = {
    "no mask": AttentionCase(batch=2, hq=2, hkv=2, sq=5, sk=9, values=Values(seed=1)),
    "bottom_right sq<sk": AttentionCase(sq=5, sk=9, causal=True, values=Values(seed=2)),
    # Queries 0..3 see no key: zeros and an LSE of -inf.
    "bottom_right sq>sk": AttentionCase(sq=9, sk=5, causal=True, values=Values(seed=3)),
    "top_left sq<sk": AttentionCase(sq=5, sk=9, causal=True, alignment="top_left",
                                    values=Values(seed=4)),
    "top_left sq>sk": AttentionCase(sq=9, sk=5, causal=True, alignment="top_left",
                                    values=Values(seed=5)),
    "gqa": AttentionCase(hq=4, hkv=2, sq=7, sk=11, causal=True, values=Values(seed=6)),
    "layouts": AttentionCase(
        hq=4, hkv=2, sq=6, sk=10, d=24, dv=16, causal=True, scale=0.3,
        q_layout=named("slice_s", 4, step=2, pad=1, front=3),
        k_layout=named("d_major", 4, front=5), v_layout=named("expand_heads", 4, front=2),
        values=Values(seed=7),
    ),
    "past one mask block": AttentionCase(sq=130, sk=200, causal=True,
                                         values=Values("large", 1.0, seed=8)),
    "float16": AttentionCase(hq=2, hkv=1, sq=9, sk=5, dtype="float16", causal=True,
                             q_layout=named("bshd", 4), values=Values(seed=9)),
    "bfloat16": AttentionCase(sq=5, sk=9, dtype="bfloat16", causal=True, alignment="top_left",
                              values=Values(scale=3.0, seed=10)),
    # Sliding windows: the usual local attention, both sides open, a top-left one
    # past a mask block's edge.
    "window causal": AttentionCase(sq=9, sk=20, causal=True, window=(3, 0),
                                   values=Values(seed=11)),
    "window both sides": AttentionCase(sq=9, sk=20, window=(2, 4), values=Values(seed=12)),
    "window top_left": AttentionCase(sq=140, sk=150, causal=True, alignment="top_left",
                                     window=(129, None), values=Values(seed=13)),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_flex_agrees_with_the_oracle(case):
    verdicts = against_oracle(implementations.get("flex"), case)
    assert {"out", "lse"} <= {v.check for v in verdicts}
    bad = [v.describe() for v in verdicts if not v.ok]
    assert not bad, bad


# The flex mask is the oracle's rule; SDPA's causal variants (causal_lower_right,
# causal_upper_left) are torch's own, so agreeing with them checks that rule from
# outside.  Sq != Sk, where the alignments differ, and every row sees a key (SDPA
# documents no result for a row that sees none).
BOTH_SEE_A_KEY = ("bottom_right sq<sk", "top_left sq>sk", "gqa")


@pytest.mark.parametrize("name", BOTH_SEE_A_KEY)
def test_flex_agrees_with_sdpas_own_causal_variants(name):
    flex, sdpa = implementations.get("flex"), implementations.get("sdpa_math")
    bad = [v.describe() for v in implementations_agree(flex, sdpa, CASES[name]) if not v.ok]
    assert not bad, bad


def test_the_cpu_reference_path_runs_without_its_performance_warning():
    # FlexAttention warns once per process: forget that it has, then call again.
    flex_attention._WARNINGS_SHOWN.discard("flex_attention_performance")
    # Only that warning: on a GPU, compiling flex warns of other things (torch.jit
    # deprecations), depending on what this worker has imported before.
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        against_oracle(implementations.get("flex"), CASES["gqa"])
    assert not [w for w in seen if "without torch.compile" in str(w.message)]


WINDOWED = {k: v for k, v in CASES.items() if k.startswith("window")}
# Without a window, SDPA runs PyTorch's own causal biases: a statement of the
# alignments apart from the oracle's rule, which flex's mask and SDPA's window
# masks are built from; a wrong rule disagrees with them.  (Bottom-right with
# Sq > Sk is left out: SDPA gives its blind rows NaN.)
CAUSAL = {k: CASES[k] for k in ("bottom_right sq<sk", "top_left sq<sk", "top_left sq>sk", "gqa")}


@pytest.mark.parametrize("case", [*WINDOWED.values(), *CAUSAL.values()],
                         ids=[*WINDOWED, *CAUSAL])
def test_sdpa_math_agrees_with_the_oracle(case):
    # SDPA has no window argument: its adapter builds the boolean mask.
    verdicts = against_oracle(implementations.get("sdpa_math"), case)
    bad = [v.describe() for v in verdicts if not v.ok]
    assert not bad, bad
