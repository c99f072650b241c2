package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.JSON;
import io.tyrl.arranger.model.V1alpha1Queue;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The queue tree's fields as the core reads them — a Queue's parent, guarantee and minimum
 * runtimes, a TYJob's {@code preemptible} and when its minimum started running — and what an old
 * object without them means.
 */
class QueueTreeFieldsReaderTest {

  private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
  private static final JSON JSON = new JSON();

  private static JsonObject rawQueue(String name, String spec) {
    return JsonParser.parseString(
            "{\"metadata\": {\"name\": \"" + name + "\"}, \"spec\": " + spec + "}")
        .getAsJsonObject();
  }

  private static QueueInfo queue(String spec) {
    return QueueReader.queue(JSON.getGson().fromJson(rawQueue("atari", spec), V1alpha1Queue.class));
  }

  @Test
  void aQueueInTheTreeIsReadWithEveryField() {
    QueueInfo queue =
        queue(
            """
            {"parent": "games", "guarantee": {"cpu": "32", "memory": "64Gi", "nvidia.com/gpu": "4"},
             "preemptMinRuntime": "10m", "reclaimMinRuntime": "1h30m"}""");

    assertThat(queue.parent()).isEqualTo("games");
    assertThat(queue.guarantee())
        .isEqualTo(Resource.of("cpu", "32", "memory", "64Gi", "nvidia.com/gpu", "4"));
    assertThat(queue.preemptMinRuntime()).isEqualTo(Duration.ofMinutes(10));
    assertThat(queue.reclaimMinRuntime()).isEqualTo(Duration.ofMinutes(90));
  }

  @Test
  void aQueueStoredBeforeTheTreeMeansWhatItMeantBefore() {
    QueueInfo queue =
        queue(
            """
            {"weight": 3, "capability": {"cpu": "40"}, "reclaimable": false, "priority": 2}""");

    assertThat(queue)
        .isEqualTo(
            new QueueInfo("atari", 3, Resource.of("cpu", "40"), false, null, 2, true)
                .withJobQueuePolicyIfUnset(null));
    assertThat(queue.parent()).isNull();
    assertThat(queue.guarantee()).isEqualTo(Resource.EMPTY);
    assertThat(queue.preemptMinRuntime()).isNull();
    assertThat(queue.reclaimMinRuntime()).isNull();
    assertThat(QueueReader.queue(new V1alpha1Queue().metadata(meta("bare"))).parent()).isNull();
  }

