package io.tyrl.arranger.controller.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodNamingTest {

  @Test
  void namesTheLeaderAfterJobAndLeader() {
    assertThat(PodNaming.leaderPodName("train", "learner")).isEqualTo("train-learner");
  }

  @Test
  void namesWorkersAfterJobSetAndIndex() {
    assertThat(PodNaming.workerPodName("train", "actor", 12)).isEqualTo("train-actor-12");
  }

  @Test
  void listsEveryWorkerSlotSetBySetInIndexOrder() {
    JobView view = JobFixture.job().workerSet("actor", 2).workerSet("critic", 1).build();

    List<PodSlot.Worker> slots = PodNaming.workerSlots("train", view.spec());

    assertThat(slots).containsExactly(
        new PodSlot.Worker("train-actor-0", "actor", 0),
        new PodSlot.Worker("train-actor-1", "actor", 1),
        new PodSlot.Worker("train-critic-0", "critic", 0));
    assertThat(slots).extracting(PodSlot::role).containsOnly(PodRole.WORKER);
  }

  @Test
  void theLeaderSlotCarriesTheLeaderName() {
    PodSlot.Leader slot = PodNaming.leaderSlot("train", JobFixture.job().leader("boss").build().spec());

    assertThat(slot).isEqualTo(new PodSlot.Leader("train-boss", "boss"));
    assertThat(slot.role()).isEqualTo(PodRole.LEADER);
  }

  @Test
  void workerEnvironmentHasAllFiveVariablesInAStableOrder() {
    PodEnvironment environment = PodEnvironment.forWorker("train", new PodSlot.Worker("train-actor-3", "actor", 3), "10.0.0.7");

    assertThat(environment.variables().keySet()).containsExactly(
        "TYJOB_LEADER_ADDR", "TYJOB_NAME", "TYJOB_ROLE", "TYJOB_WORKER_SET", "TYJOB_WORKER_INDEX");
    assertThat(environment.variables()).isEqualTo(Map.of("TYJOB_LEADER_ADDR", "10.0.0.7", "TYJOB_NAME", "train",
        "TYJOB_ROLE", "worker", "TYJOB_WORKER_SET", "actor", "TYJOB_WORKER_INDEX", "3"));
    assertThat(environment.leaderAddress()).contains("10.0.0.7");
  }

  @Test
  void leaderEnvironmentHasNoLeaderAddressOrWorkerPlace() {
    PodEnvironment environment = PodEnvironment.forLeader("train");

    assertThat(environment.variables()).isEqualTo(Map.of("TYJOB_NAME", "train", "TYJOB_ROLE", "leader"));
    assertThat(environment.leaderAddress()).isEmpty();
  }
}
