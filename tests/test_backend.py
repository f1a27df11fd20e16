"""Backend selection and per-worker GPU binding."""

from __future__ import annotations

import pytest

from properties import backend


@pytest.mark.parametrize(
    ("worker", "count", "expected"),
    [(None, 4, None), ("gw0", 0, None), ("gw0", 2, 0), ("gw1", 2, 1), ("gw2", 2, 0),
     ("gw7", 8, 7), ("gw11", 8, 3), ("master", 2, 0)],
)  # fmt: skip
def test_each_xdist_worker_gets_its_own_gpu(worker, count, expected):
    assert backend.worker_gpu(worker, count) == expected


def test_bad_backend_name_is_rejected():
    with pytest.raises(ValueError, match="backend must be one of"):
        backend.configure("tpu")
