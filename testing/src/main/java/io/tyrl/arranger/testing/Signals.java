package io.tyrl.arranger.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;

/**
 * POSIX signals to a child process by its PID, for fault injection: {@code STOP} freezes it the way
 * a stalled host or a long GC pause would (its sockets stay open, nothing answers), {@code CONT}
 * resumes it. The JDK only sends TERM and KILL itself, so these go through {@code kill(1)}.
 */
public final class Signals {

  private Signals() {}

  public static void freeze(long pid) {
    send("STOP", pid);
  }

  public static void thaw(long pid) {
    send("CONT", pid);
  }

  private static void send(String signal, long pid) {
    try {
      Process kill =
          new ProcessBuilder("kill", "-" + signal, Long.toString(pid))
              .redirectErrorStream(true)
              .start();
      if (!kill.waitFor(10, TimeUnit.SECONDS)) {
        kill.destroyForcibly();
        throw new IllegalStateException(
            "kill -" + signal + " " + pid + " did not return within 10 s");
      }
      if (kill.exitValue() != 0) {
        throw new IllegalStateException(
            "kill -"
                + signal
                + " "
                + pid
                + " failed (exit "
                + kill.exitValue()
                + "): "
                + new String(kill.getInputStream().readAllBytes()).strip());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run kill -" + signal + " " + pid, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while signalling " + pid, e);
    }
  }
}
