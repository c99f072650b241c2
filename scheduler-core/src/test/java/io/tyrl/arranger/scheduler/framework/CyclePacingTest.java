package io.tyrl.arranger.scheduler.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CyclePacingTest {

  private static final CyclePacing ON_CHANGE =
      new CyclePacing(Duration.ofSeconds(1), true, Duration.ofMillis(100));

  static Stream<Arguments> delays() {
    return Stream.of(
        Arguments.of("nothing seen: a period after the last cycle", ON_CHANGE, 30, false, 1000),
        Arguments.of(
            "a change seen after a short cycle: the least interval", ON_CHANGE, 30, true, 100),
        Arguments.of(
            "a change seen after a cycle longer than the interval: as long as it lasted",
            ON_CHANGE,
            400,
            true,
            400),
        Arguments.of(
            "a change seen after a cycle longer than the period: never later than the period",
            ON_CHANGE,
            2500,
            true,
            1000),
        Arguments.of("a cycle exactly as long as the interval", ON_CHANGE, 100, true, 100),
        Arguments.of(
            "cycles on change off: the period even with a change seen",
            new CyclePacing(Duration.ofSeconds(1), false, Duration.ofMillis(100)),
            30,
            true,
            1000));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("delays")
  void theNextCycleStartsAfter(
      String description,
      CyclePacing pacing,
      long cycleMillis,
      boolean changeSeen,
      long expectedMillis) {
    assertThat(pacing.delayNanos(Duration.ofMillis(cycleMillis).toNanos(), changeSeen))
        .isEqualTo(Duration.ofMillis(expectedMillis).toNanos());
  }

  @Test
  void aPeriodOrIntervalThatIsNotPositiveIsRefusedByName() {
    assertThatThrownBy(() -> new CyclePacing(Duration.ZERO, true, Duration.ofMillis(100)))
        .hasMessageContaining("period");
    assertThatThrownBy(() -> new CyclePacing(Duration.ofSeconds(1), true, Duration.ofMillis(-1)))
        .hasMessageContaining("minInterval");
    assertThatThrownBy(() -> new CyclePacing(Duration.ofSeconds(1), true, null))
        .hasMessageContaining("minInterval");
  }
}
