package io.tyrl.arranger.scheduler.actions;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.LabelSelector;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.PlacementConstraints;
import io.tyrl.arranger.scheduler.api.PodAffinity;
import io.tyrl.arranger.scheduler.api.PodAffinityTerm;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Preemption respects the preemptor's required pod anti-affinity, and other pods' against it, as
 * kube-scheduler's does (its filters run with the victims removed): the pod it must avoid is the
 * victim, not another one beside it, and a pod kept off a node by nothing but such a conflict
 * preempts too.
 */
class PreemptAntiAffinityTest {

  private static final String HOST = "kubernetes.io/hostname";
  private static final String GPU = Resource.GPU;

  private static NodeInfo gpuNode(String name) {
    return node(name).cpu("16").memory("64Gi").gpu(8).label(HOST, name).build();
  }

  /** A running one-pod job of priority 1 on the node, its pod labelled {@code app=<app>}. */
  private static JobInfo running(String name, String app, int gpus, int createdSecond, String on) {
    return labelled(
        job(name)
            .created(T0.plusSeconds(createdSecond))
            .priority(1)
            .minWorkers(0)
            .leader("cpu", "1", GPU, Integer.toString(gpus))
            .stage(Stage.RUNNING)
            .running(on, 0)
            .build(),
        PlacementConstraints.NONE,
        app);
  }

  /** A one-pod job of priority 9 that must not share a host with an {@code app=db} pod. */
  private static JobInfo avoidingDb(int gpus) {
    PodAffinityTerm db = PodAffinityTerm.of(LabelSelector.matchLabels("app", "db"), HOST);
    return labelled(
        job("web")
            .created(T0.plusSeconds(50))
            .priority(9)
            .minWorkers(0)
            .leader("cpu", "1", GPU, Integer.toString(gpus))
            .build(),
        PlacementConstraints.NONE.withPodAffinity(PodAffinity.NONE.withRequiredAnti(List.of(db))),
        "web");
  }

  private static JobInfo labelled(JobInfo job, PlacementConstraints constraints, String app) {
    return job.toBuilder()
        .tasks(
            job.tasks().stream()
                .map(task -> task.withConstraints(constraints).withLabels(Map.of("app", app)))
                .toList())
        .build();
  }

  private static CycleResult cycle(List<NodeInfo> nodes, JobInfo... jobs) {
    return Fixtures.scheduler()
        .runCycle(
            Fixtures.snapshot(nodes, List.of(jobs)),
            Fixtures.preemptingConfiguration(),
            T0.plusSeconds(100));
  }

  private static Set<String> victimJobs(CycleResult result) {
    Set<String> jobs = new TreeSet<>();
    result.allVictims().forEach(victim -> jobs.add(victim.jobKey()));
    return jobs;
  }

  /**
   * The node is full with a db pod and a younger filler, both of priority 1. By room alone the
   * filler (the youngest) would go and the preemptor would be pipelined next to the db pod it must
   * avoid; the db pod goes instead, and the filler stays.
   */
  @Test
  void thePodToAvoidIsTheVictimNotAnotherBesideIt() {
    CycleResult result =
        cycle(
            List.of(gpuNode("n1")),
            running("db", "db", 4, 0, "n1"),
            running("filler", "batch", 4, 10, "n1"),
            avoidingDb(4));

    assertThat(victimJobs(result)).containsExactly("default/db");
    assertThat(result.decision("default/web").reason()).isEqualTo(ReasonCode.WAITING_FOR_VICTIMS);
  }

  /** Room enough, and only the db pod in the way: it is preempted. */
  @Test
  void aPodKeptOffOnlyByAnAntiAffinityConflictPreempts() {
    CycleResult result =
        cycle(List.of(gpuNode("n1")), running("db", "db", 2, 0, "n1"), avoidingDb(2));

    assertThat(victimJobs(result)).containsExactly("default/db");
    assertThat(result.decision("default/web").reason()).isEqualTo(ReasonCode.WAITING_FOR_VICTIMS);
  }

  /**
   * The db pod's job may not be a victim: nothing is evicted for a node the preemptor could not use
   * anyway.
   */
  @Test
  void aConflictThatMayNotBeEvictedKeepsTheNodeOutOfThePlan() {
    JobInfo protectedDb = running("db", "db", 4, 0, "n1").toBuilder().preemptable(false).build();
    CycleResult result =
        cycle(
            List.of(gpuNode("n1")),
            protectedDb,
            running("filler", "batch", 4, 10, "n1"),
            avoidingDb(4));

    assertThat(victimJobs(result)).isEmpty();
    assertThat(result.decision("default/web").allocations()).isEmpty();
  }

  /** A pod with an anti-affinity against the preemptor keeps it away just the same. */
  @Test
  void aRunningPodsOwnAntiAffinityAgainstThePreemptorMakesItTheVictim() {
    PodAffinityTerm web = PodAffinityTerm.of(LabelSelector.matchLabels("app", "web"), HOST);
    JobInfo shy =
        labelled(
            job("shy")
                .created(T0)
                .priority(1)
                .minWorkers(0)
                .leader("cpu", "1", GPU, "2")
                .stage(Stage.RUNNING)
                .running("n1", 0)
                .build(),
            PlacementConstraints.NONE.withPodAffinity(
                PodAffinity.NONE.withRequiredAnti(List.of(web))),
            "shy");
    JobInfo plainWeb =
        labelled(
            job("web")
                .created(T0.plusSeconds(50))
                .priority(9)
                .minWorkers(0)
                .leader("cpu", "1", GPU, "2")
                .build(),
            PlacementConstraints.NONE,
            "web");

    CycleResult result = cycle(List.of(gpuNode("n1")), shy, plainWeb);

    assertThat(victimJobs(result)).containsExactly("default/shy");
  }
}
