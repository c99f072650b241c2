package io.tyrl.arranger.scheduler.plugins;

import static io.tyrl.arranger.scheduler.sim.Fixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.JobQueuePolicy;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.sim.Fixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Job order must be a total order, whatever the mix of priorities, ages, shares and policy
 * overrides.
 */
class JobOrderPropertiesTest {

  @Property(tries = 150)
  void jobOrderIsATotalOrder(
      @ForAll long seed,
      @ForAll @IntRange(min = 2, max = 14) int jobCount,
      @ForAll boolean queueUsesDrf) {
    Random random = new Random(seed);
    List<NodeInfo> nodes =
        List.of(
            Fixtures.node("n1").cpu("64").memory("256Gi").gpu(8).build(),
            Fixtures.node("n2").cpu("64").memory("256Gi").gpu(8).build());
    List<JobInfo> jobs = new ArrayList<>();
    for (int i = 0; i < jobCount; i++) {
      Fixtures.JobBuilder builder =
          Fixtures.job("j" + i)
              .namespace("ns" + random.nextInt(2))
              .priority(1 + random.nextInt(3))
              .created(T0.plusSeconds(random.nextInt(3)))
              .minWorkers(0)
              .leader("cpu", Integer.toString(1 + random.nextInt(3)))
              .workers("w", 2, "cpu", "1", "nvidia.com/gpu", Integer.toString(random.nextInt(2)));
      int policy = random.nextInt(3);
      builder.jobQueuePolicy(
          policy == 0 ? null : policy == 1 ? JobQueuePolicy.PRIORITY : JobQueuePolicy.DRF);
      if (random.nextBoolean()) {
        builder.placed("j" + i + "-learner", "n1");
      }
      if (random.nextBoolean()) {
        builder.placed("j" + i + "-w-0", "n2");
      }
      jobs.add(builder.build());
    }
    QueueInfo queue =
        new QueueInfo(
            "default", 1, null, true, queueUsesDrf ? JobQueuePolicy.DRF : JobQueuePolicy.PRIORITY);
    Session session =
        Fixtures.scheduler()
            .openSession(
                new Snapshot(nodes, jobs, List.of(queue)), Fixtures.defaultConfiguration(), T0);
    List<JobState> states = session.jobs();

    for (JobState a : states) {
      assertThat(session.compareJobs(a, a)).isZero();
      for (JobState b : states) {
        int ab = Integer.signum(session.compareJobs(a, b));
        assertThat(ab)
            .as("antisymmetry %s %s", a, b)
            .isEqualTo(-Integer.signum(session.compareJobs(b, a)));
        if (a != b) {
          assertThat(ab).as("only a job equals itself: %s %s", a, b).isNotZero();
        }
        for (JobState c : states) {
          if (ab <= 0 && session.compareJobs(b, c) <= 0) {
            assertThat(session.compareJobs(a, c))
                .as("transitivity %s %s %s", a, b, c)
                .isNotPositive();
          }
        }
      }
    }
  }
}
