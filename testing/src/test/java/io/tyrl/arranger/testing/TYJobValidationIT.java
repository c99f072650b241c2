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
import io.tyrl.arranger.crd.bounds.TYJobBounds;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
        Arguments.of(
            "priority 11",
            (Consumer<Map<String, Object>>) spec -> spec.put("priority", 11),
            List.of("spec.priority", "10")),
        Arguments.of(
            "priority 0",
            (Consumer<Map<String, Object>>) spec -> spec.put("priority", 0),
            List.of("spec.priority", "1")),
        Arguments.of(
            "cleanPodPolicy Foo",
            (Consumer<Map<String, Object>>) spec -> spec.put("cleanPodPolicy", "Foo"),
            List.of("spec.cleanPodPolicy", "\"Foo\"")),
        Arguments.of(
            "counts 0",
            (Consumer<Map<String, Object>>) spec -> firstWorkerSet(spec).put("counts", 0),
            List.of("spec.workerSets", "counts")),
        Arguments.of(
            "basicPolicy Random",
            (Consumer<Map<String, Object>>)
                spec -> spec.put("schedulerPolicy", Map.of("basicPolicy", "Random")),
            List.of("spec.schedulerPolicy.basicPolicy", "\"Random\"")),
        Arguments.of(
            "restartLimit -1",
            (Consumer<Map<String, Object>>) spec -> spec.put("restartLimit", -1),
            List.of("spec.restartLimit")),
        Arguments.of(
            "gang mode Loose",
            (Consumer<Map<String, Object>>) spec -> spec.put("gang", Map.of("mode", "Loose")),
            List.of("spec.gang.mode", "\"Loose\"")),
        Arguments.of(
            "no workerSets",
            (Consumer<Map<String, Object>>) spec -> spec.remove("workerSets"),
            List.of("spec.workerSets")),
        Arguments.of(
            "counts 2147483647",
            (Consumer<Map<String, Object>>) spec -> firstWorkerSet(spec).put("counts", 2147483647),
            List.of("spec.workerSets", "counts", "5000")),
        Arguments.of(
            "counts 5001",
            (Consumer<Map<String, Object>>) spec -> firstWorkerSet(spec).put("counts", 5001),
            List.of("spec.workerSets", "counts", "5000")),
        Arguments.of(
            "restartLimit 3000000000 (beyond int32)",
            (Consumer<Map<String, Object>>) spec -> spec.put("restartLimit", 3_000_000_000L),
            List.of("spec.restartLimit", "10000")),
        Arguments.of(
            "minWorkersNum 5001",
            (Consumer<Map<String, Object>>) spec -> spec.put("minWorkersNum", 5001),
            List.of("spec.minWorkersNum", "5000")),
        Arguments.of(
            "33 workerSets",
            (Consumer<Map<String, Object>>)
                spec -> {
                  List<Map<String, Object>> sets = new ArrayList<>();
                  for (int i = 0; i < TYJobBounds.MAX_WORKER_SETS + 1; i++) {
                    Map<String, Object> set = new LinkedHashMap<>(firstWorkerSet(spec));
                    set.put("name", "set-" + i);
                    sets.add(set);
                  }
                  spec.put("workerSets", sets);
                },
            List.of("spec.workerSets", "32")),
        Arguments.of(
            "leader name of 62 characters",
            (Consumer<Map<String, Object>>) spec -> leader(spec).put("name", "l".repeat(62)),
            List.of("spec.leader.name", "61")),
        Arguments.of(
            "workerSet name of 57 characters",
            (Consumer<Map<String, Object>>)
                spec -> firstWorkerSet(spec).put("name", "w".repeat(57)),
            List.of("spec.workerSets", "name", "56")),
        Arguments.of(
            "volume name Data_1",
            (Consumer<Map<String, Object>>)
                spec ->
                    spec.put("volumes", List.of(Map.of("name", "Data_1", "emptyDir", Map.of()))),
            List.of("spec.volumes", "name")),
        Arguments.of(
            "queue Bad Queue",
            (Consumer<Map<String, Object>>) spec -> spec.put("queue", "Bad Queue"),
            List.of("spec.queue")),
        Arguments.of(
            "waitTime of 33 characters",
            (Consumer<Map<String, Object>>)
                spec -> spec.put("gang", Map.of("waitTime", "1".repeat(32) + "s")),
            List.of("spec.gang.waitTime", "32")));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> leader(Map<String, Object> spec) {
    return (Map<String, Object>) spec.get("leader");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> firstWorkerSet(Map<String, Object> spec) {
    return ((List<Map<String, Object>>) spec.get("workerSets")).get(0);
  }

  @ParameterizedTest(name = "{0} is refused naming the field")
  @MethodSource("invalidSpecs")
  void apiServerRefusesTheValueAndNamesTheField(
      String caseName,
      Consumer<Map<String, Object>> breakSpec,
      List<String> expectedInMessage,
      ApiClient client) {
    Map<String, Object> job = TYJobFixtures.minimalTyJob(TYJobFixtures.uniqueName("invalid"));
    breakSpec.accept(TYJobFixtures.spec(job));

    ApiException refused = catchThrowableOfType(ApiException.class, () -> create(client, job));

    assertThat(refused).as(caseName + " must be refused").isNotNull();
    assertThat(refused.getCode()).isEqualTo(422);
    V1Status status = new JSON().deserialize(refused.getResponseBody(), V1Status.class);
    assertThat(status.getReason()).isEqualTo("Invalid");
    assertThat(status.getMessage()).contains(expectedInMessage);
    assertThat(status.getDetails().getCauses())
        .extracting(V1StatusCause::getField)
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

  @Test
  void aJobAtEveryBoundIsAccepted(ApiClient client) throws ApiException {
    Map<String, Object> job = TYJobFixtures.minimalTyJob("j");
    Map<String, Object> spec = TYJobFixtures.spec(job);
    leader(spec).put("name", "l".repeat(TYJobBounds.MAX_LEADER_NAME_LENGTH));
    firstWorkerSet(spec).put("name", "w".repeat(TYJobBounds.MAX_WORKER_SET_NAME_LENGTH));
    firstWorkerSet(spec).put("counts", TYJobBounds.MAX_COUNTS);
    spec.put("restartLimit", TYJobBounds.MAX_RESTART_LIMIT);
    spec.put("minWorkersNum", TYJobBounds.MAX_MIN_WORKERS_NUM);
    spec.put("queue", "team-a.gpu");
    spec.put(
        "gang",
        Map.of("waitTime", "1h30m", "group", "g".repeat(TYJobBounds.MAX_GANG_GROUP_LENGTH)));

    Object created = create(client, job);

    assertThat(created).isNotNull();
  }

  private static Object create(ApiClient client, Map<String, Object> job) throws ApiException {
    return new CustomObjectsApi(client)
        .createNamespacedCustomObject(
            ArrangerResources.GROUP,
            ArrangerResources.VERSION,
            "default",
            ArrangerResources.TYJOBS,
            job)
        .execute();
  }
}
