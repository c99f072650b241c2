package io.tyrl.arranger.testing.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BenchmarkOptionsTest {

  @Test
  void defaultsMeasureEveryPhaseInTheOrderTheyRun() {
    BenchmarkOptions options = BenchmarkOptions.parse(new String[] {"--version", "1.0"});

    assertThat(options.nodes()).isEqualTo(5000);
    assertThat(options.pods()).isEqualTo(10000);
    assertThat(options.repeats()).isEqualTo(3);
    assertThat(options.phases())
        .containsExactly("ceiling", "kube-scheduler", "jobs", "pods-only", "arranger");
    assertThat(options.timeout()).isEqualTo(Duration.ofSeconds(1000));
    assertThat(options.bigJobActors()).isZero();
  }

  @Test
  void theBigJobRunsAloneOn48NodesUnlessToldOtherwise() {
    BenchmarkOptions big =
        BenchmarkOptions.parse(new String[] {"--version", "1.0", "--big-job", "5000"});
    assertThat(big.phases()).containsExactly("big-job");
    assertThat(big.nodes()).isEqualTo(48);
    assertThat(big.bigJobActors()).isEqualTo(5000);
    assertThat(
            BenchmarkOptions.parse(
                    new String[] {"--version", "1.0", "--big-job", "100", "--nodes", "4"})
                .nodes())
        .isEqualTo(4);
    assertThatThrownBy(
            () -> BenchmarkOptions.parse(new String[] {"--version", "1.0", "--big-job", "5001"}))
        .hasMessageContaining("--big-job must be at most 5000 actors, got 5001");
    assertThatThrownBy(
            () -> BenchmarkOptions.parse(new String[] {"--version", "1.0", "--phases", "big-job"}))
        .hasMessageStartingWith("the big-job phase needs --big-job ACTORS");
  }

  @Test
  void anUnknownPhaseIsRefusedWithTheUsage() {
    assertThatThrownBy(() -> BenchmarkOptions.parse(new String[] {"--phases", "ceiling,warp"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("unknown phase warp; usage: bench-e2e ");
  }

  @Test
  void onlyTheArrangerPhasesNeedTheVersionOfTheServicesJars() {
    assertThat(
            BenchmarkOptions.parse(new String[] {"--phases", "ceiling,kube-scheduler"}).version())
        .isNull();
    assertThatThrownBy(() -> BenchmarkOptions.parse(new String[] {"--phases", "pods-only"}))
        .hasMessageStartingWith("--version is needed");
  }
}
