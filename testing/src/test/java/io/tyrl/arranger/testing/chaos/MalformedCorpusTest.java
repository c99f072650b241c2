package io.tyrl.arranger.testing.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonParser;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MalformedCorpusTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', nullValues = "-", value = {
      "no status yet                    | {}                                                                                   | -                      | false",
      "failed, message names the field  | {'stage':'Failed','conditions':[{'type':'Validated','status':'False','message':'spec.workerSets[0].counts: 2147483647 exceeds 10000'}]} | spec.workerSets[0].counts | true",
      "failed, message names another    | {'stage':'Failed','conditions':[{'type':'Validated','status':'False','message':'spec.leader.name: too long'}]} | spec.workerSets[0].counts | false",
      "failed, no field expected        | {'stage':'Failed','conditions':[{'type':'Validated','status':'False','message':'bad quantity abc'}]} | -                   | true",
      "validated false without stage    | {'conditions':[{'type':'Validated','status':'False','message':'spec.leader.template: no containers'}]} | containers        | true",
      "failed without any message       | {'stage':'Failed'}                                                                   | -                      | false",
      "scheduler's InvalidJob           | {'scheduling':{'reason':'InvalidJob','message':'resources.requests.cpu: abc'}}       | requests.cpu           | true",
      "merely unschedulable             | {'scheduling':{'reason':'Unschedulable','message':'0/16 nodes fit'}}                 | -                      | false",
      "running                          | {'stage':'Running','conditions':[{'type':'Validated','status':'True','message':'ok'}]} | -                    | false",
      "field named without indices      | {'stage':'Failed','conditions':[{'type':'Validated','status':'False','message':'spec.workerSets.counts: must be at most 10000'}]} | spec.workerSets[0].counts | true"})
  void aCaseIsHandledWhenMarkedInvalidWithAMessageNamingTheField(String name, String status, String field,
      boolean handled) {
    var job = JsonParser.parseString("{'metadata':{'name':'x'},'status':" + status + "}").getAsJsonObject();
    assertThat(MalformedCorpus.markedInvalid(job, field)).isEqualTo(handled);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', nullValues = "-", value = {
      "as written        | TYJob.arranger.tyrl.io \"x\" is invalid: spec.workerSets[0].counts: Invalid value | spec.workerSets[0].counts | true",
      "without indices   | TYJob.arranger.tyrl.io \"x\" is invalid: spec.workerSets.counts: Invalid value    | spec.workerSets[0].counts | true",
      "another field     | TYJob.arranger.tyrl.io \"x\" is invalid: spec.leader.name: Invalid value          | spec.workerSets[0].counts | false",
      "no field expected | anything                                                                            | -                         | true",
      "empty message     | ' '                                                                                 | -                         | false"})
  void aRefusalOrMarkNamesTheFieldAsWrittenOrWithoutIndices(String name, String message, String field,
      boolean names) {
    assertThat(MalformedCorpus.namesField(message, field)).isEqualTo(names);
  }
}
