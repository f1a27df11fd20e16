"""The backward of naive_attention and of softmax: checks with exact answers only.

Which gradients exist and how they are shaped; zeros that must be exact
(rows that see no key, masked entries, empty sums, scale 0); bit-identical
answers where the arithmetic is the same (reruns, the forward with and
without autograd, dO or the inputs in another layout).  Agreement with an
oracle, within derived error bounds, is tested elsewhere.
"""

from __future__ import annotations

import pytest
import torch

from attnfuzz import kernels
from attnfuzz.kernels.row_softmax import launch_softmax_backward
from attnfuzz.properties import backend
from attnfuzz.properties.checks import accesses

DEV = backend.device()
DTYPES = [torch.float32, torch.float16]
BITS = {torch.float32: torch.int32, torch.float16: torch.int16, torch.bfloat16: torch.int16}


def randn(gen, *shape, dtype=torch.float32):
    return torch.randn(*shape, generator=gen).to(dtype).to(DEV)


def qkv(seed, *, b=1, hq=2, hkv=1, sq=5, sk=7, d=8, dv=6, dtype=torch.float32, grad="qkv"):
    gen = torch.Generator().manual_seed(seed)
    shapes = {"q": (b, hq, sq, d), "k": (b, hkv, sk, d), "v": (b, hkv, sk, dv)}
    return [randn(gen, *s, dtype=dtype).requires_grad_(n in grad) for n, s in shapes.items()]


def d_out_like(seed, q, v):
    gen = torch.Generator().manual_seed(seed)
    return randn(gen, *q.shape[:3], v.shape[-1], dtype=q.dtype)


def grads(q, k, v, d_out, **kw):
    out = kernels.naive_attention(q, k, v, **kw)
    return torch.autograd.grad(out, [t for t in (q, k, v) if t.requires_grad], d_out)


def same_bits(a, b):
    return (a.shape == b.shape and a.dtype == b.dtype
            and torch.equal(a.contiguous().view(BITS[a.dtype]), b.contiguous().view(BITS[b.dtype])))


def transposed(t):
    return t.transpose(-1, -2).contiguous().transpose(-1, -2)


def sliced(t):
    """t's values in a padded buffer, at a storage offset."""
    buf = torch.full((*t.shape[:2], t.shape[2] + 3, t.shape[3] + 2), float("nan"),
                     dtype=t.dtype, device=t.device)
    view = buf[:, :, 2:-1, 1:-1]
    view.copy_(t)
    return view


def heads_outer(t):
    return t.permute(1, 0, 2, 3).contiguous().permute(1, 0, 2, 3)


LAYOUTS = {"transposed": transposed, "sliced": sliced, "heads_outer": heads_outer}


# --- naive_attention ------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("grad", ["q", "k", "v", "qk", "kv", "qkv"])
def test_gradients_exist_only_for_inputs_that_require_grad(dtype, grad):
    q, k, v = qkv(1, hq=4, hkv=2, d=5, dv=3, dtype=dtype, grad=grad)
    out = kernels.naive_attention(q, k, v, causal=True)
    assert out.requires_grad
    out.backward(d_out_like(2, q, v))
    for name, t in zip("qkv", (q, k, v), strict=True):
        if name in grad:
            assert t.grad is not None and t.grad.shape == t.shape, name
            assert t.grad.dtype == dtype and t.grad.device == t.device, name
        else:
            assert t.grad is None, name


def test_inputs_that_need_no_grad_take_the_plain_path():
    q, k, v = qkv(3, grad="")
    assert not kernels.naive_attention(q, k, v).requires_grad
    q.requires_grad_()
    with torch.no_grad():
        assert not kernels.naive_attention(q, k, v).requires_grad


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("scale", [0.7, -1.3])
def test_rows_that_see_no_key_get_zero_dq_and_add_nothing(dtype, scale):
    # bottom_right with Sq = 9 > Sk = 4: rows 0..4 see no key.
    q, k, v = qkv(4, hq=3, hkv=1, sq=9, sk=4, dtype=dtype)
    d_out = d_out_like(5, q, v)
    dq, dk, dv = grads(q, k, v, d_out, causal=True, scale=scale)
    assert (dq[:, :, :5] == 0).all()
    assert dq[:, :, 5:].abs().sum() > 0
    gen = torch.Generator().manual_seed(6)
    q2 = q.detach().clone()
    q2[:, :, :5] = randn(gen, *q2[:, :, :5].shape, dtype=dtype)
    d_out2 = d_out.clone()
    d_out2[:, :, :5] = randn(gen, *d_out2[:, :, :5].shape, dtype=dtype) * 1e3
    _, dk2, dv2 = grads(q2.requires_grad_(), k, v, d_out2, causal=True, scale=scale)
    assert torch.equal(dk, dk2) and torch.equal(dv, dv2)


@pytest.mark.parametrize("causal", [False, True])
def test_no_queries_give_zero_dk_dv(causal):
    q, k, v = qkv(7, hq=2, hkv=1, sq=0, sk=5)
    dq, dk, dv = grads(q, k, v, d_out_like(8, q, v), causal=causal)
    assert dq.shape == q.shape
    assert dk.shape == k.shape and dv.shape == v.shape
    assert (dk == 0).all() and (dv == 0).all()


