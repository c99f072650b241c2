package io.tyrl.arranger.scheduler.framework;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static io.tyrl.arranger.scheduler.sim.Fixtures.queue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.sim.ClusterSimulator;
import io.tyrl.arranger.scheduler.sim.DecisionChecks;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * GPU sharing over many cycles of the default configuration, each run on the snapshot the previous
 * one left: jobs of four shapes (quarter-GPU actors, 600m and 400m actors, a whole-GPU learner with
 * a quarter-GPU actor) arrive one or two a cycle and end a few cycles after they are placed; two
 * nodes start full of other owners' pods and are freed one at a time (cycles 10 and 25), and a
 * second queue arrives at cycle 15 and gets every other job from then on. In every cycle no node is
 * over-committed, the next snapshot seats every placed pod on devices that hold at most one GPU
 * with whole-GPU pods alone, a share stays on the device recorded for it for as long as its pod
 * stays on its node; nothing is evicted before the second queue exists, and once arrivals stop
 * every job runs.
 */
class GpuSharingOverTimeTest {

  private static final int ARRIVING_CYCLES = 60;
  private static final int DRAINING_CYCLES = 60;

  private static JobInfo arriving(Random random, int cycle, int index) {
    String name = "j" + cycle + "-" + index;
    Fixtures.JobBuilder job =
        job(name).created(T0.plusSeconds(cycle)).minWorkers(1).leader("cpu", "1");
    return switch (random.nextInt(4)) {
      case 0 -> job.workers("actor", 3, "cpu", "1", Resource.GPU, "250m").build();
      case 1 -> job.workers("actor", 1, "cpu", "1", Resource.GPU, "600m").build();
      case 2 -> job.workers("actor", 2, "cpu", "1", Resource.GPU, "400m").build();
      default ->
          job(name)
              .created(T0.plusSeconds(cycle))
              .minWorkers(1)
              .leader("cpu", "1", Resource.GPU, "1")
              .workers("actor", 1, "cpu", "1", Resource.GPU, "250m")
              .build();
    };
  }

  private static final int[] NODE_FREED_CYCLES = {10, 25};
  private static final int SECOND_QUEUE_CYCLE = 15;

  private static NodeInfo gpuNode(int index, boolean heldByOthers) {
    Fixtures.NodeBuilder node = node("n" + index).cpu("32").memory("128Gi").gpu(2);
    return heldByOthers ? node.used(Resource.GPU, "2").build() : node.build();
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(ints = {1, 2, 3})
  void sharesStayWithinTheirDevicesCycleAfterCycle(int seed) {
    // n2 and n3 start with both GPUs held by pods of other owners, which leave one node at a time.
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(gpuNode(i, i >= 2));
    }
    ClusterSimulator cluster =
        new ClusterSimulator(
                Fixtures.scheduler(), Fixtures.defaultConfiguration(), nodes, List.of(), List.of())
            .followingControllerStages();
    Random random = new Random(seed);
    Map<String, Integer> endsAt = new HashMap<>();
    int victims = 0;
    long peakMilliGpu = 0;
    int victimsBeforeSecondQueue = 0;
    Map<String, String> seats = Map.of();
    int seatsKept = 0;
    for (int cycle = 1; cycle <= ARRIVING_CYCLES + DRAINING_CYCLES; cycle++) {
      if (cycle == NODE_FREED_CYCLES[0] || cycle == NODE_FREED_CYCLES[1]) {
        int freed = cycle == NODE_FREED_CYCLES[0] ? 2 : 3;
        nodes.set(freed, gpuNode(freed, false));
        cluster.replaceNodes(nodes);
      }
      if (cycle == SECOND_QUEUE_CYCLE) {
        victimsBeforeSecondQueue = victims;
        cluster.putQueue(queue("b").build());
      }
      // One or two jobs a cycle: about as many GPUs asked for as the cluster has; from the second
      // queue's arrival on, every other job is its.
      for (int j = 0; cycle <= ARRIVING_CYCLES && j < 1 + random.nextInt(2); j++) {
        JobInfo job = arriving(random, cycle, j);
        boolean toB = cycle >= SECOND_QUEUE_CYCLE && (cycle + j) % 2 == 0;
        cluster.submit(toB ? job.toBuilder().queue("b").build() : job);
      }
      for (Map.Entry<String, Integer> end : Map.copyOf(endsAt).entrySet()) {
        if (end.getValue() == cycle) {
          cluster.complete(end.getKey());
          endsAt.remove(end.getKey());
        }
      }
      Instant now = T0.plusSeconds(cycle);
      CycleResult result = cluster.cycle(now);
      Snapshot ran = cluster.lastSnapshot();

      assertThat(DecisionChecks.overCommitments(ran, result)).as("cycle %d", cycle).isEmpty();
      victims += result.allVictims().size();
      for (JobInfo job : cluster.jobs()) {
        if (!endsAt.containsKey(job.key())
            && job.tasks().stream().allMatch(task -> task.nodeName() != null)) {
          endsAt.put(job.key(), cycle + 3 + random.nextInt(4));
        }
      }
      Map<String, String> nextSeats = seats(cluster.jobs());
      for (Map.Entry<String, String> seat : nextSeats.entrySet()) {
        String before = seats.get(seat.getKey());
        if (before != null && nodeOf(before).equals(nodeOf(seat.getValue()))) {
          assertThat(seat.getValue())
              .as(
                  "cycle %d: %s's share stays on its device while it stays on its node",
                  cycle, seat.getKey())
              .isEqualTo(before);
          seatsKept++;
        }
      }
      seats = nextSeats;
      Session next = new Session(new Snapshot(nodes, cluster.jobs(), List.of()), now);
      GpuDeviceAccountingTest.assertDevicesHold(next);
      long milliGpu = 0;
      for (NodeState node : next.nodes()) {
        for (int d = 0; d < node.gpuDevices().count(); d++) {
          milliGpu += node.gpuDevices().held(d);
        }
      }
      peakMilliGpu = Math.max(peakMilliGpu, milliGpu);
    }

    assertThat(seatsKept).as("shares followed from cycle to cycle").isGreaterThan(100);
    assertThat(peakMilliGpu).as("the 8 GPUs were contended, not idle").isGreaterThanOrEqualTo(7000);
    assertThat(victimsBeforeSecondQueue)
        .as("pods evicted while one queue without priorities had the cluster")
        .isZero();
    assertThat(cluster.jobs())
        .as("every job placed and ended once arrivals stopped")
        .allSatisfy(job -> assertThat(endsAt).containsKey(job.key()));
  }

  /** Every pod on a node holding a share → "node#device", as the decisions recorded it. */
  private static Map<String, String> seats(List<JobInfo> jobs) {
    Map<String, String> seats = new HashMap<>();
    for (JobInfo job : jobs) {
      for (TaskInfo task : job.tasks()) {
        Integer device = job.gpuDevices().get(task.podName());
        if (task.nodeName() != null && device != null) {
          seats.put(job.key() + "/" + task.podName(), task.nodeName() + "#" + device);
        }
      }
    }
    return seats;
  }

  private static String nodeOf(String seat) {
    return seat.substring(0, seat.indexOf('#'));
  }
}
