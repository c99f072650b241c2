package io.tyrl.arranger.controller.lifecycle.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class KubernetesQuantityTest {

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource({
      "1, 1",
      "0, 0",
      "500m, 0.5",
      "1.5, 1.5",
      "2., 2",
      ".5, 0.5",
      "+3, 3",
      "-1, -1",
      "1Ki, 1024",
      "2Mi, 2097152",
      "1Gi, 1073741824",
      "1Ti, 1099511627776",
      "1k, 1000",
      "1M, 1000000",
      "3G, 3000000000",
      "1E, 1000000000000000000",
      "1e3, 1000",
      "1E3, 1000",
      "15e-1, 1.5",
      "129e6, 129000000"})
  void parsesValidQuantities(String text, BigDecimal expected) {
    assertThat(KubernetesQuantity.parse(text)).hasValueSatisfying(value -> assertThat(value).isEqualByComparingTo(expected));
  }

  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(strings = {"", "lots", "1 Gi", "1GB", "1gi", "Gi", "1..5", "1Ki2", "--1", "1e", "1e1234", "0x10", " 1", "1m5"})
  void refusesWhatIsNotAQuantity(String text) {
    assertThat(KubernetesQuantity.parse(text)).isEmpty();
  }
}
