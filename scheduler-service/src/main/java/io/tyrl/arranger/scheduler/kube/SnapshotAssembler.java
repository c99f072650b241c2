package io.tyrl.arranger.scheduler.kube;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.tyrl.arranger.model.V1alpha1Queue;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobStatus;
import io.tyrl.arranger.scheduler.api.ExistingPod;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.Taint;
import io.tyrl.arranger.scheduler.api.TaintEffect;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns what the informers hold into the core's immutable {@link Snapshot}.
 *
 * <p>Allocations in a TYJob's status are tasks already placed, so nothing is placed twice across
 * restarts. Every other bound pod that has not ended uses its node's capacity — pods Arranger does
 * not own included — and a pod being deleted counts as releasing. A job that cannot be read (a bad
 * quantity in a template, say) is left out and reported, and the others go on.
 */
public final class SnapshotAssembler {

  /** A TYJob the scheduler could not turn into a job, with the reason. */
  public record UnreadableJob(String namespace, String name, String problem) {
    public String key() {
      return namespace + "/" + name;
    }
  }

  /** The snapshot, the jobs left out of it, and every schedulable TYJob (readable or not) by namespace/name. */
  public record Assembly(Snapshot snapshot, List<UnreadableJob> unreadable, Map<String, V1alpha1TYJob> jobsByKey) {}

  private SnapshotAssembler() {}

  public static Assembly assemble(List<V1Node> nodes, List<V1Pod> pods, List<V1alpha1TYJob> tyJobs,
      List<V1alpha1Queue> queues) {
    Set<String> leavingPods = leavingPods(pods, tyJobs);
    List<JobInfo> jobs = new ArrayList<>();
    List<UnreadableJob> unreadable = new ArrayList<>();
    Map<String, V1alpha1TYJob> jobsByKey = new HashMap<>();
    Set<String> placedPods = new HashSet<>();
    for (V1alpha1TYJob tyJob : tyJobs) {
      if (!schedulable(tyJob)) {
        continue;
      }
      String namespace = tyJob.getMetadata().getNamespace();
      String name = tyJob.getMetadata().getName();
      jobsByKey.put(namespace + "/" + name, tyJob);
      try {
        JobInfo job = JobReader.job(tyJob, leavingPods);
        jobs.add(job);
        for (TaskInfo task : job.tasks()) {
          if (task.status() != TaskStatus.PENDING) {
            placedPods.add(namespace + "/" + task.podName());
          }
        }
      } catch (RuntimeException e) {
        unreadable.add(new UnreadableJob(namespace, name, e.getMessage()));
      }
    }
    Map<String, NodeUsage> usage = new HashMap<>();
    for (V1Pod pod : pods) {
      String nodeName = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
      if (nodeName == null || ended(pod)
          || placedPods.contains(pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName())) {
        continue;
      }
      Resource request = PodRequests.of(pod.getSpec());
      NodeUsage nodeUsage = usage.computeIfAbsent(nodeName, n -> new NodeUsage());
      nodeUsage.add(request, leavingPods.contains(pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName()));
      nodeUsage.describe(pod);
    }
    List<NodeInfo> nodeInfos = new ArrayList<>();
    for (V1Node node : nodes) {
      nodeInfos.add(node(node, usage.getOrDefault(node.getMetadata().getName(), new NodeUsage())));
    }
    List<QueueInfo> queueInfos = queues.stream().map(QueueReader::queue).toList();
    return new Assembly(new Snapshot(nodeInfos, jobs, queueInfos), unreadable, jobsByKey);
  }

  /**
   * Pods on their way out: being deleted, or named as a victim in some job's {@code status.victims}
   * and not deleted yet. Their room is releasing — counting them as held would make a preemptor
   * choose new victims while the first ones are still leaving.
   */
  static Set<String> leavingPods(List<V1Pod> pods, List<V1alpha1TYJob> tyJobs) {
    Set<String> named = new HashSet<>();
    for (V1alpha1TYJob job : tyJobs) {
      if (job.getStatus() != null && job.getStatus().getVictims() != null) {
        job.getStatus().getVictims().forEach(victim -> victim.getPods()
            .forEach(pod -> named.add(victim.getNamespace() + "/" + pod)));
      }
    }
    Set<String> leaving = new HashSet<>();
    for (V1Pod pod : pods) {
      String key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
      if (pod.getMetadata().getDeletionTimestamp() != null || named.contains(key)) {
        leaving.add(key);
      }
    }
    return leaving;
  }

  /** Jobs that ended, or that their user is stopping, take no new placements. */
  static boolean schedulable(V1alpha1TYJob job) {
    V1alpha1TYJobStatus status = job.getStatus();
    if (status != null && status.getStage() != null) {
      switch (status.getStage()) {
        case SUCCEEDED, FAILED -> {
          return false;
        }
        default -> { }
      }
    }
    return job.getSpec() != null && !Boolean.TRUE.equals(job.getSpec().getTerminating());
  }

  private static boolean ended(V1Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  private static NodeInfo node(V1Node node, NodeUsage usage) {
    String name = node.getMetadata().getName();
    List<Taint> taints = node.getSpec() == null || node.getSpec().getTaints() == null ? List.of()
        : node.getSpec().getTaints().stream()
            .map(t -> new Taint(t.getKey(), t.getValue(), TaintEffect.fromKubernetes(t.getEffect()))).toList();
    Resource allocatable = node.getStatus() == null ? Resource.EMPTY
        : PodRequests.quantities(node.getStatus().getAllocatable())
            .plus(Resource.ofCanonical(Map.of(Resource.PODS, podCapacity(node))));
    boolean ready = node.getStatus() != null && node.getStatus().getConditions() != null
        && node.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    boolean unschedulable = node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
    return new NodeInfo(name, node.getMetadata().getLabels(), taints, allocatable, usage.used, usage.releasing, ready,
        unschedulable, usage.pods, usage.existingPods);
  }

  private static long podCapacity(V1Node node) {
    var allocatable = node.getStatus().getAllocatable();
    return allocatable == null || allocatable.get(Resource.PODS) == null
        ? 110 : allocatable.get(Resource.PODS).getNumber().longValue();
  }

  private static final class NodeUsage {
    private Resource used = Resource.EMPTY;
    private Resource releasing = Resource.EMPTY;
    private int pods;
    private final List<ExistingPod> existingPods = new ArrayList<>();

    /** What inter-pod predicates need of a pod the snapshot's jobs do not account for: labels, host ports, anti-affinity. */
    void describe(V1Pod pod) {
      existingPods.add(new ExistingPod(pod.getMetadata().getNamespace(), pod.getMetadata().getLabels(),
          PlacementConstraintsReader.hostPorts(pod.getSpec()), PlacementConstraintsReader.requiredAntiAffinity(pod.getSpec())));
    }

    void add(Resource request, boolean terminating) {
      used = used.plus(request);
      pods++;
      if (terminating) {
        releasing = releasing.plus(request);
      }
    }
  }
}
