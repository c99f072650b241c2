package io.tyrl.arranger.crd.read;

import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Volume;
import io.tyrl.arranger.crd.bounds.BoundsProblem;
import io.tyrl.arranger.crd.bounds.GpuFraction;
import io.tyrl.arranger.crd.bounds.TYJobBounds;
import io.tyrl.arranger.crd.bounds.TYJobShape;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobSpec;
import io.tyrl.arranger.model.V1alpha1TYJobSpecWorkerSets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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
    List<BoundsProblem> problems = new ArrayList<>(TYJobBounds.problems(shape(job)));
    V1alpha1TYJobSpec spec = job.getSpec();
    if (spec != null) {
      if (spec.getLeader() != null) {
        gpuFractionProblem("spec.leader.template", spec.getLeader().getTemplate())
            .ifPresent(problems::add);
      }
      if (spec.getWorkerSets() != null) {
        for (int i = 0; i < spec.getWorkerSets().size(); i++) {
          V1alpha1TYJobSpecWorkerSets set = spec.getWorkerSets().get(i);
          if (set != null) {
            gpuFractionProblem("spec.workerSets[" + i + "].template", set.getTemplate())
                .ifPresent(problems::add);
          }
        }
      }
    }
    return problems;
  }

  /**
   * A template's {@link GpuFraction} annotation that is not a share of one GPU, or that comes with
   * an {@code nvidia.com/gpu} request too (the pod would ask for both a share and whole devices).
   */
  static Optional<BoundsProblem> gpuFractionProblem(String path, V1PodTemplateSpec template) {
    if (template == null
        || template.getMetadata() == null
        || template.getMetadata().getAnnotations() == null
        || !template.getMetadata().getAnnotations().containsKey(GpuFraction.ANNOTATION)) {
      return Optional.empty();
    }
    String field = path + ".metadata.annotations[" + GpuFraction.ANNOTATION + "]";
    String value = template.getMetadata().getAnnotations().get(GpuFraction.ANNOTATION);
    Optional<String> problem = GpuFraction.problem(value);
    if (problem.isPresent()) {
      return Optional.of(new BoundsProblem(field, String.valueOf(value), problem.get()));
    }
    if (template.getSpec() != null && template.getSpec().getContainers() != null) {
      for (V1Container container : template.getSpec().getContainers()) {
        if (container != null
            && container.getResources() != null
            && (asksGpu(container.getResources().getRequests())
                || asksGpu(container.getResources().getLimits()))) {
          return Optional.of(
              new BoundsProblem(
                  field,
                  value,
                  "a template asks either a share of one GPU (this annotation) or whole GPUs ("
                      + GpuFraction.GPU_RESOURCE
                      + " in container "
                      + container.getName()
                      + "), not both"));
        }
      }
    }
    return Optional.empty();
  }

  private static boolean asksGpu(java.util.Map<String, ?> quantities) {
    return quantities != null && quantities.containsKey(GpuFraction.GPU_RESOURCE);
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
