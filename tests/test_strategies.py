"""``attention_cases`` composes like ``hypothesis.extra.numpy.arrays``: fixed values or
strategies for each dimension, validated bounds, and ``one_of`` / ``map``."""

from __future__ import annotations

from dataclasses import replace

import pytest
import torch
from hypothesis import find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument, NoSuchExample

from attnfuzz.properties import outside_support
from attnfuzz.properties import realistic_sizes as R
from attnfuzz.properties import strategies as S
from attnfuzz.properties import unsaturated as U
from attnfuzz.properties.implementations import Support
from attnfuzz.properties.model.layouts import Layout
from attnfuzz.properties.model.values import FAMILIES, Values, generate
from attnfuzz.reference.oracle import visible

# Drawing specs runs no kernel: many examples cost milliseconds.
FAST = settings(max_examples=60, deadline=None, database=None)


@FAST
@given(S.attention_cases(sq=5, sk=st.integers(1, 3), head_dim=st.sampled_from([24]),
                         value_dim=40, batch=1, kv_heads=2, group=st.just(4)))
def test_fixed_values_and_strategies(case):
    assert (case.sq, case.d, case.dv, case.batch, case.hkv, case.hq) == (5, 24, 40, 1, 2, 8)
    assert 1 <= case.sk <= 3


@FAST
@given(S.attention_cases(layouts=Layout(), values=Values("ties", 1.0, 7)))
def test_fixed_layouts_and_values(case):
    assert {lay.name for lay in case.layouts().values()} == {"contiguous"}
    assert case.values == Values("ties", 1.0, 7)


@FAST
@given(st.one_of(S.attention_cases(decode=True, max_seq=16), S.attention_cases(sq=1))
       .map(lambda c: c.sq))
def test_composes_with_one_of_and_map(sq):
    assert 1 <= sq <= 16


@FAST
@given(S.attention_cases(dtype=st.sampled_from(["float32", "float16"]), max_seq=20, long=False,
                         wide=False))
def test_bounds_are_honoured(case):
    # On a GPU a few draws are LONG_LENGTHS by default, past max_seq, or wide.
    assert case.dtype in ("float32", "float16")
    assert case.sq <= 20 and case.batch <= 2 and case.hkv <= 3


@FAST
@given(S.attention_cases(max_seq=20, long=True, wide=False))
def test_long_draws_stay_within_the_long_lengths(case):
    assert max(case.sq, case.sk) <= max(S.LONG_LENGTHS) and case.batch <= 2


@FAST
@given(S.attention_cases(wide=True, long=False), S.attention_cases(decode=True, wide=True))
def test_wide_draws_keep_the_oracle_small(case, dec):
    for c in (case, dec):
        if c.batch > 2 or c.hkv > 3:
            assert c.sq <= S.WIDE_ROWS and c.sk <= S.WIDE_KEYS
            assert c.batch * c.hq * c.sq * c.sk <= max(S.WIDE_LOGITS, c.batch * c.hq * c.sq)


# What the strategies reach is a claim about them, not a search: these draw the
# same examples every run (derandomize), so a rare branch cannot be missed by
# one seed in many.
def test_wide_draws_launch_more_than_a_thousand_kv_programs():
    # Merge counters and split partials sized by B * Hkv * tiles pass 1024 only here.
    found = find(S.attention_cases(decode=True, wide=True), lambda c: c.batch * c.hkv > 1024,
                 settings=settings(max_examples=500, database=None, derandomize=True))
    assert found.sq <= S.WIDE_ROWS
    with pytest.raises(NoSuchExample):
        find(S.attention_cases(wide=False), lambda c: c.batch * c.hkv > 6,
             settings=settings(max_examples=300, database=None, derandomize=True))


