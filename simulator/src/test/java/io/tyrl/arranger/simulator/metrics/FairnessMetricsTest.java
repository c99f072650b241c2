package io.tyrl.arranger.simulator.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class FairnessMetricsTest {

  /**
   * 16 GPUs; a holds 16 for the first hour, then a and b hold 4 and 12 for two hours: a 16 + 8 = 24
   * GPU-hours, b 24, over the three hours; over the last two, a 8 and b 24.
   */
  private static final RunRecord RUN =
      new RunRecord(
          "test",
          List.of("a", "b"),
          List.of(1, 1),
          16,
          16_000,
          3 * 3600,
          5 * 3600,
          List.of(
              new AllocationPoint(0, 16, 0, 0, new long[] {16, 0}, new long[] {16, 0}),
              new AllocationPoint(3600, 16, 0, 0, new long[] {4, 12}, new long[] {16, 16}),
              new AllocationPoint(3 * 3600, 0, 0, 0, new long[] {0, 0}, new long[] {0, 0})),
          List.of(
              new JobOutcome("b-1", "b", 3600, 3600 + 100, 7200, null, 0, false),
              new JobOutcome("b-2", "b", 3600, 3600 + 900, 7200, null, 0, false),
              new JobOutcome("b-never", "b", 4 * 3600, Double.NaN, Double.NaN, null, 0, false),
              new JobOutcome("a-1", "a", 0, 5000, 9000, null, 0, false)),
          0,
          0,
          10,
          1,
          1);

  @Test
  void eachQueuesGpuHoursAndPartAreIntegratedOverThePeriod() {
    List<FairnessMetrics.QueueShare> whole = FairnessMetrics.shares(RUN, 0, 3 * 3600);
    List<FairnessMetrics.QueueShare> last = FairnessMetrics.shares(RUN, 3600, 3 * 3600);

    assertThat(whole.get(0).gpuHours()).isCloseTo(24, within(1e-9));
    assertThat(whole.get(1).gpuHours()).isCloseTo(24, within(1e-9));
    assertThat(FairnessMetrics.maxDeviationPercent(whole)).isCloseTo(0, within(1e-9));
    assertThat(last.get(0).part()).isCloseTo(0.25, within(1e-9));
    assertThat(FairnessMetrics.maxDeviationPercent(last)).isCloseTo(25, within(1e-9));
  }

  @Test
  void waitsCountAJobNeverStartedUntilTheRunsEndAndOnlyTheQueuesJobsInThePeriod() {
    double[] waits = FairnessMetrics.waits(RUN, "b", 3600, 5 * 3600);

    assertThat(waits).containsExactlyInAnyOrder(100, 900, 3600);
    assertThat(FairnessMetrics.waits(RUN, "b", 0, 3000)).isEmpty();
  }
}
