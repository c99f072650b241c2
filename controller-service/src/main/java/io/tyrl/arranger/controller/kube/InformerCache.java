package io.tyrl.arranger.controller.kube;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.tyrl.arranger.controller.lifecycle.Stage;
import io.tyrl.arranger.crd.contract.PodLabels;
import io.tyrl.arranger.kube.ScopedInformer;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Read access to what the informers hold: TYJobs (as raw objects, see {@link JobViewMapper}) and
 * the pods carrying Arranger's job-name label, indexed by their job, in the namespaces the
 * controller watches.
 */
public final class InformerCache {

  /** Index of pods by the key ({@code namespace/name}) of the job their label names. */
  public static final String BY_JOB = "arranger-job";
  /** Index of pods by the node they are bound to. */
  public static final String BY_NODE = "arranger-node";

  private final ScopedInformer<DynamicKubernetesObject> jobs;
  private final ScopedInformer<V1Pod> pods;
  private final Map<String, StageAtVersion> stages = new ConcurrentHashMap<>();

  public InformerCache(ScopedInformer<DynamicKubernetesObject> jobs, ScopedInformer<V1Pod> pods) {
    this.jobs = jobs;
    this.pods = pods;
  }

  /** Adds the job index to the pod informer; must run before the informer starts. */
  public static void indexPodsByJob(ScopedInformer<V1Pod> pods) {
    pods.addIndexers(Map.of(
        BY_JOB, pod -> jobKeyOf(pod).map(List::of).orElse(List.of()),
        BY_NODE, pod -> pod.getSpec() == null || pod.getSpec().getNodeName() == null
            ? List.of() : List.of(pod.getSpec().getNodeName())));
  }

  /** Keys of the jobs with a pod bound to that node. */
  public List<String> jobsOnNode(String nodeName) {
    return pods.byIndex(BY_NODE, nodeName).stream().map(InformerCache::jobKeyOf).flatMap(Optional::stream).distinct().toList();
  }

  /** {@code namespace/job} from the pod's job-name label. */
  public static Optional<String> jobKeyOf(V1Pod pod) {
    if (pod.getMetadata() == null || pod.getMetadata().getLabels() == null) {
      return Optional.empty();
    }
    String job = pod.getMetadata().getLabels().get(PodLabels.JOB_NAME);
    return job == null || job.isEmpty() ? Optional.empty() : Optional.of(pod.getMetadata().getNamespace() + "/" + job);
  }

  public static String keyOf(DynamicKubernetesObject job) {
    return job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
  }

  public boolean hasSynced() {
    return jobs.hasSynced() && pods.hasSynced();
  }

  public Optional<DynamicKubernetesObject> job(String key) {
    return Optional.ofNullable(jobs.getByKey(key));
  }

  public List<String> jobKeys() {
    return jobs.listKeys();
  }

  /** The pods labelled with the job's name (possibly including leftovers of an earlier job of that name). */
  public List<V1Pod> podsOf(String jobKey) {
    return pods.byIndex(BY_JOB, jobKey);
  }

  public Optional<V1Pod> pod(String namespace, String name) {
    return Optional.ofNullable(pods.getByKey(namespace + "/" + name));
  }

  /**
   * Cached jobs by {@code status.stage}; a job without a (known) stage counts as Pending. Each job's
   * stage is read from its JSON once per resourceVersion: a scrape reads this once per stage.
   */
  public Map<Stage, Long> jobsByStage() {
    Map<Stage, Long> counts = new EnumMap<>(Stage.class);
    Set<String> present = new HashSet<>();
    for (DynamicKubernetesObject job : jobs.list()) {
      String key = keyOf(job);
      String version = job.getMetadata() == null ? null : job.getMetadata().getResourceVersion();
      present.add(key);
      StageAtVersion known = stages.get(key);
      if (known == null || version == null || !version.equals(known.resourceVersion())) {
        String stage = RawJson.string(RawJson.objectOrEmpty(job.getRaw(), "status"), "stage").orElse(null);
        known = new StageAtVersion(version, Stage.fromWireNameOrPending(stage));
        stages.put(key, known);
      }
      counts.merge(known.stage(), 1L, Long::sum);
    }
    stages.keySet().retainAll(present);
    return counts;
  }

  private record StageAtVersion(String resourceVersion, Stage stage) {}
}
