package io.tyrl.arranger.simulator.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class FairnessTraceGeneratorTest {

  private static final FairnessTraceGenerator.Settings SETTINGS =
      new FairnessTraceGenerator.Settings(12, 48, 128, 0.75, 1);

  @Test
  void theSameSettingsGiveTheSameTrace() {
    assertThat(FairnessTraceGenerator.generate(SETTINGS))
        .isEqualTo(FairnessTraceGenerator.generate(SETTINGS));
    assertThat(
            FairnessTraceGenerator.generate(
                new FairnessTraceGenerator.Settings(12, 48, 128, 0.75, 2)))
        .isNotEqualTo(FairnessTraceGenerator.generate(SETTINGS));
  }

  @Test
  void teamAAloneDuringTheSweepThenBothTeamsOfferTheirLoadOfEqualWeight() {
    Trace trace = FairnessTraceGenerator.generate(SETTINGS);
    double sweepEnd = 12 * 3600;

    assertThat(trace.jobs())
        .filteredOn(job -> job.submitSeconds() < sweepEnd)
        .isNotEmpty()
        .allSatisfy(job -> assertThat(job.queue()).isEqualTo(FairnessTraceGenerator.TEAM_A));
    assertThat(trace.jobs())
        .allSatisfy(job -> assertThat(job.submitSeconds()).isLessThan(60 * 3600));
    assertThat(trace.queueWeights())
        .containsEntry(FairnessTraceGenerator.TEAM_A, 1)
        .containsEntry(FairnessTraceGenerator.TEAM_B, 1);
    for (String team :
        new String[] {FairnessTraceGenerator.TEAM_A, FairnessTraceGenerator.TEAM_B}) {
      double gpuSeconds =
          trace.jobs().stream()
              .filter(job -> job.queue().equals(team) && job.submitSeconds() >= sweepEnd)
              .mapToDouble(
                  job ->
                      job.duration().toSeconds()
                          * (Gpus.whole(job.leader()) + job.workers() * Gpus.whole(job.worker())))
              .sum();
      double offered = gpuSeconds / (128 * 48 * 3600.0);
      assertThat(offered)
          .as("%s's offered load after the sweep", team)
          .isCloseTo(0.75, within(0.1));
    }
    double sweepGpuSeconds =
        trace.jobs().stream()
            .filter(job -> job.submitSeconds() < sweepEnd)
            .mapToDouble(job -> job.duration().toSeconds() * 8.0)
            .sum();
    assertThat(sweepGpuSeconds / (128 * sweepEnd)).isCloseTo(1.2, within(0.15));
  }

  @Test
  void badSettingsAreRefusedNamingTheValue() {
    assertThatThrownBy(() -> new FairnessTraceGenerator.Settings(12, 0, 128, 0.75, 1))
        .hasMessageContaining("0.0");
    assertThatThrownBy(() -> new FairnessTraceGenerator.Settings(12, 48, 4, 0.75, 1))
        .hasMessageContaining("has 4");
  }
}
