package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.crd.contract.TYJobDefaults;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.JobQueuePolicy;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.QueueUsage;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import io.tyrl.arranger.scheduler.api.TopologyLevels;
import io.tyrl.arranger.scheduler.api.Victim;
import io.tyrl.arranger.scheduler.conf.FairnessConfiguration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One cycle's working copy of a snapshot: node, job and queue ledgers that statements change, and
 * the functions plugins registered. Nothing here talks to Kubernetes; the cycle's result is read
 * from the session when the actions are done.
 */
public final class Session {

  private final Instant now;
  private final ResourceDimensions dimensions;
  private final NodeState[] nodes;
  private final Map<String, NodeState> nodesByName;
  private final List<JobState> jobs = new ArrayList<>();
  private final Map<String, JobState> jobsByKey;
  private final Map<String, QueueState> queues = new LinkedHashMap<>();
  private final long[] clusterAllocatable;
  private final long[] clusterInqueue;
  private final Tiers tiers = new Tiers();
  private final NodeSearch nodeSearch;
  private final long[] smallestRequest;

  /** Statements not yet committed or discarded, oldest first (see {@link #forOneJob}). */
  private final Deque<Statement> openStatements = new ArrayDeque<>();

  private long releaseGeneration;
  private final Map<String, List<Victim>> victimsByPreemptor = new LinkedHashMap<>();
  private PlacementListener[] placementListeners = new PlacementListener[0];
  private final Set<PlacementConstraints> taskConstraints =
      Collections.newSetFromMap(new IdentityHashMap<>());
  private final Set<PlacementConstraints> pendingTaskConstraints =
      Collections.newSetFromMap(new IdentityHashMap<>());
  private TopologyLevels topologyLevels = TopologyLevels.NONE;
  private FairnessConfiguration fairness = FairnessConfiguration.OFF;
  private final Map<String, QueueUsage> usage;
  private NamespaceUsageOrder namespaceOrder;
  private final Map<Class<?>, Object> extensions = new HashMap<>();
  private NodeLedgerWatcher[] ledgerWatchers = new NodeLedgerWatcher[0];

  /** A session whose queues that name no job order use Priority. */
  public Session(Snapshot snapshot, Instant now) {
    this(snapshot, now, JobQueuePolicy.PRIORITY);
  }

  /**
   * Builds the ledgers: each placed task of the snapshot is charged to its node, job and queue.
   * Queues that name no job order get {@code defaultJobQueuePolicy}, the configuration's.
   */
  /** The snapshot's tasks on GPU devices, seated once every job is read; null after. */
  private List<TaskState> snapshotDeviceTasks = new ArrayList<>();

