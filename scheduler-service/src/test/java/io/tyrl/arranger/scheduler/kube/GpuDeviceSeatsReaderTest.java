package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.JSON;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code status.gpuDevices} as the core reads it back; a status without it means none. */
class GpuDeviceSeatsReaderTest {

  private static final Instant NOW = Instant.parse("2026-11-28T12:00:00Z");

  private static final JSON JSON = new JSON();

  private static V1alpha1TYJob job(String status) {
    V1alpha1TYJob job =
        JSON.deserialize(
            """
            {"metadata": {"namespace": "rl", "name": "pong", "creationTimestamp": "2026-11-28T09:00:00Z"},
             "spec": {"leader": {"name": "learner", "template": {"spec": {"containers": [{"name": "l"}]}}},
                      "workerSets": [{"name": "actor", "counts": 2, "template": {
                        "metadata": {"annotations": {"arranger.tyrl.io/gpu-fraction": "0.5"}},
                        "spec": {"containers": [{"name": "a"}]}}}]}}""",
            V1alpha1TYJob.class);
    job.setStatus(status == null ? null : JSON.deserialize(status, V1alpha1TYJobStatus.class));
    return job;
  }

  @Test
  void recordedSeatsReachTheCore() {
    V1alpha1TYJob job =
        job(
            """
            {"allocations": {"pong-learner": "n1", "pong-actor-0": "n1", "pong-actor-1": "n1"},
             "gpuDevices": {"pong-actor-0": 2, "pong-actor-1": 0}}""");

    assertThat(JobReader.job(job, LivePods.of(List.of(), List.of()), NOW).gpuDevices())
        .isEqualTo(Map.of("pong-actor-0", 2, "pong-actor-1", 0));
  }

  @Test
  void aStatusWrittenBeforeTheFieldExistedOrNoneAtAllRecordsNoSeat() {
    V1alpha1TYJob placedBefore =
        job(
            """
            {"allocations": {"pong-learner": "n1", "pong-actor-0": "n1"}}""");

    assertThat(JobReader.job(placedBefore, LivePods.of(List.of(), List.of()), NOW).gpuDevices())
        .isEmpty();
    assertThat(JobReader.job(job(null), LivePods.of(List.of(), List.of()), NOW).gpuDevices())
        .isEmpty();
  }
}
