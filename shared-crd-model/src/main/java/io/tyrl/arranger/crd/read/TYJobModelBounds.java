package io.tyrl.arranger.crd.read;

import io.kubernetes.client.openapi.models.V1Volume;
import io.tyrl.arranger.crd.bounds.BoundsProblem;
import io.tyrl.arranger.crd.bounds.TYJobBounds;
import io.tyrl.arranger.crd.bounds.TYJobShape;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobSpec;
import io.tyrl.arranger.model.V1alpha1TYJobSpecWorkerSets;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link TYJobBounds} for a TYJob read into the generated model, the scheduler's entry point. Kept
 * apart from {@code TYJobBounds} so that the bounds themselves depend on no Kubernetes type.
 */
public final class TYJobModelBounds {

  private TYJobModelBounds() {}

  /**
   * Every value of {@code job} outside the bounds, each naming its field path (with indices) and
   * the offending value; empty if the job is within all of them. Never throws: absent parts (no
   * metadata, no spec, null entries) are reported or skipped like absent fields.
   */
  public static List<BoundsProblem> problems(V1alpha1TYJob job) {
    return TYJobBounds.problems(shape(job));
  }

  /** The parts of {@code job} that the bounds look at. */
  public static TYJobShape shape(V1alpha1TYJob job) {
    String name = job.getMetadata() == null ? null : job.getMetadata().getName();
    V1alpha1TYJobSpec spec = job.getSpec();
    if (spec == null) {
      return TYJobShape.named(name);
    }
    // Lists are built once: a job may hold very many entries, and the shape's with… methods copy.
    List<TYJobShape.WorkerSet> workerSets = new ArrayList<>();
    if (spec.getWorkerSets() != null) {
      for (V1alpha1TYJobSpecWorkerSets set : spec.getWorkerSets()) {
        workerSets.add(
            set == null
                ? new TYJobShape.WorkerSet(null, null)
                : new TYJobShape.WorkerSet(set.getName(), asLong(set.getCounts())));
      }
    }
    List<String> volumeNames = new ArrayList<>();
    if (spec.getVolumes() != null) {
      for (V1Volume volume : spec.getVolumes()) {
        volumeNames.add(volume == null ? null : volume.getName());
      }
    }
    return new TYJobShape(
        name,
        spec.getLeader() == null ? null : spec.getLeader().getName(),
        workerSets,
        asLong(spec.getRestartLimit()),
        asLong(spec.getMinWorkersNum()),
        asLong(spec.getPriority()),
        spec.getQueue(),
        spec.getGang() == null ? null : spec.getGang().getWaitTime(),
        spec.getGang() == null ? null : spec.getGang().getGroup(),
        volumeNames);
  }

  private static Long asLong(Integer value) {
    return value == null ? null : value.longValue();
  }
}
