#!/usr/bin/env bash
# Device run 1 (s7): Hive thread_step (uniform writer step), Tally in 32 bits, whole-level pre-grow;
# A/B against the s6 kernels (wixbench_old) and the writer register budget (w3 / w5).
set -u
cd "$(dirname "$0")/.."
B=build/native; W=$B/native/bench; R=$OUT/bench.txt
log() { echo "-- $* ($(date +%T))" >>$R; }
rm -rf $B; mkdir -p $B && tar -C $B -xJf .carry/native-build.tar.xz
log "new: hive dynamic"; $W/wixbench --kind hive --bench dynamic --reps 3 2>&1 | grep -E "^dynamic|^kind|^wixbench" >>$R
log "old: hive dynamic"; $W/wixbench_old --kind hive --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*16777215" >>$R
log "new: hive static 0.8 0.95"; $W/wixbench --kind hive --bench static --lf 0.8,0.95 --reps 3 2>&1 | grep -E "^static" >>$R
log "old: hive static 0.8 0.95"; $W/wixbench_old --kind hive --bench static --lf 0.8,0.95 --reps 3 2>&1 | grep -E "^static" >>$R
for v in w3 w5; do
  log "$v: dynamic [0,2^24) + static 0.8"
  $W/wixbench_$v --kind hive --bench dynamic --reps 3 2>&1 | grep -E "^dynamic.*16777215" >>$R
  $W/wixbench_$v --kind hive --bench static --lf 0.8 --reps 3 2>&1 | grep -E "^static" >>$R
done
log "new: hive growth"; $W/wixbench --kind hive --bench growth --reps 3 2>&1 | grep -E "^growth" >>$R
log "old: hive growth"; $W/wixbench_old --kind hive --bench growth --reps 3 2>&1 | grep -E "^growth" >>$R
log "new: glht dynamic"; $W/wixbench --kind glht --bench dynamic --reps 3 2>&1 | grep -E "^dynamic" >>$R
log "trace growth"; WIXLIB_TRACE=1 $W/wixbench --kind hive --bench growth --reps 1 >$OUT/growth-trace.txt 2>&1
log "ncu"
ncu --kernel-name-base demangled --kernel-name "regex:Kv32, .wx::hive::Mode.5" --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis $W/wixbench --kind hive --bench dynamic --reps 1 >$OUT/ncu-mixed.txt 2>&1
ncu --kernel-name-base demangled --kernel-name "regex:Kv32, .wx::hive::Mode.2" --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis $W/wixbench --kind hive --bench static --lf 0.8 --reps 1 >$OUT/ncu-insert.txt 2>&1
log done
