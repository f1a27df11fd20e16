"""The fused attention backward: properties with exact answers.

Which gradients exist and their shapes, the exact zeros (rows that see no
key, no query rows, no keys, a zero scale), bit-identical reruns, strides of
dO that change no bit, and the refusals.  How close the gradients are to an
oracle is the oracle tests' business, within derived error bounds.
"""

from __future__ import annotations

import pytest
import torch

from attnfuzz.kernels import flash_attention, flash_backward, flash_decode, flash_prefill
from attnfuzz.kernels._checks import check_attention_inputs, check_window, interpreting
from attnfuzz.kernels._launch import capability
from attnfuzz.properties import backend
from tests.support import assert_gradients_within_bounds

DEV = backend.device()
FUNCTIONS = {"attention": flash_attention, "prefill": flash_prefill, "decode": flash_decode}
DTYPES = {"float32": torch.float32, "float16": torch.float16}


def qkv(b=1, hq=4, hkv=2, sq=20, sk=33, d=40, dv=24, *, dtype=torch.float32, seed=0,
        grad="qkv"):
    """Random q, k, v; those named in ``grad`` require grad."""
    gen = torch.Generator().manual_seed(seed)
    shapes = {"q": (b, hq, sq, d), "k": (b, hkv, sk, d), "v": (b, hkv, sk, dv)}
    return tuple(
        torch.randn(s, generator=gen).to(dtype).to(DEV).requires_grad_(name in grad)
        for name, s in shapes.items()
    )


def d_out(q, v, seed=1):
    gen = torch.Generator().manual_seed(seed)
    return torch.randn(*q.shape[:3], v.shape[-1], generator=gen).to(q.dtype).to(DEV)


def grads(fn, q, k, v, do, **kwargs):
    """(dq, dk, dv) of ``fn`` from a fresh graph; None where no grad is required."""
    inputs = [t.detach().requires_grad_(t.requires_grad) for t in (q, k, v)]
    fn(*inputs, **kwargs).backward(do)
    return tuple(t.grad for t in inputs)


def assert_bits_equal(a, b):
    for x, y in zip(a, b, strict=True):
        assert (x is None) == (y is None)
        if x is not None:
            assert x.dtype == y.dtype and x.shape == y.shape
            assert torch.equal(x.view(torch.uint8), y.view(torch.uint8))


@pytest.mark.parametrize("dtype", DTYPES.values(), ids=DTYPES)
@pytest.mark.parametrize("grad", ["q", "k", "v", "kv", "qkv"])
def test_gradients_only_for_the_inputs_that_require_grad(grad, dtype):
    q, k, v = qkv(hq=3, hkv=1, sq=9, sk=70, d=33, dv=16, dtype=dtype, grad=grad)
    out = flash_attention(q, k, v, causal=True)
    assert out.requires_grad and out.grad_fn is not None
    out.backward(d_out(q, v))
    for name, t in zip("qkv", (q, k, v), strict=True):
        if name in grad:
            assert t.grad is not None and t.grad.shape == t.shape and t.grad.dtype == dtype
            assert torch.isfinite(t.grad).all() and t.grad.abs().sum() > 0
        else:
            assert t.grad is None


def test_the_lse_is_returned_but_not_differentiable():
    q, k, v = qkv()
    out, lse = flash_attention(q, k, v, return_lse=True)
    assert out.requires_grad and not lse.requires_grad
    assert lse.dtype == torch.float32 and lse.shape == q.shape[:3]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_rows_that_see_no_key_get_zero_dq_and_add_nothing_to_dk_dv(name):
    # Causal bottom_right with Sq > Sk: rows 0 .. Sq - Sk - 1 see no key.
    sq, sk = (70, 20) if name != "decode" else (16, 5)
    blind = sq - sk
    q, k, v = qkv(hq=2, hkv=1, sq=sq, sk=sk, d=24, dv=40)
    do = d_out(q, v)
    dq, dk, dv = grads(FUNCTIONS[name], q, k, v, do, causal=True)
    assert torch.equal(dq[:, :, :blind], torch.zeros_like(dq[:, :, :blind]))
    assert dq[:, :, blind + 1 :].abs().sum() > 0  # row `blind` sees one key: dq ~ 0 there
    # Other values on those rows, in q and in dO, leave dK and dV's bits as they are.
    q2, do2 = q.detach().clone(), do.clone()
    q2[:, :, :blind] = q2[:, :, :blind] * -3 + 1
    do2[:, :, :blind] = do2[:, :, :blind] * 5 - 2
    _, dk2, dv2 = grads(FUNCTIONS[name], q2.requires_grad_(), k, v, do2, causal=True)
    assert_bits_equal((dk, dv), (dk2, dv2))


def test_no_query_rows_give_zero_dk_and_dv():
    q, k, v = qkv(sq=0, sk=33)
    dq, dk, dv = grads(flash_attention, q, k, v, d_out(q, v))
    assert dq.shape == q.shape
    assert torch.equal(dk, torch.zeros_like(k)) and torch.equal(dv, torch.zeros_like(v))


