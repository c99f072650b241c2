package io.tyrl.arranger.scheduler.conf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tyrl.arranger.scheduler.api.EnumNames;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ArgumentSpecTest {

  private static final ArgumentSpec<Integer> WEIGHT = ArgumentSpec.integer("weight", 1, 0, 100);
  private static final ArgumentSpec<Double> RATIO = ArgumentSpec.decimal("ratio", 0.5, 0.0, 1.0);
  private static final ArgumentSpec<Duration> TIMEOUT =
      ArgumentSpec.duration("timeout", Duration.ofMinutes(5));
  private static final ArgumentSpec<Order> ORDER =
      ArgumentSpec.oneOf(
          "order", Order.BIN_PACK, List.of(Order.BIN_PACK, Order.LEADER_FIRST), EnumNames::camel);

  private enum Order {
    GANG,
    BIN_PACK,
    LEADER_FIRST
  }

  @Test
  void eachArgumentKeepsItsNameAndDefault() {
    assertThat(WEIGHT.name()).isEqualTo("weight");
    assertThat(WEIGHT.defaultValue()).isEqualTo(1);
    assertThat(RATIO.defaultValue()).isEqualTo(0.5);
    assertThat(TIMEOUT.defaultValue()).isEqualTo(Duration.ofMinutes(5));
    assertThat(ORDER.defaultValue()).isEqualTo(Order.BIN_PACK);
  }

  @Test
  void anArgumentSaysWhatItExpectsAndItsDefault() {
    assertThat(ArgumentSpec.integer("weight", 1, 0, 100))
        .hasToString("weight (an integer within 0..100, default 1)");
    assertThat(ArgumentSpec.decimal("ratio", 0.5, 0, 1))
        .hasToString("ratio (a number within 0.0..1.0, default 0.5)");
    assertThat(ArgumentSpec.duration("timeout", Duration.ofMinutes(5)))
        .hasToString("timeout (a positive duration such as 90s, 5m, 1h or PT5M, default PT5M)");
    assertThat(
            ArgumentSpec.oneOf(
                "order", Order.GANG, List.of(Order.GANG, Order.BIN_PACK), EnumNames::camel))
        .hasToString("order (one of Gang, BinPack, default GANG)");
  }

  @Test
  void anArgumentNeedsANameAndADefault() {
    assertThatThrownBy(() -> ArgumentSpec.integer(" ", 1, 0, 1))
        .hasMessage("argument name must not be blank");
    assertThatThrownBy(() -> ArgumentSpec.integer(null, 1, 0, 1))
        .hasMessage("argument name must not be blank");
    assertThatThrownBy(() -> ArgumentSpec.duration("wait", null))
        .hasMessage("default of argument wait");
  }

  @ParameterizedTest(name = "weight {0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "0        | 0",
        "100      | 100",
        "' 42 '   | 42",
        "-1       | expected an integer within 0..100, got -1",
        "101      | expected an integer within 0..100, got 101",
        "4.5      | expected an integer within 0..100, got '4.5'",
        "lots     | expected an integer within 0..100, got 'lots'"
      })
  void integersAreWholeNumbersWithinTheirRange(String raw, String expected) {
    assertThat(outcome(WEIGHT, raw)).isEqualTo(expected);
  }

  @Test
  void yamlNumbersAreTakenAsTheyAre() {
    assertThat(WEIGHT.convert(7)).isEqualTo(7);
    assertThat(WEIGHT.convert(7L)).isEqualTo(7);
    assertThat(RATIO.convert(1)).isEqualTo(1.0);
    assertThat(RATIO.convert(0.25)).isEqualTo(0.25);
    assertThatThrownBy(() -> WEIGHT.convert(null))
        .hasMessage("expected an integer within 0..100, got nothing");
  }

  @ParameterizedTest(name = "ratio {0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "0        | 0.0",
        "1        | 1.0",
        "0.75     | 0.75",
        "-0.01    | expected a number within 0.0..1.0, got -0.01",
        "1.01     | expected a number within 0.0..1.0, got 1.01",
        "NaN      | expected a number within 0.0..1.0, got NaN",
        "half     | expected a number within 0.0..1.0, got 'half'"
      })
  void decimalsAreNumbersWithinTheirRange(String raw, String expected) {
    assertThat(outcome(RATIO, raw)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "timeout {0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "250ms    | PT0.25S",
        "90s      | PT1M30S",
        "5m       | PT5M",
        "2h       | PT2H",
        "PT10M    | PT10M",
        "0s       | expected a positive duration such as 90s, 5m, 1h or PT5M, got '0s'",
        "-PT1M    | expected a positive duration such as 90s, 5m, 1h or PT5M, got '-PT1M'",
        "soon     | expected a positive duration such as 90s, 5m, 1h or PT5M, got 'soon'"
      })
  void durationsArePositiveInGoOrIsoSpelling(String raw, String expected) {
    assertThat(outcome(TIMEOUT, raw)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "order {0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "BinPack     | BIN_PACK",
        "LEADER_FIRST| LEADER_FIRST",
        "Gang        | expected one of BinPack, LeaderFirst, got 'Gang'",
        "' leader-first '| LEADER_FIRST",
        "binpack     | BIN_PACK",
        "Random      | expected one of BinPack, LeaderFirst, got 'Random'"
      })
  void enumerationsAcceptOnlyTheAllowedConstants(String raw, String expected) {
    assertThat(outcome(ORDER, raw)).startsWith(expected);
  }

  private static String outcome(ArgumentSpec<?> spec, String raw) {
    try {
      return String.valueOf(spec.convert(raw));
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
  }
}
