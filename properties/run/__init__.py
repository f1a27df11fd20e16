"""Running the properties: the pytest-facing harness, dumps and replay, the command."""
