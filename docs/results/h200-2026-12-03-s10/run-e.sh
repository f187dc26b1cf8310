#!/usr/bin/env bash
# Device run E (s10, data for the next session; nothing landed from it): run C's wixbench against
# variants of the mixed kernels: mw6 / mw5 / mw4 = GLHT mixed kernel as one wave too
# (-DGLHT_WAVE_MODES=37) at 6 / 5 / 4 blocks (40 / 48 / 64 registers); hm6 = Hive mixed at 6 blocks.
set -u
cd "$(dirname "$0")/../../.."
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
W=build/native/native/bench; R=$OUT/wixbench.txt
log() { echo "-- $* ($(date +%T))" >>$R; }
for v in "" _mw6 _mw5 _mw4; do
  log "glht dynamic$v"; $W/wixbench$v --kind glht --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*(16777215|,100\])" >>$R
done
for v in "" _hm6; do
  log "hive dynamic$v"; $W/wixbench$v --kind hive --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*(16777215|,100\])" >>$R
done
log done
