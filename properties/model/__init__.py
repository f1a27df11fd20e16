"""The case model: value families, physical layouts and case specs (plain data)."""
