package io.tyrl.arranger.controller.lifecycle.stage;

import io.tyrl.arranger.controller.lifecycle.observe.JobObservation;
import io.tyrl.arranger.controller.lifecycle.observe.PodView;
import io.tyrl.arranger.controller.lifecycle.plan.DeletionReason;
import io.tyrl.arranger.controller.lifecycle.plan.PlanDraft;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.reasons.EventType;
import io.tyrl.arranger.crd.reasons.LifecycleReasons;
import java.util.Optional;

/**
 * Rescheduling: the leader was lost and everything was given back. Old pods are deleted; once all
 * are gone (their names are needed again) and the scheduler has placed the leader anew, it is
 * created and the job is Starting once more. Pods stuck on a node that is not Ready are
 * force-deleted after a grace ({@link UnreachableNodeRelease}).
 */
public final class ReschedulingStagePlanner implements StagePlanner {

  private final PodLauncher launcher;
  private final JobTermination termination;
  private final UnreachableNodeRelease unreachableNodeRelease;

  public ReschedulingStagePlanner(
      PodLauncher launcher,
      JobTermination termination,
      UnreachableNodeRelease unreachableNodeRelease) {
    this.launcher = launcher;
    this.termination = termination;
    this.unreachableNodeRelease = unreachableNodeRelease;
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
    unreachableNodeRelease.release(observation, draft);
    if (!observation.pods().isEmpty() || !observation.scheduler().scheduleState().isPlaced()) {
      return;
    }
    Optional<String> node = launcher.launchLeader(observation, draft);
    if (node.isPresent()) {
      draft.moveTo(
          Stage.STARTING,
          LifecycleReasons.LEADER_RECREATED,
          "leader pod \"%s\" recreated on node %s"
              .formatted(observation.leaderSlot().podName(), node.get()),
          EventType.NORMAL);
    }
  }
}
