package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.contract.status.QueueStatusFields;
import io.tyrl.arranger.kube.Backoff;
import io.tyrl.arranger.kube.StatusPatcher;
import io.tyrl.arranger.kube.leader.LeaderElection;
import io.tyrl.arranger.kube.leader.LeaderElectionProperties;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.NodeInfo;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.QueueUsage;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import io.tyrl.arranger.scheduler.conf.FairnessConfiguration;
import io.tyrl.arranger.testing.KubeApiServerExtension;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On the real API server: the usage a leader writes is stored as the CRD's schema has it and reads
 * back the same; once the leader has lost its lease, its usage writes are fenced — nothing is sent,
 * and the stored usage stays as it was.
 */
@ExtendWith(KubeApiServerExtension.class)
class QueueUsageFenceIT {

  private static final Instant T0 = Instant.parse("2026-11-27T12:00:00Z");
  private final ExecutorService threads = Executors.newFixedThreadPool(2);
  private LeaderElection election;

  @AfterEach
  void stop() {
    if (election != null) {
      election.stop();
    }
    threads.shutdownNow();
  }

  @Test
  void usageIsStoredAndReadBackAndAfterTheLeaseIsLostNoUsageIsWritten(ApiClient client)
      throws Exception {
    String queue = "usage-" + UUID.randomUUID().toString().substring(0, 8);
    String lease = "lease-" + queue;
    new CustomObjectsApi(client)
        .createClusterCustomObject(
            ArrangerResources.GROUP,
            ArrangerResources.VERSION,
            ArrangerResources.QUEUES,
            Map.of(
                "apiVersion",
                ArrangerResources.API_VERSION,
                "kind",
                ArrangerResources.QUEUE_KIND,
                "metadata",
                Map.of("name", queue)))
        .execute();
    election =
        new LeaderElection(
            new LeaderElectionProperties(
                true,
                lease,
                "default",
                "replica-a",
                Duration.ofSeconds(4),
                Duration.ofSeconds(3),
                Duration.ofMillis(500),
                Duration.ofSeconds(2)),
            client,
            List.of(),
            new SimpleMeterRegistry(),
            "test",
            Duration.ofSeconds(1));
    election.start();
    await().atMost(Duration.ofSeconds(10)).until(election::mayWrite);
    QueueUsageKeeper keeper =
        new QueueUsageKeeper(
            new StatusPatcher(
                client,
                new Backoff(Duration.ofMillis(50), Duration.ofMillis(500), 5),
                election::mayWrite,
                Duration.ofSeconds(2)),
            threads,
            Duration.ofSeconds(1));
    Snapshot snapshot = holdingEightGpus(queue);

    keeper.withUsage(snapshot, observed(client, queue), T0, FairnessConfiguration.DEFAULT);
    Map<String, QueueUsage> written =
        keeper
            .withUsage(
                snapshot,
                observed(client, queue),
                T0.plusSeconds(3600),
                FairnessConfiguration.DEFAULT)
            .usage();
    keeper.write(observed(client, queue), T0.plusSeconds(3600));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> keeper.writeResults().getOrDefault("written", 0) == 1);

    JsonObject stored = status(client, queue);
    QueueUsage readBack = QueueUsageStatus.read(stored).usage();
    assertThat(readBack.queue().asOf()).isEqualTo(T0.plusSeconds(3600));
    assertThat(readBack.queue().total(Resource.GPU))
        .isCloseTo(written.get(queue).queue().total(Resource.GPU), withinPercentage(0.001))
        .isGreaterThan(8 * 3600 * 0.98);
    assertThat(readBack.namespace("alice").slots()).hasSize(1);

    // Another replica takes the lease: this one may no longer write.
    CoordinationV1Api leases = new CoordinationV1Api(client);
    leases.deleteNamespacedLease(lease, "default").execute();
    leases
        .createNamespacedLease(
            "default",
            new V1Lease()
                .metadata(new V1ObjectMeta().name(lease))
                .spec(
                    new V1LeaseSpec()
                        .holderIdentity("replica-b")
                        .leaseDurationSeconds(60)
                        .renewTime(OffsetDateTime.now())))
        .execute();
    await().atMost(Duration.ofSeconds(10)).until(() -> !election.mayWrite());

    keeper.withUsage(
        snapshot, observed(client, queue), T0.plusSeconds(7200), FairnessConfiguration.DEFAULT);
    assertThat(keeper.write(observed(client, queue), T0.plusSeconds(7200))).isEqualTo(1);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> keeper.writeResults().getOrDefault("fenced", 0) == 1);
    assertThat(keeper.writeResults()).containsEntry("written", 1);
    assertThat(status(client, queue).get(QueueStatusFields.USAGE))
        .as("the stored usage is the leader's last")
        .isEqualTo(stored.get(QueueStatusFields.USAGE));
  }

  private static Snapshot holdingEightGpus(String queue) {
    List<TaskInfo> tasks = new ArrayList<>();
    Resource gpu = Resource.of(Resource.GPU, "1", "cpu", "1");
    tasks.add(TaskInfo.leader("sweep", "learner", gpu).withStatus(TaskStatus.ALLOCATED, "n0"));
    for (int i = 0; i < 7; i++) {
      tasks.add(TaskInfo.worker("sweep", "actor", i, gpu).withStatus(TaskStatus.ALLOCATED, "n0"));
    }
    return new Snapshot(
        List.of(
            new NodeInfo(
                "n0",
                Map.of(),
                List.of(),
                Resource.of(Resource.GPU, "16", "cpu", "64"),
                null,
                null,
                true,
                false,
                0)),
        List.of(
            JobInfo.builder("alice", "sweep")
                .uid("uid-sweep")
                .creationTime(T0)
                .queue(queue)
                .tasks(tasks)
                .build()),
        List.of(QueueInfo.of(queue, 1)));
  }

  private static JsonObject status(ApiClient client, String queue) throws Exception {
    Object raw =
        new CustomObjectsApi(client)
            .getClusterCustomObject(
                ArrangerResources.GROUP, ArrangerResources.VERSION, ArrangerResources.QUEUES, queue)
            .execute();
    JsonObject object = client.getJSON().getGson().toJsonTree(raw).getAsJsonObject();
    return object.has("status") ? object.getAsJsonObject("status") : null;
  }

  private static Map<String, ClusterInformers.ObservedQueue> observed(
      ApiClient client, String queue) throws Exception {
    JsonElement status = status(client, queue);
    return Map.of(
        queue,
        new ClusterInformers.ObservedQueue(
            queue, "uid", "1", status == null ? null : status.getAsJsonObject()));
  }
}
