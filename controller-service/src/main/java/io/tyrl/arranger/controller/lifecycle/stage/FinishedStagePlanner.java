package io.tyrl.arranger.controller.lifecycle;

/**
 * Succeeded and Failed are terminal: the only work left is the cleanup the policy asks for, which
 * is repeated until every such pod is being deleted (a delete may have failed the first time).
 */
final class FinishedStagePlanner implements StagePlanner {

  private final PodCleanup cleanup = new PodCleanup();

  @Override
  public void plan(JobObservation observation, PlanDraft draft) {
    cleanup.clean(observation, draft);
  }
}
