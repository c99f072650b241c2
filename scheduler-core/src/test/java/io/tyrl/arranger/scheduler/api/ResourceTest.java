package io.tyrl.arranger.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ResourceTest {

  @Test
  void arithmeticIsExactPerDimensionIncludingExtendedResources() {
    Resource a = Resource.of("cpu", "1500m", "memory", "1Gi", "nvidia.com/gpu", "2");
    Resource b = Resource.of("cpu", "500m", "nvidia.com/gpu", "1", "example.com/fpga", "1");

    assertThat(a.plus(b))
        .isEqualTo(
            Resource.of(
                "cpu", "2", "memory", "1Gi", "nvidia.com/gpu", "3", "example.com/fpga", "1"));
    assertThat(a.plus(b).minus(b)).isEqualTo(a);
    assertThat(b.fitsIn(a)).isFalse();
    assertThat(Resource.of("cpu", "1", "nvidia.com/gpu", "2").fitsIn(a)).isTrue();
    assertThat(a.toString()).isEqualTo("cpu 1500m, memory 1Gi, nvidia.com/gpu 2");
  }

  @Test
  void goingNegativeIsRefusedNamingTheResource() {
    assertThatThrownBy(() -> Resource.of("cpu", "1").minus(Resource.of("cpu", "2")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cpu would be negative");
    assertThatThrownBy(() -> Resource.of("memory", "-1Gi"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("memory");
  }

  @Test
  void cpuAndGpusAreCountedInThousandthsAndEverythingElseInWholeUnits() {
    assertThat(Resource.canonicalAmount(Resource.CPU, "1.5")).isEqualTo(1500);
    assertThat(Resource.canonicalAmount(Resource.MEMORY, "1.5")).isEqualTo(2);
    assertThat(Resource.canonicalAmount(Resource.GPU, "2")).isEqualTo(2000);
    assertThat(Resource.canonicalAmount(Resource.GPU, "0.25")).isEqualTo(250);
    assertThat(Resource.canonicalAmount("example.com/fpga", "2")).isEqualTo(2);
  }

  @Test
  void aBadQuantityIsRefusedNamingTheResourceAndTheValue() {
    assertThatThrownBy(() -> Resource.of("cpu", "1", "nvidia.com/gpu", "two"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nvidia.com/gpu")
        .hasMessageContaining("'two'");
  }

  @Test
  void zeroesAreNotStoredSoEqualAmountsAreEqual() {
    assertThat(Resource.of("cpu", "0", "memory", "1Gi")).isEqualTo(Resource.of("memory", "1024Mi"));
    assertThat(Resource.of("cpu", "0").isEmpty()).isTrue();
  }

  @Test
  void maxAndFlooredSubtractionWorkPerDimension() {
    Resource a = Resource.of("cpu", "2", "memory", "1Gi");
    Resource b = Resource.of("cpu", "500m", "memory", "2Gi", "nvidia.com/gpu", "1");

    assertThat(a.max(b)).isEqualTo(Resource.of("cpu", "2", "memory", "2Gi", "nvidia.com/gpu", "1"));
    assertThat(a.minusFloored(b)).isEqualTo(Resource.of("cpu", "1500m"));
    assertThat(Resource.ofCanonical(java.util.Map.of("cpu", 1500L, "memory", 1024L)))
        .isEqualTo(Resource.of("cpu", "1500m", "memory", "1Ki"));
    assertThat(Resource.of().toString()).isEqualTo("{}");
    assertThat(b.times(3))
        .isEqualTo(Resource.of("cpu", "1500m", "memory", "6Gi", "nvidia.com/gpu", "3"));
    assertThat(b.times(0).isEmpty()).isTrue();
    assertThat(b.memory()).isEqualTo(2L << 30);
    assertThatThrownBy(() -> Resource.of("memory", "1Ei").times(Long.MAX_VALUE))
        .isInstanceOf(ArithmeticException.class);
  }

  @ParameterizedTest(name = "{0} {1} -> {2}")
  @CsvSource({
    "cpu, 1000, 1",
    "cpu, 1500, 1500m",
    "cpu, 999, 999m",
    "memory, 1024, 1Ki",
    "memory, 1023, 1023",
    "memory, 1536, 1536",
    "memory, 3221225472, 3Gi",
    "memory, 1610612736, 1536Mi",
    "ephemeral-storage, 1099511627776, 1Ti",
    "nvidia.com/gpu, 8000, 8",
    "nvidia.com/gpu, 250, 250m"
  })
  void quantitiesAreFormattedInTheLargestExactUnit(String name, long value, String formatted) {
    assertThat(Resource.formatQuantity(name, value)).isEqualTo(formatted);
  }

  @ParameterizedTest(name = "{0} {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "cpu            | 2000 1500       | 2000m 1500m",
        "cpu            | 2000 3000 0     | 2 3 0",
        "nvidia.com/gpu | 4000 250        | 4000m 250m",
        "memory         | 3221225472 1610612736 | 3072Mi 1536Mi",
        "memory         | 2048 1536       | 2048 1536",
        "memory         | 2147483648 0    | 2Gi 0Gi",
        "pods           | 3 110           | 3 110"
      })
  void amountsComparedInOneMessageShareOneUnit(String name, String values, String formatted) {
    long[] amounts =
        java.util.Arrays.stream(values.trim().split(" +")).mapToLong(Long::parseLong).toArray();
    assertThat(Resource.formatQuantitiesAlike(name.trim(), amounts))
        .containsExactly(formatted.trim().split(" "));
  }
}
