package io.tyrl.arranger.controller.app;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.micrometer.core.instrument.MeterRegistry;
import io.tyrl.arranger.controller.kube.ControllerMetrics;
import io.tyrl.arranger.controller.kube.ForeignPods;
import io.tyrl.arranger.controller.kube.GpuShareReservations;
import io.tyrl.arranger.controller.kube.InformerCache;
import io.tyrl.arranger.controller.kube.InformersSynced;
import io.tyrl.arranger.controller.kube.JobEventRouter;
import io.tyrl.arranger.controller.kube.JobEvents;
import io.tyrl.arranger.controller.kube.JobViewMapper;
import io.tyrl.arranger.controller.kube.LeaderOnlyController;
import io.tyrl.arranger.controller.kube.NodeReadiness;
import io.tyrl.arranger.controller.kube.PlanExecutor;
import io.tyrl.arranger.controller.kube.PodExpectations;
import io.tyrl.arranger.controller.kube.PodFactory;
import io.tyrl.arranger.controller.kube.PodViewMapper;
import io.tyrl.arranger.controller.kube.ReconcileWorkers;
import io.tyrl.arranger.controller.kube.TYJobReconciler;
import io.tyrl.arranger.controller.kube.VictimEvictor;
import io.tyrl.arranger.controller.lifecycle.LifecyclePlanner;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.contract.GpuShareDevices;
import io.tyrl.arranger.crd.contract.PodLabels;
import io.tyrl.arranger.kube.DaemonThreads;
import io.tyrl.arranger.kube.InformerFactoryLifecycle;
import io.tyrl.arranger.kube.KubernetesClients;
import io.tyrl.arranger.kube.ScopedInformer;
import io.tyrl.arranger.kube.StatusPatcher;
import io.tyrl.arranger.kube.WatchScope;
import io.tyrl.arranger.kube.events.EventRecorder;
import io.tyrl.arranger.kube.informer.ModelListerWatcher;
import io.tyrl.arranger.kube.leader.LeaderElection;
import io.tyrl.arranger.kube.metrics.InformerObjects;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the controller: informers on TYJobs and Arranger's pods → work queue → reconciler, run only
 * while this replica leads. Informers are plain beans (client-java's Spring integration is
 * deprecated).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ControllerProperties.class)
class ControllerWiring {

  private static final Logger log = LoggerFactory.getLogger(ControllerWiring.class);

  @Bean
  Clock controllerClock() {
    return Clock.systemUTC();
  }

  @Bean
  SharedInformerFactory controllerInformerFactory(KubernetesClients clients) {
    return new SharedInformerFactory(clients.informers());
  }

  @Bean
  JobEventRouter jobEventRouter() {
    return new JobEventRouter();
  }

  @Bean
  ScopedInformer<DynamicKubernetesObject> tyJobInformer(
      SharedInformerFactory factory,
      KubernetesClients clients,
      ControllerProperties properties,
      WatchScope scope,
      JobEventRouter router) {
    // Raw objects: a TYJob with a malformed template must reach validation, not break the
    // informer's list.
    DynamicKubernetesApi api =
        new DynamicKubernetesApi(
            ArrangerResources.GROUP,
            ArrangerResources.VERSION,
            ArrangerResources.TYJOBS,
            clients.informers());
    ScopedInformer<DynamicKubernetesObject> informer =
        ScopedInformer.create(
            scope,
            factory,
            clients.informers(),
            (namespaceFactory, namespace) ->
                namespaceFactory.sharedIndexInformerFor(
                    api,
                    DynamicKubernetesObject.class,
                    properties.resyncPeriod().toMillis(),
                    namespace,
                    (type, error) ->
                        log.warn(
                            "TYJob informer: list/watch failed, retrying: {}", error.toString())));
    informer.addEventHandler(router.jobEvents());
    return informer;
  }

  @Bean
  ScopedInformer<V1Pod> arrangerPodInformer(
      SharedInformerFactory factory,
      KubernetesClients clients,
      ControllerProperties properties,
      WatchScope scope,
      JobEventRouter router) {
    CoreV1Api core = new CoreV1Api(clients.informers());
    // Only pods carrying the job-name label: the controller has no business with any other pod.
    ScopedInformer<V1Pod> informer =
        ScopedInformer.create(
            scope,
            factory,
            clients.informers(),
            (namespaceFactory, namespace) ->
                namespaceFactory.sharedIndexInformerFor(
                    podsLabelled(core, namespace, PodLabels.JOB_NAME),
                    V1Pod.class,
                    properties.resyncPeriod().toMillis(),
                    (type, error) ->
                        log.warn(
                            "pod informer: list/watch failed, retrying: {}", error.toString())));
    InformerCache.indexPodsByJob(informer);
    informer.addEventHandler(router.podEvents());
    return informer;
  }

