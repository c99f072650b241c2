package io.tyrl.arranger.testing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Ends a child process by its PID: SIGTERM, then SIGKILL if it has not exited in time. */
final class ProcessStopper {

  private ProcessStopper() {}

  /**
   * @throws IllegalStateException if the process still runs after both signals
   */
  static void stop(Process process, Duration grace) {
    ProcessHandle.of(process.pid())
        .ifPresent(
            handle -> {
              handle.destroy();
              try {
                if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                  handle.destroyForcibly();
                  process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
                }
              } catch (InterruptedException e) {
                handle.destroyForcibly();
                Thread.currentThread().interrupt();
              }
            });
    if (process.isAlive()) {
      throw new IllegalStateException("process " + process.pid() + " did not stop");
    }
  }
}
