package io.tyrl.arranger.controller.kube;

import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Volume;
import io.tyrl.arranger.controller.lifecycle.observe.PodSlot;
import io.tyrl.arranger.controller.lifecycle.plan.PlannedAction;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.contract.GpuShareDevices;
import io.tyrl.arranger.crd.contract.PodLabels;
import io.tyrl.arranger.kube.ModelGson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the pod of a {@link PlannedAction.CreatePod} from the job's template.
 *
 * <p>{@code restartPolicy} is always {@code Never}: the controller, not the kubelet, restarts a
 * job's pods. A kubelet restarting a container in place would hide failures from {@code
 * restartLimit}, and a leader restarted in place may come back with state its workers no longer
 * match; a failed pod instead ends Failed, is counted, and is replaced through the scheduler, which
 * may pick a different node.
 */
public final class PodFactory {

  public V1Pod build(JobSnapshot job, PlannedAction.CreatePod create) {
    return build(job, create, new GpuShareReservations.Device.NotShared());
  }

  /**
   * @param device for a pod sharing a GPU, the device its reservation holds: the pod is told its ID
   *     in {@value GpuShareDevices#VISIBLE_DEVICES} (replacing any of the template's) and carries
   *     the device's index and ID as annotations
   */
  public V1Pod build(
      JobSnapshot job, PlannedAction.CreatePod create, GpuShareReservations.Device device) {
    V1PodTemplateSpec template = copy(templateFor(job, create.slot()));
    V1ObjectMeta templateMetadata =
        template.getMetadata() == null ? new V1ObjectMeta() : template.getMetadata();
    V1PodSpec spec = template.getSpec() == null ? new V1PodSpec() : template.getSpec();

    Map<String, String> labels = new LinkedHashMap<>();
    if (templateMetadata.getLabels() != null) {
      labels.putAll(templateMetadata.getLabels());
    }
    labels.putAll(labelsFor(job, create.slot()));
    V1ObjectMeta metadata =
        new V1ObjectMeta()
            .name(create.podName())
            .namespace(job.namespace())
            .labels(labels)
            .annotations(
                templateMetadata.getAnnotations() == null
                        || templateMetadata.getAnnotations().isEmpty()
                    ? null
                    : new LinkedHashMap<>(templateMetadata.getAnnotations()))
            .ownerReferences(List.of(ownerReference(job)));

    spec.setNodeName(create.nodeName());
    spec.setRestartPolicy("Never");
    // client-java 24 starts this map empty, and the API server refuses an overhead without a
    // RuntimeClass.
    spec.setOverhead(null);
    spec.setVolumes(volumes(spec.getVolumes(), job.volumes()));
    List<V1EnvVar> environment =
        new ArrayList<>(
            create.environment().variables().entrySet().stream()
                .map(variable -> new V1EnvVar().name(variable.getKey()).value(variable.getValue()))
                .toList());
    if (device instanceof GpuShareReservations.Device.Ready ready) {
      environment.add(new V1EnvVar().name(GpuShareDevices.VISIBLE_DEVICES).value(ready.id()));
      Map<String, String> annotations =
          metadata.getAnnotations() == null
              ? new LinkedHashMap<>()
              : new LinkedHashMap<>(metadata.getAnnotations());
      annotations.put(GpuShareDevices.DEVICE_ANNOTATION, String.valueOf(ready.index()));
      annotations.put(GpuShareDevices.DEVICE_ID_ANNOTATION, ready.id());
      metadata.setAnnotations(annotations);
    }
    addEnvironment(spec.getContainers(), environment);
    addEnvironment(spec.getInitContainers(), environment);
    return new V1Pod().apiVersion("v1").kind("Pod").metadata(metadata).spec(spec);
  }

  static Map<String, String> labelsFor(JobSnapshot job, PodSlot slot) {
    return slot instanceof PodSlot.Worker worker
        ? PodLabels.ofWorker(job.name(), worker.workerSet(), worker.index())
        : PodLabels.ofLeader(job.name());
  }

  private static V1PodTemplateSpec templateFor(JobSnapshot job, PodSlot slot) {
    V1PodTemplateSpec template =
        slot instanceof PodSlot.Worker worker
            ? job.workerTemplates().get(worker.workerSet())
            : job.leaderTemplate().orElse(null);
    if (template == null) {
      // Validation fails a job whose templates cannot be read, so a plan never asks for this.
      throw new IllegalStateException(
          "TYJob " + job.key() + " has no readable template for pod " + slot.podName());
    }
    return template;
  }

  private static V1OwnerReference ownerReference(JobSnapshot job) {
    return new V1OwnerReference()
        .apiVersion(ArrangerResources.API_VERSION)
        .kind(ArrangerResources.TYJOB_KIND)
        .name(job.name())
        .uid(job.uid())
        .controller(true)
        .blockOwnerDeletion(true);
  }

  private static List<V1Volume> volumes(List<V1Volume> own, List<V1Volume> jobVolumes) {
    List<V1Volume> volumes = new ArrayList<>(own == null ? List.of() : own);
    jobVolumes.forEach(volume -> volumes.add(copy(volume, V1Volume.class)));
    return volumes.isEmpty() ? null : volumes;
  }

  /**
   * Arranger's variables replace any of the same name in the template: the controller's values are
   * the truth.
   */
  private static void addEnvironment(List<V1Container> containers, List<V1EnvVar> environment) {
    if (containers == null) {
      return;
    }
    for (V1Container container : containers) {
      List<V1EnvVar> merged = new ArrayList<>();
      if (container.getEnv() != null) {
        container.getEnv().stream()
            .filter(
                variable ->
                    environment.stream()
                        .noneMatch(ours -> ours.getName().equals(variable.getName())))
            .forEach(merged::add);
      }
      environment.forEach(
          variable ->
              merged.add(new V1EnvVar().name(variable.getName()).value(variable.getValue())));
      container.setEnv(merged);
    }
  }

  /**
   * The templates are shared with the informer cache's snapshot; pods are built from copies, made
   * with {@link ModelGson} (client-java's Gson copies each nested object into a tree on the way).
   */
  private static V1PodTemplateSpec copy(V1PodTemplateSpec template) {
    return copy(template, V1PodTemplateSpec.class);
  }

  private static <T> T copy(T value, Class<T> type) {
    return ModelGson.get().fromJson(ModelGson.get().toJsonTree(value), type);
  }
}
