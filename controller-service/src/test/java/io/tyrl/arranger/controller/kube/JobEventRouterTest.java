package io.tyrl.arranger.controller.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.tyrl.arranger.crd.contract.PodLabels;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Pod updates reach the work queue at once, but a worker's start waits up to a second, so that a
 * job whose thousands of workers start together is not reconciled once per worker.
 */
class JobEventRouterTest {

  private final JobEventRouter router = new JobEventRouter();
  private final List<String> now = new ArrayList<>();
  private final List<String> later = new ArrayList<>();

  @BeforeEach
  void route() {
    router.routeTo(now::add, (key, delay) -> later.add(key + " after " + delay.toMillis() + " ms"));
  }

  private static V1Pod pod(String role, String phase) {
    return new V1Pod()
        .metadata(
            new V1ObjectMeta()
                .namespace("ns")
                .name("job-" + role)
                .labels(Map.of(PodLabels.JOB_NAME, "job", PodLabels.ROLE, role)))
        .status(phase == null ? null : new V1PodStatus().phase(phase));
  }

  private void update(V1Pod before, V1Pod after) {
    router.podEvents().onUpdate(before, after);
  }

  @Test
  void aWorkerStartingWaitsASecond() {
    update(pod(PodLabels.WORKER, null), pod(PodLabels.WORKER, "Pending"));
    update(pod(PodLabels.WORKER, "Pending"), pod(PodLabels.WORKER, "Running"));

    assertThat(now).isEmpty();
    assertThat(later).containsExactly("ns/job after 1000 ms", "ns/job after 1000 ms");
  }

  @Test
  void theLeaderAWorkerEndingOrOneBeingDeletedGoAtOnce() {
    update(pod(PodLabels.LEADER, "Pending"), pod(PodLabels.LEADER, "Running"));
    update(pod(PodLabels.WORKER, "Running"), pod(PodLabels.WORKER, "Failed"));
    update(pod(PodLabels.WORKER, "Running"), pod(PodLabels.WORKER, "Succeeded"));
    update(pod(PodLabels.WORKER, "Failed"), pod(PodLabels.WORKER, "Running"));
    V1Pod deleting = pod(PodLabels.WORKER, "Running");
    deleting.getMetadata().setDeletionTimestamp(OffsetDateTime.parse("2026-11-29T00:00:00Z"));
    update(pod(PodLabels.WORKER, "Running"), deleting);

    assertThat(now).hasSize(5).containsOnly("ns/job");
    assertThat(later).isEmpty();
  }

  @Test
  void nothingIsRoutedWhileThisReplicaDoesNotLead() {
    router.stop();

    update(pod(PodLabels.WORKER, "Pending"), pod(PodLabels.WORKER, "Running"));
    update(pod(PodLabels.LEADER, "Pending"), pod(PodLabels.LEADER, "Running"));

    assertThat(now).isEmpty();
    assertThat(later).isEmpty();
  }
}
