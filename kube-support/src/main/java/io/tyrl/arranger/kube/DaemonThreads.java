package io.tyrl.arranger.kube;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Daemon threads named {@code <prefix>-<n>}, so that a thread dump says whose work each one does
 * and none of them keeps a stopping service alive.
 */
public final class DaemonThreads {

  private DaemonThreads() {}

  public static ThreadFactory named(String prefix) {
    AtomicInteger counter = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  /** A pool of {@code size} such threads. */
  public static ExecutorService fixedPool(String prefix, int size) {
    return Executors.newFixedThreadPool(size, named(prefix));
  }
}
