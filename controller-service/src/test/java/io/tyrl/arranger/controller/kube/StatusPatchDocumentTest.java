package io.tyrl.arranger.controller.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.tyrl.arranger.controller.lifecycle.plan.PlannedAction;
import io.tyrl.arranger.controller.lifecycle.status.Condition;
import io.tyrl.arranger.controller.lifecycle.status.ConditionStatus;
import io.tyrl.arranger.controller.lifecycle.status.ControllerStatus;
import io.tyrl.arranger.controller.lifecycle.status.EvictionNotice;
import io.tyrl.arranger.controller.lifecycle.status.LeaderSummary;
import io.tyrl.arranger.controller.lifecycle.status.WorkerSetSummary;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.contract.status.AvoidedNodeEntry;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StatusPatchDocumentTest {

  @Test
  void releasesSingleAllocationsAndIsGuardedByTheResourceVersion() {
    JsonObject patch =
        parse(StatusPatchDocument.of("42", List.of("train-actor-1"), Optional.empty()));

    assertThat(patch.getAsJsonObject("metadata").get("resourceVersion").getAsString())
        .isEqualTo("42");
    JsonObject status = patch.getAsJsonObject("status");
    assertThat(status.keySet()).containsExactly("allocations");
    assertThat(status.getAsJsonObject("allocations").get("train-actor-1").isJsonNull()).isTrue();
  }

  @Test
  void writesEveryControllerFieldAndClearsAbsentOnesWithNull() {
    ControllerStatus status =
        new ControllerStatus(
            Stage.RESCHEDULING,
            List.of(
                new Condition(
                    Condition.RUNNING,
                    ConditionStatus.FALSE,
                    "LeaderDeleted",
                    "gone",
                    Optional.empty())),
            new LeaderSummary(
                Optional.of("train-learner"),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                1),
            List.of(),
            0,
            Optional.of(Instant.parse("2026-11-22T10:00:00Z")),
            Optional.empty(),
            2);

    JsonObject written =
        parse(StatusPatchDocument.of("7", List.of(), Optional.of(status)))
            .getAsJsonObject("status");

    assertThat(written.keySet())
        .containsExactlyInAnyOrder(
            "stage",
            "conditions",
            "leader",
            "workerSets",
            "readyWorkers",
            "startTime",
            "completionTime",
            "observedGeneration",
            "eviction",
            "workers",
            "allocatedNodes",
            "avoidNodes");
    assertThat(written.get("stage").getAsString()).isEqualTo("Rescheduling");
    assertThat(written.get("eviction").isJsonNull())
        .as("an eviction note the plan no longer keeps is cleared")
        .isTrue();
    assertThat(written.get("completionTime").isJsonNull()).isTrue();
    assertThat(written.get("startTime").getAsString()).isEqualTo("2026-11-22T10:00:00Z");
    JsonObject leader = written.getAsJsonObject("leader");
    assertThat(leader.get("phase").isJsonNull())
        .as("a leader not seen must be stored as not seen")
        .isTrue();
    assertThat(leader.get("node").isJsonNull()).isTrue();
    assertThat(leader.get("restarts").getAsInt()).isEqualTo(1);
    JsonObject condition = written.getAsJsonArray("conditions").get(0).getAsJsonObject();
    assertThat(condition.has("lastTransitionTime"))
        .as("no null inside arrays, which are replaced whole")
        .isFalse();
    assertThat(written.has("allocations")).isFalse();
  }

  @Test
  void writesWorkersReadyOfDesiredAllocatedNodesAndAvoidedNodesForKubectl() {
    ControllerStatus status =
        new ControllerStatus(
            Stage.RUNNING,
            List.of(),
            LeaderSummary.none(),
            List.of(
                new WorkerSetSummary("actor", 3, 3, 2, 0),
                new WorkerSetSummary("critic", 1, 1, 1, 0)),
            3,
            Optional.empty(),
            Optional.empty(),
            1,
            Optional.empty(),
            2,
            List.of(
                new AvoidedNodeEntry("node-7", "OutOfcpu", Instant.parse("2026-11-25T12:05:00Z"))));

    JsonObject written =
        parse(StatusPatchDocument.of("7", List.of(), Optional.of(status)))
            .getAsJsonObject("status");

    assertThat(written.get("workers").getAsString()).isEqualTo("3/4");
    assertThat(written.get("allocatedNodes").getAsInt()).isEqualTo(2);
    JsonObject avoided = written.getAsJsonArray("avoidNodes").get(0).getAsJsonObject();
    assertThat(avoided.get("node").getAsString()).isEqualTo("node-7");
    assertThat(avoided.get("reason").getAsString()).isEqualTo("OutOfcpu");
    assertThat(avoided.get("until").getAsString()).isEqualTo("2026-11-25T12:05:00Z");
  }

  @Test
  void anEvictionNoteIsWrittenWithItsReasonMessageAndPods() {
    JsonObject note =
        StatusPatchDocument.eviction(
            new EvictionNotice(
                "Reclaimed", "reclaimed by queue q for rl/b", List.of("a-learner", "a-actor-0")));

    assertThat(note.get("reason").getAsString()).isEqualTo("Reclaimed");
    assertThat(note.get("message").getAsString()).isEqualTo("reclaimed by queue q for rl/b");
    assertThat(note.getAsJsonArray("pods")).hasSize(2);
    assertThat(JobViewMapper.eviction(note))
        .contains(
            new EvictionNotice(
                "Reclaimed", "reclaimed by queue q for rl/b", List.of("a-learner", "a-actor-0")));
  }

  @Test
  void aRefusalIsWrittenAsTheSchedulingReasonAndMessageAndNothingElseOfTheScheduler() {
    JsonObject written =
        parse(
                StatusPatchDocument.of(
                    "7",
                    List.of(),
                    Optional.empty(),
                    Optional.of(
                        new PlannedAction.ReportRefusal(
                            "InvalidJob", "spec.minWorkersNum: 9 is more than the 2 workers"))))
            .getAsJsonObject("status");

    assertThat(written.keySet()).containsExactly("scheduling");
    assertThat(written.getAsJsonObject("scheduling").keySet())
        .containsExactlyInAnyOrder("reason", "message");
    assertThat(written.getAsJsonObject("scheduling").get("reason").getAsString())
        .isEqualTo("InvalidJob");
    assertThat(
            parse(StatusPatchDocument.of("7", List.of(), Optional.empty()))
                .getAsJsonObject("status")
                .has("scheduling"))
        .as("without a refusal the scheduler's fields are left alone")
        .isFalse();
  }

  private static JsonObject parse(String json) {
    return JsonParser.parseString(json).getAsJsonObject();
  }
}
