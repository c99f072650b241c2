package io.tyrl.arranger.simulator.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class TenantTraceGeneratorTest {

  @Test
  void theSameSeedGivesTheSameTraceAndAnotherSeedAnotherOne() {
    Trace first = TenantTraceGenerator.generate(TenantSettings.of(600, 5, 1.3, 40));
    Trace again = TenantTraceGenerator.generate(TenantSettings.of(600, 5, 1.3, 40));
    Trace other = TenantTraceGenerator.generate(TenantSettings.of(600, 6, 1.3, 40));

    assertThat(again).isEqualTo(first);
    assertThat(other.jobs()).isNotEqualTo(first.jobs());
    assertThat(other.queues()).isEqualTo(first.queues());
  }

  @Test
  void threeDepartmentsOfTeamsWithGuaranteesThatFitTheirParents() {
    Trace trace = TenantTraceGenerator.generate(TenantSettings.of(600, 5, 1.3, 100));
    QueueTree tree = trace.queues();

    assertThat(tree.depth()).isEqualTo(2);
    assertThat(tree.queues().stream().filter(queue -> queue.parent() == null))
        .extracting(QueueSpec::name)
        .containsExactly("research", "product", "batch");
    assertThat(tree.leaves()).hasSize(7);
    // Some queues are guaranteed GPUs and some nothing, weights differ, one team has priority.
    assertThat(tree.queues()).anyMatch(queue -> queue.guaranteeGpu() > 0);
    assertThat(tree.queues()).anyMatch(queue -> queue.guaranteeGpu() == 0);
    assertThat(tree.queues().stream().map(QueueSpec::weight).distinct()).hasSizeGreaterThan(1);
    assertThat(tree.queues()).anyMatch(queue -> queue.priority() > 0);
    assertThat(tree.queues()).anyMatch(queue -> queue.capability() != null);
    assertThat(tree.queue("research-llm").guaranteeGpu()).isEqualTo(200); // 25 % of 800
    long topGuarantees = 0;
    for (QueueSpec queue : tree.queues()) {
      long children =
          tree.queues().stream()
              .filter(child -> queue.name().equals(child.parent()))
              .mapToLong(QueueSpec::guaranteeGpu)
              .sum();
      assertThat(children)
          .as("children of %s", queue.name())
          .isLessThanOrEqualTo(queue.guaranteeGpu());
      topGuarantees += queue.parent() == null ? queue.guaranteeGpu() : 0;
    }
    assertThat(topGuarantees).isLessThanOrEqualTo(800);
    assertThat(trace.jobs()).allMatch(job -> tree.isLeaf(job.queue()));
  }

  @Test
  void everyTeamSubmitsItsShareOfTheJobs() {
    Trace trace = TenantTraceGenerator.generate(TenantSettings.of(1000, 9, 1.3, 100));

    Map<String, Long> perQueue =
        trace.jobs().stream()
            .collect(Collectors.groupingBy(TraceJob::queue, Collectors.counting()));
    assertThat(perQueue)
        .containsEntry("research-llm", 220L)
        .containsEntry("research-vision", 100L)
        .containsEntry("research-explore", 130L)
        .containsEntry("product-ranking", 150L)
        .containsEntry("product-ads", 120L)
        .containsEntry("batch-eval", 160L)
        .containsEntry("batch-sweeps", 120L);
  }

  @Test
  void theOfferedLoadIsTheOneAskedFor() {
    for (double load : new double[] {1.3, 2.0}) {
      TenantSettings settings = TenantSettings.of(2000, 3, load, 100);
      Trace trace = TenantTraceGenerator.generate(settings);
      double gpuSeconds =
          trace.jobs().stream()
              .mapToDouble(
                  job -> Gpus.whole(job.fullRequest()) * (double) job.duration().toSeconds())
              .sum();
      double offered = gpuSeconds / (800 * trace.lastSubmitSeconds());

      // Bursts start at random over the horizon: the last one starts near its end, and a long
      // burst's jobs may go on past it (a burst of 40 jobs lasts 20 minutes on average).
      assertThat(offered).as("offered GPU load for %s", load).isBetween(load * 0.9, load * 1.1);
    }
  }

  @Test
  void teamsSubmitInBurstsNotAsAPoissonStream() {
    Trace trace = TenantTraceGenerator.generate(TenantSettings.of(2000, 4, 1.3, 100));

    for (QueueSpec leaf : trace.queues().leaves()) {
      List<Double> submits =
          trace.jobs().stream()
              .filter(job -> job.queue().equals(leaf.name()))
              .map(TraceJob::submitSeconds)
              .toList();
      List<Double> gaps = new ArrayList<>();
      for (int i = 1; i < submits.size(); i++) {
        gaps.add(submits.get(i) - submits.get(i - 1));
      }
      double mean = gaps.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
      double variance =
          gaps.stream().mapToDouble(gap -> (gap - mean) * (gap - mean)).average().orElseThrow();
      // Poisson arrivals have exponential gaps, whose coefficient of variation is 1; bursts
      // separated by quiet stretches make it far larger.
      assertThat(Math.sqrt(variance) / mean).as("gaps of %s", leaf.name()).isGreaterThan(1.5);
    }
  }

  @Test
  void jobsAreAGpuLearnerWithElasticActorsAboveAGangMinimum() {
    Trace trace = TenantTraceGenerator.generate(TenantSettings.of(1000, 2, 1.3, 100));

    assertThat(trace.jobs())
        .allSatisfy(
            job -> {
              assertThat(job.leader().get(Resource.GPU)).isPositive();
              assertThat(job.minWorkers()).isBetween(1, job.workers());
              assertThat(job.queueWeight()).isEqualTo(trace.queues().queue(job.queue()).weight());
            });
    assertThat(trace.jobs()).anyMatch(job -> job.workers() > job.minWorkers());
    assertThat(trace.jobs()).anyMatch(job -> job.worker().get(Resource.GPU) > 0);
  }
}