  public Session(Snapshot snapshot, Instant now, JobQueuePolicy defaultJobQueuePolicy) {
    this.now = now;
    this.usage = snapshot.usage();
    // By identity: the tasks of one worker set share their request, so each distinct amount is read
    // once.
    Set<Resource> amounts =
        Collections.newSetFromMap(
            new IdentityHashMap<>(3 * snapshot.nodes().size() + snapshot.jobs().size()));
    for (NodeInfo node : snapshot.nodes()) {
      amounts.add(node.allocatable());
      amounts.add(node.used());
      amounts.add(node.releasing());
    }
    for (JobInfo job : snapshot.jobs()) {
      for (TaskInfo task : job.tasks()) {
        amounts.add(task.request());
      }
    }
    for (QueueInfo queue : snapshot.queues()) {
      queue.capabilityIfSet().ifPresent(amounts::add);
      amounts.add(queue.guarantee());
    }
    this.dimensions = ResourceDimensions.covering(amounts);
    this.nodes = new NodeState[snapshot.nodes().size()];
    this.nodesByName = new HashMap<>(nodes.length * 4 / 3 + 1);
    this.jobsByKey = new HashMap<>(snapshot.jobs().size() * 4 / 3 + 1);
    this.clusterAllocatable = new long[dimensions.size()];
    this.clusterInqueue = new long[dimensions.size()];
    Map<Resource, long[]> nodeVectors = new IdentityHashMap<>();
    Function<Resource, long[]> nodeVector =
        amount -> nodeVectors.computeIfAbsent(amount, dimensions::vector);
    for (int i = 0; i < nodes.length; i++) {
      NodeState node = new NodeState(i, snapshot.nodes().get(i), dimensions, nodeVector);
      nodes[i] = node;
      nodesByName.put(node.name(), node);
      for (int d = 0; d < dimensions.size(); d++) {
        if (d != ResourceDimensions.PODS) {
          clusterAllocatable[d] += node.allocatable(d);
        }
      }
    }
    for (QueueInfo queue : snapshot.queues()) {
      queues.put(
          queue.name(),
          new QueueState(queue.withJobQueuePolicyIfUnset(defaultJobQueuePolicy), dimensions));
    }
    queues.computeIfAbsent(
        TYJobDefaults.QUEUE,
        name ->
            new QueueState(
                QueueInfo.of(name, 1).withJobQueuePolicyIfUnset(defaultJobQueuePolicy),
                dimensions));
    QueueTree.link(queues, dimensions);
    Map<Resource, long[]> requestVectors = new IdentityHashMap<>(snapshot.jobs().size());
    for (JobInfo info : snapshot.jobs()) {
      addJob(info, requestVectors);
    }
    seatSnapshotTasksOnDevices();
    blockJobsUnderInvalidQueues();
    this.smallestRequest = smallestRequest(requestVectors.values());
    this.nodeSearch = new NodeSearch(this, smallestRequest());
  }

  /**
   * Jobs go in leaf queues, under a valid tree: a queue with children that has jobs of its own is
   * marked (its children schedule on), and every job under an invalid queue waits, saying which
   * queue and why, while it keeps what it holds.
   */
  private void blockJobsUnderInvalidQueues() {
    Map<QueueState, Integer> jobsInInnerQueues = new LinkedHashMap<>();
    for (JobState job : jobs) {
      if (job.queue() != null && !job.queue().isLeaf()) {
        jobsInInnerQueues.merge(job.queue(), 1, Integer::sum);
      }
    }
    jobsInInnerQueues.forEach(
        (queue, count) ->
            queue.markProblem(
                "it has children ("
                    + String.join(", ", queue.children().stream().map(QueueState::name).toList())
                    + ") and "
                    + count
                    + " job(s) of its own: jobs go in leaf queues only",
                false));
    for (JobState job : jobs) {
      QueueProblem problem = job.queue() == null ? null : job.queue().blockingProblem();
      if (problem != null) {
        job.blockByQueue(new JobNote(ReasonCode.INVALID_QUEUE, problem.forJob()));
      }
    }
  }

  private long[] podRequest(Resource request) {
    long[] vector = dimensions.vector(request);
    vector[ResourceDimensions.PODS] = 1;
    return vector;
  }

  /**
   * Per resource, the least any task asks: a node with less idle than that in some resource fits no
   * task.
   */
  long[] smallestRequest() {
    return smallestRequest.clone();
  }

  /**
   * @param requests every distinct request vector of the session's tasks
   */
  private long[] smallestRequest(Collection<long[]> requests) {
    long[] smallest = null;
    for (long[] request : requests) {
      if (smallest == null) {
        smallest = request.clone();
      } else {
        for (int d = 0; d < smallest.length; d++) {
          smallest[d] = Math.min(smallest[d], request[d]);
        }
      }
    }
    return smallest == null ? new long[dimensions.size()] : smallest;
  }

