package org.wixlib.cli.verify;

import org.wixlib.Op;
import org.wixlib.Outcome;

/**
 * A batch of the distinct-key phase: every shard draws its share of the positions (a partial
 * Fisher-Yates of the key indices it owns, so the batch's keys are distinct), fills in the expected
 * state from its oracle part and applies {@link OpRule} to it; after the batch each element's outcome,
 * found value and the key's state are checked against the same rule. The arrays are reused while the
 * batch size stays the same.
 */
final class DistinctBatch extends BatchArrays {
  private final Verifier v;
  private byte[] beforePresent;
  private long[] beforeValue;
  private byte[] present;
  private long[] value;

  DistinctBatch(Verifier v) {
    this.v = v;
  }

  @Override
  boolean allocate(int b) {
    if (!super.allocate(b)) {
      return false;
    }
    beforePresent = new byte[b];
    beforeValue = new long[b];
    present = new byte[b];
    value = new long[b];
    return true;
  }

  void run(Layout layout) {
    allocate(layout.size);
    v.shards.each(s -> draw(v.shard[s], layout.positions[s]));
    // The keys must still be as the oracle left them: a difference is a key the table changed on its
    // own (lost, corrupted or resurrected), caught here even when the batch overwrites it.
    v.read(keys, present, value);
    v.shards.each(s -> checkBefore(v.shard[s], layout.positions[s]));
    v.collect();
    v.target.batch(ops, keys, values, outcomes);
    v.batches++;
    v.read(keys, present, value);
    v.shards.each(s -> checkAfter(v.shard[s], layout.positions[s]));
    v.collect();
    v.opsChecked += layout.size;
  }

  private void draw(Shard sh, int[] pos) {
    int[] pool = sh.pool;
    int m = pool.length;
    for (int j = 0; j < pos.length; j++) {
      int r = j + sh.rnd.nextInt(m - j);
      int l = pool[r];
      pool[r] = pool[j];
      pool[j] = l;
      long key = v.width.key(Shards.index(sh.index, l));
      byte op = OpMix.draw(sh.rnd);
      long in = v.width.randomValue(sh.rnd);
      long cur = sh.get(l);
      boolean had = cur != Shard.NONE;
      int i = pos[j];
      keys[i] = key;
      ops[i] = op;
      values[i] = in;
      valuesIn[i] = in;
      beforePresent[i] = (byte) (had ? 1 : 0);
      beforeValue[i] = had ? cur : 0;
      boolean after = OpRule.presentAfter(op, had);
      if (after && OpRule.writes(op, had)) {
        sh.put(l, in);
      } else if (!after && had) {
        sh.remove(l);
      }
    }
  }

  private void checkBefore(Shard sh, int[] pos) {
    for (int i : pos) {
      boolean had = beforePresent[i] != 0;
      boolean is = present[i] != 0;
      if (had != is || (had && value[i] != beforeValue[i])) {
        sh.findings.add(i, v.mismatch("between batches", keys[i], "the key changed while no op touched it: the oracle"
            + " holds " + (had ? "value " + beforeValue[i] : "nothing") + ", the table "
            + (is ? "value " + value[i] : "nothing")));
      }
    }
  }

  private void checkAfter(Shard sh, int[] pos) {
    for (int i : pos) {
      byte op = ops[i];
      boolean had = beforePresent[i] != 0;
      long cur = beforeValue[i];
      long in = valuesIn[i];
      byte want = OpRule.outcome(op, had);
      long wantFound = OpRule.foundValue(had, cur, in);
      boolean wantPresent = OpRule.presentAfter(op, had);
      long wantValue = OpRule.valueAfter(op, had, cur, in);
      boolean is = present[i] != 0;
      boolean badOutcome = outcomes[i] != want;
      boolean badFind = op == Op.FIND && values[i] != wantFound;
      boolean badState = wantPresent != is || (wantPresent && value[i] != wantValue);
      if (!badOutcome && !badFind && !badState) {
        continue;
      }
      String what = badOutcome ? "expected " + Outcome.name(want) + ", got " + Outcome.name(outcomes[i])
          : badFind ? "find returned value " + values[i] + ", expected " + wantFound
          : "after the batch the key should be " + (wantPresent ? "present with value " + wantValue : "absent")
              + ", but the table holds " + (is ? "value " + value[i] : "nothing");
      sh.findings.add(i, v.mismatch("distinct-key", keys[i], what)
          .line("oracle before the batch: " + (had ? "present, value " + cur : "absent"))
          .op(i, op, in, outcomes[i], values[i]));
    }
  }
}
