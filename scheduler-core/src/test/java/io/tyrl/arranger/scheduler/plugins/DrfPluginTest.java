package io.tyrl.arranger.scheduler.plugins;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobQueuePolicy;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;

class DrfPluginTest {

  /**
   * A DRF queue on a node of 16 cpu and 2 GPUs with room for one more 1-cpu pod. z-cpu holds 2 cpu
   * (share 2/16 = 0.125); a-gpu holds 100m cpu and 1 GPU (share max(0.1/16, 1/2) = 0.5), and is the
   * older job with the first name. Each waits for a 1-cpu worker: the lower dominant share goes
   * first.
   */
  @Test
  void theJobWithTheLowerDominantShareIsServedFirst() {
    var cpuHeavy =
        job("z-cpu")
            .queue("q")
            .created(T0.plusSeconds(1))
            .minWorkers(0)
            .leader("cpu", "2")
            .workers("w", 1, "cpu", "1")
            .running("n1", 0)
            .build();
    var gpuHeavy =
        job("a-gpu")
            .queue("q")
            .created(T0)
            .minWorkers(0)
            .leader("cpu", "100m", "nvidia.com/gpu", "1")
            .workers("w", 1, "cpu", "1")
            .running("n1", 0)
            .build();
    Snapshot snapshot =
        new Snapshot(
            List.of(node("n1").cpu("16").memory("64Gi").gpu(2).used("cpu", "12").build()),
            List.of(gpuHeavy, cpuHeavy),
            List.of(queue("q").policy(JobQueuePolicy.DRF).build()));

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(snapshot, Fixtures.defaultConfiguration(), T0.plusSeconds(10));

    assertThat(result.decision("default/z-cpu").allocations()).containsEntry("z-cpu-w-0", "n1");
    assertThat(result.decision("default/a-gpu").allocations()).doesNotContainKey("a-gpu-w-0");
  }

  /**
   * Equal dominant shares (both hold nothing): the older job goes first, though its name comes
   * second.
   */
  @Test
  void equalSharesFallToTheOlderJob() {
    var young =
        job("a-young")
            .queue("q")
            .created(T0.plusSeconds(1))
            .minWorkers(0)
            .leader("cpu", "1")
            .build();
    var old = job("b-old").queue("q").created(T0).minWorkers(0).leader("cpu", "1").build();
    Snapshot snapshot =
        new Snapshot(
            List.of(node("n1").cpu("1").memory("64Gi").build()),
            List.of(young, old),
            List.of(queue("q").policy(JobQueuePolicy.DRF).build()));

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(snapshot, Fixtures.defaultConfiguration(), T0.plusSeconds(10));

    assertThat(result.decision("default/b-old").allocations()).containsEntry("b-old-learner", "n1");
    assertThat(result.decision("default/a-young").allocations()).isEmpty();
  }
}
