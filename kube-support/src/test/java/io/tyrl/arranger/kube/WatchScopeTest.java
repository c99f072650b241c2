package io.tyrl.arranger.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class WatchScopeTest {

  private static WatchScope bind(Map<String, String> values) {
    return new Binder(new MapConfigurationPropertySource(values))
        .bindOrCreate("arranger.watch", WatchScope.class);
  }

  @Test
  void noNamespacesMeansAll() {
    WatchScope scope = bind(Map.of());

    assertThat(scope.watchesAllNamespaces()).isTrue();
    assertThat(scope.includes("anything")).isTrue();
  }

  @Test
  void aCommaSeparatedListAsAnEnvironmentVariableGivesItSetsTrimmedAndWithoutRepeats() {
    WatchScope scope = bind(Map.of("arranger.watch.namespaces", "team-a, team-b,team-a,"));

    assertThat(scope.namespaces()).containsExactly("team-a", "team-b");
    assertThat(scope.includes("team-b")).isTrue();
    assertThat(scope.includes("team-c")).isFalse();
  }

  @Test
  void aNameThatIsNoNamespaceIsRefusedNamingIt() {
    assertThatThrownBy(() -> bind(Map.of("arranger.watch.namespaces", "team-a,Team_B")))
        .rootCause()
        .hasMessageContaining("arranger.watch.namespaces: \"Team_B\" is not a namespace name");
  }
}
