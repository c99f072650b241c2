package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.ServiceOrder;
import io.tyrl.arranger.scheduler.api.Snapshot;
import io.tyrl.arranger.scheduler.conf.ActionConfiguration;
import io.tyrl.arranger.scheduler.conf.InvalidConfigurationException;
import io.tyrl.arranger.scheduler.conf.PluginConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.TierConfiguration;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The entry point of the pure core: snapshot → session → plugins open → actions in order →
 * decisions. An action's prerequisites (the resumption of jobs waiting for victims, for the actions
 * that place pods) run once per cycle, just before the first action that names them, and count in
 * its time. Stateless between cycles; everything a cycle needs comes in the snapshot and the
 * configuration.
 */
public final class Scheduler {

  private final Registry<PluginDescriptor> plugins;
  private final Registry<ActionDescriptor> actions;
  private final CycleListener listener;

  public Scheduler(
      Registry<PluginDescriptor> plugins,
      Registry<ActionDescriptor> actions,
      CycleListener listener) {
    this.plugins = plugins;
    this.actions = actions;
    this.listener = listener == null ? CycleListener.NONE : listener;
  }

  public SchedulerVocabulary vocabulary() {
    return new SchedulerVocabulary(plugins, actions);
  }

  public CycleResult runCycle(
      Snapshot snapshot, SchedulerConfiguration configuration, Instant now) {
    long cycleStart = System.nanoTime();
    Session session = openSession(snapshot, configuration, now);
    Set<Class<?>> prerequisitesRun = new HashSet<>();
    for (ActionConfiguration actionConfiguration : configuration.actions()) {
      Action action =
          actions
              .find(actionConfiguration.name())
              .orElseThrow(
                  () ->
                      new InvalidConfigurationException(
                          "unknown action '" + actionConfiguration.name() + "'"))
              .factory()
              .apply(actionConfiguration.arguments());
      long start = System.nanoTime();
      for (Action prerequisite : action.prerequisites()) {
        if (prerequisitesRun.add(prerequisite.getClass())) {
          prerequisite.execute(session);
        }
      }
      action.execute(session);
      listener.actionExecuted(actionConfiguration.name(), System.nanoTime() - start);
    }
    CycleResult result =
        new CycleResult(
            now,
            DecisionDeriver.decisions(session),
            DecisionDeriver.queues(session),
            Duration.ofNanos(System.nanoTime() - cycleStart),
            session.victims(),
            serviceOrder(session));
    listener.cycleCompleted(result, System.nanoTime() - cycleStart);
    return result;
  }

  /**
   * The queues and each queue's jobs in the order the actions walk them, as the session stands at
   * the end of the cycle. One pass groups the jobs by queue and sorts each group ({@link
   * Session#compareJobs}), rather than asking {@link Session#jobsInOrder} queue by queue, which
   * would scan every job once per queue.
   */
  static ServiceOrder serviceOrder(Session session) {
    Map<QueueState, List<JobState>> byQueue = new HashMap<>();
    for (JobState job : session.jobs()) {
      if (job.queue() != null) {
        byQueue.computeIfAbsent(job.queue(), queue -> new ArrayList<>()).add(job);
      }
    }
    List<String> queues = new ArrayList<>();
    Map<String, List<String>> jobs = new LinkedHashMap<>();
    for (QueueState queue : session.queuesInOrder()) {
      queues.add(queue.name());
      List<JobState> ofQueue = byQueue.get(queue);
      if (ofQueue != null) {
        ofQueue.sort(session::compareJobs);
        jobs.put(queue.name(), ofQueue.stream().map(JobState::key).toList());
      }
    }
    return new ServiceOrder(queues, jobs);
  }

  /**
   * Opens a session with the configured plugins registered tier by tier (also used by tests of
   * single plugins).
   */
  public Session openSession(Snapshot snapshot, SchedulerConfiguration configuration, Instant now) {
    Session session = new Session(snapshot, now, configuration.defaultJobQueuePolicy());
    session.useTopologyLevels(configuration.topologyLevels());
    session.useFairness(configuration.fairness());
    for (TierConfiguration tier : configuration.tiers()) {
      session.tiers().nextTier();
      for (PluginConfiguration pluginConfiguration : tier.plugins()) {
        Plugin plugin =
            plugins
                .find(pluginConfiguration.name())
                .orElseThrow(
                    () ->
                        new InvalidConfigurationException(
                            "unknown plugin '" + pluginConfiguration.name() + "'"))
                .factory()
                .apply(pluginConfiguration.arguments());
        long start = System.nanoTime();
        plugin.onSessionOpen(session, session.tiers().hooksFor(pluginConfiguration.name()));
        listener.pluginOpened(pluginConfiguration.name(), System.nanoTime() - start);
      }
    }
    session.finishOpening();
    return session;
  }
}
