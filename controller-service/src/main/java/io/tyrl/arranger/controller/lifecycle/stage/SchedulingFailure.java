package io.tyrl.arranger.controller.lifecycle.stage;

import io.tyrl.arranger.controller.lifecycle.observe.JobObservation;
import io.tyrl.arranger.controller.lifecycle.observe.SchedulerStatusView;
import io.tyrl.arranger.controller.lifecycle.plan.PlanDraft;
import io.tyrl.arranger.crd.contract.ScheduleState;

/** Fails a job the scheduler declared it can never place, passing on the scheduler's own reason. */
final class SchedulingFailure {

  private SchedulingFailure() {}

  static void fail(JobObservation observation, PlanDraft draft, JobTermination termination) {
    SchedulerStatusView scheduler = observation.scheduler();
    termination.fail(
        observation,
        draft,
        scheduler
            .reason()
            .filter(reason -> !reason.isBlank())
            .orElse(ScheduleState.SCHEDULED_FAILED.wireName()),
        scheduler
            .message()
            .filter(message -> !message.isBlank())
            .orElse("the scheduler reports that the job can never be placed"));
  }
}
