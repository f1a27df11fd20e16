"""Launchers reject bad input with errors that name the argument; edge shapes work."""

from __future__ import annotations

import pytest
import torch

from attnfuzz import kernels
from attnfuzz.kernels.flash import flash_attention
from attnfuzz.properties import backend

DEV = backend.device()
ATTENTION = {"naive": kernels.naive_attention, "flash": flash_attention}


def t(*shape, dtype=torch.float32):
    gen = torch.Generator().manual_seed(sum(shape))
    return torch.randn(*shape, generator=gen).to(dtype).to(DEV)


def qkv(b=1, hq=2, hkv=1, sq=3, sk=4, d=8, dv=8, dtype=torch.float32):
    return (
        t(b, hq, sq, d, dtype=dtype),
        t(b, hkv, sk, d, dtype=dtype),
        t(b, hkv, sk, dv, dtype=dtype),
    )


@pytest.fixture(params=sorted(ATTENTION))
def attention(request):
    return ATTENTION[request.param]


@pytest.mark.parametrize(
    ("change", "error", "words"),
    [
        (lambda q, k, v: (q[0], k, v), ValueError, "q must have 4 dimensions"),
        (lambda q, k, v: (q, k[..., 0], v), ValueError, "k must have 4 dimensions"),
        (lambda q, k, v: (q.numpy(force=True), k, v), TypeError, "q must be a torch.Tensor"),
        (lambda q, k, v: (q.repeat(1, 1, 1, 2), k, v), ValueError, "head dim"),
        (lambda q, k, v: (q, k, v.repeat(2, 1, 1, 1)), ValueError, "batch sizes differ"),
        (lambda q, k, v: (q, k.repeat(1, 2, 1, 1), v), ValueError, "v has 1 heads but k has 2"),
        (lambda q, k, v: (q[:, :1].repeat(1, 3, 1, 1), k.repeat(1, 2, 1, 1),
                          v.repeat(1, 2, 1, 1)), ValueError, "not a multiple"),
        (lambda q, k, v: (q, k, v[:, :, :2]), ValueError, "v has 2 keys but k has 4"),
        (lambda q, k, v: (q, k.half(), v), TypeError, "k has dtype torch.float16"),
        (lambda q, k, v: (q, k, v.double()), TypeError, "v has dtype torch.float64"),
        (lambda q, k, v: (q.int(), k, v), TypeError, "q has dtype torch.int32"),
    ],
)
def test_bad_attention_inputs_name_the_argument(attention, change, error, words):
    q, k, v = change(*qkv())
    with pytest.raises(error, match=words):
        attention(q, k, v)


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"causal": 1}, TypeError, "causal must be a bool"),
        ({"alignment": "bottom-right"}, ValueError, "alignment must be one of"),
        ({"scale": float("nan")}, ValueError, "scale must be finite"),
        ({"scale": "0.5"}, TypeError, "scale must be a real number"),
        ({"input_precision": "tf32x3"}, ValueError, "input_precision must be one of"),
        ({"out": torch.empty(1)}, ValueError, "out has shape"),
    ],
)
def test_bad_attention_options_name_the_argument(attention, kwargs, error, words):
    with pytest.raises(error, match=words):
        attention(*qkv(), **kwargs)


def test_tf32_needs_float32(attention):
    with pytest.raises(ValueError, match="tf32"):
        attention(*qkv(dtype=torch.float16), input_precision="tf32")


@pytest.mark.parametrize("d", [0, 257])
def test_head_dims_outside_1_to_256_are_rejected(attention, d):
    with pytest.raises(ValueError, match="supported head dims are 1 to 256"):
        attention(*qkv(d=d, dv=8))


@pytest.mark.skipif(DEV == "cpu", reason="on the interpreter CPU tensors are the right kind")
def test_cpu_tensor_rejected_when_compiled(attention):
    q, k, v = (x.cpu() for x in qkv())
    with pytest.raises(ValueError, match="need a CUDA tensor"):
        attention(q, k, v)


@pytest.mark.skipif(DEV != "cpu", reason="checks the interpreter's device rule")
def test_interpreter_rejects_non_cpu_tensor(attention):
    q, k, v = qkv()
    with pytest.raises(ValueError, match="q is on meta"):
        attention(q.to("meta"), k, v)


@pytest.mark.parametrize(
    "dims",
    [dict(b=0), dict(hq=0, hkv=0), dict(sq=0)],
)
def test_empty_dims_give_empty_outputs(attention, dims):
    q, k, v = qkv(**dims)
    out = attention(q, k, v)
    assert out.shape == (q.shape[0], q.shape[1], q.shape[2], v.shape[3])
    assert out.numel() == 0


