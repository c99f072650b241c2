package io.tyrl.arranger.crd.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.tyrl.arranger.crd.bounds.BoundsProblem;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TYJobGpuFractionBoundsTest {

  private static V1PodTemplateSpec template(String fraction, String gpuRequest) {
    V1Container container = new V1Container().name("actor").image("actor");
    if (gpuRequest != null) {
      container.resources(
          new V1ResourceRequirements()
              .requests(Map.of("nvidia.com/gpu", new Quantity(gpuRequest))));
    }
    V1ObjectMeta metadata = new V1ObjectMeta();
    if (fraction != null) {
      metadata.annotations(Map.of("arranger.tyrl.io/gpu-fraction", fraction));
    }
    return new V1PodTemplateSpec()
        .metadata(metadata)
        .spec(new V1PodSpec().addContainersItem(container));
  }

  @ParameterizedTest(name = "fraction {0}, nvidia.com/gpu {1}: {2}")
  @CsvSource(
      nullValues = "-",
      value = {
        "-, 1, -",
        "0.25, -, -",
        "1.5, -, a share of one GPU is above 0 and below 1",
        "0.25, 1, not both"
      })
  void aTemplatesShareIsCheckedAndNamedByItsField(String fraction, String gpu, String problem) {
    Optional<BoundsProblem> found =
        TYJobModelBounds.gpuFractionProblem("spec.workerSets[0].template", template(fraction, gpu));

    if (problem == null) {
      assertThat(found).isEmpty();
    } else {
      assertThat(found)
          .hasValueSatisfying(
              bounds -> {
                assertThat(bounds.field())
                    .isEqualTo(
                        "spec.workerSets[0].template.metadata.annotations[arranger.tyrl.io/gpu-fraction]");
                assertThat(bounds.value()).isEqualTo(fraction);
                assertThat(bounds.message()).contains(problem);
              });
    }
  }
}
