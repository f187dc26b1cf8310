#!/usr/bin/env bash
# Device run B (s10): A/B variants of one translation unit each, interleaved twice (see README):
# GLHT main (s9 code) / nc (insert claim scan from the reads of the bitmap walk) / e8 (erase at 32 registers) / we6, we8 (erase kernel one wave striding, 40 / 32
# registers) / wi4 (insert one wave, 64) / wf (finds one wave); Hive h6 (inserts/erases at 40
# registers) / hm5 (mixed at 48) / d56 (stash drained above 56/64 full).
set -u
cd "$(dirname "$0")/../../.."
mkdir -p build/native && tar -C build/native -xJf .carry/native-build.tar.xz
W=build/native/native/bench; R=$OUT/wixbench.txt
log() { echo "-- $* ($(date +%T))" >>$R; }
for i in 1 2; do
  for v in "" _main _nc _e8 _we6 _we8 _wi4 _wf; do
    log "glht static$v"; $W/wixbench$v --kind glht --bench static --reps 3 2>&1 | grep -E "^static" >>$R
  done
  for v in "" _main _we6; do
    log "glht dynamic$v"; $W/wixbench$v --kind glht --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*(16777215|,100\])" >>$R
  done
  for v in "" _h6 _d56; do
    log "hive static$v"; $W/wixbench$v --kind hive --bench static --lf 0.8,0.95 --reps 3 2>&1 | grep -E "^static" >>$R
  done
  for v in "" _hm5; do
    log "hive dynamic$v"; $W/wixbench$v --kind hive --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*16777215" >>$R
  done
  for v in "" _d56; do
    log "hive growth$v"; $W/wixbench$v --kind hive --bench growth --reps 3 2>&1 | grep -E "^growth" >>$R
  done
done
WIXLIB_TRACE=1 $W/wixbench --kind hive --bench dynamic --reps 1 >$OUT/trace-hive-dynamic.txt 2>&1
WIXLIB_TRACE=1 $W/wixbench --kind glht --bench dynamic --reps 1 >$OUT/trace-glht-dynamic.txt 2>&1
log done
