package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.api.BasicPolicy;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.JobQueuePolicy;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A job inside a session: its tasks (leader first, then workers in snapshot order), what it holds
 * now, and the note or failure that will explain it in the cycle's decision.
 */
public final class JobState {

  private static final int[] NO_NODES = new int[0];

  private final int index;
  private final JobInfo info;

  /**
   * Made once: job order falls back to it, so sorting would otherwise build two strings per
   * comparison.
   */
  private final String key;

  private final QueueState queue;
  private final JobQueuePolicy jobQueuePolicy;

  /** {@code basicPolicy: Gang}, read once: the minimum is asked for on every readiness check. */
  private final boolean everyWorkerInMinimum;

  private final List<TaskState> tasks = new ArrayList<>();
  private final List<TaskState> tasksView = Collections.unmodifiableList(tasks);
  private final long[] allocated;
  private final NodeCounter podsPerNode = new NodeCounter();
  private long[] minimumRequest;
  private int placedWorkers;
  private boolean leaderPlaced;
  private JobNote note;
  private String evictionMiss;
  private JobNote failure;
  private boolean enqueueRefused;
  private boolean heldBack;
  private boolean queueBlocked;
  private int pipelinedTasks;

  JobState(int index, JobInfo info, QueueState queue, int dimensions) {
    this.index = index;
    this.info = info;
    this.key = info.key();
    this.queue = queue;
    this.jobQueuePolicy =
        info.jobQueuePolicyIfSet()
            .orElse(queue == null ? JobQueuePolicy.PRIORITY : queue.info().jobQueuePolicy());
    this.everyWorkerInMinimum = BasicPolicy.GANG.equals(info.basicPolicy());
    this.allocated = new long[dimensions];
  }

  void addTask(TaskState task) {
    if (task.isLeader()) {
      tasks.add(0, task);
    } else {
      tasks.add(task);
    }
  }

  /**
   * The job's position in {@link Session#jobs()}: plugins keep what they know of each job in an
   * array.
   */
  public int index() {
    return index;
  }

  public JobInfo info() {
    return info;
  }

  public String key() {
    return key;
  }

  /** The job's queue, or null when the job names a queue that does not exist. */
  public QueueState queue() {
    return queue;
  }

  /** The job's own jobQueuePolicy, else its queue's. */
  public JobQueuePolicy jobQueuePolicy() {
    return jobQueuePolicy;
  }

  public List<TaskState> tasks() {
    return tasksView;
  }

  public TaskState leader() {
    return tasks.get(0);
  }

  public List<TaskState> pendingTasks() {
    List<TaskState> pending = new ArrayList<>();
    for (TaskState task : tasks) {
      if (task.isPending()) {
        pending.add(task);
      }
    }
    return pending;
  }

  public boolean hasPendingTasks() {
    for (TaskState task : tasks) {
      if (task.isPending()) {
        return true;
      }
    }
    return false;
  }

  public int workerCount() {
    return tasks.size() - 1;
  }

  /**
   * Workers that must be placed with the leader before the job may start: all of them for {@code
   * basicPolicy: Gang}.
   */
  public int minimumWorkers() {
    return everyWorkerInMinimum ? workerCount() : info.minWorkersNum();
  }

  /**
   * The least the job's minimum can take: the leader plus, per resource, the {@link
   * #minimumWorkers()} smallest worker requests (capped at the workers it has), pods included.
   * Readiness counts any workers, whichever WorkerSet they belong to, so the minimum is not "the
   * first workers in spec order": with a set of 8-GPU workers listed before a set of CPU workers,
   * two CPU workers may make a job of {@code minWorkersNum: 2} ready. A per-resource lower bound is
   * what admission needs — a job is refused or found never to fit only when even its cheapest
   * minimum cannot be held.
   */
  public long[] minimumRequest() {
    if (minimumRequest == null) {
      minimumRequest = cheapestMinimum();
    }
    return minimumRequest.clone();
  }

