package io.tyrl.arranger.controller.lifecycle.stage;

import io.tyrl.arranger.controller.lifecycle.observe.JobObservation;
import io.tyrl.arranger.controller.lifecycle.plan.PlanDraft;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.reasons.EventType;

/** Ends a job: the terminal stage, its event, and the cleanup its policy asks for. */
public final class JobTermination {

  private final PodCleanup cleanup = new PodCleanup();

  public void succeed(JobObservation observation, PlanDraft draft, String reason, String message) {
    draft.moveTo(Stage.SUCCEEDED, reason, message, EventType.NORMAL);
    cleanup.clean(observation, draft);
  }

  public void fail(JobObservation observation, PlanDraft draft, String reason, String message) {
    draft.moveTo(Stage.FAILED, reason, message, EventType.WARNING);
    cleanup.clean(observation, draft);
  }
}
