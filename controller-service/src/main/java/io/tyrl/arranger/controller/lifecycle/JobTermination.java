package io.tyrl.arranger.controller.lifecycle;

import io.tyrl.arranger.crd.contract.Stage;

/** Ends a job: the terminal stage, its event, and the cleanup its policy asks for. */
final class JobTermination {

  private final PodCleanup cleanup = new PodCleanup();

  void succeed(JobObservation observation, PlanDraft draft, String reason, String message) {
    draft.moveTo(Stage.SUCCEEDED, reason, message, EventType.NORMAL);
    cleanup.clean(observation, draft);
  }

  void fail(JobObservation observation, PlanDraft draft, String reason, String message) {
    draft.moveTo(Stage.FAILED, reason, message, EventType.WARNING);
    cleanup.clean(observation, draft);
  }
}
