package io.tyrl.arranger.crd.bounds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.tyrl.arranger.crd.read.TYJobModelBounds;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobSpec;
import io.tyrl.arranger.model.V1alpha1TYJobSpecLeader;
import io.tyrl.arranger.model.V1alpha1TYJobSpecWorkerSets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TYJobBoundsTest {

  private static TYJobShape valid() {
    return TYJobShape.named("train")
        .withLeader("learner")
        .withWorkerSet("actor", 8L)
        .withRestartLimit(3L)
        .withMinWorkersNum(1L)
        .withPriority(5L)
        .withQueue("default")
        .withGang("10m", "pong")
        .withVolumes(List.of("checkpoints"));
  }

  private static Arguments outOfBounds(
      String description, TYJobShape job, String field, String value, String message) {
    return Arguments.of(Named.of(description, job), new BoundsProblem(field, value, message));
  }

  static Stream<Arguments> jobsOutOfBounds() {
    String long57 = "w".repeat(57);
    return Stream.of(
        outOfBounds(
            "counts at int32's maximum",
            valid().withWorkerSet("critic", 2147483647L),
            "spec.workerSets[1].counts",
            "2147483647",
            "2147483647 is more than the maximum 5000 per WorkerSet"),
        outOfBounds(
            "counts 100000",
            valid().withWorkerSet("critic", 100_000L),
            "spec.workerSets[1].counts",
            "100000",
            "100000 is more than the maximum 5000 per WorkerSet"),
        outOfBounds(
            "counts beyond int32, stored by an API server that ignores format: int32",
            valid().withWorkerSet("critic", 10_000_000_000L),
            "spec.workerSets[1].counts",
            "10000000000",
            "10000000000 is more than the maximum 5000 per WorkerSet"),
        outOfBounds(
            "counts 0",
            valid().withWorkerSet("critic", 0L),
            "spec.workerSets[1].counts",
            "0",
            "0 is less than the minimum 1 per WorkerSet"),
        outOfBounds(
            "workers of all sets together above the job's bound",
            valid().withWorkerSet("critic", 3000L).withWorkerSet("evaluator", 1993L),
            "spec.workerSets",
            "5001",
            "the WorkerSets ask for 5001 workers together, more than the 5000 a job may have"),
        outOfBounds(
            "restartLimit above its maximum",
            valid().withRestartLimit(10_001L),
            "spec.restartLimit",
            "10001",
            "10001 is more than the maximum 10000"),
        outOfBounds(
            "negative restartLimit",
            valid().withRestartLimit(-1L),
            "spec.restartLimit",
            "-1",
            "-1 is less than the minimum 0"),
        outOfBounds(
            "minWorkersNum above the workers",
            valid().withMinWorkersNum(9L),
            "spec.minWorkersNum",
            "9",
            "9 is more than the 8 workers of all WorkerSets together"),
        outOfBounds(
            "priority 11",
            valid().withPriority(11L),
            "spec.priority",
            "11",
            "11 is more than the maximum 10"),
        outOfBounds(
            "leader name longer than 61",
            valid().withLeader("l".repeat(62)),
            "spec.leader.name",
            "l".repeat(62),
            "\"" + "l".repeat(62) + "\" is 62 characters long, more than the 61 allowed"),
        outOfBounds(
            "WorkerSet name longer than 56",
            valid().withWorkerSet(long57, 1L),
            "spec.workerSets[1].name",
            long57,
            "\"" + long57 + "\" is 57 characters long, more than the 56 allowed"),
        outOfBounds(
            "WorkerSet name that is no DNS label",
            valid().withWorkerSet("Critic_1", 1L),
            "spec.workerSets[1].name",
            "Critic_1",
            "\"Critic_1\" is not a DNS label: use lower-case letters, digits and '-', starting and ending with a letter or digit"),
        outOfBounds(
            "WorkerSet without a name",
            valid().withWorkerSet(null, 1L),
            "spec.workerSets[1].name",
            "",
            "is required"),
        outOfBounds(
            "job name with a dot (a DNS subdomain, which the API server accepts)",
            TYJobShape.named("train.v2").withLeader("learner").withWorkerSet("actor", 8L),
            "metadata.name",
            "train.v2",
            "\"train.v2\" is not a DNS label: use lower-case letters, digits and '-', starting and ending with a letter or digit"),
        outOfBounds(
            "leader pod name longer than 63",
            TYJobShape.named("j".repeat(40)).withLeader("l".repeat(30)).withWorkerSet("a", 1L),
            "spec.leader.name",
            "j".repeat(40) + "-" + "l".repeat(30),
            "pod name \""
                + "j".repeat(40)
                + "-"
                + "l".repeat(30)
                + "\" is 71 characters long, more than the 63 allowed"),
        outOfBounds(
            "highest worker pod name longer than 63",
            TYJobShape.named("j".repeat(40)).withLeader("l").withWorkerSet("w".repeat(20), 11L),
            "spec.workerSets[0].name",
            "j".repeat(40) + "-" + "w".repeat(20) + "-10",
            "pod name \""
                + "j".repeat(40)
                + "-"
                + "w".repeat(20)
                + "-10\" is 64 characters long, more than the 63 allowed"),
        outOfBounds(
            "volume name that is no DNS label",
            valid().withVolumes(List.of("data", "Scratch")),
            "spec.volumes[1].name",
            "Scratch",
            "\"Scratch\" is not a DNS label: use lower-case letters, digits and '-', starting and ending with a letter or digit"),
        outOfBounds(
            "queue name with a space",
            valid().withQueue("Bad Queue"),
            "spec.queue",
            "Bad Queue",
            "\"Bad Queue\" is not a Queue name: DNS labels joined by '.'"),
        outOfBounds(
            "waitTime that is no duration",
            valid().withGang("ten minutes", null),
            "spec.gang.waitTime",
            "ten minutes",
            "\"ten minutes\" is not a duration such as 90s, 10m or 1h30m"),
        outOfBounds(
            "gang group longer than 253",
            valid().withGang(null, "g".repeat(254)),
            "spec.gang.group",
            "g".repeat(254),
            "\"" + "g".repeat(80) + "…\" is 254 characters long, more than the 253 allowed"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jobsOutOfBounds")
  void reportsTheFieldTheValueAndTheBound(TYJobShape job, BoundsProblem expected) {
    assertThat(TYJobBounds.problems(job)).containsExactly(expected);
    assertThat(TYJobBounds.isWithinBounds(job)).isFalse();
  }

  @Test
  void aJobAtEveryBoundIsWithinThem() {
    TYJobShape atBounds =
        TYJobShape.named("j")
            .withLeader("l".repeat(TYJobBounds.MAX_LEADER_NAME_LENGTH))
            .withWorkerSet(
                "w".repeat(TYJobBounds.MAX_WORKER_SET_NAME_LENGTH), (long) TYJobBounds.MAX_COUNTS)
            .withRestartLimit((long) TYJobBounds.MAX_RESTART_LIMIT)
            .withMinWorkersNum((long) TYJobBounds.MAX_MIN_WORKERS_NUM)
            .withPriority((long) TYJobBounds.MAX_PRIORITY)
            .withQueue("q".repeat(TYJobBounds.MAX_QUEUE_NAME_LENGTH))
            .withGang("1h30m", "g".repeat(TYJobBounds.MAX_GANG_GROUP_LENGTH));

    assertThat(TYJobBounds.problems(atBounds)).isEmpty();
    assertThat(TYJobBounds.problems(valid())).isEmpty();
  }

  @Test
  void absentOptionalFieldsHaveNoBoundToBreakAndAbsentCountsIsOne() {
    TYJobShape minimal =
        TYJobShape.named("train").withLeader("learner").withWorkerSet("actor", null);

    assertThat(TYJobBounds.problems(minimal)).isEmpty();
  }

  @Test
  void everyProblemOfOneJobIsReportedOnce() {
    TYJobShape job =
        TYJobShape.named("train")
            .withLeader("Learner")
            .withWorkerSet("actor", 2147483647L)
            .withWorkerSet("critic", -4L)
            .withRestartLimit(-1L);

    assertThat(TYJobBounds.problems(job))
        .extracting(BoundsProblem::field)
        .containsExactly(
            "spec.restartLimit",
            "spec.leader.name",
            "spec.workerSets[0].counts",
            "spec.workerSets[1].counts");
  }

  @Test
  void tooManyWorkerSetsIsOneProblemAndTheCheckStaysCheap() {
    List<TYJobShape.WorkerSet> sets = new ArrayList<>();
    for (int i = 0; i < 200_000; i++) {
      sets.add(new TYJobShape.WorkerSet("set-" + i, 2147483647L));
    }
    TYJobShape job =
        new TYJobShape("train", "learner", sets, null, null, null, null, null, null, null);

    List<BoundsProblem> problems =
        assertTimeoutPreemptively(Duration.ofSeconds(2), () -> TYJobBounds.problems(job));

    assertThat(problems)
        .first()
        .isEqualTo(
            new BoundsProblem(
                "spec.workerSets",
                "200000 WorkerSets",
                "has 200000 WorkerSets, more than the 32 a job may have"));
    assertThat(problems).hasSize(1 + TYJobBounds.MAX_WORKER_SETS);
  }

  @Test
  void theModelEntryPointReadsEveryBoundedFieldOfTheGeneratedModel() {
    V1alpha1TYJob job =
        new V1alpha1TYJob()
            .metadata(new V1ObjectMeta().name("train"))
            .spec(
                new V1alpha1TYJobSpec()
                    .leader(new V1alpha1TYJobSpecLeader().name("learner"))
                    .addWorkerSetsItem(
                        new V1alpha1TYJobSpecWorkerSets().name("actor").counts(2147483647))
                    .addWorkerSetsItem(
                        new V1alpha1TYJobSpecWorkerSets().name("critic").counts(100000))
                    .restartLimit(3)
                    .priority(11));

    assertThat(TYJobModelBounds.problems(job))
        .extracting(BoundsProblem::toString)
        .containsExactly(
            "spec.priority: 11 is more than the maximum 10",
            "spec.workerSets[0].counts: 2147483647 is more than the maximum 5000 per WorkerSet",
            "spec.workerSets[1].counts: 100000 is more than the maximum 5000 per WorkerSet");
  }

  @Test
  void theModelEntryPointTakesAJobAsDecodedFromJson() {
    String json =
        """
        {"apiVersion": "arranger.tyrl.io/v1alpha1", "kind": "TYJob", "metadata": {"name": "train", "namespace": "rl"},
         "spec": {"leader": {"name": "learner", "template": {"spec": {"containers": [{"name": "main"}]}}},
                  "workerSets": [{"name": "actor", "counts": 3000, "template": {}},
                                 {"name": "actor-b", "counts": 3000, "template": {}}],
                  "volumes": [{"name": "Data", "emptyDir": {}}],
                  "gang": {"waitTime": "soon"}}}""";
    V1alpha1TYJob job = new JSON().deserialize(json, V1alpha1TYJob.class);

    assertThat(TYJobModelBounds.problems(job))
        .extracting(BoundsProblem::field)
        .containsExactly("spec.volumes[0].name", "spec.workerSets", "spec.gang.waitTime");
  }

  @Test
  void aJobWithoutMetadataOrSpecIsReportedNotThrownAt() {
    assertThat(TYJobModelBounds.problems(new V1alpha1TYJob()))
        .extracting(BoundsProblem::toString)
        .containsExactly(
            "metadata.name: is required",
            "spec.leader.name: is required",
            "spec.workerSets: at least 1 WorkerSet is required");
  }
}
