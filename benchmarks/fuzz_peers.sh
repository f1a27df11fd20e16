#!/usr/bin/env bash
# Fuzz PyTorch's attention implementations on the GPU: every SDPA backend and
# FlexAttention, every property that applies, one process per implementation
# and dtype (a fault that kills a CUDA context stops only its own campaign),
# each with a time budget.  Logs go to OUT, the dumps to OUT/dumps.tar.gz.
#
#   bash benchmarks/fuzz_peers.sh OUT [SECONDS_EACH [SEED [IMPL ...]]]
set -u
out=${1:?usage: fuzz_peers.sh OUT [SECONDS_EACH [SEED [IMPL ...]]]}
seconds=${2:-30}
seed=${3:-11}
shift $(( $# < 3 ? $# : 3 ))
impls=${*:-sdpa_math sdpa_flash sdpa_cudnn sdpa_efficient flex}
mkdir -p "$out"
for impl in $impls; do
    for dtype in float32 float16 bfloat16; do
        case "$impl/$dtype" in sdpa_flash/float32|sdpa_cudnn/float32) continue ;; esac
        log="$out/$impl-$dtype.log"
        echo "== $impl $dtype ($seconds s, seed $seed)"
        python3 -m attnfuzz --backend gpu run --impl "$impl" --dtype "$dtype" \
            --seconds "$seconds" --shrink-seconds 20 --seed "$seed" --dump-dir "$out/dumps" \
            > "$log" 2>&1
        echo "exit $?"
        grep -E "^$impl |^findings|cases in|^campaign stopped|crashed|faulted" "$log" | cut -c1-400
    done
done
[ -d "$out/dumps" ] && tar -czf "$out/dumps.tar.gz" -C "$out" dumps && rm -rf "$out/dumps"