@pytest.mark.parametrize("causal", [False, True])
def test_no_keys_give_zero_dq(causal):
    q, k, v = qkv(9, hq=2, hkv=1, sq=4, sk=0)
    dq, dk, dv = grads(q, k, v, d_out_like(10, q, v), causal=causal)
    assert dq.shape == q.shape and (dq == 0).all()
    assert dk.shape == k.shape and dv.shape == v.shape


def test_zero_scale_gives_zero_dq_dk():
    q, k, v = qkv(11, hq=2, hkv=2, sq=6, sk=9)
    dq, dk, dv = grads(q, k, v, d_out_like(12, q, v), causal=True, scale=0.0)
    assert (dq == 0).all() and (dk == 0).all()
    assert dv.abs().sum() > 0


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_reruns_are_bit_identical(dtype):
    q, k, v = qkv(13, hq=3, hkv=1, sq=11, sk=70, d=24, dv=40, dtype=dtype)
    d_out = d_out_like(14, q, v)
    first = grads(q, k, v, d_out, causal=True, alignment="top_left", scale=-0.4)
    second = grads(q, k, v, d_out, causal=True, alignment="top_left", scale=-0.4)
    assert all(same_bits(a, b) for a, b in zip(first, second, strict=True))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_the_forward_under_autograd_is_bit_identical_to_the_plain_call(dtype):
    q, k, v = qkv(15, hq=4, hkv=2, sq=9, sk=6, dtype=dtype)
    out, probs = kernels.naive_attention(q, k, v, causal=True, return_probs=True)
    assert out.requires_grad and not probs.requires_grad
    with torch.no_grad():
        no_grad = kernels.naive_attention(q, k, v, causal=True, return_probs=True)
    plain = kernels.naive_attention(
        *(t.detach() for t in (q, k, v)), causal=True, return_probs=True)
    for want in (no_grad, plain):
        assert same_bits(out.detach(), want[0]) and same_bits(probs, want[1])


def test_probs_edited_in_place_are_refused_at_backward():
    q, k, v = qkv(16)
    out, probs = kernels.naive_attention(q, k, v, return_probs=True)
    probs.zero_()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        out.backward(d_out_like(17, q, v))


@pytest.mark.parametrize("grad", ["q", "v"])
def test_out_with_an_input_that_requires_grad_is_refused(grad):
    q, k, v = qkv(18, grad=grad)
    out = torch.empty(*q.shape[:3], v.shape[-1], device=DEV)
    with pytest.raises(ValueError, match=rf"out must be None.*\({grad} does\)"):
        kernels.naive_attention(q, k, v, out=out)
    with torch.no_grad():
        assert kernels.naive_attention(q, k, v, out=out) is out


@pytest.mark.skipif(not backend.interpreting(), reason="bf16 is refused only by the interpreter")
def test_bf16_is_refused_on_the_interpreter():
    q, k, v = qkv(19, dtype=torch.bfloat16)
    with pytest.raises(TypeError, match="q is bfloat16.*interpreter"):
        kernels.naive_attention(q, k, v)


def _expanded(t):
    return t[:, :, :1].expand(t.shape)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("layout", [*LAYOUTS.values(), _expanded], ids=[*LAYOUTS, "expanded"])
def test_a_strided_d_out_gives_the_gradients_of_its_contiguous_copy(dtype, layout):
    q, k, v = qkv(20, b=2, hq=4, hkv=2, sq=7, sk=10, d=6, dv=5, dtype=dtype)
    d_out = layout(d_out_like(21, q, v))
    assert not d_out.is_contiguous()
    want = grads(q, k, v, d_out.contiguous(), causal=True)
    got = grads(q, k, v, d_out, causal=True)
    assert all(same_bits(a, b) for a, b in zip(got, want, strict=True))


def test_strided_inputs_give_the_gradients_of_their_contiguous_copies():
    q, k, v = qkv(22, b=2, hq=4, hkv=2, sq=6, sk=9, d=7, dv=4)
    d_out = d_out_like(23, q, v)
    want = grads(q, k, v, d_out, causal=True, alignment="top_left")
    for layout in LAYOUTS.values():
        inputs = [layout(t.detach()).requires_grad_() for t in (q, k, v)]
        assert not any(t.is_contiguous() for t in inputs), layout
        got = grads(*inputs, d_out, causal=True, alignment="top_left")
        assert all(same_bits(a, b) for a, b in zip(got, want, strict=True)), layout


@pytest.mark.skipif(not backend.interpreting(), reason="the interpreter's memory check")
def test_the_backward_stays_inside_its_tensors():
    q, k, v = qkv(24, hq=3, hkv=1, sq=9, sk=5, d=3, dv=2)
    q, k, v = (sliced(t.detach()).requires_grad_() for t in (q, k, v))
    d_out = _expanded(d_out_like(25, q, v))
    with accesses.watching() as seen:
        grads(q, k, v, d_out, causal=True)
    assert seen == []


