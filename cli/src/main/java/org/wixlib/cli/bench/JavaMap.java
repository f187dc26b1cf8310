package org.wixlib.cli.bench;

import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.wixlib.Op;
import org.wixlib.Outcome;

/**
 * What a Java user would pick instead of wixlib, driven with the same int[] streams: java.util.HashMap
 * and fastutil's Int2IntOpenHashMap on one thread, ConcurrentHashMap on all cores (the stream cut into one
 * piece per thread, as a GPU batch runs its elements concurrently). Each is presized for the keys, as
 * the wixlib tables are.
 */
abstract class JavaMap implements AutoCloseable {
  /** The names of the baselines, as they appear in the kind column. */
  static final String HASHMAP = "java-hashmap";
  static final String CONCURRENT = "java-chm";
  static final String FASTUTIL = "fastutil";
  static final String[] NAMES = {HASHMAP, CONCURRENT, FASTUTIL};

  static JavaMap create(String name, long expectedKeys, int threads) {
    int n = (int) Math.min(expectedKeys, 1 << 30);
    return switch (name) {
      case HASHMAP -> new Boxed(HashMap.newHashMap(n));
      case CONCURRENT -> new Concurrent(n, threads);
      case FASTUTIL -> new Fastutil(n);
      default -> throw new IllegalArgumentException("unknown baseline " + name);
    };
  }

  abstract void insert(int[] keys, int[] values);

  abstract void find(int[] keys, int[] out, int notFound);

  abstract void erase(int[] keys);

  /** Applies ops[i] to keys[i]: insert (if absent), erase or find (value written on a hit). */
  abstract void batch(byte[] ops, int[] keys, int[] values, byte[] outcomes);

  abstract long size();

  @Override
  public void close() {}

  /** One mixed-batch element on a boxed map. */
  static byte apply(Map<Integer, Integer> m, byte op, int key, int[] values, int i) {
    switch (op) {
      case Op.INSERT:
        return m.putIfAbsent(key, values[i]) == null ? Outcome.INSERTED : Outcome.PRESENT;
      case Op.ERASE:
        return m.remove(key) != null ? Outcome.ERASED : Outcome.NOT_FOUND;
      default:
        Integer v = m.get(key);
        if (v == null) {
          return Outcome.NOT_FOUND;
        }
        values[i] = v;
        return Outcome.FOUND;
    }
  }

  /** java.util.HashMap&lt;Integer, Integer&gt;: one thread, boxed keys and values. */
  static final class Boxed extends JavaMap {
    private final Map<Integer, Integer> m;

    Boxed(Map<Integer, Integer> m) {
      this.m = m;
    }

    @Override
    void insert(int[] keys, int[] values) {
      for (int i = 0; i < keys.length; i++) {
        m.put(keys[i], values[i]);
      }
    }

    @Override
    void find(int[] keys, int[] out, int notFound) {
      for (int i = 0; i < keys.length; i++) {
        Integer v = m.get(keys[i]);
        out[i] = v == null ? notFound : v;
      }
    }

    @Override
    void erase(int[] keys) {
      for (int k : keys) {
        m.remove(k);
      }
    }

    @Override
    void batch(byte[] ops, int[] keys, int[] values, byte[] outcomes) {
      for (int i = 0; i < keys.length; i++) {
        outcomes[i] = apply(m, ops[i], keys[i], values, i);
      }
    }

    @Override
    long size() {
      return m.size();
    }
  }

  /** ConcurrentHashMap&lt;Integer, Integer&gt; with one piece of each stream per thread. */
  static final class Concurrent extends JavaMap {
    private final ConcurrentHashMap<Integer, Integer> m;
    private final ExecutorService pool;
    private final int threads;

    Concurrent(int n, int threads) {
      this.threads = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
      this.m = new ConcurrentHashMap<>(n, 0.75f, this.threads);
      this.pool = Executors.newFixedThreadPool(this.threads, r -> {
        Thread t = new Thread(r, "wixlib-bench-chm");
        t.setDaemon(true);
        return t;
      });
    }

    /** Runs body(from, to) on one piece of [0, n) per thread and waits for all. */
    private void parallel(int n, Piece body) {
      int k = Math.max(1, Math.min(threads, n));
      Future<?>[] f = new Future<?>[k];
      for (int t = 0; t < k; t++) {
        int from = (int) ((long) n * t / k);
        int to = (int) ((long) n * (t + 1) / k);
        f[t] = pool.submit(() -> body.run(from, to));
      }
      try {
        for (Future<?> x : f) {
          x.get();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      } catch (java.util.concurrent.ExecutionException e) {
        throw new IllegalStateException(e.getCause());
      }
    }

    interface Piece {
      void run(int from, int to);
    }

    @Override
    void insert(int[] keys, int[] values) {
      parallel(keys.length, (a, b) -> {
        for (int i = a; i < b; i++) {
          m.put(keys[i], values[i]);
        }
      });
    }

    @Override
    void find(int[] keys, int[] out, int notFound) {
      parallel(keys.length, (a, b) -> {
        for (int i = a; i < b; i++) {
          Integer v = m.get(keys[i]);
          out[i] = v == null ? notFound : v;
        }
      });
    }

    @Override
    void erase(int[] keys) {
      parallel(keys.length, (a, b) -> {
        for (int i = a; i < b; i++) {
          m.remove(keys[i]);
        }
      });
    }

    @Override
    void batch(byte[] ops, int[] keys, int[] values, byte[] outcomes) {
      parallel(keys.length, (a, b) -> {
        for (int i = a; i < b; i++) {
          outcomes[i] = apply(m, ops[i], keys[i], values, i);
        }
      });
    }

    @Override
    long size() {
      return m.size();
    }

    @Override
    public void close() {
      pool.shutdownNow();
    }
  }

  /** fastutil's Int2IntOpenHashMap: one thread, primitive keys and values (linear probing). */
  static final class Fastutil extends JavaMap {
    private final Int2IntOpenHashMap m;

    Fastutil(int n) {
      m = new Int2IntOpenHashMap(n);
      m.defaultReturnValue(BenchData.NOT_FOUND);
    }

    @Override
    void insert(int[] keys, int[] values) {
      for (int i = 0; i < keys.length; i++) {
        m.put(keys[i], values[i]);
      }
    }

    @Override
    void find(int[] keys, int[] out, int notFound) {
      m.defaultReturnValue(notFound);
      for (int i = 0; i < keys.length; i++) {
        out[i] = m.get(keys[i]);
      }
    }

    @Override
    void erase(int[] keys) {
      for (int k : keys) {
        m.remove(k);
      }
    }

    @Override
    void batch(byte[] ops, int[] keys, int[] values, byte[] outcomes) {
      for (int i = 0; i < keys.length; i++) {
        int k = keys[i];
        int before = m.size();
        switch (ops[i]) {
          case Op.INSERT -> {
            m.putIfAbsent(k, values[i]);
            outcomes[i] = m.size() > before ? Outcome.INSERTED : Outcome.PRESENT;
          }
          case Op.ERASE -> {
            m.remove(k);
            outcomes[i] = m.size() < before ? Outcome.ERASED : Outcome.NOT_FOUND;
          }
          default -> {
            int v = m.get(k); // one probe; the sentinel value needs a second look
            if (v != BenchData.NOT_FOUND || m.containsKey(k)) {
              values[i] = v;
              outcomes[i] = Outcome.FOUND;
            } else {
              outcomes[i] = Outcome.NOT_FOUND;
            }
          }
        }
      }
    }

    @Override
    long size() {
      return m.size();
    }
  }
}
