package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonMergePatchTest {

  /** The examples of RFC 7386, appendix A, and the shapes the scheduler's patches take. */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"a\":\"b\"}|{\"a\":\"c\"}|{\"a\":\"c\"}",
        "{\"a\":\"b\"}|{\"b\":\"c\"}|{\"a\":\"b\",\"b\":\"c\"}",
        "{\"a\":\"b\"}|{\"a\":null}|{}",
        "{\"a\":\"b\",\"b\":\"c\"}|{\"a\":null}|{\"b\":\"c\"}",
        "{\"a\":[\"b\"]}|{\"a\":\"c\"}|{\"a\":\"c\"}",
        "{\"a\":\"c\"}|{\"a\":[\"b\"]}|{\"a\":[\"b\"]}",
        "{\"a\":{\"b\":\"c\"}}|{\"a\":{\"b\":\"d\",\"c\":null}}|{\"a\":{\"b\":\"d\"}}",
        "{\"a\":[{\"b\":\"c\"}]}|{\"a\":[1]}|{\"a\":[1]}",
        "{\"e\":null}|{\"a\":1}|{\"e\":null,\"a\":1}",
        "[1,2]|{\"a\":\"b\",\"c\":null}|{\"a\":\"b\"}",
        "{}|{\"a\":{\"bb\":{\"ccc\":null}}}|{\"a\":{\"bb\":{}}}",
        "{\"allocations\":{\"p-0\":\"n1\",\"p-1\":\"n2\"}}|{\"allocations\":{\"p-1\":null,\"p-2\":\"n3\"}}|{\"allocations\":{\"p-0\":\"n1\",\"p-2\":\"n3\"}}"
      })
  void mergesAsTheApiServerDoes(String target, String patch, String expected) {
    JsonElement original = JsonParser.parseString(target);

    JsonElement merged = JsonMergePatch.apply(original, JsonParser.parseString(patch));

    assertThat(merged).isEqualTo(JsonParser.parseString(expected));
    assertThat(original).as("the target is not changed").isEqualTo(JsonParser.parseString(target));
  }
}