  /**
   * @param requestVectors each distinct request's vector, shared by the tasks asking for it (never
   *     modified)
   */
  private void addJob(JobInfo info, Map<Resource, long[]> requestVectors) {
    QueueState queue = queues.get(info.queue());
    JobState job = new JobState(jobs.size(), info, queue, dimensions.size());
    jobs.add(job);
    jobsByKey.put(job.key(), job);
    // The tasks of a worker set share one constraints object: only a change is looked up.
    PlacementConstraints lastSeen = null;
    PlacementConstraints lastPending = null;
    for (TaskInfo taskInfo : info.tasks()) {
      PlacementConstraints constraints = taskInfo.constraints();
      if (constraints != lastSeen) {
        lastSeen = constraints;
        taskConstraints.add(constraints);
      }
      if (constraints != lastPending && taskInfo.status() == TaskStatus.PENDING) {
        lastPending = constraints;
        pendingTaskConstraints.add(constraints);
      }
      long[] request = requestVectors.computeIfAbsent(taskInfo.request(), this::podRequest);
      TaskState task = new TaskState(taskInfo, job, request);
      job.addTask(task);
      if (queue != null) {
        queue.addRequested(request);
      }
    }
    for (TaskState task : job.tasks()) {
      TaskStatus status = task.info().status();
      NodeState node =
          status == TaskStatus.PENDING ? null : nodesByName.get(task.info().nodeName());
      if (node == null) {
        continue;
      }
      if (status == TaskStatus.RELEASING) {
        // A task being evicted still occupies its node until the pod is gone, but no longer counts
        // for its job.
        task.moveTo(TaskStatus.RELEASING, node);
        node.addUsed(task.request());
        node.addReleasing(task.request());
        if (node.gpuDevices() != null && gpuMilli(task, node) > 0) {
          snapshotDeviceTasks.add(task);
        }
      } else {
        place(task, node, status);
      }
    }
    if (queue == null) {
      job.note(
          new JobNote(ReasonCode.QUEUE_NOT_FOUND, "queue " + info.queue() + " does not exist"));
    }
  }

  /**
   * Tells {@code listener} of every task placed so far, then of every placement and removal from
   * now on, so that an index built on it starts complete. Plugins register only when they need it,
   * so the common case pays nothing.
   */
  public void addPlacementListener(PlacementListener listener) {
    for (JobState job : jobs()) {
      for (TaskState task : job.tasks()) {
        if (task.node() != null) {
          listener.placed(task, task.node());
        }
      }
    }
    followPlacements(listener);
  }

  /**
   * Runs {@code work} with the placement listeners told that the tasks are gone (their indexes no
   * longer count them) and told they are back afterwards: how preemption asks whether a pod's
   * neighbours allow it on a node once its victims have left. The ledgers do not change.
   */
  public <T> T asIfGone(Collection<TaskState> gone, java.util.function.Supplier<T> work) {
    List<TaskState> removed = new ArrayList<>();
    try {
      for (TaskState task : gone) {
        if (task.node() != null) {
          for (PlacementListener listener : placementListeners) {
            listener.removed(task, task.node());
          }
          removed.add(task);
        }
      }
      return work.get();
    } finally {
      for (int i = removed.size() - 1; i >= 0; i--) {
        TaskState task = removed.get(i);
        for (PlacementListener listener : placementListeners) {
          listener.placed(task, task.node());
        }
      }
    }
  }

  /**
   * Tells {@code listener} of every placement and removal from now on only, for an index built from
   * the nodes' ledgers, which already count every task placed so far.
   */
  public void followPlacements(PlacementListener listener) {
    placementListeners = java.util.Arrays.copyOf(placementListeners, placementListeners.length + 1);
    placementListeners[placementListeners.length - 1] = listener;
  }

  /**
   * Called by the scheduler once every plugin has registered: freezes the hot-path functions,
   * validates jobs, and keeps new jobs out of closed queues (a job already holding pods goes on).
   */
  void finishOpening() {
    tiers.seal();
    for (JobState job : jobs) {
      if (job.info().asksTopology() && !job.isFailed()) {
        // Kept, not failed: what the job holds stays while the job (or the configuration) is fixed.
        topologyLevels
            .problem(job.info())
            .ifPresent(problem -> job.blockByQueue(new JobNote(ReasonCode.INVALID_JOB, problem)));
      }
      if (job.queue() != null
          && !job.queue().info().open()
          && job.placedTasks() == 0
          && !job.isFailed()) {
        refuseEnqueue(job, "queue " + job.queue().name() + " is closed: it admits no new job");
      }
      try {
        Optional<String> invalid = tiers.invalidReason(job);
        invalid.ifPresent(reason -> failJob(job, ReasonCode.INVALID_JOB, reason));
      } catch (RuntimeException e) {
        failJob(job, ReasonCode.INVALID_JOB, "validating the job failed: " + e);
      }
    }
  }

