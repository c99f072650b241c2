package io.tyrl.arranger.controller.lifecycle.stage;

import io.tyrl.arranger.controller.lifecycle.observe.JobObservation;
import io.tyrl.arranger.controller.lifecycle.plan.PlanDraft;

/** The rules of one stage: what to do, and where to go, given the observation. */
public interface StagePlanner {

  void plan(JobObservation observation, PlanDraft draft);
}
