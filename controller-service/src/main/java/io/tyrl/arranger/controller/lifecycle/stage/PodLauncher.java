package io.tyrl.arranger.controller.lifecycle.stage;

import io.tyrl.arranger.controller.lifecycle.observe.ForeignPod;
import io.tyrl.arranger.controller.lifecycle.observe.JobObservation;
import io.tyrl.arranger.controller.lifecycle.observe.PodSlot;
import io.tyrl.arranger.controller.lifecycle.observe.PodView;
import io.tyrl.arranger.controller.lifecycle.plan.PlanDraft;
import io.tyrl.arranger.controller.lifecycle.plan.PodEnvironment;
import java.util.Optional;

/**
 * Creates the pods the scheduler has placed and that do not exist yet. A pod that exists under the
 * slot's name, even one being deleted, is never created again: its name is taken until it is gone.
 * Nor is one whose name a pod of another owner holds ({@link ForeignPod}): that pod is not adopted.
 */
public final class PodLauncher {

  /**
   * Creates the leader if it is placed and absent; the node it is (or will be) on, if placed at
   * all. Empty while a pod of another owner holds the leader's name: the leader cannot be created
   * yet.
   */
  Optional<String> launchLeader(JobObservation observation, PlanDraft draft) {
    PodSlot.Leader slot = observation.leaderSlot();
    if (observation.leaderPod().isEmpty() && observation.foreignPod(slot.podName()).isPresent()) {
      return Optional.empty();
    }
    Optional<String> node =
        observation
            .leaderPod()
            .flatMap(PodView::nodeName)
            .or(() -> observation.allocation(slot.podName()));
    if (observation.leaderPod().isEmpty() && node.isPresent()) {
      draft.create(slot, node.get(), PodEnvironment.forLeader(observation.jobName()));
    }
    return node;
  }

  /** Creates every placed, absent worker, once the leader has an address to give them. */
  void launchWorkers(JobObservation observation, PlanDraft draft) {
    Optional<String> leaderAddress =
        observation.leaderPod().filter(pod -> !pod.deleting()).flatMap(PodView::podIp);
    if (leaderAddress.isEmpty()) {
      return;
    }
    for (PodSlot.Worker slot : observation.workerSlots()) {
      Optional<String> node = observation.allocation(slot.podName());
      if (node.isPresent()
          && observation.pod(slot.podName()).isEmpty()
          && !draft.isReleased(slot.podName())
          && observation.foreignPod(slot.podName()).isEmpty()) {
        draft.create(
            slot,
            node.get(),
            PodEnvironment.forWorker(observation.jobName(), slot, leaderAddress.get()));
      }
    }
  }
}
