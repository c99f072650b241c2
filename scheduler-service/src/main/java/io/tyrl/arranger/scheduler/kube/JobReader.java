package io.tyrl.arranger.scheduler.kube;

import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.tyrl.arranger.crd.bounds.GpuFraction;
import io.tyrl.arranger.crd.contract.GoDurations;
import io.tyrl.arranger.crd.contract.PodNames;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.contract.TYJobAnnotations;
import io.tyrl.arranger.crd.contract.TYJobDefaults;
import io.tyrl.arranger.crd.contract.status.StatusFields;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobSpec;
import io.tyrl.arranger.model.V1alpha1TYJobSpecWorkerSets;
import io.tyrl.arranger.model.V1alpha1TYJobStatus;
import io.tyrl.arranger.model.V1alpha1TYJobStatusAvoidNodes;
import io.tyrl.arranger.model.V1alpha1TYJobStatusConditions;
import io.tyrl.arranger.scheduler.api.BasicPolicy;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.GangSpec;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.JobQueuePolicy;
import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import io.tyrl.arranger.scheduler.api.PreemptionPolicy;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.api.TaskRole;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import io.tyrl.arranger.scheduler.api.TopologyRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Reads a TYJob into the core's {@link JobInfo}: one task per pod the spec asks for. */
final class JobReader {

  private JobReader() {}

  /**
   * A map the scheduler recorded in the job's status (GPU device seats, topology domains) without
   * its entries lacking a key or value, or empty when none was recorded: a pod without a seat is
   * seated by the device rule, a level without a domain placed by the domain order.
   */
  static <V> Map<String, V> recorded(Map<String, V> stored) {
    if (stored == null || stored.isEmpty()) {
      return Map.of();
    }
    Map<String, V> kept = new HashMap<>();
    stored.forEach(
        (key, value) -> {
          if (key != null && value != null) {
            kept.put(key, value);
          }
        });
    return kept;
  }

  /**
   * @param livePods the pods bound now: a placed task whose pod exists counts on the node the pod
   *     is bound to, and is releasing when its pod is on the way out (an evicted victim, say)
   * @param now the cycle's time: entries of {@code status.avoidNodes} that end by then are no
   *     longer avoided
   */
  static JobInfo job(V1alpha1TYJob tyJob, LivePods livePods, Instant now) {
    return job(tyJob, livePods, now, new IdentityMemo<>());
  }

