package io.tyrl.arranger.controller.lifecycle;

import io.tyrl.arranger.crd.contract.ScheduleState;
import java.util.Optional;

/**
 * Rescheduling: the leader was lost and everything was given back. Old pods are deleted; once all
 * are gone (their names are needed again) and the scheduler has placed the leader anew, it is
 * created and the job is Starting once more.
 */
final class ReschedulingStagePlanner implements StagePlanner {

  private final PodLauncher launcher;
  private final JobTermination termination;

  ReschedulingStagePlanner(PodLauncher launcher, JobTermination termination) {
    this.launcher = launcher;
    this.termination = termination;
  }

  @Override
  public void plan(JobObservation observation, PlanDraft draft) {
    if (observation.scheduler().scheduleState() == ScheduleState.SCHEDULED_FAILED) {
      SchedulingFailure.fail(observation, draft, termination);
      return;
    }
    for (PodView pod : observation.pods()) {
      if (!pod.deleting()) {
        draft.delete(pod.name(), DeletionReason.LEADER_LOST);
      }
    }
    if (!observation.pods().isEmpty() || !observation.scheduler().scheduleState().isPlaced()) {
      return;
    }
    Optional<String> node = launcher.launchLeader(observation, draft);
    if (node.isPresent()) {
      draft.moveTo(Stage.STARTING, "LeaderRecreated",
          "leader pod \"%s\" recreated on node %s".formatted(observation.leaderSlot().podName(), node.get()),
          EventType.NORMAL);
    }
  }
}
