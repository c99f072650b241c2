package io.tyrl.arranger.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ResourceTest {

  @Test
  void arithmeticIsExactPerDimensionIncludingExtendedResources() {
    Resource a = Resource.of("cpu", "1500m", "memory", "1Gi", "nvidia.com/gpu", "2");
    Resource b = Resource.of("cpu", "500m", "nvidia.com/gpu", "1", "example.com/fpga", "1");

    assertThat(a.plus(b)).isEqualTo(Resource.of("cpu", "2", "memory", "1Gi", "nvidia.com/gpu", "3", "example.com/fpga", "1"));
    assertThat(a.plus(b).minus(b)).isEqualTo(a);
    assertThat(b.fitsIn(a)).isFalse();
    assertThat(Resource.of("cpu", "1", "nvidia.com/gpu", "2").fitsIn(a)).isTrue();
    assertThat(a.toString()).isEqualTo("cpu 1500m, memory 1Gi, nvidia.com/gpu 2");
  }

  @Test
  void goingNegativeIsRefusedNamingTheResource() {
    assertThatThrownBy(() -> Resource.of("cpu", "1").minus(Resource.of("cpu", "2")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cpu would be negative");
    assertThatThrownBy(() -> Resource.of("memory", "-1Gi"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("memory");
  }

  @Test
  void zeroesAreNotStoredSoEqualAmountsAreEqual() {
    assertThat(Resource.of("cpu", "0", "memory", "1Gi")).isEqualTo(Resource.of("memory", "1024Mi"));
    assertThat(Resource.of("cpu", "0").isEmpty()).isTrue();
  }
}