  public Instant now() {
    return now;
  }

  /** The configuration's topology levels, set before the plugins open. */
  void useTopologyLevels(TopologyLevels levels) {
    this.topologyLevels = levels == null ? TopologyLevels.NONE : levels;
  }

  /** The configuration's fairness over time, set before the plugins open. */
  void useFairness(FairnessConfiguration newFairness) {
    this.fairness = newFairness == null ? FairnessConfiguration.OFF : newFairness;
    this.namespaceOrder = fairness.namespaceOrder() ? new NamespaceUsageOrder(this) : null;
  }

  /**
   * How past usage counts in this cycle ({@link FairnessConfiguration#OFF} unless the configuration
   * says).
   */
  public FairnessConfiguration fairness() {
    return fairness;
  }

  /** The queue's past usage as the snapshot gives it; {@link QueueUsage#NONE} without history. */
  public QueueUsage usageOf(QueueState queue) {
    return usage.getOrDefault(queue.name(), QueueUsage.NONE);
  }

  /** The cluster's topology levels, widest first (none unless the configuration lists them). */
  public TopologyLevels topologyLevels() {
    return topologyLevels;
  }

  /**
   * One value per session and type, made by {@code factory} the first time it is asked for: how an
   * index over the session's nodes (topology domains) is built once and shared by the actions.
   */
  public <T> T extension(Class<T> type, Function<Session, T> factory) {
    Object existing = extensions.get(type);
    if (existing == null) {
      existing = factory.apply(this);
      extensions.put(type, existing);
    }
    return type.cast(existing);
  }

  /** From now on, {@code watcher} is told of every change to every node's ledger. */
  public void watchNodeLedgers(NodeLedgerWatcher watcher) {
    ledgerWatchers = Arrays.copyOf(ledgerWatchers, ledgerWatchers.length + 1);
    ledgerWatchers[ledgerWatchers.length - 1] = watcher;
    for (NodeState node : nodes) {
      node.watch(ledgerWatchers);
    }
  }

  public ResourceDimensions dimensions() {
    return dimensions;
  }

  public Tiers tiers() {
    return tiers;
  }

  public NodeSearch nodeSearch() {
    return nodeSearch;
  }

  public List<NodeState> nodes() {
    return Collections.unmodifiableList(java.util.Arrays.asList(nodes));
  }

  NodeState[] nodeArray() {
    return nodes;
  }

  public Optional<NodeState> node(String name) {
    return Optional.ofNullable(nodesByName.get(name));
  }

  /** Every distinct placement constraints object of the session's tasks (compared by identity). */
  public Collection<PlacementConstraints> taskConstraints() {
    return Collections.unmodifiableSet(taskConstraints);
  }

  /**
   * The same, of the tasks pending when the session opened: what plugins look at to decide what
   * they need.
   */
  public Collection<PlacementConstraints> pendingTaskConstraints() {
    return Collections.unmodifiableSet(pendingTaskConstraints);
  }

  public List<JobState> jobs() {
    return Collections.unmodifiableList(jobs);
  }

  public Optional<JobState> job(String key) {
    return Optional.ofNullable(jobsByKey.get(key));
  }

  public List<QueueState> queues() {
    return List.copyOf(queues.values());
  }

