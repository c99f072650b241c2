package io.tyrl.arranger.controller.lifecycle.validation;

import static io.tyrl.arranger.controller.lifecycle.JobFixture.job;
import static io.tyrl.arranger.controller.lifecycle.PodFixture.serving;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.tyrl.arranger.controller.lifecycle.JobFixture;
import io.tyrl.arranger.controller.lifecycle.LifecyclePlanner;
import io.tyrl.arranger.controller.lifecycle.PlanCase;
import io.tyrl.arranger.controller.lifecycle.observe.ContainerView;
import io.tyrl.arranger.controller.lifecycle.observe.JobView;
import io.tyrl.arranger.controller.lifecycle.observe.PodTemplateView;
import io.tyrl.arranger.controller.lifecycle.observe.UnplannedSpecView;
import io.tyrl.arranger.controller.lifecycle.observe.WorkerSetSpecView;
import io.tyrl.arranger.controller.lifecycle.plan.Plan;
import io.tyrl.arranger.controller.lifecycle.plan.PlannedAction;
import io.tyrl.arranger.controller.lifecycle.status.Condition;
import io.tyrl.arranger.controller.lifecycle.status.ConditionStatus;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.reasons.EventType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JobValidationTest {

  private static final String NAME_40 = "a".repeat(40);

  private static Arguments invalid(String description, JobFixture job, String expectedProblem) {
    return Arguments.of(Named.of(description, job), expectedProblem);
  }

  private static WorkerSetSpecView workerSetWith(ContainerView... containers) {
    return new WorkerSetSpecView("actor", 1, PodTemplateView.of(containers));
  }

  private static ContainerView requesting(String resource, String request, String limit) {
    return new ContainerView(
        "main", Map.of(resource, request), limit == null ? Map.of() : Map.of(resource, limit));
  }

  static Stream<Arguments> invalidJobs() {
    return Stream.of(
        invalid(
            "duplicate WorkerSet names",
            job().workerSet("actor", 1).workerSet("actor", 2),
            "spec.workerSets[1].name: duplicate name \"actor\""),
        invalid(
            "a WorkerSet named like the leader",
            job().leader("actor").workerSet("actor", 1),
            "spec.workerSets[0].name: \"actor\" is also the name of spec.leader; leader and WorkerSets need distinct names"),
        invalid(
            "leader pod name equal to a worker's",
            job().leader("actor-1").workerSet("actor", 2),
            "spec.leader.name: pod name \"train-actor-1\" is also the name of worker 1 of spec.workerSets[0]"),
        invalid(
            "leader template without containers",
            job().leaderTemplate(PodTemplateView.of()),
            "spec.leader.template.spec.containers: at least one container is required"),
        invalid(
            "WorkerSet template without containers",
            job().workerSet(new WorkerSetSpecView("actor", 1, PodTemplateView.of())),
            "spec.workerSets[0].template.spec.containers: at least one container is required"),
        invalid(
            "unparseable request",
            job().workerSet(workerSetWith(requesting("cpu", "lots", null))),
            "spec.workerSets[0].template.spec.containers[0].resources.requests[cpu]: \"lots\" is not a Kubernetes quantity (e.g. 500m, 2Gi, 1)"),
        invalid(
            "unparseable limit",
            job().workerSet(workerSetWith(requesting("memory", "1Gi", "2 GB"))),
            "spec.workerSets[0].template.spec.containers[0].resources.limits[memory]: \"2 GB\" is not a Kubernetes quantity (e.g. 500m, 2Gi, 1)"),
        invalid(
            "negative request",
            job().leaderTemplate(PodTemplateView.of(requesting("nvidia.com/gpu", "-1", null))),
            "spec.leader.template.spec.containers[0].resources.requests[nvidia.com/gpu]: \"-1\" must not be negative"),
        invalid(
            "request above its limit",
            job().workerSet(workerSetWith(requesting("memory", "4Gi", "2Gi"))),
            "spec.workerSets[0].template.spec.containers[0].resources.requests[memory]: 4Gi is more than the limit 2Gi"),
        invalid(
            "bad quantity in an init container",
            job()
                .leaderTemplate(
                    new PodTemplateView(
                        List.of(ContainerView.named("main")),
                        List.of(new ContainerView("init", Map.of("cpu", "1..5"), Map.of())))),
            "spec.leader.template.spec.initContainers[0].resources.requests[cpu]: \"1..5\" is not a Kubernetes quantity (e.g. 500m, 2Gi, 1)"),
        invalid(
            "duplicate container names",
            job()
                .leaderTemplate(
                    PodTemplateView.of(ContainerView.named("main"), ContainerView.named("main"))),
            "spec.leader.template.spec.containers[1].name: duplicate container name \"main\""),
        invalid(
            "container without a name",
            job().leaderTemplate(PodTemplateView.of(ContainerView.named(""))),
            "spec.leader.template.spec.containers[0].name: must not be empty"),
        invalid(
            "worker pod names longer than 63 characters",
            job().named(NAME_40).workerSet("w".repeat(20), 11),
            "spec.workerSets[0].name: pod name \""
                + NAME_40
                + "-"
                + "w".repeat(20)
                + "-10\" is 64 characters long, more than the 63 allowed"),
        invalid(
            "leader pod name longer than 63 characters",
            job().named(NAME_40).leader("l".repeat(30)),
            "spec.leader.name: pod name \""
                + NAME_40
                + "-"
                + "l".repeat(30)
                + "\" is 71 characters long, more than the 63 allowed"),
        invalid(
            "job name that is not a DNS label",
            job().named("Train.v2"),
            "metadata.name: \"Train.v2\" is not a DNS label: use lower-case letters, digits and '-', starting and ending with a letter or digit"),
        invalid(
            "minWorkersNum above the total of counts",
            job().workerSet("actor", 2).workerSet("critic", 1).minWorkers(5),
            "spec.minWorkersNum: 5 is more than the 3 workers of all WorkerSets together"),
        invalid(
            "negative minWorkersNum",
            job().minWorkers(-1),
            "spec.minWorkersNum: -1 is less than the minimum 0"),
        invalid(
            "negative restartLimit",
            job().restartLimit(-2),
            "spec.restartLimit: -2 is less than the minimum 0"),
        invalid(
            "counts below 1",
            job().workerSet("actor", 0).minWorkers(0),
            "spec.workerSets[0].counts: 0 is less than the minimum 1 per WorkerSet"),
        invalid(
            "unknown cleanPodPolicy",
            job().cleanPodPolicy("Sometimes"),
            "spec.cleanPodPolicy: \"Sometimes\" is not one of All, Running, None"),
        invalid(
            "WorkerSet name that is not a DNS label",
            job().workerSet("Actor_1", 1),
            "spec.workerSets[0].name: \"Actor_1\" is not a DNS label: use lower-case letters, digits and '-', starting and ending with a letter or digit"),
        invalid("empty leader name", job().leader(""), "spec.leader.name: must not be empty"),
        invalid(
            "counts at int32's maximum (an older CRD without the maximum)",
            job().workerSet("actor", Integer.MAX_VALUE),
            "spec.workerSets[0].counts: 2147483647 is more than the maximum 5000 per WorkerSet"),
        invalid(
            "counts 100000",
            job().workerSet("actor", 100_000),
            "spec.workerSets[0].counts: 100000 is more than the maximum 5000 per WorkerSet"),
        invalid(
            "counts beyond int32 (kube-apiserver 1.20 does not enforce format: int32)",
            job().workerSet("actor", 10_000_000_000L),
            "spec.workerSets[0].counts: 10000000000 is more than the maximum 5000 per WorkerSet"),
        invalid(
            "workers of all sets together above the bound of a job",
            job().workerSet("actor", 4000).workerSet("critic", 1001),
            "spec.workerSets: the WorkerSets ask for 5001 workers together, more than the 5000 a job may have"),
        invalid(
            "more WorkerSets than a job may have",
            manyWorkerSets(33),
            "spec.workerSets: has 33 WorkerSets, more than the 32 a job may have"),
        invalid(
            "restartLimit above its maximum",
            job().restartLimit(3_000_000_000L),
            "spec.restartLimit: 3000000000 is more than the maximum 10000"),
        invalid(
            "leader name longer than a pod name allows",
            job().leader("l".repeat(62)),
            "spec.leader.name: \""
                + "l".repeat(62)
                + "\" is 62 characters long, more than the 61 allowed"),
        invalid(
            "priority out of range (checked for the scheduler's sake too)",
            job().unplanned(new UnplannedSpecView(11L, null, null, null, List.of())),
            "spec.priority: 11 is more than the maximum 10"),
        invalid(
            "volume name that is no DNS label",
            job().unplanned(new UnplannedSpecView(null, null, null, null, List.of("Data"))),
            "spec.volumes[0].name: \"Data\" is not a DNS label: use lower-case letters, digits and '-', starting and ending with a letter or digit"),
        invalid(
            "waitTime that is no duration",
            job().unplanned(new UnplannedSpecView(null, null, "ten minutes", null, List.of())),
            "spec.gang.waitTime: \"ten minutes\" is not a duration such as 90s, 10m or 1h30m"));
  }

  private static JobFixture manyWorkerSets(int sets) {
    JobFixture job = job();
    for (int i = 0; i < sets; i++) {
      job.workerSet("set-" + i, 1);
    }
    return job;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidJobs")
  void reportsTheProblemNamingItsField(JobFixture job, String expectedProblem) {
    List<String> problems =
        new JobValidator().validate(job.build()).stream().map(ValidationProblem::toString).toList();

    assertThat(problems).contains(expectedProblem);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidJobs")
  void planningAnInvalidJobFailsItWithValidatedFalse(JobFixture job, String expectedProblem) {
    Plan plan = new LifecyclePlanner().plan(job.build(), List.of(), PlanCase.NOW);

    assertThat(plan.stage()).isEqualTo(Stage.FAILED);
    Condition validated =
        plan.statusPatch().orElseThrow().condition(Condition.VALIDATED).orElseThrow();
    assertThat(validated.status()).isEqualTo(ConditionStatus.FALSE);
    assertThat(validated.message()).contains(expectedProblem);
    // One reason and one message: the REASON column (status.scheduling), the conditions and the
    // Event.
    assertThat(plan.refusal())
        .hasValue(new PlannedAction.ReportRefusal("InvalidJob", validated.message()));
    assertThat(plan.events())
        .containsExactly(
            new PlannedAction.EmitEvent(EventType.WARNING, "InvalidJob", validated.message()));
    assertThat(
            plan.statusPatch().orElseThrow().condition(Condition.FINISHED).orElseThrow().reason())
        .isEqualTo("InvalidJob");
    assertThat(plan.creates()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidJobs")
  void aRefusedJobIsNotRefusedAgainOnceItHasFailed(JobFixture job, String expectedProblem) {
    Plan first = new LifecyclePlanner().plan(job.build(), List.of(), PlanCase.NOW);
    assertThat(first.stage()).isEqualTo(Stage.FAILED);
    JobView failed =
        job.stage(Stage.FAILED)
            .schedulingReason("InvalidJob", first.refusal().orElseThrow().message())
            .build();

    Plan second = new LifecyclePlanner().plan(failed, List.of(), PlanCase.NOW.plusSeconds(5));

    assertThat(second.refusal()).isEmpty();
    assertThat(second.events()).isEmpty();
  }

  @Test
  void aValidJobHasNoProblemsAndIsMarkedValidated() {
    JobView view =
        job().workerSet("actor", 3).workerSet("critic", 1).leader("actor-3").minWorkers(4).build();

    assertThat(new JobValidator().validate(view)).isEmpty();
    Plan plan = new LifecyclePlanner().plan(view, List.of(), PlanCase.NOW);
    assertThat(plan.stage()).isEqualTo(Stage.PENDING);
    assertThat(
            plan.statusPatch().orElseThrow().condition(Condition.VALIDATED).orElseThrow().status())
        .isEqualTo(ConditionStatus.TRUE);
  }

  @Test
  void aPodNameOfExactly63CharactersIsAccepted() {
    String jobName = "j".repeat(55);
    JobView view = job().named(jobName).leader("learner").workerSet("actor", 10).build();

    assertThat(new JobValidator().validate(view)).isEmpty();
  }

  @Test
  void reportsEveryProblemAtOnce() {
    JobView view =
        job()
            .workerSet("actor", 1)
            .workerSet("actor", 0)
            .restartLimit(-1)
            .cleanPodPolicy("Never")
            .leaderTemplate(PodTemplateView.of())
            .build();

    assertThat(new JobValidator().validate(view))
        .extracting(ValidationProblem::field)
        .containsExactlyInAnyOrder(
            "spec.restartLimit",
            "spec.cleanPodPolicy",
            "spec.leader.template.spec.containers",
            "spec.workerSets[1].name",
            "spec.workerSets[1].counts");
  }

  @Test
  void aJobWithTooManyProblemsListsTheFirstTwentyInItsCondition() {
    JobFixture job = job();
    for (int i = 0; i < 30; i++) {
      job.workerSet("set-" + i, -i - 1);
    }

    Plan plan = new LifecyclePlanner().plan(job.build(), List.of(), PlanCase.NOW);

    String message =
        plan.statusPatch().orElseThrow().condition(Condition.VALIDATED).orElseThrow().message();
    assertThat(message)
        .contains("spec.workerSets[19].counts: -20 is less than the minimum 1 per WorkerSet")
        .doesNotContain("spec.workerSets[20].counts")
        .endsWith("; and 10 more");
  }

  @Test
  void aFinishedJobWhoseSpecWasEditedOutOfBoundsIsPlannedWithoutMakingItsSlots() {
    JobView finished = job().stage(Stage.FAILED).workerSet("actor", Integer.MAX_VALUE).build();

    Plan plan =
        assertTimeoutPreemptively(
            Duration.ofSeconds(5),
            () ->
                new LifecyclePlanner()
                    .plan(finished, List.of(serving("train-learner").build()), PlanCase.NOW));

    assertThat(plan.stage()).isEqualTo(Stage.FAILED);
    assertThat(plan.creates()).isEmpty();
  }

  @Test
  void aJobThatBecomesInvalidWhileRunningFailsAndIsCleanedUp() {
    JobView view =
        job()
            .stage(Stage.RUNNING)
            .scheduled(ScheduleState.SCHEDULED_SUCCEED)
            .allocateAll("node-a")
            .workerSet("actor", 1)
            .workerSet("actor", 1)
            .build();

    Plan plan =
        new LifecyclePlanner()
            .plan(
                view,
                List.of(serving("train-learner").build(), serving("train-actor-0").build()),
                PlanCase.NOW);

    assertThat(plan.stage()).isEqualTo(Stage.FAILED);
    assertThat(plan.deletes())
        .extracting(PlannedAction.DeletePod::podName)
        .containsExactlyInAnyOrder("train-learner", "train-actor-0");
    assertThat(plan.creates()).isEmpty();
  }
}
