package io.tyrl.arranger.simulator.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.Resource;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TraceGeneratorTest {

  @Test
  void theSameSettingsGiveTheSameTrace() {
    Trace first = TraceGenerator.generate(GeneratorSettings.of(500, 7, 0.9, 50));
    Trace second = TraceGenerator.generate(GeneratorSettings.of(500, 7, 0.9, 50));

    assertThat(second).isEqualTo(first);
    assertThat(TraceCsv.row(second.jobs().get(123))).isEqualTo(TraceCsv.row(first.jobs().get(123)));
  }

  @Test
  void anotherSeedGivesAnotherTrace() {
    Trace first = TraceGenerator.generate(GeneratorSettings.of(500, 7, 0.9, 50));
    Trace other = TraceGenerator.generate(GeneratorSettings.of(500, 8, 0.9, 50));

    assertThat(other.jobs()).isNotEqualTo(first.jobs());
  }

  @Test
  void arrivalsMakeTheOfferedLoadTheOneAskedFor() {
    ClusterShape cluster = ClusterShape.gpuNodes(100);
    for (double load : new double[] {0.5, 0.9}) {
      Trace trace =
          TraceGenerator.generate(
              new GeneratorSettings(4000, 3, load, cluster, GeneratorSettings.DEFAULT_QUEUES));
      double gpuSeconds =
          trace.jobs().stream()
              .mapToDouble(
                  job -> Gpus.whole(job.fullRequest()) * (double) job.duration().toSeconds())
              .sum();
      double offered = gpuSeconds / (Gpus.whole(cluster.capacity()) * trace.lastSubmitSeconds());

      // Poisson arrivals: the last of 4,000 lands within a few percent of the intended horizon.
      assertThat(offered).as("offered GPU load for %s", load).isBetween(load * 0.93, load * 1.07);
    }
  }

  @Test
  void jobsAreRlShapedAndCoverEveryKind() {
    Trace trace = TraceGenerator.generate(GeneratorSettings.of(2000, 11, 0.9, 100));

    assertThat(trace.queueWeights()).containsOnlyKeys("research", "product", "batch");
    assertThat(trace.queueWeights())
        .containsEntry("research", 4)
        .containsEntry("product", 2)
        .containsEntry("batch", 1);
    assertThat(trace.jobs())
        .allSatisfy(
            job -> {
              assertThat(Set.of(1L, 2L, 4L, 8L)).contains(Gpus.whole(job.leader()));
              assertThat(job.workers()).isBetween(1, 16);
              assertThat(job.minWorkers()).isBetween(1, job.workers());
              assertThat(job.duration().toSeconds()).isBetween(60L, 6 * 3600L);
              assertThat(job.priority()).isBetween(1, 10);
            });
    assertThat(trace.jobs())
        .anyMatch(job -> job.gang() == GangMode.STRICT)
        .anyMatch(job -> job.gang() == GangMode.NON_STRICT)
        .anyMatch(job -> job.worker().get(Resource.GPU) > 0)
        .anyMatch(job -> job.worker().get(Resource.GPU) == 0)
        .anyMatch(job -> job.basicPolicy() != null)
        .anyMatch(job -> job.basicPolicy() == null)
        .anyMatch(job -> job.workers() == 16)
        .anyMatch(job -> job.priority() != 5);
    double[] submits = trace.jobs().stream().mapToDouble(TraceJob::submitSeconds).toArray();
    for (int i = 1; i < submits.length; i++) {
      assertThat(submits[i]).isGreaterThanOrEqualTo(submits[i - 1]);
    }
  }
}
