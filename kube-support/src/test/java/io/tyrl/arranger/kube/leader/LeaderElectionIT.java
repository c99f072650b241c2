package io.tyrl.arranger.kube.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KubeApiServerExtension.class)
class LeaderElectionIT {

  private static final Duration LEASE = Duration.ofSeconds(4);

  @Test
  void exactlyOneReplicaLeadsAndAStandbyTakesOverWhenTheLeaderStops(ControlPlane controlPlane)
      throws Exception {
    String lease = "election-" + UUID.randomUUID().toString().substring(0, 8);
    RecordingListener firstEvents = new RecordingListener();
    RecordingListener secondEvents = new RecordingListener();
    LeaderElection first = election(controlPlane.adminClient(), lease, "replica-a", firstEvents);
    LeaderElection second = election(controlPlane.adminClient(), lease, "replica-b", secondEvents);
    try {
      first.start();
      await().atMost(Duration.ofSeconds(10)).until(first::isLeader);
      second.start();
      Thread.sleep(LEASE.toMillis());
      assertThat(second.isLeader()).as("standby must not lead while the leader renews").isFalse();
      assertThat(first.mayWrite()).as("the leader renews, so its writes pass the fence").isTrue();
      assertThat(second.mayWrite()).as("a standby never writes").isFalse();

      first.stop();

      assertThat(first.mayWrite()).as("a replica that gave the lease up writes nothing").isFalse();
      assertThat(firstEvents.events).containsExactly("started", "drained", "stopped");
      await().atMost(LEASE.plusSeconds(3)).until(second::isLeader);
      V1Lease stored =
          new CoordinationV1Api(controlPlane.adminClient())
              .readNamespacedLease(lease, "default")
              .execute();
      assertThat(stored.getSpec().getHolderIdentity()).isEqualTo("replica-b");
      assertThat(secondEvents.events).containsExactly("started");
    } finally {
      first.stop();
      second.stop();
    }
  }

  @Test
  void losingTheLeaseStopsTheLeaderWorkAtOnce(ControlPlane controlPlane) throws Exception {
    String lease = "stolen-" + UUID.randomUUID().toString().substring(0, 8);
    RecordingListener events = new RecordingListener();
    LeaderElection election = election(controlPlane.adminClient(), lease, "replica-a", events);
    try {
      election.start();
      await().atMost(Duration.ofSeconds(10)).until(election::isLeader);
      CoordinationV1Api leases = new CoordinationV1Api(controlPlane.adminClient());

      leases.deleteNamespacedLease(lease, "default").execute();
      V1Lease taken =
          new V1Lease()
              .metadata(new io.kubernetes.client.openapi.models.V1ObjectMeta().name(lease))
              .spec(
                  new io.kubernetes.client.openapi.models.V1LeaseSpec()
                      .holderIdentity("intruder")
                      .leaseDurationSeconds(60)
                      .renewTime(java.time.OffsetDateTime.now()));
      leases.createNamespacedLease("default", taken).execute();

      await().atMost(Duration.ofSeconds(10)).until(() -> !election.isLeader());
      assertThat(election.mayWrite()).isFalse();
      assertThat(events.events).containsExactly("started", "stopped");
    } finally {
      election.stop();
    }
  }

  private static LeaderElection election(
      ApiClient client, String lease, String identity, LeadershipListener listener) {
    LeaderElectionProperties properties =
        new LeaderElectionProperties(
            true,
            lease,
            "default",
            identity,
            LEASE,
            Duration.ofSeconds(3),
            Duration.ofMillis(500),
            Duration.ofSeconds(2));
    return new LeaderElection(
        properties,
        client,
        List.of(listener),
        new SimpleMeterRegistry(),
        "test",
        Duration.ofSeconds(1));
  }

  private static final class RecordingListener implements LeadershipListener {
    final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void startedLeading() {
      events.add("started");
    }

    @Override
    public void stoppedLeading() {
      events.add("stopped");
    }

    @Override
    public void drain(Duration timeout) {
      events.add("drained");
    }
  }
}