  /**
   * Nodes, cluster-wide, for their readiness only: a job being rescheduled whose pods sit on a node
   * that is not Ready has them force-deleted after a grace.
   */
  @Bean
  NodeReadiness nodeReadiness(
      SharedInformerFactory factory,
      KubernetesClients clients,
      ControllerProperties properties,
      JobEventRouter router,
      InformerCache cache) {
    SharedIndexInformer<V1Node> informer =
        factory.sharedIndexInformerFor(
            ModelListerWatcher.nodes(clients.informers()),
            V1Node.class,
            properties.resyncPeriod().toMillis(),
            (type, error) ->
                log.warn("node informer: list/watch failed, retrying: {}", error.toString()));
    informer.addEventHandler(router.nodeEvents(cache::jobsOnNode));
    return new NodeReadiness(informer);
  }

  @Bean
  InformerCache informerCache(
      ScopedInformer<DynamicKubernetesObject> tyJobInformer,
      ScopedInformer<V1Pod> arrangerPodInformer) {
    return new InformerCache(tyJobInformer, arrangerPodInformer);
  }

  @Bean
  InformerFactoryLifecycle informerLifecycle(SharedInformerFactory factory) {
    return new InformerFactoryLifecycle(factory);
  }

  /** The per-namespace factories of the namespaced mode (none when all namespaces are watched). */
  @Bean
  InformerFactoryLifecycle namespacedInformerLifecycle(
      ScopedInformer<DynamicKubernetesObject> tyJobInformer,
      ScopedInformer<V1Pod> arrangerPodInformer) {
    List<SharedInformerFactory> factories = new ArrayList<>(tyJobInformer.factories());
    factories.addAll(arrangerPodInformer.factories());
    return new InformerFactoryLifecycle(factories);
  }

  @Bean
  InformersSynced informersSynced(InformerCache cache) {
    return new InformersSynced(cache);
  }

  @Bean
  InformersHealthIndicator informersHealthIndicator(InformerCache cache) {
    return new InformersHealthIndicator(cache);
  }

  @Bean
  ControllerMetrics controllerMetrics(MeterRegistry registry, InformerCache cache) {
    ControllerMetrics metrics = new ControllerMetrics(registry);
    metrics.observeJobsByStage(cache::jobsByStage);
    cache
        .cachedObjects()
        .forEach((resource, cached) -> InformerObjects.register(registry, resource, cached));
    return metrics;
  }

  @Bean
  JobEvents jobEvents(EventRecorder eventRecorder) {
    return new JobEvents(eventRecorder);
  }

  @Bean
  ForeignPods foreignPods(KubernetesClients clients) {
    return new ForeignPods(new CoreV1Api(clients.requests()));
  }

  @Bean(destroyMethod = "shutdownNow")
  ExecutorService podCreators(ControllerProperties properties) {
    return DaemonThreads.fixedPool("pod-creator", properties.podCreators());
  }

  @Bean
  PodExpectations podExpectations(Clock controllerClock) {
    return new PodExpectations(PodExpectations.DEFAULT_TIME_TO_LIVE, controllerClock);
  }

  /**
   * Lists and watches the pods matching {@code selector}, in {@code namespace} or, empty, in all.
   */
  private static ModelListerWatcher<V1Pod, V1PodList> podsLabelled(
      CoreV1Api core, String namespace, String selector) {
    return new ModelListerWatcher<>(
        params ->
            namespace.isEmpty()
                ? core.listPodForAllNamespaces()
                    .labelSelector(selector)
                    .resourceVersion(params.resourceVersion)
                    .watch(params.watch)
                    .timeoutSeconds(params.timeoutSeconds)
                    .buildCall(null)
                : core.listNamespacedPod(namespace)
                    .labelSelector(selector)
                    .resourceVersion(params.resourceVersion)
                    .watch(params.watch)
                    .timeoutSeconds(params.timeoutSeconds)
                    .buildCall(null),
        V1Pod.class,
        V1PodList.class);
  }

  /** An informer and the factory of its own that starts it. */
  record OwnInformer<T extends KubernetesObject>(
      SharedInformerFactory factory, SharedIndexInformer<T> informer) {}

