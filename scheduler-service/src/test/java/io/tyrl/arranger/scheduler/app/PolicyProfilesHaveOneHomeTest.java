package io.tyrl.arranger.scheduler.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.yaml.snakeyaml.Yaml;

/**
 * config/scheduler/*.yaml is the one home of a policy profile. The scheduler's Spring profiles
 * (application-*.yaml) only name a file of it, packaged into the jar unchanged; none carries a
 * configuration text of its own. The chart's side is checked by HelmChartIT.
 */
class PolicyProfilesHaveOneHomeTest {

  private static final Path ROOT = projectRoot();
  private static final Path PROFILES = ROOT.resolve("config/scheduler");

  static Stream<String> springProfiles() throws IOException {
    try (Stream<Path> files = Files.list(ROOT.resolve("scheduler-service/src/main/resources"))) {
      List<String> names =
          files
              .map(file -> file.getFileName().toString())
              .filter(name -> name.startsWith("application-") && name.endsWith(".yaml"))
              .map(
                  name -> name.substring("application-".length(), name.length() - ".yaml".length()))
              .sorted()
              .toList();
      assertThat(names).isNotEmpty();
      return names.stream();
    }
  }

  static Stream<Path> policyFiles() throws IOException {
    try (Stream<Path> files = Files.list(PROFILES)) {
      return files.filter(file -> file.toString().endsWith(".yaml")).sorted().toList().stream();
    }
  }

  @ParameterizedTest(
      name = "application-{0}.yaml names config/scheduler/{0}.yaml and holds no text of its own")
  @MethodSource("springProfiles")
  @SuppressWarnings("unchecked")
  void eachSpringProfileOnlyNamesItsFileInConfigScheduler(String profile) throws IOException {
    Map<String, Object> root =
        new Yaml()
            .load(
                Files.readString(
                    ROOT.resolve(
                        "scheduler-service/src/main/resources/application-" + profile + ".yaml")));
    Map<String, Object> scheduler =
        (Map<String, Object>) ((Map<String, Object>) root.get("arranger")).get("scheduler");

    assertThat(scheduler)
        .doesNotContainKey("configuration")
        .containsEntry(
            "configuration-location", "classpath:scheduler-configurations/" + profile + ".yaml");
    assertThat(PROFILES.resolve(profile + ".yaml")).exists();
    assertThat(SchedulerProfilesTest.configurationOf(profile))
        .isEqualTo(Files.readString(PROFILES.resolve(profile + ".yaml")));
  }

  @ParameterizedTest(name = "the jar carries {0} byte for byte")
  @MethodSource("policyFiles")
  void everyPolicyFileIsPackagedUnchanged(Path file) throws IOException {
    try (InputStream packaged =
        getClass().getResourceAsStream("/scheduler-configurations/" + file.getFileName())) {
      assertThat(packaged)
          .as("classpath:scheduler-configurations/" + file.getFileName())
          .isNotNull();
      assertThat(packaged.readAllBytes()).isEqualTo(Files.readAllBytes(file));
    }
  }

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
