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
