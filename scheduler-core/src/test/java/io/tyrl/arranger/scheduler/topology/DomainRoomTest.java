package io.tyrl.arranger.scheduler.topology;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import io.tyrl.arranger.scheduler.api.TopologyLevels;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.NodeState;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.Statement;
import io.tyrl.arranger.scheduler.framework.TaskState;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The free room of a domain, read from the sums kept as the ledgers change, against the same room
 * counted node by node — after every kind of change a session makes, undone ones included.
 */
class DomainRoomTest {

  private static final String ZONE = "topology.kubernetes.io/zone";
  private static final String RACK = "example.com/rack";
  private static final String POOL = "example.com/pool";

  /**
   * Two zones of two racks of three 8-cpu nodes, half of them in pool "a"; one node not ready, one
   * cordoned, one over-committed by pods the scheduler did not place, one releasing, and one node
   * outside every rack.
   */
  private static List<NodeInfo> nodes() {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int z = 1; z <= 2; z++) {
      for (int r = 1; r <= 2; r++) {
        for (int n = 1; n <= 3; n++) {
          String name = "z" + z + "-r" + r + "-n" + n;
          Fixtures.NodeBuilder builder =
              node(name)
                  .cpu("8")
                  .memory("32Gi")
                  .label(ZONE, "z" + z)
                  .label(RACK, "z" + z + "-r" + r)
                  .label(POOL, n % 2 == 1 ? "a" : "b");
          if (name.equals("z1-r1-n1")) {
            builder.notReady();
          } else if (name.equals("z1-r2-n3")) {
            builder.cordoned();
          } else if (name.equals("z2-r1-n1")) {
            builder.used("cpu", "10");
          } else if (name.equals("z2-r2-n3")) {
            builder.used("cpu", "6").releasing("cpu", "4");
          }
          nodes.add(builder.build());
        }
      }
    }
    nodes.add(node("loose").cpu("8").memory("32Gi").label(POOL, "a").build());
    return nodes;
  }

  private static Session session(JobInfo... jobs) {
    return Fixtures.scheduler()
        .openSession(
            new Snapshot(nodes(), List.of(jobs), List.of()),
            Fixtures.defaultConfiguration()
                .withTopologyLevels(new TopologyLevels(List.of(ZONE, RACK))),
            T0);
  }

  /** The room counted node by node, as the gang in pool "a" may use it. */
  private static long freeCpuNodeByNode(Session session, JobState job, Domain domain) {
    long free = 0;
    for (int index : domain.nodes()) {
      NodeState node = session.nodes().get(index);
      boolean admitted =
          node.info().ready()
              && !node.info().unschedulable()
              && "a".equals(node.info().labels().get(POOL));
      boolean heldForOther =
          session.nodeSearch().heldFor(node).map(holder -> holder != job).orElse(false);
      if (admitted && !heldForOther) {
        free += Math.max(0, node.futureIdle(0));
      }
    }
    return free;
  }

  private static JobState gang(Session session) {
    return session.job("default/gang").orElseThrow();
  }

  private static void assertEveryDomainAgrees(Session session) {
    JobState job = gang(session);
    DomainOrder order = new DomainOrder(session, job, GangDemand.of(session, job.minimumRequest()));
    Domains domains = Domains.of(session);
    for (String level : List.of(ZONE, RACK)) {
      for (Domain domain : domains.all(level)) {
        assertThat(order.free(domain)[0])
            .as("%s after the changes so far", domain)
            .isEqualTo(freeCpuNodeByNode(session, job, domain));
      }
    }
    // A rack partitioned from its zone is a different object, counted node by node: the two ways
    // must agree.
    for (Domain zone : domains.all(ZONE)) {
      for (Domain part : domains.partition(zone, RACK)) {
        Domain listed =
            domains.all(RACK).stream().filter(d -> d.name().equals(part.name())).findFirst().get();
        assertThat(order.free(part)).containsExactly(order.free(listed));
      }
    }
  }

  private static JobInfo gangInPoolA() {
    return job("gang")
        .nodeSelector(POOL, "a")
        .leader("cpu", "1")
        .workers("actor", 12, "cpu", "2")
        .build();
  }

  private static JobInfo runningElsewhere() {
    return job("running")
        .leader("cpu", "1")
        .workers("actor", 2, "cpu", "1")
        .running("z2-r1-n3", 2)
        .build();
  }

  @Test
  void aFreshSessionCountsOnlyReadySchedulableAdmittedNodes() {
    Session session = session(gangInPoolA(), runningElsewhere());
    JobState job = gang(session);
    DomainOrder order = new DomainOrder(session, job, GangDemand.of(session, job.minimumRequest()));
    Domain z1r1 = Domains.of(session).all(RACK).get(0);
    // n1 is not ready, n2 is in pool b: only n3's 8 cpu.
    assertThat(z1r1.name()).isEqualTo("z1-r1");
    assertThat(order.free(z1r1)[0]).isEqualTo(8_000);
    assertEveryDomainAgrees(session);
  }

  @Test
  void aRackWhoseEveryNodeIsExcludedHasNoRoom() {
    Session session = session(gangInPoolA(), runningElsewhere());
    JobState job = gang(session);
    Domains domains = Domains.of(session);
    Domain z1r1 = domains.all(RACK).get(0);
    session
        .nodeSearch()
        .hold(new int[] {z1r1.nodes()[2]}, session.job("default/running").get(), "held");
    DomainOrder order = new DomainOrder(session, job, GangDemand.of(session, job.minimumRequest()));
    assertThat(order.free(z1r1)[0]).isZero();
    assertEveryDomainAgrees(session);
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void theKeptSumsFollowEveryChangeASessionMakes(long seed) {
    Session session = session(gangInPoolA(), runningElsewhere());
    Random random = new Random(seed);
    List<NodeState> nodes = session.nodes();
    List<TaskState> pending = new ArrayList<>(gang(session).tasks());
    List<TaskState> running = new ArrayList<>(session.job("default/running").get().tasks());
    assertEveryDomainAgrees(session);
    for (int step = 0; step < 40; step++) {
      Statement statement = session.newStatement();
      Statement.Savepoint start = statement.savepoint();
      List<TaskState> placed = new ArrayList<>();
      for (int change = 0; change < 3 && !pending.isEmpty(); change++) {
        TaskState task = pending.remove(random.nextInt(pending.size()));
        NodeState node = nodes.get(random.nextInt(nodes.size()));
        if (random.nextBoolean()) {
          statement.allocate(task, node);
        } else {
          statement.pipeline(task, node);
        }
        placed.add(task);
      }
      if (!running.isEmpty() && random.nextInt(4) == 0) {
        TaskState victim = running.remove(random.nextInt(running.size()));
        if (victim.status() == TaskStatus.ALLOCATED) {
          statement.evict(victim);
        }
      }
      if (random.nextInt(5) == 0) {
        int index = random.nextInt(nodes.size());
        session.nodeSearch().hold(new int[] {index}, session.job("default/running").get(), "held");
      }
      assertEveryDomainAgrees(session);
      int outcome = random.nextInt(3);
      if (outcome == 0) {
        statement.rollbackTo(start);
        statement.discard();
        pending.addAll(placed);
      } else if (outcome == 1
          && !placed.isEmpty()
          && placed.get(0).status() == TaskStatus.ALLOCATED) {
        statement.unallocate(placed.get(0));
        pending.add(placed.get(0));
        statement.commit();
      } else {
        statement.commit();
      }
      assertEveryDomainAgrees(session);
    }
  }
}
