package io.tyrl.arranger.controller.lifecycle;

/** The rules of one stage: what to do, and where to go, given the observation. */
interface StagePlanner {

  void plan(JobObservation observation, PlanDraft draft);
}
