"""The peers' methods of ``benchmarks/peer_methods.py`` pass the kernels as
they are and fail on planted bugs, at their small shapes (``tiny``): a
comparison with them means something only if both hold."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

import attnfuzz

ROOT = Path(__file__).resolve().parents[1]
# Run, not imported: a new module in sys.modules would change what fixed
# Hypothesis seeds draw elsewhere (see test_ablate_prefill).
PEERS = runpy.run_path(str(ROOT / "benchmarks" / "peer_methods.py"))


@pytest.mark.parametrize("peer", PEERS["PEERS"])
def test_a_peer_passes_the_kernels_as_they_are(peer):
    got = PEERS["_check"](peer, True)
    assert not got["killed"] and not got.get("error") and got["checks"] > 1, got


def test_the_tutorial_fails_an_attention_that_drops_its_causal_mask(monkeypatch):
    right = attnfuzz.flash_attention
    monkeypatch.setattr(attnfuzz, "flash_attention",
                        lambda q, k, v, *, causal=False, **kw: right(q, k, v, **kw))
    got = PEERS["_check"]("tutorial", True)
    assert got["killed"] and got["failed"].startswith("flash_attention"), got
    assert "causal=True: forward" in got["failed"], got


def test_kernelbench_fails_a_softmax_at_twice_its_scale(monkeypatch):
    # (5% off everywhere passes it: at atol 1e-2 a row of 64 weights near
    # 1/64 moves too little.)
    right = attnfuzz.softmax
    monkeypatch.setattr(attnfuzz, "softmax", lambda x, **kw: right(x * 2, **kw))
    got = PEERS["_check"]("kernelbench", True)
    assert got["killed"] and got["failed"].startswith("softmax"), got
