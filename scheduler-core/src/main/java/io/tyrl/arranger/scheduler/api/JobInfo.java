package io.tyrl.arranger.scheduler.api;

import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.contract.TYJobDefaults;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A TYJob as the scheduler sees it: identity, queue, ordering inputs, gang rules and its tasks (a
 * leader and the workers of every WorkerSet). Tasks already placed in earlier cycles carry their
 * node and are the job's existing allocations. Built with {@link #builder}, or changed with {@link
 * #toBuilder}.
 *
 * @param basicPolicy null = the scheduler's default node order; a name the node-order plugin does
 *     not know makes the job invalid
 * @param jobQueuePolicy null = the policy of the job's queue
 * @param waitingSince when the job's current wait for its gang minimum began, as written back from
 *     the previous cycle's {@link JobDecision#waitingSince()}; null when none was recorded (see
 *     {@link #waitStart(Instant)})
 * @param preemptable false when the job may not be a preemption or reclaim victim ({@code
 *     spec.preemptible: false}, or the deprecated annotation; the rule is {@link
 *     io.tyrl.arranger.crd.contract.TYJobDefaults#preemptible})
 * @param awaitingVictims true when the previous cycle left the job waiting for its victims (its
 *     {@code status.scheduling.reason} is {@code WaitingForVictims}): the room they are releasing
 *     is its own, so it claims that room again before any other job may
 * @param stage the controller's stage of the job; null = {@link Stage#PENDING}
 * @param preemptionPolicy NEVER when the job waits for room rather than evict others; null = the
 *     default, PREEMPT_LOWER_PRIORITY
 * @param runningSince when the job's gang minimum started running (its stage became Running); null
 *     when it is not running or the time is unknown. A queue's {@code preemptMinRuntime} and {@code
 *     reclaimMinRuntime} count from it: a job's core is no victim before it has run that long
 * @param topology {@code spec.topology}: the level whose one domain holds the whole job, and the
 *     narrower one its pods should share; {@link TopologyRequest#NONE} when the job asks none
 * @param workerSetTopology a worker set's own topology, by the set's name, for its own pods: its
 *     preferred level replaces the job's (null: none), while the job's required level binds it
 * @param gpuDevices for each placed pod holding part of one GPU, the index of the node's device it
 *     was seated on, as written back from the previous cycles' {@link JobDecision#gpuDevices()}:
 *     the device the node was told to give it, so the pod is seated there again; empty when none
 *     was recorded
 * @param topologyDomains the domain (label value), by level, of the node the job's leader was last
 *     placed on, for the levels the job asks, as written back from the previous cycles' {@link
 *     JobDecision#topologyDomains()}: a job placed again from nothing (its leader lost) is tried in
 *     those domains first; empty when none was recorded
 */
public record JobInfo(
    String namespace,
    String name,
    String uid,
    String queue,
    int priority,
    Instant creationTime,
    int minWorkersNum,
    BasicPolicy basicPolicy,
    JobQueuePolicy jobQueuePolicy,
    GangSpec gang,
    Instant waitingSince,
    List<TaskInfo> tasks,
    boolean preemptable,
    boolean awaitingVictims,
    Stage stage,
    PreemptionPolicy preemptionPolicy,
    Instant runningSince,
    TopologyRequest topology,
    Map<String, TopologyRequest> workerSetTopology,
    Map<String, Integer> gpuDevices,
    Map<String, String> topologyDomains) {

  public JobInfo {
    gpuDevices = gpuDevices == null ? Map.of() : Map.copyOf(gpuDevices);
    topologyDomains = topologyDomains == null ? Map.of() : Map.copyOf(topologyDomains);
    requireText(namespace, "namespace", null);
    requireText(name, "name", namespace);
    String key = namespace + "/" + name;
    uid = uid == null || uid.isBlank() ? key : uid;
    queue = queue == null || queue.isBlank() ? TYJobDefaults.QUEUE : queue;
    if (priority < 1 || priority > 10) {
      throw new IllegalArgumentException(
          "job " + key + ": priority must be within 1..10, was " + priority);
    }
    Objects.requireNonNull(creationTime, "job " + key + ": creationTime");
    if (minWorkersNum < 0) {
      throw new IllegalArgumentException(
          "job " + key + ": minWorkersNum must be >= 0, was " + minWorkersNum);
    }
    gang = gang == null ? GangSpec.STRICT : gang;
    stage = stage == null ? Stage.PENDING : stage;
    preemptionPolicy =
        preemptionPolicy == null ? PreemptionPolicy.PREEMPT_LOWER_PRIORITY : preemptionPolicy;
    tasks = List.copyOf(Objects.requireNonNull(tasks, "job " + key + ": tasks"));
    topology = topology == null ? TopologyRequest.NONE : topology;
    workerSetTopology = workerSetTopology == null ? Map.of() : Map.copyOf(workerSetTopology);
    long leaders = tasks.stream().filter(TaskInfo::isLeader).count();
    if (leaders != 1) {
      throw new IllegalArgumentException(
          "job " + key + ": exactly one leader task expected, found " + leaders);
    }
    Set<String> podNames = new HashSet<>();
    for (TaskInfo task : tasks) {
      if (!podNames.add(task.podName())) {
        throw new IllegalArgumentException("job " + key + ": duplicate pod name " + task.podName());
      }
    }
  }

  /**
   * The way to build a job: the components left unset take the defaults of the TYJob's fields
   * (priority {@value TYJobDefaults#PRIORITY}, minWorkersNum {@value
   * TYJobDefaults#MIN_WORKERS_NUM}, preemptable, not awaiting victims; the rest as documented
   * above).
   */
  public static Builder builder(String namespace, String name) {
    return new Builder(namespace, name);
  }

  /** A builder holding this job's components, to build a changed copy. */
  public Builder toBuilder() {
    return new Builder(namespace, name)
        .uid(uid)
        .queue(queue)
        .priority(priority)
        .creationTime(creationTime)
        .minWorkersNum(minWorkersNum)
        .basicPolicy(basicPolicy)
        .jobQueuePolicy(jobQueuePolicy)
        .gang(gang)
        .waitingSince(waitingSince)
        .tasks(tasks)
        .preemptable(preemptable)
        .awaitingVictims(awaitingVictims)
        .stage(stage)
        .preemptionPolicy(preemptionPolicy)
        .runningSince(runningSince)
        .topology(topology)
        .workerSetTopology(workerSetTopology)
        .gpuDevices(gpuDevices)
        .topologyDomains(topologyDomains);
  }

  /** Collects a job's components; {@link #build()} validates them as the record does. */
  public static final class Builder {
    private final String namespace;
    private final String name;
    private String uid;
    private String queue;
    private int priority = TYJobDefaults.PRIORITY;
    private Instant creationTime;
    private int minWorkersNum = TYJobDefaults.MIN_WORKERS_NUM;
    private BasicPolicy basicPolicy;
    private JobQueuePolicy jobQueuePolicy;
    private GangSpec gang;
    private Instant waitingSince;
    private List<TaskInfo> tasks;
    private boolean preemptable = true;
    private boolean awaitingVictims;
    private Stage stage;
    private PreemptionPolicy preemptionPolicy;
    private Instant runningSince;
    private TopologyRequest topology;
    private Map<String, TopologyRequest> workerSetTopology;
    private Map<String, Integer> gpuDevices;
    private Map<String, String> topologyDomains;

    private Builder(String namespace, String name) {
      this.namespace = namespace;
      this.name = name;
    }

    public Builder uid(String uid) {
      this.uid = uid;
      return this;
    }

    public Builder queue(String queue) {
      this.queue = queue;
      return this;
    }

    public Builder priority(int priority) {
      this.priority = priority;
      return this;
    }

    public Builder creationTime(Instant creationTime) {
      this.creationTime = creationTime;
      return this;
    }

    public Builder minWorkersNum(int minWorkersNum) {
      this.minWorkersNum = minWorkersNum;
      return this;
    }

    public Builder basicPolicy(BasicPolicy basicPolicy) {
      this.basicPolicy = basicPolicy;
      return this;
    }

    public Builder jobQueuePolicy(JobQueuePolicy jobQueuePolicy) {
      this.jobQueuePolicy = jobQueuePolicy;
      return this;
    }

    public Builder gang(GangSpec gang) {
      this.gang = gang;
      return this;
    }

    public Builder waitingSince(Instant waitingSince) {
      this.waitingSince = waitingSince;
      return this;
    }

    public Builder tasks(List<TaskInfo> tasks) {
      this.tasks = tasks;
      return this;
    }

    public Builder preemptable(boolean preemptable) {
      this.preemptable = preemptable;
      return this;
    }

    public Builder awaitingVictims(boolean awaitingVictims) {
      this.awaitingVictims = awaitingVictims;
      return this;
    }

    public Builder stage(Stage stage) {
      this.stage = stage;
      return this;
    }

    public Builder preemptionPolicy(PreemptionPolicy preemptionPolicy) {
      this.preemptionPolicy = preemptionPolicy;
      return this;
    }

    public Builder runningSince(Instant runningSince) {
      this.runningSince = runningSince;
      return this;
    }

    public Builder topology(TopologyRequest topology) {
      this.topology = topology;
      return this;
    }

    public Builder workerSetTopology(Map<String, TopologyRequest> workerSetTopology) {
      this.workerSetTopology = workerSetTopology;
      return this;
    }

    public Builder gpuDevices(Map<String, Integer> gpuDevices) {
      this.gpuDevices = gpuDevices;
      return this;
    }

    public Builder topologyDomains(Map<String, String> topologyDomains) {
      this.topologyDomains = topologyDomains;
      return this;
    }

    public JobInfo build() {
      return new JobInfo(
          namespace,
          name,
          uid,
          queue,
          priority,
          creationTime,
          minWorkersNum,
          basicPolicy,
          jobQueuePolicy,
          gang,
          waitingSince,
          tasks,
          preemptable,
          awaitingVictims,
          stage,
          preemptionPolicy,
          runningSince,
          topology,
          workerSetTopology,
          gpuDevices,
          topologyDomains);
    }
  }

  /** True when preempt and reclaim may evict other jobs to make room for this one. */
  public boolean mayPreempt() {
    return preemptionPolicy != PreemptionPolicy.NEVER;
  }

  private static void requireText(String value, String field, String namespace) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(
          (namespace == null ? "job" : "job in " + namespace)
              + ": "
              + field
              + " must not be blank");
    }
  }

  /** {@code namespace/name}: how jobs are keyed in decisions and gang groups. */
  public String key() {
    return namespace + "/" + name;
  }

  /**
   * True once the job's minimum has run (stage Running): gang rules no longer apply to it until it
   * is rescheduled, so its placements are never released by them and a lost pod is placed back
   * alone.
   */
  public boolean minimumHasRun() {
    return stage == Stage.RUNNING;
  }

  /**
   * When the job's current wait for its gang minimum began, which is what {@code gang.waitTime} and
   * the NonStrict reservation timeout count from: the recorded {@link #waitingSince()}; else, for a
   * job that never got its minimum placed, its creation; else (a job placed before — rescheduled,
   * or one that lost a pod while starting) {@code now}, the first cycle that sees it waiting again.
   */
  public Instant waitStart(Instant now) {
    if (waitingSince != null) {
      return waitingSince;
    }
    return stage == Stage.PENDING ? creationTime : now;
  }

  /**
   * The gang group this job belongs to, qualified by namespace: groups are per namespace, so a
   * group {@code g} in two namespaces is two groups. A group written {@code ns/name} names a group
   * of another namespace and is taken as it is.
   */
  public Optional<String> gangGroupKey() {
    return gang.groupIfSet().map(group -> group.contains("/") ? group : namespace + "/" + group);
  }

  public TaskInfo leader() {
    for (TaskInfo task : tasks) {
      if (task.isLeader()) {
        return task;
      }
    }
    throw new IllegalStateException("job " + key() + " has no leader");
  }

  /**
   * The topology one of the job's pods asks: the job's, with its worker set's preferred level in
   * place of the job's when the set has its own.
   */
  public TopologyRequest topologyFor(TaskInfo task) {
    if (task.isLeader()) {
      return topology;
    }
    TopologyRequest own = workerSetTopology.get(task.roleName());
    return own == null ? topology : topology.withPreferred(own.preferred());
  }

  /** True when the job, or one of its worker sets, asks for a topology level. */
  public boolean asksTopology() {
    if (!topology.isEmpty()) {
      return true;
    }
    for (TopologyRequest own : workerSetTopology.values()) {
      if (!own.isEmpty()) {
        return true;
      }
    }
    return false;
  }

  public Optional<JobQueuePolicy> jobQueuePolicyIfSet() {
    return Optional.ofNullable(jobQueuePolicy);
  }
}
