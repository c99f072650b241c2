package io.tyrl.arranger.controller.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeCondition;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1Toleration;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A node's readiness and a pod's grace on a lost node, as the controller reads them. */
class NodeReadinessTest {

  private static final OffsetDateTime SINCE =
      OffsetDateTime.of(2026, 11, 25, 12, 0, 0, 0, ZoneOffset.UTC);

  private static V1Node node(String status) {
    return new V1Node()
        .metadata(new V1ObjectMeta().name("n1"))
        .status(
            new V1NodeStatus()
                .conditions(
                    List.of(
                        new V1NodeCondition()
                            .type("MemoryPressure")
                            .status("False")
                            .lastTransitionTime(SINCE.minusDays(1)),
                        new V1NodeCondition()
                            .type("Ready")
                            .status(status)
                            .lastTransitionTime(SINCE))));
  }

  @Test
  void aNodeWhoseReadyConditionIsFalseOrUnknownIsNotReadySinceItsLastTransition() {
    assertThat(NodeReadiness.notReady(node("False")))
        .contains(new NodeReadiness.NotReady(SINCE.toInstant(), "node.kubernetes.io/not-ready"));
    assertThat(NodeReadiness.notReady(node("Unknown")))
        .contains(new NodeReadiness.NotReady(SINCE.toInstant(), "node.kubernetes.io/unreachable"));
    assertThat(NodeReadiness.notReady(node("True"))).isEmpty();
    assertThat(NodeReadiness.notReady(new V1Node().metadata(new V1ObjectMeta().name("new"))))
        .as("a node that reports nothing yet is not judged")
        .isEmpty();
  }

  @Test
  void aPodsGraceIsItsTolerationSecondsForTheTaintTheNodeGets() {
    V1Pod pod =
        new V1Pod()
            .metadata(new V1ObjectMeta().name("p"))
            .spec(
                new V1PodSpec()
                    .tolerations(
                        List.of(
                            new V1Toleration()
                                .key("node.kubernetes.io/unreachable")
                                .operator("Exists")
                                .effect("NoExecute")
                                .tolerationSeconds(300L),
                            new V1Toleration()
                                .key("node.kubernetes.io/not-ready")
                                .operator("Exists")
                                .effect("NoExecute")
                                .tolerationSeconds(120L),
                            new V1Toleration()
                                .key("gpu")
                                .operator("Exists")
                                .effect("NoExecute")
                                .tolerationSeconds(5L),
                            new V1Toleration()
                                .key("node.kubernetes.io/unreachable")
                                .operator("Exists")
                                .effect("NoSchedule")
                                .tolerationSeconds(1L))));

    assertThat(PodViewMapper.toleration(pod, "node.kubernetes.io/not-ready"))
        .contains(Duration.ofSeconds(120));
    assertThat(PodViewMapper.toleration(pod, "node.kubernetes.io/unreachable"))
        .contains(Duration.ofSeconds(300));
    assertThat(
            PodViewMapper.toleration(
                new V1Pod().metadata(new V1ObjectMeta().name("q")).spec(new V1PodSpec()),
                "node.kubernetes.io/unreachable"))
        .isEmpty();
  }

  @Test
  void thePodViewCarriesItsNodesReadiness() {
    Instant since = SINCE.toInstant();
    V1Pod pod =
        new V1Pod().metadata(new V1ObjectMeta().name("p")).spec(new V1PodSpec().nodeName("n1"));

    PodViewMapper mapper =
        new PodViewMapper(
            node ->
                node.equals("n1")
                    ? Optional.of(
                        new NodeReadiness.NotReady(since, "node.kubernetes.io/unreachable"))
                    : Optional.empty());
    assertThat(mapper.map(pod).nodeNotReadySince()).contains(since);
    assertThat(mapper.map(pod).nodeLossToleration()).as("no toleration of its own").isEmpty();
    assertThat(new PodViewMapper().map(pod).nodeNotReadySince()).isEmpty();
  }
}
