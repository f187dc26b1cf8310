package org.wixlib.spark;

import org.wixlib.Join;

/** Builds the wixlib join of a broadcast build side on the kind this executor resolves. */
final class JoinBuilds {
  private JoinBuilds() {}

  static Join build(BuildSide side, String kind) {
    JoinKinds.Choice c = JoinKinds.resolve(kind, !side.fitsInt());
    Join.Builder b = Join.builder().kind(c.kind()).build(side.unique() ? Join.Build.UNIQUE : Join.Build.MULTI);
    long[] keys = side.keys();
    if (c.keyBits() == 64) {
      return b.build(keys);
    }
    int[] narrow = new int[keys.length];
    for (int i = 0; i < keys.length; i++) {
      narrow[i] = (int) keys[i];
    }
    return b.build(narrow);
  }
}
