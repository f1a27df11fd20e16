#!/usr/bin/env bash
# device call 1 (untracked)
export PYTHONPATH="$PWD" ATTNFUZZ_BACKEND=gpu
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > $OUT/gpu.txt
timeout 280 python3 benchmarks/gluon_prefill.py --lengths 1024,2048,4096,16384 \
  --versions "pipelined,persistent,pipelined causal,persistent causal" > $OUT/g6.txt 2>&1
echo "gluon rc=$?" >> $OUT/g6.txt
ATTNFUZZ_GPU_EXAMPLES=60 timeout 150 python3 -m pytest -q -rfE -p no:cacheprovider --hypothesis-profile=gpu \
  --hypothesis-seed=1 tests/test_gluon_prefill.py tests/test_launch_cache.py > $OUT/tests.txt 2>&1
echo "tests rc=$?" >> $OUT/tests.txt
cp kernels/hopper_prefill.py /tmp/hp.bak
python3 - <<'PY'
p='kernels/hopper_prefill.py'
s=open(p).read()
a="    mbarrier.arrive(q_free, count=1)\n    last = (count"
assert a in s
s=s.replace(a,"    last = (count")
b="    p16 = gl.convert_layout(p.to(q.dtype), p_layout)\n    for j in range(1, n_blocks):\n"
assert b in s
s=s.replace(b, "    p16 = gl.convert_layout(p.to(q.dtype), p_layout)\n    mbarrier.arrive(q_free, count=1)\n    for j in range(1, n_blocks):\n")
open(p,'w').write(s)
PY
ATTNFUZZ_GPU_EXAMPLES=60 timeout 100 python3 -m pytest -q -rfE -p no:cacheprovider --hypothesis-profile=gpu \
  --hypothesis-seed=1 tests/test_gluon_prefill.py -k schedule > $OUT/planted-q-early.txt 2>&1
echo "planted rc=$?" >> $OUT/planted-q-early.txt
cp /tmp/hp.bak kernels/hopper_prefill.py
tail -3 $OUT/*.txt
