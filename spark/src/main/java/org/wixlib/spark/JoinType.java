package org.wixlib.spark;

/** The joins {@link WixlibJoins} runs: an equi-join of one integer key column on each side. */
public enum JoinType {
  /** Every (probe row, build row) pair with equal keys; a row is the probe row's columns then the build row's. */
  INNER,
  /** The probe rows with at least one build row of their key. */
  LEFT_SEMI,
  /** The probe rows without a build row of their key (a null key has none, as in Spark's left anti join). */
  LEFT_ANTI;

  /** Spark's name of the same join, as {@code Dataset.join(right, condition, joinType)} takes it. */
  public String sparkName() {
    return switch (this) {
      case INNER -> "inner";
      case LEFT_SEMI -> "left_semi";
      case LEFT_ANTI -> "left_anti";
    };
  }
}
