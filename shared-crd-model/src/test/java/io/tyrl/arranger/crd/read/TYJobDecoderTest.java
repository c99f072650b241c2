package io.tyrl.arranger.crd.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.JSON;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TYJobDecoderTest {

  private final TYJobDecoder decoder = new TYJobDecoder(new JSON().getGson());

  @Test
  void aWellFormedJobDecodesWhole() {
    TYJobDecoder.Decoded decoded = decoder.decode(job(json -> {}));

    assertThat(decoded.problem()).isEmpty();
    assertThat(decoded.job().getSpec().getWorkerSets()).hasSize(2);
    assertThat(decoded.key()).isEqualTo("rl/pong");
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of(
            "leader template without containers",
            (Consumer<JsonObject>) json -> podSpec(json, "leader").remove("containers"),
            "spec.leader.template.spec.containers",
            "is required"),
        Arguments.of(
            "a bad quantity in a worker's container",
            (Consumer<JsonObject>)
                json ->
                    container(json, 1)
                        .getAsJsonObject("resources")
                        .getAsJsonObject("requests")
                        .addProperty("cpu", "abc"),
            "spec.workerSets[1].template.spec.containers[0].resources.requests[cpu]",
            "\"abc\" is not a Kubernetes quantity"),
        Arguments.of(
            "containers of the wrong type",
            (Consumer<JsonObject>)
                json -> podSpec(json, "leader").addProperty("containers", "learner"),
            "spec.leader.template.spec.containers",
            "\"learner\" is not a list"),
        Arguments.of(
            "a container without its required name",
            (Consumer<JsonObject>) json -> container(json, 0).remove("name"),
            "spec.workerSets[0].template.spec.containers[0].name",
            "is required"),
        Arguments.of(
            "a port of the wrong type inside a template",
            (Consumer<JsonObject>)
                json ->
                    container(json, 1)
                        .add("ports", JsonParser.parseString("[{\"containerPort\": \"80\"}]")),
            "spec.workerSets[1].template.spec.containers[0].ports[0].containerPort",
            "\"80\" is not a 32-bit integer"),
        Arguments.of(
            "a volume of the wrong shape",
            (Consumer<JsonObject>)
                json ->
                    json.getAsJsonObject("spec")
                        .add(
                            "volumes", JsonParser.parseString("[{\"name\": 3, \"emptyDir\": []}]")),
            "spec.volumes[0].name",
            "3 is not a string"),
        Arguments.of(
            "counts beyond int32, which Gson would wrap",
            (Consumer<JsonObject>)
                json -> workerSet(json, 0).addProperty("counts", 10_000_000_000L),
            "spec.workerSets[0].counts",
            "10000000000 is not a 32-bit integer"),
        Arguments.of(
            "restartLimit of 2^32, which Gson would wrap to 0",
            (Consumer<JsonObject>)
                json -> json.getAsJsonObject("spec").addProperty("restartLimit", 4_294_967_296L),
            "spec.restartLimit",
            "4294967296 is not a 32-bit integer"),
        Arguments.of(
            "counts of the wrong type",
            (Consumer<JsonObject>) json -> workerSet(json, 1).addProperty("counts", "three"),
            "spec.workerSets[1].counts",
            "\"three\" is not a 32-bit integer"),
        Arguments.of(
            "a fraction, which Gson would cut",
            (Consumer<JsonObject>)
                json -> json.getAsJsonObject("spec").addProperty("minWorkersNum", 2.5),
            "spec.minWorkersNum",
            "2.5 is not"),
        Arguments.of(
            "a number as text, which Gson would read as the number",
            (Consumer<JsonObject>)
                json -> json.getAsJsonObject("spec").addProperty("priority", "3"),
            "spec.priority",
            "\"3\" is not a 32-bit integer"),
        Arguments.of(
            "terminating as text, which Gson would read as false",
            (Consumer<JsonObject>)
                json -> json.getAsJsonObject("spec").addProperty("terminating", "yes"),
            "spec.terminating",
            "\"yes\" is not true or false"),
        Arguments.of(
            "a queue of the wrong type",
            (Consumer<JsonObject>) json -> json.getAsJsonObject("spec").addProperty("queue", 3),
            "spec.queue",
            "3 is not a string"),
        Arguments.of(
            "a policy the CRD does not list",
            (Consumer<JsonObject>)
                json -> json.getAsJsonObject("spec").addProperty("cleanPodPolicy", "Sometimes"),
            "spec.cleanPodPolicy",
            "\"Sometimes\" is not one of Running, All, None"),
        Arguments.of(
            "a leader that is not an object",
            (Consumer<JsonObject>)
                json -> json.getAsJsonObject("spec").addProperty("leader", "learner"),
            "spec.leader",
            "\"learner\" is not an object"),
        Arguments.of(
            "workerSets that are not a list",
            (Consumer<JsonObject>)
                json -> json.getAsJsonObject("spec").add("workerSets", workerSet(json, 0)),
            "spec.workerSets",
            "an object is not a list"),
        Arguments.of(
            "a gang mode the CRD does not list",
            (Consumer<JsonObject>)
                json ->
                    json.getAsJsonObject("spec")
                        .add("gang", JsonParser.parseString("{\"mode\": \"Loose\"}")),
            "spec.gang.mode",
            "\"Loose\" is not one of Strict, NonStrict"));
  }

  @Test
  void fieldsTheModelDoesNotHaveAreLeftAloneAndNullsReadAsAbsent() {
    TYJobDecoder.Decoded decoded =
        decoder.decode(
            job(
                json -> {
                  json.getAsJsonObject("spec").addProperty("addedLater", "x");
                  json.getAsJsonObject("spec")
                      .add("restartLimit", com.google.gson.JsonNull.INSTANCE);
                }));

    assertThat(decoded.problem()).isEmpty();
    assertThat(decoded.job().getSpec().getRestartLimit()).isNull();
  }

  @Test
  void aStatusValueTheModelCannotHoldCostsThatValueOnly() {
    TYJobDecoder.Reading read =
        decoder.read(
            job(
                json ->
                    json.add(
                        "status",
                        JsonParser.parseString(
                            """
        {"stage": "Later", "readyWorkers": 4294967296, "allocations": {"pong-learner": "n1", "pong-a-0": 7},
         "leader": {"pod": "pong-learner", "restarts": "many"}, "conditions": "none",
         "workerSets": [{"name": "a", "ready": 1}, "b"]}"""))));

    assertThat(read.refusal()).isEmpty();
    assertThat(read.job().getStatus())
        .satisfies(
            status -> {
              assertThat(status.getStage())
                  .as("the schema's default: an unreadable stage reads as one never written")
                  .isEqualTo(io.tyrl.arranger.model.V1alpha1TYJobStatus.StageEnum.PENDING);
              assertThat(status.getReadyWorkers()).isNull();
              assertThat(status.getAllocations())
                  .containsExactly(java.util.Map.entry("pong-learner", "n1"));
              assertThat(status.getLeader().getPod()).isEqualTo("pong-learner");
              assertThat(status.getLeader().getRestarts()).isNull();
              assertThat(status.getConditions()).isNull();
              assertThat(status.getWorkerSets())
                  .singleElement()
                  .satisfies(set -> assertThat(set.getReady()).isEqualTo(1));
            });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void aJobTheModelRefusesIsNamedByItsFieldAndKeepsItsIdentityAndStatus(
      String what, Consumer<JsonObject> breakIt, String path, String mentions) {
    JsonObject raw = job(breakIt);

    TYJobDecoder.Decoded decoded = decoder.decode(raw);

    assertThat(decoded.problem())
        .hasValueSatisfying(
            problem ->
                assertThat(problem)
                    .startsWith(path + ":")
                    .contains(mentions)
                    .doesNotContain("{\"")
                    .hasSizeLessThanOrEqualTo(300));
    assertThat(decoded.job().getSpec()).isNull();
    assertThat(decoded.job().getMetadata().getResourceVersion()).isEqualTo("17");
    assertThat(decoded.job().getStatus().getAllocations()).containsEntry("pong-learner", "n1");
  }

  @Test
  void aTemplateIsReadAloneAndARefusalNamesTheFieldInsideIt() {
    JsonObject raw = job(json -> container(json, 1).addProperty("imagee", "x"));
    JsonObject template =
        raw.getAsJsonObject("spec")
            .getAsJsonArray("workerSets")
            .get(1)
            .getAsJsonObject()
            .getAsJsonObject("template");

    TYJobDecoder.Template read = decoder.template(template);

    assertThat(read.template()).isEmpty();
    assertThat(read.refusal())
        .hasValueSatisfying(
            refusal -> {
              assertThat(refusal.path()).isEqualTo("spec.containers[0]");
              assertThat(refusal.complaint())
                  .isEqualTo(
                      "The field \"imagee\" is not defined in the \"V1Container\" properties.");
              assertThat(refusal.under("spec.workerSets[1].template").toString())
                  .isEqualTo(
                      "spec.workerSets[1].template.spec.containers[0]: " + refusal.complaint());
            });
    assertThat(decoder.decode(raw).problem())
        .contains(
            "spec.workerSets[1].template.spec.containers[0]: The field \"imagee\" is not defined in the \"V1Container\" properties.");
    assertThat(
            decoder
                .template(
                    job(json -> {})
                        .getAsJsonObject("spec")
                        .getAsJsonObject("leader")
                        .get("template"))
                .template())
        .isPresent();
  }

  @Test
  void volumesAreReadOrTheFirstRefusedOneIsNamed() {
    assertThat(
            decoder
                .volumes(JsonParser.parseString("[{\"name\": \"a\", \"emptyDir\": {}}]"))
                .volumes())
        .hasSize(1);
    assertThat(
            decoder.volumes(
                JsonParser.parseString("[{\"name\": \"a\"}, {\"name\": \"b\", \"emptyDir\": []}]")))
        .satisfies(
            volumes -> {
              assertThat(volumes.volumes()).isEmpty();
              assertThat(volumes.refusal().orElseThrow().path()).isEqualTo("spec.volumes[1]");
            });
    assertThat(decoder.volumes(null).volumes()).isEmpty();
  }

  private static JsonObject podSpec(JsonObject json, String leader) {
    return json.getAsJsonObject("spec")
        .getAsJsonObject(leader)
        .getAsJsonObject("template")
        .getAsJsonObject("spec");
  }

  private static JsonObject workerSet(JsonObject json, int index) {
    return json.getAsJsonObject("spec").getAsJsonArray("workerSets").get(index).getAsJsonObject();
  }

  private static JsonObject container(JsonObject json, int workerSet) {
    return json.getAsJsonObject("spec")
        .getAsJsonArray("workerSets")
        .get(workerSet)
        .getAsJsonObject()
        .getAsJsonObject("template")
        .getAsJsonObject("spec")
        .getAsJsonArray("containers")
        .get(0)
        .getAsJsonObject();
  }

  private static JsonObject job(Consumer<JsonObject> change) {
    JsonObject json =
        JsonParser.parseString(
                """
        {"apiVersion": "arranger.tyrl.io/v1alpha1", "kind": "TYJob",
         "metadata": {"namespace": "rl", "name": "pong", "uid": "u1", "resourceVersion": "17"},
         "spec": {"leader": {"name": "learner", "template": {"spec": {"containers": [{"name": "l", "image": "x",
                    "resources": {"requests": {"cpu": "1"}}}]}}},
                  "workerSets": [
                    {"name": "a", "counts": 2, "template": {"spec": {"containers": [{"name": "a", "image": "x"}]}}},
                    {"name": "b", "counts": 1, "template": {"spec": {"containers": [{"name": "b", "image": "x",
                      "resources": {"requests": {"cpu": "2"}}}]}}}]},
         "status": {"allocations": {"pong-learner": "n1"}}}""")
            .getAsJsonObject();
    change.accept(json);
    return json;
  }
}
