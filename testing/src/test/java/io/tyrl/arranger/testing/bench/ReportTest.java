package io.tyrl.arranger.testing.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportTest {

  @Test
  void mediansOfOddAndEvenCountsIgnoreMissingValues() {
    assertThat(Report.median(List.of(3.0, 1.0, 2.0))).isEqualTo(2.0);
    assertThat(Report.median(List.of(4.0, 1.0, 2.0, 3.0))).isEqualTo(2.5);
    assertThat(Report.median(List.of(5.0, Double.NaN))).isEqualTo(5.0);
    assertThat(Report.median(List.of())).isNaN();
  }

  @Test
  void quantilesAreByNearestRank() {
    List<Double> values = List.of(10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 100.0);
    assertThat(Report.quantile(values, 0.5)).isEqualTo(50.0);
    assertThat(Report.quantile(values, 0.99)).isEqualTo(100.0);
    assertThat(Report.quantile(List.of(7.0), 0.99)).isEqualTo(7.0);
  }

  @Test
  void tablePadsEveryColumnToItsWidestCell() {
    String table = new Report("what", "value").row("pods/s", "1234").row("x", "5").render();
    assertThat(table)
        .isEqualTo(
            """
        | what   | value |
        | ------ | ----- |
        | pods/s | 1234  |
        | x      | 5     |
        """);
  }

  @Test
  void summaryLineHasTheAgreedShapeAndRoundsToWholePodsPerSecond() {
    assertThat(
            Report.summaryLine(
                5000,
                10000,
                new Report.Rates(812.4, 204.5, 301.6, 1320.0, 1023.2),
                new Report.Cost(1.456, 2.004, 0.996, 412.6)))
        .isEqualTo(
            "e2e nodes=5000 pods=10000 arranger=812 jobs-path=205 kube-scheduler=302 ceiling=1320"
                + " pods-only=1023 api-requests-per-pod=1.46 tyjob-writes-per-job=2.00"
                + " events-per-job=1.00 cycle-p99-ms=413");
    assertThat(
            Report.summaryLine(
                1,
                2,
                new Report.Rates(Double.NaN, Double.NaN, 1, 1, Double.NaN),
                new Report.Cost(Double.NaN, 0, 0, Double.NaN)))
        .isEqualTo(
            "e2e nodes=1 pods=2 arranger=n/a jobs-path=n/a kube-scheduler=1 ceiling=1 pods-only=n/a"
                + " api-requests-per-pod=n/a tyjob-writes-per-job=0.00 events-per-job=0.00"
                + " cycle-p99-ms=n/a");
  }

  @Test
  void bigJobLineGivesTheMedianSecondsToEveryPodRunningAndEachRun() {
    assertThat(Report.bigJobLine(5000, 27.44, "27.44 / 31.02"))
        .isEqualTo("big-job actors=5000 seconds-to-all-running=27.4 (runs: 27.44 / 31.02)");
    assertThat(Report.bigJobLine(10, Double.NaN, ""))
        .isEqualTo("big-job actors=10 seconds-to-all-running=n/a (runs: )");
  }

  @Test
  void floorLineGivesThePodsOnlyRateAndItsRatiosToTheOtherPhases() {
    assertThat(Report.floorLine(5000, 10000, 612.4, 300.0, 1500.0))
        .isEqualTo(
            "floor nodes=5000 pods=10000 pods-only=612 pods-only-per-ceiling=0.41 pods-only-per-kube-scheduler=2.04");
    assertThat(Report.floorLine(100, 2000, 500, Double.NaN, 0))
        .isEqualTo(
            "floor nodes=100 pods=2000 pods-only=500 pods-only-per-ceiling=n/a pods-only-per-kube-scheduler=n/a");
  }

  @Test
  void readsApiServerWritesByVerbAndResourceAndDiffsThem() {
    String before =
        """
        # HELP apiserver_request_total [STABLE] Counter of apiserver requests
        # TYPE apiserver_request_total counter
        apiserver_request_total{code="201",component="apiserver",contentType="application/json",dry_run="",group="",resource="pods",scope="namespace",subresource="",verb="POST",version="v1"} 10
        apiserver_request_total{code="200",component="apiserver",contentType="application/json",dry_run="",group="",resource="pods",scope="namespace",subresource="",verb="LIST",version="v1"} 99
        """;
    String after =
        before.replace("} 10\n", "} 30\n")
            + """
        apiserver_request_total{code="200",component="apiserver",contentType="application/merge-patch+json",dry_run="",group="arranger.tyrl.io",resource="tyjobs",scope="namespace",subresource="status",verb="PATCH",version="v1alpha1"} 4
        apiserver_request_total{code="409",component="apiserver",contentType="application/merge-patch+json",dry_run="",group="arranger.tyrl.io",resource="tyjobs",scope="namespace",subresource="status",verb="PATCH",version="v1alpha1"} 1
        """;
    Map<String, Double> diff =
        PromText.diff(
            PromText.parse(before).apiServerWrites(), PromText.parse(after).apiServerWrites());
    assertThat(diff)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "POST pods", 20.0,
                "PATCH arranger.tyrl.io/tyjobs/status", 5.0));
  }

  @Test
  void readsMicrometerSamplesWithAndWithoutLabels() {
    PromText text =
        PromText.parse(
            """
        jvm_memory_used_bytes{area="heap",id="G1 Eden Space"} 1.048576E7
        jvm_memory_used_bytes{area="heap",id="G1 Old Gen"} 2.097152E7
        jvm_memory_used_bytes{area="nonheap",id="Metaspace"} 5.0E7
        arranger_scheduler_e2e_scheduling_duration_seconds{quantile="0.5"} 0.25
        arranger_scheduler_e2e_scheduling_duration_seconds_count 17
        """);
    assertThat(text.sum("jvm_memory_used_bytes", l -> "heap".equals(l.get("area"))))
        .isEqualTo(3.145728E7);
    assertThat(
            text.value(
                "arranger_scheduler_e2e_scheduling_duration_seconds", Map.of("quantile", "0.5")))
        .isEqualTo(0.25);
    assertThat(text.sum("arranger_scheduler_e2e_scheduling_duration_seconds_count"))
        .isEqualTo(17.0);
    assertThat(text.sum("absent")).isNaN();
  }

  @Test
  void histogramQuantilesInterpolateWithinTheSummedBuckets() {
    PromText text =
        PromText.parse(
            """
        cycle_seconds_bucket{pod="a",le="0.1"} 2
        cycle_seconds_bucket{pod="a",le="0.2"} 6
        cycle_seconds_bucket{pod="a",le="+Inf"} 8
        cycle_seconds_bucket{pod="b",le="0.1"} 2
        cycle_seconds_bucket{pod="b",le="0.2"} 2
        cycle_seconds_bucket{pod="b",le="+Inf"} 2
        """);
    assertThat(text.histogramQuantile("cycle_seconds", 0.5))
        .isCloseTo(0.125, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(text.histogramQuantile("cycle_seconds", 0.99))
        .as("in the +Inf bucket: its lower bound")
        .isEqualTo(0.2);
    assertThat(text.histogramQuantile("absent", 0.5)).isNaN();
  }
}
