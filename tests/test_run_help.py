"""``attnfuzz run --help`` names every key ``--supports`` takes."""

from __future__ import annotations

import dataclasses

import pytest

from attnfuzz.properties.implementations.support import Support
from attnfuzz.properties.run import cli


def test_run_help_names_every_supports_key(capsys):
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["run", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    # The keys a spec takes: Support's fields, and causal=no.
    keys = [f.name for f in dataclasses.fields(Support)] + ["causal"]
    missing = [k for k in keys if f"{k}=" not in text]
    assert not missing, text
