package io.tyrl.arranger.controller.lifecycle.observe;

/** A place for one pod in a job: the leader, or worker {@code index} of a WorkerSet. */
public sealed interface PodSlot {

  /** The deterministic pod name, see {@link PodNaming}. */
  String podName();

  PodRole role();

  /** The leader's slot; {@code leaderName} is {@code spec.leader.name}. */
  record Leader(String podName, String leaderName) implements PodSlot {
    @Override
    public PodRole role() {
      return PodRole.LEADER;
    }
  }

  /** Worker {@code index} (0-based) of the WorkerSet named {@code workerSet}. */
  record Worker(String podName, String workerSet, int index) implements PodSlot {
    @Override
    public PodRole role() {
      return PodRole.WORKER;
    }
  }
}