  @Test
  void onlyOneMinimumRuntimeSetLeavesTheOtherToBeInherited() {
    QueueInfo queue = queue("{\"reclaimMinRuntime\": \"90s\"}");

    assertThat(queue.preemptMinRuntime()).isNull();
    assertThat(queue.reclaimMinRuntime()).isEqualTo(Duration.ofSeconds(90));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"preemptMinRuntime\": \"10 minutes\"}|spec.preemptMinRuntime: '10 minutes' is not a duration",
        "{\"reclaimMinRuntime\": \"\"}|spec.reclaimMinRuntime must not be empty",
        "{\"guarantee\": {\"memory\": \"1E30\"}}|spec.guarantee.memory: "
      })
  void aValueTheCoreCannotTakeIsRefusedNamingTheField(String spec, String problem) {
    assertThatThrownBy(() -> queue(spec))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(problem);
  }

  @Test
  void oneUnreadableQueueIsLeftOutAndNamedWhileTheOthersAreRead() {
    QueueReader.Read read =
        QueueReader.readAll(
            List.of(
                rawQueue("games", "{\"guarantee\": {\"cpu\": \"64\"}}"),
                rawQueue("atari", "{\"parent\": \"games\", \"preemptMinRuntime\": \"soon\"}"),
                rawQueue("chess", "{\"parent\": \"games\", \"guarantee\": {\"cpu\": \"lots\"}}"),
                rawQueue("go", "{\"parent\": \"games\"}")),
            JSON.getGson());

    assertThat(read.queues()).extracting(QueueInfo::name).containsExactly("games", "go");
    assertThat(read.unreadable())
        .extracting(ClusterInformers.UnreadableQueue::name)
        .containsExactly("atari", "chess");
    assertThat(read.unreadable().get(0).problem())
        .isEqualTo("spec.preemptMinRuntime: 'soon' is not a duration such as 90s, 10m or 1h30m");
    assertThat(read.unreadable().get(1).problem()).startsWith("spec: ").contains("lots");
  }

  private static io.kubernetes.client.openapi.models.V1ObjectMeta meta(String name) {
    return new io.kubernetes.client.openapi.models.V1ObjectMeta().name(name);
  }

  private static V1alpha1TYJob job(String extraSpec, String annotations, String status) {
    return JSON.deserialize(
        """
        {"metadata": {"namespace": "rl", "name": "pong", "creationTimestamp": "2026-11-22T09:00:00Z"
                      %s},
         "spec": {%s "leader": {"name": "learner", "template": {"spec": {"containers": [{"name": "l"}]}}},
                  "workerSets": [{"name": "actor", "counts": 1, "template": {"spec": {"containers": [{"name": "a"}]}}}]}
         %s}"""
            .formatted(
                annotations == null
                    ? ""
                    : ", \"annotations\": {\"arranger.tyrl.io/preemptable\": \""
                        + annotations
                        + "\"}",
                extraSpec,
                status == null ? "" : ", \"status\": " + status),
        V1alpha1TYJob.class);
  }

  private static JobInfo read(V1alpha1TYJob job) {
    return JobReader.job(job, LivePods.of(List.of(), List.of()), NOW);
  }

  @ParameterizedTest(name = "spec.preemptible {0}, annotation {1} -> {2}")
  @CsvSource(
      nullValues = "null",
      value = {
        "null, null, true",
        "null, false, false",
        "null, true, true",
        "false, null, false",
        "true, false, true",
        "false, true, false"
      })
  void theFieldWinsOverTheDeprecatedAnnotation(
      String field, String annotation, boolean preemptible) {
    String spec = field == null ? "" : "\"preemptible\": " + field + ",";

    assertThat(read(job(spec, annotation, null)).preemptable()).isEqualTo(preemptible);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      nullValues = "null",
      delimiter = '|',
      value = {
        // Running, and the controller's Running condition turned True then: that is the start.
        "running since the condition turned|Running|True|2026-11-27T11:40:00Z|2026-11-27T11:40:00Z",
        // The stage says the minimum does not run (any more), whatever an old condition says.
        "starting|Starting|False|2026-11-27T11:40:00Z|null",
        "rescheduling with a stale True|Rescheduling|True|2026-11-27T11:40:00Z|null",
        // Running, but the status says no time: unknown.
        "running without a time|Running|True|null|null",
        "running with the condition False|Running|False|2026-11-27T11:40:00Z|null"
      })
  void runningSinceIsWhenTheRunningConditionTurnedTrue(
      String name, String stage, String conditionStatus, String time, String expected) {
    String status =
        """
        {"stage": "%s", "conditions": [
           {"type": "Validated", "status": "True", "lastTransitionTime": "2026-11-27T11:00:00Z"},
           {"type": "Running", "status": "%s", "reason": "Started" %s}]}"""
            .formatted(
                stage,
                conditionStatus,
                time == null ? "" : ", \"lastTransitionTime\": \"" + time + "\"");

    assertThat(read(job("", null, status)).runningSince())
        .isEqualTo(expected == null ? null : Instant.parse(expected));
  }

  @Test
  void aJobWithoutStatusOrConditionsHasNotStartedRunning() {
    assertThat(read(job("", null, null)).runningSince()).isNull();
    assertThat(read(job("", null, "{\"stage\": \"Running\"}")).runningSince()).isNull();
  }
}
