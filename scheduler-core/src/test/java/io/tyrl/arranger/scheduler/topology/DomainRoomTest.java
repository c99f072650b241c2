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
    // Labelled against the nesting: rack z1-r1 also has a node in zone z2.
    nodes.add(
        node("stray")
            .cpu("16")
            .memory("32Gi")
            .label(ZONE, "z2")
            .label(RACK, "z1-r1")
            .label(POOL, "a")
            .build());
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
    // A rack split by the stray node's zone is not a listed domain and is counted node by node.
    for (Domain zone : domains.all(ZONE)) {
      for (Domain part : domains.partition(zone, RACK)) {
        assertThat(order.free(part)[0])
            .as("%s of %s", part, zone)
            .isEqualTo(freeCpuNodeByNode(session, job, part));
      }
    }
  }

  private static JobInfo gangInPoolA() {
    return gangIn("a", 1);
  }

  /** A gang of a 1-cpu leader and twelve 2-cpu actors, {@code minWorkers} of them needed. */
  private static JobInfo gangIn(String pool, int minWorkers) {
    return job("gang")
        .nodeSelector(POOL, pool)
        .minWorkers(minWorkers)
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
    // n1 is not ready, n2 is in pool b: n3's 8 cpu and the stray node's 16.
    assertThat(z1r1.name()).isEqualTo("z1-r1");
    assertThat(order.free(z1r1)[0]).isEqualTo(24_000);
    assertEveryDomainAgrees(session);
  }

  @Test
  void aRackWhoseEveryNodeIsExcludedHasNoRoom() {
    Session session = session(gangInPoolA(), runningElsewhere());
    JobState job = gang(session);
    Domains domains = Domains.of(session);
    // z1-r2: n1 in pool a, n2 in pool b, n3 cordoned; n1 held for another job.
    Domain z1r2 = domains.all(RACK).get(1);
    session
        .nodeSearch()
        .hold(new int[] {z1r2.nodes()[0]}, session.job("default/running").get(), "held");
    DomainOrder order = new DomainOrder(session, job, GangDemand.of(session, job.minimumRequest()));
    assertThat(z1r2.name()).isEqualTo("z1-r2");
    assertThat(order.free(z1r2)[0]).isZero();
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

  @Test
  void aRackWithinItsZoneIsTheListedRackAndOneSplitByTheLabelsIsNot() {
    Session session = session(gangInPoolA(), runningElsewhere());
    Domains domains = Domains.of(session);
    Domain z1 = domains.all(ZONE).get(0);
    Domain z2 = domains.all(ZONE).get(1);

    List<Domain> ofZ1 = domains.partition(z1, RACK);
    List<Domain> ofZ2 = domains.partition(z2, RACK);

    assertThat(ofZ1).extracting(Domain::name).containsExactly("z1-r1", "z1-r2");
    assertThat(ofZ1.get(0))
        .as("z1-r1 without the stray node")
        .isNotSameAs(domains.all(RACK).get(0));
    assertThat(ofZ1.get(0).nodes()).hasSize(3);
    assertThat(ofZ1.get(1)).isSameAs(domains.all(RACK).get(1));
    assertThat(ofZ2).extracting(Domain::name).containsExactly("z1-r1", "z2-r1", "z2-r2");
    assertThat(ofZ2.get(0).nodes()).hasSize(1);
    assertThat(ofZ2.get(1)).isSameAs(domains.all(RACK).get(2));
  }

  /**
   * A gang of 9 cpu: a rack could ever hold it when its ready, schedulable nodes in pool "a" have
   * that much allocatable, whatever is in use — listed racks and racks split by the labels alike.
   * Pool "a" per rack: z1-r1 n3 and the 16-cpu stray node (n1 not ready), z1-r2 n1 (n3 cordoned),
   * z2-r1 n1 (over-committed, still 8 cpu allocatable) and n3, z2-r2 n1 and n3.
   */
  @Test
  void theDomainsThatCouldEverHoldAGangCountOnlyTheNodesThatAdmitIt() {
    Session session = session(gangIn("a", 4), runningElsewhere());
    JobState job = gang(session);
    DomainOrder order = new DomainOrder(session, job, GangDemand.of(session, job.minimumRequest()));
    Domains domains = Domains.of(session);
    List<Domain> parts = new ArrayList<>();
    for (Domain zone : domains.all(ZONE)) {
      parts.addAll(domains.partition(zone, RACK));
    }

    // The most free first: z2-r2's n3 is using 6 of its 8 cpu (4 of them being released).
    assertThat(order.couldEverHold(domains.all(RACK)))
        .extracting(Domain::name)
        .containsExactly("z1-r1", "z2-r2", "z2-r1");
    assertThat(order.couldEverHold(parts))
        .as("z1-r1 split: n3's 8 cpu in z1, the stray node's 16 in z2")
        .extracting(Domain::toString)
        .containsExactly("z1-r1 (1 nodes)", "z2-r2 (3 nodes)", "z2-r1 (3 nodes)");
  }

  @Test
  void aGangNoNodeAdmitsHasNoRoomAnywhereAndNothingToHold() {
    Session session = session(gangIn("c", 2), runningElsewhere());
    JobState job = gang(session);
    DomainOrder order = new DomainOrder(session, job, GangDemand.of(session, job.minimumRequest()));
    List<Domain> racks = Domains.of(session).all(RACK);

    assertThat(racks).allSatisfy(rack -> assertThat(order.free(rack)[0]).isZero());
    assertThat(order.fitting(racks)).isEmpty();
    assertThat(order.toHold(racks)).isEmpty();
  }

  /** A gang keeps the emptiest rack no node of which is held for another job. */
  @Test
  void aRackWithANodeHeldForAnotherJobIsNotHeldAgain() {
    Session session = session(gangInPoolA(), runningElsewhere());
    JobState job = gang(session);
    List<Domain> racks = Domains.of(session).all(RACK);
    DomainOrder order = new DomainOrder(session, job, GangDemand.of(session, job.minimumRequest()));
    Domain emptiest = order.toHold(racks).orElseThrow();

    session
        .nodeSearch()
        .hold(new int[] {emptiest.nodes()[1]}, session.job("default/running").get(), "held");

    assertThat(order.toHold(racks)).isPresent().get().isNotSameAs(emptiest);
    session.nodeSearch().hold(new int[] {emptiest.nodes()[0]}, job, "held for the gang");
    assertThat(order.toHold(racks).get()).isNotSameAs(emptiest);
  }
}
