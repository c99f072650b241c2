package io.tyrl.arranger.scheduler.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser;
import io.tyrl.arranger.scheduler.framework.Scheduler;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.yaml.snakeyaml.Yaml;

class SchedulerProfilesTest {

  private final SchedulerConfigurationParser parser = new SchedulerConfigurationParser(
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

  @SuppressWarnings("unchecked")
  private static String configurationOf(String profile) throws IOException {
    try (InputStream in = SchedulerProfilesTest.class.getResourceAsStream("/application-" + profile + ".yaml")) {
      assertThat(in).as("profile " + profile).isNotNull();
      Map<String, Object> root = new Yaml().load(in);
      Map<String, Object> scheduler = (Map<String, Object>) ((Map<String, Object>) root.get("arranger")).get("scheduler");
      return (String) scheduler.get("configuration");
    }
  }
}
