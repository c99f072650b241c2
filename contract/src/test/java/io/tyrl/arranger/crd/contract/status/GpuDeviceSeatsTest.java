package io.tyrl.arranger.crd.contract.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GpuDeviceSeatsTest {

  @Test
  void seatsReadBackAsWrittenAndAGivenBackSeatIsANull() {
    Map<String, Integer> changes = new HashMap<>();
    changes.put("j-actor-0", 2);
    changes.put("j-actor-1", null);

    Map<String, Object> patch = GpuDeviceSeats.patch(changes);

    assertThat(patch).containsEntry("j-actor-1", null).containsEntry("j-actor-0", 2);
    assertThat(GpuDeviceSeats.decode(patch)).isEqualTo(Map.of("j-actor-0", 2));
  }

  @Test
  void onlyWholeNumbersFromZeroUpAreSeats() {
    Map<String, Object> stored = new LinkedHashMap<>();
    stored.put("zero", 0);
    stored.put("as-json-reads-it", 3.0);
    stored.put("long", 5L);
    stored.put("negative", -1);
    stored.put("fraction", 1.5);
    stored.put("text", "1");
    stored.put("too-large", 1e12);
    stored.put("list", List.of(1));

    assertThat(GpuDeviceSeats.decode(stored))
        .isEqualTo(Map.of("zero", 0, "as-json-reads-it", 3, "long", 5));
    assertThat(GpuDeviceSeats.decode("not a map")).isEmpty();
  }
}
