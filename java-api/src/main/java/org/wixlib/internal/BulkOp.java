package org.wixlib.internal;

/**
 * The bulk operations of a table and what each reads and writes, so that one path serves them on
 * every kind of memory (arrays, native segments, device buffers). A call's memory is four columns:
 * ops (1 byte each), keys and values (the table's width each), out (1 byte each: outcomes or found).
 */
public enum BulkOp {
  INSERT(false, Use.OPTIONAL, "values", Use.OPTIONAL, "outcomes"),
  INSERT_OR_ASSIGN(false, Use.REQUIRED, "values", Use.OPTIONAL, "outcomes"),
  FIND(false, Use.WRITTEN, "valuesOut", Use.NONE, null),
  CONTAINS(false, Use.NONE, null, Use.WRITTEN, "found"),
  ERASE(false, Use.NONE, null, Use.OPTIONAL, "outcomes"),
  BATCH(true, Use.READ_WRITTEN, "values", Use.OPTIONAL, "outcomes");

  /** How an operation uses a column. */
  public enum Use {
    NONE, OPTIONAL, REQUIRED, WRITTEN, READ_WRITTEN;

    public boolean present() {
      return this != NONE;
    }

    public boolean optional() {
      return this == OPTIONAL;
    }

    /** The library writes the column. */
    public boolean written() {
      return this == WRITTEN || this == READ_WRITTEN;
    }

    /** The library reads the column. */
    public boolean read() {
      return this == OPTIONAL || this == REQUIRED || this == READ_WRITTEN;
    }
  }

  public final boolean hasOps;
  public final Use values;
  public final String valuesName;
  /** OPTIONAL: per-element outcomes; WRITTEN: found flags. */
  public final Use out;
  public final String outName;

  BulkOp(boolean hasOps, Use values, String valuesName, Use out, String outName) {
    this.hasOps = hasOps;
    this.values = values;
    this.valuesName = valuesName;
    this.out = out;
    this.outName = outName;
  }

  /**
   * A lookup (find, contains): a reserved key is a key that is never present, and the library has
   * already written "not found" for it, so its WX_ERR_INVALID_KEY is no failure.
   */
  public boolean isLookup() {
    return this == FIND || this == CONTAINS;
  }

  /** The status of a call as the caller sees it (see {@link #isLookup()}). */
  public int seen(int status) {
    return isLookup() && status == Status.INVALID_KEY ? Status.OK : status;
  }
}
