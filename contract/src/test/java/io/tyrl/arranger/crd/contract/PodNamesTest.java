package io.tyrl.arranger.crd.contract;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PodNamesTest {

  @Test
  void namesTheLeaderAfterJobAndLeader() {
    assertThat(PodNames.leader("train", "learner")).isEqualTo("train-learner");
  }

  @Test
  void namesWorkersAfterJobSetAndIndex() {
    assertThat(PodNames.worker("train", "actor", 12)).isEqualTo("train-actor-12");
  }
}
