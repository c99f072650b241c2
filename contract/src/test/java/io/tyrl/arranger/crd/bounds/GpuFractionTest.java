package io.tyrl.arranger.crd.bounds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GpuFractionTest {

  @ParameterizedTest(name = "{0} = {1}m")
  @CsvSource({"0.25, 250", "0.5, 500", "' 0.125 ', 125", "0.001, 1", "0.999, 999", "0.50, 500"})
  void aShareOfOneGpuIsReadInMilliGpu(String value, long milli) {
    assertThat(GpuFraction.problem(value)).isEmpty();
    assertThat(GpuFraction.milli(value)).isEqualTo(milli);
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    "1, above 0 and below 1",
    "1.5, above 0 and below 1",
    "0, above 0 and below 1",
    "-0.25, above 0 and below 1",
    "0.3333, at most three decimals",
    "quarter, not a decimal number",
    "'', not a decimal number"
  })
  void anythingElseIsRefusedNamingTheAnnotationAndTheValue(String value, String why) {
    assertThat(GpuFraction.problem(value))
        .hasValueSatisfying(
            message ->
                assertThat(message)
                    .contains("arranger.tyrl.io/gpu-fraction")
                    .contains("\"" + value + "\"")
                    .contains(why));
    assertThatThrownBy(() -> GpuFraction.milli(value))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(why);
  }
}
