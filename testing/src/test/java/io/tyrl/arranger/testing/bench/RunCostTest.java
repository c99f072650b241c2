package io.tyrl.arranger.testing.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The cost a run reports, from the API server's request counts by verb and resource. */
class RunCostTest {

  private static PhaseRun run(
      Map<String, Double> writes, Map<String, Double> trailing, Map<String, Double> calls) {
    return new PhaseRun(
        "arranger",
        80,
        2.0,
        1.0,
        writes,
        0,
        trailing,
        Map.of(),
        List.of(),
        List.of(),
        Map.of(),
        Map.of(),
        calls);
  }

  @Test
  void tyJobWritesCountTheServicesPatchesAndNotTheBenchmarksCreates() {
    PhaseRun run =
        run(
            Map.of(
                "POST arranger.tyrl.io/tyjobs", 10.0,
                "PATCH arranger.tyrl.io/tyjobs/status", 18.0,
                "PUT arranger.tyrl.io/tyjobs", 2.0,
                "PATCH arranger.tyrl.io/queues/status", 5.0,
                "POST pods", 80.0),
            Map.of("PATCH arranger.tyrl.io/tyjobs/status", 7.0),
            Map.of());

    assertThat(run.tyJobWritesPerJob(false)).isCloseTo(2.0, within(1e-9));
    assertThat(run.tyJobWritesPerJob(true)).isCloseTo(0.7, within(1e-9));
  }

  @Test
  void eventsCountBothEventApis() {
    PhaseRun run =
        run(
            Map.of(
                "POST events",
                6.0,
                "PATCH events",
                2.0,
                "POST events.k8s.io/events",
                2.0,
                "POST pods",
                80.0),
            Map.of(),
            Map.of());

    assertThat(run.eventsPerJob(false)).isCloseTo(1.0, within(1e-9));
    assertThat(run.eventsPerJob(true)).isZero();
  }

  @Test
  void requestsPerPodCountEveryCallButWatches() {
    PhaseRun run =
        run(
            Map.of(),
            Map.of(),
            Map.of(
                "POST pods",
                80.0,
                "GET pods",
                10.0,
                "LIST nodes",
                2.0,
                "PATCH arranger.tyrl.io/tyjobs/status",
                20.0));

    assertThat(run.requestsPerPod()).isCloseTo(1.4, within(1e-9));
  }
}