@pytest.mark.parametrize("causal", [False, True])
def test_no_keys_gives_zeros(attention, causal):
    out = attention(*qkv(sk=0), causal=causal)
    assert out.shape == (1, 2, 3, 8)
    assert torch.equal(out.cpu(), torch.zeros(1, 2, 3, 8))


def test_rows_that_see_no_key_are_zero_not_nan(attention):
    q, k, v = qkv(sq=5, sk=2)  # bottom-right: rows 0-2 see no key
    out = attention(q, k, v, causal=True).cpu()
    assert torch.equal(out[:, :, :3], torch.zeros_like(out[:, :, :3]))
    assert torch.isfinite(out).all()


@pytest.mark.parametrize("fn", [kernels.matmul, kernels.matmul_nt])
def test_bad_matmul_inputs(fn):
    a = t(4, 5)
    with pytest.raises(ValueError, match="K must match"):
        fn(a, t(6, 6))
    with pytest.raises(ValueError, match="a must have 2 or 3 or 4 dimensions"):
        fn(t(5), t(5, 5))
    with pytest.raises(ValueError, match="leading"):
        fn(t(2, 4, 5), t(3, 5, 5))
    with pytest.raises(TypeError, match="b has dtype torch.float16"):
        fn(a, t(5, 5).half())
    with pytest.raises(TypeError, match="scale must be a real number"):
        fn(a, t(5, 5), scale=None)


def test_bad_softmax_inputs():
    with pytest.raises(ValueError, match="x must have 2 or 3 or 4 dimensions"):
        kernels.softmax(t(5))
    with pytest.raises(TypeError, match="causal must be a bool"):
        kernels.softmax(t(2, 3), causal="yes")
    with pytest.raises(ValueError, match="alignment must be one of"):
        kernels.softmax(t(2, 3), causal=True, alignment="diagonal")


def test_out_must_not_be_expanded():
    out = torch.empty(1, 5, device=DEV).expand(4, 5)
    with pytest.raises(ValueError, match="stride-0"):
        kernels.matmul(t(4, 3), t(3, 5), out=out)


def test_flattened_batch_head_index_is_wrong_for_transposed_views():
    """Why kernels split the (batch, head) program id and use both strides.

    In the (B, S, H, D) projection layout viewed as (B, H, S, D), head h of
    batch b starts at b * stride_b + h * stride_h.  A kernel that flattens
    (b, h) into one index i = b * H + h and multiplies by stride_h lands on
    the wrong head for b > 0; the property tests' ``bshd`` layout reaches it.
    """
    b, h, s, d = 2, 3, 4, 5
    view = torch.arange(b * s * h * d).view(b, s, h, d).transpose(1, 2)
    sb, sh, _, _ = view.stride()
    flat = view.flatten()  # storage order == arange
    for bi in range(b):
        for hi in range(h):
            right = bi * sb + hi * sh
            assert view.storage_offset() + right == int(view[bi, hi, 0, 0])
    wrong = (1 * h + 0) * sh  # batch 1, head 0, flattened
    assert int(flat[wrong]) != int(view[1, 0, 0, 0])


# Every public function, with inputs of one shape that is also the output's,
# so that out can be any input, or any view into an input's buffer.
QKV = {"q": (1, 2, 4, 8), "k": (1, 2, 4, 8), "v": (1, 2, 4, 8)}
PUBLIC = {
    "matmul": (kernels.matmul, {"a": (4, 4), "b": (4, 4)}),
    "matmul_nt": (kernels.matmul_nt, {"a": (4, 4), "b": (4, 4)}),
    "softmax": (kernels.softmax, {"x": (4, 4)}),
    "naive_attention": (kernels.naive_attention, QKV),
    "flash_attention": (kernels.flash_attention, QKV),
    "flash_prefill": (kernels.flash_prefill, QKV),
    "flash_decode": (kernels.flash_decode, QKV),
}
ROLES = [(name, role) for name, (_, shapes) in PUBLIC.items() for role in shapes]


def inputs_of(name, dtype=torch.float32):
    gen = torch.Generator().manual_seed(len(name))
    shapes = PUBLIC[name][1]
    return {role: torch.randn(s, generator=gen).to(dtype).to(DEV) for role, s in shapes.items()}


