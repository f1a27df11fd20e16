"""Backend selection and per-worker GPU and CPU shares."""

from __future__ import annotations

import os

import pytest

from attnfuzz.properties import backend


@pytest.mark.parametrize(
    ("worker", "count", "expected"),
    [(None, 4, None), ("gw0", 0, None), ("gw0", 2, 0), ("gw1", 2, 1), ("gw2", 2, 0),
     ("gw7", 8, 7), ("gw11", 8, 3), ("master", 2, 0)],
)
def test_each_xdist_worker_gets_its_own_gpu(worker, count, expected):
    assert backend.worker_gpu(worker, count) == expected


@pytest.mark.parametrize(
    ("workers", "cpus", "current", "expected"),
    [(None, 16, 16, None), ("", 16, 16, None), ("0", 16, 16, None), ("16", 16, 16, 1),
     ("4", 16, 16, 4), ("3", 16, 16, 5), ("32", 16, 16, 1), ("2", 16, 1, 1)],
)
def test_each_xdist_worker_gets_a_share_of_the_cpus(workers, cpus, current, expected):
    assert backend.worker_threads(workers, cpus, current) == expected


@pytest.mark.skipif("PYTEST_XDIST_WORKER_COUNT" not in os.environ, reason="xdist workers only")
def test_this_worker_runs_torch_on_its_share_of_the_cpus():
    import torch

    workers = int(os.environ["PYTEST_XDIST_WORKER_COUNT"])
    assert torch.get_num_threads() <= max(1, len(os.sched_getaffinity(0)) // workers)


def test_bad_backend_name_is_rejected():
    with pytest.raises(ValueError, match="backend must be one of"):
        backend.configure("tpu")


@pytest.mark.skipif(
    backend.interpreting() or "PYTEST_XDIST_WORKER" not in os.environ,
    reason="binding applies to xdist workers on a GPU machine",
)
@pytest.mark.parametrize("repeat", range(4))  # spread over workers: each checks its own GPU
def test_this_worker_runs_its_kernels_on_its_own_gpu(repeat):
    import torch

    from attnfuzz.kernels import matmul

    count = torch.cuda.device_count()
    expected = backend.worker_gpu(os.environ["PYTEST_XDIST_WORKER"], count)
    assert torch.cuda.current_device() == expected
    a = torch.ones(2, 3, 4, device="cuda")
    out = matmul(a, a.transpose(-1, -2))
    assert out.device.index == expected
    print(f"{os.environ['PYTEST_XDIST_WORKER']} -> cuda:{expected} of {count}")


@pytest.mark.parametrize("value", ["tpu", "CUDA", "cuda:0", " cpu", "gpu"])
def test_a_bad_oracle_device_names_the_variable_and_the_choices(monkeypatch, value):
    monkeypatch.setenv("ATTNFUZZ_ORACLE_DEVICE", value)
    with pytest.raises(ValueError, match=r"ATTNFUZZ_ORACLE_DEVICE must be one of cpu, cuda"):
        backend.oracle_device()


@pytest.mark.parametrize(("interpret", "cuda", "expected"),
                         [("1", False, "cpu"), ("1", True, "cpu"), ("0", False, "cpu"),
                          ("0", True, "cuda")])
@pytest.mark.parametrize("unset", [True, False])  # unset, or set empty
def test_the_oracle_runs_on_the_gpu_by_default_only_where_the_kernels_do(
    monkeypatch, interpret, cuda, expected, unset
):
    import torch

    if unset:
        monkeypatch.delenv("ATTNFUZZ_ORACLE_DEVICE", raising=False)
    else:
        monkeypatch.setenv("ATTNFUZZ_ORACLE_DEVICE", "")
    monkeypatch.setenv("TRITON_INTERPRET", interpret)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: cuda)
    assert backend.oracle_device() == expected


@pytest.mark.parametrize("cuda", [False, True])
def test_the_oracle_device_can_be_chosen(monkeypatch, cuda):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: cuda)
    monkeypatch.setenv("ATTNFUZZ_ORACLE_DEVICE", "cpu")
    assert backend.oracle_device() == "cpu"
    monkeypatch.setenv("ATTNFUZZ_ORACLE_DEVICE", "cuda")
    if cuda:
        assert backend.oracle_device() == "cuda"
    else:
        with pytest.raises(ValueError, match=r"ATTNFUZZ_ORACLE_DEVICE=cuda.*no CUDA device"
                                             r".*choices: cpu, cuda"):
            backend.oracle_device()
