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

  /** What one pass over a job's pending pods found. */
  sealed interface Outcome permits Placed, LeftUnplaced, ShortOfRoom, NeverFits, NoDomain {

    /**
     * Why pods are left unplaced, as the end of the job's note ("; why" parts), or "" when nothing
     * is.
     */
    String explanation();
  }

  /** Every pod the pass tried was placed (or pipelined). */
  record Placed() implements Outcome {
    @Override
    public String explanation() {
      return "";
    }
  }

  /** A pod that no node took, and why the nodes turned it away. */
  record Unfit(TaskState task, FitDiagnosis diagnosis) {
    String explanation() {
      return "; " + diagnosis.describe(task.info().roleName());
    }
  }

  /**
   * Some pod was left unplaced.
   *
   * @param unfit the first pod no node took, if one was searched for in vain
   * @param blocked why a pod was not tried, or the pass stopped before trying every pod it could
   *     (the queue's capability), if so
   */
  record LeftUnplaced(Optional<Unfit> unfit, Optional<String> blocked) implements Outcome {
    @Override
    public String explanation() {
      return blocked.map(why -> "; " + why).orElse("") + unfit.map(Unfit::explanation).orElse("");
    }
  }

  /**
   * The room left was found too small for the minimum before any pod was placed.
   *
   * @param unfit the first pod shape that found no room at all, if one did
   */
  record ShortOfRoom(String why, Optional<Unfit> unfit) implements Outcome {
    @Override
    public String explanation() {
      return "; " + why + unfit.map(Unfit::explanation).orElse("");
    }
  }

  /** A pod of the job's minimum that can never fit, and why. */
  record NeverFits(TaskState task, String reason) implements Outcome {
    @Override
    public String explanation() {
      return "; " + reason;
    }
  }

  /** No domain of the job's required topology level could take its minimum; {@code why} says so. */
  record NoDomain(String why) implements Outcome {
    @Override
    public String explanation() {
      return "; " + why;
    }
  }

  private static final Outcome PLACED = new Placed();

  private final Session session;
  private final PlacementOptions options;

  JobPlacer(Session session, PlacementOptions options) {
    this.session = session;
    this.options = options;
  }

  /**
   * Places the job's gang minimum, leader first, and stops as soon as the job is ready; its other
   * pods are elastic and placed one at a time afterwards. A pod that fits only in room being
   * released (pods being deleted) is pipelined there, as preemption does, so that no later job
   * takes that room; the job then waits for the release. A job that keeps nothing unless its
   * minimum is met (Strict, or NonStrict past its reservation timeout) stops at the first sign the
   * minimum cannot be met — the leader has no node, or too few pods are left to try; {@link
   * #checkRoom} should have been asked first, so that a minimum the room left cannot hold is turned
   * away before any pod is placed.
   */
  Outcome placeMinimum(JobState job, Statement statement) {
    if (TopologyPlacement.applies(session, job)) {
      return new TopologyPlacement(session, this).placeMinimum(job, statement);
    }
    return placeMinimumHere(job, statement);
  }

  /**
   * {@link #placeMinimum} wherever the node search, and the fences it is kept to, allow: the pass
   * {@link TopologyPlacement} makes in each domain it tries.
   */
  Outcome placeMinimumHere(JobState job, Statement statement) {
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
        NodeSearch.Result result =
            search.findBest(
                task, options.percentageOfNodesToScore(), options.minFeasibleNodesToFind());
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
          return new NeverFits(task, never.get());
        }
      }
      boolean minimumOutOfReach =
          task.isLeader() || job.placedWorkers() + workersLeftToTry < neededWorkers;
      if (allOrNothing && minimumOutOfReach) {
        return withNeverFits(job, tried(firstUnplaced, diagnosis, blocked));
      }
    }
    return tried(firstUnplaced, diagnosis, blocked);
  }

  /**
   * What a pass came to: nothing left unplaced, or the first pod no node took and what kept pods
   * from being tried.
   */
  private static Outcome tried(TaskState firstUnplaced, FitDiagnosis diagnosis, String blocked) {
    if (firstUnplaced == null && blocked == null) {
      return PLACED;
    }
    return new LeftUnplaced(
        firstUnplaced == null ? Optional.empty() : Optional.of(new Unfit(firstUnplaced, diagnosis)),
        Optional.ofNullable(blocked));
  }

  /**
   * For a job that keeps nothing unless its minimum is met: the verdict, reached without placing a
   * pod, that the room left cannot hold its minimum (the room for its pending workers, counted per
   * shape, is short of what it still needs; a leader without room is found by its first search).
   * Empty when the minimum may fit, or the job may keep partial placements. Ask it outside a
   * statement where possible: what it learns is remembered until something is released, unless a
   * statement around it is discarded.
   */
  Optional<Outcome> checkRoom(JobState job) {
    if (session.tiers().mayKeepPartialPlacements(job) || isReady(job)) {
      return Optional.empty();
    }
    int neededWorkers = Math.min(job.minimumWorkers(), job.workerCount()) - job.placedWorkers();
    return shortOfRoom(job, neededWorkers).map(found -> withNeverFits(job, found));
  }

  /**
   * Places the first pending pod of a ready job that has room, on idle room only: pipelining an
   * elastic pod would hold a running job as waiting for victims. Pods of a shape that found no room
   * (or would pass the queue's capability) are skipped, so a WorkerSet that does not fit does not
   * hold back one that does. Places nothing when no pending pod has room; the outcome then says why
   * the first did not.
   */
  Outcome placeNext(JobState job, Statement statement) {
    if (TopologyPlacement.applies(session, job)) {
      TopologyPlacement topology = new TopologyPlacement(session, this);
      return session
          .nodeSearch()
          .within(task -> topology.elasticFence(job, task), () -> placeNextHere(job, statement));
    }
    return placeNextHere(job, statement);
  }

  private Outcome placeNextHere(JobState job, Statement statement) {
    NodeSearch search = session.nodeSearch();
    Outcome first = PLACED;
    TaskState lastRefused = null;
    for (TaskState task : job.pendingTasks()) {
      if (lastRefused != null && sameShape(lastRefused, task)) {
        continue;
      }
      Optional<String> overCapability = overCapability(task);
      Outcome refused;
      if (overCapability.isPresent()) {
        refused = new LeftUnplaced(Optional.empty(), overCapability);
      } else {
        NodeSearch.Result result =
            search.findBest(
                task, options.percentageOfNodesToScore(), options.minFeasibleNodesToFind());
        if (result.found()) {
          statement.allocate(task, result.node());
          return PLACED;
        }
        refused =
            new LeftUnplaced(Optional.of(new Unfit(task, result.diagnosis())), Optional.empty());
      }
      first = first == PLACED ? refused : first;
      lastRefused = task;
    }
    return first;
  }

  /**
   * Tries each pending pod that {@code which} accepts, leader first (backfill's pass, over pods
   * that ask for nothing). Never ends in NeverFits: a pod that asks for nothing but its slot fits
   * every node that admits it, and a node that admits none today may tomorrow (labels and taints
   * change).
   */
  Outcome placePending(JobState job, Statement statement, Predicate<TaskState> which) {
    NodeSearch search = session.nodeSearch();
    TaskState firstUnplaced = null;
    FitDiagnosis diagnosis = null;
    for (TaskState task : job.pendingTasks()) {
      if (!which.test(task)) {
        continue;
      }
      NodeSearch.Result result =
          search.findBest(
              task, options.percentageOfNodesToScore(), options.minFeasibleNodesToFind());
      if (result.found()) {
        statement.allocate(task, result.node());
      } else if (firstUnplaced == null) {
        firstUnplaced = task;
        diagnosis = result.diagnosis();
      }
    }
    return tried(firstUnplaced, diagnosis, null);
  }

  /**
   * Keeps the statement if the job is ready or may keep partial placements, else discards it; notes
   * why. Returns true when the job is ready.
   */
  boolean settle(JobState job, Statement statement, Outcome outcome) {
    if (outcome instanceof NeverFits never) {
      statement.discard();
      session.failJob(job, ReasonCode.NEVER_FITS, never.reason());
      return false;
    }
    if (isReady(job)) {
      statement.commit();
      if (job.isWaitingForVictims()) {
        job.note(
            new JobNote(
                ReasonCode.WAITING_FOR_VICTIMS,
                PlacementSummary.describe(job, "pipelined")
                    + " onto resources being released on "
                    + String.join(", ", nodesPipelinedOn(job))));
      } else if (!job.isFullyPlaced()) {
        note(job, PlacementSummary.describe(job) + outcome.explanation());
      }
      return true;
    }
    if (session.tiers().mayKeepPartialPlacements(job)) {
      statement.commit();
      note(
          job,
          "NonStrict reservation, gang minimum "
              + PlacementSummary.describeMinimum(job)
              + " not met yet: "
              + PlacementSummary.describe(job)
              + outcome.explanation());
      return false;
    }
    if (outcome instanceof ShortOfRoom || outcome instanceof NoDomain) {
      statement.discard();
      note(
          job,
          "gang minimum "
              + PlacementSummary.describeMinimum(job)
              + " not met ("
              + PlacementSummary.describe(job)
              + ")"
              + outcome.explanation());
      return false;
    }
    String couldBePlaced = PlacementSummary.describe(job, "could be placed");
    statement.discard();
    note(
        job,
        "gang minimum "
            + PlacementSummary.describeMinimum(job)
            + " not met ("
            + couldBePlaced
            + ")"
            + outcome.explanation());
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
   * Why the room left cannot hold the {@code needed} workers the job still lacks, if so: summed
   * over its pending workers grouped by shape (constraints and request), the room for each shape
   * ({@link NodeSearch#roomFor}, an upper bound) falls short. Cheap — no pod is placed.
   */
  private Optional<ShortOfRoom> shortOfRoom(JobState job, int needed) {
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
    // Where some room is left, "n/m nodes fit" would only repeat that nodes fit a few; the count
    // says more.
    Optional<Unfit> unfit =
        shortest.pods() == 0
            ? Optional.of(new Unfit(shortestShape, shortest.diagnosis()))
            : Optional.empty();
    return Optional.of(
        new ShortOfRoom(
            "the room left holds at most " + room + " of the " + needed + " more workers it needs",
            unfit));
  }

  private static boolean sameShape(TaskState first, TaskState second) {
    return first.info().constraints().equals(second.info().constraints())
        && Arrays.equals(first.request(), second.request());
  }

  /** Turns an early stop into a NeverFits verdict when some pod of the minimum can never fit. */
  private Outcome withNeverFits(JobState job, Outcome outcome) {
    return minimumNeverFits(session, job).<Outcome>map(verdict -> verdict).orElse(outcome);
  }

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
      // Consecutive pods of one shape share a verdict; asking once per run keeps a 256-worker gang
      // cheap.
      Optional<String> never =
          previous != null && !task.isLeader() && !previous.isLeader() && sameShape(previous, task)
              ? previousVerdict
              : search.neverFitsReason(task);
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

  /** Notes an Unschedulable reason, keeping a released-reservation note of this cycle in front. */
  static void note(JobState job, String message) {
    JobNote previous = job.note();
    if (previous != null && previous.reason() == ReasonCode.GANG_RESERVATION_RELEASED) {
      job.note(
          new JobNote(ReasonCode.GANG_RESERVATION_RELEASED, previous.message() + "; " + message));
    } else {
      job.note(new JobNote(ReasonCode.UNSCHEDULABLE, message));
    }
  }
}