def sharing(x, start):
    """x moved into a buffer twice its size, and a view of x's shape ``start`` elements on."""
    n = x.numel()
    buf = torch.empty(2 * n, dtype=x.dtype, device=x.device)
    buf[:n] = x.flatten()
    return buf[:n].view(x.shape), buf[start : start + n].view(x.shape)


# Where out starts in the buffer of the input it overlaps, in elements (from
# the end if negative); softmax may write in place, so out being x itself is
# tested apart.
OVERLAPS = {"itself": None, "shifted": 1, "on-its-last-element": -1}
OVERLAP_CASES = [
    pytest.param(name, role, start, id=f"{name}-{role}-{where}")
    for name, role in ROLES
    for where, start in OVERLAPS.items()
    if not (name == "softmax" and start is None)
]


@pytest.mark.parametrize(("name", "role", "start"), OVERLAP_CASES)
def test_out_overlapping_an_input_is_rejected(name, role, start):
    inputs = inputs_of(name)
    if start is None:
        out = inputs[role]
    else:
        inputs[role], out = sharing(inputs[role], start % inputs[role].numel())
    with pytest.raises(ValueError, match=f"out overlaps {role} in memory"):
        PUBLIC[name][0](*inputs.values(), out=out)


@pytest.mark.parametrize(("name", "role"), ROLES)
def test_out_next_to_an_input_in_one_buffer_is_accepted(name, role):
    fn, _ = PUBLIC[name]
    inputs = inputs_of(name)
    want = fn(*inputs.values())
    inputs[role], out = sharing(inputs[role], inputs[role].numel())
    assert fn(*inputs.values(), out=out) is out
    torch.testing.assert_close(out, want, rtol=0, atol=0)


LAYOUTS = {"contiguous": lambda x: x, "transposed": lambda x: x.t()}


@pytest.mark.parametrize("layout", LAYOUTS.values(), ids=LAYOUTS)
@pytest.mark.parametrize("alias", [lambda x: x, lambda x: x[...]], ids=["x", "view-equal-to-x"])
def test_softmax_in_place(layout, alias):
    x = layout(inputs_of("softmax")["x"])
    want = kernels.softmax(x, causal=True)
    out = alias(x)
    assert kernels.softmax(x, causal=True, out=out) is out
    torch.testing.assert_close(x, want, rtol=0, atol=0)


@pytest.mark.parametrize("layout", LAYOUTS.values(), ids=LAYOUTS)
def test_softmax_in_place_needs_the_strides_of_x(layout):
    x = layout(inputs_of("softmax")["x"])
    with pytest.raises(ValueError, match="out must be x itself or share no memory with x"):
        kernels.softmax(x, out=x.t())


# The matmuls have no backward; the attention functions and softmax do.
DIFFERENTIABLE = ("softmax", "naive_attention", "flash_attention", "flash_prefill", "flash_decode")


@pytest.mark.parametrize(
    ("name", "role"),
    [*((n, r) for n, r in ROLES if n not in DIFFERENTIABLE), *((n, "out") for n in PUBLIC)],
)
def test_tensors_that_require_grad_are_rejected(name, role):
    inputs = inputs_of(name)
    out = torch.empty_like(next(iter(inputs.values())))
    (out if role == "out" else inputs[role]).requires_grad_()
    with pytest.raises(ValueError, match=rf"{role} requires grad.*no backward.*{role}\.detach"):
        PUBLIC[name][0](*inputs.values(), out=out)


@pytest.mark.parametrize(("name", "role"), [(n, r) for n, r in ROLES if n in DIFFERENTIABLE])
def test_a_differentiable_call_refuses_out(name, role):
    """Autograd cannot see a result written into out=: the call must return a new tensor."""
    inputs = inputs_of(name)
    inputs[role].requires_grad_()
    out = torch.empty_like(next(iter(inputs.values())).detach())
    with pytest.raises(ValueError, match=rf"out must be None when an input requires grad \({role}"):
        PUBLIC[name][0](*inputs.values(), out=out)
    with torch.no_grad():  # no graph is recorded: out= is fine
        PUBLIC[name][0](*inputs.values(), out=out)


@pytest.mark.skipif(DEV != "cpu", reason="bf16 is refused only by the interpreter")
@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_bf16_is_refused_on_the_interpreter(name):
    inputs = inputs_of(name, torch.bfloat16)
    first = next(iter(inputs))
    with pytest.raises(TypeError, match=f"{first} is bfloat16.*interpreter.*must run on a GPU"):
        PUBLIC[name][0](*inputs.values())
