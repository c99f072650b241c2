package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which updates start a cycle: those that may let a job be placed, and not the echoes of status
 * writes.
 */
class CycleTriggersTest {

  private static final JSON JSON = new JSON();

  private static final String POD =
      """
      {"metadata": {"name": "p", "namespace": "ns", "resourceVersion": "1"},
       "spec": {"nodeName": "n1", "containers": [{"name": "c"}]}, "status": {"phase": "Running"}}""";

  private static final String NODE =
      """
      {"metadata": {"name": "n1", "resourceVersion": "1", "labels": {"zone": "a"}},
       "spec": {"unschedulable": false},
       "status": {"allocatable": {"cpu": "8", "memory": "32Gi"},
                  "conditions": [{"type": "Ready", "status": "True", "lastHeartbeatTime": "2026-01-01T00:00:00Z"}]}}""";

  private static final String JOB =
      """
      {"metadata": {"name": "j", "namespace": "ns", "resourceVersion": "1", "generation": 1},
       "spec": {"priority": 5},
       "status": {"stage": "Pending", "scheduleState": "Unscheduled"}}""";

  static Stream<Arguments> podUpdates() {
    return Stream.of(
        Arguments.of(
            "the pod finished",
            edit(POD, json -> status(json).addProperty("phase", "Succeeded")),
            true),
        Arguments.of(
            "the pod failed", edit(POD, json -> status(json).addProperty("phase", "Failed")), true),
        Arguments.of(
            "the pod is being deleted",
            edit(
                POD,
                json -> metadata(json).addProperty("deletionTimestamp", "2026-01-01T00:00:00Z")),
            true),
        Arguments.of(
            "only its resourceVersion moved",
            edit(POD, json -> metadata(json).addProperty("resourceVersion", "2")),
            false),
        Arguments.of(
            "it became ready",
            edit(
                POD,
                json ->
                    status(json)
                        .add(
                            "conditions",
                            JsonParser.parseString(
                                "[{\"type\": \"Ready\", \"status\": \"True\"}]"))),
            false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("podUpdates")
  void aPodUpdateStartsACycleOnlyWhenItFreesRoom(
      String description, String after, boolean expected) {
    assertThat(CycleTriggers.podFreesRoom(pod(POD), pod(after))).isEqualTo(expected);
  }

  @Test
  void aPodThatHadFinishedFinishingAgainStartsNothing() {
    String finished = edit(POD, json -> status(json).addProperty("phase", "Succeeded"));
    String failedLater = edit(POD, json -> status(json).addProperty("phase", "Failed"));

    assertThat(CycleTriggers.podFreesRoom(pod(finished), pod(failedLater))).isFalse();
  }

  static Stream<Arguments> nodeUpdates() {
    return Stream.of(
        Arguments.of(
            "cordoned", edit(NODE, json -> spec(json).addProperty("unschedulable", true)), true),
        Arguments.of(
            "tainted",
            edit(
                NODE,
                json ->
                    spec(json)
                        .add(
                            "taints",
                            JsonParser.parseString(
                                "[{\"key\": \"gpu\", \"effect\": \"NoSchedule\"}]"))),
            true),
        Arguments.of(
            "more allocatable",
            edit(
                NODE, json -> status(json).getAsJsonObject("allocatable").addProperty("cpu", "16")),
            true),
        Arguments.of(
            "relabelled",
            edit(NODE, json -> metadata(json).getAsJsonObject("labels").addProperty("zone", "b")),
            true),
        Arguments.of(
            "not ready",
            edit(
                NODE,
                json ->
                    status(json)
                        .getAsJsonArray("conditions")
                        .get(0)
                        .getAsJsonObject()
                        .addProperty("status", "False")),
            true),
        Arguments.of(
            "a heartbeat",
            edit(
                NODE,
                json ->
                    status(json)
                        .getAsJsonArray("conditions")
                        .get(0)
                        .getAsJsonObject()
                        .addProperty("lastHeartbeatTime", "2026-01-01T00:00:10Z")),
            false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nodeUpdates")
  void aNodeUpdateStartsACycleOnlyWhenItsRoomChanged(
      String description, String after, boolean expected) {
    assertThat(CycleTriggers.nodeRoomChanged(node(NODE), node(after))).isEqualTo(expected);
  }

  static Stream<Arguments> jobUpdates() {
    return Stream.of(
        Arguments.of(
            "its spec changed",
            edit(JOB, json -> metadata(json).addProperty("generation", 2)),
            true),
        Arguments.of(
            "the controller asks for room again",
            edit(JOB, json -> status(json).addProperty("stage", "Rescheduling")),
            true),
        Arguments.of(
            "the job succeeded",
            edit(JOB, json -> status(json).addProperty("stage", "Succeeded")),
            true),
        Arguments.of(
            "the job failed", edit(JOB, json -> status(json).addProperty("stage", "Failed")), true),
        Arguments.of(
            "the controller started the placed job",
            edit(JOB, json -> status(json).addProperty("stage", "Starting")),
            false),
        Arguments.of(
            "the job runs", edit(JOB, json -> status(json).addProperty("stage", "Running")), false),
        Arguments.of(
            "the scheduler's own status write echoed",
            edit(
                JOB,
                json -> {
                  metadata(json).addProperty("resourceVersion", "2");
                  status(json).addProperty("scheduleState", "ScheduledSucceed");
                }),
            false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jobUpdates")
  void aJobUpdateStartsACycleOnlyWhenItsSpecOrStageChanged(
      String description, String after, boolean expected) {
    assertThat(CycleTriggers.jobChanged(raw(JOB), raw(after))).isEqualTo(expected);
  }

  @Test
  void aQueueUpdateStartsACycleOnlyWhenItsSpecChanged() {
    String queue =
        "{\"metadata\": {\"name\": \"q\", \"generation\": 1}, \"spec\": {\"weight\": 1}}";

    assertThat(
            CycleTriggers.queueSpecChanged(
                raw(queue), raw(edit(queue, json -> metadata(json).addProperty("generation", 2)))))
        .isTrue();
    assertThat(
            CycleTriggers.queueSpecChanged(
                raw(queue),
                raw(
                    edit(
                        queue,
                        json ->
                            json.add(
                                "status",
                                JsonParser.parseString("{\"allocated\": {\"cpu\": \"1\"}}"))))))
        .isFalse();
  }

  @Test
  void theHandlerCountsDeletesAlwaysAddsWhenAskedAndOnlyTheUpdatesThatMatter() {
    AtomicInteger changes = new AtomicInteger();
    ResourceEventHandler<V1Pod> pods =
        CycleTriggers.handler(false, CycleTriggers::podFreesRoom, changes::incrementAndGet);
    V1Pod running = pod(POD);
    V1Pod finished = pod(edit(POD, json -> status(json).addProperty("phase", "Succeeded")));

    pods.onAdd(running);
    assertThat(changes).as("a pod added frees no room").hasValue(0);
    pods.onUpdate(running, running);
    assertThat(changes).hasValue(0);
    pods.onUpdate(running, finished);
    assertThat(changes).hasValue(1);
    pods.onDelete(finished, false);
    assertThat(changes).hasValue(2);

    ResourceEventHandler<DynamicKubernetesObject> jobs =
        CycleTriggers.handler(true, CycleTriggers::jobChanged, changes::incrementAndGet);
    jobs.onAdd(raw(JOB));
    assertThat(changes).as("a job submitted").hasValue(3);
  }

  private static String edit(String json, Consumer<JsonObject> change) {
    JsonObject object = JsonParser.parseString(json).getAsJsonObject();
    change.accept(object);
    return object.toString();
  }

  private static JsonObject metadata(JsonObject json) {
    return json.getAsJsonObject("metadata");
  }

  private static JsonObject spec(JsonObject json) {
    return json.getAsJsonObject("spec");
  }

  private static JsonObject status(JsonObject json) {
    return json.getAsJsonObject("status");
  }

  private static V1Pod pod(String json) {
    return JSON.deserialize(json, V1Pod.class);
  }

  private static V1Node node(String json) {
    return JSON.deserialize(json, V1Node.class);
  }

  private static DynamicKubernetesObject raw(String json) {
    return new DynamicKubernetesObject(JsonParser.parseString(json).getAsJsonObject());
  }
}
