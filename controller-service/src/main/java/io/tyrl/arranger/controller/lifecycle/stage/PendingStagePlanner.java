package io.tyrl.arranger.controller.lifecycle.stage;

import io.tyrl.arranger.controller.lifecycle.observe.JobObservation;
import io.tyrl.arranger.controller.lifecycle.plan.PlanDraft;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.reasons.EventType;
import io.tyrl.arranger.crd.reasons.LifecycleReasons;
import java.util.Optional;

/**
 * Pending: waits for the scheduler. Once it has placed the job's minimum, the leader is created on
 * its node and the job is Starting; if the scheduler gives up, the job fails with its reason.
 */
public final class PendingStagePlanner implements StagePlanner {

  private final PodLauncher launcher;
  private final JobTermination termination;

  public PendingStagePlanner(PodLauncher launcher, JobTermination termination) {
    this.launcher = launcher;
    this.termination = termination;
  }

  @Override
  public void plan(JobObservation observation, PlanDraft draft) {
    ScheduleState state = observation.scheduler().scheduleState();
    if (state == ScheduleState.SCHEDULED_FAILED) {
      SchedulingFailure.fail(observation, draft, termination);
      return;
    }
    if (!state.isPlaced()) {
      return;
    }
    Optional<String> node = launcher.launchLeader(observation, draft);
    if (node.isPresent()) {
      draft.moveTo(
          Stage.STARTING,
          LifecycleReasons.LEADER_CREATED,
          "leader pod \"%s\" created on node %s"
              .formatted(observation.leaderSlot().podName(), node.get()),
          EventType.NORMAL);
    }
  }
}
