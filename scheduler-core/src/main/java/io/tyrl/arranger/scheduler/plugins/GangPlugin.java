package io.tyrl.arranger.scheduler.plugins;

import io.tyrl.arranger.scheduler.api.BasicPolicy;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.conf.ArgumentSchema;
import io.tyrl.arranger.scheduler.conf.ArgumentSpec;
import io.tyrl.arranger.scheduler.conf.Arguments;
import io.tyrl.arranger.scheduler.framework.JobNote;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.PlacementSummary;
import io.tyrl.arranger.scheduler.framework.Plugin;
import io.tyrl.arranger.scheduler.framework.PluginDescriptor;
import io.tyrl.arranger.scheduler.framework.PluginHooks;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Gang scheduling. A job's minimum is its leader plus {@code minWorkersNum} workers (all workers
 * for {@code basicPolicy: Gang}); a job is ready once its minimum is placed.
 *
 * <p>Gang is an <b>admission</b> rule: it holds until the job's minimum first runs (stage Running),
 * and again only once the job is rescheduled. A job whose minimum has run is always ready: its
 * placements are never released by gang rules, it never times out, and a pod it lost is placed back
 * alone, like an elastic one — a Running Strict job that lost a worker gets it back.
 *
 * <ul>
 *   <li><b>Strict</b>: partial placements are never kept — the allocate action discards a job's
 *       statement unless the minimum was met in that cycle.
 *   <li><b>NonStrict</b>: partial placements are kept and come back in the next snapshot as the
 *       job's existing allocations (a reservation; the job stays Unscheduled, so no pod is
 *       created). Gangs holding partial reservations can deadlock — capacity 10, three gangs of 5
 *       holding 3/3/4 wait for each other forever. The bound: a job that has waited longer than
 *       {@code nonStrictReservationTimeout} (counted like waitTime, from {@link JobInfo#waitStart})
 *       keeps no reservation — what it holds is released when the session opens, and from then on
 *       it is placed all-or-nothing, as Strict. Once every job of a deadlock has waited that long,
 *       all their reservations are gone and whichever gangs fit whole are placed, so the cluster
 *       makes progress.
 *   <li><b>waitTime</b>: a job whose minimum is still not met {@code waitTime} after its wait began
 *       (its creation, or its reschedule) is failed with {@code GangTimeout} and its reservations
 *       are released.
 *   <li><b>Gang groups</b>: members are placed in one statement by the allocate action and keep
 *       nothing unless every member's minimum is met, so a member never keeps a NonStrict
 *       reservation.
 *   <li>Once the minimum is met, further workers are elastic: placed one at a time, each kept.
 * </ul>
 *
 * As a victim policy it never lets an eviction leave a job running below its minimum: it allows a
 * job's elastic workers (those above the minimum, as many as the job can spare), or the whole job
 * when every pod it holds is offered together — the job then goes to rescheduling as one.
 */
public final class GangPlugin implements Plugin {

  public static final String NAME = "gang";

  public static final ArgumentSpec<Duration> NON_STRICT_RESERVATION_TIMEOUT =
      ArgumentSpec.duration("nonStrictReservationTimeout", Duration.ofMinutes(5));

  private final Duration reservationTimeout;

  /** NonStrict jobs that have waited past the reservation timeout: placed all-or-nothing. */
  private final Set<JobState> strictFromNowOn = new HashSet<>();

  GangPlugin(Arguments arguments) {
    this.reservationTimeout = arguments.get(NON_STRICT_RESERVATION_TIMEOUT);
  }

  public static PluginDescriptor descriptor() {
    return new PluginDescriptor(
        NAME, ArgumentSchema.of(NON_STRICT_RESERVATION_TIMEOUT), GangPlugin::new);
  }

  @Override
  public void onSessionOpen(Session session, PluginHooks hooks) {
    Instant now = session.now();
    for (JobState job : session.jobs()) {
      if (job.isFailed() || job.info().minimumHasRun() || isReady(job)) {
        continue;
      }
      Instant waitStart = job.info().waitStart(now);
      Optional<Duration> waitTime = job.info().gang().waitTimeIfSet();
      if (waitTime.isPresent() && !now.isBefore(waitStart.plus(waitTime.get()))) {
        session.failJob(
            job,
            ReasonCode.GANG_TIMEOUT,
            "gang minimum "
                + PlacementSummary.describeMinimum(job)
                + " not met within waitTime "
                + waitTime.get()
                + " (waiting since "
                + waitStart
                + "); reservations released");
        continue;
      }
      if (job.info().gang().mode() == GangMode.NON_STRICT
          && !now.isBefore(waitStart.plus(reservationTimeout))) {
        strictFromNowOn.add(job);
        if (job.placedTasks() > 0) {
          int held = job.placedTasks();
          session.releasePlacements(job);
          job.note(
              new JobNote(
                  ReasonCode.GANG_RESERVATION_RELEASED,
                  "NonStrict reservation of "
                      + held
                      + " pods released: the job has waited since "
                      + waitStart
                      + ", longer than "
                      + reservationTimeout
                      + ", so it is now placed all-or-nothing to avoid a gang deadlock"));
        }
      }
    }
    hooks.jobValid(GangPlugin::invalidReason);
    hooks.jobReady(GangPlugin::isReady);
    hooks.jobPipelined(this::mayKeepPartialPlacements);
    hooks.preemptableVictims(GangPlugin::elasticOrWholeJobs);
    hooks.reclaimableVictims(GangPlugin::elasticOrWholeJobs);
  }

  /**
   * Ready once the minimum is placed; always, once the minimum has run (gang no longer applies).
   */
  static boolean isReady(JobState job) {
    return job.info().minimumHasRun() || job.isMinimumPlaced();
  }

  private static Optional<String> invalidReason(JobState job) {
    if (!BasicPolicy.GANG.equals(job.info().basicPolicy())
        && job.info().minWorkersNum() > job.workerCount()) {
      return Optional.of(
          "minWorkersNum "
              + job.info().minWorkersNum()
              + " exceeds the job's "
              + job.workerCount()
              + " workers");
    }
    return Optional.empty();
  }

  private boolean mayKeepPartialPlacements(JobState job) {
    return job.info().gang().mode() == GangMode.NON_STRICT
        && job.info().gang().group() == null
        && !strictFromNowOn.contains(job);
  }

  static List<TaskState> elasticOrWholeJobs(TaskState preemptor, List<TaskState> candidates) {
    Map<JobState, Integer> offered = new HashMap<>();
    for (TaskState candidate : candidates) {
      if (candidate.status().isPlaced()) {
        offered.merge(candidate.job(), 1, Integer::sum);
      }
    }
    Map<JobState, Integer> spare = new HashMap<>();
    List<TaskState> allowed = new ArrayList<>();
    for (TaskState candidate : candidates) {
      JobState job = candidate.job();
      if (job.placedTasks() > 0 && offered.getOrDefault(job, 0) == job.placedTasks()) {
        allowed.add(candidate);
        continue;
      }
      if (candidate.isLeader()) {
        continue;
      }
      int left =
          spare.computeIfAbsent(
              job, j -> j.placedWorkers() - Math.min(j.minimumWorkers(), j.workerCount()));
      if (left > 0) {
        allowed.add(candidate);
        spare.put(job, left - 1);
      }
    }
    return allowed;
  }
}
