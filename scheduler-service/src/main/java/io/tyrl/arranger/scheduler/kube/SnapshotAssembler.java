package io.tyrl.arranger.scheduler.kube;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.tyrl.arranger.model.V1alpha1Queue;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobSpec;
import io.tyrl.arranger.model.V1alpha1TYJobSpecWorkerSets;
import io.tyrl.arranger.model.V1alpha1TYJobStatus;
import io.tyrl.arranger.scheduler.api.BasicPolicy;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.GangSpec;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.JobQueuePolicy;
import io.tyrl.arranger.scheduler.api.NodeAffinityTerm;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.NodeSelectorOperator;
import io.tyrl.arranger.scheduler.api.NodeSelectorRequirement;
import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.Taint;
import io.tyrl.arranger.scheduler.api.TaintEffect;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.api.TaskRole;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import io.tyrl.arranger.scheduler.api.Toleration;
import java.time.Duration;
import java.time.Instant;
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
        JobInfo job = job(tyJob, leavingPods);
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
      usage.computeIfAbsent(nodeName, n -> new NodeUsage()).add(request,
          leavingPods.contains(pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName()));
    }
    List<NodeInfo> nodeInfos = new ArrayList<>();
    for (V1Node node : nodes) {
      nodeInfos.add(node(node, usage.getOrDefault(node.getMetadata().getName(), new NodeUsage())));
    }
    List<QueueInfo> queueInfos = queues.stream().map(SnapshotAssembler::queue).toList();
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

  /**
   * @param leavingPods namespace/name of pods on their way out: a placed task whose pod is going
   *     away (an evicted victim, say) is releasing its node, not holding it for its job
   */
  static JobInfo job(V1alpha1TYJob tyJob, Set<String> leavingPods) {
    String namespace = tyJob.getMetadata().getNamespace();
    V1alpha1TYJobSpec spec = tyJob.getSpec();
    String name = tyJob.getMetadata().getName();
    Map<String, String> allocations = tyJob.getStatus() == null || tyJob.getStatus().getAllocations() == null
        ? Map.of() : tyJob.getStatus().getAllocations();
    List<TaskInfo> tasks = new ArrayList<>();
    String leaderName = spec.getLeader().getName();
    tasks.add(task(namespace, name + "-" + leaderName, TaskRole.LEADER, leaderName, 0,
        spec.getLeader().getTemplate(), allocations, leavingPods));
    for (V1alpha1TYJobSpecWorkerSets set : spec.getWorkerSets()) {
      int counts = set.getCounts() == null ? 1 : set.getCounts();
      for (int index = 0; index < counts; index++) {
        tasks.add(task(namespace, name + "-" + set.getName() + "-" + index, TaskRole.WORKER, set.getName(), index,
            set.getTemplate(), allocations, leavingPods));
      }
    }
    BasicPolicy basicPolicy = spec.getSchedulerPolicy() == null || spec.getSchedulerPolicy().getBasicPolicy() == null
        ? null : BasicPolicy.parse(spec.getSchedulerPolicy().getBasicPolicy().getValue());
    JobQueuePolicy queuePolicy = spec.getSchedulerPolicy() == null
        || spec.getSchedulerPolicy().getJobQueuePolicy() == null
        ? null : JobQueuePolicy.parse(spec.getSchedulerPolicy().getJobQueuePolicy().getValue());
    GangSpec gang = spec.getGang() == null ? GangSpec.STRICT : new GangSpec(
        spec.getGang().getMode() == null ? GangMode.STRICT : GangMode.parse(spec.getGang().getMode().getValue()),
        spec.getGang().getWaitTime() == null ? null : GoDuration.parse(spec.getGang().getWaitTime(), "spec.gang.waitTime"),
        spec.getGang().getGroup());
    Instant waitingSince = tyJob.getStatus() == null || tyJob.getStatus().getScheduling() == null
        || tyJob.getStatus().getScheduling().getWaitingSince() == null
        ? null : tyJob.getStatus().getScheduling().getWaitingSince().toInstant();
    Instant created = tyJob.getMetadata().getCreationTimestamp() == null
        ? Instant.EPOCH : tyJob.getMetadata().getCreationTimestamp().toInstant();
    Map<String, String> annotations = tyJob.getMetadata().getAnnotations();
    boolean preemptable = JobInfo.preemptableFromAnnotation(
        annotations == null ? null : annotations.get(JobInfo.PREEMPTABLE_ANNOTATION));
    boolean awaitingVictims = tyJob.getStatus() != null && tyJob.getStatus().getScheduling() != null
        && ReasonCode.WAITING_FOR_VICTIMS.statusValue().equals(tyJob.getStatus().getScheduling().getReason());
    return new JobInfo(tyJob.getMetadata().getNamespace(), name, tyJob.getMetadata().getUid(), spec.getQueue(),
        spec.getPriority() == null ? 5 : spec.getPriority(), created,
        spec.getMinWorkersNum() == null ? 1 : spec.getMinWorkersNum(), basicPolicy, queuePolicy, gang, waitingSince,
        tasks, preemptable, awaitingVictims);
  }

  private static TaskInfo task(String namespace, String podName, TaskRole role, String roleName, int index,
      V1PodTemplateSpec template, Map<String, String> allocations, Set<String> leavingPods) {
    V1PodSpec podSpec = template == null ? null : template.getSpec();
    String node = allocations.get(podName);
    TaskStatus status = node == null ? TaskStatus.PENDING
        : leavingPods.contains(namespace + "/" + podName) ? TaskStatus.RELEASING : TaskStatus.ALLOCATED;
    return new TaskInfo(podName, role, roleName, index, PodRequests.of(podSpec), constraints(podSpec), status, node);
  }

  private static PlacementConstraints constraints(V1PodSpec spec) {
    if (spec == null) {
      return PlacementConstraints.NONE;
    }
    List<NodeAffinityTerm> terms = new ArrayList<>();
    if (spec.getAffinity() != null && spec.getAffinity().getNodeAffinity() != null
        && spec.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() != null) {
      for (V1NodeSelectorTerm term : spec.getAffinity().getNodeAffinity()
          .getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms()) {
        List<NodeSelectorRequirement> requirements = new ArrayList<>();
        for (V1NodeSelectorRequirement requirement : term.getMatchExpressions() == null
            ? List.<V1NodeSelectorRequirement>of() : term.getMatchExpressions()) {
          requirements.add(new NodeSelectorRequirement(requirement.getKey(),
              NodeSelectorOperator.fromKubernetes(requirement.getOperator()),
              requirement.getValues() == null ? List.of() : requirement.getValues()));
        }
        terms.add(new NodeAffinityTerm(requirements));
      }
    }
    List<Toleration> tolerations = spec.getTolerations() == null ? List.of() : spec.getTolerations().stream()
        .map(t -> new Toleration(t.getKey(),
            "Exists".equals(t.getOperator()) ? Toleration.Operator.EXISTS : Toleration.Operator.EQUAL,
            t.getValue(), t.getEffect() == null || t.getEffect().isEmpty() ? null : TaintEffect.fromKubernetes(t.getEffect())))
        .toList();
    return new PlacementConstraints(spec.getNodeSelector(), terms, tolerations);
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
        unschedulable, usage.pods);
  }

  private static long podCapacity(V1Node node) {
    var allocatable = node.getStatus().getAllocatable();
    return allocatable == null || allocatable.get(Resource.PODS) == null
        ? 110 : allocatable.get(Resource.PODS).getNumber().longValue();
  }

  private static QueueInfo queue(V1alpha1Queue queue) {
    var spec = queue.getSpec();
    Resource capability = spec == null || spec.getCapability() == null ? null
        : PodRequests.quantities(spec.getCapability());
    JobQueuePolicy policy = spec == null || spec.getJobQueuePolicy() == null
        ? null : JobQueuePolicy.parse(spec.getJobQueuePolicy().getValue());
    return new QueueInfo(queue.getMetadata().getName(), spec == null || spec.getWeight() == null ? 1 : spec.getWeight(),
        capability, spec == null || spec.getReclaimable() == null || spec.getReclaimable(), policy);
  }

  private static final class NodeUsage {
    private Resource used = Resource.EMPTY;
    private Resource releasing = Resource.EMPTY;
    private int pods;

    void add(Resource request, boolean terminating) {
      used = used.plus(request);
      pods++;
      if (terminating) {
        releasing = releasing.plus(request);
      }
    }
  }
}
