package io.tyrl.arranger.crd.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class GoDurationsTest {

  @Test
  void aWrittenDurationReadsBackAsItself() {
    for (Duration duration :
        new Duration[] {
          Duration.ZERO,
          Duration.ofMillis(250),
          Duration.ofSeconds(30),
          Duration.ofMinutes(90),
          Duration.ofHours(2).plusSeconds(5).plusMillis(7)
        }) {
      assertThat(GoDurations.parse(GoDurations.format(duration), "d")).isEqualTo(duration);
    }
    assertThat(GoDurations.format(Duration.ofMinutes(90))).isEqualTo("1h30m");
    assertThat(GoDurations.format(Duration.ofSeconds(30))).isEqualTo("30s");
    assertThat(GoDurations.format(Duration.ZERO)).isEqualTo("0s");
  }

  @Test
  void aTextThatIsNoDurationIsRefusedNamingTheField() {
    assertThatThrownBy(() -> GoDurations.parse("30 seconds", "spec.gang.waitTime"))
        .hasMessage("spec.gang.waitTime: '30 seconds' is not a duration such as 90s, 10m or 1h30m");
  }
}
