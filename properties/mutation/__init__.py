"""Mutation testing: catalogues of planted kernel bugs and the runner that plants them."""
