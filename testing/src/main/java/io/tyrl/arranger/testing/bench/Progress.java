package io.tyrl.arranger.testing.bench;

import java.util.Locale;

/**
 * The benchmark's progress lines on stdout, each stamped with the seconds since the benchmark
 * started.
 */
final class Progress {

  private static final long START = System.nanoTime();

  private Progress() {}

  static void progress(String format, Object... args) {
    System.out.printf(
        Locale.ROOT,
        "[bench-e2e %6.1fs] %s%n",
        seconds(START, System.nanoTime()),
        String.format(Locale.ROOT, format, args));
    System.out.flush();
  }

  /** The seconds between two {@link System#nanoTime()} readings. */
  static double seconds(long startNanos, long endNanos) {
    return (endNanos - startNanos) / 1e9;
  }
}
