"""``TuningFile``: autotuned tiles kept on disk for the next process.

A stored choice is found under its scope and key only; a missing, corrupt or
unwritable file costs a tuning again and never fails a launch; writes of
several processes merge.
"""

from __future__ import annotations

import os

import pytest

from attnfuzz.kernels._launch import TuningFile, tuning_path

KEY = ("varlen", 1024, 1024, 128, 128, True, False, "ieee", "torch.bfloat16")


def test_a_choice_is_found_again_under_its_scope_and_key_only(tmp_path):
    path = tmp_path / "tuning.json"
    TuningFile(path).put("H200", KEY, (128, 64, 8, 3))
    later = TuningFile(path)  # another process: reads the file afresh
    assert later.get("H200", KEY) == (128, 64, 8, 3)
    assert later.get("H100", KEY) is None
    assert later.get("H200", (*KEY[:-1], "torch.float16")) is None


def test_writes_of_two_processes_merge(tmp_path):
    path = tmp_path / "tuning.json"
    one, two = TuningFile(path), TuningFile(path)
    assert one.get("H200", KEY) is None and two.get("H200", KEY) is None
    one.put("H200", KEY, (128, 64, 8, 3))
    two.put("H200", KEY[:3], (64, 64, 4, 2))  # two had read the file before one wrote it
    both = TuningFile(path)
    assert both.get("H200", KEY) == (128, 64, 8, 3)
    assert both.get("H200", KEY[:3]) == (64, 64, 4, 2)
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


@pytest.mark.parametrize("text", ["{", "[1, 2]", '{"H200 | x": "no"}', ""])
def test_a_corrupt_file_is_a_miss_and_is_written_over(tmp_path, text):
    path = tmp_path / "tuning.json"
    path.write_text(text)
    f = TuningFile(path)
    assert f.get("H200", KEY) is None
    f.put("H200", KEY, (128, 64, 8, 3))
    assert TuningFile(path).get("H200", KEY) == (128, 64, 8, 3)


def test_an_unwritable_place_or_no_path_keeps_nothing_and_raises_nothing(tmp_path):
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    f = TuningFile(blocked / "tuning.json")  # its directory cannot be made
    f.put("H200", KEY, (128, 64, 8, 3))
    assert TuningFile(blocked / "tuning.json").get("H200", KEY) is None
    none = TuningFile(None)
    none.put("H200", KEY, (128, 64, 8, 3))
    assert none.get("H200", KEY) is None


def test_the_path_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("ATTNFUZZ_TUNING_CACHE", str(tmp_path / "t.json"))
    assert tuning_path() == str(tmp_path / "t.json")
    for off in ("", "0"):
        monkeypatch.setenv("ATTNFUZZ_TUNING_CACHE", off)
        assert tuning_path() is None
    monkeypatch.delenv("ATTNFUZZ_TUNING_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert tuning_path() == str(tmp_path / "attnfuzz" / "tuning.json")
