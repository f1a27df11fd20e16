#!/usr/bin/env bash
export PYTHONPATH="$PWD" ATTNFUZZ_BACKEND=gpu ATTNFUZZ_GPU_EXAMPLES=25
timeout 185 python3 -m pytest -n 8 --dist worksteal -q -rfE -p no:cacheprovider --hypothesis-profile=gpu \
  --hypothesis-seed=1 --timeout=175 --durations=12 -k hopper \
  --attnfuzz-dump-dir $OUT/dumps tests/test_properties.py tests/test_stateful.py tests > $OUT/seed1.txt 2>&1
echo "rc=$?" >> $OUT/seed1.txt
tail -n 25 $OUT/seed1.txt
