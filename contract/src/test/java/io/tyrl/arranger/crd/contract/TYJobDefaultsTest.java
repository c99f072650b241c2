package io.tyrl.arranger.crd.contract;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code spec.preemptible} and the deprecated annotation it replaces, folded into one rule. */
class TYJobDefaultsTest {

  @ParameterizedTest(name = "field {0}, annotation [{1}] -> {2}")
  @CsvSource(
      nullValues = "null",
      value = {
        // Neither: preemptible, as every job was before either existed.
        "null, null, true",
        // The annotation alone decides as it always did.
        "null, false, false",
        "null, FALSE, false",
        "null, ' false ', false",
        "null, true, true",
        "null, no, true",
        "null, '', true",
        // The field wins over the annotation, either way.
        "true, false, true",
        "false, true, false",
        "false, null, false",
        "true, null, true"
      })
  void theFieldWinsThenTheAnnotationThenPreemptible(
      Boolean field, String annotation, boolean preemptible) {
    assertThat(TYJobDefaults.preemptible(field, annotation)).isEqualTo(preemptible);
  }
}
