package io.tyrl.arranger.controller.lifecycle.observe;

import io.tyrl.arranger.crd.bounds.TYJobBounds;
import io.tyrl.arranger.crd.contract.PodNames;
import java.util.ArrayList;
import java.util.List;

/** The pod slots a job's spec asks for, each under its deterministic name ({@link PodNames}). */
public final class PodNaming {

  private PodNaming() {}

  public static PodSlot.Leader leaderSlot(String jobName, JobSpecView spec) {
    return new PodSlot.Leader(PodNames.leader(jobName, spec.leader().name()), spec.leader().name());
  }

  /**
   * Every worker slot the spec asks for, WorkerSet by WorkerSet, index by index.
   *
   * @throws IllegalArgumentException if the spec asks for more workers than {@link TYJobBounds}
   *     allows a job, or a negative number: validation must refuse such a spec before its slots are
   *     made, and this guard keeps a missed check from becoming an unbounded list (a {@code counts}
   *     of 2147483647 would be an OutOfMemoryError)
   */
  public static List<PodSlot.Worker> workerSlots(String jobName, JobSpecView spec) {
    long total = 0;
    for (WorkerSetSpecView workerSet : spec.workerSets()) {
      if (workerSet.counts() < 0 || workerSet.counts() > TYJobBounds.MAX_WORKERS_PER_JOB) {
        throw new IllegalArgumentException(
            tooMany(
                jobName, "workerSet \"" + workerSet.name() + "\" asks for " + workerSet.counts()));
      }
      total += workerSet.counts();
    }
    if (total > TYJobBounds.MAX_WORKERS_PER_JOB) {
      throw new IllegalArgumentException(tooMany(jobName, "its workerSets ask for " + total));
    }
    List<PodSlot.Worker> slots = new ArrayList<>((int) total);
    for (WorkerSetSpecView workerSet : spec.workerSets()) {
      for (int index = 0; index < workerSet.counts(); index++) {
        slots.add(
            new PodSlot.Worker(
                PodNames.worker(jobName, workerSet.name(), index), workerSet.name(), index));
      }
    }
    return List.copyOf(slots);
  }

  private static String tooMany(String jobName, String asked) {
    return "no worker slots made for TYJob %s: %s workers, outside 0..%d; its spec must be validated first"
        .formatted(jobName, asked, TYJobBounds.MAX_WORKERS_PER_JOB);
  }
}
