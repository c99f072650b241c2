package io.tyrl.arranger.testing.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SoakSeriesTest {

  @Test
  void theSlopeIsPerHourAndIgnoresNoiseAroundALine() {
    // 10 MiB per hour, sampled every minute, with ±1 alternating noise.
    List<SoakSeries.Point> points =
        java.util.stream.IntStream.range(0, 120)
            .mapToObj(i -> new SoakSeries.Point(60.0 * i, 100 + i / 6.0 + (i % 2 == 0 ? 1 : -1)))
            .toList();

    assertThat(SoakSeries.slopePerHour(points)).isCloseTo(10, within(0.1));
    assertThat(SoakSeries.slopePerHour(List.of(new SoakSeries.Point(0, 5)))).isNaN();
    assertThat(
            SoakSeries.slopePerHour(
                List.of(new SoakSeries.Point(30, 5), new SoakSeries.Point(30, 9))))
        .isNaN();
  }

  @Test
  void aFlatSeriesHasNoSlope() {
    assertThat(
            SoakSeries.slopePerHour(
                List.of(
                    new SoakSeries.Point(0, 200),
                    new SoakSeries.Point(60, 200),
                    new SoakSeries.Point(120, 200))))
        .isZero();
  }

  /**
   * A standby for 40 minutes, then the leader for 50: its thread count jumps when it takes over and
   * is flat otherwise. Cut at the takeover and settled 5 minutes, both stretches are flat; the one
   * series together would read as a climb of about 40 threads an hour.
   */
  @Test
  void aSlopeIsTakenWithinOneRoleAfterItSettles() {
    List<SoakSeries.RolePoint> points =
        java.util.stream.IntStream.range(0, 90)
            .mapToObj(
                minute ->
                    new SoakSeries.RolePoint(
                        60.0 * minute,
                        minute < 40 ? 60 : minute < 43 ? 70 + minute - 40 : 100,
                        minute >= 40))
            .toList();

    List<List<SoakSeries.Point>> stretches = SoakSeries.steadyStretches(points, 300, 1800);

    assertThat(stretches).hasSize(2);
    assertThat(stretches.get(0).get(0).seconds()).isEqualTo(300);
    assertThat(stretches.get(0).get(stretches.get(0).size() - 1).seconds()).isEqualTo(39 * 60);
    assertThat(stretches.get(1).get(0).seconds()).isEqualTo(45 * 60);
    assertThat(stretches).allSatisfy(s -> assertThat(SoakSeries.slopePerHour(s)).isZero());
    assertThat(
            SoakSeries.slopePerHour(
                points.stream().map(p -> new SoakSeries.Point(p.seconds(), p.value())).toList()))
        .isGreaterThan(30);
    assertThat(SoakSeries.steadyStretches(points, 300, 2400))
        .as("the standby's 34 settled minutes are too short")
        .hasSize(1);
    assertThat(SoakSeries.steadyStretches(points.subList(0, 10), 300, 60)).hasSize(1);
    assertThat(SoakSeries.steadyStretches(points.subList(0, 5), 300, 60)).isEmpty();
  }

  @Test
  void theQuantileComesFromTheBucketsObservedBetweenScrapesSummedOverReplicas() {
    Map<Double, Double> before = Map.of(0.1, 90.0, 0.5, 100.0, Double.POSITIVE_INFINITY, 100.0);
    Map<Double, Double> after = Map.of(0.1, 189.0, 0.5, 199.0, Double.POSITIVE_INFINITY, 200.0);
    Map<Double, Double> other = Map.of(0.1, 0.0, 0.5, 0.0, Double.POSITIVE_INFINITY, 0.0);

    Map<Double, Double> window =
        SoakSeries.sum(List.of(SoakSeries.delta(before, after), SoakSeries.delta(other, other)));

    assertThat(window).containsEntry(0.1, 99.0).containsEntry(Double.POSITIVE_INFINITY, 100.0);
    assertThat(SoakSeries.quantileMillis(window, 0.5))
        .as("50 of the 99 within (0, 100 ms]")
        .isCloseTo(50.5, within(0.01));
    assertThat(SoakSeries.quantileBoundMillis(window, 0.5)).isEqualTo(100);
    assertThat(SoakSeries.quantileMillis(window, 0.99)).isEqualTo(100);
    assertThat(SoakSeries.quantileMillis(window, 0.995))
        .as("beyond the last finite bucket: its bound")
        .isEqualTo(500);
    assertThat(SoakSeries.quantileBoundMillis(window, 0.995)).isEqualTo(500);
    assertThat(SoakSeries.quantileMillis(SoakSeries.delta(other, other), 0.99)).isNaN();
  }

  @Test
  void theQuantileIsPlacedWithinItsBucketSoThatDoublingBucketsStillTellNearbyLatenciesApart() {
    // 1,000 cycles; 980 took at most 64 ms; of the 20 between 64 and 128 ms, the p99 is the 10th.
    Map<Double, Double> faster =
        Map.of(0.064, 980.0, 0.128, 1000.0, 0.256, 1000.0, Double.POSITIVE_INFINITY, 1000.0);
    // The same, but the slowest 20 reach into the next bucket: the p99 is its 2nd of 12.
    Map<Double, Double> slower =
        Map.of(0.064, 980.0, 0.128, 988.0, 0.256, 1000.0, Double.POSITIVE_INFINITY, 1000.0);

    assertThat(SoakSeries.quantileMillis(faster, 0.99)).isCloseTo(96, within(0.01));
    assertThat(SoakSeries.quantileMillis(slower, 0.99))
        .isCloseTo(128 + 128 * 2.0 / 12, within(0.01));
    assertThat(SoakSeries.quantileBoundMillis(faster, 0.99)).isEqualTo(128);
    assertThat(SoakSeries.quantileBoundMillis(slower, 0.99)).isEqualTo(256);
  }
}
