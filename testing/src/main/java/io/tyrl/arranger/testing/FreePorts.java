package io.tyrl.arranger.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;

final class FreePorts {

  /**
   * How many times a process is launched in all when the port it was given was taken before it
   * bound it: a free port is found by binding and closing it, and on a busy machine another process
   * (an outgoing connection's local port) may take it in between.
   */
  static final int LAUNCHES_WHEN_TAKEN = 3;

  private FreePorts() {}

  /** The pause before launching again on new ports after {@code launches} lost theirs. */
  static Duration pauseAfterTaken(int launches) {
    return Duration.ofMillis(200L * launches);
  }

  static int onLoopback() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free loopback port", e);
    }
  }
}
