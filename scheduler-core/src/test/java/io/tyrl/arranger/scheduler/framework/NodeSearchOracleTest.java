package io.tyrl.arranger.scheduler.framework;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TaintEffect;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The node search keeps memories to be fast — candidate lists per constraints, nodes found
 * exhausted, requests that fitted nowhere, counts of room that fell short — and forgets them on a
 * release or a discarded statement. None of that may change an answer: over random sequences of
 * allocations, evictions, placements taken back, pipelining, commits and discards, every answer of
 * an exact search equals what a plain walk over all nodes gives (the oracle below, which keeps no
 * memory) — except what is remembered of a request that fell short since the last release (its
 * count of room, why nodes refused it), which placements since may have made stale: the count is
 * then an upper bound.
 */
class NodeSearchOracleTest {

  private static final String DENSE_PACKING =
      """
      actions: "enqueue, allocate, backfill"
      tiers:
        - plugins:
            - name: priority
            - name: gang
        - plugins:
            - name: predicates
            - name: proportion
            - name: nodeorder
              arguments:
                defaultPolicy: BinPack
                gangPolicy: BinPack
      """;

  static Stream<Arguments> seeds() {
    List<Arguments> cases = new ArrayList<>();
    for (long seed = 1; seed <= 12; seed++) {
      cases.add(Arguments.of(seed, "default"));
      cases.add(Arguments.of(seed, "binpack"));
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "seed {0}, {1}")
  @MethodSource("seeds")
  void everyAnswerEqualsAWalkOverAllNodes(long seed, String policy) {
    Random random = new Random(seed);
    SchedulerConfiguration configuration =
        policy.equals("default")
            ? Fixtures.defaultConfiguration()
            : Fixtures.configuration(DENSE_PACKING);
    Session session = Fixtures.scheduler().openSession(randomSnapshot(random), configuration, T0);
    NodeSearch search = session.nodeSearch();
    List<TaskState> tasks = session.jobs().stream().flatMap(j -> j.tasks().stream()).toList();

    Statement open = null;
    for (int step = 0; step < 400; step++) {
      TaskState task = tasks.get(random.nextInt(tasks.size()));
      if (open == null || open.isClosed()) {
        open = session.newStatement();
      }
      int action = random.nextInt(10);
      String where = "seed " + seed + " step " + step + " task " + task;
      if (task.isPending()) {
        NodeSearch.Result result = search.findBest(task, 0, 100);
        assertThat(nameOf(result.node()))
            .as("findBest, %s", where)
            .isEqualTo(nameOf(bestNode(session, task)));
        // Why a request fitted nowhere is remembered until a release; placements since may change
        // the counts.
        NodeSearch.Result searchedAfresh =
            new NodeSearch(session, session.smallestRequest()).findBest(task, 0, 100);
        assertThat(nameOf(searchedAfresh.node()))
            .as("findBest afresh, %s", where)
            .isEqualTo(nameOf(result.node()));
        assertThat(searchedAfresh.diagnosis())
            .as("diagnosis, %s", where)
            .isEqualTo(result.found() ? null : diagnosis(session, task));
        assertThat(result.diagnosis() != null)
            .as("a diagnosis exactly when none fits, %s", where)
            .isEqualTo(!result.found());
        int wanted = 1 + random.nextInt(12);
        int expectedRoom = (int) Math.min(wanted, room(session, task));
        NodeSearch.Room counted =
            new NodeSearch(session, session.smallestRequest()).roomFor(task, wanted);
        assertThat(counted.pods())
            .as("roomFor %d counted afresh, %s", wanted, where)
            .isEqualTo(expectedRoom);
        assertThat(counted.diagnosis())
            .as("roomFor's diagnosis, %s", where)
            .isEqualTo(expectedRoom < wanted ? diagnosis(session, task) : null);
        // A count remembered since the last release may be stale by the placements made since: an
        // upper bound.
        NodeSearch.Room remembered = search.roomFor(task, wanted);
        assertThat(remembered.pods())
            .as("roomFor %d, %s", wanted, where)
            .isBetween(expectedRoom, wanted);
        assertThat(remembered.diagnosis() != null)
            .as("roomFor's diagnosis when short, %s", where)
            .isEqualTo(remembered.pods() < wanted);
        assertThat(search.neverFitsReason(task).isPresent())
            .as("never fits, %s", where)
            .isEqualTo(neverFits(session, task));
        NodeState releasing = search.findBestReleasing(task);
        assertThat(nameOf(releasing))
            .as("findBestReleasing, %s", where)
            .isEqualTo(nameOf(bestReleasing(session, task)));
        if (result.found() && action < 6) {
          open.allocate(task, result.node());
        } else if (releasing != null && action < 8) {
          open.pipeline(task, releasing);
        }
      } else if (task.status() == TaskStatus.ALLOCATED && action < 3) {
        open.evict(task);
      } else if (task.status() == TaskStatus.ALLOCATED
          && !task.isAllocatedSinceEarlierCycle()
          && action < 6) {
        open.unallocate(task);
      }
      int close = random.nextInt(6);
      if (close == 0) {
        open.commit();
      } else if (close == 1) {
        open.discard();
      }
    }
  }

  private static Snapshot randomSnapshot(Random random) {
    List<NodeInfo> nodes = new ArrayList<>();
    int nodeCount = 12 + random.nextInt(20);
    for (int i = 0; i < nodeCount; i++) {
      Fixtures.NodeBuilder node =
          node(String.format("node-%02d", i))
              .cpu(String.valueOf(4 + random.nextInt(3) * 4))
              .memory((8 + random.nextInt(4) * 8) + "Gi")
              .gpu(random.nextInt(3) == 0 ? 4 : 0)
              .used("cpu", String.valueOf(random.nextInt(4)));
      switch (random.nextInt(8)) {
        case 0 -> node.taint("dedicated", "infer", TaintEffect.NO_SCHEDULE);
        case 1 -> node.notReady();
        case 2 -> node.label("pool", "a");
        default -> {}
      }
      nodes.add(node.build());
    }
    List<JobInfo> jobs = new ArrayList<>();
    int jobCount = 6 + random.nextInt(6);
    for (int j = 0; j < jobCount; j++) {
      Fixtures.JobBuilder job =
          job("job-" + j)
              .minWorkers(0)
              .leader(
                  "cpu",
                  String.valueOf(1 + random.nextInt(4)),
                  "memory",
                  (1 + random.nextInt(8)) + "Gi")
              .workers(
                  "w",
                  1 + random.nextInt(6),
                  "cpu",
                  String.valueOf(1 + random.nextInt(3)),
                  "nvidia.com/gpu",
                  String.valueOf(random.nextInt(3)));
      if (random.nextInt(4) == 0) {
        job.nodeSelector("pool", "a");
      }
      if (random.nextInt(3) == 0) {
        int worker = random.nextInt(2);
        job.placed("job-" + j + "-w-" + worker, nodes.get(random.nextInt(nodes.size())).name());
      }
      jobs.add(job.build());
    }
    return new Snapshot(nodes, jobs, List.of());
  }

  private static String nameOf(NodeState node) {
    return node == null ? null : node.name();
  }

  private static boolean admitted(Session session, TaskState task, NodeState node) {
    return session.tiers().filter(task.info().constraints(), node).first().fits();
  }

  private static boolean fits(Session session, TaskState task, NodeState node) {
    return admitted(session, task, node) && session.tiers().check(task, node).fits();
  }

  /**
   * The highest score among feasible nodes; on a tie the job's own nodes first, then snapshot
   * order.
   */
  private static NodeState bestNode(Session session, TaskState task) {
    List<NodeState> order = new ArrayList<>();
    for (int index : task.job().nodeIndicesInUse()) {
      order.add(session.nodes().get(index));
    }
    order.addAll(session.nodes());
    NodeState best = null;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (NodeState node : order) {
      if (fits(session, task, node)) {
        double score = session.tiers().score(task, node);
        if (best == null || score > bestScore) {
          best = node;
          bestScore = score;
        }
      }
    }
    return best;
  }

  private static NodeState bestReleasing(Session session, TaskState task) {
    NodeState best = null;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (NodeState node : session.nodes()) {
      if (node.hasReleasing() && admitted(session, task, node) && node.fitsFutureIdle(task)) {
        double score = session.tiers().score(task, node);
        if (best == null || score > bestScore) {
          best = node;
          bestScore = score;
        }
      }
    }
    return best;
  }

  private static FitDiagnosis diagnosis(Session session, TaskState task) {
    Map<String, Integer> rejections = new HashMap<>();
    int fitting = 0;
    for (NodeState node : session.nodes()) {
      PredicateResult result = session.tiers().filter(task.info().constraints(), node).first();
      if (result.fits()) {
        result = session.tiers().check(task, node);
      }
      if (result.fits()) {
        fitting++;
      } else {
        rejections.merge(result.reason(), 1, Integer::sum);
      }
    }
    return new FitDiagnosis(session.nodes().size(), fitting, rejections);
  }

  /**
   * How many pods like the task fit in what each admitting node will have idle once its releases
   * are gone.
   */
  private static long room(Session session, TaskState task) {
    long room = 0;
    for (NodeState node : session.nodes()) {
      if (!admitted(session, task, node)) {
        continue;
      }
      long fitting = Long.MAX_VALUE;
      for (int dimension : task.requestedDimensions()) {
        fitting =
            Math.min(fitting, Math.max(0, node.futureIdle(dimension)) / task.request(dimension));
      }
      room += fitting == Long.MAX_VALUE ? 0 : fitting;
    }
    return room;
  }

  /** Some node admits it for good, and none of those could hold its request even empty. */
  private static boolean neverFits(Session session, TaskState task) {
    boolean admissible = false;
    for (NodeState node : session.nodes()) {
      if (session.tiers().filter(task.info().constraints(), node).permanentlyRejected()) {
        continue;
      }
      admissible = true;
      boolean holds = true;
      for (int dimension : task.requestedDimensions()) {
        holds &= task.request(dimension) <= node.allocatable(dimension);
      }
      if (holds) {
        return false;
      }
    }
    return admissible;
  }
}
