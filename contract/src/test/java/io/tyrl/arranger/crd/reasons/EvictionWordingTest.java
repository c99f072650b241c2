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

  @Test
  void aReclaimForAGuaranteeReadsAsReclaimNotAsAMove() {
    String forGuarantee = EvictionWording.reclaimedForGuarantee("team-a", "ns/learner", "team-b");

    assertThat(EvictionWording.causeOf(forGuarantee)).isEqualTo(SchedulingReasons.RECLAIMED);
    assertThat(EvictionWording.isMove(forGuarantee)).isFalse();
    assertThat(forGuarantee)
        .isEqualTo(
            "reclaimed by queue team-a (below its guarantee) for ns/learner;"
                + " queue team-b holds more than its guarantee");
  }
}