def test_no_keys_give_zero_dq():
    q, k, v = qkv(sq=20, sk=0)
    dq, dk, dv = grads(flash_attention, q, k, v, d_out(q, v))
    assert torch.equal(dq, torch.zeros_like(q))
    assert dk.shape == k.shape and dv.shape == v.shape


@pytest.mark.parametrize("causal", [False, True])
def test_a_zero_scale_gives_zero_dq_and_dk(causal):
    # dQ and dK carry the scale as a factor; dV does not.
    q, k, v = qkv(sq=20, sk=70)
    dq, dk, dv = grads(flash_attention, q, k, v, d_out(q, v), causal=causal, scale=0.0)
    assert torch.equal(dq, torch.zeros_like(q)) and torch.equal(dk, torch.zeros_like(k))
    assert dv.abs().sum() > 0


@pytest.mark.parametrize("dtype", DTYPES.values(), ids=DTYPES)
@pytest.mark.parametrize("name", FUNCTIONS)
def test_reruns_are_bit_identical(name, dtype):
    q, k, v = qkv(hq=6, hkv=2, sq=13, sk=70, dtype=dtype)
    do = d_out(q, v)
    first = grads(FUNCTIONS[name], q, k, v, do, causal=True, alignment="top_left", scale=-0.3)
    again = grads(FUNCTIONS[name], q, k, v, do, causal=True, alignment="top_left", scale=-0.3)
    assert_bits_equal(first, again)


@pytest.mark.parametrize("return_lse", [False, True])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("name", FUNCTIONS)
def test_the_forward_under_autograd_is_the_no_grad_forward(name, causal, return_lse):
    q, k, v = qkv(sq=10, sk=70)
    fn = FUNCTIONS[name]
    got = fn(q, k, v, causal=causal, return_lse=return_lse)
    want = fn(q.detach(), k.detach(), v.detach(), causal=causal, return_lse=return_lse)
    got, want = (x if return_lse else (x,) for x in (got, want))
    assert_bits_equal([t.detach() for t in got], want)


def test_inputs_that_require_grad_under_no_grad_get_the_plain_forward():
    q, k, v = qkv()
    with torch.no_grad():
        out = flash_attention(q, k, v, causal=True)
    assert not out.requires_grad
    want = flash_attention(q.detach(), k.detach(), v.detach(), causal=True)
    assert_bits_equal([out], [want])


LAYOUTS = {
    "transposed": lambda x: x.transpose(-1, -2).contiguous().transpose(-1, -2),
    "expanded": lambda x: x[:1, :, :1].expand(x.shape),
    "offset": lambda x: torch.cat([x, x], -1)[..., 3 : 3 + x.shape[-1]],
    "heads-last": lambda x: x.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2),
}


@pytest.mark.parametrize("layout", LAYOUTS.values(), ids=LAYOUTS)
def test_a_strided_d_out_changes_no_bit(layout):
    q, k, v = qkv(hq=3, hkv=1, sq=20, sk=70)
    do = layout(d_out(q, v))
    assert not do.is_contiguous()
    assert_bits_equal(grads(flash_attention, q, k, v, do, causal=True),
                      grads(flash_attention, q, k, v, do.contiguous(), causal=True))


@pytest.mark.parametrize("name", FUNCTIONS)
def test_out_is_refused_when_an_input_requires_grad(name):
    q, k, v = qkv(grad="k")
    out = torch.empty(*q.shape[:3], v.shape[-1], device=DEV)
    with pytest.raises(ValueError, match=r"^out must be None.*\(k does\)"):
        FUNCTIONS[name](q, k, v, out=out)


@pytest.mark.skipif(not interpreting(), reason="bf16 is refused only by the interpreter")
def test_bf16_is_refused_on_the_interpreter_when_differentiable():
    q, k, v = qkv(dtype=torch.bfloat16)
    with pytest.raises(TypeError, match="q is bfloat16.*interpreter"):
        flash_attention(q, k, v)


def test_an_in_place_change_of_a_saved_tensor_is_caught():
    q, k, v = qkv()
    out = flash_attention(q, k, v)
    with torch.no_grad():
        v.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        out.backward(d_out(q, v))


def test_double_backward_is_refused():
    q, k, v = qkv(grad="q")
    do = d_out(q, v).requires_grad_()
    (dq,) = torch.autograd.grad(flash_attention(q, k, v), q, do, create_graph=True)
    with pytest.raises(RuntimeError, match="differentiate twice"):
        dq.sum().backward()


# Races exist only where programs run side by side: compiled, on a GPU.  A
# large causal GQA backward repeated many times (flash-attention's own test
# repeats one 250 times) must give the same bits every time.
RACE_REPEATS = 100


@pytest.mark.skipif(interpreting(), reason="the interpreter runs one program at a time: "
                    "no races to find; this runs on a GPU")
