package io.tyrl.arranger.controller.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.tyrl.arranger.controller.lifecycle.observe.ContainerView;
import io.tyrl.arranger.controller.lifecycle.observe.JobSpecView;
import io.tyrl.arranger.controller.lifecycle.observe.JobView;
import io.tyrl.arranger.controller.lifecycle.observe.LeaderSpecView;
import io.tyrl.arranger.controller.lifecycle.observe.PodTemplateView;
import io.tyrl.arranger.controller.lifecycle.observe.PodView;
import io.tyrl.arranger.controller.lifecycle.observe.SchedulerStatusView;
import io.tyrl.arranger.controller.lifecycle.observe.WorkerSetSpecView;
import io.tyrl.arranger.controller.lifecycle.plan.Plan;
import io.tyrl.arranger.controller.lifecycle.status.ControllerStatus;
import io.tyrl.arranger.controller.lifecycle.status.LeaderSummary;
import io.tyrl.arranger.controller.lifecycle.status.PodPhase;
import io.tyrl.arranger.controller.lifecycle.status.WorkerSetSummary;
import io.tyrl.arranger.crd.contract.PodNames;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Plans thousands of generated jobs — valid and malformed specs, every stage and schedule state,
 * arbitrary pods and allocations — and checks the invariants every plan must keep. Seeds are fixed
 * so a failure reproduces.
 */
class PlannerRobustnessTest {

  private static final List<String> NAMES =
      List.of("train", "actor", "critic", "learner", "actor-1", "", "Bad_Name", "x".repeat(70));
  private static final List<String> POLICIES = List.of("All", "Running", "None", "", "Sometimes");
  private static final List<String> QUANTITIES = List.of("1", "500m", "2Gi", "lots", "-1", "");
  private static final List<String> REASONS =
      List.of("Error", "Evicted", "OutOfcpu", "NodeAffinity", "OutOf", "");

  private final LifecyclePlanner planner = new LifecyclePlanner();

  static Stream<Long> seeds() {
    return IntStream.range(0, 40).mapToObj(seed -> (long) seed);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void everyPlanKeepsTheInvariants(long seed) {
    Random random = new Random(seed);
    for (int i = 0; i < 100; i++) {
      JobView job = randomJob(random);
      List<PodView> pods = randomPods(random, job);

      Plan[] plan = new Plan[1];
      assertThatCode(() -> plan[0] = planner.plan(job, pods, PlanCase.NOW))
          .as("job %s", job)
          .doesNotThrowAnyException();

      Set<String> existing = pods.stream().map(PodView::name).collect(Collectors.toSet());
      assertThat(plan[0].creates())
          .as("creates of existing pods for %s", job)
          .noneMatch(create -> existing.contains(create.podName()));
      assertThat(plan[0].creates())
          .as("creates only where the scheduler placed the pod")
          .allMatch(
              create ->
                  create.nodeName().equals(job.scheduler().allocations().get(create.podName())));
      assertThat(plan[0].deletes())
          .as("deletes of pods being deleted or absent")
          .allMatch(
              delete ->
                  pods.stream()
                      .anyMatch(pod -> pod.name().equals(delete.podName()) && !pod.deleting()));
      if (job.status().stage().isTerminal()) {
        assertThat(plan[0].stage()).isEqualTo(job.status().stage());
        assertThat(plan[0].creates()).isEmpty();
        assertThat(plan[0].releases()).isEmpty();
        assertThat(plan[0].events()).isEmpty();
      }
      if (plan[0].stage().isTerminal()) {
        assertThat(plan[0].creates()).as("an ended job creates nothing").isEmpty();
      }
      assertThat(planner.plan(job, pods, PlanCase.NOW)).as("deterministic").isEqualTo(plan[0]);
    }
  }

  private static <T> T pick(Random random, List<T> values) {
    return values.get(random.nextInt(values.size()));
  }

  private static <T> T pick(Random random, T[] values) {
    return values[random.nextInt(values.length)];
  }

  private static PodTemplateView randomTemplate(Random random) {
    List<ContainerView> containers = new ArrayList<>();
    int count = random.nextInt(3);
    for (int i = 0; i < count; i++) {
      containers.add(
          new ContainerView(
              pick(random, List.of("main", "side", "")),
              Map.of("cpu", pick(random, QUANTITIES)),
              random.nextBoolean() ? Map.of() : Map.of("cpu", pick(random, QUANTITIES))));
    }
    return new PodTemplateView(containers, List.of());
  }

  private static JobView randomJob(Random random) {
    List<WorkerSetSpecView> workerSets = new ArrayList<>();
    int sets = random.nextInt(4);
    for (int i = 0; i < sets; i++) {
      workerSets.add(
          new WorkerSetSpecView(
              pick(random, NAMES), random.nextInt(6) - 1, randomTemplate(random)));
    }
    JobSpecView spec =
        new JobSpecView(
            new LeaderSpecView(pick(random, NAMES), randomTemplate(random)),
            workerSets,
            random.nextInt(5) - 1,
            random.nextInt(7) - 1,
            pick(random, POLICIES),
            random.nextInt(8) == 0);
    String jobName = random.nextInt(10) == 0 ? pick(random, NAMES) : "train";
    Map<String, String> allocations = new LinkedHashMap<>();
    for (String podName : candidatePodNames(jobName, spec)) {
      if (random.nextBoolean()) {
        allocations.put(podName, pick(random, List.of("node-a", "node-b")));
      }
    }
    Map<String, Integer> restarts = new LinkedHashMap<>();
    workerSets.forEach(set -> restarts.put(set.name(), random.nextInt(5)));
    ControllerStatus status =
        new ControllerStatus(
            pick(random, Stage.values()),
            List.of(),
            new LeaderSummary(
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                random.nextBoolean()
                    ? Optional.of(pick(random, PodPhase.values()))
                    : Optional.empty(),
                random.nextInt(5)),
            restarts.entrySet().stream()
                .map(e -> new WorkerSetSummary(e.getKey(), 0, 0, 0, e.getValue()))
                .toList(),
            0,
            Optional.empty(),
            Optional.empty(),
            1);
    return new JobView(
        "ns",
        jobName,
        1,
        spec,
        new SchedulerStatusView(
            pick(random, ScheduleState.values()), allocations, Optional.empty(), Optional.empty()),
        status);
  }

  private static List<String> candidatePodNames(String jobName, JobSpecView spec) {
    List<String> names = new ArrayList<>();
    names.add(PodNames.leader(jobName, spec.leader().name()));
    for (WorkerSetSpecView set : spec.workerSets()) {
      for (int index = 0; index <= Math.max(0, set.counts()); index++) {
        names.add(PodNames.worker(jobName, set.name(), index));
      }
    }
    return names;
  }

  private static List<PodView> randomPods(Random random, JobView job) {
    List<PodView> pods = new ArrayList<>();
    for (String name : candidatePodNames(job.name(), job.spec())) {
      if (random.nextInt(3) == 0) {
        continue;
      }
      pods.add(
          new PodView(
              name,
              pick(random, PodPhase.values()),
              random.nextBoolean(),
              random.nextBoolean() ? Optional.of("10.0.0.1") : Optional.empty(),
              random.nextBoolean()
                  ? Optional.of(pick(random, List.of("node-a", "node-b")))
                  : Optional.empty(),
              random.nextInt(4) == 0,
              random.nextBoolean() ? Optional.of(pick(random, REASONS)) : Optional.empty()));
    }
    return pods;
  }
}