  /**
   * @param templates what earlier cycles read from the same template objects (the job unchanged
   *     since)
   */
  static JobInfo job(
      V1alpha1TYJob tyJob,
      LivePods livePods,
      Instant now,
      IdentityMemo<V1PodTemplateSpec, TemplateRequirements> templates) {
    String namespace = tyJob.getMetadata().getNamespace();
    V1alpha1TYJobSpec spec = tyJob.getSpec();
    String name = tyJob.getMetadata().getName();
    Map<String, String> allocations =
        tyJob.getStatus() == null || tyJob.getStatus().getAllocations() == null
            ? Map.of()
            : tyJob.getStatus().getAllocations();
    List<TaskInfo> tasks = new ArrayList<>();
    Map<String, TopologyRequest> workerSetTopology = new HashMap<>();
    String leaderName = spec.getLeader().getName();
    Map<String, String> avoided = avoidedNodes(tyJob.getStatus(), now);
    tasks.add(
        task(
            namespace,
            name,
            PodNames.leader(name, leaderName),
            TaskRole.LEADER,
            leaderName,
            0,
            spec.getLeader().getTemplate(),
            TemplateRequirements.of(spec.getLeader().getTemplate(), avoided, templates),
            allocations,
            livePods));
    for (V1alpha1TYJobSpecWorkerSets set : spec.getWorkerSets()) {
      int counts = set.getCounts() == null ? TYJobDefaults.WORKER_SET_COUNTS : set.getCounts();
      if (set.getTopology() != null) {
        workerSetTopology.put(
            set.getName(), new TopologyRequest(null, set.getTopology().getPreferred()));
      }
      // Read once per set: every worker of a set shares its template.
      TemplateRequirements requirements =
          TemplateRequirements.of(set.getTemplate(), avoided, templates);
      for (int index = 0; index < counts; index++) {
        tasks.add(
            task(
                namespace,
                name,
                PodNames.worker(name, set.getName(), index),
                TaskRole.WORKER,
                set.getName(),
                index,
                set.getTemplate(),
                requirements,
                allocations,
                livePods));
      }
    }
    // The generated model refuses a name outside the CRD's enum; the core refuses one its registry
    // lacks.
    BasicPolicy basicPolicy =
        spec.getSchedulerPolicy() == null || spec.getSchedulerPolicy().getBasicPolicy() == null
            ? null
            : new BasicPolicy(spec.getSchedulerPolicy().getBasicPolicy().getValue());
    JobQueuePolicy queuePolicy =
        spec.getSchedulerPolicy() == null || spec.getSchedulerPolicy().getJobQueuePolicy() == null
            ? null
            : JobQueuePolicy.parse(spec.getSchedulerPolicy().getJobQueuePolicy().getValue());
    GangSpec gang =
        spec.getGang() == null
            ? new GangSpec(GangMode.parse(TYJobDefaults.GANG_MODE), null, null)
            : new GangSpec(
                GangMode.parse(
                    spec.getGang().getMode() == null
                        ? TYJobDefaults.GANG_MODE
                        : spec.getGang().getMode().getValue()),
                spec.getGang().getWaitTime() == null
                    ? null
                    : GoDurations.parse(spec.getGang().getWaitTime(), "spec.gang.waitTime"),
                spec.getGang().getGroup());
    Instant waitingSince =
        tyJob.getStatus() == null
                || tyJob.getStatus().getScheduling() == null
                || tyJob.getStatus().getScheduling().getWaitingSince() == null
            ? null
            : tyJob.getStatus().getScheduling().getWaitingSince().toInstant();
    Instant created =
        tyJob.getMetadata().getCreationTimestamp() == null
            ? Instant.EPOCH
            : tyJob.getMetadata().getCreationTimestamp().toInstant();
    Map<String, String> annotations = tyJob.getMetadata().getAnnotations();
    boolean preemptable =
        TYJobDefaults.preemptible(
            spec.getPreemptible(),
            annotations == null ? null : annotations.get(TYJobAnnotations.PREEMPTABLE));
    boolean awaitingVictims =
        tyJob.getStatus() != null
            && tyJob.getStatus().getScheduling() != null
            && ReasonCode.WAITING_FOR_VICTIMS
                .statusValue()
                .equals(tyJob.getStatus().getScheduling().getReason());
    Stage stage = stage(tyJob.getStatus());
    return JobInfo.builder(tyJob.getMetadata().getNamespace(), name)
        .uid(tyJob.getMetadata().getUid())
        .queue(spec.getQueue())
        .priority(spec.getPriority() == null ? TYJobDefaults.PRIORITY : spec.getPriority())
        .creationTime(created)
        .minWorkersNum(
            spec.getMinWorkersNum() == null
                ? TYJobDefaults.MIN_WORKERS_NUM
                : spec.getMinWorkersNum())
        .basicPolicy(basicPolicy)
        .jobQueuePolicy(queuePolicy)
        .gang(gang)
        .waitingSince(waitingSince)
        .tasks(tasks)
        .preemptable(preemptable)
        .awaitingVictims(awaitingVictims)
        .stage(stage)
        .runningSince(runningSince(tyJob.getStatus(), stage))
        .topology(
            spec.getTopology() == null
                ? TopologyRequest.NONE
                : new TopologyRequest(
                    spec.getTopology().getRequired(), spec.getTopology().getPreferred()))
        .workerSetTopology(workerSetTopology)
        .gpuDevices(recorded(tyJob.getStatus() == null ? null : tyJob.getStatus().getGpuDevices()))
        .topologyDomains(
            recorded(tyJob.getStatus() == null ? null : tyJob.getStatus().getTopologyDomains()))
        .preemptionPolicy(
            PreemptionPolicy.parse(
                spec.getPreemptionPolicy() == null
                    ? TYJobDefaults.PREEMPTION_POLICY
                    : spec.getPreemptionPolicy().getValue()))
        .build();
  }

  /**
   * The controller's stage: whether the job's minimum has run, which ends gang rules until a
   * reschedule.
   */
  static Stage stage(V1alpha1TYJobStatus status) {
    return Stage.fromWireNameOrPending(
        status == null || status.getStage() == null ? null : status.getStage().getValue());
  }