@pytest.mark.parametrize("causal", [False, True])
def test_backward_reruns_are_bit_identical_on_the_gpu(causal):
    q, k, v = qkv(b=2, hq=16, hkv=8, sq=1031, sk=1031, d=128, dv=128, dtype=torch.float16)
    do = d_out(q, v)
    first = grads(flash_attention, q, k, v, do, causal=causal)
    for _ in range(RACE_REPEATS):
        assert_bits_equal(grads(flash_attention, q, k, v, do, causal=causal), first)


# The interpreter's backward runs one tile shape of its own, so the table's
# masks and loop bounds at 16- to 128-row steps and 16- to 128-key blocks
# would run only on a GPU: each tile pair of the table, forced, on any backend.
@pytest.mark.parametrize("config", sorted(set(flash_backward._CONFIGS.values())),
                         ids=lambda c: "dkdv{}x{}-dq{}x{}".format(*c.dkdv[:2], *c.dq[:2]))
def test_every_tile_shape_of_the_table_is_within_the_bounds(config):
    # Sq and Sk end part-way into a block of every size; causal: masked and
    # unmasked ranges both; GQA: a dK/dV program sums over two query heads.
    q, k, v = (t.detach() for t in qkv(b=1, hq=4, hkv=2, sq=70, sk=131, d=40, dv=24))
    do = d_out(q, v)
    kw = {"causal": True, "scale": 40**-0.5, "alignment": "bottom_right"}
    out, lse = flash_attention(q, k, v, causal=True, return_lse=True)
    dims = check_attention_inputs(q, k, v, causal=True, scale=None, alignment="bottom_right")
    got = flash_backward.launch_backward(do, q, k, v, out, lse, dims, causal=True,
                                         precision="ieee", config=config)
    assert_gradients_within_bounds(q, k, v, do, got, **kw)


# The backward's TMA path (``uses_tma``) against its pointer path: the loads
# differ, the tiles and arithmetic do not, so every bit agrees, rows past Sq
# and columns past a padded head dim read as zeros both ways.
@pytest.mark.parametrize(("sq", "sk", "d", "dv", "causal", "window"), [
    (70, 131, 64, 64, True, None),  # ragged both; masked and unmasked ranges
    (131, 70, 40, 24, True, None),  # rows that see no key; padded head dims
    (33, 90, 64, 32, False, (5, 3)),  # a window's band and its masked tail
])
def test_the_tma_loads_give_the_pointer_loads_bits(sq, sk, d, dv, causal, window):
    q, k, v = (t.detach() for t in qkv(b=2, hq=4, hkv=2, sq=sq, sk=sk, d=d, dv=dv,
                                          dtype=torch.float16))
    do = d_out(q, v)
    out, lse = flash_attention(q, k, v, causal=causal, window=window, return_lse=True)
    dims = check_attention_inputs(q, k, v, causal=causal, scale=None, alignment="bottom_right")
    got = [flash_backward.launch_backward(do, q, k, v, out, lse, dims, causal=causal,
                                          precision="ieee", window=check_window(window), tma=tma)
           for tma in (False, True)]
    assert_bits_equal(*got)


def test_tma_loads_are_refused_for_an_input_they_cannot_address():
    q, k, v = (t.detach() for t in qkv(sq=16, sk=16, d=64, dv=64, dtype=torch.float16))
    moved = torch.empty(q.numel() + 8, dtype=q.dtype, device=q.device)[1:1 + q.numel()]
    q = moved.view(q.shape).copy_(q)  # 2 bytes past a 16-byte boundary
    do = d_out(q, v)
    out, lse = flash_attention(q, k, v, return_lse=True)
    dims = check_attention_inputs(q, k, v, causal=False, scale=None, alignment="bottom_right")
    with pytest.raises(ValueError, match="tma=True"):
        flash_backward.launch_backward(do, q, k, v, out, lse, dims, causal=False,
                                       precision="ieee", tma=True)
    head = {"BLOCK_D": 64, "BLOCK_DV": 64}
    assert not flash_backward.uses_tma(q, k, v, do, head)


@pytest.mark.skipif(not interpreting() and not (flash_backward.TMA_ON_GPU
                                                 and capability(0)[0] >= 9),
                    reason="a GPU takes the TMA loads unasked only with TMA_ON_GPU, on sm_90")
def test_dense_16_bit_inputs_take_the_tma_loads_and_float32_the_pointers():
    head = {"BLOCK_D": 128, "BLOCK_DV": 128}
    q, k, v = (t.detach() for t in qkv(sq=8, sk=8, d=128, dv=128, dtype=torch.float16))
    assert flash_backward.uses_tma(q, k, v, d_out(q, v), head)
    q, k, v = (t.detach() for t in qkv(sq=8, sk=8, d=128, dv=128))
    assert not flash_backward.uses_tma(q, k, v, d_out(q, v), head)
