package io.tyrl.arranger.controller.lifecycle.stage;

import io.tyrl.arranger.controller.lifecycle.observe.JobObservation;
import io.tyrl.arranger.controller.lifecycle.plan.PlanDraft;

/**
 * Running: creates the workers the scheduler places later (elastic growth, replacements), replaces
 * lost workers, and ends or reschedules the job by what becomes of its leader.
 */
public final class RunningStagePlanner implements StagePlanner {

  private final LeaderSupervisor leaderSupervisor;
  private final WorkerSupervisor workerSupervisor;
  private final PodLauncher launcher;

  public RunningStagePlanner(
      LeaderSupervisor leaderSupervisor, WorkerSupervisor workerSupervisor, PodLauncher launcher) {
    this.leaderSupervisor = leaderSupervisor;
    this.workerSupervisor = workerSupervisor;
    this.launcher = launcher;
  }

  @Override
  public void plan(JobObservation observation, PlanDraft draft) {
    if (leaderSupervisor.supervise(observation, draft)
        && workerSupervisor.supervise(observation, draft)) {
      launcher.launchWorkers(observation, draft);
    }
  }
}
