package io.tyrl.arranger.controller.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class ControllerPropertiesTest {

  private static ControllerProperties bind(Map<String, String> values) {
    return new Binder(new MapConfigurationPropertySource(values))
        .bindOrCreate("arranger.controller", ControllerProperties.class);
  }

  @Test
  void defaultsToSixteenWorkers() {
    ControllerProperties properties = bind(Map.of());

    assertThat(properties.workers()).isEqualTo(16);
    assertThat(properties.resyncPeriod()).isEqualTo(Duration.ofMinutes(10));
    assertThat(properties.retry().initialDelay()).isEqualTo(Duration.ofMillis(500));
    assertThat(properties.retry().maxDelay()).isEqualTo(Duration.ofMinutes(5));
    assertThat(properties.gpuSharing().unusedGrace()).isEqualTo(Duration.ofSeconds(30));
    assertThat(properties.gpuSharing().startPatience()).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void bindsTheGpuReservationSettings() {
    ControllerProperties properties =
        bind(
            Map.of(
                "arranger.controller.gpu-sharing.image", "registry.local/curl:1",
                "arranger.controller.gpu-sharing.start-patience", "2m"));

    assertThat(properties.gpuSharing().image()).isEqualTo("registry.local/curl:1");
    assertThat(properties.gpuSharing().startPatience()).isEqualTo(Duration.ofMinutes(2));
    assertThatThrownBy(() -> bind(Map.of("arranger.controller.gpu-sharing.start-patience", "-1s")))
        .rootCause()
        .hasMessageContaining(
            "arranger.controller.gpu-sharing.start-patience must not be negative, got PT-1S");
  }

  @Test
  void bindsEverySetting() {
    ControllerProperties properties =
        bind(
            Map.of(
                "arranger.controller.workers", "8",
                "arranger.controller.resync-period", "0",
                "arranger.controller.retry.initial-delay", "1s",
                "arranger.controller.retry.max-delay", "1m"));

    assertThat(properties.workers()).isEqualTo(8);
    assertThat(properties.resyncPeriod()).isZero();
    assertThat(properties.retry().maxDelay()).isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void badValuesAreRefusedNamingTheProperty() {
    assertThatThrownBy(() -> bind(Map.of("arranger.controller.workers", "0")))
        .rootCause()
        .hasMessageContaining("arranger.controller.workers must be between 1 and 64, got 0");
    assertThatThrownBy(() -> bind(Map.of("arranger.controller.resync-period", "100ms")))
        .rootCause()
        .hasMessageContaining("arranger.controller.resync-period must be 0 (off) or at least 1s");
    assertThatThrownBy(
            () ->
                bind(
                    Map.of(
                        "arranger.controller.retry.initial-delay",
                        "10s",
                        "arranger.controller.retry.max-delay",
                        "1s")))
        .rootCause()
        .hasMessageContaining("arranger.controller.retry.max-delay (PT1S) must not be shorter");
  }
}
