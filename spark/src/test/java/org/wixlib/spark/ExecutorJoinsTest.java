package org.wixlib.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.junit.jupiter.api.Test;
import org.wixlib.Join;

/** One wixlib join per broadcast per JVM, shared by the tasks, closed once the broadcast is gone. */
class ExecutorJoinsTest {
  private static final BuildSide SIDE = BuildSide.of(
      List.of(RowFactory.create(1), RowFactory.create(2), RowFactory.create(-1)), new KeyColumn("k", 0, false), false);

  @Test
  void sharedByLeasesAndClosedOnceAfterTheLastReleaseOfAGoneBroadcast() {
    AtomicBoolean present = new AtomicBoolean(true);
    ExecutorJoins joins = new ExecutorJoins(id -> present.get());
    ExecutorJoins.Lease a = joins.acquire(7, SIDE, "cpu");
    ExecutorJoins.Lease b = joins.acquire(7, SIDE, "cpu"); // a second task, or a retry or speculative copy
    assertSame(a.join(), b.join());
    assertEquals(new ExecutorJoins.Counts(1, 0), joins.counts(7));
    present.set(false); // the broadcast is destroyed while b still probes
    a.close();
    a.close(); // released twice: counts once
    assertFalse(b.join().isClosed());
    assertEquals(1, joins.open());
    b.close();
    assertTrue(b.join().isClosed());
    assertEquals(new ExecutorJoins.Counts(1, 1), joins.counts(7));
    assertEquals(0, joins.open());
    joins.closeAll();
    assertEquals(new ExecutorJoins.Counts(1, 1), joins.counts(7));
  }

  @Test
  void keptWhileTheBroadcastIsPresentAndClosedByTheCheck() {
    AtomicBoolean present = new AtomicBoolean(true);
    ExecutorJoins joins = new ExecutorJoins(id -> present.get());
    Join first;
    try (ExecutorJoins.Lease a = joins.acquire(8, SIDE, "cpu")) {
      first = a.join();
      assertEquals(1, a.join().count(new int[] {1, 2, 3}) - 1);
    }
    try (ExecutorJoins.Lease a = joins.acquire(8, SIDE, "cpu")) {
      assertSame(first, a.join()); // a later task reuses it
    }
    assertFalse(first.isClosed());
    present.set(false);
    joins.closeReleased();
    assertTrue(first.isClosed());
    try (ExecutorJoins.Lease a = joins.acquire(8, SIDE, "cpu")) {
      assertNotSame(first, a.join()); // fetched again (e.g. evicted and read back): built anew
    }
    assertEquals(new ExecutorJoins.Counts(2, 2), joins.counts(8));
  }

  @Test
  void aFailedBuildHoldsNothing() {
    ExecutorJoins joins = new ExecutorJoins(id -> false);
    assertThrows(IllegalArgumentException.class, () -> joins.acquire(9, SIDE, "no-such-kind"));
    assertEquals(0, joins.open());
    assertEquals(new ExecutorJoins.Counts(0, 0), joins.counts(9));
  }

  @Test
  void sparkBuildsOneJoinPerBroadcastAndClosesItAfterDestroy() throws InterruptedException {
    TpchLikeTables t = TpchLikeTables.generate(LocalSpark.get(), 300, 3000, 0, false);
    long id;
    Dataset<Row> lineitem = t.lineitem().repartition(4);
    long expected = lineitem.count();
    try (BroadcastBuild orders = WixlibJoins.broadcast(t.orders(), "o_orderkey")) {
      id = orders.id();
      Dataset<Row> pairs = orders.join(lineitem, "l_orderkey", JoinType.INNER);
      assertEquals(expected, pairs.count()); // 4 tasks on 2 threads
      assertEquals(expected, pairs.count()); // a second action
      assertEquals(3000, orders.join(t.orders(), "o_orderkey", JoinType.LEFT_SEMI).count()); // another probe side
      assertEquals(new ExecutorJoins.Counts(1, 0), ExecutorJoins.INSTANCE.counts(id));
      assertTrue(ExecutorJoins.broadcastPresent(id));
    }
    long deadline = System.nanoTime() + 20_000_000_000L; // destroy removes the blocks asynchronously
    while (ExecutorJoins.INSTANCE.counts(id).closes() == 0 && System.nanoTime() < deadline) {
      ExecutorJoins.INSTANCE.closeReleased();
      Thread.sleep(50);
    }
    assertFalse(ExecutorJoins.broadcastPresent(id));
    assertEquals(new ExecutorJoins.Counts(1, 1), ExecutorJoins.INSTANCE.counts(id));
  }
}
