package io.tyrl.arranger.kube.leader;

/** Work that only the leader does. Both calls must return quickly: they run on the election's thread. */
public interface LeadershipListener {

  void startedLeading();

  /** Called as soon as the lease is lost or given up; the work must stop at once. */
  void stoppedLeading();
}
