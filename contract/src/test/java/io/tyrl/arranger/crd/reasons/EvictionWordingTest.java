package io.tyrl.arranger.crd.reasons;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EvictionWordingTest {

  @Test
  void aMoveReadsAsReclaimAndIsToldApartFromOtherReclaims() {
    String moved = EvictionWording.movedFor("team-a", "ns/learner");
    String reclaimed = EvictionWording.reclaimedBy("team-a", "ns/learner", "team-b");
    String preempted = EvictionWording.preemptedBy("ns/high", 8, 5);

    assertThat(EvictionWording.isMove(moved)).isTrue();
    assertThat(EvictionWording.isMove(reclaimed)).isFalse();
    assertThat(EvictionWording.isMove(preempted)).isFalse();
    assertThat(EvictionWording.isMove(null)).isFalse();
    assertThat(EvictionWording.causeOf(moved)).isEqualTo(SchedulingReasons.RECLAIMED);
    assertThat(moved).contains("team-a").contains("ns/learner");
  }
}