  /**
   * The queues in the order actions serve them ({@link #compareQueues}), as their shares stand now.
   * With {@link #jobsInOrder}, the one walk of queues and jobs the actions share.
   */
  public List<QueueState> queuesInOrder() {
    List<QueueState> tops = new ArrayList<>();
    for (QueueState queue : queues.values()) {
      if (queue.parent() == null) {
        tops.add(queue);
      }
    }
    List<QueueState> ordered = new ArrayList<>(queues.size());
    addInOrder(tops, ordered);
    return ordered;
  }

  /**
   * Depth first: siblings in {@link #compareQueues} order, each followed by its subtree, so that a
   * subtree below its share is served before a sibling subtree above its own.
   */
  private void addInOrder(List<QueueState> siblings, List<QueueState> ordered) {
    List<QueueState> sorted = new ArrayList<>(siblings);
    sorted.sort(this::compareQueues);
    for (QueueState queue : sorted) {
      ordered.add(queue);
      if (!queue.isLeaf()) {
        addInOrder(queue.children(), ordered);
      }
    }
  }

  /**
   * The queue's jobs that {@code which} selects, in job order ({@link #compareJobs}) as it stands
   * now. Asked when a walk reaches the queue rather than for all queues up front: serving one queue
   * may change which jobs of the next qualify (reclaim evicts from other queues).
   */
  public List<JobState> jobsInOrder(QueueState queue, Predicate<JobState> which) {
    List<JobState> selected = new ArrayList<>();
    for (JobState job : jobs) {
      if (job.queue() == queue && which.test(job)) {
        selected.add(job);
      }
    }
    selected.sort(this::compareJobs);
    return selected;
  }

  public Optional<QueueState> queue(String name) {
    return Optional.ofNullable(queues.get(name));
  }

  /** Sum of allocatable over all nodes (pods excluded). */
  public long clusterAllocatable(int dimension) {
    return clusterAllocatable[dimension];
  }

  /** Sum of the minimum of every job enqueued in this cycle that has nothing placed yet. */
  public long clusterInqueue(int dimension) {
    return clusterInqueue[dimension];
  }

  void restoreReleaseGeneration(long generation) {
    this.releaseGeneration = generation;
  }

  /**
   * Grows each time resources are given back, so that "fitted nowhere" memories can be invalidated.
   */
  public long releaseGeneration() {
    return releaseGeneration;
  }

  public Statement newStatement() {
    return new Statement(this);
  }

  void opened(Statement statement) {
    openStatements.addLast(statement);
  }

  void closed(Statement statement) {
    openStatements.removeLastOccurrence(statement);
  }

  /**
   * Runs one job's part of an action. A failure there (a bug, or job data no rule foresaw) fails
   * that job alone, with a reason naming the step, and the action goes on with the next job: one
   * job must never stop a cycle for all. Statements the step left open are discarded first, newest
   * first, so nothing it half did stays placed.
   *
   * @param step what was being done, as in "{step} the job failed: …" ("scheduling", "preempting
   *     for")
   */
  public void forOneJob(JobState job, String step, Runnable work) {
    int openBefore = openStatements.size();
    try {
      work.run();
    } catch (RuntimeException e) {
      failStep(job, step, openBefore, e);
    }
  }

  /**
   * {@link #forOneJob(JobState, String, Runnable)} for a step with an answer.
   *
   * @return what {@code work} returned, or false when it failed
   */
  public boolean forOneJob(JobState job, String step, BooleanSupplier work) {
    int openBefore = openStatements.size();
    try {
      return work.getAsBoolean();
    } catch (RuntimeException e) {
      failStep(job, step, openBefore, e);
      return false;
    }
  }

  private void failStep(JobState job, String step, int openBefore, RuntimeException e) {
    while (openStatements.size() > openBefore) {
      openStatements.peekLast().discard();
    }
    failJob(job, ReasonCode.INVALID_JOB, step + " the job failed: " + e);
  }

