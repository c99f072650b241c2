package io.tyrl.arranger.scheduler.framework;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.sim.DecisionChecks;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A share of one GPU keeps the device it was given: the decision names the device of every pod
 * holding a share, the next snapshot brings it back, and the pod is seated there again instead of
 * wherever the device rule would put it now — the node was told that device, and its other devices
 * are what a whole-GPU pod can really get.
 */
class GpuDeviceRecordTest {

  private static NodeInfo gpuNode(int gpus) {
    return node("n1").cpu("32").memory("128Gi").gpu(gpus).build();
  }

  private static CycleResult cycle(Snapshot snapshot) {
    CycleResult result =
        Fixtures.scheduler().runCycle(snapshot, Fixtures.defaultConfiguration(), T0);
    assertThat(DecisionChecks.overCommitments(snapshot, result)).isEmpty();
    return result;
  }

  /** Two actors of 500m each, running on n1, recorded on the given devices (null: not recorded). */
  private static JobInfo halfGpuSharers(String name, Integer first, Integer second) {
    JobInfo job =
        job(name)
            .minWorkers(2)
            .leader("cpu", "1")
            .workers("actor", 2, "cpu", "1", Resource.GPU, "500m")
            .running("n1", 2)
            .build();
    Map<String, Integer> recorded = new java.util.HashMap<>();
    if (first != null) {
      recorded.put(name + "-actor-0", first);
    }
    if (second != null) {
      recorded.put(name + "-actor-1", second);
    }
    return job.toBuilder().gpuDevices(recorded).build();
  }

  private static JobInfo wholeGpuLearner() {
    return job("j").minWorkers(0).leader("cpu", "1", Resource.GPU, "1").build();
  }

  @Test
  void aPlacedShareIsDecidedWithItsDeviceAndAWholeGpuPodWithNone() {
    JobInfo job =
        job("j")
            .minWorkers(2)
            .leader("cpu", "1", Resource.GPU, "1")
            .workers("actor", 2, "cpu", "1", Resource.GPU, "250m")
            .build();

    JobDecision decision =
        cycle(new Snapshot(List.of(gpuNode(2)), List.of(job), List.of())).decision("default/j");

    assertThat(decision.allocations()).hasSize(3);
    assertThat(decision.gpuDevices())
        .as("the learner took device 0 whole; both quarters share device 1")
        .isEqualTo(Map.of("j-actor-0", 1, "j-actor-1", 1));
  }

  @Test
  void recordedSharesAreSeatedOnTheirDevicesSoNoWholeDeviceIsInventedForALearner() {
    Snapshot recorded =
        new Snapshot(
            List.of(gpuNode(2)),
            List.of(halfGpuSharers("sharers", 0, 1), wholeGpuLearner()),
            List.of());
    Snapshot unrecorded =
        new Snapshot(
            List.of(gpuNode(2)),
            List.of(halfGpuSharers("sharers", null, null), wholeGpuLearner()),
            List.of());

    CycleResult onRecord = cycle(recorded);
    CycleResult reseated = cycle(unrecorded);

    assertThat(onRecord.decision("default/j").allocations())
        .as("each device holds one half: no device is whole")
        .isEmpty();
    assertThat(onRecord.decision("default/j").message()).contains("fewer than 1 whole GPU free");
    assertThat(onRecord.decision("default/sharers").gpuDevices())
        .isEqualTo(Map.of("sharers-actor-0", 0, "sharers-actor-1", 1));
    assertThat(reseated.decision("default/j").allocations())
        .as("seated by the rule alone, both halves share device 0 and device 1 is whole")
        .hasSize(1);
    assertThat(reseated.decision("default/sharers").gpuDevices())
        .isEqualTo(Map.of("sharers-actor-0", 0, "sharers-actor-1", 0));
  }

  @Test
  void aRecordTheDeviceCannotHoldOrThatNamesNoDeviceIsSeatedByTheRule() {
    JobInfo overCommitted =
        job("over")
            .minWorkers(2)
            .leader("cpu", "1")
            .workers("actor", 2, "cpu", "1", Resource.GPU, "600m")
            .running("n1", 2)
            .build();
    overCommitted =
        overCommitted.toBuilder().gpuDevices(Map.of("over-actor-0", 0, "over-actor-1", 0)).build();
    Snapshot snapshot =
        new Snapshot(
            List.of(gpuNode(3)),
            List.of(overCommitted, halfGpuSharers("beyond", 7, -1)),
            List.of());

    CycleResult result = cycle(snapshot);
    Session session = new Session(snapshot, T0);

    GpuDeviceAccountingTest.assertDevicesHold(session);
    assertThat(result.decision("default/over").gpuDevices())
        .as("the first keeps device 0; the second, which would make it hold 1200m, moves")
        .containsEntry("over-actor-0", 0)
        .doesNotContainEntry("over-actor-1", 0);
    assertThat(result.decision("default/beyond").gpuDevices().values())
        .as("indexes outside the node's 3 devices are not kept")
        .allMatch(device -> device >= 0 && device < 3);
  }

  @Test
  void aShareBeingEvictedKeepsItsDeviceUntilItIsGone() {
    JobInfo leaving =
        job("leaving")
            .minWorkers(0)
            .leader("cpu", "1")
            .workers("actor", 1, "cpu", "1", Resource.GPU, "500m")
            .placed("leaving-learner", "n1")
            .releasing("leaving-actor-0", "n1")
            .build();
    JobInfo staying =
        job("staying")
            .minWorkers(1)
            .leader("cpu", "1")
            .workers("actor", 1, "cpu", "1", Resource.GPU, "500m")
            .running("n1", 1)
            .build();
    Snapshot unrecorded =
        new Snapshot(List.of(gpuNode(2)), List.of(staying, leaving, wholeGpuLearner()), List.of());
    Snapshot recorded =
        new Snapshot(
            List.of(gpuNode(2)),
            List.of(
                staying.toBuilder().gpuDevices(Map.of("staying-actor-0", 0)).build(),
                leaving.toBuilder().gpuDevices(Map.of("leaving-actor-0", 1)).build(),
                wholeGpuLearner()),
            List.of());

    CycleResult onRecord = cycle(recorded);
    CycleResult reseated = cycle(unrecorded);

    assertThat(onRecord.decision("default/leaving").gpuDevices())
        .isEqualTo(Map.of("leaving-actor-0", 1));
    assertThat(onRecord.decision("default/j").allocations())
        .as("device 1 is whole only once the leaving share is gone")
        .isEmpty();
    assertThat(reseated.decision("default/j").allocations())
        .as("seated by the rule alone, both halves share device 0 and device 1 looks whole now")
        .hasSize(1);
  }
}
