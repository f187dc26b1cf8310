package org.wixlib;

/**
 * Counters of one table (native {@code wx_stats}); fields a kind does not have are 0.
 *
 * @param size live keys
 * @param capacity slots
 * @param bytes memory held (device memory for GPU kinds)
 * @param resizes grow/shrink/rehash steps since creation
 * @param stashUsed Hive: occupied stash slots
 * @param displacements hopscotch moves / cuckoo evictions since creation
 * @param failedInserts elements reported FULL since creation
 * @param lastKernelMillis GPU kinds: device time of the last bulk call
 * @param lastFull elements of the last native bulk call reported {@link Outcome#FULL} (a large Java
 *     array call runs as several native calls, one per slice: this counts the last slice)
 * @param lastInvalid elements of the last native bulk call reported {@link Outcome#INVALID_KEY}
 */
public record TableStats(long size, long capacity, long bytes, long resizes, long stashUsed,
    long displacements, long failedInserts, double lastKernelMillis, long lastFull, long lastInvalid) {}
