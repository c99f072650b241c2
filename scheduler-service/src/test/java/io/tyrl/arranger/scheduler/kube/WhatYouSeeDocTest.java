package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.reasons.SchedulingReasons;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Keeps {@code docs/what-you-see.md} true: every reason the status can hold is explained there, the
 * scheduler's reasons are exactly the shared vocabulary, and the page names the lifecycle entries
 * still to be written.
 */
class WhatYouSeeDocTest {

  private static String page() throws IOException {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path page = dir.resolve("docs/what-you-see.md");
      if (Files.isRegularFile(page)) {
        return Files.readString(page);
      }
    }
    throw new IllegalStateException("no docs/what-you-see.md above " + Path.of("").toAbsolutePath());
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
    assertThat(page).contains("`Scheduled`", "`Preempting`", "`InvalidJob`", "(combined from similar events)");
  }

  @Test
  void theLifecycleEntriesStillToComeAreNamed() throws IOException {
    String page = page();
    assertThat(page).contains("Preempted", "Reclaimed", "NodeUnreachable", "kubelet", "foreign pod");
  }
}
