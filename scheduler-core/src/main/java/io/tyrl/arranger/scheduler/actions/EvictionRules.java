package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.QueueState;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/** What differs between preempt and reclaim when the victim selector makes room for a job. */
interface EvictionRules {

  /** True when the candidate job's pods may be offered as victims for the preemptor at all. */
  boolean mayEvictFrom(JobState preemptor, JobState candidate);

  /**
   * The victims allowed among the candidates for this pod (the action's own rules, then the
   * tiers').
   */
  List<TaskState> allowedByPolicies(TaskState preemptor, List<TaskState> candidates);

  /**
   * True when evicting victims that free {@code freedByQueue} (per victim queue, per resource
   * dimension, in total) to make room for the preemptor's pod keeps the queues' limits. Must be
   * monotone: freeing less never breaks a limit that freeing more kept.
   */
  boolean withinLimits(TaskState preemptor, Map<QueueState, long[]> freedByQueue);

  /**
   * True when the candidate's core (its leader and gang minimum) may go, i.e. the job may be
   * evicted whole: it has run at least its queue's minimum runtime for this kind of eviction.
   * Elastic workers above the minimum may always go.
   */
  boolean mayEvictWhole(JobState candidate);

  /**
   * True when the job has run at least {@code minimum}: counted from when its minimum started
   * running, or from its creation when that is not known (which can only shorten the protection).
   */
  static boolean hasRun(JobState job, java.time.Duration minimum, java.time.Instant now) {
    if (minimum.isZero()) {
      return true;
    }
    java.time.Instant since =
        job.info().runningSince() != null ? job.info().runningSince() : job.info().creationTime();
    return !now.isBefore(since.plus(minimum));
  }

  /**
   * The candidates that free what is taken, judging a job offered whole (all its placed pods among
   * the candidates) as one: it goes, all its pods, when one of them frees what is taken — its cpu
   * actors with its GPU learner, or no job mixing such pods could ever make room — while a pod
   * offered alone (an elastic worker) must free it itself.
   */
  static List<TaskState> freeingWhatIsTaken(
      List<TaskState> candidates, Predicate<TaskState> freesWhatIsTaken) {
    Map<JobState, Integer> offered = new HashMap<>();
    Set<JobState> jobsFreeing = new HashSet<>();
    for (TaskState victim : candidates) {
      if (victim.status().isPlaced()) {
        offered.merge(victim.job(), 1, Integer::sum);
      }
      if (freesWhatIsTaken.test(victim)) {
        jobsFreeing.add(victim.job());
      }
    }
    List<TaskState> eligible = new ArrayList<>();
    for (TaskState victim : candidates) {
      JobState job = victim.job();
      boolean offeredWhole = offered.getOrDefault(job, 0) == job.placedTasks();
      if (offeredWhole ? jobsFreeing.contains(job) : freesWhatIsTaken.test(victim)) {
        eligible.add(victim);
      }
    }
    return eligible;
  }

  /**
   * True when the plan may go ahead with these victims, the preemptor's pods pipelined: the last
   * word on a plan found pod by pod. Only consolidation has one (every moved pod must still fit
   * elsewhere, all of them together).
   */
  default boolean acceptsVictims(JobState preemptor, List<TaskState> evicted) {
    return true;
  }

  /** The reason the victim jobs' decisions carry. */
  ReasonCode victimReason();

  /** Why the victim goes, in words: {@code preempted by team-a/high (priority 8 > 5)}. */
  String describe(JobState preemptor, JobState victim);
}
