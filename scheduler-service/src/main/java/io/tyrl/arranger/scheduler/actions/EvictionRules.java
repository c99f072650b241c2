package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.List;

/** What differs between preempt and reclaim when the victim selector makes room for a job. */
interface EvictionRules {

  /** True when the candidate job's pods may be offered as victims for the preemptor at all. */
  boolean mayEvictFrom(JobState preemptor, JobState candidate);

  /** The victims the session's tiers allow among the candidates (preemptable or reclaimable functions). */
  List<TaskState> allowedByPolicies(TaskState preemptor, List<TaskState> candidates);

  /** True when evicting all of {@code victims} together keeps the limits of their queues. */
  boolean withinLimits(List<TaskState> victims);

  /** The reason the victim jobs' decisions carry. */
  ReasonCode victimReason();

  /** Why the victim goes, in words: {@code preempted by team-a/high (priority 8 > 5)}. */
  String describe(JobState preemptor, JobState victim);
}
