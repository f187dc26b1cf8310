package org.wixlib.cli.bench;

import java.lang.foreign.MemorySegment;
import org.wixlib.DeviceBuffer;
import org.wixlib.HashTable;

/**
 * The HashTable overload that takes arrays of the form a {@link Placement} made: Java arrays (int[] or
 * long[] keys), host MemorySegments, or DeviceBuffers. Every array of one call has the same form.
 * Finds write {@link BenchData#NOT_FOUND} (sign-extended on 64-bit tables) for absent keys.
 */
final class BulkCalls {
  private BulkCalls() {}

  static void insert(HashTable t, Object keys, Object values, int n, Object outcomes) {
    switch (keys) {
      case int[] k -> t.insert(k, (int[]) values, (byte[]) outcomes);
      case long[] k -> t.insert(k, (long[]) values, (byte[]) outcomes);
      case MemorySegment k -> t.insert(k, (MemorySegment) values, n, (MemorySegment) outcomes);
      case DeviceBuffer k -> t.insert(k, (DeviceBuffer) values, n, (DeviceBuffer) outcomes);
      default -> throw unknown(keys);
    }
  }

  static void find(HashTable t, Object keys, Object out, int n) {
    switch (keys) {
      case int[] k -> t.find(k, (int[]) out, BenchData.NOT_FOUND);
      case long[] k -> t.find(k, (long[]) out, BenchData.NOT_FOUND);
      case MemorySegment k -> t.find(k, (MemorySegment) out, n, (long) BenchData.NOT_FOUND);
      case DeviceBuffer k -> t.find(k, (DeviceBuffer) out, n, BenchData.NOT_FOUND);
      default -> throw unknown(keys);
    }
  }

  static void contains(HashTable t, Object keys, Object found, int n) {
    switch (keys) {
      case int[] k -> t.contains(k, (byte[]) found);
      case long[] k -> t.contains(k, (byte[]) found);
      case MemorySegment k -> t.contains(k, (MemorySegment) found, n);
      case DeviceBuffer k -> t.contains(k, (DeviceBuffer) found, n);
      default -> throw unknown(keys);
    }
  }

  static void erase(HashTable t, Object keys, int n, Object outcomes) {
    switch (keys) {
      case int[] k -> t.erase(k, (byte[]) outcomes);
      case long[] k -> t.erase(k, (byte[]) outcomes);
      case MemorySegment k -> t.erase(k, n, (MemorySegment) outcomes);
      case DeviceBuffer k -> t.erase(k, n, (DeviceBuffer) outcomes);
      default -> throw unknown(keys);
    }
  }

  /** A mixed batch: values are read by inserts and written by finds that hit. */
  static void batch(HashTable t, Object ops, Object keys, Object values, int n, Object outcomes) {
    switch (keys) {
      case int[] k -> t.batch((byte[]) ops, k, (int[]) values, (byte[]) outcomes);
      case long[] k -> t.batch((byte[]) ops, k, (long[]) values, (byte[]) outcomes);
      case MemorySegment k -> t.batch((MemorySegment) ops, k, (MemorySegment) values, n, (MemorySegment) outcomes);
      case DeviceBuffer k -> t.batch((DeviceBuffer) ops, k, (DeviceBuffer) values, n, (DeviceBuffer) outcomes);
      default -> throw unknown(keys);
    }
  }

  private static IllegalArgumentException unknown(Object keys) {
    return new IllegalArgumentException("no HashTable call takes keys of " + keys.getClass());
  }
}
