package io.tyrl.arranger.scheduler.api;

import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which topologies the levels zone › rack › host can honour: known levels, and a preferred level
 * strictly narrower than the job's required one — for the job and for each worker set.
 */
class TopologyLevelsTest {

  private static final TopologyLevels LEVELS = new TopologyLevels(List.of("zone", "rack", "host"));

  private static Fixtures.JobBuilder base() {
    return job("j").minWorkers(1).leader("cpu", "1").workers("actor", 1, "cpu", "1");
  }

  static Stream<Arguments> topologies() {
    return Stream.of(
        Arguments.of("none asked", base(), null),
        Arguments.of("rack, packed by host", base().topology("rack", "host"), null),
        Arguments.of("zone, packed by rack", base().topology("zone", "rack"), null),
        Arguments.of("a preferred level alone", base().topology(null, "zone"), null),
        Arguments.of(
            "preferred the same as required",
            base().topology("rack", "rack"),
            "spec.topology.preferred"),
        Arguments.of(
            "preferred the same as the widest required",
            base().topology("zone", "zone"),
            "spec.topology.preferred"),
        Arguments.of(
            "preferred wider than required",
            base().topology("rack", "zone"),
            "spec.topology.preferred"),
        Arguments.of(
            "an unknown required level", base().topology("row", null), "spec.topology.required"),
        Arguments.of(
            "an unknown preferred level",
            base().topology("rack", "row"),
            "spec.topology.preferred"),
        Arguments.of(
            "a worker set preferring the job's required level",
            base().topology("rack", "host").workerSetPreferred("actor", "rack"),
            "spec.workerSets[actor].topology.preferred"),
        Arguments.of(
            "a worker set preferring a narrower level",
            base().topology("zone", "host").workerSetPreferred("actor", "rack"),
            null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("topologies")
  void aTopologyIsHonouredOrItsFieldIsNamed(
      String description, Fixtures.JobBuilder job, String field) {
    Optional<String> problem = LEVELS.problem(job.build());
    if (field == null) {
      assertThat(problem).isEmpty();
    } else {
      assertThat(problem).hasValueSatisfying(text -> assertThat(text).startsWith(field));
    }
  }
}
