"""Every strategy shrinks towards the simplest case that still fails.

Bugs of several kinds are planted in plain torch attention (float64 math, no
Triton, so a case costs a millisecond); each is found through the oracle
property's own case strategy, and the failing case Hypothesis shrinks it to
must be the smallest one that shows the bug.  A regime, a block-edge length or
a value family that pins a floor the shrinker cannot leave shows here as a
case past one 64-row block for a bug that two rows show.
"""

from __future__ import annotations

import random

import pytest
import torch
from hypothesis import HealthCheck, find, settings

from attnfuzz.properties import checks, implementations
from attnfuzz.properties.implementations import Implementation, Support
from attnfuzz.properties.model.cases import AttentionCase
from attnfuzz.properties.strategy_parts import ALIGNMENTS, FAMILIES, HEAD_DIMS, NAMES


def _attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *, causal: bool,
               scale: float | None, alignment: str, bug: str = "") -> torch.Tensor:
    # (B, H, S, D) tensors, as the attnfuzz convention passes them.
    hq, hkv, sq, sk = q.shape[1], k.shape[1], q.shape[2], k.shape[2]
    group = hq // hkv
    # bug "gqa": query heads dealt round the KV heads, not in groups of them.
    heads = [h % hkv if bug == "gqa" else h // group for h in range(hq)]
    q, k, v = q.double(), k.double()[:, heads], v.double()[:, heads]
    scale = q.shape[-1] ** -0.5 if scale is None else scale
    logits = (q @ k.transpose(-1, -2)) * scale
    visible = torch.ones(sq, sk, dtype=torch.bool)
    if causal:
        # bug "causal": every mask top-left, whatever the alignment asked for.
        offset = sk - sq if alignment == "bottom_right" and bug != "causal" else 0
        visible = torch.arange(sk)[None, :] <= torch.arange(sq)[:, None] + offset
    if bug == "tail" and sk > 16:
        visible[:, -1] = False  # past one 16-key block, the last key is lost
    p = torch.softmax(logits.masked_fill(~visible, float("-inf")), dim=-1).nan_to_num(0.0)
    return p @ v


def correct(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, **kw: object) -> torch.Tensor:
    return _attention(q, k, v, **kw).to(q.dtype)


def causal_top_left(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                    **kw: object) -> torch.Tensor:
    return _attention(q, k, v, bug="causal", **kw).to(q.dtype)


def gqa_round_robin(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                    **kw: object) -> torch.Tensor:
    return _attention(q, k, v, bug="gqa", **kw).to(q.dtype)


def tail_dropped(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                 **kw: object) -> torch.Tensor:
    return _attention(q, k, v, bug="tail", **kw).to(q.dtype)


def _impl(fn) -> Implementation:
    return implementations.of_function(fn, convention="attnfuzz", supports=Support())


def _fails(impl: Implementation, case: AttentionCase) -> bool:
    return any(not v.ok for v in checks.get("oracle").run(impl, case))


def _shrunk(fn, seed: int) -> AttentionCase:
    impl = _impl(fn)
    return find(checks.get("oracle").cases(impl, "float32"), lambda c: _fails(impl, c),
                settings=settings(max_examples=200, database=None, deadline=None,
                                  suppress_health_check=list(HealthCheck)),
                random=random.Random(seed))


SEEDS = (1, 2)


def _size(c: AttentionCase) -> dict[str, object]:
    return dict(batch=c.batch, hq=c.hq, hkv=c.hkv, sq=c.sq, sk=c.sk, d=c.d, dv=c.dv,
                causal=c.causal, alignment=c.alignment, window=c.window, scale=c.scale,
                family=c.values.family,
                layouts=tuple(t.name for t in (c.q_layout, c.k_layout, c.v_layout)))


# The simplest case the strategy draws: each choice at its first option.
SIMPLEST = dict(batch=1, hq=1, hkv=1, sq=1, sk=1, d=HEAD_DIMS[0], dv=HEAD_DIMS[0], causal=False,
                alignment=ALIGNMENTS[0], window=None, scale=None, family=FAMILIES[0],
                layouts=(NAMES[0],) * 3)
# What each bug needs beyond it: the sizes that show the bug and nothing more.
NEEDS = {
    # One query over two keys: bottom-right it sees both, top-left only the first.
    causal_top_left: dict(causal=True, alignment="bottom_right", sk=2),
    # Two KV heads of two query heads: query head 1 reads KV head 0, dealt round it reads 1.
    gqa_round_robin: dict(hq=4, hkv=2),
    # Past one 16-key block (a causal mask with Sq = 1 hides none of them: either is as simple).
    tail_dropped: dict(sk=17, causal=None),
}


@pytest.mark.parametrize("seed", SEEDS)
def test_each_bug_shrinks_to_the_simplest_case_that_shows_it(seed):
    for fn, needs in NEEDS.items():
        got = _size(_shrunk(fn, seed))
        want = {**SIMPLEST, **needs}
        differ = {k: (got[k], v) for k, v in want.items() if v is not None and got[k] != v}
        assert not differ, f"{fn.__name__} shrank to {got}; (got, want) where they differ: {differ}"
