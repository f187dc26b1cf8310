package org.wixlib;

/**
 * What a snapshot file says about itself (its fixed header); read with {@link Snapshot#readHeader}.
 *
 * @param version format version ({@link Snapshot#FORMAT_VERSION} for files this library writes)
 * @param kind the kind of the table that was saved
 * @param keyBits key width in bits (32)
 * @param valueBits value width in bits (32)
 * @param count number of key/value pairs in the file
 * @param slots the saved table's capacity in slots (informational; a load sizes the table from count)
 * @param shards the saved table's shard count (1 for files that do not record it)
 */
public record SnapshotHeader(int version, TableKind kind, int keyBits, int valueBits, long count, long slots,
    int shards) {
  /** A header of an unsharded table. */
  public SnapshotHeader(int version, TableKind kind, int keyBits, int valueBits, long count, long slots) {
    this(version, kind, keyBits, valueBits, count, slots, 1);
  }
}
