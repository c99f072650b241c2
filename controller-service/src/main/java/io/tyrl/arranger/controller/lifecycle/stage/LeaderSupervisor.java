package io.tyrl.arranger.controller.lifecycle.stage;

import io.tyrl.arranger.controller.lifecycle.observe.JobObservation;
import io.tyrl.arranger.controller.lifecycle.observe.PodView;
import io.tyrl.arranger.controller.lifecycle.plan.DeletionReason;
import io.tyrl.arranger.controller.lifecycle.plan.PlanDraft;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.reasons.EventType;
import io.tyrl.arranger.crd.reasons.LifecycleReasons;
import java.time.Duration;

/**
 * Watches the leader of a started job (Starting or Running): recreates it if its create was lost,
 * ends the job when it completes, and reschedules the whole job when it is lost, unless the leader
 * has then been restarted more than {@code restartLimit} times. A leader evicted for another job
 * (preempted, reclaimed) or refused by the kubelet is rescheduled without counting a restart.
 */
public final class LeaderSupervisor {

  private final PodLauncher launcher;
  private final JobTermination termination;
  private final Duration refusingNodeAvoidance;

  public LeaderSupervisor(
      PodLauncher launcher, JobTermination termination, Duration refusingNodeAvoidance) {
    this.launcher = launcher;
    this.termination = termination;
    this.refusingNodeAvoidance = refusingNodeAvoidance;
  }

  /** Whether the job goes on in its stage; false once this plan has moved it elsewhere. */
  boolean supervise(JobObservation observation, PlanDraft draft) {
    LeaderState state = LeaderState.of(observation);
    if (state instanceof LeaderState.NotCreated) {
      launcher.launchLeader(observation, draft);
      return true;
    }
    if (state instanceof LeaderState.Alive) {
      return true;
    }
    if (state instanceof LeaderState.Completed) {
      termination.succeed(
          observation,
          draft,
          LifecycleReasons.LEADER_SUCCEEDED,
          "leader pod \"%s\" succeeded".formatted(observation.leaderSlot().podName()));
      return false;
    }
    if (state instanceof LeaderState.EvictedForAnotherJob evicted) {
      reschedule(observation, draft, evicted.reason(), evicted.message(), false);
      return false;
    }
    if (state instanceof LeaderState.Lost lost) {
      reschedule(observation, draft, lost.reason(), lost.message(), true);
      return false;
    }
    LeaderState.Rejected rejected = (LeaderState.Rejected) state;
    String message = rejected.message();
    if (rejected.node().isPresent()) {
      draft.avoid(rejected.node().get(), rejected.kubeletReason());
      message +=
          "; node %s is avoided for this job until %s"
              .formatted(rejected.node().get(), observation.now().plus(refusingNodeAvoidance));
    }
    reschedule(observation, draft, rejected.reason(), message, false);
    return false;
  }

  private void reschedule(
      JobObservation observation,
      PlanDraft draft,
      String reason,
      String message,
      boolean countsAsRestart) {
    long restartLimit = observation.spec().restartLimit();
    if (countsAsRestart) {
      int restarts = draft.countLeaderRestart();
      if (restarts > restartLimit) {
        termination.fail(
            observation,
            draft,
            LifecycleReasons.RESTART_LIMIT_EXCEEDED,
            "%s; the leader has been restarted %d times, more than restartLimit %d"
                .formatted(message, restarts, restartLimit));
        return;
      }
      message = "%s; leader restart %d of %d".formatted(message, restarts, restartLimit);
    } else {
      message = message + "; not counted as a restart";
    }
    // Every pod goes, workers too: they were started against the lost leader's address.
    for (PodView pod : observation.pods()) {
      if (!pod.deleting()) {
        draft.delete(pod.name(), DeletionReason.LEADER_LOST);
      }
    }
    observation.scheduler().allocations().keySet().stream().sorted().forEach(draft::release);
    draft.moveTo(Stage.RESCHEDULING, reason, message, EventType.WARNING);
  }
}
