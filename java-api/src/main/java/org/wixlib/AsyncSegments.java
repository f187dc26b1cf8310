package org.wixlib;

import java.lang.foreign.MemorySegment;

/**
 * The check every asynchronous call makes at once on its host segments: the call runs on the table's
 * own thread, which a segment of a confined arena refuses, so such a segment is rejected with
 * {@link WrongThreadException} when the call is made (as a synchronous call from another thread
 * would), not inside the table's thread.
 */
final class AsyncSegments {
  private AsyncSegments() {}

  /** Never started; only asked whether a segment may be used by a thread other than its owner. */
  private static final Thread ANOTHER_THREAD = Thread.ofPlatform().unstarted(() -> {});

  /** Throws WrongThreadException when s (null passes) is confined to one thread. */
  static void requireShared(MemorySegment s, String name) {
    if (s == null) {
      return;
    }
    if (!s.isAccessibleBy(ANOTHER_THREAD)) {
      throw new WrongThreadException(name + ": the segment belongs to a confined arena, which other threads "
          + "may not use; an asynchronous call runs on the table's thread: allocate it from a shared, "
          + "automatic or global arena, or make the synchronous call");
    }
  }
}
