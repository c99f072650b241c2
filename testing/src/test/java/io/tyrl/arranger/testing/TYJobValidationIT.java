package io.tyrl.arranger.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1Status;
import io.kubernetes.client.openapi.models.V1StatusCause;
import io.tyrl.arranger.crd.ArrangerResources;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@ExtendWith(KubeApiServerExtension.class)
class TYJobValidationIT {

  static Stream<Arguments> invalidSpecs() {
    return Stream.of(
        Arguments.of("priority 11", (Consumer<Map<String, Object>>) spec -> spec.put("priority", 11),
            List.of("spec.priority", "10")),
        Arguments.of("priority 0", (Consumer<Map<String, Object>>) spec -> spec.put("priority", 0),
            List.of("spec.priority", "1")),
        Arguments.of("cleanPodPolicy Foo", (Consumer<Map<String, Object>>) spec -> spec.put("cleanPodPolicy", "Foo"),
            List.of("spec.cleanPodPolicy", "\"Foo\"")),
        Arguments.of("counts 0", (Consumer<Map<String, Object>>) spec -> firstWorkerSet(spec).put("counts", 0),
            List.of("spec.workerSets", "counts")),
        Arguments.of("basicPolicy Random",
            (Consumer<Map<String, Object>>) spec -> spec.put("schedulerPolicy", Map.of("basicPolicy", "Random")),
            List.of("spec.schedulerPolicy.basicPolicy", "\"Random\"")),
        Arguments.of("restartLimit -1", (Consumer<Map<String, Object>>) spec -> spec.put("restartLimit", -1),
            List.of("spec.restartLimit")),
        Arguments.of("gang mode Loose",
            (Consumer<Map<String, Object>>) spec -> spec.put("gang", Map.of("mode", "Loose")),
            List.of("spec.gang.mode", "\"Loose\"")),
        Arguments.of("no workerSets", (Consumer<Map<String, Object>>) spec -> spec.remove("workerSets"),
            List.of("spec.workerSets")));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> firstWorkerSet(Map<String, Object> spec) {
    return ((List<Map<String, Object>>) spec.get("workerSets")).get(0);
  }

  @ParameterizedTest(name = "{0} is refused naming the field")
  @MethodSource("invalidSpecs")
  void apiServerRefusesTheValueAndNamesTheField(String caseName, Consumer<Map<String, Object>> breakSpec,
      List<String> expectedInMessage, ApiClient client) {
    Map<String, Object> job = TYJobFixtures.minimalTyJob(TYJobFixtures.uniqueName("invalid"));
    breakSpec.accept(TYJobFixtures.spec(job));

    ApiException refused = catchThrowableOfType(ApiException.class, () -> create(client, job));

    assertThat(refused).as(caseName + " must be refused").isNotNull();
    assertThat(refused.getCode()).isEqualTo(422);
    V1Status status = new JSON().deserialize(refused.getResponseBody(), V1Status.class);
    assertThat(status.getReason()).isEqualTo("Invalid");
    assertThat(status.getMessage()).contains(expectedInMessage);
    assertThat(status.getDetails().getCauses()).extracting(V1StatusCause::getField)
        .anySatisfy(field -> assertThat(field).startsWith(expectedInMessage.get(0)));
  }

  @Test
  void theValidJobBesideThemIsAccepted(ApiClient client) throws ApiException {
    Map<String, Object> job = TYJobFixtures.minimalTyJob(TYJobFixtures.uniqueName("valid"));
    TYJobFixtures.spec(job).put("priority", 10);
    TYJobFixtures.spec(job).put("cleanPodPolicy", "None");

    Object created = create(client, job);

    assertThat(created).isNotNull();
  }

  private static Object create(ApiClient client, Map<String, Object> job) throws ApiException {
    return new CustomObjectsApi(client)
        .createNamespacedCustomObject(ArrangerResources.GROUP, ArrangerResources.VERSION, "default",
            ArrangerResources.TYJOBS, job)
        .execute();
  }
}