# --- softmax --------------------------------------------------------------------------


def _visible(m, n, alignment):
    diagonal = n - m if alignment == "bottom_right" else 0
    return torch.arange(n, device=DEV)[None, :] <= torch.arange(m, device=DEV)[:, None] + diagonal


def _softmax_case(seed, shape, dtype):
    gen = torch.Generator().manual_seed(seed)
    return randn(gen, *shape, dtype=dtype), randn(gen, *shape, dtype=dtype)


# N = 130 is past one chunk of the interpreter's (128); M > N leaves rows that see nothing.
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("alignment", ["bottom_right", "top_left"])
def test_softmax_backward_kernel_zeros_masked_entries_and_blind_rows(dtype, alignment):
    m, n = 133, 130
    x, dy = _softmax_case(26, (1, 2, m, n), dtype)
    y = kernels.softmax(x, causal=True, alignment=alignment)
    visible = _visible(m, n, alignment)
    diagonal = n - m if alignment == "bottom_right" else 0

    def backward(dy):
        dx = torch.empty_like(y)
        launch_softmax_backward(y, dy, dx, scale=0.8, causal=True, diagonal=diagonal)
        return dx

    dx = backward(dy)
    assert (dx[..., ~visible] == 0).all()
    assert dx[..., visible].isfinite().all() and dx[..., visible].abs().sum() > 0
    # Whatever dy holds where masked (NaN here), the answer is that of zeros there.
    assert same_bits(backward(dy.masked_fill(~visible, float("nan"))), dx)
    assert same_bits(backward(dy.masked_fill(~visible, 0.0)), dx)


@pytest.mark.parametrize("causal", [False, True])
def test_softmax_backward_kernel_may_write_over_y_or_dy(causal):
    x, dy = _softmax_case(27, (2, 1, 40, 33), torch.float32)
    y = kernels.softmax(x, causal=causal)
    options = dict(scale=1.0, causal=causal, diagonal=33 - 40)
    want = torch.empty_like(y)
    launch_softmax_backward(y, dy, want, **options)
    for aliased in ("y", "dy"):
        y2, dy2 = y.clone(), transposed(dy)
        dx = y2 if aliased == "y" else dy2
        launch_softmax_backward(y2, dy2, dx, **options)
        assert same_bits(dx, want), aliased


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(5, 9), (3, 6, 4), (1, 2, 7, 3)], ids=str)
def test_softmax_gradient_has_the_shape_and_dtype_of_x(dtype, shape):
    x, dy = _softmax_case(28, shape, dtype)
    x = x.transpose(-1, -2).requires_grad_()
    (dx,) = torch.autograd.grad(kernels.softmax(x, scale=0.5), x, dy.transpose(-1, -2))
    assert dx.shape == x.shape and dx.dtype == dtype and dx.device == x.device


@pytest.mark.parametrize("alignment", ["bottom_right", "top_left"])
def test_softmax_gradient_is_zero_where_masked_and_on_blind_rows(alignment):
    m, n = 9, 5
    x, dy = _softmax_case(29, (2, m, n), torch.float32)
    x.requires_grad_()
    visible = _visible(m, n, alignment)
    y = kernels.softmax(x, causal=True, alignment=alignment)
    (dx,) = torch.autograd.grad(y, x, dy.masked_fill(~visible, float("nan")))
    assert (dx[:, ~visible] == 0).all()
    assert dx[:, visible].isfinite().all() and dx[:, visible].abs().sum() > 0
    (again,) = torch.autograd.grad(kernels.softmax(x, causal=True, alignment=alignment), x,
                                   dy.masked_fill(~visible, 0.0))
    assert same_bits(dx, again)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_softmax_under_autograd_is_bit_identical_and_reruns_are_too(dtype):
    x, dy = _softmax_case(30, (3, 17, 20), dtype)
    x.requires_grad_()
    y = kernels.softmax(x, causal=True, scale=-1.5)
    assert same_bits(y.detach(), kernels.softmax(x.detach(), causal=True, scale=-1.5))
    first = torch.autograd.grad(y, x, dy)[0]
    second = torch.autograd.grad(kernels.softmax(x, causal=True, scale=-1.5), x, dy)[0]
    assert same_bits(first, second)


def test_softmax_out_with_x_that_requires_grad_is_refused():
    x, _ = _softmax_case(31, (4, 6), torch.float32)
    x.requires_grad_()
    with pytest.raises(ValueError, match=r"out must be None.*\(x does\)"):
        kernels.softmax(x, out=torch.empty_like(x.detach()))
    out = torch.empty_like(x.detach())
    with torch.no_grad():
        assert kernels.softmax(x, out=out) is out


@pytest.mark.skipif(not backend.interpreting(), reason="bf16 is refused only by the interpreter")
def test_softmax_bf16_is_refused_on_the_interpreter():
    x, _ = _softmax_case(32, (4, 6), torch.bfloat16)
    with pytest.raises(TypeError, match="x is bfloat16.*interpreter"):
        kernels.softmax(x.requires_grad_())
