package org.wixlib.cli.join;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;
import java.util.function.LongSupplier;
import org.wixlib.Join;
import org.wixlib.PinnedMemory;

/**
 * The key columns of one join core in the memory a caller holds them in, and the outputs its probes
 * reuse: {@code int[]} in and out, or native memory as Arrow-style columns (ordinary off-heap memory,
 * or page-locked once as long-lived columns are). The outputs are sized once, as a caller that
 * reuses them would: a UNIQUE build gives at most one pair per probe row, a MULTI build's count is
 * asked first (untimed).
 */
abstract class JoinColumns implements AutoCloseable {
  /** The memory paths of {@code wixlib join --memory}. */
  enum Memory {
    HEAP, NATIVE, PINNED;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Memory parse(String s) {
      for (Memory m : values()) {
        if (m.label().equals(s.trim().toLowerCase(Locale.ROOT))) {
          return m;
        }
      }
      throw new IllegalArgumentException("unknown memory '" + s + "' (expected heap, native or pinned)");
    }
  }

  final JoinQuery q;
  final int buildRows;
  final int probeRows;

  JoinColumns(JoinQuery q, int buildRows, int probeRows) {
    this.q = q;
    this.buildRows = buildRows;
    this.probeRows = probeRows;
  }

  static JoinColumns of(Memory m, JoinQuery q, int[] build, int[] probe) {
    return m == Memory.HEAP ? new Heap(q, build, probe) : new OffHeap(q, build, probe, m == Memory.PINNED);
  }

  abstract Join build(Join.Builder b);

  /** The core's probe into the reused outputs; returns the pairs (or rows) written. */
  abstract long probe(Join j);

  /** {matches, checksum} of the last probe (untimed). */
  abstract long[] tally(long count);

  /** Output room: probe rows, or a MULTI inner join's exact count (asked only then). */
  long room(LongSupplier multiCount) {
    return q.result == JoinQuery.Result.PAIRS && q.build == Join.Build.MULTI ? multiCount.getAsLong() : probeRows;
  }

  void checkFits(long n, long room) {
    if (n > room) {
      throw new IllegalStateException("the probe gave " + n + " pairs, more than the " + room + " counted");
    }
  }

  @Override
  public void close() {}

  private static final class Heap extends JoinColumns {
    final int[] build;
    final int[] probe;
    int[] a;
    int[] b;

    Heap(JoinQuery q, int[] build, int[] probe) {
      super(q, build.length, probe.length);
      this.build = build;
      this.probe = probe;
    }

    @Override
    Join build(Join.Builder builder) {
      return builder.build(build);
    }

    @Override
    long probe(Join j) {
      if (a == null) {
        int room = Math.toIntExact(room(() -> j.count(probe)));
        a = new int[room];
        b = q.result == JoinQuery.Result.PAIRS ? new int[room] : null;
      }
      long n = switch (q.result) {
        case PAIRS -> j.probe(probe, a, b);
        case SEMI -> j.semi(probe, false, a);
        default -> j.semi(probe, true, a);
      };
      checkFits(n, a.length);
      return n;
    }

    @Override
    long[] tally(long count) {
      return new long[] {count, JoinQuery.checksum(a, b, (int) count)};
    }
  }

  /** Off-heap columns and outputs: ordinary native memory, or page-locked once (long-lived columns). */
  private static final class OffHeap extends JoinColumns {
    final Arena arena = Arena.ofShared();
    final boolean pinned;
    final MemorySegment build;
    final MemorySegment probe;
    MemorySegment a;
    MemorySegment b;
    long room = -1;

    OffHeap(JoinQuery q, int[] build, int[] probe, boolean pinned) {
      super(q, build.length, probe.length);
      this.pinned = pinned;
      this.build = column(build);
      this.probe = column(probe);
    }

    private MemorySegment ints(long n) {
      long bytes = 4L * Math.max(1, n);
      return pinned ? PinnedMemory.allocate(arena, bytes) : arena.allocate(bytes, 64);
    }

    private MemorySegment column(int[] values) {
      MemorySegment s = ints(values.length);
      MemorySegment.copy(values, 0, s, ValueLayout.JAVA_INT, 0, values.length);
      return s;
    }

    @Override
    Join build(Join.Builder builder) {
      return builder.build(build, buildRows);
    }

    @Override
    long probe(Join j) {
      if (room < 0) {
        room = room(() -> j.count(probe, probeRows));
        a = ints(room);
        b = q.result == JoinQuery.Result.PAIRS ? ints(room) : null;
      }
      long n = switch (q.result) {
        case PAIRS -> j.probe(probe, MemorySegment.NULL, probeRows, a, b, room);
        case SEMI -> j.semi(probe, probeRows, false, a);
        default -> j.semi(probe, probeRows, true, a);
      };
      checkFits(n, room);
      return n;
    }

    @Override
    long[] tally(long count) {
      int c = Math.toIntExact(count);
      int[] pr = a.asSlice(0, 4L * c).toArray(ValueLayout.JAVA_INT);
      int[] br = b == null ? null : b.asSlice(0, 4L * c).toArray(ValueLayout.JAVA_INT);
      return new long[] {count, JoinQuery.checksum(pr, br, c)};
    }

    @Override
    public void close() {
      arena.close();
    }
  }
}
