package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.framework.Session;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Where two queues' branches meet, in a tree of departments, groups and teams. */
class BranchesTest {

  private static final Session SESSION =
      new Session(
          new Snapshot(
              List.of(),
              List.of(),
              List.of(
                  queue("d1").build(),
                  queue("d2").build(),
                  queue("g1").parent("d1").build(),
                  queue("g2").parent("d1").build(),
                  queue("t1").parent("g1").build(),
                  queue("t2").parent("g1").build(),
                  queue("t3").parent("g2").build(),
                  queue("t4").parent("d2").build())),
          T0);

  @ParameterizedTest(name = "{0} and {1} meet as {2} and {3}")
  @CsvSource({
    "t1, t2, t1, t2",
    "t1, t3, g1, g2",
    "t3, t1, g2, g1",
    "t1, t4, d1, d2",
    "t4, t1, d2, d1",
    "t1, d2, d1, d2"
  })
  void theSiblingsWhereTheBranchesMeet(String own, String other, String ours, String theirs) {
    Branches branches =
        Branches.of(SESSION.queue(own).orElseThrow(), SESSION.queue(other).orElseThrow());

    assertThat(branches.ours().name()).isEqualTo(ours);
    assertThat(branches.theirs().name()).isEqualTo(theirs);
  }
}
