package io.tyrl.arranger.crd.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class QuantitiesTest {

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
    "129e6, 129000000",
    "100u, 0.0001",
    "5n, 0.000000005"
  })
  void readsEveryFormOfTheGrammarExactly(String text, BigDecimal expected) {
    assertThat(Quantities.parse(text)).isEqualByComparingTo(expected);
    assertThat(Quantities.tryParse(text))
        .hasValueSatisfying(value -> assertThat(value).isEqualByComparingTo(expected));
  }

  @ParameterizedTest(name = "{0} = {1}m")
  @CsvSource({
    "500m, 500",
    "2, 2000",
    "1.5, 1500",
    "0.0001, 1",
    "1e3, 1000000",
    "100u, 1",
    "2k, 2000000",
    ".5, 500"
  })
  void millisRoundUpSoThatNoRequestBecomesFree(String quantity, long millis) {
    assertThat(Quantities.toMillis(quantity)).isEqualTo(millis);
  }

  @ParameterizedTest(name = "{0} = {1} units")
  @CsvSource({
    "16Gi, 17179869184",
    "1Ki, 1024",
    "1M, 1000000",
    "1.5Gi, 1610612736",
    "1e3, 1000",
    "128974848, 128974848",
    "129e6, 129000000",
    "123Mi, 128974848",
    "0.5, 1",
    "2E, 2000000000000000000"
  })
  void unitsAreExactIntegersRoundingUp(String quantity, long units) {
    assertThat(Quantities.toUnits(quantity)).isEqualTo(units);
  }

  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(
      strings = {
        "", "abc", "lots", "1.2.3", "1..5", "5Gb", "1GB", "1gi", "1e", "--1", "Mi", "1 Gi", "9Ei9",
        "1Ki2", "1e1234", "1e31", "0x10", " 1", "1 ", "1m5"
      })
  void refusesWhatIsNotAQuantityNamingTheValue(String quantity) {
    assertThatThrownBy(() -> Quantities.parse(quantity))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + quantity + "'");
    assertThat(Quantities.tryParse(quantity)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"9Ei", "10000000000000000000"})
  void quantitiesBeyondLongAreRefused(String quantity) {
    assertThatThrownBy(() -> Quantities.toUnits(quantity))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("too large");
  }

  @Test
  void absentIsNoQuantity() {
    assertThat(Quantities.tryParse(null)).isEmpty();
  }
}
