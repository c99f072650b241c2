package io.tyrl.arranger.controller.lifecycle.stage;

import io.tyrl.arranger.controller.lifecycle.observe.JobObservation;
import io.tyrl.arranger.controller.lifecycle.plan.PlanDraft;

/**
 * Succeeded and Failed are terminal: the only work left is the cleanup the policy asks for, which
 * is repeated until every such pod is being deleted (a delete may have failed the first time).
 */
public final class FinishedStagePlanner implements StagePlanner {

  private final PodCleanup cleanup = new PodCleanup();

  @Override
  public void plan(JobObservation observation, PlanDraft draft) {
    cleanup.clean(observation, draft);
  }
}
