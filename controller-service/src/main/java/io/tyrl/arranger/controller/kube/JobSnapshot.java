package io.tyrl.arranger.controller.kube;

import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Volume;
import io.tyrl.arranger.controller.lifecycle.observe.JobView;
import io.tyrl.arranger.crd.contract.status.VictimEntry;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One TYJob as read from the informer cache: the planner's {@link JobView}, plus what only the
 * adapter needs — the identity for owner references and optimistic concurrency, and the pod
 * templates and volumes the pod factory builds pods from.
 *
 * @param resourceVersion guards the status patch: a concurrent write turns it into a 409
 * @param leaderTemplate empty when the template could not be read (the view then fails validation)
 * @param workerTemplates WorkerSet name → template, for the sets whose template could be read
 * @param victims preemption victims the scheduler chose for this job ({@code status.victims})
 * @param gpuDevices pod name → the device of its node the scheduler seated its GPU share on ({@code
 *     status.gpuDevices})
 */
public record JobSnapshot(
    String namespace,
    String name,
    String uid,
    String resourceVersion,
    Optional<Instant> createdAt,
    JobView view,
    Optional<V1PodTemplateSpec> leaderTemplate,
    Map<String, V1PodTemplateSpec> workerTemplates,
    List<V1Volume> volumes,
    List<VictimEntry> victims,
    Map<String, Integer> gpuDevices) {

  public JobSnapshot {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    uid = Objects.requireNonNullElse(uid, "");
    resourceVersion = Objects.requireNonNullElse(resourceVersion, "");
    createdAt = createdAt == null ? Optional.empty() : createdAt;
    Objects.requireNonNull(view, "view");
    leaderTemplate = leaderTemplate == null ? Optional.empty() : leaderTemplate;
    workerTemplates = workerTemplates == null ? Map.of() : Map.copyOf(workerTemplates);
    volumes = volumes == null ? List.of() : List.copyOf(volumes);
    victims = victims == null ? List.of() : List.copyOf(victims);
    gpuDevices = gpuDevices == null ? Map.of() : Map.copyOf(gpuDevices);
  }

  public String key() {
    return namespace + "/" + name;
  }
}
