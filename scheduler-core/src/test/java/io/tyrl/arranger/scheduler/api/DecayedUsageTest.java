package io.tyrl.arranger.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class DecayedUsageTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Duration DAY = Duration.ofDays(1);
  private static final Resource FOUR_GPUS_TWO_CPUS = Resource.of(Resource.GPU, "4", "cpu", "2");

  private static DecayedUsage usage(double gpuSeconds) {
    return new DecayedUsage(
        T0, List.of(new DecayedUsage.Slot(T0, new TreeMap<>(Map.of(Resource.GPU, gpuSeconds)))));
  }

  @Test
  void oneHalfLifeLaterWithNothingHeldUsageIsHalved() {
    DecayedUsage later = usage(1000).advance(Resource.EMPTY, T0.plus(DAY), DAY, null);

    assertThat(later.total(Resource.GPU)).isCloseTo(500, within(1e-9));
    assertThat(later.asOf()).isEqualTo(T0.plus(DAY));
    assertThat(
            usage(1000)
                .advance(Resource.EMPTY, T0.plus(DAY.multipliedBy(3)), DAY, null)
                .total(Resource.GPU))
        .isCloseTo(125, within(1e-9));
  }

  @Test
  void heldAmountsCountInResourceSecondsOfTheirOwnUnitDecayedAsTheyPass() {
    DecayedUsage start = new DecayedUsage(T0, List.of());

    DecayedUsage hour = start.advance(FOUR_GPUS_TWO_CPUS, T0.plusSeconds(3600), DAY, null);

    // Within an hour of a day's half-life almost nothing has decayed: 4 GPUs × 3600 s, 2 cores ×
    // 3600 s (cpu is counted in cores, not millicores), each a little under.
    assertThat(hour.total(Resource.GPU)).isLessThan(14_400).isGreaterThan(14_400 * 0.985);
    assertThat(hour.total("cpu")).isLessThan(7_200).isGreaterThan(7_200 * 0.985);
    assertThat(hour.total()).doesNotContainKey(Resource.PODS);
  }

  @Test
  void oneLongStepAndManyShortOnesGiveTheSameUsage() {
    DecayedUsage oneStep =
        new DecayedUsage(T0, List.of()).advance(FOUR_GPUS_TWO_CPUS, T0.plus(DAY), DAY, null);
    DecayedUsage manySteps = new DecayedUsage(T0, List.of());
    for (int minute = 1; minute <= 24 * 60; minute++) {
      manySteps = manySteps.advance(FOUR_GPUS_TWO_CPUS, T0.plusSeconds(60L * minute), DAY, null);
    }

    assertThat(manySteps.total(Resource.GPU))
        .isCloseTo(oneStep.total(Resource.GPU), within(1e-6 * oneStep.total(Resource.GPU)));
    // Held for one half-life from nothing: half of what it would be without decay, over ln 2.
    assertThat(oneStep.total(Resource.GPU)).isCloseTo(4 * 86_400 * 0.5 / Math.log(2), within(1e-6));
  }

  @Test
  void withAWindowWhatWasHeldBeforeItIsForgotten() {
    Duration window = Duration.ofHours(12);
    DecayedUsage usage = new DecayedUsage(T0, List.of());
    // Held for the first two hours, then nothing for twelve hours.
    for (int minute = 10; minute <= 120; minute += 10) {
      usage = usage.advance(FOUR_GPUS_TWO_CPUS, T0.plusSeconds(60L * minute), DAY, window);
    }
    assertThat(usage.total(Resource.GPU)).isGreaterThan(20_000);
    DecayedUsage withinWindow =
        usage.advance(Resource.EMPTY, T0.plus(Duration.ofHours(12)), DAY, window);
    DecayedUsage afterWindow =
        usage.advance(Resource.EMPTY, T0.plus(Duration.ofHours(15)), DAY, window);
    DecayedUsage noWindow = usage.advance(Resource.EMPTY, T0.plus(Duration.ofHours(15)), DAY, null);

    assertThat(withinWindow.total(Resource.GPU)).isGreaterThan(10_000);
    assertThat(afterWindow.total(Resource.GPU)).isZero();
    assertThat(afterWindow.slots()).isEmpty();
    assertThat(noWindow.total(Resource.GPU)).isGreaterThan(10_000);
  }

  @Test
  void withAWindowUsageIsKeptInAtMostAWindowOfSlots() {
    Duration window = Duration.ofHours(12);
    DecayedUsage usage = new DecayedUsage(T0, List.of());
    for (int minute = 10; minute <= 48 * 60; minute += 10) {
      usage = usage.advance(FOUR_GPUS_TWO_CPUS, T0.plusSeconds(60L * minute), DAY, window);
    }

    assertThat(usage.slots())
        .hasSizeBetween(DecayedUsage.SLOTS_PER_WINDOW, DecayedUsage.SLOTS_PER_WINDOW + 1);
    // Holding 4 GPUs all along, the usage is what a window's worth of it decays to.
    double expected = 4 * DecayedUsage.horizonSeconds(DAY, window);
    assertThat(usage.total(Resource.GPU))
        .isCloseTo(expected, within(expected / DecayedUsage.SLOTS_PER_WINDOW));
  }

  @Test
  void withoutHistoryUsageStartsNowAndNothingBeforeCounts() {
    DecayedUsage started = DecayedUsage.NONE.advance(FOUR_GPUS_TWO_CPUS, T0, DAY, null);

    assertThat(started.asOf()).isEqualTo(T0);
    assertThat(started.total()).isEmpty();
    assertThat(
            started.advance(FOUR_GPUS_TWO_CPUS, T0.plusSeconds(10), DAY, null).total(Resource.GPU))
        .isCloseTo(40, within(0.01));
  }

  @Test
  void aWindowSwitchedOffMergesTheSlotsIntoOne() {
    Duration window = Duration.ofHours(12);
    DecayedUsage usage = new DecayedUsage(T0, List.of());
    for (int hour = 1; hour <= 6; hour++) {
      usage = usage.advance(FOUR_GPUS_TWO_CPUS, T0.plus(Duration.ofHours(hour)), DAY, window);
    }
    assertThat(usage.slots()).hasSizeGreaterThan(1);

    DecayedUsage merged =
        usage.advance(Resource.EMPTY, T0.plus(Duration.ofHours(6)).plusSeconds(1), DAY, null);

    assertThat(merged.slots()).hasSize(1);
    assertThat(merged.total(Resource.GPU)).isCloseTo(usage.total(Resource.GPU), within(1.0));
  }

  @Test
  void aNegativeOrNonFiniteAmountIsRefusedNamingTheResource() {
    assertThatThrownBy(() -> usage(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(Resource.GPU);
    assertThatThrownBy(() -> usage(Double.NaN)).hasMessageContaining(Resource.GPU);
  }
}
