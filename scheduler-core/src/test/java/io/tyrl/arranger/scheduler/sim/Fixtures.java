package io.tyrl.arranger.scheduler.sim;

import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.contract.TYJobDefaults;
import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.api.BasicPolicy;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.GangSpec;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.JobQueuePolicy;
import io.tyrl.arranger.scheduler.api.NodeAffinityTerm;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import io.tyrl.arranger.scheduler.api.PreemptionPolicy;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.Taint;
import io.tyrl.arranger.scheduler.api.TaintEffect;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import io.tyrl.arranger.scheduler.api.Toleration;
import io.tyrl.arranger.scheduler.api.TopologyRequest;
import io.tyrl.arranger.scheduler.conf.DefaultSchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser;
import io.tyrl.arranger.scheduler.framework.CycleListener;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Fluent builders for snapshots in tests: {@code node("n1").cpu("6").memory("15Gi").build()}. */
public final class Fixtures {

  public static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private Fixtures() {}

  public static Scheduler scheduler() {
    return new Scheduler(BuiltInPlugins.registry(), BuiltInActions.registry(), CycleListener.NONE);
  }

  public static SchedulerConfiguration defaultConfiguration() {
    return DefaultSchedulerConfiguration.parse(scheduler().vocabulary());
  }

  /** The default tiers with reclaim and preempt before allocate. */
  public static SchedulerConfiguration preemptingConfiguration() {
    return DefaultSchedulerConfiguration.parseWithPreemption(scheduler().vocabulary());
  }

  public static SchedulerConfiguration configuration(String yaml) {
    return new SchedulerConfigurationParser(scheduler().vocabulary()).parse(yaml);
  }

  public static NodeBuilder node(String name) {
    return new NodeBuilder(name);
  }

  public static JobBuilder job(String name) {
    return new JobBuilder(name);
  }

  public static QueueBuilder queue(String name) {
    return new QueueBuilder(name);
  }

  public static Snapshot snapshot(
      List<NodeInfo> nodes, List<JobInfo> jobs, List<QueueInfo> queues) {
    return new Snapshot(nodes, jobs, queues);
  }

  public static Snapshot snapshot(List<NodeInfo> nodes, List<JobInfo> jobs) {
    return new Snapshot(nodes, jobs, List.of());
  }

  /** Builds a node; resources accept Kubernetes quantities. */
  public static final class NodeBuilder {
    private final String name;
    private final Map<String, String> allocatable = new LinkedHashMap<>();
    private final Map<String, String> used = new LinkedHashMap<>();
    private final Map<String, String> releasing = new LinkedHashMap<>();
    private final Map<String, String> labels = new HashMap<>();
    private final List<Taint> taints = new ArrayList<>();
    private boolean ready = true;
    private boolean unschedulable;
    private int podCount;

    NodeBuilder(String name) {
      this.name = name;
      allocatable.put(Resource.PODS, "110");
    }

    public NodeBuilder cpu(String quantity) {
      allocatable.put(Resource.CPU, quantity);
      return this;
    }

    public NodeBuilder memory(String quantity) {
      allocatable.put(Resource.MEMORY, quantity);
      return this;
    }

    public NodeBuilder gpu(int count) {
      allocatable.put(Resource.GPU, Integer.toString(count));
      return this;
    }

    public NodeBuilder pods(int count) {
      allocatable.put(Resource.PODS, Integer.toString(count));
      return this;
    }

    public NodeBuilder allocatable(String resource, String quantity) {
      allocatable.put(resource, quantity);
      return this;
    }

    /** Usage by pods outside the snapshot's jobs. */
    public NodeBuilder used(String resource, String quantity) {
      used.put(resource, quantity);
      return this;
    }

    /**
     * Usage by pods outside the snapshot's jobs that are being deleted: used until they are gone.
     */
    public NodeBuilder releasing(String resource, String quantity) {
      releasing.put(resource, quantity);
      return used(resource, quantity);
    }

    public NodeBuilder podCount(int count) {
      this.podCount = count;
      return this;
    }

    public NodeBuilder label(String key, String value) {
      labels.put(key, value);
      return this;
    }

    public NodeBuilder taint(String key, String value, TaintEffect effect) {
      taints.add(new Taint(key, value, effect));
      return this;
    }

    public NodeBuilder notReady() {
      this.ready = false;
      return this;
    }

    public NodeBuilder cordoned() {
      this.unschedulable = true;
      return this;
    }

    public NodeInfo build() {
      return new NodeInfo(
          name,
          labels,
          taints,
          Resource.parse(allocatable),
          Resource.parse(used),
          Resource.parse(releasing),
          ready,
          unschedulable,
          podCount);
    }
  }

