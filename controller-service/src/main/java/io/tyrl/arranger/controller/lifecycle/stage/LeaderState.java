package io.tyrl.arranger.controller.lifecycle.stage;

import io.tyrl.arranger.controller.lifecycle.observe.JobObservation;
import io.tyrl.arranger.controller.lifecycle.observe.PodView;
import io.tyrl.arranger.controller.lifecycle.status.EvictionNotice;
import io.tyrl.arranger.crd.reasons.LifecycleReasons;
import java.util.Optional;

/** What became of the leader pod, from the observation and the last written status. */
sealed interface LeaderState {

  /**
   * No leader pod, and none was seen before: it is still to be created (or its create is in
   * flight).
   */
  record NotCreated() implements LeaderState {}

  /** Pending, Running, or Unknown while its node is away. */
  record Alive(PodView pod) implements LeaderState {}

  /** The leader ran to completion: the job's work is done. */
  record Completed(PodView pod) implements LeaderState {}

  /** Gone in a way that counts as a restart: deleted, evicted by the kubelet, node gone, failed. */
  record Lost(String reason, String message) implements LeaderState {}

  /**
   * Evicted for another job (preemption or reclaim): not the job's fault, so no restart is counted.
   */
  record EvictedForAnotherJob(String reason, String message) implements LeaderState {}

  /** Refused by the kubelet after binding; rescheduled without counting a restart. */
  record Rejected(String reason, String message, Optional<String> node, String kubeletReason)
      implements LeaderState {}

  static LeaderState of(JobObservation observation) {
    Optional<PodView> found = observation.leaderPod();
    String podName = observation.leaderSlot().podName();
    Optional<EvictionNotice> eviction =
        observation.status().eviction().filter(notice -> notice.names(podName));
    if (eviction.isPresent()
        && (found.isEmpty() ? observation.status().leader().wasObserved() : isGoing(found.get()))) {
      return new EvictedForAnotherJob(
          eviction.get().reason(),
          "leader pod \"%s\" evicted: %s".formatted(podName, eviction.get().message()));
    }
    if (found.isEmpty()) {
      return observation.status().leader().wasObserved()
          ? new Lost(
              LifecycleReasons.LEADER_DELETED, "leader pod \"%s\" disappeared".formatted(podName))
          : new NotCreated();
    }
    PodView pod = found.get();
    String node = pod.nodeName().orElse("(none)");
    String reason = pod.statusReason().orElse("no reason given");
    return switch (PodStanding.of(pod)) {
      case ACTIVE, UNREACHABLE -> new Alive(pod);
      case SUCCEEDED -> new Completed(pod);
      case REJECTED ->
          new Rejected(
              LifecycleReasons.LEADER_REJECTED,
              "the kubelet on node %s refused leader pod \"%s\": %s"
                  .formatted(node, podName, reason),
              pod.nodeName(),
              reason);
      case FAILED ->
          new Lost(
              pod.statusReason().filter("Evicted"::equals).isPresent()
                  ? LifecycleReasons.LEADER_EVICTED
                  : LifecycleReasons.LEADER_FAILED,
              "leader pod \"%s\" failed on node %s: %s".formatted(podName, node, reason));
      case DELETING ->
          new Lost(
              LifecycleReasons.LEADER_DELETED,
              "leader pod \"%s\" is being deleted from node %s".formatted(podName, node));
    };
  }

  private static boolean isGoing(PodView pod) {
    PodStanding standing = PodStanding.of(pod);
    return standing == PodStanding.DELETING || standing == PodStanding.FAILED;
  }
}