  /**
   * Orders two jobs for scheduling; a total order. Jobs of different queues are ordered by queue
   * name (actions only compare jobs of one queue). Within a queue, jobs following the queue's own
   * jobQueuePolicy come before jobs that override it, because a Priority order and a DRF order
   * cannot be merged into one transitive order; then, when the configuration's {@code
   * fairness.namespaceOrder} is on, the job of the namespace that used least in the queue; then the
   * plugins' orders decide, tier by tier; the last word is the job's key and uid.
   */
  public int compareJobs(JobState first, JobState second) {
    if (first == second) {
      return 0;
    }
    String firstQueue = first.info().queue();
    String secondQueue = second.info().queue();
    if (!firstQueue.equals(secondQueue)) {
      return firstQueue.compareTo(secondQueue);
    }
    if (first.jobQueuePolicy() != second.jobQueuePolicy()) {
      QueueState queue = first.queue();
      if (queue != null && first.jobQueuePolicy() == queue.info().jobQueuePolicy()) {
        return -1;
      }
      if (queue != null && second.jobQueuePolicy() == queue.info().jobQueuePolicy()) {
        return 1;
      }
      return first.jobQueuePolicy().compareTo(second.jobQueuePolicy());
    }
    if (namespaceOrder != null) {
      int byNamespace = namespaceOrder.compare(first, second);
      if (byNamespace != 0) {
        return byNamespace;
      }
    }
    int byPlugins = tiers.compareJobs(first, second);
    if (byPlugins != 0) {
      return byPlugins;
    }
    int byKey = first.key().compareTo(second.key());
    return byKey != 0 ? byKey : first.info().uid().compareTo(second.info().uid());
  }

  /**
   * Orders sibling queues for service; a total order: the higher queue {@code priority} first, then
   * the plugins' order (e.g. the lower share), then the queue name.
   */
  public int compareQueues(QueueState first, QueueState second) {
    if (first == second) {
      return 0;
    }
    int byPriority = Integer.compare(second.info().priority(), first.info().priority());
    if (byPriority != 0) {
      return byPriority;
    }
    int byPlugins = tiers.compareQueues(first, second);
    return byPlugins != 0 ? byPlugins : first.name().compareTo(second.name());
  }

  public boolean isJobReady(JobState job) {
    return tiers.isJobReady(job);
  }

  /**
   * Marks a job as failed for this cycle and gives back what it holds, so that other jobs can use
   * it at once. A failed job keeps no allocations in its decision.
   */
  public void failJob(JobState job, ReasonCode reason, String message) {
    releasePlacements(job);
    job.fail(new JobNote(reason, message));
  }

  /** Gives back every placement the job holds (e.g. an expired NonStrict reservation). */
  public void releasePlacements(JobState job) {
    for (TaskState task : job.tasks()) {
      if (task.status().isPlaced()) {
        unplace(task);
      }
    }
  }

  /**
   * Keeps a job that lost its minimum to preemption or reclaim from being placed again in this
   * cycle: its pods are still being released, and it goes to rescheduling.
   */
  public void holdBack(JobState job, JobNote reason) {
    job.holdBack(reason);
  }

  /** Records victims chosen for a preemptor in this cycle; they appear in the cycle's result. */
  public void recordVictims(JobState preemptor, List<Victim> victims) {
    if (victims.isEmpty()) {
      return;
    }
    List<Victim> recorded =
        victimsByPreemptor.computeIfAbsent(preemptor.key(), key -> new ArrayList<>());
    for (Victim victim : victims) {
      int earlier = indexOfJob(recorded, victim);
      if (earlier < 0) {
        recorded.add(victim);
      } else {
        recorded.set(earlier, recorded.get(earlier).joinedWith(victim));
      }
    }
  }

  /** Where the list holds a victim of the same job; -1 when it holds none. */
  private static int indexOfJob(List<Victim> recorded, Victim victim) {
    for (int i = 0; i < recorded.size(); i++) {
      if (recorded.get(i).jobKey().equals(victim.jobKey())) {
        return i;
      }
    }
    return -1;
  }

