package org.wixlib.cli.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Throughput samples of one op (M ops/s), summarised as median, min and max. */
public final class Throughput {
  private final List<Double> mops = new ArrayList<>();

  /** Records n ops done in the given nanoseconds. */
  public void addNanos(long n, long nanos) {
    if (nanos > 0) {
      mops.add(n / (nanos / 1e9) / 1e6);
    }
  }

  /** Records n ops done in the given milliseconds; ignored when ms is not positive. */
  public void addMillis(long n, double ms) {
    if (ms > 0 && Double.isFinite(ms)) {
      mops.add(n / (ms / 1e3) / 1e6);
    }
  }

  public boolean isEmpty() {
    return mops.isEmpty();
  }

  public int count() {
    return mops.size();
  }

  /** Median (mean of the middle two for an even count); null when there are no samples. */
  public Double median() {
    return mops.isEmpty() ? null : median(mops);
  }

  /** Median of a non-empty list (the mean of the middle two for an even count). */
  public static double median(List<Double> xs) {
    double[] a = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
  }

  public Double min() {
    return mops.isEmpty() ? null : Collections.min(mops);
  }

  public Double max() {
    return mops.isEmpty() ? null : Collections.max(mops);
  }

  /** The last sample, for progress lines. */
  public Double last() {
    return mops.isEmpty() ? null : mops.get(mops.size() - 1);
  }
}
