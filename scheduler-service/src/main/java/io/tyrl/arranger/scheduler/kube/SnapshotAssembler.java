package io.tyrl.arranger.scheduler.kube;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.tyrl.arranger.crd.bounds.BoundsProblem;
import io.tyrl.arranger.crd.contract.GpuShareDevices;
import io.tyrl.arranger.crd.read.TYJobDecoder;
import io.tyrl.arranger.crd.read.TYJobModelBounds;
import io.tyrl.arranger.crd.reasons.ProblemList;
import io.tyrl.arranger.model.V1alpha1Queue;
import io.tyrl.arranger.model.V1alpha1TYJob;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns what the informers hold (plus the scheduler's assumed statuses) into the core's immutable
 * {@link Snapshot}.
 *
 * <p>Allocations in a TYJob's status are tasks already placed, so nothing is placed twice across
 * restarts. A placed task counts on the node its pod is bound to once the pod exists, else on its
 * allocation. Every other bound pod that has not ended uses its node's capacity — pods Arranger
 * does not own included, GPU share reservations not (their device is counted by the shares seated
 * on it) — and a pod being deleted, or chosen as a victim, counts as releasing. A job that cannot
 * be read (a template without containers, a bad quantity) is left out and reported, and the others
 * go on.
 */
public final class SnapshotAssembler {

  /** A TYJob the scheduler could not turn into a job, with the reason naming the field. */
  public record UnreadableJob(String namespace, String name, String problem) {
    public String key() {
      return namespace + "/" + name;
    }
  }

  /**
   * The snapshot, the jobs left out of it, and every schedulable TYJob (readable or not) by
   * namespace/name.
   */
  public record Assembly(
      Snapshot snapshot, List<UnreadableJob> unreadable, Map<String, V1alpha1TYJob> jobsByKey) {}

  private SnapshotAssembler() {}

  /** For jobs that all decoded (tests, tools), at the wall clock's time. */
  public static Assembly assemble(
      List<V1Node> nodes,
      List<V1Pod> pods,
      List<V1alpha1TYJob> tyJobs,
      List<V1alpha1Queue> queues) {
    return assembleDecoded(
        nodes,
        pods,
        tyJobs.stream().map(job -> new TYJobDecoder.Decoded(job, Optional.empty())).toList(),
        queues.stream().map(QueueReader::queue).toList(),
        Instant.now());
  }

  /**
   * What cycles derive from pods, nodes and jobs that have not changed since: each pod's request
   * (by UID), each node's allocatable (by name), both kept per resourceVersion; what each pod
   * template asks for, per template object.
   */
  record Memo(
      VersionedMemo<Resource> podRequests,
      VersionedMemo<Resource> nodeAllocatable,
      IdentityMemo<V1PodTemplateSpec, JobReader.TemplateRequirements> templates) {

    Memo() {
      this(new VersionedMemo<>(), new VersionedMemo<>(), new IdentityMemo<>());
    }

    void sweep() {
      podRequests.sweep();
      nodeAllocatable.sweep();
      templates.sweep();
    }
  }

  /**
   * @param queues the Queues read ({@link QueueReader}); those that could not be are left out
   * @param now the cycle's time, the one its decisions are made at
   */
  static Assembly assembleDecoded(
      List<V1Node> nodes,
      List<V1Pod> pods,
      List<TYJobDecoder.Decoded> tyJobs,
      List<QueueInfo> queues,
      Instant now) {
    return assembleDecoded(nodes, pods, tyJobs, queues, now, new Memo());
  }

  /**
   * @param memo what earlier cycles derived from the same pods and nodes; swept once this cycle has
   *     asked
   */
  static Assembly assembleDecoded(
      List<V1Node> nodes,
      List<V1Pod> pods,
      List<TYJobDecoder.Decoded> tyJobs,
      List<QueueInfo> queues,
      Instant now,
      Memo memo) {
    LivePods livePods =
        LivePods.of(
            pods,
            tyJobs.stream()
                .map(decoded -> decoded.job().getStatus())
                .filter(status -> status != null && status.getVictims() != null)
                .map(status -> status.getVictims())
                .toList());
    List<JobInfo> jobs = new ArrayList<>();
    List<UnreadableJob> unreadable = new ArrayList<>();
    Map<String, V1alpha1TYJob> jobsByKey = new HashMap<>();
    Set<LivePods.PodKey> placedPods = new HashSet<>();
    for (TYJobDecoder.Decoded decoded : tyJobs) {
      V1alpha1TYJob tyJob = decoded.job();
      if (ended(tyJob)) {
        continue;
      }
      String namespace = tyJob.getMetadata().getNamespace();
      String name = tyJob.getMetadata().getName();
      if (decoded.problem().isPresent()) {
        jobsByKey.put(decoded.key(), tyJob);
        unreadable.add(new UnreadableJob(namespace, name, decoded.problem().get()));
        continue;
      }
      if (!schedulable(tyJob)) {
        continue;
      }
      jobsByKey.put(decoded.key(), tyJob);
      // Checked before one task per worker is made: an older CRD may let counts 2147483647 through.
      List<BoundsProblem> outOfBounds = TYJobModelBounds.problems(tyJob);
      if (!outOfBounds.isEmpty()) {
        unreadable.add(new UnreadableJob(namespace, name, describe(outOfBounds)));
        continue;
      }
      try {
        JobInfo job = JobReader.job(tyJob, livePods, now, memo.templates());
        jobs.add(job);
        for (TaskInfo task : job.tasks()) {
          if (task.status() != TaskStatus.PENDING) {
            placedPods.add(new LivePods.PodKey(namespace, task.podName()));
          }
        }
      } catch (RuntimeException e) {
        unreadable.add(
            new UnreadableJob(
                namespace,
                name,
                e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
      }
    }
    Map<String, NodeUsage> usage = new HashMap<>();
    for (V1Pod pod : pods) {
      String namespace = pod.getMetadata().getNamespace();
      String name = pod.getMetadata().getName();
      if (placedPods.contains(new LivePods.PodKey(namespace, name))) {
        continue;
      }
      if (GpuShareDevices.isReservation(pod.getMetadata().getLabels())) {
        // Its device is counted by the shares seated on it (status.gpuDevices), not as a whole GPU
        // some other owner holds.
        continue;
      }
      livePods
          .get(namespace, name)
          .ifPresent(
              live -> {
                NodeUsage nodeUsage = usage.computeIfAbsent(live.node(), n -> new NodeUsage());
                nodeUsage.add(
                    memo.podRequests()
                        .get(
                            pod.getMetadata().getUid(),
                            pod.getMetadata().getResourceVersion(),
                            () -> PodRequests.of(pod.getSpec())),
                    live.leaving());
                nodeUsage.describe(pod);
              });
    }
    List<NodeInfo> nodeInfos = new ArrayList<>();
    for (V1Node node : nodes) {
      nodeInfos.add(
          node(
              node,
              usage.getOrDefault(node.getMetadata().getName(), new NodeUsage()),
              memo.nodeAllocatable()));
    }
    memo.sweep();
    return new Assembly(new Snapshot(nodeInfos, jobs, queues), unreadable, jobsByKey);
  }

  /** The first problems, in the form the controller's validation condition uses. */
  private static String describe(List<BoundsProblem> problems) {
    return ProblemList.join(problems, 3);
  }

  /**
   * A job that has ended takes no placements, and an unreadable one that ended needs no more
   * reports.
   */
  private static boolean ended(V1alpha1TYJob job) {
    return JobReader.stage(job.getStatus()).isTerminal();
  }

  /** Jobs that ended, or that their user is stopping, take no new placements. */
  static boolean schedulable(V1alpha1TYJob job) {
    return !ended(job)
        && job.getSpec() != null
        && !Boolean.TRUE.equals(job.getSpec().getTerminating());
  }

  private static NodeInfo node(V1Node node, NodeUsage usage, VersionedMemo<Resource> allocatables) {
    String name = node.getMetadata().getName();
    List<Taint> taints =
        node.getSpec() == null || node.getSpec().getTaints() == null
            ? List.of()
            : node.getSpec().getTaints().stream()
                .map(
                    t ->
                        new Taint(
                            t.getKey(), t.getValue(), TaintEffect.fromKubernetes(t.getEffect())))
                .toList();
    Resource allocatable =
        allocatables.get(
            name,
            node.getMetadata().getResourceVersion(),
            () ->
                node.getStatus() == null
                    ? Resource.EMPTY
                    : PodRequests.quantities(node.getStatus().getAllocatable())
                        .plus(Resource.ofCanonical(Map.of(Resource.PODS, podCapacity(node)))));
    boolean ready =
        node.getStatus() != null
            && node.getStatus().getConditions() != null
            && node.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    boolean unschedulable =
        node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
    return new NodeInfo(
        name,
        node.getMetadata().getLabels(),
        taints,
        allocatable,
        usage.used,
        usage.releasing,
        ready,
        unschedulable,
        usage.pods,
        usage.existingPods);
  }

  private static long podCapacity(V1Node node) {
    var allocatable = node.getStatus().getAllocatable();
    return allocatable == null || allocatable.get(Resource.PODS) == null
        ? 110
        : allocatable.get(Resource.PODS).getNumber().longValue();
  }

  private static final class NodeUsage {
    private Resource used = Resource.EMPTY;
    private Resource releasing = Resource.EMPTY;
    private int pods;
    private final List<ExistingPod> existingPods = new ArrayList<>();

    /**
     * What inter-pod predicates need of a pod the snapshot's jobs do not account for: labels, host
     * ports, anti-affinity.
     */
    void describe(V1Pod pod) {
      existingPods.add(
          new ExistingPod(
              pod.getMetadata().getNamespace(),
              pod.getMetadata().getLabels(),
              PlacementConstraintsReader.hostPorts(pod.getSpec()),
              PlacementConstraintsReader.requiredAntiAffinity(pod.getSpec())));
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
