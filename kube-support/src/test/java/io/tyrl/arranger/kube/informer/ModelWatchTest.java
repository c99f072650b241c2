package io.tyrl.arranger.kube.informer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonParseException;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.Watch;
import io.tyrl.arranger.kube.ModelGson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import okio.Buffer;
import okio.BufferedSource;
import okio.ForwardingSource;
import okio.Okio;
import org.junit.jupiter.api.Test;

class ModelWatchTest {

  private static final String POD =
      """
      {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p-%s","namespace":"ns","resourceVersion":"%s"},\
      "spec":{"nodeName":"node-a","containers":[{"name":"c","image":"i"}]}}""";

  private static String pod(String name, String version) {
    return POD.formatted(name, version);
  }

  private static ModelWatch<V1Pod> watchOf(String lines, AtomicBoolean closed) {
    return new ModelWatch<>(
        ModelGson.get(), V1Pod.class, new Buffer().writeUtf8(lines), () -> closed.set(true));
  }

  @Test
  void readsEachEventWithItsTypeAndObjectUntilTheStreamEnds() throws IOException {
    String lines =
        "{\"type\":\"ADDED\",\"object\":"
            + pod("a", "11")
            + "}\n"
            + "{\"type\":\"MODIFIED\",\"object\":"
            + pod("a", "12")
            + "}\n"
            + "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"13\"}}}\n"
            + "{\"type\":\"DELETED\",\"object\":"
            + pod("a", "14")
            + "}\n";
    AtomicBoolean closed = new AtomicBoolean();
    List<String> seen = new ArrayList<>();
    try (ModelWatch<V1Pod> watch = watchOf(lines, closed)) {
      while (watch.hasNext()) {
        Watch.Response<V1Pod> event = watch.next();
        seen.add(
            event.type
                + " "
                + event.object.getMetadata().getName()
                + "@"
                + event.object.getMetadata().getResourceVersion());
        assertThat(event.status).isNull();
      }
    }
    assertThat(seen)
        .containsExactly("ADDED p-a@11", "MODIFIED p-a@12", "BOOKMARK null@13", "DELETED p-a@14");
    assertThat(closed).isTrue();
  }

  @Test
  void anErrorEventCarriesTheApiServersStatusSoThatTheReflectorCanTellAnExpiredVersion() {
    String line =
        "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
            + "\"message\":\"too old resource version: 5 (90)\",\"reason\":\"Expired\",\"code\":410}}\n";
    Watch.Response<V1Pod> event = watchOf(line, new AtomicBoolean()).next();
    assertThat(event.type).isEqualTo("ERROR");
    assertThat(event.object).isNull();
    assertThat(event.status.getCode()).isEqualTo(410);
    assertThat(event.status.getReason()).isEqualTo("Expired");
  }

  @Test
  void anObjectWrittenBeforeItsTypeIsReadAsWell() {
    Watch.Response<V1Pod> added =
        watchOf("{\"object\":" + pod("b", "7") + ",\"type\":\"ADDED\"}\n", new AtomicBoolean())
            .next();
    assertThat(added.type).isEqualTo("ADDED");
    assertThat(added.object.getSpec().getNodeName()).isEqualTo("node-a");
    Watch.Response<V1Pod> error =
        watchOf(
                "{\"object\":{\"kind\":\"Status\",\"code\":500},\"type\":\"ERROR\"}\n",
                new AtomicBoolean())
            .next();
    assertThat(error.status.getCode()).isEqualTo(500);
    assertThat(error.object).isNull();
  }

  @Test
  void anEventWithoutATypeOrNotJsonIsRefusedNamingWhatWasRead() {
    assertThatThrownBy(
            () -> watchOf("{\"object\":" + pod("c", "1") + "}\n", new AtomicBoolean()).next())
        .isInstanceOf(JsonParseException.class)
        .hasMessageContaining("without a type")
        .hasMessageContaining("p-c");
    assertThatThrownBy(() -> watchOf("not json\n", new AtomicBoolean()).next())
        .isInstanceOf(JsonParseException.class);
  }

  @Test
  void aTypeThatIsNotAStringCountsAsNoTypeAndAnEventWithoutAnObjectCarriesNone() {
    assertThatThrownBy(
            () ->
                watchOf("{\"type\":null,\"object\":" + pod("d", "2") + "}\n", new AtomicBoolean())
                    .next())
        .isInstanceOf(JsonParseException.class)
        .hasMessageContaining("without a type");
    Watch.Response<V1Pod> bare =
        watchOf("{\"type\":\"BOOKMARK\",\"extra\":[1,2]}\n", new AtomicBoolean()).next();
    assertThat(bare.type).isEqualTo("BOOKMARK");
    assertThat(bare.object).isNull();
    assertThat(bare.status).isNull();
  }

  @Test
  void aBrokenStreamIsReportedAsClientJavasReflectorExpectsSoThatItListsAgain() {
    BufferedSource broken =
        Okio.buffer(
            new ForwardingSource(new Buffer()) {
              @Override
              public long read(Buffer sink, long byteCount) throws IOException {
                throw new IOException("stream reset");
              }
            });
    ModelWatch<V1Pod> watch = new ModelWatch<>(ModelGson.get(), V1Pod.class, broken, () -> {});
    assertThatThrownBy(watch::hasNext)
        .isInstanceOf(RuntimeException.class)
        .hasMessageStartingWith(ModelWatch.BROKEN_STREAM)
        .hasMessageContaining("V1Pod")
        .hasMessageContaining("stream reset");
  }

  @Test
  void nextAfterTheLastEventSaysTheWatchHasEnded() {
    ModelWatch<V1Pod> watch = watchOf("", new AtomicBoolean());
    assertThat(watch.hasNext()).isFalse();
    assertThatThrownBy(watch::next)
        .isInstanceOf(java.util.NoSuchElementException.class)
        .hasMessageContaining("V1Pod");
  }
}
