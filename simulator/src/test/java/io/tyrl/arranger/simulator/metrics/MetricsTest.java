package io.tyrl.arranger.simulator.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.simulator.trace.Trace;
import io.tyrl.arranger.simulator.trace.TraceJob;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Table tests of every figure on traces small enough to check by hand. */
class MetricsTest {

  @ParameterizedTest(name = "p{1} of {0} = {2}")
  @CsvSource(
      delimiter = ';',
      value = {
        "5;50;5",
        "1 2 3 4;50;2",
        "1 2 3 4;95;4",
        "1 2 3 4;75;3",
        "10 1 7 3 5 9 2 8 6 4;95;10",
        "10 1 7 3 5 9 2 8 6 4;90;9",
        "10 1 7 3 5 9 2 8 6 4;50;5",
        "4 4 4 1;25;1"
      })
  void percentilesByNearestRank(String values, double percent, double expected) {
    double[] parsed =
        java.util.Arrays.stream(values.split(" ")).mapToDouble(Double::parseDouble).toArray();

    assertThat(Percentiles.of(parsed, percent)).isEqualTo(expected);
  }

  @Test
  void noValuesHaveNoPercentile() {
    assertThat(Percentiles.of(new double[0], 95)).isNaN();
  }

  @ParameterizedTest(name = "mean of steps {0} at {1} over [0, {2}] = {3}")
  @CsvSource(
      delimiter = ';',
      value = {
        // 0 before the first point; each value holds until the next point; the last until the end.
        "0 10;4 8;20;6",
        "5;10;10;5",
        "0 5 15;1 3 0;20;1.75",
        // points past the end do not count
        "0 10 30;2 4 100;20;3"
      })
  void stepSeriesMeans(String times, String values, double end, double expected) {
    double[] t =
        java.util.Arrays.stream(times.split(" ")).mapToDouble(Double::parseDouble).toArray();
    double[] v =
        java.util.Arrays.stream(values.split(" ")).mapToDouble(Double::parseDouble).toArray();

    assertThat(StepSeries.mean(t, v, end)).isCloseTo(expected, within(1e-9));
  }

  @ParameterizedTest(name = "capacity {0}, weights {1}, demand {2} → {3}")
  @CsvSource(
      delimiter = ';',
      value = {
        "12;2 1;20 20;8 4",
        // a queue asking less than its part gets what it asks, the rest goes to the others
        "12;2 1;4 20;4 8",
        "9;1 2;10 10;3 6",
        "100;4 2 1;10 90 5;10 85 5",
        "70;4 2 1;80 80 5;43.333333 21.666667 5",
        "10;1 1;0 0;0 0",
        "10;3 1;0 30;0 10"
      })
  void waterFillingSplitsByWeightCappedByDemand(
      double capacity, String weights, String demand, String expected) {
    int[] w = java.util.Arrays.stream(weights.split(" ")).mapToInt(Integer::parseInt).toArray();
    double[] d =
        java.util.Arrays.stream(demand.split(" ")).mapToDouble(Double::parseDouble).toArray();
    double[] e =
        java.util.Arrays.stream(expected.split(" ")).mapToDouble(Double::parseDouble).toArray();

    double[] deserved = WaterFilling.deserved(capacity, w, d);

    for (int i = 0; i < e.length; i++) {
      assertThat(deserved[i]).as("queue %d", i).isCloseTo(e[i], within(1e-5));
    }
  }

  @Test
  void greedyBoundStartsEveryWholeJobThatFitsInThePoolInSubmitOrder() {
    // A pool of 8 GPUs. a (6 GPUs, 0–100 s) runs at once; b (4 GPUs) waits for a; c (2 GPUs) passes
    // b
    // at 20 s; at 100 s b starts, at 120 c ends, at 200 b ends. d is larger than the pool: left
    // out.
    Trace trace =
        new Trace(
            List.of(
                job("a", 0, 2, 4, 100),
                job("b", 10, 4, 0, 100),
                job("c", 20, 1, 1, 100),
                job("d", 30, 8, 1, 10)));

    GreedyBound bound =
        GreedyBound.of(trace, Resource.of("cpu", "100", "memory", "1Ti", "nvidia.com/gpu", "8"));

    assertThat(bound.times()).containsExactly(0, 10, 20, 30, 100, 120, 200);
    assertThat(bound.gpus()).containsExactly(6, 6, 8, 8, 6, 4, 0);
    // over [0, 100]: 6 for 20 s, 8 for 80 s → 7.6 of 8
    assertThat(bound.meanGpuFraction(100)).isCloseTo(7.6 / 8, within(1e-9));
  }

