package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.contract.status.QueueStatusFields;
import io.tyrl.arranger.crd.reasons.LifecycleReasons;
import io.tyrl.arranger.crd.reasons.QueueReasons;
import io.tyrl.arranger.crd.reasons.SchedulingReasons;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code docs/what-you-see.md} true: every reason the status can hold is explained there, the
 * scheduler's reasons are exactly the shared vocabulary, and the lifecycle section explains each
 * case.
 */
class WhatYouSeeDocTest {

  private static String page() throws IOException {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path page = dir.resolve("docs/what-you-see.md");
      if (Files.isRegularFile(page)) {
        return Files.readString(page);
      }
    }
    throw new IllegalStateException(
        "no docs/what-you-see.md above " + Path.of("").toAbsolutePath());
  }

  @Test
  void theSchedulersReasonsAreTheSharedVocabulary() {
    assertThat(Arrays.stream(ReasonCode.values()).map(ReasonCode::statusValue))
        .containsExactlyInAnyOrderElementsOf(SchedulingReasons.ALL);
  }

  @Test
  void everyReasonAndEveryEventOfTheSchedulerIsExplained() throws IOException {
    String page = page();
    for (String reason : SchedulingReasons.ALL) {
      assertThat(page).as("reason %s", reason).contains("`" + reason + "`");
    }
    assertThat(page)
        .contains("`Scheduled`", "`Preempting`", "`InvalidJob`", "(combined from similar events)");
    for (String reason : SchedulingReasons.EVENTS_ONLY) {
      assertThat(page).as("event reason %s", reason).contains("`" + reason + "`");
    }
  }

  @Test
  void everyReasonOfAQueueAndItsConditionAreExplainedWhereQueuesAre() throws IOException {
    String page = page();
    String queues = page.substring(page.indexOf("## Queues"), page.indexOf("## Jobs"));
    for (String reason : QueueReasons.ALL) {
      assertThat(queues).as("queue reason %s", reason).contains("`" + reason + "`");
    }
    assertThat(queues).contains("`" + QueueStatusFields.TREE_VALID + "`", "PARENT");
    String events = page.substring(page.indexOf("## Events"), page.indexOf("## Lifecycle"));
    for (String reason : QueueReasons.ALL) {
      assertThat(events).as("event reason %s", reason).contains("`" + reason + "`");
    }
  }

  @Test
  void everyEventReasonOfTheControllerIsExplained() throws IOException {
    String page = page();
    for (String reason : LifecycleReasons.EVENTS) {
      assertThat(page).as("event reason %s", reason).contains("`" + reason + "`");
    }
  }

  @Test
  void theLifecycleSectionExplainsEachCaseWithItsReasonAndSetting() throws IOException {
    String page = page();
    String lifecycle = page.substring(page.indexOf("## Lifecycle"));
    assertThat(lifecycle).as("the placeholder is gone").doesNotContain("To be completed");
    assertThat(lifecycle)
        .contains(
            "`Preempted`",
            "`Reclaimed`",
            "status.eviction",
            "counts no restart",
            "`NodeUnreachable`",
            "arranger.controller.unreachable-node-grace",
            "tolerationSeconds",
            "status.avoidNodes",
            "arranger.controller.refusing-node-avoidance",
            "`PodNameConflict`",
            "not adopted");
    assertThat(page)
        .as("a preempted job's loss is not counted as a restart")
        .doesNotContain(
            "`LeaderDeleted`, `LeaderEvicted`, `LeaderFailed` (controller, Warning; counted as a leader restart, `restart n of restartLimit`)");
  }
}
