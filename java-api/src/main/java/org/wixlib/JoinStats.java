package org.wixlib;

/**
 * Counters of a {@link Join}: build rows, distinct build keys, memory held (device memory for GPU
 * kinds), matches of the last call, and the times of the last call: the table lookups alone (GPU
 * kinds) and the whole computation without the copies of the caller's arrays (device time on GPU
 * kinds, wall time on the CPU kind).
 */
public record JoinStats(long buildRows, long distinctKeys, long bytes, long lastMatches, double lastTableMillis,
    double lastKernelMillis) {}
