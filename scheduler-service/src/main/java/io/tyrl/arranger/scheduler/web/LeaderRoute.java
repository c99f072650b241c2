package io.tyrl.arranger.scheduler.web;

import java.net.URI;

/**
 * Where a request for the view's data goes: the view is the leader's (only the replica holding the
 * Lease runs cycles), so a standby passes it on to the leader's pod.
 */
sealed interface LeaderRoute {

  /** This replica leads, or is about to: it answers itself. */
  record Here() implements LeaderRoute {}

  /** The leader {@code identity} answers at {@code base} (its pod's address and view port). */
  record Leader(String identity, URI base) implements LeaderRoute {}

  /** No leader can be reached now, and why: the standby answers 503 with these words. */
  record Unreachable(String why) implements LeaderRoute {}
}
