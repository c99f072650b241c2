package io.tyrl.arranger.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ModelGsonTest {

  /**
   * A pod as the API server serves it: defaults filled in, managed fields, status, a probe on a
   * named port.
   */
  private static final String POD =
      """
      {"apiVersion":"v1","kind":"Pod","metadata":{"creationTimestamp":"2026-11-26T07:52:32Z",
       "labels":{"arranger.tyrl.io/job-name":"job-1","arranger.tyrl.io/role":"worker"},
       "managedFields":[{"apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{".":{}}}},
         "manager":"Kubernetes Java Client","operation":"Update","time":"2026-11-26T07:52:32Z"}],
       "name":"job-1-actor-0","namespace":"ns","ownerReferences":[{"apiVersion":"arranger.tyrl.io/v1alpha1",
         "blockOwnerDeletion":true,"controller":true,"kind":"TYJob","name":"job-1","uid":"u-1"}],
       "resourceVersion":"516","uid":"2387c7ac"},
      "spec":{"containers":[{"env":[{"name":"TYJOB_NAME","value":"job-1"}],"image":"actor:1",
         "livenessProbe":{"httpGet":{"path":"/healthz","port":"http"}},
         "ports":[{"containerPort":8080,"name":"http","protocol":"TCP"}],
         "name":"actor","resources":{"requests":{"cpu":"1500m","memory":"2Gi","nvidia.com/gpu":"1"}}}],
       "nodeName":"node-a","priority":0,"restartPolicy":"Never","terminationGracePeriodSeconds":30,
       "tolerations":[{"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists","tolerationSeconds":300}]},
      "status":{"phase":"Running","podIP":"10.1.0.7","startTime":"2026-11-26T07:52:33.123456Z",
       "conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-11-26T07:52:40Z"}]}}
      """;

  @Test
  void readsAPodAsClientJavasOwnGsonDoes() {
    V1Pod ours = ModelGson.get().fromJson(POD, V1Pod.class);
    V1Pod theirs = JSON.getGson().fromJson(POD, V1Pod.class);
    assertThat(JSON.getGson().toJson(ours)).isEqualTo(JSON.getGson().toJson(theirs));
    assertThat(ours.getMetadata().getManagedFields()).isNullOrEmpty();
    assertThat(ours.getMetadata().getCreationTimestamp())
        .isEqualTo(OffsetDateTime.of(2026, 11, 26, 7, 52, 32, 0, ZoneOffset.UTC));
    assertThat(ours.getStatus().getStartTime().getNano()).isEqualTo(123_456_000);
    assertThat(ours.getSpec().getContainers().get(0).getResources().getRequests())
        .containsEntry("cpu", Quantity.fromString("1500m"))
        .containsEntry("nvidia.com/gpu", Quantity.fromString("1"));
    assertThat(
            ours.getSpec()
                .getContainers()
                .get(0)
                .getLivenessProbe()
                .getHttpGet()
                .getPort()
                .getStrValue())
        .isEqualTo("http");
    assertThat(ours.getSpec().getContainers().get(0).getPorts().get(0).getContainerPort())
        .isEqualTo(8080);
    assertThat(ours.getSpec().getTolerations().get(0).getTolerationSeconds()).isEqualTo(300L);
    assertThat(ours.getMetadata().getOwnerReferences().get(0).getController()).isTrue();
  }

  @Test
  void readsANodesAllocatableTaintsAndConditions() {
    String node =
        """
        {"apiVersion":"v1","kind":"Node","metadata":{"name":"node-a","labels":{"zone":"a"},"resourceVersion":"9"},
         "spec":{"unschedulable":true,"taints":[{"key":"gpu","value":"true","effect":"NoSchedule"}]},
         "status":{"allocatable":{"cpu":"64","memory":"256Gi","nvidia.com/gpu":"8","pods":"110"},
          "conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":"2026-11-26T07:00:00Z"}]}}
        """;
    V1Node ours = ModelGson.get().fromJson(node, V1Node.class);
    assertThat(JSON.getGson().toJson(ours))
        .isEqualTo(JSON.getGson().toJson(JSON.getGson().fromJson(node, V1Node.class)));
    assertThat(ours.getStatus().getAllocatable())
        .containsEntry("memory", Quantity.fromString("256Gi"));
    assertThat(ours.getSpec().getUnschedulable()).isTrue();
    assertThat(ours.getSpec().getTaints())
        .singleElement()
        .satisfies(taint -> assertThat(taint.getEffect()).isEqualTo("NoSchedule"));
  }
}
