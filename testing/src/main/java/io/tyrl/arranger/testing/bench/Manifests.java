package io.tyrl.arranger.testing.bench;

import com.google.gson.Gson;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.contract.PodLabels;
import io.tyrl.arranger.testing.TYJobBuilder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What the benchmark creates, as JSON for {@link RawApi}: plain pods (for the ceiling and
 * kube-scheduler), TYJobs of a leader and {@value #WORKERS_PER_JOB} workers (for Arranger), pods
 * shaped as the controller makes them for those TYJobs (for pods-only), and batch/v1 Jobs of 8 such
 * pods (for the jobs path).
 */
final class Manifests {

  static final int WORKERS_PER_JOB = 7;
  private static final Gson GSON = new Gson();

  private Manifests() {}

  /**
   * Plain pod i: every 8th a leader (2 cpu, 8Gi), the others workers (1 cpu, 2Gi); no node when
   * nodeName is null.
   */
  static String plainPod(int i, String nodeName) {
    boolean leader = i % 8 == 0;
    return ("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"pod-%06d\",\"labels\":{\"app\":\"bench-e2e\","
            + "\"role\":\"%s\"}},\"spec\":{%s\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"%s\","
            + "\"image\":\"registry.local/rl/%s:1\",\"resources\":{\"requests\":{\"cpu\":\"%s\",\"memory\":\"%s\"}}}]}}")
        .formatted(
            i,
            leader ? "leader" : "worker",
            nodeName == null ? "" : "\"nodeName\":\"" + nodeName + "\",",
            leader ? "learner" : "actor",
            leader ? "learner" : "actor",
            leader ? "2" : "1",
            leader ? "8Gi" : "2Gi");
  }

  /** The names of plain pods 0 to count - 1. */
  static List<String> plainPodNames(int count) {
    List<String> names = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      names.add("pod-%06d".formatted(i));
    }
    return names;
  }

  static String tyJobsPath(String namespace) {
    return "/apis/"
        + ArrangerResources.GROUP
        + "/"
        + ArrangerResources.VERSION
        + "/namespaces/"
        + namespace
        + "/"
        + ArrangerResources.TYJOBS;
  }

  static String tyJobName(int i) {
    return "job-%05d".formatted(i);
  }

  static String tyJob(String namespace, int i) {
    return GSON.toJson(
        TYJobBuilder.named(tyJobName(i))
            .namespace(namespace)
            .leader("learner", "2", "8Gi")
            .workers("actor", WORKERS_PER_JOB, "1", "2Gi")
            .build());
  }

  static String batchJobsPath(String namespace) {
    return "/apis/batch/v1/namespaces/" + namespace + "/jobs";
  }

  /**
   * batch/v1 Job i, the path a user takes without Arranger: parallelism and completions 8, so that
   * kube-controller-manager's Job controller makes 8 pods and kube-scheduler binds them. A Job has
   * one pod template, so its 8 pods are all shaped as Arranger's workers (1 cpu, 2Gi, the same
   * labels, environment and image) — one cpu and 6Gi less per 8 pods than a TYJob's leader adds,
   * which nodes of 64 cpu and 256Gi never feel.
   */
  static String batchJob(int i) {
    String job = tyJobName(i);
    Map<String, Object> container = new LinkedHashMap<>();
    container.put("name", "actor");
    container.put("image", "registry.local/rl/actor:1");
    container.put(
        "env",
        List.of(
            Map.of("name", "TYJOB_NAME", "value", job),
            Map.of("name", "TYJOB_ROLE", "value", "worker"),
            Map.of("name", "TYJOB_WORKER_SET", "value", "actor")));
    container.put("resources", Map.of("requests", Map.of("cpu", "1", "memory", "2Gi")));
    Map<String, Object> podSpec = new LinkedHashMap<>();
    podSpec.put("restartPolicy", "Never");
    podSpec.put("containers", List.of(container));
    Map<String, Object> template = new LinkedHashMap<>();
    // The Job's pods share one template, so they carry no worker index.
    template.put(
        "metadata",
        Map.of(
            "labels",
            Map.of(
                PodLabels.JOB_NAME,
                job,
                PodLabels.ROLE,
                PodLabels.WORKER,
                PodLabels.WORKER_SET,
                "actor")));
    template.put("spec", podSpec);
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("parallelism", 8);
    spec.put("completions", 8);
    spec.put("backoffLimit", 0);
    spec.put("template", template);
    Map<String, Object> manifest = new LinkedHashMap<>();
    manifest.put("apiVersion", "batch/v1");
    manifest.put("kind", "Job");
    manifest.put("metadata", Map.of("name", job));
    manifest.put("spec", spec);
    return GSON.toJson(manifest);
  }

  /**
   * One TYJob of a leader (2 cpu, 8Gi) and {@code actors} small actors (100m, 256Mi: a policy
   * network's rollout worker), with the default gang minimum, named as job 0.
   */
  static String bigTyJob(String namespace, int actors) {
    return GSON.toJson(
        TYJobBuilder.named(tyJobName(0))
            .namespace(namespace)
            .leader("learner", "2", "8Gi")
            .workers("actor", actors, "100m", "256Mi")
            .build());
  }

  /**
   * Pod i of job i / 8 as the controller creates it for {@link #tyJob}: index 0 the leader, then
   * the workers, with the job's labels, owner reference and environment.
   */
  static String arrangerShapedPod(String namespace, int i, String nodeName) {
    String job = tyJobName(i / 8);
    int slot = i % 8;
    Map<String, String> labels =
        slot == 0 ? PodLabels.ofLeader(job) : PodLabels.ofWorker(job, "actor", slot - 1);
    Map<String, String> environment = new LinkedHashMap<>();
    if (slot != 0) {
      environment.put("TYJOB_LEADER_ADDR", "10.1.%d.%d".formatted(i / 8 / 250, i / 8 % 250));
    }
    environment.put("TYJOB_NAME", job);
    environment.put("TYJOB_ROLE", slot == 0 ? "leader" : "worker");
    if (slot != 0) {
      environment.put("TYJOB_WORKER_SET", "actor");
      environment.put("TYJOB_WORKER_INDEX", Integer.toString(slot - 1));
    }
    Map<String, Object> container = new LinkedHashMap<>();
    container.put("name", slot == 0 ? "learner" : "actor");
    container.put("image", "registry.local/rl/" + (slot == 0 ? "learner" : "actor") + ":1");
    container.put(
        "env",
        environment.entrySet().stream()
            .map(e -> Map.of("name", e.getKey(), "value", e.getValue()))
            .toList());
    container.put(
        "resources",
        Map.of(
            "requests",
            slot == 0 ? Map.of("cpu", "2", "memory", "8Gi") : Map.of("cpu", "1", "memory", "2Gi")));
    Map<String, Object> owner = new LinkedHashMap<>();
    owner.put("apiVersion", ArrangerResources.API_VERSION);
    owner.put("kind", ArrangerResources.TYJOB_KIND);
    owner.put("name", job);
    owner.put(
        "uid",
        UUID.nameUUIDFromBytes((namespace + "/" + job).getBytes(StandardCharsets.UTF_8))
            .toString());
    owner.put("controller", true);
    owner.put("blockOwnerDeletion", true);
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("name", slot == 0 ? job + "-learner" : job + "-actor-" + (slot - 1));
    metadata.put("labels", labels);
    metadata.put("ownerReferences", List.of(owner));
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("nodeName", nodeName);
    spec.put("restartPolicy", "Never");
    spec.put("containers", List.of(container));
    Map<String, Object> pod = new LinkedHashMap<>();
    pod.put("apiVersion", "v1");
    pod.put("kind", "Pod");
    pod.put("metadata", metadata);
    pod.put("spec", spec);
    return GSON.toJson(pod);
  }
}
