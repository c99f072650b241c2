package io.tyrl.arranger.scheduler.plugins.nodeorder;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fragmentation-aware score in a cycle: two 2-GPU nodes, "shared" holding a 600m actor on one
 * device (400m free there, the other device whole) and "whole" idle; a 300m actor to place (job
 * {@code new}, served first), and pods waiting that make the mix. Where the actor goes with the
 * score off (BinPack alone) and on.
 */
class GpuFragmentationTest {

  private static SchedulerConfiguration withFragmentWeight(int weight) {
    return Fixtures.configuration(
        """
        actions: allocate
        tiers:
          - plugins:
              - name: priority
              - name: gang
              - name: predicates
              - name: nodeorder
                arguments: {gpuFragment.weight: %d}
        configurations:
          - name: allocate
            arguments: {percentageOfNodesToScore: 100}
        """
            .formatted(weight));
  }

  private static JobInfo waiting(int count, String gpu) {
    return job("waiting")
        .priority(1)
        .created(T0.plusSeconds(10))
        .minWorkers(count)
        .leader("cpu", "100m")
        .workers("actor", count, "cpu", "1", Resource.GPU, gpu)
        .build();
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of(
            "400m pods wait: the 300m actor leaves the 400m hole to them and opens a device",
            waiting(20, "400m"),
            "shared",
            "whole"),
        Arguments.of(
            "whole-GPU pods wait: the 300m actor fills the hole and keeps devices whole",
            waiting(20, "1"),
            "shared",
            "shared"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void theScoreKeepsRoomForThePodsTheMixSaysAreComing(
      String description, JobInfo waiting, String withoutScore, String withScore) {
    List<NodeInfo> nodes =
        List.of(
            node("shared").cpu("16").memory("64Gi").gpu(2).build(),
            node("whole").cpu("16").memory("64Gi").gpu(2).build());
    JobInfo running =
        job("running")
            .minWorkers(1)
            .leader("cpu", "100m")
            .workers("actor", 1, "cpu", "1", Resource.GPU, "600m")
            .running("shared", 1)
            .build();
    JobInfo newcomer =
        job("new")
            .priority(9)
            .minWorkers(0)
            .leader("cpu", "100m")
            .workers("actor", 1, "cpu", "1", Resource.GPU, "300m")
            .build();
    List<JobInfo> jobs = new ArrayList<>(List.of(running, waiting, newcomer));
    Snapshot snapshot = new Snapshot(nodes, jobs, List.of());

    assertThat(actorNode(Fixtures.scheduler().runCycle(snapshot, withFragmentWeight(0), T0)))
        .isEqualTo(withoutScore);
    assertThat(actorNode(Fixtures.scheduler().runCycle(snapshot, withFragmentWeight(1), T0)))
        .isEqualTo(withScore);
  }

  /**
   * Two 4-GPU nodes, "used" with one GPU taken, "idle"; a 1-GPU actor to place, and 3-GPU pods
   * waiting. The measure would send the actor to "idle" (on "used" it would leave 2 GPUs no 3-GPU
   * pod can take); BinPack sends it to "used". The measure is taken only once some pod asks a share
   * of a GPU: with whole GPUs alone the order stays BinPack's, and one 500m pod waiting switches it
   * on.
   */
  @ParameterizedTest(name = "a 500m pod waiting: {0}")
  @MethodSource
  void theMeasureIsTakenOnlyWhenSomePodAsksAShare(boolean sharePodWaiting, String expected) {
    List<NodeInfo> nodes =
        List.of(
            node("used").cpu("16").memory("64Gi").gpu(4).build(),
            node("idle").cpu("16").memory("64Gi").gpu(4).build());
    List<JobInfo> jobs = new ArrayList<>();
    jobs.add(
        job("running")
            .minWorkers(1)
            .leader("cpu", "100m")
            .workers("actor", 1, "cpu", "1", Resource.GPU, "1")
            .running("used", 1)
            .build());
    jobs.add(waiting(20, "3"));
    if (sharePodWaiting) {
      jobs.add(
          job("small")
              .priority(1)
              .created(T0.plusSeconds(20))
              .minWorkers(20)
              .leader("cpu", "100m")
              .workers("actor", 20, "cpu", "1", Resource.GPU, "500m")
              .build());
    }
    jobs.add(
        job("new")
            .priority(9)
            .minWorkers(0)
            .leader("cpu", "100m")
            .workers("actor", 1, "cpu", "1", Resource.GPU, "1")
            .build());

    CycleResult result =
        Fixtures.scheduler()
            .runCycle(new Snapshot(nodes, jobs, List.of()), withFragmentWeight(1), T0);

    assertThat(actorNode(result)).isEqualTo(expected);
  }

  static Stream<Arguments> theMeasureIsTakenOnlyWhenSomePodAsksAShare() {
    return Stream.of(Arguments.of(false, "used"), Arguments.of(true, "idle"));
  }

  /**
   * Two 1-GPU nodes and whole-GPU pods waiting; two 500m actors to place. The first leaves half a
   * device no waiting pod can use wherever it goes; the second fills that hole rather than open one
   * on the other node, though the job's node order (JobAntiAffinity) would spread them: the score
   * of the node the first actor went to is measured again after it landed, not kept from before.
   */
  @org.junit.jupiter.api.Test
  void theSecondHalfGpuActorFillsTheHoleTheFirstLeft() {
    List<NodeInfo> nodes =
        List.of(
            node("a").cpu("16").memory("64Gi").gpu(1).build(),
            node("b").cpu("16").memory("64Gi").gpu(1).build());
    JobInfo pair =
        job("new")
            .priority(9)
            .minWorkers(0)
            .basicPolicy(new io.tyrl.arranger.scheduler.api.BasicPolicy("JobAntiAffinity"))
            .leader("cpu", "100m")
            .workers("actor", 2, "cpu", "1", Resource.GPU, "500m")
            .build();
    Snapshot snapshot = new Snapshot(nodes, List.of(waiting(20, "1"), pair), List.of());

    CycleResult result = Fixtures.scheduler().runCycle(snapshot, withFragmentWeight(1), T0);

    var allocations = result.decision("default/new").allocations();
    assertThat(allocations.get("new-actor-1"))
        .as("both actors on one device: %s", allocations)
        .isNotNull()
        .isEqualTo(allocations.get("new-actor-0"));
  }

  private static String actorNode(CycleResult result) {
    return result.decision("default/new").allocations().get("new-actor-0");
  }
}
