package io.tyrl.arranger.scheduler.conf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tyrl.arranger.scheduler.actions.BuiltInActions;
import io.tyrl.arranger.scheduler.framework.SchedulerVocabulary;
import io.tyrl.arranger.scheduler.plugins.BuiltInPlugins;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FairnessConfigurationTest {

  private final SchedulerConfigurationParser parser =
      new SchedulerConfigurationParser(
          new SchedulerVocabulary(BuiltInPlugins.registry(), BuiltInActions.registry()));

  private SchedulerConfiguration parse(String fairness) {
    return parser.parse(DefaultSchedulerConfiguration.YAML + fairness);
  }

  @Test
  void withoutAFairnessSectionTheDefaultApplies() {
    FairnessConfiguration fairness = parser.parse(DefaultSchedulerConfiguration.YAML).fairness();

    assertThat(fairness).isEqualTo(FairnessConfiguration.DEFAULT);
    assertThat(fairness.halfLife()).isEqualTo(Duration.ofHours(24));
    assertThat(fairness.window()).isNull();
    assertThat(fairness.adjustsShares()).isTrue();
  }

  @Test
  void everyFieldIsRead() {
    FairnessConfiguration fairness =
        parse(
                """
            fairness:
              halfLife: 12h
              window: 168h
              strength: 2.5
              namespaceOrder: true
            """)
            .fairness();

    assertThat(fairness)
        .isEqualTo(
            new FairnessConfiguration(Duration.ofHours(12), Duration.ofHours(168), 2.5, true));
  }

  @Test
  void strengthZeroTurnsTheAdjustmentOff() {
    assertThat(parse("fairness: {strength: 0}\n").fairness().adjustsShares()).isFalse();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "fairness: {halfLife: 30s}               | fairness.halfLife",
        "fairness: {halfLife: 9000h}             | fairness.halfLife",
        "fairness: {halfLife: soon}              | fairness.halfLife",
        "fairness: {window: -5m}                 | fairness.window",
        "fairness: {window: 10s}                 | fairness.window",
        "fairness: {strength: -1}                | fairness.strength",
        "fairness: {strength: 101}               | fairness.strength",
        "fairness: {strength: strong}            | fairness.strength",
        "fairness: {namespaceOrder: sometimes}   | fairness.namespaceOrder",
        "fairness: {halflife: 1h}                | fairness.halflife",
        "fairness: 3                             | fairness"
      })
  void aValueOutOfBoundsIsRefusedNamingItsField(String yaml, String field) {
    assertThatThrownBy(() -> parse(yaml + "\n"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageStartingWith(field + ":");
  }
}
