package io.tyrl.arranger.crd.contract.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VictimEntryTest {

  private static final VictimEntry VICTIM =
      new VictimEntry(
          "rl",
          "low",
          List.of("low-actor-3", "low-learner"),
          List.of("uid-3", "uid-l"),
          true,
          "preempted by rl/high (priority 8 > 2)",
          "Preempted");

  @Test
  void anEntryReadsBackAsItWasWritten() {
    assertThat(VictimEntry.decodeAll(VictimEntry.encodeAll(List.of(VICTIM))))
        .containsExactly(VICTIM);
  }

  @Test
  void itIsWrittenWithTheKeysBothServicesUse() {
    assertThat(VICTIM.encode())
        .containsExactly(
            Map.entry("namespace", "rl"),
            Map.entry("job", "low"),
            Map.entry("pods", List.of("low-actor-3", "low-learner")),
            Map.entry("podUIDs", List.of("uid-3", "uid-l")),
            Map.entry("wholeJob", true),
            Map.entry("reason", "preempted by rl/high (priority 8 > 2)"),
            Map.entry("cause", "Preempted"));
  }

  @Test
  void noVictimsClearTheList() {
    assertThat(VictimEntry.encodeAll(List.of())).isNull();
  }

  @Test
  void absentAndGarbledFieldsReadAsEmptyAndEveryEntryKeepsItsPlace() {
    Map<String, Object> garbled = new LinkedHashMap<>();
    garbled.put("namespace", 7);
    garbled.put("pods", "low-actor-3");
    garbled.put("podUIDs", new ArrayList<>(java.util.Arrays.asList("u1", null, List.of())));
    garbled.put("wholeJob", "yes");
    garbled.put("reason", null);

    List<VictimEntry> entries = VictimEntry.decodeAll(List.of(garbled, "not an entry"));

    assertThat(entries)
        .containsExactly(
            new VictimEntry("7", "", List.of(), List.of("u1"), false, "", ""),
            new VictimEntry("", "", List.of(), List.of(), false, "", ""));
    assertThat(VictimEntry.decodeAll("not a list")).isEmpty();
    assertThat(VictimEntry.decodeAll(null)).isEmpty();
  }

  @Test
  void anEntryWithoutACauseIsPreemptedOrReclaimedAsItsTextSays() {
    assertThat(
            new VictimEntry("rl", "a", List.of(), List.of(), false, "reclaimed by queue q", "")
                .evictionCause())
        .isEqualTo("Reclaimed");
    assertThat(
            new VictimEntry("rl", "b", List.of(), List.of(), false, "preempted by rl/high", "")
                .evictionCause())
        .isEqualTo("Preempted");
    assertThat(
            new VictimEntry(
                    "rl", "c", List.of(), List.of(), false, "reclaimed by queue q", "Preempted")
                .evictionCause())
        .as("a recorded cause wins")
        .isEqualTo("Preempted");
  }

  @Test
  void aPodIsNamedByItsNameAndWhenRecordedItsUid() {
    assertThat(VICTIM.names("low-actor-3", "uid-3")).isTrue();
    assertThat(VICTIM.names("low-actor-3", "a-later-pod")).isFalse();
    assertThat(
            new VictimEntry("rl", "low", List.of("low-actor-3"), List.of(), false, "", "")
                .names("low-actor-3", "any"))
        .isTrue();
  }
}