  /**
   * The GPU reservation pods of their namespace; a change brings back the jobs whose shares are
   * seated on the device. A factory of its own: a factory keeps one informer per type, and the
   * jobs' pods have theirs.
   */
  @Bean
  OwnInformer<V1Pod> gpuReservationInformer(
      KubernetesClients clients,
      ControllerProperties properties,
      JobEventRouter router,
      InformerCache cache) {
    CoreV1Api core = new CoreV1Api(clients.informers());
    String namespace = properties.gpuSharing().namespace();
    SharedInformerFactory factory = new SharedInformerFactory(clients.informers());
    SharedIndexInformer<V1Pod> informer =
        factory.sharedIndexInformerFor(
            podsLabelled(core, namespace, GpuShareDevices.RESERVATION_LABEL + "=true"),
            V1Pod.class,
            properties.resyncPeriod().toMillis(),
            (type, error) ->
                log.warn(
                    "GPU reservation informer: list/watch failed, retrying: {}", error.toString()));
    informer.addEventHandler(router.reservationEvents(cache::jobsSeatedOn));
    return new OwnInformer<>(factory, informer);
  }

  @Bean
  InformerFactoryLifecycle gpuReservationInformerLifecycle(
      OwnInformer<V1Pod> gpuReservationInformer) {
    return new InformerFactoryLifecycle(gpuReservationInformer.factory());
  }

  @Bean
  GpuShareReservations gpuShareReservations(
      KubernetesClients clients,
      OwnInformer<V1Pod> gpuReservationInformer,
      InformerCache cache,
      LeaderElection leaderElection,
      Clock controllerClock,
      ControllerProperties properties) {
    ControllerProperties.GpuSharing sharing = properties.gpuSharing();
    return new GpuShareReservations(
        new CoreV1Api(clients.requests()),
        gpuReservationInformer.informer().getIndexer(),
        cache,
        leaderElection,
        controllerClock,
        sharing.namespace(),
        sharing.image(),
        sharing.serviceAccount(),
        sharing.unusedGrace(),
        sharing.startPatience());
  }

  /** Deletes unused GPU reservations every half of their grace (at least every 5 s). */
  @Bean(destroyMethod = "shutdownNow")
  ScheduledExecutorService gpuReservationSweeper(
      GpuShareReservations reservations, ControllerProperties properties) {
    ScheduledExecutorService sweeper =
        Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("gpu-reservation-sweeper"));
    long periodMillis = Math.max(5_000, properties.gpuSharing().unusedGrace().toMillis() / 2);
    sweeper.scheduleWithFixedDelay(
        () -> {
          try {
            reservations.deleteUnused();
          } catch (RuntimeException e) {
            log.error(
                "sweeping unused GPU reservations failed; trying again in {} ms", periodMillis, e);
          }
        },
        periodMillis,
        periodMillis,
        TimeUnit.MILLISECONDS);
    return sweeper;
  }

  @Bean
  PlanExecutor planExecutor(
      KubernetesClients clients,
      StatusPatcher statusPatcher,
      JobEvents jobEvents,
      ControllerMetrics metrics,
      LeaderElection leaderElection,
      ForeignPods foreignPods,
      ExecutorService podCreators,
      PodExpectations podExpectations,
      GpuShareReservations gpuShareReservations) {
    return new PlanExecutor(
        new CoreV1Api(clients.requests()),
        statusPatcher,
        new PodFactory(),
        jobEvents,
        metrics,
        leaderElection,
        foreignPods,
        podCreators,
        podExpectations,
        gpuShareReservations);
  }

  @Bean
  TYJobReconciler tyJobReconciler(
      InformerCache cache,
      PlanExecutor executor,
      StatusPatcher statusPatcher,
      ForeignPods foreignPods,
      ControllerMetrics metrics,
      Clock controllerClock,
      ControllerProperties properties,
      NodeReadiness nodeReadiness,
      PodExpectations podExpectations) {
    return new TYJobReconciler(
        cache,
        new JobViewMapper(),
        new PodViewMapper(nodeReadiness::notReady),
        new LifecyclePlanner(properties.lifecycle()),
        executor,
        new VictimEvictor(cache, executor, statusPatcher),
        foreignPods,
        metrics,
        controllerClock,
        properties.statusBatchPeriod(),
        podExpectations);
  }

  @Bean
  LeaderOnlyController leaderOnlyController(
      InformerCache cache,
      JobEventRouter router,
      TYJobReconciler reconciler,
      ControllerProperties properties,
      ControllerMetrics metrics) {
    return new LeaderOnlyController(
        cache,
        router,
        () ->
            new ReconcileWorkers(
                reconciler::reconcile,
                properties.workers(),
                properties.retry().initialDelay(),
                properties.retry().maxDelay(),
                properties.statusBatchPeriod(),
                metrics));
  }
}
