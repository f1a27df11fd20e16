"""Fuzz my_attention with attnfuzz: run ``pytest test_my_attention.py``."""

from my_attention import my_attention

import attnfuzz

# What my_attention computes: cases are drawn inside it, and cases just
# outside it (a head dim of 24, GQA, a strided head dim...) must raise.
SUPPORT = attnfuzz.Support(dtypes=("float32", "float16"), head_dims=(16, 32, 64),
                           distinct_value_dim=False, gqa=False, layouts="last_dim_contiguous",
                           lse=True, max_seq=48)

# One test per (property, dtype); 10 cases each keep the interpreter run under a minute.
test_my_attention = attnfuzz.fuzz_test(my_attention, convention="flash_attn", supports=SUPPORT,
                                       max_examples=10)