  /**
   * When the job's gang minimum started running: the controller's {@code Running} condition turns
   * True when the stage becomes Running, and its {@code lastTransitionTime} moves only when it
   * turns, so while both hold that time is the start of this run (a rescheduled job's counts from
   * its return). Null when the job is not running, or when its status says no time.
   */
  static Instant runningSince(V1alpha1TYJobStatus status, Stage stage) {
    if (stage != Stage.RUNNING || status == null || status.getConditions() == null) {
      return null;
    }
    return status.getConditions().stream()
        .filter(condition -> StatusFields.RUNNING_CONDITION.equals(condition.getType()))
        .findFirst()
        .filter(
            condition ->
                condition.getStatus() == V1alpha1TYJobStatusConditions.StatusEnum.TRUE
                    && condition.getLastTransitionTime() != null)
        .map(condition -> condition.getLastTransitionTime().toInstant())
        .orElse(null);
  }

  /** What every pod made from one template asks for. */
  record TemplateRequirements(Resource request, PlacementConstraints constraints) {
    /**
     * The template's own part is read once per template object; the avoided nodes, which change
     * with time, each cycle.
     */
    static TemplateRequirements of(
        V1PodTemplateSpec template,
        Map<String, String> avoidedNodes,
        IdentityMemo<V1PodTemplateSpec, TemplateRequirements> templates) {
      return templates.get(template, TemplateRequirements::read).avoiding(avoidedNodes);
    }

    private static TemplateRequirements read(V1PodTemplateSpec template) {
      V1PodSpec podSpec = template == null ? null : template.getSpec();
      return new TemplateRequirements(
          PodRequests.of(podSpec).plus(gpuShare(template)),
          PlacementConstraintsReader.constraints(podSpec));
    }

    /**
     * The template's share of one GPU ({@link GpuFraction}), as the milli-GPU the core counts; the
     * TYJob's bounds have refused a bad one before the job is read.
     */
    private static Resource gpuShare(V1PodTemplateSpec template) {
      if (template == null
          || template.getMetadata() == null
          || template.getMetadata().getAnnotations() == null) {
        return Resource.EMPTY;
      }
      String share = template.getMetadata().getAnnotations().get(GpuFraction.ANNOTATION);
      return share == null
          ? Resource.EMPTY
          : Resource.ofCanonical(Map.of(Resource.GPU, GpuFraction.milli(share)));
    }

    private TemplateRequirements avoiding(Map<String, String> avoidedNodes) {
      return avoidedNodes.isEmpty()
          ? this
          : new TemplateRequirements(request, constraints.withAvoidedNodes(avoidedNodes));
    }
  }

  /**
   * The nodes the controller recorded in {@code status.avoidNodes} (a kubelet there refused one of
   * the job's pods), while their time lasts: node → what the fit diagnosis says about it.
   */
  static Map<String, String> avoidedNodes(V1alpha1TYJobStatus status, Instant now) {
    if (status == null || status.getAvoidNodes() == null) {
      return Map.of();
    }
    Map<String, String> avoided = new TreeMap<>();
    for (V1alpha1TYJobStatusAvoidNodes entry : status.getAvoidNodes()) {
      if (entry.getNode() == null
          || entry.getUntil() == null
          || !entry.getUntil().toInstant().isAfter(now)) {
        continue;
      }
      avoided.put(
          entry.getNode(),
          "node(s) where the kubelet refused this job's pod (%s: %s), avoided until %s"
              .formatted(
                  entry.getNode(),
                  entry.getReason() == null ? "refused" : entry.getReason(),
                  entry.getUntil().toInstant()));
    }
    return avoided;
  }

  /**
   * A task is placed when the job's status allocates it. It then counts where its pod is bound if
   * the pod exists (the pod is the truth once it runs), else on its allocation; never on both.
   */
  static TaskInfo task(
      String namespace,
      String jobName,
      String podName,
      TaskRole role,
      String roleName,
      int index,
      V1PodTemplateSpec template,
      TemplateRequirements requirements,
      Map<String, String> allocations,
      LivePods livePods) {
    String allocated = allocations.get(podName);
    Optional<LivePods.LivePod> pod =
        allocated == null ? Optional.empty() : livePods.get(namespace, podName);
    String node = pod.map(LivePods.LivePod::node).orElse(allocated);
    TaskStatus status =
        node == null
            ? TaskStatus.PENDING
            : pod.filter(LivePods.LivePod::leaving).isPresent()
                ? TaskStatus.RELEASING
                : TaskStatus.ALLOCATED;
    return new TaskInfo(
        podName,
        role,
        roleName,
        index,
        requirements.request(),
        requirements.constraints(),
        status,
        node,
        PlacementConstraintsReader.podLabels(template, jobName, role, roleName, index));
  }
}
