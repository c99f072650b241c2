package io.tyrl.arranger.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EnumNamesTest {

  @Test
  void constantsAreSpelledAsTheCrdSpellsThemAndShortAcronymsStayUpperCase() {
    assertThat(EnumNames.camel(GangMode.NON_STRICT)).isEqualTo("NonStrict");
    assertThat(EnumNames.camel(JobQueuePolicy.PRIORITY)).isEqualTo("Priority");
    assertThat(EnumNames.camel(JobQueuePolicy.DRF)).isEqualTo("DRF");
  }

  @Test
  void anUnknownValueIsRefusedNamingTheFieldAndTheValuesItMayTake() {
    assertThat(JobQueuePolicy.parse("drf")).isEqualTo(JobQueuePolicy.DRF);
    assertThatThrownBy(() -> JobQueuePolicy.parse("Fair"))
        .hasMessage("jobQueuePolicy: unknown value 'Fair', expected one of Priority, DRF");
  }

  @Test
  void twoSpellingsAreTheSameWhateverTheirCaseUnderscoresAndDashes() {
    assertThat(EnumNames.sameSpelling("LEADER_FIRST", "leader-first")).isTrue();
    assertThat(EnumNames.sameSpelling("BinPack", "BINPACK")).isTrue();
    assertThat(EnumNames.sameSpelling("BinPack", "BinPacks")).isFalse();
  }
}
