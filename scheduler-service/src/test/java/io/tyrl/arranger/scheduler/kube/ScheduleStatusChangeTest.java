package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.JSON;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.model.V1alpha1TYJobStatus;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Victim;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ScheduleStatusChangeTest {

  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

  @Test
  void anUnchangedDecisionWritesNothing() {
    V1alpha1TYJobStatus status =
        status(
            """
        {"scheduleState": "Unscheduled", "scheduling": {"reason": "Unschedulable", "message": "0/4 nodes fit"}}""");
    JobDecision decision =
        new JobDecision(
            ScheduleState.UNSCHEDULED, Map.of(), ReasonCode.UNSCHEDULABLE, "0/4 nodes fit", null);

    assertThat(ScheduleStatusChange.between(status, decision, List.of(), "7", NOW)).isEmpty();
  }

  @Test
  void placementsArePatchedKeyByKeyGuardedByTheResourceVersion() {
    V1alpha1TYJobStatus status =
        status(
            """
        {"scheduleState": "ScheduledPartly", "allocations": {"j-learner": "n1", "j-actor-0": "n1", "j-actor-1": "n2"}}""");
    JobDecision decision =
        new JobDecision(
            ScheduleState.SCHEDULED_SUCCEED,
            Map.of("j-learner", "n1", "j-actor-0", "n3", "j-actor-2", "n2"),
            null,
            "",
            null);

    ScheduleStatusChange change =
        ScheduleStatusChange.between(status, decision, List.of(), "42", NOW).orElseThrow();

    JsonObject patch = JsonParser.parseString(change.patch()).getAsJsonObject();
    assertThat(patch.getAsJsonObject("metadata").get("resourceVersion").getAsString())
        .isEqualTo("42");
    JsonObject written = patch.getAsJsonObject("status");
    assertThat(written.get("scheduleState").getAsString()).isEqualTo("ScheduledSucceed");
    JsonObject allocations = written.getAsJsonObject("allocations");
    assertThat(allocations.keySet())
        .containsExactlyInAnyOrder("j-actor-0", "j-actor-1", "j-actor-2");
    assertThat(allocations.get("j-actor-0").getAsString()).isEqualTo("n3");
    assertThat(allocations.get("j-actor-1").isJsonNull()).isTrue();
    assertThat(written.getAsJsonObject("scheduling").get("lastTransitionTime").getAsString())
        .isEqualTo(NOW.toString());
    assertThat(change.newlyPlaced()).isFalse();
  }

  @Test
  void gpuDeviceSeatsArePatchedKeyByKeyAndAnUnchangedSeatWritesNothing() {
    V1alpha1TYJobStatus status =
        status(
            """
        {"scheduleState": "ScheduledSucceed",
         "allocations": {"j-learner": "n1", "j-actor-0": "n1", "j-actor-1": "n1"},
         "gpuDevices": {"j-actor-0": 1, "j-actor-1": 1}}""");
    Map<String, String> allocations =
        Map.of("j-learner", "n1", "j-actor-0", "n1", "j-actor-1", "n1");

    JobDecision same =
        new JobDecision(
            ScheduleState.SCHEDULED_SUCCEED,
            allocations,
            null,
            "",
            null,
            Map.of("j-actor-0", 1, "j-actor-1", 1));
    JobDecision moved =
        new JobDecision(
            ScheduleState.SCHEDULED_SUCCEED,
            Map.of("j-learner", "n1", "j-actor-0", "n1", "j-actor-2", "n1"),
            null,
            "",
            null,
            Map.of("j-actor-0", 1, "j-actor-2", 0));

    assertThat(ScheduleStatusChange.between(status, same, List.of(), "7", NOW)).isEmpty();
    JsonObject written =
        JsonParser.parseString(
                ScheduleStatusChange.between(status, moved, List.of(), "8", NOW)
                    .orElseThrow()
                    .patch())
            .getAsJsonObject()
            .getAsJsonObject("status");
    JsonObject seats = written.getAsJsonObject("gpuDevices");
    assertThat(seats.keySet()).containsExactlyInAnyOrder("j-actor-1", "j-actor-2");
    assertThat(seats.get("j-actor-1").isJsonNull()).as("its share is given back").isTrue();
    assertThat(seats.get("j-actor-2").getAsInt()).isZero();
  }

  @Test
  void aStatusWrittenBeforeDeviceSeatsExistedGetsThemWithNothingElseChanged() {
    V1alpha1TYJobStatus status =
        status(
            """
        {"scheduleState": "ScheduledSucceed", "allocations": {"j-learner": "n1", "j-actor-0": "n1"}}""");
    JobDecision decision =
        new JobDecision(
            ScheduleState.SCHEDULED_SUCCEED,
            Map.of("j-learner", "n1", "j-actor-0", "n1"),
            null,
            "",
            null,
            Map.of("j-actor-0", 3));

    JsonObject written =
        JsonParser.parseString(
                ScheduleStatusChange.between(status, decision, List.of(), "9", NOW)
                    .orElseThrow()
                    .patch())
            .getAsJsonObject()
            .getAsJsonObject("status");

    assertThat(written.has("allocations")).isFalse();
    assertThat(written.getAsJsonObject("gpuDevices").get("j-actor-0").getAsInt()).isEqualTo(3);
  }

  /**
   * Topology domains are written once the leader is placed, kept as they are while the decision
   * repeats them (a job placed again from nothing), replaced key by key, and a level the job no
   * longer asks is written as null; a status written before the field existed gets it with nothing
   * else changed.
   */
  @Test
  void topologyDomainsArePatchedKeyByKeyAndARepeatedDomainWritesNothing() {
    String rack = "example.com/rack";
    String zone = "topology.kubernetes.io/zone";
    Map<String, String> allocations = Map.of("j-learner", "n1", "j-actor-0", "n1");
    V1alpha1TYJobStatus before =
        status(
            """
        {"scheduleState": "ScheduledSucceed", "allocations": {"j-learner": "n1", "j-actor-0": "n1"}}""");
    JobDecision inR1 =
        new JobDecision(
            ScheduleState.SCHEDULED_SUCCEED,
            allocations,
            null,
            "",
            null,
            Map.of(),
            Map.of(zone, "z1", rack, "r1"));

    JsonObject first = writtenStatus(before, inR1);
    assertThat(first.has("allocations")).isFalse();
    assertThat(first.getAsJsonObject("topologyDomains").get(rack).getAsString()).isEqualTo("r1");
    assertThat(first.getAsJsonObject("topologyDomains").get(zone).getAsString()).isEqualTo("z1");

    V1alpha1TYJobStatus recorded =
        status(
            """
        {"scheduleState": "ScheduledSucceed", "allocations": {"j-learner": "n1", "j-actor-0": "n1"},
         "topologyDomains": {"topology.kubernetes.io/zone": "z1", "example.com/rack": "r1"}}""");
    assertThat(ScheduleStatusChange.between(recorded, inR1, List.of(), "7", NOW)).isEmpty();

    JobDecision inR2WithoutZone =
        new JobDecision(
            ScheduleState.SCHEDULED_SUCCEED,
            allocations,
            null,
            "",
            null,
            Map.of(),
            Map.of(rack, "r2"));
    JsonObject domains =
        writtenStatus(recorded, inR2WithoutZone).getAsJsonObject("topologyDomains");
    assertThat(domains.keySet()).containsExactlyInAnyOrder(rack, zone);
    assertThat(domains.get(rack).getAsString()).isEqualTo("r2");
    assertThat(domains.get(zone).isJsonNull()).isTrue();
  }

  private static JsonObject writtenStatus(V1alpha1TYJobStatus status, JobDecision decision) {
    return JsonParser.parseString(
            ScheduleStatusChange.between(status, decision, List.of(), "8", NOW)
                .orElseThrow()
                .patch())
        .getAsJsonObject()
        .getAsJsonObject("status");
  }

  @Test
  void aNewPendingReasonIsWorthAnEventAndAFirstPlacementToo() {
    JobDecision pending =
        new JobDecision(
            ScheduleState.UNSCHEDULED, Map.of(), ReasonCode.GANG_TIMEOUT, "waited 10m", null);
    JobDecision placed =
        new JobDecision(
            ScheduleState.SCHEDULED_PARTLY,
            Map.of("j-learner", "n1", "j-actor-0", "n1"),
            null,
            "",
            NOW.minusSeconds(30));

    Optional<ScheduleStatusChange> reason =
        ScheduleStatusChange.between(null, pending, List.of(), "1", NOW);
    Optional<ScheduleStatusChange> first =
        ScheduleStatusChange.between(status("{}"), placed, List.of(), "2", NOW);

    assertThat(reason).get().extracting(ScheduleStatusChange::reasonChanged).isEqualTo(true);
    assertThat(first).get().extracting(ScheduleStatusChange::newlyPlaced).isEqualTo(true);
    JsonObject scheduling =
        JsonParser.parseString(first.orElseThrow().patch())
            .getAsJsonObject()
            .getAsJsonObject("status")
            .getAsJsonObject("scheduling");
    assertThat(scheduling.get("reason").isJsonNull()).isTrue();
    assertThat(scheduling.get("waitingSince").getAsString())
        .isEqualTo(NOW.minusSeconds(30).toString());
  }

  @Test
  void victimsAreRecordedWhenChosenAndClearedOnceThePreemptorNoLongerWaits() {
    Victim victim =
        new Victim(
            "rl",
            "low",
            List.of("low-actor-3"),
            false,
            "preempted by rl/high (priority 8 > 2)",
            ReasonCode.PREEMPTED);
    JobDecision waiting =
        new JobDecision(
            ScheduleState.UNSCHEDULED,
            Map.of(),
            ReasonCode.WAITING_FOR_VICTIMS,
            "waiting for 1 pod",
            null);

    ScheduleStatusChange chosen =
        ScheduleStatusChange.between(status("{}"), waiting, List.of(victim), "3", NOW)
            .orElseThrow();
    JsonObject written =
        JsonParser.parseString(chosen.patch()).getAsJsonObject().getAsJsonObject("status");
    assertThat(written.getAsJsonArray("victims")).hasSize(1);
    assertThat(
            written
                .getAsJsonArray("victims")
                .get(0)
                .getAsJsonObject()
                .get("pods")
                .getAsJsonArray()
                .get(0)
                .getAsString())
        .isEqualTo("low-actor-3");
    assertThat(
            written.getAsJsonArray("victims").get(0).getAsJsonObject().get("cause").getAsString())
        .as("the victim job is told whether it was preempted or reclaimed")
        .isEqualTo("Preempted");

    V1alpha1TYJobStatus recorded =
        status(
            """
        {"scheduleState": "Unscheduled", "scheduling": {"reason": "WaitingForVictims", "message": "waiting for 1 pod"},
         "victims": [{"namespace": "rl", "job": "low", "pods": ["low-actor-3"], "wholeJob": false,
                      "reason": "preempted by rl/high (priority 8 > 2)"}]}""");
    assertThat(ScheduleStatusChange.recorded(recorded)).containsExactly(victim);
    assertThat(ScheduleStatusChange.between(recorded, waiting, List.of(victim), "4", NOW))
        .isEmpty();

    JobDecision placed =
        new JobDecision(
            ScheduleState.SCHEDULED_SUCCEED, Map.of("high-learner", "n1"), null, "", null);
    JsonObject cleared =
        JsonParser.parseString(
                ScheduleStatusChange.between(recorded, placed, List.of(), "5", NOW)
                    .orElseThrow()
                    .patch())
            .getAsJsonObject()
            .getAsJsonObject("status");
    assertThat(cleared.get("victims").isJsonNull()).isTrue();
  }

  @Test
  void aRecordedVictimKeepsItsCauseAndOneWithoutACauseIsReadFromItsText() {
    V1alpha1TYJobStatus recorded =
        status(
            """
        {"victims": [{"namespace": "rl", "job": "a", "pods": ["a-learner"], "reason": "reclaimed by queue q", "cause": "Reclaimed"},
                     {"namespace": "rl", "job": "b", "pods": ["b-learner"], "reason": "reclaimed by queue q"},
                     {"namespace": "rl", "job": "c", "pods": ["c-learner"], "reason": "preempted by rl/high"}]}""");

    assertThat(ScheduleStatusChange.recorded(recorded))
        .extracting(Victim::cause)
        .containsExactly(ReasonCode.RECLAIMED, ReasonCode.RECLAIMED, ReasonCode.PREEMPTED);
  }

  private static V1alpha1TYJobStatus status(String json) {
    return new JSON().deserialize(json, V1alpha1TYJobStatus.class);
  }
}