  private long[] cheapestMinimum() {
    long[] minimum = tasks.get(0).request().clone();
    int workers = Math.min(minimumWorkers(), workerCount());
    if (workers == 0) {
      return minimum;
    }
    long[] column = new long[workerCount()];
    for (int d = 0; d < minimum.length; d++) {
      for (int i = 1; i < tasks.size(); i++) {
        column[i - 1] = tasks.get(i).request(d);
      }
      java.util.Arrays.sort(column);
      for (int i = 0; i < workers; i++) {
        minimum[d] += column[i];
      }
    }
    return minimum;
  }

  public boolean isLeaderPlaced() {
    return leaderPlaced;
  }

  /** The leader and the gang minimum of workers hold a place: what else the job asks is surplus. */
  public boolean isMinimumPlaced() {
    return leaderPlaced && placedWorkers >= Math.min(minimumWorkers(), workerCount());
  }

  public int placedWorkers() {
    return placedWorkers;
  }

  public int placedTasks() {
    return placedWorkers + (leaderPlaced ? 1 : 0);
  }

  public boolean isFullyPlaced() {
    return placedTasks() == tasks.size();
  }

  public long allocated(int dimension) {
    return allocated[dimension];
  }

  /** Pods of this job placed (allocated or pipelined) on the node in this session. */
  public int podsOn(NodeState node) {
    return podsPerNode.get(node.index());
  }

  /** Indices of the nodes that hold at least one of the job's pods, ascending. */
  int[] nodeIndicesInUse() {
    return placedTasks() == 0 ? NO_NODES : podsPerNode.positive();
  }

  public JobNote note() {
    return note;
  }

  public JobNote failure() {
    return failure;
  }

  public boolean isFailed() {
    return failure != null;
  }

  /** True when enqueue refused the job in this cycle: it waits outside its queue. */
  public boolean isEnqueueRefused() {
    return enqueueRefused;
  }

  /** True when actions may still try to place this job's pods in this cycle. */
  public boolean isSchedulable() {
    return failure == null
        && queue != null
        && !queueBlocked
        && !enqueueRefused
        && !heldBack
        && pipelinedTasks == 0;
  }

  /**
   * True when the job's queue, or one above it, is invalid in the queue tree, or the job names a
   * topology level the configuration does not list: the job waits and keeps what it holds.
   */
  public boolean isQueueBlocked() {
    return queueBlocked;
  }

  void blockByQueue(JobNote reason) {
    this.queueBlocked = true;
    this.note = reason;
  }

  public boolean isWaitingForVictims() {
    return pipelinedTasks > 0;
  }

  /**
   * True when the job lost its minimum to preemption or reclaim in this cycle; nothing places it
   * again in the cycle.
   */
  public boolean isHeldBack() {
    return heldBack;
  }

  void holdBack(JobNote reason) {
    this.heldBack = true;
    this.note = reason;
  }

  /** Records why the job is not (fully) placed; the latest note wins. */
  public void note(JobNote newNote) {
    this.note = newNote;
  }

  /**
   * Why preempt or reclaim, having looked for victims for this job, found none that make room. Kept
   * apart from {@link #note()}: an action placing after them (allocate) writes the note anew, and
   * the decision then says both why the job does not fit and why no one was evicted for it.
   */
  public void noteEvictionMiss(String why) {
    this.evictionMiss = why;
  }

  /** Why evicting for the job found no room in this cycle; null when no search missed. */
  public String evictionMiss() {
    return evictionMiss;
  }

  void fail(JobNote reason) {
    this.failure = reason;
  }

  void refuseEnqueue(JobNote reason) {
    this.enqueueRefused = true;
    this.note = reason;
  }

  void recordPlaced(TaskState task, NodeState node, long[] request) {
    if (task.status() == TaskStatus.PIPELINED) {
      pipelinedTasks++;
    }
    if (task.isLeader()) {
      leaderPlaced = true;
    } else {
      placedWorkers++;
    }
    ResourceDimensions.add(allocated, request);
    podsPerNode.add(node.index(), 1);
  }

  void recordUnplaced(TaskState task, NodeState node, long[] request) {
    if (task.status() == TaskStatus.PIPELINED) {
      pipelinedTasks--;
    }
    if (task.isLeader()) {
      leaderPlaced = false;
    } else {
      placedWorkers--;
    }
    ResourceDimensions.subtract(allocated, request);
    podsPerNode.add(node.index(), -1);
  }

  @Override
  public String toString() {
    return key;
  }
}
