package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.JSON;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class TYJobDecoderTest {

  private final TYJobDecoder decoder = new TYJobDecoder(new JSON().getGson());

  @Test
  void aWellFormedJobDecodesWhole() {
    TYJobDecoder.Decoded decoded = decoder.decode(job(json -> { }));

    assertThat(decoded.problem()).isEmpty();
    assertThat(decoded.job().getSpec().getWorkerSets()).hasSize(2);
    assertThat(decoded.key()).isEqualTo("rl/pong");
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of("leader template without containers", (Consumer<JsonObject>) json ->
            podSpec(json, "leader").remove("containers"), "spec.leader.template", "containers"),
        Arguments.of("a bad quantity in a worker's container", (Consumer<JsonObject>) json ->
            container(json, 1).getAsJsonObject("resources").getAsJsonObject("requests").addProperty("cpu", "abc"),
            "spec.workerSets[1].template.spec.containers[0]", "abc"),
        Arguments.of("containers of the wrong type", (Consumer<JsonObject>) json ->
            podSpec(json, "leader").addProperty("containers", "learner"), "spec.leader.template", ""),
        Arguments.of("a volume of the wrong shape", (Consumer<JsonObject>) json ->
            json.getAsJsonObject("spec").add("volumes", JsonParser.parseString("[{\"name\": 3, \"emptyDir\": []}]")),
            "spec.volumes[0]", ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void aJobTheModelRefusesIsNamedByItsFieldAndKeepsItsIdentityAndStatus(String what, Consumer<JsonObject> breakIt,
      String path, String mentions) {
    JsonObject raw = job(breakIt);

    TYJobDecoder.Decoded decoded = decoder.decode(raw);

    assertThat(decoded.problem()).hasValueSatisfying(problem ->
        assertThat(problem).startsWith(path + ":").contains(mentions).doesNotContain("{\"").hasSizeLessThanOrEqualTo(300));
    assertThat(decoded.job().getSpec()).isNull();
    assertThat(decoded.job().getMetadata().getResourceVersion()).isEqualTo("17");
    assertThat(decoded.job().getStatus().getAllocations()).containsEntry("pong-learner", "n1");
  }

  private static JsonObject podSpec(JsonObject json, String leader) {
    return json.getAsJsonObject("spec").getAsJsonObject(leader).getAsJsonObject("template").getAsJsonObject("spec");
  }

  private static JsonObject container(JsonObject json, int workerSet) {
    return json.getAsJsonObject("spec").getAsJsonArray("workerSets").get(workerSet).getAsJsonObject()
        .getAsJsonObject("template").getAsJsonObject("spec").getAsJsonArray("containers").get(0).getAsJsonObject();
  }

  private static JsonObject job(Consumer<JsonObject> change) {
    JsonObject json = JsonParser.parseString("""
        {"apiVersion": "arranger.tyrl.io/v1alpha1", "kind": "TYJob",
         "metadata": {"namespace": "rl", "name": "pong", "uid": "u1", "resourceVersion": "17"},
         "spec": {"leader": {"name": "learner", "template": {"spec": {"containers": [{"name": "l", "image": "x",
                    "resources": {"requests": {"cpu": "1"}}}]}}},
                  "workerSets": [
                    {"name": "a", "counts": 2, "template": {"spec": {"containers": [{"name": "a", "image": "x"}]}}},
                    {"name": "b", "counts": 1, "template": {"spec": {"containers": [{"name": "b", "image": "x",
                      "resources": {"requests": {"cpu": "2"}}}]}}}]},
         "status": {"allocations": {"pong-learner": "n1"}}}""").getAsJsonObject();
    change.accept(json);
    return json;
  }
}
