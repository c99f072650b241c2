package io.tyrl.arranger.scheduler.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobQueuePolicy;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.yaml.snakeyaml.Yaml;

class SchedulerProfilesTest {

  private final SchedulerConfigurationParser parser =
      new SchedulerConfigurationParser(
          new Scheduler(BuiltInPlugins.registry(), BuiltInActions.registry(), null).vocabulary());

  @ParameterizedTest
  @ValueSource(strings = {"priority-first", "fair-share", "dense-packing"})
  void eachProfileCarriesAValidSchedulerConfiguration(String profile) throws IOException {
    String yaml = configurationOf(profile);

    SchedulerConfiguration configuration = parser.parse(yaml);

    assertThat(configuration.actions()).extracting(a -> a.name()).contains("enqueue", "allocate");
    assertThat(configuration.tiers()).hasSize(2);
    assertThat(configuration.tiers().get(0).plugins()).extracting(p -> p.name()).contains("gang");
  }

  /**
   * The fair-share profile must order the jobs of a queue that names no policy by dominant share.
   * One free cpu; "rich" (priority 9) already holds 2 of 3 cpu and wants one more elastic worker,
   * "poor" (priority 1) holds nothing: DRF serves poor (share 0 < 2/3), Priority rich.
   */
  @org.junit.jupiter.api.Test
  void theFairShareProfileOrdersJobsOfQueuesWithoutAPolicyByDominantShare() throws IOException {
    SchedulerConfiguration fairShare = parser.parse(configurationOf("fair-share"));
    SchedulerConfiguration priorityFirst = parser.parse(configurationOf("priority-first"));
    Snapshot snapshot =
        new Snapshot(
            List.of(Fixtures.node("n").cpu("3").memory("8Gi").build()),
            List.of(
                Fixtures.job("rich")
                    .queue("team")
                    .priority(9)
                    .minWorkers(0)
                    .leader("cpu", "2")
                    .running("n", 0)
                    .workers("actor", 1, "cpu", "1")
                    .build(),
                Fixtures.job("poor")
                    .queue("team")
                    .priority(1)
                    .minWorkers(0)
                    .leader("cpu", "1")
                    .build()),
            List.of(Fixtures.queue("team").policy(null).build()));

    assertThat(fairShare.defaultJobQueuePolicy()).isEqualTo(JobQueuePolicy.DRF);
    CycleResult fair = Fixtures.scheduler().runCycle(snapshot, fairShare, Fixtures.T0);
    assertThat(fair.decision("default/poor").allocations()).containsEntry("poor-learner", "n");
    assertThat(fair.decision("default/rich").allocations()).doesNotContainKey("rich-actor-0");
    CycleResult byPriority = Fixtures.scheduler().runCycle(snapshot, priorityFirst, Fixtures.T0);
    assertThat(byPriority.decision("default/rich").allocations())
        .containsEntry("rich-actor-0", "n");
    assertThat(byPriority.decision("default/poor").allocations()).isEmpty();
  }

  /**
   * The text the profile's configuration-location names, read from the classpath as the service
   * reads it.
   */
  @SuppressWarnings("unchecked")
  static String configurationOf(String profile) throws IOException {
    try (InputStream in =
        SchedulerProfilesTest.class.getResourceAsStream("/application-" + profile + ".yaml")) {
      assertThat(in).as("profile " + profile).isNotNull();
      Map<String, Object> root = new Yaml().load(in);
      Map<String, Object> scheduler =
          (Map<String, Object>) ((Map<String, Object>) root.get("arranger")).get("scheduler");
      String location = (String) scheduler.get("configuration-location");
      assertThat(location)
          .as("profile " + profile + " configuration-location")
          .startsWith("classpath:");
      try (InputStream text =
          SchedulerProfilesTest.class.getResourceAsStream(
              "/" + location.substring("classpath:".length()))) {
        assertThat(text).as(location).isNotNull();
        return new String(text.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      }
    }
  }
}
