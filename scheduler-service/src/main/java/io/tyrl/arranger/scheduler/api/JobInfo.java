package io.tyrl.arranger.scheduler.api;

import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A TYJob as the scheduler sees it: identity, queue, ordering inputs, gang rules and its tasks (a
 * leader and the workers of every WorkerSet). Tasks already placed in earlier cycles carry their node
 * and are the job's existing allocations.
 *
 * @param basicPolicy    null = the scheduler's default node order
 * @param jobQueuePolicy null = the policy of the job's queue
 * @param reservedSince  when the job's current NonStrict partial reservation began, as written back
 *                       from the previous cycle's {@link JobDecision#reservedSince()}; null if none
 * @param preemptable    false when the job opted out of being a preemption or reclaim victim, with the
 *                       annotation {@value #PREEMPTABLE_ANNOTATION}{@code : "false"}; any other value, or
 *                       none, means true
 * @param awaitingVictims true when the previous cycle left the job waiting for its victims (its
 *                       {@code status.scheduling.reason} is {@code WaitingForVictims}): the room they are
 *                       releasing is its own, so it claims that room again before any other job may
 * @param preemptionPolicy NEVER when the job waits for room rather than evict others; null = the default,
 *                       PREEMPT_LOWER_PRIORITY
 */
public record JobInfo(String namespace, String name, String uid, String queue, int priority, Instant creationTime,
    int minWorkersNum, BasicPolicy basicPolicy, JobQueuePolicy jobQueuePolicy, GangSpec gang, Instant reservedSince,
    List<TaskInfo> tasks, boolean preemptable, boolean awaitingVictims, PreemptionPolicy preemptionPolicy) {

  /** The TYJob annotation by which a job opts out of being a victim. */
  public static final String PREEMPTABLE_ANNOTATION = "arranger.tyrl.io/preemptable";

  public JobInfo {
    requireText(namespace, "namespace", null);
    requireText(name, "name", namespace);
    String key = namespace + "/" + name;
    uid = uid == null || uid.isBlank() ? key : uid;
    queue = queue == null || queue.isBlank() ? QueueInfo.DEFAULT_QUEUE : queue;
    if (priority < 1 || priority > 10) {
      throw new IllegalArgumentException("job " + key + ": priority must be within 1..10, was " + priority);
    }
    Objects.requireNonNull(creationTime, "job " + key + ": creationTime");
    if (minWorkersNum < 0) {
      throw new IllegalArgumentException("job " + key + ": minWorkersNum must be >= 0, was " + minWorkersNum);
    }
    gang = gang == null ? GangSpec.STRICT : gang;
    preemptionPolicy = preemptionPolicy == null ? PreemptionPolicy.PREEMPT_LOWER_PRIORITY : preemptionPolicy;
    tasks = List.copyOf(Objects.requireNonNull(tasks, "job " + key + ": tasks"));
    long leaders = tasks.stream().filter(TaskInfo::isLeader).count();
    if (leaders != 1) {
      throw new IllegalArgumentException("job " + key + ": exactly one leader task expected, found " + leaders);
    }
    Set<String> podNames = new HashSet<>();
    for (TaskInfo task : tasks) {
      if (!podNames.add(task.podName())) {
        throw new IllegalArgumentException("job " + key + ": duplicate pod name " + task.podName());
      }
    }
  }

  /** A job that may evict lower-priority ones (the shape before {@code preemptionPolicy} existed). */
  public JobInfo(String namespace, String name, String uid, String queue, int priority, Instant creationTime,
      int minWorkersNum, BasicPolicy basicPolicy, JobQueuePolicy jobQueuePolicy, GangSpec gang, Instant reservedSince,
      List<TaskInfo> tasks, boolean preemptable, boolean awaitingVictims) {
    this(namespace, name, uid, queue, priority, creationTime, minWorkersNum, basicPolicy, jobQueuePolicy, gang,
        reservedSince, tasks, preemptable, awaitingVictims, PreemptionPolicy.PREEMPT_LOWER_PRIORITY);
  }

  /** A job that may be a victim and waits for none (the shape before preemption existed). */
  public JobInfo(String namespace, String name, String uid, String queue, int priority, Instant creationTime,
      int minWorkersNum, BasicPolicy basicPolicy, JobQueuePolicy jobQueuePolicy, GangSpec gang, Instant reservedSince,
      List<TaskInfo> tasks) {
    this(namespace, name, uid, queue, priority, creationTime, minWorkersNum, basicPolicy, jobQueuePolicy, gang,
        reservedSince, tasks, true, false);
  }

  /** True when preempt and reclaim may evict other jobs to make room for this one. */
  public boolean mayPreempt() {
    return preemptionPolicy != PreemptionPolicy.NEVER;
  }

  /** Reads the opt-out annotation's value: only {@code "false"} (any case, trimmed) opts out. */
  public static boolean preemptableFromAnnotation(String value) {
    return value == null || !value.trim().equalsIgnoreCase("false");
  }

  private static void requireText(String value, String field, String namespace) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException((namespace == null ? "job" : "job in " + namespace) + ": " + field + " must not be blank");
    }
  }

  /** {@code namespace/name}: how jobs are keyed in decisions and gang groups. */
  public String key() {
    return namespace + "/" + name;
  }

  public TaskInfo leader() {
    for (TaskInfo task : tasks) {
      if (task.isLeader()) {
        return task;
      }
    }
    throw new IllegalStateException("job " + key() + " has no leader");
  }

  public List<TaskInfo> workers() {
    return tasks.stream().filter(task -> !task.isLeader()).toList();
  }

  public int workerCount() {
    return tasks.size() - 1;
  }

  public Optional<BasicPolicy> basicPolicyIfSet() {
    return Optional.ofNullable(basicPolicy);
  }

  public Optional<JobQueuePolicy> jobQueuePolicyIfSet() {
    return Optional.ofNullable(jobQueuePolicy);
  }

  /** Pod name → node of the tasks already placed (allocated or pipelined) before this cycle. */
  public Map<String, String> existingAllocations() {
    Map<String, String> allocations = new LinkedHashMap<>();
    for (TaskInfo task : tasks) {
      if (task.status().isPlaced()) {
        allocations.put(task.podName(), task.nodeName());
      }
    }
    return allocations;
  }
}
