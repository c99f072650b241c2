package io.tyrl.arranger.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BasicPolicyTest {

  @Test
  void aPolicyIsItsCrdNameAndEqualsAnyOtherOfThatName() {
    assertThat(new BasicPolicy("LeaderFirst"))
        .isEqualTo(BasicPolicy.LEADER_FIRST)
        .hasToString("LeaderFirst");
    assertThat(BasicPolicy.GANG.name()).isEqualTo("Gang");
  }

  @Test
  void aPolicyMustNameOne() {
    assertThatThrownBy(() -> new BasicPolicy(" "))
        .hasMessage("basicPolicy must name a policy, got ' '");
    assertThatThrownBy(() -> new BasicPolicy(null))
        .hasMessage("basicPolicy must name a policy, got null");
  }
}
