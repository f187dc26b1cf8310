package org.wixlib;

/**
 * The counters of one shard of a table ({@link HashTable#shardStats(int)}): the same fields as the
 * whole table's {@link TableStats}, which are the sums over the shards (lastKernelMillis: the slowest
 * shard's, since the shards run at once).
 *
 * @param shard the shard's index, 0 to {@code shards() - 1}
 * @param device the CUDA device the shard lives on; -1 on the CPU kind
 * @param stats the shard's counters (size, slots, bytes, resizes, ...)
 */
public record ShardStats(int shard, int device, TableStats stats) {}
