package io.tyrl.arranger.scheduler.api;

import static io.tyrl.arranger.scheduler.sim.Fixtures.job;
import static io.tyrl.arranger.scheduler.sim.Fixtures.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SnapshotTest {

  @Test
  void twoJobsOfOneNameInOneNamespaceAreRefusedByTheirKey() {
    List<JobInfo> jobs =
        List.of(
            job("pong").namespace("rl").leader("cpu", "1").build(),
            job("pong").namespace("rl").leader("cpu", "2").build());

    assertThatThrownBy(() -> new Snapshot(List.of(), jobs, List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("snapshot has two jobs named rl/pong");
  }

  @Test
  void oneNameInTwoNamespacesIsTwoJobs() {
    List<JobInfo> jobs =
        List.of(
            job("pong").namespace("rl").leader("cpu", "1").build(),
            job("pong").namespace("rl-2").leader("cpu", "1").build());

    assertThat(new Snapshot(List.of(), jobs, List.of()).jobs()).hasSize(2);
  }

  @Test
  void twoQueuesOfOneNameAreRefused() {
    assertThatThrownBy(
            () ->
                new Snapshot(
                    List.of(), List.of(), List.of(QueueInfo.of("q", 1), QueueInfo.of("q", 2))))
        .hasMessage("snapshot has two queues named q");
  }

  @Test
  void twoNodesOfOneNameAreRefused() {
    assertThatThrownBy(
            () ->
                new Snapshot(
                    List.of(node("n").cpu("1").build(), node("n").cpu("2").build()),
                    List.of(),
                    List.of()))
        .hasMessage("snapshot has two nodes named n");
  }
}