def _tiles(c) -> int:
    return c.batch * c.hq * (-(-c.sq // S.TILE) or 1) * (-(-c.sk // S.TILE) or 1)


@settings(max_examples=200, database=None)
@given(S.attention_cases(max_tiles=8, wide=False, long=False))
def test_a_tile_budget_holds_or_leaves_one_kv_head_of_one_sequence(case):
    # Past the budget only one KV head of a batch of one is left, with a group of
    # two query heads at most.
    assert _tiles(case) <= 8 or (case.batch, case.hkv) == (1, 1) and case.hq <= 2


@settings(max_examples=100, database=None)
@given(S.attention_cases(max_tiles=10**6, wide=False, long=False), st.integers(1, 20))
def test_fitting_a_drawn_case_to_tiles_keeps_all_but_its_heads_and_batch(case, budget):
    fitted = S.fit_tiles(case, budget)
    assert _tiles(fitted) <= budget or (fitted.batch, fitted.hkv) == (1, 1) and fitted.hq <= 2
    group, fitted_group = case.hq // case.hkv, fitted.hq // fitted.hkv
    # A grouped case stays grouped.
    assert fitted_group <= group and (fitted_group >= 2 or group == 1)
    assert fitted.batch <= case.batch and fitted.hkv <= case.hkv
    assert replace(fitted, batch=case.batch, hq=case.hq, hkv=case.hkv) == case
    if _tiles(case) <= budget:
        assert fitted == case
    with pytest.raises(InvalidArgument, match="max_tiles must be a positive int"):
        S.fit_tiles(case, 0)


def test_a_tile_budget_keeps_batches_and_heads_of_small_cases():
    found = find(S.attention_cases(max_tiles=8, wide=False, long=False),
                 lambda c: c.batch == 2 and c.hkv == 2 and c.sq > 1,
                 settings=settings(max_examples=500, database=None, derandomize=True))
    assert _tiles(found) <= 8
    # Cases this wide and long are drawn without the budget.
    find(S.attention_cases(max_tiles=10**6, wide=False, long=False),
         lambda c: c.batch == 2 and c.hkv == 3 and c.sq > 64 and c.sk > 64,
         settings=settings(max_examples=1000, database=None, derandomize=True))


BAD_ARGUMENTS = [
    ({"max_tiles": 0}, "max_tiles must be a positive int"),
    ({"batch": 0}, "batch must be at least 1"),
    ({"sq": "5"}, "sq must be an int"),
    ({"head_dim": True}, "head_dim must be an int"),
    ({"max_seq": 0}, "max_seq must be a positive int"),
    ({"groups": (2, 0)}, "each of groups"),
    ({"layout_names": ("nosuch",)}, "layout_names"),
    ({"families": ()}, "families"),
    ({"dtype": "int8"}, "dtype"),
]


@pytest.mark.parametrize(("kwargs", "message"), BAD_ARGUMENTS)
def test_bad_arguments_raise_at_once(kwargs, message):
    with pytest.raises(InvalidArgument, match=message):
        S.attention_cases(**kwargs)
    assert issubclass(InvalidArgument, TypeError)


@pytest.mark.parametrize("group", [3, 5])
def test_gqa_groups_that_are_not_powers_of_two_are_drawn(group):
    # Qwen3-14B: 40 query heads over 8 KV heads.
    found = find(S.attention_cases(), lambda c: c.group == group,
                 settings=settings(max_examples=500, database=None, derandomize=True))
    assert found.hq == found.hkv * group


def test_the_whole_case_space_is_reached():
    """Head dims to 256, head counts and groups not powers of two, long lengths
    where asked for (a GPU's default), decode caches long enough to split."""
    seen: dict[str, set] = {"d": set(), "hq": set(), "long": set(), "decode_sk": set()}

    # Derandomized, as above: a random seed left 256 out of 300 draws once.
    @settings(max_examples=300, database=None, deadline=None, derandomize=True)
    @given(S.attention_cases(long=True), S.attention_cases(decode=True, long=True))
    def draw(case, dec):
        seen["d"].add(case.d)
        seen["hq"].add(case.hq)
        if min(case.sq, case.sk) >= 511:
            assert case.batch == case.hkv == 1
            seen["long"].add(case.sq)
        seen["decode_sk"].add(dec.sk > 5 * 64)

    draw()
    assert {129, 256} <= seen["d"]
    assert any(h & (h - 1) for h in seen["hq"])  # not a power of two
    assert seen["long"] and True in seen["decode_sk"]


@FAST
@given(st.sampled_from([torch.float32, torch.bfloat16]), st.integers(1, 2000),
       st.integers(0, 2**16))
def test_near_max_values_keep_an_online_softmax_accumulator_finite(dtype, sk, seed):
    # An online softmax sums exp(l - running max) v_j, every weight <= 1,
    # before it normalises: the accumulator of a correct kernel reaches
    # sum_j |v_j|, which must stay finite for the family's premise (a correct
    # result is finite) to hold; and the values must stay near the range.
    v = generate((1, 1, sk, 16), dtype, Values("near_max", 1.0, seed), "v")
    largest = torch.finfo(dtype).max
    assert float(v.abs().sum(dim=-2).max()) < largest / 4
    assert float(v.abs().max()) > largest / (64 * sk)


@pytest.mark.parametrize("family", FAMILIES)
def test_values_do_not_depend_on_the_thread_count(family):
    # Spikes drawn at a repeated position were written by whichever thread came
    # last: the same case built other values on a 16-core GPU machine than here.
    shape, before = (1, 16, 66, 192), torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        serial = generate(shape, torch.float16, Values(family=family), "q")
        torch.set_num_threads(8)
        threaded = [generate(shape, torch.float16, Values(family=family), "q") for _ in range(3)]
    finally:
        torch.set_num_threads(before)
    assert all(torch.equal(t, serial) for t in threaded)


@FAST
@given(S.attention_cases(keys_cover_queries=True),
       outside_support.outside(Support(max_seq=40, cross=True, gqa=False), "float32",
                 keys_cover_queries=True))
def test_keys_cover_queries_holds_inside_and_just_outside_a_support(case, broken):
    # A paged call's queries are its last keys' tokens.
    for c in (case, broken):
        assert 1 <= c.sq <= c.sk


# --- realistic sizes: drawn on a GPU, never on the interpreter ------------------------------

REACH = settings(max_examples=300, database=None, derandomize=True, deadline=None)


def test_realistic_draws_give_a_persistent_grid_several_row_tiles_a_program():
    found = find(S.attention_cases(realistic=True, wide=False, long=False),
                 lambda c: R.is_realistic(c.batch, c.hq, c.sq, c.sk)
                 and R.persistent_tiles(c.batch, c.hq, c.sq) >= 2, settings=REACH)
    assert R.HEADS[0] <= found.hq <= R.HEADS[1] and found.sq >= R.SEQ_RANGE[0]
    decode = find(S.attention_cases(realistic=True, decode=True, wide=False, long=False),
                  lambda c: c.hq >= R.HEADS[0] and c.sk >= R.DECODE_KEYS[0], settings=REACH)
    assert decode.sq <= S.DECODE_MAX_ROWS


def test_the_interpreter_never_draws_realistic_sizes():
    # The default on the interpreter (these tests' backend without a GPU).
    with pytest.raises(NoSuchExample):
        find(S.attention_cases(), lambda c: c.hq >= R.HEADS[0] and c.sq >= R.SEQ_RANGE[0],
             settings=REACH)


@FAST
@given(S.attention_cases(realistic=True, wide=False, long=False),
       S.attention_cases(realistic=True, wide=False, long=False, support=Support(cross=False)))
def test_realistic_draws_keep_the_oracle_within_its_budget(case, same):
    for c in (case, same):
        assert c.batch * c.hq * c.sq * c.sk <= max(R.BUDGET, 2 * 3 * 8 * 130 * 130)
    assert same.sq == same.sk


def test_a_share_of_the_draws_is_realistic():
    drawn: list = []

    # Hypothesis's draws are not independent: at 600 draws five seeds gave
    # 0.033-0.152 (at 200, 0.035-0.195), so the bounds say only "a share, not most".
    @settings(max_examples=600, database=None, derandomize=True, deadline=None)
    @given(S.attention_cases("float16", realistic=True, long=True, wide=True, max_tiles=None))
    def draw(case):
        drawn.append(case)

    draw()
    share = sum(R.is_realistic(c.batch, c.hq, c.sq, c.sk) for c in drawn) / len(drawn)
    # One draw in ODDS of those neither wide nor long: about a tenth.
    assert 0.02 <= share <= 0.25, share


# --- masked cases: softmax rows not one-hot, gradients alive --------------------------------


@FAST
@given(st.sampled_from(U.FAMILIES[:2]), st.sampled_from(U.SPREADS), st.sampled_from([16, 64, 256]),
       st.sampled_from([0.125, -1.0, 2.0, None]), st.integers(0, 2**31 - 1))
def test_the_spread_magnitude_gives_logits_of_that_deviation(family, spread, d, scale, seed):
    scale = d**-0.5 if scale is None else scale
    values = Values(family, U.logit_spread_scale(family, spread, d, scale), seed)
    q = generate((256, d), torch.float32, values, "q")
    k = generate((256, d), torch.float32, values, "k")
    deviation = float((scale * q @ k.T).std())
    assert spread / 1.5 <= deviation <= spread * 1.5, deviation


def test_masked_cases_are_mostly_informative():
    """A mask error shows where rows spread over their keys and gradients live:
    most masked cases of the default values must be such, among those where
    values can decide it (a row sees two keys).  Values drawn as for unmasked
    cases leave 0.18-0.57 of them informative (three seeds of 300 draws), the
    unsaturated redraw 0.64-0.78 (six seeds); 150 draws, fewer than a hundred
    such cases, moved the share by 0.1 with any change to what is drawn."""
    masked: list = []

    @settings(max_examples=300, database=None, derandomize=True, deadline=None)
    @given(S.attention_cases("float16", max_seq=64, long=False, wide=False))
    def draw(case):
        if U.masked(case) and bool((visible(case.sq, case.sk, case.alignment, causal=case.causal,
                                            window=case.window).sum(-1) >= 2).any()):
            masked.append(case)

    draw()
    distinct = list({repr(c): c for c in masked}.values())
    share = sum(map(U.informative, distinct)) / len(distinct)
    assert len(distinct) >= 50 and share >= 0.6, (len(distinct), share)


@FAST
@given(S.attention_cases(max_seq=64, long=False, wide=False,
                         support=Support(max_magnitude=2.0)))
def test_respread_values_keep_a_declared_magnitude(case):
    assert case.values.limit == 2.0
    if U.masked(case) and case.values.family in U.FAMILIES:
        built = generate(case.shapes()["q"], case.torch_dtype, case.values, "q")
        assert float(built.abs().max()) <= 2.0


def test_fair_one_of_gives_a_branch_of_branches_its_share():
    # st.one_of flattens: a branch that is itself a one_of of three draws a
    # quarter of the time beside a fourth strategy, not half.
    from hypothesis import Phase, seed

    from attnfuzz.properties.strategy_parts import fair_one_of

    flat = st.one_of(st.just("a"), st.one_of(st.just("b"), st.just("c"), st.just("d")))
    fair = fair_one_of(st.just("a"), st.one_of(st.just("b"), st.just("c"), st.just("d")))
    def share_of_a(strategy) -> float:
        got: list[str] = []

        @seed(0)
        @settings(max_examples=400, database=None, phases=(Phase.generate,))
        @given(st.tuples(strategy, st.integers(0, 10**6)))
        def draw(t):
            got.append(t[0])

        draw()
        return got.count("a") / len(got)

    shares = {"flat": share_of_a(flat), "fair": share_of_a(fair)}
    assert shares["flat"] < 0.35 and 0.4 < shares["fair"] < 0.6, shares


def test_a_third_of_decode_draws_have_keys_past_two_blocks():
    # Three or more key ranges of 64 need Sk > 128: where the order of a
    # split merge shows.  Half the free draws (three in four are free of the
    # queries-past-keys regime, nine in ten have keys): about 0.34; 0.06
    # when st.one_of flattened the long branch among the others.
    from hypothesis import Phase, seed

    long = []

    @seed(0)
    @settings(max_examples=300, database=None, phases=(Phase.generate,))
    @given(S.attention_cases(decode=True, long=False, wide=False, realistic=False))
    def draw(c):
        long.append(c.sk > 2 * 64)

    draw()
    assert sum(long) / len(long) > 0.25, sum(long) / len(long)


# A band starts at row 0's first key (diagonal - left) and ends at the last
# row's last (Sq - 1 + diagonal + right); kernels skip and plan key blocks
# from those two, so a band edge one key either side of a block edge is where
# a block too few loses a key.  The widths drawn alike for every case (0, 1,
# block edges +-1, up to a quarter of the keys, the whole sequence) put it
# there in about one draw in eight at these sizes.
@pytest.mark.parametrize("alignment, side", [("bottom_right", 0), ("top_left", 1)])
def test_a_third_of_windows_put_a_band_edge_beside_a_key_block_edge(alignment, side):
    sq, sk = 10, 140
    diagonal = sk - sq if alignment == "bottom_right" else 0
    beside = {e + d for e in S.BLOCK_EDGES for d in (-1, 0, 1)}
    drawn = []

    @settings(max_examples=300, database=None, derandomize=True)
    @given(S.windows(sq, sk, alignment))
    def draw(window):
        drawn.append(window)

    draw()
    edges = [diagonal - w[0] if side == 0 else sq - 1 + diagonal + w[1]
             for w in drawn if w[side] is not None]
    assert sum(e in beside for e in edges) >= len(drawn) / 3, edges


def test_windows_refuse_an_unknown_alignment():
    with pytest.raises(InvalidArgument, match="alignment must be"):
        S.windows(4, 4, "bottom").example()
