package io.tyrl.arranger.testing.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonParser;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterSamplerTest {

  @Test
  void readsTheRequestsOfEachAllocatedPodByItsName() {
    var job =
        ClusterSampler.jobState(
            JsonParser.parseString(
                    """
        {"metadata": {"namespace": "ns", "name": "j", "uid": "u"},
         "spec": {"leader": {"name": "learner", "template": {"spec": {"containers": [
                    {"name": "c", "resources": {"requests": {"cpu": "2", "memory": "1Gi"}}}]}}},
                  "workerSets": [{"name": "actor", "counts": 2147483647, "template": {"spec": {"containers": [
                    {"name": "a", "resources": {"requests": {"cpu": "500m"}}},
                    {"name": "b", "resources": {"requests": {"cpu": "1"}}}]}}}]},
         "status": {"stage": "Starting", "allocations": {"j-learner": "n1", "j-actor-7": "n2"}}}
        """)
                .getAsJsonObject());
    assertThat(job.stage()).isEqualTo("Starting");
    assertThat(job.allocations())
        .containsOnly(Map.entry("j-learner", "n1"), Map.entry("j-actor-7", "n2"));
    assertThat(job.requestsByPod().get("j-learner")).containsEntry("cpu", new BigDecimal("2"));
    assertThat(job.requestsByPod().get("j-actor-7").get("cpu")).isEqualByComparingTo("1.5");
  }

  @Test
  void aMalformedJobReadsAsWhatCanBeRead() {
    var job =
        ClusterSampler.jobState(
            JsonParser.parseString(
                    """
        {"metadata": {"namespace": "ns", "name": "bad", "uid": "u"},
         "spec": {"leader": {"name": "learner", "template": {"spec": {"containers": [
                    {"name": "c", "resources": {"requests": {"cpu": "abc", "memory": "1Gi"}}}]}}},
                  "workerSets": "not a list"},
         "status": {"allocations": {"bad-learner": "n1", "bad-actor-0": "n1"}}}
        """)
                .getAsJsonObject());
    assertThat(job.stage()).isEmpty();
    assertThat(job.requestsByPod().get("bad-learner")).containsOnlyKeys("memory");
    assertThat(job.requestsByPod().get("bad-actor-0")).isEmpty();
  }
}
