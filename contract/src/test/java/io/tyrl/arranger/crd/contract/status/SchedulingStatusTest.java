package io.tyrl.arranger.crd.contract.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SchedulingStatusTest {

  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

  @Test
  void aCyclesPatchReadsBackAsWritten() {
    Map<String, Object> patch =
        SchedulingStatus.cyclePatch(
            "Unschedulable", "0/4 nodes fit", NOW, NOW, NOW.minusSeconds(60));

    assertThat(SchedulingStatus.decode(patch))
        .isEqualTo(
            new SchedulingStatus(
                Optional.of("Unschedulable"),
                Optional.of("0/4 nodes fit"),
                Optional.of(NOW),
                Optional.of(NOW),
                Optional.of(NOW.minusSeconds(60))));
  }

  @Test
  void aCyclesPatchClearsWhatIsGoneAndLeavesTheTransitionTimeUnlessItMoves() {
    Map<String, Object> patch = SchedulingStatus.cyclePatch(null, null, NOW, null, null);

    assertThat(patch.keySet())
        .containsExactly("reason", "message", "lastCycleTime", "waitingSince");
    assertThat(patch)
        .containsEntry("reason", null)
        .containsEntry("waitingSince", null)
        .containsEntry("lastCycleTime", "2026-11-22T12:00:00Z");
  }

  @Test
  void aRefusalWritesOnlyItsReasonAndMessage() {
    assertThat(SchedulingStatus.refusalPatch("InvalidJob", "spec.queue: bad"))
        .containsExactly(
            Map.entry("reason", "InvalidJob"), Map.entry("message", "spec.queue: bad"));
  }

  @Test
  void absentAndGarbledFieldsReadAsEmpty() {
    Map<String, Object> garbled = new LinkedHashMap<>();
    garbled.put("reason", Map.of());
    garbled.put("message", 7);
    garbled.put("waitingSince", "yesterday");
    garbled.put("lastCycleTime", null);

    assertThat(SchedulingStatus.decode(garbled))
        .isEqualTo(
            new SchedulingStatus(
                Optional.empty(),
                Optional.of("7"),
                Optional.empty(),
                Optional.empty(),
                Optional.empty()));
    assertThat(SchedulingStatus.decode("not an object")).isEqualTo(SchedulingStatus.decode(null));
  }
}
