#!/usr/bin/env bash
export PYTHONPATH="$PWD" ATTNFUZZ_BACKEND=gpu
date > $OUT/times.txt
ATTNFUZZ_GPU_EXAMPLES=80 timeout 170 python3 -m pytest -q -rfE -p no:cacheprovider --hypothesis-profile=gpu \
  --hypothesis-seed=2 tests/test_gluon_prefill.py > $OUT/tests.txt 2>&1
echo "tests rc=$?" >> $OUT/tests.txt; date >> $OUT/times.txt
timeout 240 python3 benchmarks/gluon_prefill.py --lengths 1024,2048,4096,16384 \
  --versions "pipelined,persistent,pipelined causal" > $OUT/g6b.txt 2>&1
echo "gluon rc=$?" >> $OUT/g6b.txt; date >> $OUT/times.txt
cp kernels/hopper_prefill.py /tmp/hp.bak
python3 - <<'PY'
p='kernels/hopper_prefill.py'
s=open(p).read()
a="                                     gl.zeros_like(acc), p16, zero_s, p_layout, False, SIGN)"
assert s.count(a) == 1
s=s.replace(a,"                                     acc, p16, zero_s, p_layout, False, SIGN)")
open(p,'w').write(s)
PY
ATTNFUZZ_GPU_EXAMPLES=80 timeout 100 python3 -m pytest -q -rfE -p no:cacheprovider --hypothesis-profile=gpu \
  --hypothesis-seed=2 tests/test_gluon_prefill.py -k schedule > $OUT/planted-acc-carried.txt 2>&1
echo "planted rc=$?" >> $OUT/planted-acc-carried.txt
cp /tmp/hp.bak kernels/hopper_prefill.py; date >> $OUT/times.txt
for f in $OUT/*.txt; do echo "== $f"; tail -n 3 "$f"; done
