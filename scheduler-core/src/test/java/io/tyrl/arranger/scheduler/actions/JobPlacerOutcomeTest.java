package io.tyrl.arranger.scheduler.actions;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The end of a job's note each outcome of a placing pass gives. */
class JobPlacerOutcomeTest {

  @Test
  void eachOutcomeExplainsItselfAsTheEndOfANote() {
    assertThat(new JobPlacer.Placed().explanation()).isEmpty();
    assertThat(
            new JobPlacer.LeftUnplaced(
                    Optional.empty(), Optional.of("queue q is at its capability"))
                .explanation())
        .isEqualTo("; queue q is at its capability");
    assertThat(
            new JobPlacer.ShortOfRoom(
                    "the room left holds at most 1 of the 2 more workers it needs",
                    Optional.empty())
                .explanation())
        .isEqualTo("; the room left holds at most 1 of the 2 more workers it needs");
    assertThat(
            new JobPlacer.NeverFits(null, "pod actor is larger than each of the 1 admissible nodes")
                .explanation())
        .isEqualTo("; pod actor is larger than each of the 1 admissible nodes");
  }
}
