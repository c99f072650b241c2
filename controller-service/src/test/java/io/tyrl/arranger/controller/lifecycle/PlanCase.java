package io.tyrl.arranger.controller.lifecycle;

import io.tyrl.arranger.controller.lifecycle.observe.JobView;
import io.tyrl.arranger.controller.lifecycle.plan.Plan;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.provider.Arguments;

/** One row of a table-driven lifecycle test: a job, its pods, and what planning them must give. */
public record PlanCase(JobFixture job, List<PodFixture> pods, PlanExpectation expected) {

  public static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

  public static Arguments row(
      String description, JobFixture job, List<PodFixture> pods, PlanExpectation expected) {
    return Arguments.of(Named.of(description, new PlanCase(job, pods, expected)));
  }

  public static Stream<Arguments> table(Arguments... rows) {
    return Stream.of(rows);
  }

  public void verify() {
    JobView view = job.build();
    Plan plan =
        new LifecyclePlanner().plan(view, pods.stream().map(PodFixture::build).toList(), NOW);
    expected.verify(plan, view);
  }
}
