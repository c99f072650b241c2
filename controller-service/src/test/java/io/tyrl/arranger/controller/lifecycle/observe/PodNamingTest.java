package io.tyrl.arranger.controller.lifecycle.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tyrl.arranger.controller.lifecycle.JobFixture;
import io.tyrl.arranger.controller.lifecycle.plan.PodEnvironment;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodNamingTest {

  @Test
  void listsEveryWorkerSlotSetBySetInIndexOrder() {
    JobView view = JobFixture.job().workerSet("actor", 2).workerSet("critic", 1).build();

    List<PodSlot.Worker> slots = PodNaming.workerSlots("train", view.spec());

    assertThat(slots)
        .containsExactly(
            new PodSlot.Worker("train-actor-0", "actor", 0),
            new PodSlot.Worker("train-actor-1", "actor", 1),
            new PodSlot.Worker("train-critic-0", "critic", 0));
    assertThat(slots).extracting(PodSlot::role).containsOnly(PodRole.WORKER);
  }

  @Test
  void refusesToMakeMoreSlotsThanTheBoundsAllowInsteadOfRunningOutOfMemory() {
    JobView huge = JobFixture.job().workerSet("actor", Integer.MAX_VALUE).build();

    assertThatThrownBy(() -> PodNaming.workerSlots("train", huge.spec()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("workerSet \"actor\" asks for 2147483647 workers, outside 0..5000");
  }

  @Test
  void refusesSetsThatAreEachWithinTheBoundButNotTogether() {
    JobView tooMany = JobFixture.job().workerSet("actor", 3000).workerSet("critic", 2001).build();

    assertThatThrownBy(() -> PodNaming.workerSlots("train", tooMany.spec()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("its workerSets ask for 5001 workers, outside 0..5000");
  }

  @Test
  void makesEverySlotAtTheBound() {
    JobView atBound = JobFixture.job().workerSet("actor", 4000).workerSet("critic", 1000).build();

    List<PodSlot.Worker> slots = PodNaming.workerSlots("train", atBound.spec());

    assertThat(slots).hasSize(5000);
    assertThat(slots.get(4999)).isEqualTo(new PodSlot.Worker("train-critic-999", "critic", 999));
  }

  @Test
  void theLeaderSlotCarriesTheLeaderName() {
    PodSlot.Leader slot =
        PodNaming.leaderSlot("train", JobFixture.job().leader("boss").build().spec());

    assertThat(slot).isEqualTo(new PodSlot.Leader("train-boss", "boss"));
    assertThat(slot.role()).isEqualTo(PodRole.LEADER);
  }

  @Test
  void workerEnvironmentHasAllFiveVariablesInAStableOrder() {
    PodEnvironment environment =
        PodEnvironment.forWorker(
            "train", new PodSlot.Worker("train-actor-3", "actor", 3), "10.0.0.7");

    assertThat(environment.variables().keySet())
        .containsExactly(
            "TYJOB_LEADER_ADDR",
            "TYJOB_NAME",
            "TYJOB_ROLE",
            "TYJOB_WORKER_SET",
            "TYJOB_WORKER_INDEX");
    assertThat(environment.variables())
        .isEqualTo(
            Map.of(
                "TYJOB_LEADER_ADDR",
                "10.0.0.7",
                "TYJOB_NAME",
                "train",
                "TYJOB_ROLE",
                "worker",
                "TYJOB_WORKER_SET",
                "actor",
                "TYJOB_WORKER_INDEX",
                "3"));
    assertThat(environment.leaderAddress()).contains("10.0.0.7");
  }

  @Test
  void leaderEnvironmentHasNoLeaderAddressOrWorkerPlace() {
    PodEnvironment environment = PodEnvironment.forLeader("train");

    assertThat(environment.variables())
        .isEqualTo(Map.of("TYJOB_NAME", "train", "TYJOB_ROLE", "leader"));
    assertThat(environment.leaderAddress()).isEmpty();
  }
}
