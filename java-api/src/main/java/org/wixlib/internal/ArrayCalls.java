package org.wixlib.internal;

/**
 * How a table's bulk calls over slices of Java arrays (heap segments, {@code MEM_HOST}) reach the
 * library; each returns the native status. {@link HeapCalls} passes the arrays in place (GPU
 * tables), {@link StagedCalls} through a reused off-heap buffer (CPU tables).
 */
public interface ArrayCalls {
  int run(long table, BulkCall call);
}
