package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.JSON;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobStatus;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code status.topologyDomains} as the core reads it back; a status without it, or with a level
 * whose domain a merge patch left null, records none for that level.
 */
class TopologyDomainsReaderTest {

  private static final Instant NOW = Instant.parse("2026-11-28T12:00:00Z");

  private static final JSON JSON = new JSON();

  private static V1alpha1TYJob job(String status) {
    V1alpha1TYJob job =
        JSON.deserialize(
            """
            {"metadata": {"namespace": "rl", "name": "pong", "creationTimestamp": "2026-11-28T09:00:00Z"},
             "spec": {"leader": {"name": "learner", "template": {"spec": {"containers": [{"name": "l"}]}}},
                      "topology": {"required": "example.com/rack"},
                      "workerSets": [{"name": "actor", "counts": 2,
                        "template": {"spec": {"containers": [{"name": "a"}]}}}]}}""",
            V1alpha1TYJob.class);
    job.setStatus(status == null ? null : JSON.deserialize(status, V1alpha1TYJobStatus.class));
    return job;
  }

  @Test
  void recordedDomainsReachTheCore() {
    V1alpha1TYJob job =
        job(
            """
            {"topologyDomains": {"example.com/rack": "r7", "topology.kubernetes.io/zone": "z1"}}""");

    assertThat(JobReader.job(job, LivePods.of(List.of(), List.of()), NOW).topologyDomains())
        .isEqualTo(Map.of("example.com/rack", "r7", "topology.kubernetes.io/zone", "z1"));
  }

  @Test
  void aStatusWrittenBeforeTheFieldExistedOrNoneAtAllRecordsNoDomain() {
    V1alpha1TYJob placedBefore =
        job(
            """
            {"allocations": {"pong-learner": "n1", "pong-actor-0": "n1"}}""");

    assertThat(
            JobReader.job(placedBefore, LivePods.of(List.of(), List.of()), NOW).topologyDomains())
        .isEmpty();
    assertThat(JobReader.job(job(null), LivePods.of(List.of(), List.of()), NOW).topologyDomains())
        .isEmpty();
  }

  @Test
  void aLevelWithoutADomainIsLeftOut() {
    V1alpha1TYJob job = job("{}");
    Map<String, String> withNull = new HashMap<>();
    withNull.put("example.com/rack", "r7");
    withNull.put("topology.kubernetes.io/zone", null);
    job.getStatus().setTopologyDomains(withNull);

    assertThat(JobReader.job(job, LivePods.of(List.of(), List.of()), NOW).topologyDomains())
        .isEqualTo(Map.of("example.com/rack", "r7"));
  }
}
