package io.tyrl.arranger.testing.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonParser;
import io.tyrl.arranger.testing.MalformedTYJob;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MalformedCorpusTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "no status yet                    | {}                                                                                   | spec.leader.template   | false",
        "failed, message names the field  | {'stage':'Failed','conditions':[{'type':'Validated','status':'False','message':'spec.workerSets[0].counts: 2147483647 exceeds 10000'}]} | spec.workerSets[0].counts | true",
        "failed, message names another    | {'stage':'Failed','conditions':[{'type':'Validated','status':'False','message':'spec.leader.name: too long'}]} | spec.workerSets[0].counts | false",
        "validated false without stage    | {'conditions':[{'type':'Validated','status':'False','message':'spec.leader.template: no containers'}]} | containers        | true",
        "failed without any message       | {'stage':'Failed'}                                                                   | spec.leader.template   | false",
        "scheduler's InvalidJob           | {'scheduling':{'reason':'InvalidJob','message':'resources.requests.cpu: abc'}}       | requests.cpu           | true",
        "merely unschedulable             | {'scheduling':{'reason':'Unschedulable','message':'0/16 nodes fit: spec.leader'}}    | spec.leader            | false",
        "running                          | {'stage':'Running','conditions':[{'type':'Validated','status':'True','message':'spec.leader ok'}]} | spec.leader | false",
        "field named without indices      | {'stage':'Failed','conditions':[{'type':'Validated','status':'False','message':'spec.workerSets.counts: must be at most 10000'}]} | spec.workerSets[0].counts | true"
      })
  void aCaseIsHandledWhenMarkedInvalidWithAMessageNamingTheField(
      String name, String status, String field, boolean handled) {
    var job =
        JsonParser.parseString("{'metadata':{'name':'x'},'status':" + status + "}")
            .getAsJsonObject();
    var expected =
        new MalformedTYJob("x.yaml", "x", MalformedTYJob.Outcome.FAILED, field, name, Map.of());

    assertThat(MalformedCorpus.markedInvalid(job, expected)).isEqualTo(handled);
  }
}
