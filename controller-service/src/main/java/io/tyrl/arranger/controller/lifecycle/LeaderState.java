package io.tyrl.arranger.controller.lifecycle;

import java.util.Optional;

/** What became of the leader pod, from the observation and the last written status. */
sealed interface LeaderState {

  /** No leader pod, and none was seen before: it is still to be created (or its create is in flight). */
  record NotCreated() implements LeaderState {}

  /** Pending, Running, or Unknown while its node is away. */
  record Alive(PodView pod) implements LeaderState {}

  /** The leader ran to completion: the job's work is done. */
  record Completed(PodView pod) implements LeaderState {}

  /** Gone in a way that counts as a restart: deleted, evicted, preempted, node gone, failed. */
  record Lost(String reason, String message) implements LeaderState {}

  /** Refused by the kubelet after binding; rescheduled without counting a restart. */
  record Rejected(String reason, String message) implements LeaderState {}

  static LeaderState of(JobObservation observation) {
    Optional<PodView> found = observation.leaderPod();
    String podName = observation.leaderSlot().podName();
    if (found.isEmpty()) {
      return observation.status().leader().wasObserved()
          ? new Lost("LeaderDeleted", "leader pod \"%s\" disappeared".formatted(podName))
          : new NotCreated();
    }
    PodView pod = found.get();
    String node = pod.nodeName().orElse("(none)");
    String reason = pod.statusReason().orElse("no reason given");
    return switch (PodStanding.of(pod)) {
      case ACTIVE, UNREACHABLE -> new Alive(pod);
      case SUCCEEDED -> new Completed(pod);
      case REJECTED -> new Rejected("LeaderRejected",
          "the kubelet on node %s refused leader pod \"%s\": %s".formatted(node, podName, reason));
      case FAILED -> new Lost(pod.statusReason().filter("Evicted"::equals).isPresent() ? "LeaderEvicted" : "LeaderFailed",
          "leader pod \"%s\" failed on node %s: %s".formatted(podName, node, reason));
      case DELETING -> new Lost("LeaderDeleted", "leader pod \"%s\" is being deleted from node %s".formatted(podName, node));
    };
  }
}