  /** Builds a job with a leader and worker sets. */
  public static final class JobBuilder {
    private TopologyRequest topology = TopologyRequest.NONE;
    private final Map<String, TopologyRequest> workerSetTopology = new HashMap<>();
    private final String name;
    private String namespace = "default";
    private String queue = TYJobDefaults.QUEUE;
    private int priority = 5;
    private Instant created = T0;
    private int minWorkers = 1;
    private BasicPolicy basicPolicy;
    private JobQueuePolicy jobQueuePolicy;
    private GangMode gangMode = GangMode.STRICT;
    private Duration waitTime;
    private String group;
    private Instant waitingSince;
    private Stage stage = Stage.PENDING;
    private TaskInfo leader;
    private final List<TaskInfo> workers = new ArrayList<>();
    private final Map<String, String> placements = new HashMap<>();
    private final Map<String, String> releasing = new HashMap<>();
    private PlacementConstraints constraints = PlacementConstraints.NONE;
    private boolean preemptable = true;
    private PreemptionPolicy preemptionPolicy = PreemptionPolicy.PREEMPT_LOWER_PRIORITY;
    private boolean awaitingVictims;
    private Instant runningSince;

    JobBuilder(String name) {
      this.name = name;
      this.leader = TaskInfo.leader(name, "learner", Resource.of("cpu", "1"));
    }

    public JobBuilder namespace(String value) {
      this.namespace = value;
      return this;
    }

    public JobBuilder queue(String value) {
      this.queue = value;
      return this;
    }

    public JobBuilder priority(int value) {
      this.priority = value;
      return this;
    }

    public JobBuilder created(Instant value) {
      this.created = value;
      return this;
    }

    public JobBuilder minWorkers(int value) {
      this.minWorkers = value;
      return this;
    }

    public JobBuilder basicPolicy(BasicPolicy value) {
      this.basicPolicy = value;
      return this;
    }

    public JobBuilder jobQueuePolicy(JobQueuePolicy value) {
      this.jobQueuePolicy = value;
      return this;
    }

    public JobBuilder gang(GangMode mode) {
      this.gangMode = mode;
      return this;
    }

    public JobBuilder waitTime(Duration value) {
      this.waitTime = value;
      return this;
    }

    public JobBuilder group(String value) {
      this.group = value;
      return this;
    }

    /**
     * When the job's current wait for its gang minimum began, as the previous cycle recorded it.
     */
    public JobBuilder waitingSince(Instant value) {
      this.waitingSince = value;
      return this;
    }

    /** The controller's stage; {@code RUNNING} = the job's minimum has run. */
    public JobBuilder stage(Stage value) {
      this.stage = value;
      return this;
    }

    /** The leader, named {@code learner}, with the given name/quantity pairs as its request. */
    public JobBuilder leader(String... request) {
      this.leader = TaskInfo.leader(name, "learner", Resource.of(request));
      return this;
    }

    public JobBuilder workers(String workerSet, int count, String... request) {
      for (int i = 0; i < count; i++) {
        workers.add(TaskInfo.worker(name, workerSet, i, Resource.of(request)));
      }
      return this;
    }

    /** Constraints shared by every pod of the job. */
    public JobBuilder nodeSelector(String key, String value) {
      Map<String, String> selector = new HashMap<>(constraints.nodeSelector());
      selector.put(key, value);
      constraints = constraints.withNodeSelector(selector);
      return this;
    }

    public JobBuilder requiredAffinity(NodeAffinityTerm... terms) {
      constraints = constraints.withRequiredAffinity(List.of(terms));
      return this;
    }

    /** The job's pods stay off {@code node} for now; {@code why} is what the fit diagnosis says. */
    public JobBuilder avoid(String node, String why) {
      Map<String, String> avoided = new HashMap<>(constraints.avoidedNodes());
      avoided.put(node, why);
      constraints = constraints.withAvoidedNodes(avoided);
      return this;
    }

    public JobBuilder tolerate(Toleration toleration) {
      List<Toleration> tolerations = new ArrayList<>(constraints.tolerations());
      tolerations.add(toleration);
      constraints = constraints.withTolerations(tolerations);
      return this;
    }

    /** False = the job carries {@code arranger.tyrl.io/preemptable: "false"}. */
    public JobBuilder preemptable(boolean value) {
      this.preemptable = value;
      return this;
    }

    public JobBuilder preemptionPolicy(PreemptionPolicy value) {
      this.preemptionPolicy = value;
      return this;
    }

