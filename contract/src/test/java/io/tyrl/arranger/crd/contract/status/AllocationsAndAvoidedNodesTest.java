package io.tyrl.arranger.crd.contract.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AllocationsAndAvoidedNodesTest {

  @Test
  void allocationsReadBackAsWrittenAndAGivenBackPlacementIsANull() {
    Map<String, String> changes = new HashMap<>();
    changes.put("j-learner", "n1");
    changes.put("j-actor-0", null);

    Map<String, Object> patch = Allocations.patch(changes);

    assertThat(patch).containsEntry("j-actor-0", null).containsEntry("j-learner", "n1");
    assertThat(Allocations.decode(patch)).isEqualTo(Map.of("j-learner", "n1"));
  }

  @Test
  void anAllocationThatIsNotAScalarIsLeftOut() {
    Map<String, Object> stored = new LinkedHashMap<>();
    stored.put("j-learner", List.of("n1"));
    stored.put("j-actor-0", 3);

    assertThat(Allocations.decode(stored)).isEqualTo(Map.of("j-actor-0", "3"));
    assertThat(Allocations.decode(List.of())).isEmpty();
  }

  @Test
  void avoidedNodesReadBackAsWrittenAndAnEntryWithoutNodeOrTimeIsSkipped() {
    AvoidedNodeEntry entry =
        new AvoidedNodeEntry("n1", "OutOfcpu", Instant.parse("2026-11-22T12:05:00Z"));

    assertThat(entry.encode())
        .containsExactly(
            Map.entry("node", "n1"),
            Map.entry("reason", "OutOfcpu"),
            Map.entry("until", "2026-11-22T12:05:00Z"));
    assertThat(
            AvoidedNodeEntry.decodeAll(
                List.of(
                    entry.encode(),
                    Map.of("node", "n2"),
                    Map.of("node", "n3", "until", "soon"),
                    "garbage")))
        .containsExactly(entry);
  }
}