  @Test
  void summaryOfAHandMadeRun() {
    // 10 GPUs, 2 queues weighing 1 each, window [0, 100]. The allocation points:
    //   0–50: 4 GPUs started (queue a), 2 reserved (queue b); a asks 4, b asks 8
    //   50–100: 10 GPUs started (a 4, b 6)
    // deserved: 0–50 a 4, b 6 → |4-4| = 0, |2-6| = 4 ; 50–100 a 4, b 6 → 0, 0
    // share-dev = max(0, 4 * 50 / 100 / 10) = 0.2
    List<AllocationPoint> points =
        List.of(
            new AllocationPoint(0, 4, 4000, 2, new long[] {4, 2}, new long[] {4, 8}),
            new AllocationPoint(50, 10, 10000, 0, new long[] {4, 6}, new long[] {4, 8}));
    List<JobOutcome> jobs =
        List.of(
            new JobOutcome("j1", "a", 0, 0, 200, null, 0, false),
            new JobOutcome("j2", "b", 10, 50, 300, null, 1, true),
            new JobOutcome("j3", "b", 20, 90, Double.NaN, null, 0, false),
            new JobOutcome("j4", "b", 30, Double.NaN, Double.NaN, null, 0, false),
            new JobOutcome("j5", "a", 40, Double.NaN, Double.NaN, "GangTimeout", 0, false));
    RunRecord run =
        new RunRecord(
            "v",
            List.of("a", "b"),
            List.of(1, 1),
            10,
            20_000,
            100,
            400,
            points,
            jobs,
            2,
            3,
            9,
            1,
            1);
    GreedyBound bound = new GreedyBound(new double[] {0}, new double[] {8}, 10);

    RunSummary summary = QualityMetrics.summarize(run, bound);

    assertThat(summary.gpuAlloc()).isCloseTo(0.7, within(1e-9));
    assertThat(summary.cpuAlloc()).isCloseTo(0.35, within(1e-9));
    assertThat(summary.gpuReserved()).isCloseTo(0.1, within(1e-9));
    assertThat(summary.greedyBound()).isCloseTo(0.8, within(1e-9));
    assertThat(summary.ofGreedyBound()).isCloseTo(0.875, within(1e-9));
    assertThat(summary.shareDeviation()).isCloseTo(0.2, within(1e-9));
    assertThat(summary.queues().get(0).deviation()).isZero();
    assertThat(summary.queues().get(1).heldShare()).isCloseTo(0.4, within(1e-9));
    assertThat(summary.queues().get(1).deservedShare()).isCloseTo(0.6, within(1e-9));
    // waits of the jobs not failed: 0, 40, 70, and j4 never started: 400 - 30 = 370
    assertThat(summary.waitP50()).isEqualTo(40);
    assertThat(summary.waitP95()).isEqualTo(370);
    assertThat(summary.queues().get(1).waitP50()).isEqualTo(70);
    assertThat(summary.jctP50()).isEqualTo(200);
    assertThat(summary.jctP95()).isEqualTo(290);
    assertThat(summary.deadlocks()).isEqualTo(1);
    assertThat(summary.failed()).isEqualTo(1);
    assertThat(summary.neverStarted()).isEqualTo(1);
    assertThat(summary.restarts()).isEqualTo(1);
    assertThat(summary.preemptions()).isEqualTo(2);
    assertThat(summary.reclaims()).isEqualTo(3);
  }

  @Test
  void aWindowLeavesOutTheWarmUpAndTheJobsSubmittedInIt() {
    List<AllocationPoint> points =
        List.of(
            new AllocationPoint(0, 2, 2000, 0, new long[] {2}, new long[] {2}),
            new AllocationPoint(40, 8, 8000, 0, new long[] {8}, new long[] {10}));
    List<JobOutcome> jobs =
        List.of(
            new JobOutcome("early", "a", 0, 0, 50, null, 0, false),
            new JobOutcome("late", "a", 60, 90, 150, null, 0, false));
    RunRecord run =
        new RunRecord(
            "v", List.of("a"), List.of(1), 10, 10_000, 100, 150, points, jobs, 0, 0, 3, 1, 1);
    GreedyBound bound = new GreedyBound(new double[] {0, 40}, new double[] {2, 10}, 10);

    RunSummary whole = QualityMetrics.summarize(run, bound);
    RunSummary windowed = QualityMetrics.summarize(run, bound, 50);

    // [0, 100]: 2 for 40 s, 8 for 60 s → 5.6 of 10; [50, 100]: 8 → 0.8
    assertThat(whole.gpuAlloc()).isCloseTo(0.56, within(1e-9));
    assertThat(windowed.gpuAlloc()).isCloseTo(0.8, within(1e-9));
    assertThat(windowed.greedyBound()).isCloseTo(1.0, within(1e-9));
    // deserved 10 (the whole cluster) from 40 s, held 8: |8 − 10| / 10
    assertThat(windowed.shareDeviation()).isCloseTo(0.2, within(1e-9));
    assertThat(whole.waitP95()).isEqualTo(30);
    assertThat(windowed.waitP50()).isEqualTo(30);
    assertThat(windowed.jctP50()).isEqualTo(90);
    assertThat(windowed.queues().get(0).jobs()).isEqualTo(1);
  }

  private static TraceJob job(
      String name, double submit, int leaderGpus, int workerGpus, long seconds) {
    return new TraceJob(
        name,
        submit,
        "q",
        1,
        5,
        Resource.of("cpu", "1", "nvidia.com/gpu", Integer.toString(leaderGpus)),
        Resource.of("cpu", "1", "nvidia.com/gpu", "1"),
        workerGpus,
        0,
        Duration.ofSeconds(seconds),
        GangMode.STRICT,
        null,
        null);
  }
}
