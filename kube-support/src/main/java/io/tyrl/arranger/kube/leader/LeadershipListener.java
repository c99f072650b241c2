package io.tyrl.arranger.kube.leader;

import java.time.Duration;

/**
 * Work that only the leader does. Both calls must return quickly: they run on the election's
 * thread.
 */
public interface LeadershipListener {

  void startedLeading();

  /** Called as soon as the lease is lost or given up; the work must stop at once. */
  void stoppedLeading();

  /**
   * Called on a graceful stop while this replica still holds the lease, before it gives the lease
   * up: take no new work and let writes in flight finish, waiting at most {@code timeout}, so that
   * the next leader starts from their results rather than racing them.
   */
  default void drain(Duration timeout) {}
}
