package io.tyrl.arranger.controller.lifecycle.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.Stage;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ControllerStatusTest {

  @Test
  void theWorkersColumnSumsReadyAndDesiredOverEveryWorkerSet() {
    ControllerStatus status =
        new ControllerStatus(
            Stage.RUNNING,
            List.of(),
            LeaderSummary.none(),
            List.of(
                new WorkerSetSummary("actor", 3, 3, 2, 0),
                new WorkerSetSummary("critic", 2, 1, 1, 0)),
            3,
            Optional.empty(),
            Optional.empty(),
            1);

    assertThat(status.workersReadyOfDesired()).isEqualTo("3/5");
  }

  @Test
  void aJobTheControllerNeverWroteIsPendingWithNothingCounted() {
    ControllerStatus initial = ControllerStatus.initial();

    assertThat(initial.stage()).isEqualTo(Stage.PENDING);
    assertThat(initial.leader()).isEqualTo(LeaderSummary.none());
    assertThat(initial.workerSets()).isEmpty();
    assertThat(initial.workersReadyOfDesired()).isEqualTo("0/0");
  }
}
