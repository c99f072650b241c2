package io.tyrl.arranger.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class QuantitiesTest {

  @ParameterizedTest(name = "{0} cpu = {1}m")
  @CsvSource({"500m, 500", "2, 2000", "1.5, 1500", "0.0001, 1", "1e3, 1000000", "100u, 1", "2k, 2000000", ".5, 500"})
  void cpuIsCountedInMillicoresRoundingUp(String quantity, long millis) {
    assertThat(Quantities.toCanonical(Resource.CPU, quantity)).isEqualTo(millis);
  }

  @ParameterizedTest(name = "{0} = {1} bytes")
  @CsvSource({"16Gi, 17179869184", "1Ki, 1024", "1M, 1000000", "1.5Gi, 1610612736", "1e3, 1000", "128974848, 128974848",
      "129e6, 129000000", "123Mi, 128974848", "0.5, 1", "2E, 2000000000000000000"})
  void bytesAndDevicesAreExactIntegers(String quantity, long units) {
    assertThat(Quantities.toCanonical(Resource.MEMORY, quantity)).isEqualTo(units);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "abc", "1.2.3", "5Gb", "1e", "--1", "Mi", "1 Gi", "9Ei9"})
  void badQuantitiesAreRefusedNamingTheValue(String quantity) {
    assertThatThrownBy(() -> Quantities.toCanonical(Resource.MEMORY, quantity))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("memory")
        .hasMessageContaining("'" + quantity + "'");
  }

  @ParameterizedTest
  @ValueSource(strings = {"9Ei", "10000000000000000000"})
  void quantitiesBeyondLongAreRefused(String quantity) {
    assertThatThrownBy(() -> Quantities.toUnits(quantity)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("too large");
  }
}
