package io.tyrl.arranger.scheduler.conf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.framework.SchedulerVocabulary;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** config/scheduler/ holds the examples operators copy into the ConfigMap: each must parse. */
class SchedulerConfigurationExamplesTest {

  private static final Path EXAMPLES = projectRoot().resolve("config/scheduler");
  private final SchedulerVocabulary vocabulary =
      new SchedulerVocabulary(BuiltInPlugins.registry(), BuiltInActions.registry());
  private final SchedulerConfigurationParser parser = new SchedulerConfigurationParser(vocabulary);

  static Stream<Path> examples() throws IOException {
    try (Stream<Path> files = Files.list(EXAMPLES)) {
      List<Path> yaml = files.filter(file -> file.toString().endsWith(".yaml")).sorted().toList();
      assertThat(yaml).isNotEmpty();
      return yaml.stream();
    }
  }

  @ParameterizedTest(name = "{0} parses")
  @MethodSource("examples")
  void everyExampleIsAcceptedByTheParser(Path example) {
    assertThatCode(() -> parser.parse(Files.readString(example))).doesNotThrowAnyException();
  }

  @Test
  void theDefaultExampleIsTheBuiltInDefault() throws IOException {
    assertThat(parser.parse(Files.readString(EXAMPLES.resolve("default.yaml"))))
        .isEqualTo(DefaultSchedulerConfiguration.parse(vocabulary));
  }

  @Test
  void thePreemptReclaimExampleRunsReclaimBeforeAllocateAndPreemptLast() throws IOException {
    assertThat(parser.parse(Files.readString(EXAMPLES.resolve("preempt-reclaim.yaml"))).actions())
        .extracting(ActionConfiguration::name)
        .containsExactly("enqueue", "reclaim", "allocate", "backfill", "preempt");
  }

  /** Surefire does not set arranger.projectRoot; walk up from the module folder. */
  private static Path projectRoot() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("scripts/control-plane.sh"))) {
        return dir;
      }
    }
    throw new IllegalStateException(
        "no scripts/control-plane.sh above " + Path.of("").toAbsolutePath());
  }
}
