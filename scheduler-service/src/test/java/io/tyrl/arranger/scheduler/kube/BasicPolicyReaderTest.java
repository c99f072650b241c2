package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.JSON;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobSpecSchedulerPolicy.BasicPolicyEnum;
import io.tyrl.arranger.scheduler.api.BasicPolicy;
import io.tyrl.arranger.scheduler.plugins.nodeorder.NodeOrderPlugin;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A TYJob's {@code basicPolicy} reaches the core by its CRD name, and the CRD's enum and the
 * node-order plugin's registry name the same policies: a policy added to one and not the other
 * fails here.
 */
class BasicPolicyReaderTest {

  private static final JSON JSON = new JSON();

  private static V1alpha1TYJob job(String schedulerPolicy) {
    return JSON.deserialize(
        """
        {"metadata": {"namespace": "rl", "name": "pong", "creationTimestamp": "2026-11-22T09:00:00Z"},
         "spec": {%s "leader": {"name": "learner", "template": {"spec": {"containers": [{"name": "l"}]}}},
                  "workerSets": [{"name": "actor", "counts": 1, "template": {"spec": {"containers": [{"name": "a"}]}}}]}}"""
            .formatted(schedulerPolicy),
        V1alpha1TYJob.class);
  }

  private static BasicPolicy read(V1alpha1TYJob job) {
    return JobReader.job(
            job, LivePods.of(List.of(), List.of()), Instant.parse("2026-11-25T12:00:00Z"))
        .basicPolicy();
  }

  @Test
  void theCrdsEnumNamesExactlyThePoliciesTheRegistryKnows() {
    assertThat(NodeOrderPlugin.BASIC_POLICIES)
        .extracting(BasicPolicy::name)
        .containsExactlyInAnyOrderElementsOf(
            Arrays.stream(BasicPolicyEnum.values()).map(BasicPolicyEnum::getValue).toList());
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(BasicPolicyEnum.class)
  void eachPolicyIsReadByItsCrdName(BasicPolicyEnum policy) {
    BasicPolicy read =
        read(job("\"schedulerPolicy\": {\"basicPolicy\": \"" + policy.getValue() + "\"},"));

    assertThat(read.name()).isEqualTo(policy.getValue());
  }

  @Test
  void aJobWithoutABasicPolicyLeavesItToTheScheduler() {
    assertThat(read(job(""))).isNull();
    assertThat(read(job("\"schedulerPolicy\": {\"jobQueuePolicy\": \"DRF\"},"))).isNull();
  }
}