  /** Victims chosen in this cycle, by the {@code namespace/name} of the job they make room for. */
  public Map<String, List<Victim>> victims() {
    Map<String, List<Victim>> copy = new LinkedHashMap<>();
    victimsByPreemptor.forEach((key, list) -> copy.put(key, List.copyOf(list)));
    return copy;
  }

  /** Refuses the job entry for this cycle; actions will not place it. */
  public void refuseEnqueue(JobState job, String message) {
    job.refuseEnqueue(new JobNote(ReasonCode.NOT_ENQUEUED, message));
  }

  /** Counts an enqueued job's minimum against its queue and the cluster until it is placed. */
  public void recordEnqueued(JobState job) {
    if (job.placedTasks() == 0 && job.queue() != null) {
      long[] minimum = job.minimumRequest();
      minimum[ResourceDimensions.PODS] = 0;
      job.queue().addInqueue(minimum, job.info().preemptable());
      ResourceDimensions.add(clusterInqueue, minimum);
    }
  }

  void place(TaskState task, NodeState node, TaskStatus status) {
    if (!task.isPending()) {
      throw new IllegalStateException(
          "task " + task.podName() + " is " + task.status() + ", not pending");
    }
    if (status == TaskStatus.ALLOCATED) {
      node.addUsed(task.request());
    } else if (status == TaskStatus.PIPELINED) {
      node.addPipelined(task.request());
    } else {
      throw new IllegalArgumentException("cannot place task " + task.podName() + " as " + status);
    }
    if (snapshotDeviceTasks != null && node.gpuDevices() != null && gpuMilli(task, node) > 0) {
      snapshotDeviceTasks.add(task);
    } else {
      takeGpuDevices(task, node, status);
    }
    task.moveTo(status, node);
    task.job().recordPlaced(task, node, task.request());
    if (task.job().queue() != null) {
      task.job().queue().addAllocated(task.request(), task.job().info().preemptable());
    }
    for (PlacementListener listener : placementListeners) {
      listener.placed(task, node);
    }
  }

  void unplace(TaskState task) {
    unplace(task, true);
  }

  /**
   * Gives a task's place back; {@code release} is false when a statement restores an earlier state.
   */
  void unplace(TaskState task, boolean release) {
    NodeState node = task.node();
    if (task.status() == TaskStatus.ALLOCATED) {
      node.subtractUsed(task.request());
    } else if (task.status() == TaskStatus.PIPELINED) {
      node.subtractPipelined(task.request());
    } else {
      throw new IllegalStateException(
          "task " + task.podName() + " is " + task.status() + ", not placed");
    }
    GpuDevices devices = node.gpuDevices();
    long milli = gpuMilli(task, node);
    if (devices != null && milli > 0) {
      if (task.status() == TaskStatus.ALLOCATED) {
        devices.unhold(task.gpuDevices(), milli);
      } else {
        devices.unclaim(task.gpuDevices(), milli);
      }
      task.useGpuDevices(null);
    }
    task.job().recordUnplaced(task, node, task.request());
    if (task.job().queue() != null) {
      task.job().queue().subtractAllocated(task.request(), task.job().info().preemptable());
    }
    task.moveTo(TaskStatus.PENDING, null);
    for (PlacementListener listener : placementListeners) {
      listener.removed(task, node);
    }
    if (release) {
      releaseGeneration++;
    }
  }

  void markReleasing(TaskState task) {
    if (task.status() != TaskStatus.ALLOCATED) {
      throw new IllegalStateException(
          "only an allocated task can be evicted; " + task.podName() + " is " + task.status());
    }
    NodeState node = task.node();
    node.addReleasing(task.request());
    if (node.gpuDevices() != null && gpuMilli(task, node) > 0) {
      node.gpuDevices().release(task.gpuDevices(), gpuMilli(task, node));
    }
    task.job().recordUnplaced(task, node, task.request());
    if (task.job().queue() != null) {
      task.job().queue().subtractAllocated(task.request(), task.job().info().preemptable());
    }
    task.moveTo(TaskStatus.RELEASING, node);
    releaseGeneration++;
  }

