package org.wixlib.cli.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.wixlib.LongPairs;
import org.wixlib.Outcome;
import org.wixlib.cli.Progress;

/**
 * verify's ops and verdicts do not depend on its thread count: every call the table sees (hashed in
 * order) and every figure of the result are the same on 1 and on several threads, honest or not.
 */
class VerifierThreadsTest {
  /** An honest map that hashes every call it gets; with fromBatch > 0 it lies from that batch on. */
  private static final class Recording extends MapTarget {
    final int fromBatch;
    long digest = 17;
    int batches;

    Recording(int keyBits, int fromBatch) {
      super(keyBits);
      this.fromBatch = fromBatch;
    }

    private void mix(long x) {
      digest = digest * 0x9E3779B97F4A7C15L + x;
    }

    @Override
    public void batch(byte[] ops, long[] keys, long[] values, byte[] outcomes) {
      batches++;
      for (int i = 0; i < ops.length; i++) {
        mix(ops[i]);
        mix(keys[i]);
        mix(values[i]);
      }
      super.batch(ops, keys, values, outcomes);
      if (fromBatch > 0 && batches >= fromBatch) {
        // Every 97th element reports the other outcome of its op's pair: many keys go wrong at once.
        for (int i = 0; i < ops.length; i += 97) {
          outcomes[i] = switch (outcomes[i]) {
            case Outcome.INSERTED -> Outcome.PRESENT;
            case Outcome.PRESENT -> Outcome.INSERTED;
            case Outcome.ERASED -> Outcome.NOT_FOUND;
            default -> outcomes[i];
          };
        }
      }
      for (int i = 0; i < ops.length; i++) {
        mix(outcomes[i]);
      }
    }

    @Override
    public void find(long[] keys, long[] valuesOut, long notFound) {
      for (long k : keys) {
        mix(k);
      }
      super.find(keys, valuesOut, notFound);
    }

    @Override
    public LongPairs retrieveAll() {
      mix(-batches);
      return super.retrieveAll();
    }

    @Override
    public void resize(long capacity) {
      mix(capacity);
    }
  }

  static Stream<Arguments> runs() {
    return Stream.of(32, 64).flatMap(bits -> Stream.of(
        Arguments.of(bits, "zipf", new Verifier.Params(11, 60_000, 1500, 9000, 8, 0.5, 0.99, 4), 0),
        Arguments.of(bits, "hot", new Verifier.Params(12, 60_000, 1500, 9000, 16, 0.5, 0, 5), 0),
        Arguments.of(bits, "zipf, lying from batch 12", new Verifier.Params(11, 60_000, 1500, 9000, 8, 0.5, 0.99, 4), 12),
        Arguments.of(bits, "hot, lying from batch 30", new Verifier.Params(12, 60_000, 1500, 9000, 16, 0.5, 0, 5), 30),
        Arguments.of(bits, "distinct, lying from batch 3", new Verifier.Params(13, 60_000, 1500, 9000, 16, 0, 0, 0), 3)));
  }

  @ParameterizedTest(name = "{0} bits, {1}")
  @MethodSource("runs")
  void theSameOnAnyNumberOfThreads(int bits, String what, Verifier.Params params, int lieFrom) {
    Recording one = new Recording(bits, lieFrom);
    Verifier.Result a = new Verifier(params.withKeyBits(bits).withThreads(1), "map", Progress.SILENT).run(one);
    Recording four = new Recording(bits, lieFrom);
    Verifier.Result b = new Verifier(params.withKeyBits(bits).withThreads(4), "map", Progress.SILENT).run(four);
    if (lieFrom == 0) {
      assertNull(a.mismatch(), () -> String.join("\n", a.mismatch().describe()));
    } else {
      assertNotNull(a.mismatch());
      assertEquals(lieFrom, a.batches(), "caught in the first lying batch");
      assertEquals(String.join("\n", a.mismatch().describe()), String.join("\n", b.mismatch().describe()));
      assertEquals(a.mismatches(), b.mismatches());
    }
    assertEquals(one.digest, four.digest, "the table saw the same calls");
    assertEquals(a.opsChecked(), b.opsChecked());
    assertEquals(a.batches(), b.batches());
    assertEquals(a.sizeChecks(), b.sizeChecks());
    assertEquals(a.resizes(), b.resizes());
    assertEquals(a.zipfBatches(), b.zipfBatches());
    assertEquals(a.hottestShare(), b.hottestShare());
    assertEquals(a.finalSize(), b.finalSize());
  }
}
