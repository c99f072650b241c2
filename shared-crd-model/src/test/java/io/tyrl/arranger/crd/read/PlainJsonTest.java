package io.tyrl.arranger.crd.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlainJsonTest {

  @Test
  void aTreeReadsBackAsTheSameTreeWithNumbersAsWritten() {
    JsonElement json =
        JsonParser.parseString(
            """
        {"a": [1, 10000000000, 1.5, "x", true, null, {"b": {}}], "c": null}""");

    assertThat(PlainJson.toJson(PlainJson.toPlain(json))).isEqualTo(json);
    assertThat(((List<?>) ((Map<?, ?>) PlainJson.toPlain(json)).get("a")).get(1).toString())
        .isEqualTo("10000000000");
  }

  @Test
  void aNullMapValueIsWrittenAsJsonNullForAMergePatchToRemoveTheKey() {
    Map<String, Object> patch = new LinkedHashMap<>();
    patch.put("gone", null);
    patch.put("kept", List.of("v"));

    assertThat(PlainJson.toJson(patch).toString()).isEqualTo("{\"gone\":null,\"kept\":[\"v\"]}");
  }
}
