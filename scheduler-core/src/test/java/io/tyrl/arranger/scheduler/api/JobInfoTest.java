package io.tyrl.arranger.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.contract.TYJobDefaults;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JobInfoTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final List<TaskInfo> TASKS =
      List.of(
          TaskInfo.leader("j", "learner", Resource.of("cpu", "1")),
          TaskInfo.worker("j", "actor", 0, Resource.of("cpu", "1")));

  private static JobInfo job(
      String namespace,
      String name,
      String uid,
      String queue,
      int priority,
      int minWorkers,
      List<TaskInfo> tasks) {
    return JobInfo.builder(namespace, name)
        .uid(uid)
        .queue(queue)
        .priority(priority)
        .creationTime(T0)
        .minWorkersNum(minWorkers)
        .tasks(tasks)
        .build();
  }

  @Test
  void unsetFieldsTakeTheirDocumentedDefaults() {
    JobInfo job = job("team", "j", " ", "", 1, 0, TASKS);

    assertThat(job.uid()).as("uid defaults to the key").isEqualTo("team/j");
    assertThat(job.queue()).isEqualTo(TYJobDefaults.QUEUE);
    assertThat(job.gang()).isEqualTo(GangSpec.STRICT);
    assertThat(job.stage()).isEqualTo(Stage.PENDING);
    assertThat(job.preemptionPolicy()).isEqualTo(PreemptionPolicy.PREEMPT_LOWER_PRIORITY);
    assertThat(job.mayPreempt()).isTrue();
    assertThat(job.jobQueuePolicyIfSet()).isEmpty();
    assertThat(job("team", "j", "u-1", "research", 10, 1, TASKS).uid()).isEqualTo("u-1");
    assertThat(job("team", "j", "u-1", "research", 10, 1, TASKS).queue()).isEqualTo("research");
  }

  @Test
  void aJobThatMayNotPreemptSaysSo() {
    JobInfo job =
        JobInfo.builder("team", "j")
            .priority(1)
            .creationTime(T0)
            .minWorkersNum(0)
            .tasks(TASKS)
            .preemptionPolicy(PreemptionPolicy.NEVER)
            .build();

    assertThat(job.mayPreempt()).isFalse();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "blank namespace | ' '  | j    | 1  | 0  | job: namespace must not be blank",
        "no name         | team | ''   | 1  | 0  | job in team: name must not be blank",
        "priority 0      | team | j    | 0  | 0  | job team/j: priority must be within 1..10, was 0",
        "priority 11     | team | j    | 11 | 0  | job team/j: priority must be within 1..10, was 11",
        "minimum -1      | team | j    | 1  | -1 | job team/j: minWorkersNum must be >= 0, was -1"
      })
  void invalidJobsAreRefusedNamingTheField(
      String name, String namespace, String jobName, int priority, int minWorkers, String message) {
    assertThatThrownBy(() -> job(namespace, jobName, null, null, priority, minWorkers, TASKS))
        .hasMessage(message);
  }

  @Test
  void aJobHasExactlyOneLeaderAndNoPodNameTwice() {
    TaskInfo leader = TASKS.get(0);
    assertThatThrownBy(() -> job("team", "j", null, null, 1, 0, List.of(TASKS.get(1))))
        .hasMessage("job team/j: exactly one leader task expected, found 0");
    assertThatThrownBy(() -> job("team", "j", null, null, 1, 0, List.of(leader, leader)))
        .hasMessageContaining("job team/j: ");
    assertThatThrownBy(
            () -> job("team", "j", null, null, 1, 0, List.of(leader, TASKS.get(1), TASKS.get(1))))
        .hasMessage("job team/j: duplicate pod name " + TASKS.get(1).podName());
  }

  @Test
  void aBuilderLeftAloneGivesTheTyJobsDefaultsAndToBuilderCopiesEveryComponent() {
    JobInfo plain = JobInfo.builder("team", "j").creationTime(T0).tasks(TASKS).build();

    assertThat(plain.priority()).isEqualTo(TYJobDefaults.PRIORITY);
    assertThat(plain.minWorkersNum()).isEqualTo(TYJobDefaults.MIN_WORKERS_NUM);
    assertThat(plain.preemptable()).isTrue();
    assertThat(plain.awaitingVictims()).isFalse();

    JobInfo full =
        JobInfo.builder("team", "j")
            .uid("u")
            .queue("q")
            .priority(7)
            .creationTime(T0)
            .minWorkersNum(1)
            .basicPolicy(new BasicPolicy("BinPack"))
            .jobQueuePolicy(JobQueuePolicy.DRF)
            .gang(new GangSpec(GangMode.NON_STRICT, java.time.Duration.ofMinutes(1), "g"))
            .waitingSince(T0.plusSeconds(1))
            .tasks(TASKS)
            .preemptable(false)
            .awaitingVictims(true)
            .stage(Stage.RUNNING)
            .preemptionPolicy(PreemptionPolicy.NEVER)
            .build();

    assertThat(full.toBuilder().build()).isEqualTo(full);
    assertThat(full.toBuilder().priority(2).build())
        .isNotEqualTo(full)
        .extracting(JobInfo::priority)
        .isEqualTo(2);
  }
}
