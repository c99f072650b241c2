package io.tyrl.arranger.testing.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * How the chaos and soak runs end: whatever a run started (the control plane, the replicas, the
 * samplers) is closed in reverse order when the run returns, throws, or the process is signalled,
 * and the process exits with the run's code.
 */
final class LongRun {

  /** A run that adds what it starts to {@code running} and returns its exit code. */
  interface Body {
    int run(List<AutoCloseable> running) throws Exception;
  }

  private LongRun() {}

  static void exitWith(String name, Body body) throws Exception {
    List<AutoCloseable> running = new ArrayList<>();
    AtomicBoolean stopped = new AtomicBoolean();
    Runnable stopAll =
        () -> {
          if (stopped.compareAndSet(false, true)) {
            for (int i = running.size() - 1; i >= 0; i--) {
              try {
                running.get(i).close();
              } catch (Exception e) {
                System.err.println("[" + name + "] could not stop " + running.get(i) + ": " + e);
              }
            }
          }
        };
    Runtime.getRuntime().addShutdownHook(new Thread(stopAll, name + "-stop"));
    int exitCode;
    try {
      exitCode = body.run(running);
    } finally {
      stopAll.run();
    }
    System.exit(exitCode);
  }
}
