package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import io.tyrl.arranger.scheduler.framework.FitDiagnosis;
import io.tyrl.arranger.scheduler.framework.JobNote;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.NodeSearch;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.PlacementSummary;
import io.tyrl.arranger.scheduler.framework.QueueState;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.Statement;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Places a job's pending pods into a statement and explains, in the job's note, what could not be
 * placed: its gang minimum all at once ({@link #placeMinimum}), then its elastic pods one at a time
 * ({@link #placeNext}), or, for backfill, every pod a filter accepts ({@link #placePending}).
 */
final class JobPlacer {

  /**
   * What one pass over a job's pending pods found.
   *
   * @param blocked why a pod was not tried, or the pass stopped before trying every pod it could (the
   *     queue's capability, or a gang minimum the room left cannot hold); null otherwise
   * @param settledBeforePlacing true when the room left was found too small for the minimum before any
   *     pod was placed
   */
  record Outcome(TaskState firstUnplaced, FitDiagnosis diagnosis, String neverFits, String blocked, boolean settledBeforePlacing) {
    Outcome(TaskState firstUnplaced, FitDiagnosis diagnosis, String neverFits, String blocked) {
      this(firstUnplaced, diagnosis, neverFits, blocked, false);
    }

    boolean neverFitsFound() {
      return neverFits != null;
    }

    static Outcome placed() {
      return new Outcome(null, null, null, null);
    }
  }

  /** The room left cannot hold the minimum: why, and why nodes turn away the first pod shape that fell short (if none fit it). */
  private record Shortage(String why, TaskState example, FitDiagnosis diagnosis) {}

  private final Session session;
  private final PlacementOptions options;

  JobPlacer(Session session, PlacementOptions options) {
    this.session = session;
    this.options = options;
  }

  /**
   * Places the job's gang minimum, leader first, and stops as soon as the job is ready; its other pods
   * are elastic and placed one at a time afterwards. A pod that fits only in room being released (pods
   * being deleted) is pipelined there, as preemption does, so that no later job takes that room; the
   * job then waits for the release. A job that keeps nothing unless its minimum is met (Strict, or
   * NonStrict past its reservation timeout) stops at the first sign the minimum cannot be met — the
   * leader has no node, or too few pods are left to try; {@link #checkRoom} should have been asked
   * first, so that a minimum the room left cannot hold is turned away before any pod is placed.
   */
  Outcome placeMinimum(JobState job, Statement statement) {
    boolean allOrNothing = !session.tiers().mayKeepPartialPlacements(job);
    int neededWorkers = Math.min(job.minimumWorkers(), job.workerCount());
    NodeSearch search = session.nodeSearch();
    TaskState firstUnplaced = null;
    FitDiagnosis diagnosis = null;
    String blocked = null;
    int workersNeverFitting = 0;
    int spareWorkers = job.workerCount() - neededWorkers;
    List<TaskState> pending = job.pendingTasks();
    int workersLeftToTry = job.workerCount() - job.placedWorkers();
    for (TaskState task : pending) {
      if (isReady(job)) {
        break;
      }
      if (!task.isLeader()) {
        workersLeftToTry--;
      }
      Optional<String> overCapability = overCapability(task);
      if (overCapability.isPresent()) {
        blocked = overCapability.get();
      } else {
        NodeSearch.Result result = search.findBest(task, options.percentageOfNodesToScore(), options.minFeasibleNodesToFind());
        if (result.found()) {
          statement.allocate(task, result.node());
          continue;
        }
        NodeState releasing = search.findBestReleasing(task);
        if (releasing != null) {
          statement.pipeline(task, releasing);
          continue;
        }
        if (firstUnplaced == null) {
          firstUnplaced = task;
          diagnosis = result.diagnosis();
        }
        Optional<String> never = search.neverFitsReason(task);
        if (never.isPresent() && (task.isLeader() || ++workersNeverFitting > spareWorkers)) {
          return new Outcome(task, result.diagnosis(), never.get(), null);
        }
      }
      boolean minimumOutOfReach = task.isLeader() || job.placedWorkers() + workersLeftToTry < neededWorkers;
      if (allOrNothing && minimumOutOfReach) {
        return withNeverFits(job, new Outcome(firstUnplaced, diagnosis, null, blocked));
      }
    }
    return new Outcome(firstUnplaced, diagnosis, null, blocked);
  }

  /**
   * For a job that keeps nothing unless its minimum is met: the verdict, reached without placing a
   * pod, that the room left cannot hold its minimum (the room for its pending workers, counted per
   * shape, is short of what it still needs; a leader without room is found by its first search). Empty when the minimum
   * may fit, or the job may keep partial placements. Ask it outside a statement where possible: what
   * it learns is remembered until something is released, unless a statement around it is discarded.
   */
  Optional<Outcome> checkRoom(JobState job) {
    if (session.tiers().mayKeepPartialPlacements(job) || isReady(job)) {
      return Optional.empty();
    }
    int neededWorkers = Math.min(job.minimumWorkers(), job.workerCount()) - job.placedWorkers();
    return shortOfRoom(job, neededWorkers)
        .map(found -> withNeverFits(job, new Outcome(found.example(), found.diagnosis(), null, found.why(), true)));
  }

  /**
   * Places the first pending pod of a ready job that has room, on idle room only: pipelining an elastic
   * pod would hold a running job as waiting for victims. Pods of a shape that found no room (or would
   * pass the queue's capability) are skipped, so a WorkerSet that does not fit does not hold back one
   * that does. Places nothing when no pending pod has room; the outcome then says why the first did not.
   */
  Outcome placeNext(JobState job, Statement statement) {
    NodeSearch search = session.nodeSearch();
    Outcome first = null;
    TaskState lastRefused = null;
    for (TaskState task : job.pendingTasks()) {
      if (lastRefused != null && sameShape(lastRefused, task)) {
        continue;
      }
      Optional<String> overCapability = overCapability(task);
      Outcome refused;
      if (overCapability.isPresent()) {
        refused = new Outcome(task, null, null, overCapability.get());
      } else {
        NodeSearch.Result result = search.findBest(task, options.percentageOfNodesToScore(), options.minFeasibleNodesToFind());
        if (result.found()) {
          statement.allocate(task, result.node());
          return Outcome.placed();
        }
        refused = new Outcome(task, result.diagnosis(), null, null);
      }
      first = first == null ? refused : first;
      lastRefused = task;
    }
    return first;
  }

  /**
   * Tries each pending pod that {@code which} accepts, leader first (backfill's pass, over pods that ask
   * for nothing). Never ends in NeverFits: a pod that asks for nothing but its slot fits every node
   * that admits it, and a node that admits none today may tomorrow (labels and taints change).
   */
  Outcome placePending(JobState job, Statement statement, Predicate<TaskState> which) {
    NodeSearch search = session.nodeSearch();
    TaskState firstUnplaced = null;
    FitDiagnosis diagnosis = null;
    for (TaskState task : job.pendingTasks()) {
      if (!which.test(task)) {
        continue;
      }
      NodeSearch.Result result = search.findBest(task, options.percentageOfNodesToScore(), options.minFeasibleNodesToFind());
      if (result.found()) {
        statement.allocate(task, result.node());
      } else if (firstUnplaced == null) {
        firstUnplaced = task;
        diagnosis = result.diagnosis();
      }
    }
    return new Outcome(firstUnplaced, diagnosis, null, null);
  }

  /**
   * Keeps the statement if the job is ready or may keep partial placements, else discards it; notes
   * why. Returns true when the job is ready.
   */
  boolean settle(JobState job, Statement statement, Outcome outcome) {
    if (outcome.neverFitsFound()) {
      statement.discard();
      session.failJob(job, ReasonCode.NEVER_FITS, outcome.neverFits());
      return false;
    }
    if (isReady(job)) {
      statement.commit();
      if (job.isWaitingForVictims()) {
        job.note(new JobNote(ReasonCode.WAITING_FOR_VICTIMS, PlacementSummary.describe(job, "pipelined")
            + " onto resources being released on " + String.join(", ", nodesPipelinedOn(job))));
      } else if (!job.isFullyPlaced()) {
        note(job, PlacementSummary.describe(job) + explain(outcome));
      }
      return true;
    }
    if (session.tiers().mayKeepPartialPlacements(job)) {
      statement.commit();
      note(job, "NonStrict reservation, gang minimum " + PlacementSummary.describeMinimum(job) + " not met yet: "
          + PlacementSummary.describe(job) + explain(outcome));
      return false;
    }
    if (outcome.settledBeforePlacing()) {
      statement.discard();
      note(job, "gang minimum " + PlacementSummary.describeMinimum(job) + " not met (" + PlacementSummary.describe(job)
          + ")" + explain(outcome));
      return false;
    }
    String couldBePlaced = PlacementSummary.describe(job, "could be placed");
    statement.discard();
    note(job, "gang minimum " + PlacementSummary.describeMinimum(job) + " not met (" + couldBePlaced + ")" + explain(outcome));
    return false;
  }

  private static Optional<String> overCapability(TaskState task) {
    QueueState queue = task.job().queue();
    return queue == null ? Optional.empty() : queue.capability().refusal(task);
  }

  boolean isReady(JobState job) {
    return job.placedTasks() > 0 && session.isJobReady(job);
  }

  /**
   * Why the room left cannot hold the {@code needed} workers the job still lacks, if so: summed over
   * its pending workers grouped by shape (constraints and request), the room for each shape
   * ({@link NodeSearch#roomFor}, an upper bound) falls short. Cheap — no pod is placed.
   */
  private Optional<Shortage> shortOfRoom(JobState job, int needed) {
    if (needed <= 0) {
      return Optional.empty();
    }
    long room = 0;
    NodeSearch.Room shortest = null;
    TaskState shortestShape = null;
    TaskState shapeStart = null;
    int shapeCount = 0;
    List<TaskState> tasks = job.tasks();
    for (int i = 0; i <= tasks.size(); i++) {
      TaskState task = i < tasks.size() ? tasks.get(i) : null;
      if (task != null && (task.isLeader() || !task.isPending())) {
        continue;
      }
      if (task != null && shapeStart != null && sameShape(shapeStart, task)) {
        shapeCount++;
        continue;
      }
      if (shapeStart != null) {
        int wanted = (int) Math.min(shapeCount, needed - room);
        NodeSearch.Room found = session.nodeSearch().roomFor(shapeStart, wanted);
        room += found.pods();
        if (room >= needed) {
          return Optional.empty();
        }
        if (found.pods() < wanted && shortest == null) {
          shortest = found;
          shortestShape = shapeStart;
        }
      }
      shapeStart = task;
      shapeCount = 1;
    }
    if (shortest == null) {
      return Optional.empty();
    }
    // Where some room is left, "n/m nodes fit" would only repeat that nodes fit a few; the count says more.
    FitDiagnosis diagnosis = shortest.pods() == 0 ? shortest.diagnosis() : null;
    return Optional.of(new Shortage("the room left holds at most " + room + " of the " + needed + " more workers it needs",
        shortestShape, diagnosis));
  }

  private static boolean sameShape(TaskState first, TaskState second) {
    return first.info().constraints().equals(second.info().constraints()) && Arrays.equals(first.request(), second.request());
  }

  /** Adds a NeverFits verdict to an early stop when some pod of the minimum can never fit. */
  private Outcome withNeverFits(JobState job, Outcome outcome) {
    return minimumNeverFits(session, job)
        .map(verdict -> new Outcome(verdict.task(), outcome.diagnosis(), verdict.reason(), null))
        .orElse(outcome);
  }

  /** A pod that can never fit, and why. */
  record NeverFits(TaskState task, String reason) {}

  /**
   * Whether the job's minimum can never be met on the cluster's nodes, even empty: its leader, or
   * more of its pending workers than its minimum can spare, fit no node (too large for each, or a
   * resource no node has; see {@link NodeSearch#neverFitsReason}).
   */
  static Optional<NeverFits> minimumNeverFits(Session session, JobState job) {
    NodeSearch search = session.nodeSearch();
    int spareWorkers = job.workerCount() - Math.min(job.minimumWorkers(), job.workerCount());
    int workersNeverFitting = 0;
    TaskState previous = null;
    Optional<String> previousVerdict = Optional.empty();
    for (TaskState task : job.pendingTasks()) {
      // Consecutive pods of one shape share a verdict; asking once per run keeps a 256-worker gang cheap.
      Optional<String> never = previous != null && !task.isLeader() && !previous.isLeader() && sameShape(previous, task)
          ? previousVerdict : search.neverFitsReason(task);
      previous = task;
      previousVerdict = never;
      if (never.isPresent() && (task.isLeader() || ++workersNeverFitting > spareWorkers)) {
        return Optional.of(new NeverFits(task, never.get()));
      }
    }
    return Optional.empty();
  }

  private static Set<String> nodesPipelinedOn(JobState job) {
    Set<String> nodes = new TreeSet<>();
    for (TaskState task : job.tasks()) {
      if (task.status() == TaskStatus.PIPELINED) {
        nodes.add(task.node().name());
      }
    }
    return nodes;
  }

  static String explain(Outcome outcome) {
    String blocked = outcome.blocked() == null ? "" : "; " + outcome.blocked();
    return blocked + (outcome.diagnosis() == null ? "" : "; " + outcome.diagnosis().describe(outcome.firstUnplaced().info().roleName()));
  }

  /** Notes an Unschedulable reason, keeping a released-reservation note of this cycle in front. */
  static void note(JobState job, String message) {
    JobNote previous = job.note();
    if (previous != null && previous.reason() == ReasonCode.GANG_RESERVATION_RELEASED) {
      job.note(new JobNote(ReasonCode.GANG_RESERVATION_RELEASED, previous.message() + "; " + message));
    } else {
      job.note(new JobNote(ReasonCode.UNSCHEDULABLE, message));
    }
  }
}