  void unmarkReleasing(TaskState task) {
    NodeState node = task.node();
    node.subtractReleasing(task.request());
    if (node.gpuDevices() != null && gpuMilli(task, node) > 0) {
      node.gpuDevices().unrelease(task.gpuDevices(), gpuMilli(task, node));
    }
    task.moveTo(TaskStatus.ALLOCATED, node);
    task.job().recordPlaced(task, node, task.request());
    if (task.job().queue() != null) {
      task.job().queue().addAllocated(task.request(), task.job().info().preemptable());
    }
  }

  private static long gpuMilli(TaskState task, NodeState node) {
    return node.gpuDimension() < 0 ? 0 : task.request(node.gpuDimension());
  }

  /**
   * Seats the snapshot's placed tasks on devices. A share whose device the scheduler recorded (the
   * device the node was told to give it) goes there again, as long as the device still holds it.
   * The rest are seated again, largest share first (whole GPUs, then fractions by size), each by
   * the device rule: in the snapshot's order a small share could take the only device a larger one
   * fits, and a node whose shares had fitted would count a device above one GPU. Whole GPUs carry
   * no index (the node's device plugin picks them among the devices no share holds).
   */
  private void seatSnapshotTasksOnDevices() {
    snapshotDeviceTasks.removeIf(Session::seatOnRecordedDevice);
    snapshotDeviceTasks.sort(
        Comparator.comparingLong(
                (TaskState task) ->
                    -(gpuMilli(task, task.node()) >= GpuDevices.WHOLE
                        ? gpuMilli(task, task.node()) * GpuDevices.WHOLE
                        : gpuMilli(task, task.node())))
            .thenComparing(TaskState::podName));
    for (TaskState task : snapshotDeviceTasks) {
      NodeState node = task.node();
      long milli = gpuMilli(task, node);
      GpuDevices devices = node.gpuDevices();
      if (task.status() == TaskStatus.RELEASING) {
        task.useGpuDevices(devices.chooseForExisting(milli));
        devices.hold(task.gpuDevices(), milli);
        devices.release(task.gpuDevices(), milli);
      } else {
        takeGpuDevices(task, node, task.status());
      }
    }
    snapshotDeviceTasks = null;
  }

  private static boolean seatOnRecordedDevice(TaskState task) {
    Integer recorded = task.job().info().gpuDevices().get(task.podName());
    if (recorded == null
        || (task.status() != TaskStatus.ALLOCATED && task.status() != TaskStatus.RELEASING)) {
      return false;
    }
    NodeState node = task.node();
    GpuDevices devices = node.gpuDevices();
    long milli = gpuMilli(task, node);
    if (!GpuDevices.isFraction(milli)
        || recorded < 0
        || recorded >= devices.count()
        || devices.held(recorded) + milli > GpuDevices.WHOLE) {
      return false;
    }
    int[] seat = {recorded};
    task.useGpuDevices(seat);
    devices.hold(seat, milli);
    if (task.status() == TaskStatus.RELEASING) {
      devices.release(seat, milli);
    }
    return true;
  }

  /**
   * Gives a task being placed its GPU devices by the device rule: for a pipelined task, among what
   * will be free once releases are done. A placement the rule cannot hold (a snapshot's task on a
   * node over-committed by other pods) is counted on the least held devices, so the ledger stays
   * whole.
   */
  private static void takeGpuDevices(TaskState task, NodeState node, TaskStatus status) {
    GpuDevices devices = node.gpuDevices();
    long milli = gpuMilli(task, node);
    if (devices == null || milli == 0) {
      return;
    }
    boolean pipelined = status == TaskStatus.PIPELINED;
    int[] chosen = devices.choose(milli, pipelined);
    if (chosen == null) {
      chosen = devices.chooseForExisting(milli);
    }
    task.useGpuDevices(chosen);
    if (pipelined) {
      devices.claim(chosen, milli);
    } else {
      devices.hold(chosen, milli);
    }
  }
}