    /** When the job's minimum started running. */
    public JobBuilder runningSince(Instant value) {
      this.runningSince = value;
      return this;
    }

    /** The previous cycle left the job waiting for its victims to go (its status said so). */
    public JobBuilder awaitingVictims() {
      this.awaitingVictims = true;
      return this;
    }

    /** Marks a pod as being deleted on its node (an evicted victim not gone yet). */
    public JobBuilder releasing(String podName, String node) {
      releasing.put(podName, node);
      return this;
    }

    /**
     * Places the leader and the first {@code workers} workers on the node, as earlier cycles would
     * have.
     */
    public JobBuilder running(String node, int workers) {
      placed(leader.podName(), node);
      for (int i = 0; i < workers && i < this.workers.size(); i++) {
        placed(this.workers.get(i).podName(), node);
      }
      return this;
    }

    /** Marks a pod as already placed (an existing allocation). */
    public JobBuilder placed(String podName, String node) {
      placements.put(podName, node);
      return this;
    }

    /** {@code spec.topology}: either level may be null. */
    public JobBuilder topology(String required, String preferred) {
      this.topology = new TopologyRequest(required, preferred);
      return this;
    }

    /** A worker set's own preferred level ({@code workerSets[].topology.preferred}; null: none). */
    public JobBuilder workerSetPreferred(String workerSet, String preferred) {
      this.workerSetTopology.put(workerSet, new TopologyRequest(null, preferred));
      return this;
    }

    public JobInfo build() {
      List<TaskInfo> tasks = new ArrayList<>();
      tasks.add(leader);
      tasks.addAll(workers);
      List<TaskInfo> finished = new ArrayList<>();
      for (TaskInfo task : tasks) {
        TaskInfo withConstraints = task.withConstraints(constraints);
        String node = placements.get(task.podName());
        String releasingOn = releasing.get(task.podName());
        finished.add(
            releasingOn != null
                ? withConstraints.withStatus(TaskStatus.RELEASING, releasingOn)
                : node == null
                    ? withConstraints
                    : withConstraints.withStatus(TaskStatus.ALLOCATED, node));
      }
      return JobInfo.builder(namespace, name)
          .queue(queue)
          .priority(priority)
          .creationTime(created)
          .minWorkersNum(minWorkers)
          .basicPolicy(basicPolicy)
          .jobQueuePolicy(jobQueuePolicy)
          .gang(new GangSpec(gangMode, waitTime, group))
          .waitingSince(waitingSince)
          .tasks(finished)
          .preemptable(preemptable)
          .awaitingVictims(awaitingVictims)
          .stage(stage)
          .preemptionPolicy(preemptionPolicy)
          .runningSince(runningSince)
          .topology(topology)
          .workerSetTopology(workerSetTopology)
          .build();
    }
  }

  /** Builds a queue. */
  public static final class QueueBuilder {
    private final String name;
    private int weight = 1;
    private Resource capability;
    private JobQueuePolicy policy = JobQueuePolicy.PRIORITY;
    private boolean reclaimable = true;
    private int priority;
    private boolean open = true;
    private String parent;
    private Resource guarantee = Resource.EMPTY;
    private Duration preemptMinRuntime;
    private Duration reclaimMinRuntime;

    QueueBuilder(String name) {
      this.name = name;
    }

    public QueueBuilder weight(int value) {
      this.weight = value;
      return this;
    }

    public QueueBuilder capability(String... quantities) {
      this.capability = Resource.of(quantities);
      return this;
    }

    public QueueBuilder policy(JobQueuePolicy value) {
      this.policy = value;
      return this;
    }

    public QueueBuilder reclaimable(boolean value) {
      this.reclaimable = value;
      return this;
    }

    public QueueBuilder priority(int value) {
      this.priority = value;
      return this;
    }

    /** The queue's {@code state: Closed}: it admits no new job. */
    public QueueBuilder closed() {
      this.open = false;
      return this;
    }

    public QueueBuilder parent(String value) {
      this.parent = value;
      return this;
    }

    public QueueBuilder guarantee(String... quantities) {
      this.guarantee = Resource.of(quantities);
      return this;
    }

    public QueueBuilder preemptMinRuntime(Duration value) {
      this.preemptMinRuntime = value;
      return this;
    }

    public QueueBuilder reclaimMinRuntime(Duration value) {
      this.reclaimMinRuntime = value;
      return this;
    }

    public QueueInfo build() {
      return new QueueInfo(
          name,
          weight,
          capability,
          reclaimable,
          policy,
          priority,
          open,
          parent,
          guarantee,
          preemptMinRuntime,
          reclaimMinRuntime);
    }
  }
}
