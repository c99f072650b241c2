package io.tyrl.arranger.scheduler.framework;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.sim.DecisionChecks;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * GPUs as devices counted in milli-GPU: snapshot in, the default configuration's decisions out,
 * then the devices the session gave each placed pod. In every row, no device holds more than one
 * GPU and no whole-GPU pod shares a device.
 */
class GpuDeviceAccountingTest {

  /**
   * @param placed how many pods of job {@code j} the cycle places (its earlier allocations
   *     included)
   * @param message a part of the job's status message, or "" when it is placed whole
   */
  record Row(
      String description,
      List<NodeInfo> nodes,
      List<JobInfo> jobs,
      List<QueueInfo> queues,
      int placed,
      String message) {
    @Override
    public String toString() {
      return description;
    }
  }

  private static NodeInfo gpuNode(String name, int gpus) {
    return node(name).cpu("32").memory("128Gi").gpu(gpus).build();
  }

  static Stream<Row> rows() {
    return Stream.of(
        new Row(
            "four quarter-GPU actors share one device; the fifth finds no device with room",
            List.of(gpuNode("n1", 1)),
            List.of(
                job("j")
                    .minWorkers(1)
                    .leader("cpu", "1")
                    .workers("actor", 5, "cpu", "1", Resource.GPU, "250m")
                    .build()),
            List.of(),
            5,
            "Insufficient nvidia.com/gpu"),
        new Row(
            "shares never add up beyond one device: two GPUs hold two 600m actors, not three",
            List.of(gpuNode("n1", 2)),
            List.of(
                job("j")
                    .minWorkers(1)
                    .leader("cpu", "1")
                    .workers("actor", 3, "cpu", "1", Resource.GPU, "600m")
                    .build()),
            List.of(),
            3,
            "no GPU with 600m free"),
        new Row(
            "a whole-GPU learner never takes a shared device, though 1200m GPU is free in all",
            List.of(gpuNode("n1", 3)),
            List.of(
                job("sharers")
                    .minWorkers(3)
                    .leader("cpu", "1")
                    .workers("actor", 3, "cpu", "1", Resource.GPU, "600m")
                    .running("n1", 3)
                    .build(),
                job("j").minWorkers(0).leader("cpu", "1", Resource.GPU, "1").build()),
            List.of(),
            0,
            "fewer than 1 whole GPU free"),
        new Row(
            "a whole-GPU learner takes the device the sharers left whole",
            List.of(gpuNode("n1", 2)),
            List.of(
                job("sharers")
                    .minWorkers(2)
                    .leader("cpu", "1")
                    .workers("actor", 2, "cpu", "1", Resource.GPU, "300m")
                    .running("n1", 2)
                    .build(),
                job("j").minWorkers(0).leader("cpu", "1", Resource.GPU, "1").build()),
            List.of(),
            1,
            ""),
        new Row(
            "a gang minimum counts milli-GPU: four 250m actors do not fit the 750m left",
            List.of(gpuNode("n1", 1)),
            List.of(
                job("other")
                    .minWorkers(1)
                    .leader("cpu", "1")
                    .workers("actor", 1, "cpu", "1", Resource.GPU, "250m")
                    .running("n1", 1)
                    .build(),
                job("j")
                    .gang(GangMode.STRICT)
                    .minWorkers(4)
                    .leader("cpu", "1")
                    .workers("actor", 4, "cpu", "1", Resource.GPU, "250m")
                    .build()),
            List.of(),
            0,
            "nvidia.com/gpu"),
        new Row(
            "a queue capability of 500m GPU holds two 250m actors",
            List.of(gpuNode("n1", 2)),
            List.of(
                job("j")
                    .queue("capped")
                    .minWorkers(1)
                    .leader("cpu", "1")
                    .workers("actor", 4, "cpu", "1", Resource.GPU, "250m")
                    .build()),
            List.of(queue("capped").capability(Resource.GPU, "500m").build()),
            3,
            "holds 500m of 500m nvidia.com/gpu"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void devicesHoldAtMostOneGpuAndWholeGpuPodsNeverShare(Row row) {
    Snapshot snapshot = new Snapshot(row.nodes(), row.jobs(), row.queues());
    CycleResult result =
        Fixtures.scheduler().runCycle(snapshot, Fixtures.defaultConfiguration(), T0);

    assertThat(DecisionChecks.overCommitments(snapshot, result)).isEmpty();
    JobDecision decision = result.decision("default/j");
    assertThat(decision.allocations()).as(decision.message()).hasSize(row.placed());
    if (row.message().isEmpty()) {
      assertThat(decision.message()).isEmpty();
    } else {
      assertThat(decision.message()).contains(row.message());
    }
    assertDevicesHold(placedAgain(snapshot, result));
  }

  /**
   * The cycle's placements as the next snapshot's allocations: the session that reads them counts
   * each pod on a device again, and every device still holds at most one GPU.
   */
  private static Session placedAgain(Snapshot snapshot, CycleResult result) {
    List<JobInfo> jobs = new ArrayList<>();
    for (JobInfo job : snapshot.jobs()) {
      Map<String, String> allocations = result.decision(job.key()).allocations();
      List<TaskInfo> tasks = new ArrayList<>();
      for (TaskInfo task : job.tasks()) {
        String node = allocations.get(task.podName());
        tasks.add(
            node == null
                ? task.withStatus(io.tyrl.arranger.scheduler.api.TaskStatus.PENDING, null)
                : task.withStatus(io.tyrl.arranger.scheduler.api.TaskStatus.ALLOCATED, node));
      }
      jobs.add(job.toBuilder().tasks(tasks).build());
    }
    return new Session(new Snapshot(snapshot.nodes(), jobs, snapshot.queues()), T0);
  }

  /** No device above one GPU; a whole-GPU pod alone on each of its devices. */
  static void assertDevicesHold(Session session) {
    int gpu = session.dimensions().indexOf(Resource.GPU);
    Map<NodeState, long[]> byDevice = new HashMap<>();
    Map<NodeState, int[]> podsByDevice = new HashMap<>();
    List<TaskState> wholes = new ArrayList<>();
    for (JobState job : session.jobs()) {
      for (TaskState task : job.tasks()) {
        if (task.node() == null || gpu < 0 || task.request(gpu) == 0) {
          continue;
        }
        NodeState node = task.node();
        long[] held = byDevice.computeIfAbsent(node, n -> new long[n.gpuDevices().count()]);
        int[] pods = podsByDevice.computeIfAbsent(node, n -> new int[n.gpuDevices().count()]);
        assertThat(task.gpuDevices()).isNotEmpty();
        for (int d : task.gpuDevices()) {
          held[d] += GpuDevices.sharePerDevice(task.request(gpu));
          pods[d]++;
        }
        if (!GpuDevices.isFraction(task.request(gpu))) {
          wholes.add(task);
          assertThat(task.gpuDevices()).hasSize((int) (task.request(gpu) / GpuDevices.WHOLE));
        }
      }
    }
    byDevice.forEach(
        (node, held) -> {
          for (int d = 0; d < held.length; d++) {
            assertThat(held[d]).as("%s device %d", node, d).isLessThanOrEqualTo(GpuDevices.WHOLE);
            assertThat(node.gpuDevices().held(d)).isEqualTo(held[d]);
          }
        });
    for (TaskState whole : wholes) {
      for (int d : whole.gpuDevices()) {
        assertThat(podsByDevice.get(whole.node())[d]).as("pods on %s's device", whole).isOne();
      }
    }
  }

  @Test
  void aVictimFreesItsShareOfItsDeviceOnceGoneAndAPipelinedShareClaimsIt() {
    Snapshot snapshot =
        new Snapshot(
            List.of(gpuNode("n1", 1)),
            List.of(
                job("low")
                    .minWorkers(1)
                    .leader("cpu", "1")
                    .workers("actor", 4, "cpu", "1", Resource.GPU, "250m")
                    .running("n1", 4)
                    .build(),
                job("high").minWorkers(0).leader("cpu", "1", Resource.GPU, "500m").build()),
            List.of());
    Session session = new Session(snapshot, T0);
    NodeState node = session.node("n1").orElseThrow();
    GpuDevices devices = node.gpuDevices();
    assertThat(devices.freeNow(0)).isZero();
    TaskState victim = session.job("default/low").orElseThrow().tasks().get(4);
    TaskState preemptor = session.job("default/high").orElseThrow().tasks().get(0);

    Statement statement = session.newStatement();
    statement.evict(victim);
    assertThat(devices.freeNow(0)).as("the victim holds its share until it is gone").isZero();
    assertThat(devices.freeLater(0)).isEqualTo(250);
    assertThat(node.fitsFutureIdle(preemptor)).as("250m freed, 500m asked").isFalse();

    statement.evict(session.job("default/low").orElseThrow().tasks().get(3));
    assertThat(devices.freeLater(0)).isEqualTo(500);
    assertThat(node.fitsFutureIdle(preemptor)).isTrue();
    statement.pipeline(preemptor, node);
    assertThat(preemptor.gpuDevices()).containsExactly(0);
    assertThat(devices.freeLater(0))
        .as("the pipelined share claims what the victims free")
        .isZero();

    statement.discard();
    assertThat(devices.freeLater(0)).isZero();
    assertThat(devices.freeNow(0)).isZero();
    assertThat(devices.held(0)).isEqualTo(GpuDevices.WHOLE);
    assertThat(preemptor.gpuDevices()).isEmpty();
  }

  @Test
  void preemptionEvictsOnlyTheSharesOnTheDeviceThePreemptorWillUse() {
    // Two devices, each with four 250m actors of a low job; a whole-GPU learner needs one device
    // emptied: four victims on one device, not two on each.
    Snapshot snapshot =
        new Snapshot(
            List.of(gpuNode("n1", 2)),
            List.of(
                job("low")
                    .priority(1)
                    .minWorkers(0)
                    .leader("cpu", "1")
                    .workers("actor", 8, "cpu", "1", Resource.GPU, "250m")
                    .running("n1", 8)
                    .build(),
                job("j")
                    .priority(9)
                    .created(T0.plusSeconds(5))
                    .minWorkers(0)
                    .leader("cpu", "1", Resource.GPU, "1")
                    .build()),
            List.of());
    Session before = new Session(snapshot, T0);
    Map<String, Integer> deviceOf = new HashMap<>();
    for (TaskState task : before.job("default/low").orElseThrow().tasks()) {
      if (task.gpuDevices().length > 0) {
        deviceOf.put(task.podName(), task.gpuDevices()[0]);
      }
    }

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(snapshot, Fixtures.preemptingConfiguration(), T0.plusSeconds(60));

    List<String> victims =
        result.allVictims().stream().flatMap(victim -> victim.pods().stream()).toList();
    assertThat(victims).hasSize(4);
    assertThat(victims.stream().map(deviceOf::get).distinct()).hasSize(1);
    assertThat(DecisionChecks.overCommitments(snapshot, result)).isEmpty();
  }

  @Test
  void aShareAboveOneGpuThatIsNotWholeIsRefusedNamingThePod() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> TaskInfo.worker("j", "actor", 0, Resource.of(Resource.GPU, "1500m")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("j-actor-0")
        .hasMessageContaining("nvidia.com/gpu 1500m");
  }
}
