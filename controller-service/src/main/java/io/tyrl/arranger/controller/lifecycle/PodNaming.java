package io.tyrl.arranger.controller.lifecycle;

import java.util.ArrayList;
import java.util.List;

/**
 * Deterministic pod names: {@code <job>-<leader.name>} and {@code <job>-<workerSet.name>-<index>}.
 *
 * <p>Allocations and pods meet by these names, and because a name is fixed before the pod exists,
 * creating a pod twice is refused by the API server (AlreadyExists) instead of yielding a twin.
 */
public final class PodNaming {

  private PodNaming() {}

  public static String leaderPodName(String jobName, String leaderName) {
    return jobName + "-" + leaderName;
  }

  public static String workerPodName(String jobName, String workerSetName, int index) {
    return jobName + "-" + workerSetName + "-" + index;
  }

  public static PodSlot.Leader leaderSlot(String jobName, JobSpecView spec) {
    return new PodSlot.Leader(leaderPodName(jobName, spec.leader().name()), spec.leader().name());
  }

  /** Every worker slot the spec asks for, WorkerSet by WorkerSet, index by index. */
  public static List<PodSlot.Worker> workerSlots(String jobName, JobSpecView spec) {
    List<PodSlot.Worker> slots = new ArrayList<>();
    for (WorkerSetSpecView workerSet : spec.workerSets()) {
      for (int index = 0; index < workerSet.counts(); index++) {
        slots.add(new PodSlot.Worker(workerPodName(jobName, workerSet.name(), index), workerSet.name(), index));
      }
    }
    return List.copyOf(slots);
  }
}
