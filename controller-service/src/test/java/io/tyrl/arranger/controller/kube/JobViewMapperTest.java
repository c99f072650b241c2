package io.tyrl.arranger.controller.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.JSON;
import io.tyrl.arranger.controller.lifecycle.LifecyclePlanner;
import io.tyrl.arranger.controller.lifecycle.observe.UnplannedSpecView;
import io.tyrl.arranger.controller.lifecycle.observe.UnreadableField;
import io.tyrl.arranger.controller.lifecycle.plan.Plan;
import io.tyrl.arranger.controller.lifecycle.status.Condition;
import io.tyrl.arranger.controller.lifecycle.status.ConditionStatus;
import io.tyrl.arranger.controller.lifecycle.status.ControllerStatus;
import io.tyrl.arranger.controller.lifecycle.status.LeaderSummary;
import io.tyrl.arranger.controller.lifecycle.status.PodPhase;
import io.tyrl.arranger.controller.lifecycle.status.WorkerSetSummary;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.read.TYJobDecoder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JobViewMapperTest {

  private final JobViewMapper mapper = new JobViewMapper();

  @Test
  void readsSpecIdentityAndTemplates() {
    JobSnapshot job = mapper.map(RawTYJobs.job(RawTYJobs.validSpec()));

    assertThat(job.key()).isEqualTo("rl/train");
    assertThat(job.uid()).isEqualTo("uid-1");
    assertThat(job.resourceVersion()).isEqualTo("42");
    assertThat(job.createdAt()).contains(Instant.parse("2026-11-22T10:00:00Z"));
    assertThat(job.view().generation()).isEqualTo(3);
    assertThat(job.view().spec().restartLimit()).isEqualTo(2);
    assertThat(job.view().spec().minWorkersNum()).isEqualTo(2);
    assertThat(job.view().spec().cleanPodPolicy()).isEqualTo("Running");
    assertThat(job.view().spec().workerSets())
        .singleElement()
        .satisfies(set -> assertThat(set.counts()).isEqualTo(2));
    assertThat(job.view().spec().leader().template().containers())
        .singleElement()
        .satisfies(
            container -> {
              assertThat(container.requests()).containsEntry("cpu", "500m");
              assertThat(container.limits())
                  .as("a number in the raw JSON is read as its text")
                  .containsEntry("memory", "2147483648");
            });
    assertThat(job.leaderTemplate()).isPresent();
    assertThat(job.workerTemplates()).containsOnlyKeys("actor");
    assertThat(job.volumes())
        .singleElement()
        .satisfies(volume -> assertThat(volume.getName()).isEqualTo("shared"));
    assertThat(job.view().status()).isEqualTo(ControllerStatus.initial());
    assertThat(job.view().scheduler().scheduleState()).isEqualTo(ScheduleState.UNSCHEDULED);
  }

  @Test
  void theStatusItWritesReadsBackUnchanged() {
    ControllerStatus written =
        new ControllerStatus(
            Stage.RUNNING,
            List.of(
                new Condition(
                    Condition.RUNNING,
                    ConditionStatus.TRUE,
                    "Started",
                    "leader running",
                    Optional.of(Instant.parse("2026-11-22T10:05:00Z")))),
            new LeaderSummary(
                Optional.of("train-learner"),
                Optional.of("node-a"),
                Optional.of("10.0.0.7"),
                Optional.of(PodPhase.RUNNING),
                1),
            List.of(new WorkerSetSummary("actor", 2, 2, 1, 0)),
            1,
            Optional.of(Instant.parse("2026-11-22T10:05:00Z")),
            Optional.empty(),
            3);
    JsonObject patch =
        JsonParser.parseString(StatusPatchDocument.of("42", List.of(), Optional.of(written)))
            .getAsJsonObject();
    JsonObject status = patch.getAsJsonObject("status");
    status.addProperty("scheduleState", "ScheduledPartly");
    status.add("allocations", JsonParser.parseString("{\"train-learner\": \"node-a\"}"));
    status.remove("completionTime"); // the merge patch's null removes the key

    JobSnapshot job = mapper.map(RawTYJobs.job(RawTYJobs.validSpec(), status.toString()));

    assertThat(job.view().status()).isEqualTo(written);
    assertThat(job.view().scheduler().scheduleState()).isEqualTo(ScheduleState.SCHEDULED_PARTLY);
    assertThat(job.view().scheduler().allocations()).isEqualTo(Map.of("train-learner", "node-a"));
  }

  @Test
  void aTemplateWithAFieldPodsDoNotHaveFailsTheJobNamingTheTemplate() {
    String typo =
        """
        {"spec": {"containers": [{"name": "actor", "imagee": "registry.local/rl/actor:1"}]}}""";
    JobSnapshot job =
        mapper.map(RawTYJobs.job(RawTYJobs.spec(RawTYJobs.template("learner"), typo)));

    Plan plan =
        new LifecyclePlanner().plan(job.view(), List.of(), Instant.parse("2026-11-22T10:00:00Z"));

    assertThat(plan.stage()).isEqualTo(Stage.FAILED);
    assertThat(
            plan.statusPatch().orElseThrow().condition(Condition.VALIDATED).orElseThrow().message())
        .startsWith("spec.workerSets[0].template.spec.containers[0]: ")
        .contains("imagee")
        .doesNotContain("JSON:");
    assertThat(job.workerTemplates()).isEmpty();
  }

  @Test
  void aRefusedTemplateNamesTheRefusedFieldInItAsTheSchedulerDoes() {
    String typo =
        """
        {"spec": {"containers": [{"name": "actor", "imagee": "registry.local/rl/actor:1"}]}}""";
    JsonObject raw = RawTYJobs.job(RawTYJobs.spec(RawTYJobs.template("learner"), typo));
    JobSnapshot job = mapper.map(raw);

    Plan plan =
        new LifecyclePlanner().plan(job.view(), List.of(), Instant.parse("2026-11-22T10:00:00Z"));

    String schedulers = new TYJobDecoder(JSON.getGson()).decode(raw).problem().orElseThrow();
    assertThat(schedulers).startsWith("spec.workerSets[0].template.spec.containers[0]: ");
    assertThat(
            plan.statusPatch().orElseThrow().condition(Condition.VALIDATED).orElseThrow().message())
        .isEqualTo(schedulers);
  }

  @Test
  void anUnparseableQuantityFailsTheJobNamingItsResourceInsteadOfThrowing() {
    String greedy =
        """
        {"spec": {"containers": [{"name": "learner", "resources": {"requests": {"cpu": "lots"}}}]}}""";
    JobSnapshot job =
        mapper.map(RawTYJobs.job(RawTYJobs.spec(greedy, RawTYJobs.template("actor"))));

    Plan plan =
        new LifecyclePlanner().plan(job.view(), List.of(), Instant.parse("2026-11-22T10:00:00Z"));

    assertThat(job.leaderTemplate()).isEmpty();
    assertThat(plan.stage()).isEqualTo(Stage.FAILED);
    assertThat(
            plan.statusPatch().orElseThrow().condition(Condition.VALIDATED).orElseThrow().message())
        .isEqualTo(
            "spec.leader.template.spec.containers[0].resources.requests[cpu]: "
                + "\"lots\" is not a Kubernetes quantity (e.g. 500m, 2Gi, 1)");
  }

  @Test
  void aSpecFieldOfTheWrongTypeFailsTheJobNamingItAndAStatusFieldOfTheWrongTypeReadsAsAbsent() {
    JobSnapshot job =
        mapper.map(
            RawTYJobs.job(
                """
        {"restartLimit": "three", "leader": "learner", "workerSets": {"name": "actor"}}""",
                """
        {"stage": 7, "allocations": [], "leader": {"restarts": "many", "pod": "train-learner"}, "conditions": "none"}"""));

    assertThat(job.view().spec().unreadable())
        .contains(new UnreadableField("spec.restartLimit", "\"three\" is not a 32-bit integer"));
    assertThat(job.view().spec().workerSets()).isEmpty();
    assertThat(job.view().status().stage()).isEqualTo(Stage.PENDING);
    assertThat(job.view().status().leader().restarts()).isZero();
    assertThat(job.view().status().leader().pod()).contains("train-learner");
    Plan plan =
        new LifecyclePlanner().plan(job.view(), List.of(), Instant.parse("2026-11-22T10:00:00Z"));
    assertThat(plan.stage()).isEqualTo(Stage.FAILED);
    assertThat(
            plan.statusPatch().orElseThrow().condition(Condition.VALIDATED).orElseThrow().message())
        .isEqualTo("spec.restartLimit: \"three\" is not a 32-bit integer");
  }

  @Test
  void aCountsBeyondIntFailsTheJobNamingItInsteadOfRunningAsOneWorker() {
    String spec = RawTYJobs.validSpec().replace("\"counts\": 2", "\"counts\": 10000000000");

    JobSnapshot job = mapper.map(RawTYJobs.job(spec));
    Plan plan =
        new LifecyclePlanner().plan(job.view(), List.of(), Instant.parse("2026-11-22T10:00:00Z"));

    assertThat(job.view().spec().workerSets()).isEmpty();
    assertThat(plan.stage()).isEqualTo(Stage.FAILED);
    assertThat(
            plan.statusPatch().orElseThrow().condition(Condition.VALIDATED).orElseThrow().message())
        .contains("spec.workerSets[0].counts: 10000000000 is not a 32-bit integer");
  }

  @Test
  void restartLimitAndMinWorkersNumBeyondIntFailTheJobInsteadOfReadingAsTheirDefaultsOrWrapped() {
    String restartLimit =
        RawTYJobs.validSpec().replace("\"restartLimit\": 2", "\"restartLimit\": 4294967296");
    String minWorkersNum =
        RawTYJobs.validSpec().replace("\"minWorkersNum\": 2", "\"minWorkersNum\": -4294967296");

    assertThat(mapper.map(RawTYJobs.job(restartLimit)).view().spec().unreadable())
        .contains(new UnreadableField("spec.restartLimit", "4294967296 is not a 32-bit integer"));
    assertThat(mapper.map(RawTYJobs.job(minWorkersNum)).view().spec().unreadable())
        .contains(new UnreadableField("spec.minWorkersNum", "-4294967296 is not a 32-bit integer"));
  }

  @Test
  void readsTheFieldsItOnlyValidates() {
    String spec =
        RawTYJobs.validSpec()
            .replace(
                "\"terminating\": false",
                "\"terminating\": false, \"priority\": 11, \"queue\": \"games\", \"gang\": {\"waitTime\": \"10m\", \"group\": \"pong\"}");

    JobSnapshot job = mapper.map(RawTYJobs.job(spec));

    assertThat(job.view().spec().unplanned())
        .isEqualTo(new UnplannedSpecView(11L, "games", "10m", "pong", List.of("shared")));
  }
}
