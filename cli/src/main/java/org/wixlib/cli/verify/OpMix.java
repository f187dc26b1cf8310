package org.wixlib.cli.verify;

import java.util.SplittableRandom;
import org.wixlib.Op;

/** The op mix of verify's batches: 30% insert, 20% insert-or-assign, 20% erase, 30% find. */
final class OpMix {
  private OpMix() {}

  static byte draw(SplittableRandom rnd) {
    int p = rnd.nextInt(100);
    if (p < 30) {
      return Op.INSERT;
    }
    if (p < 50) {
      return Op.INSERT_OR_ASSIGN;
    }
    if (p < 70) {
      return Op.ERASE;
    }
    return Op.FIND;
  }
}
