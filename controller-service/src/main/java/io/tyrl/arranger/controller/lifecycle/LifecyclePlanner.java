package io.tyrl.arranger.controller.lifecycle;

import io.tyrl.arranger.controller.lifecycle.observe.ForeignPod;
import io.tyrl.arranger.controller.lifecycle.observe.JobObservation;
import io.tyrl.arranger.controller.lifecycle.observe.JobView;
import io.tyrl.arranger.controller.lifecycle.observe.PodView;
import io.tyrl.arranger.controller.lifecycle.plan.Plan;
import io.tyrl.arranger.controller.lifecycle.plan.PlanDraft;
import io.tyrl.arranger.controller.lifecycle.plan.PlannedAction;
import io.tyrl.arranger.controller.lifecycle.plan.StatusProjector;
import io.tyrl.arranger.controller.lifecycle.stage.FinishedStagePlanner;
import io.tyrl.arranger.controller.lifecycle.stage.JobTermination;
import io.tyrl.arranger.controller.lifecycle.stage.LeaderSupervisor;
import io.tyrl.arranger.controller.lifecycle.stage.PendingStagePlanner;
import io.tyrl.arranger.controller.lifecycle.stage.PodLauncher;
import io.tyrl.arranger.controller.lifecycle.stage.PodNameConflicts;
import io.tyrl.arranger.controller.lifecycle.stage.ReschedulingStagePlanner;
import io.tyrl.arranger.controller.lifecycle.stage.RunningStagePlanner;
import io.tyrl.arranger.controller.lifecycle.stage.StagePlanner;
import io.tyrl.arranger.controller.lifecycle.stage.StartingStagePlanner;
import io.tyrl.arranger.controller.lifecycle.stage.UnreachableNodeRelease;
import io.tyrl.arranger.controller.lifecycle.stage.WorkerSupervisor;
import io.tyrl.arranger.controller.lifecycle.status.Condition;
import io.tyrl.arranger.controller.lifecycle.status.ConditionStatus;
import io.tyrl.arranger.controller.lifecycle.validation.JobValidator;
import io.tyrl.arranger.controller.lifecycle.validation.ValidationProblem;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.reasons.LifecycleReasons;
import io.tyrl.arranger.crd.reasons.ProblemList;
import io.tyrl.arranger.crd.reasons.SchedulingReasons;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The TYJob lifecycle as a pure function: (job, its pods, now) → {@link Plan}.
 *
 * <p>A plan depends only on its inputs — restart counters and the leader's last observation are in
 * the job's status, pod names are deterministic — so the controller may be restarted at any point,
 * or plan the same job twice, without creating a pod twice or counting a restart twice. The adapter
 * applies the plan as {@link PlannedAction} describes and plans again on the next event.
 *
 * <p>A malformed job does not make {@code plan} throw: it is planned into {@link Stage#FAILED} with
 * the condition {@code Validated=False} naming every bad field, and reason {@code InvalidJob} with
 * the same message in its scheduling reason, its conditions and its Event.
 */
public final class LifecyclePlanner {

  static final int MAX_PROBLEMS_IN_MESSAGE = 20;

  private final JobValidator validator = new JobValidator();
  private final JobTermination termination = new JobTermination();
  private final StatusProjector statusProjector;
  private final PodNameConflicts nameConflicts = new PodNameConflicts();
  private final Map<Stage, StagePlanner> stagePlanners = new EnumMap<>(Stage.class);

  public LifecyclePlanner() {
    this(LifecycleSettings.DEFAULTS);
  }

  public LifecyclePlanner(LifecycleSettings settings) {
    statusProjector = new StatusProjector(settings.refusingNodeAvoidance());
    PodLauncher launcher = new PodLauncher();
    LeaderSupervisor leaderSupervisor =
        new LeaderSupervisor(launcher, termination, settings.refusingNodeAvoidance());
    WorkerSupervisor workerSupervisor =
        new WorkerSupervisor(termination, settings.refusingNodeAvoidance());
    FinishedStagePlanner finished = new FinishedStagePlanner();
    stagePlanners.put(Stage.PENDING, new PendingStagePlanner(launcher, termination));
    stagePlanners.put(
        Stage.STARTING, new StartingStagePlanner(leaderSupervisor, workerSupervisor, launcher));
    stagePlanners.put(
        Stage.RUNNING, new RunningStagePlanner(leaderSupervisor, workerSupervisor, launcher));
    stagePlanners.put(
        Stage.RESCHEDULING,
        new ReschedulingStagePlanner(
            launcher, termination, new UnreachableNodeRelease(settings.unreachableNodeGrace())));
    stagePlanners.put(Stage.SUCCEEDED, finished);
    stagePlanners.put(Stage.FAILED, finished);
  }

  /**
   * Plans the next step of {@code job}.
   *
   * @param pods the job's pods as observed (listed by the job's label), in any order
   * @param now the current time; stored times are truncated to whole seconds, the precision they
   *     keep in the API, so that re-planning an unchanged job yields an equal status
   */
  public Plan plan(JobView job, List<PodView> pods, Instant now) {
    return plan(job, pods, List.of(), now);
  }

  /**
   * @param foreign pods of other owners that hold names of this job's pods: never adopted; the job
   *     reports the conflict and its pods of those names wait
   */
  public Plan plan(JobView job, List<PodView> pods, List<ForeignPod> foreign, Instant now) {
    Instant at = now.truncatedTo(ChronoUnit.SECONDS);
    Stage stage = job.status().stage();
    List<ValidationProblem> problems = stage.isTerminal() ? List.of() : validator.validate(job);
    // Worker slots are made only from a spec within the bounds. A finished job is not validated
    // again, but its spec may have been edited since; the bounds are checked for it all the same.
    boolean slotsMayBeMade =
        stage.isTerminal() ? validator.isWithinBounds(job) : problems.isEmpty();
    JobObservation observation = JobObservation.of(job, pods, foreign, at, slotsMayBeMade);
    PlanDraft draft = new PlanDraft(job.status());
    if (stage.isTerminal()) {
      stagePlanners.get(stage).plan(observation, draft);
    } else if (!problems.isEmpty()) {
      String message = validationMessage(problems);
      draft.recordValidation(
          new Condition(
              Condition.VALIDATED,
              ConditionStatus.FALSE,
              LifecycleReasons.INVALID,
              message,
              Optional.empty()));
      // One reason and one message for the status REASON column, the conditions and the Event: the
      // scheduler's word for a job it cannot read is the same.
      draft.refuse(SchedulingReasons.INVALID_JOB, message);
      termination.fail(observation, draft, SchedulingReasons.INVALID_JOB, message);
    } else {
      draft.recordValidation(
          new Condition(
              Condition.VALIDATED,
              ConditionStatus.TRUE,
              LifecycleReasons.VALID,
              "the spec passed validation",
              Optional.empty()));
      if (job.spec().terminating()) {
        termination.succeed(
            observation,
            draft,
            LifecycleReasons.TERMINATED,
            "spec.terminating is true: the job was stopped by request");
      } else {
        stagePlanners.get(stage).plan(observation, draft);
        nameConflicts.report(observation, draft);
      }
    }
    return draft.toPlan(job.status(), statusProjector.project(observation, draft));
  }

  /**
   * The problems joined into one condition message, the first {@value #MAX_PROBLEMS_IN_MESSAGE} of
   * them: a job with thousands of bad entries must not make a status too large to be written.
   */
  private static String validationMessage(List<ValidationProblem> problems) {
    return ProblemList.join(problems, MAX_PROBLEMS_IN_MESSAGE);
  }
}
