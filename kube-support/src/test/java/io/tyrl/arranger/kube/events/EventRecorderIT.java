package io.tyrl.arranger.kube.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tyrl.arranger.crd.reasons.EventType;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The recorder's writes as the real API server takes them: counted repeats, combined messages,
 * escaped text.
 */
@ExtendWith(KubeApiServerExtension.class)
class EventRecorderIT {

  @Test
  void repeatsAreCountedOnOneEventAndManyMessagesAreCombined(ApiClient client) throws Exception {
    String namespace = "events-" + UUID.randomUUID().toString().substring(0, 6);
    new CoreV1Api(client)
        .createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace)))
        .execute();
    InvolvedObject job =
        new InvolvedObject("arranger.tyrl.io/v1alpha1", "TYJob", namespace, "pong", "uid-pong");
    InvolvedObject other =
        new InvolvedObject("arranger.tyrl.io/v1alpha1", "TYJob", namespace, "ping", "uid-ping");

    try (EventRecorder recorder =
        new EventRecorder(
            client,
            "arranger-test",
            "replica-a",
            () -> true,
            EventRecorderProperties.defaults(),
            new SimpleMeterRegistry(),
            Clock.systemUTC())) {
      String quoted = "leader pod \"pong-learner\" waits: 0/3 nodes fit \\ learner";
      for (int i = 0; i < 5; i++) {
        recorder.record(job, EventType.WARNING, "Unschedulable", quoted);
      }
      for (int i = 1; i <= 12; i++) {
        recorder.record(other, EventType.WARNING, "Unschedulable", "attempt " + i);
      }
      assertThat(recorder.awaitIdle(Duration.ofSeconds(20))).isTrue();
    }

    List<CoreV1Event> pong = events(client, namespace, "pong");
    assertThat(pong)
        .singleElement()
        .satisfies(
            event -> {
              assertThat(event.getCount()).isEqualTo(5);
              assertThat(event.getMessage())
                  .isEqualTo("leader pod \"pong-learner\" waits: 0/3 nodes fit \\ learner");
              assertThat(event.getReason()).isEqualTo("Unschedulable");
              assertThat(event.getInvolvedObject().getUid()).isEqualTo("uid-pong");
            });
    List<CoreV1Event> ping = events(client, namespace, "ping");
    // Nine messages on their own, then one combined Event for the tenth and every later one.
    assertThat(ping).hasSize(10);
    assertThat(ping)
        .filteredOn(event -> event.getMessage().startsWith(EventCorrelator.COMBINED_PREFIX))
        .singleElement()
        .satisfies(
            event -> {
              assertThat(event.getCount()).isEqualTo(3);
              assertThat(event.getMessage())
                  .isEqualTo(EventCorrelator.COMBINED_PREFIX + "attempt 12");
            });
  }

  private static List<CoreV1Event> events(ApiClient client, String namespace, String name)
      throws Exception {
    return new CoreV1Api(client)
        .listNamespacedEvent(namespace)
        .fieldSelector("involvedObject.name=" + name)
        .execute()
        .getItems();
  }
}
