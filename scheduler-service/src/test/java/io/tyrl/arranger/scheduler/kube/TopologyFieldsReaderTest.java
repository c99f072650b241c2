package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.JSON;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.TopologyRequest;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** TYJob {@code spec.topology} and a worker set's {@code topology} as the core reads them. */
class TopologyFieldsReaderTest {

  private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");

  private static final JSON JSON = new JSON();

  private static JobInfo read(String jobTopology, String actorTopology) {
    V1alpha1TYJob job =
        JSON.deserialize(
            """
            {"metadata": {"namespace": "rl", "name": "pong", "creationTimestamp": "2026-11-22T09:00:00Z"},
             "spec": {%s "leader": {"name": "learner", "template": {"spec": {"containers": [{"name": "l"}]}}},
                      "workerSets": [
                        {"name": "actor", "counts": 2, %s "template": {"spec": {"containers": [{"name": "a"}]}}},
                        {"name": "replay", "counts": 1, "template": {"spec": {"containers": [{"name": "r"}]}}}]}}"""
                .formatted(jobTopology, actorTopology),
            V1alpha1TYJob.class);
    return JobReader.job(job, LivePods.of(List.of(), List.of()), NOW, new IdentityMemo<>());
  }

  @Test
  void aJobWithoutTopologyAsksNone() {
    JobInfo job = read("", "");

    assertThat(job.topology()).isEqualTo(TopologyRequest.NONE);
    assertThat(job.workerSetTopology()).isEmpty();
    assertThat(job.asksTopology()).isFalse();
  }

  @Test
  void theJobsLevelsAndAWorkerSetsOwnPreferredLevelAreRead() {
    JobInfo job =
        read(
            "\"topology\": {\"required\": \"example.com/rack\", \"preferred\": \"kubernetes.io/hostname\"},",
            "\"topology\": {},");

    assertThat(job.topology())
        .isEqualTo(new TopologyRequest("example.com/rack", "kubernetes.io/hostname"));
    // The actors' empty topology is an override: no preferred level of their own, in the rack.
    assertThat(job.topologyFor(job.tasks().get(1)))
        .isEqualTo(new TopologyRequest("example.com/rack", null));
    // The replay set says nothing: it follows the job.
    assertThat(job.topologyFor(job.tasks().get(3)))
        .isEqualTo(new TopologyRequest("example.com/rack", "kubernetes.io/hostname"));
    assertThat(job.topologyFor(job.leader()))
        .isEqualTo(new TopologyRequest("example.com/rack", "kubernetes.io/hostname"));
  }
}
