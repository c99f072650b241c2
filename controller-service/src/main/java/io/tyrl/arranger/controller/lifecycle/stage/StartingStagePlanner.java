package io.tyrl.arranger.controller.lifecycle.stage;

import io.tyrl.arranger.controller.lifecycle.observe.JobObservation;
import io.tyrl.arranger.controller.lifecycle.plan.PlanDraft;
import io.tyrl.arranger.controller.lifecycle.status.PodPhase;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.reasons.EventType;
import io.tyrl.arranger.crd.reasons.LifecycleReasons;

/**
 * Starting: the leader exists. Once it has an IP, every placed worker is created with that address;
 * when the leader runs and at least {@code minWorkersNum} workers (or all, if fewer) are Ready, the
 * job is Running.
 */
public final class StartingStagePlanner implements StagePlanner {

  private final LeaderSupervisor leaderSupervisor;
  private final WorkerSupervisor workerSupervisor;
  private final PodLauncher launcher;

  public StartingStagePlanner(
      LeaderSupervisor leaderSupervisor, WorkerSupervisor workerSupervisor, PodLauncher launcher) {
    this.leaderSupervisor = leaderSupervisor;
    this.workerSupervisor = workerSupervisor;
    this.launcher = launcher;
  }

  @Override
  public void plan(JobObservation observation, PlanDraft draft) {
    if (!leaderSupervisor.supervise(observation, draft)
        || !workerSupervisor.supervise(observation, draft)) {
      return;
    }
    launcher.launchWorkers(observation, draft);
    boolean leaderRunning =
        observation
            .leaderPod()
            .filter(pod -> pod.phase() == PodPhase.RUNNING && !pod.deleting())
            .isPresent();
    int ready = observation.servingWorkers();
    long needed = Math.min(observation.spec().minWorkersNum(), observation.workerSlots().size());
    if (leaderRunning && ready >= needed) {
      draft.moveTo(
          Stage.RUNNING,
          LifecycleReasons.STARTED,
          "leader running with %d of %d workers ready (minWorkersNum %d)"
              .formatted(
                  ready, observation.workerSlots().size(), observation.spec().minWorkersNum()),
          EventType.NORMAL);
    }
  }
}
