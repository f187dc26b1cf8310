package org.wixlib.spark;

import java.util.Locale;
import org.wixlib.InvalidArgumentException;
import org.wixlib.TableKind;
import org.wixlib.Wixlib;

/** Which wixlib join an executor builds for a broadcast: the kind of {@code spark.wixlib.join.kind} and the key width. */
final class JoinKinds {
  private JoinKinds() {}

  /** The kind and key width (32 or 64) an executor builds. */
  record Choice(TableKind kind, int keyBits) {}

  /**
   * Resolves the configured kind on this executor: "auto" is GLHT where wixlib reports it available,
   * else CPU; a named GPU kind that cannot run here fails with wixlib's reason. Keys that need 64
   * bits run on the CPU kind (the GPU kinds take 32-bit keys).
   */
  static Choice resolve(String configured, boolean needs64Bits) {
    String name = configured == null ? "auto" : configured.trim().toLowerCase(Locale.ROOT);
    int bits = needs64Bits ? 64 : 32;
    if (name.equals("auto")) {
      boolean gpu = !needs64Bits && Wixlib.isAvailable(TableKind.GLHT);
      return new Choice(gpu ? TableKind.GLHT : TableKind.CPU, bits);
    }
    TableKind kind;
    try {
      kind = TableKind.parse(name);
    } catch (InvalidArgumentException e) {
      throw new IllegalArgumentException(WixlibJoins.KIND + " is '" + configured + "'; expected auto, cpu, glht or hive", e);
    }
    if (kind.isGpu()) {
      if (needs64Bits) {
        return new Choice(TableKind.CPU, 64);
      }
      Wixlib.unavailableReason(kind).ifPresent(why -> {
        throw new IllegalStateException(WixlibJoins.KIND + " is " + name + " but this executor cannot run it: " + why);
      });
    }
    return new Choice(kind, bits);
  }
}
