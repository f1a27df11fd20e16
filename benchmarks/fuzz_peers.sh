#!/usr/bin/env bash
# Fuzz PyTorch's attention implementations on the GPU: every SDPA backend and
# FlexAttention, each in its own process (a fault that kills one CUDA context
# leaves the others running), every property that applies, one time budget
# each.  Then replay the recorded SDPA dumps and run their standalone scripts.
#
#   bash benchmarks/fuzz_peers.sh OUT [SECONDS_EACH [SEED]]
set -u
out=${1:?usage: fuzz_peers.sh OUT [SECONDS_EACH [SEED]]}
seconds=${2:-60}
seed=${3:-11}
mkdir -p "$out"
for impl in sdpa_math sdpa_flash sdpa_cudnn sdpa_efficient flex; do
    budget=$seconds
    # FlexAttention compiles a kernel per shape (2-3 s each): it gets twice the time.
    [ "$impl" = flex ] && budget=$((2 * seconds))
    echo "== $impl ($budget s, seed $seed)"
    python3 -m attnfuzz --backend gpu run --impl "$impl" --seconds "$budget" --seed "$seed" \
        --dump-dir "$out/dumps" > "$out/$impl.log" 2>&1
    echo "exit $?"; tail -n 12 "$out/$impl.log"
done
root=$(pwd)
here=$root/benchmarks/results/gpu-fuzz-2026-11-30
for dump in "$here"/sdpa-dumps/*/; do
    name=$(basename "$dump")
    echo "== replay $name"
    python3 -m attnfuzz --backend gpu replay "$dump" 2>&1 | tail -n 3
    echo "== repro script $name"
    (cd "$out" && timeout 120 python3 "$here/repros/$name.py" > "$out/$name.repro.log" 2>&1)
    echo "exit $?"; tail -n 8 "$out/$name.repro.log"
done
