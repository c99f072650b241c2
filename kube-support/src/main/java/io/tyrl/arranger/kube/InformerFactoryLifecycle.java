package io.tyrl.arranger.kube;

import io.kubernetes.client.informer.SharedInformerFactory;
import java.util.List;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the service's one {@link SharedInformerFactory} once every informer has been registered
 * (all singletons exist before lifecycle beans start), and stops it on shutdown. Informers run on
 * every replica, leader or standby, so that a new leader works from a warm cache at once.
 */
public final class InformerFactoryLifecycle implements SmartLifecycle {

  private final List<SharedInformerFactory> factories;
  private volatile boolean running;

  public InformerFactoryLifecycle(SharedInformerFactory factory) {
    this(List.of(factory));
  }

  /** Several factories, e.g. the per-namespace ones of a {@link ScopedInformer}. */
  public InformerFactoryLifecycle(List<SharedInformerFactory> factories) {
    this.factories = List.copyOf(factories);
  }

  @Override
  public void start() {
    factories.forEach(SharedInformerFactory::startAllRegisteredInformers);
    running = true;
  }

  @Override
  public void stop() {
    factories.forEach(factory -> factory.stopAllRegisteredInformers(true));
    running = false;
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /**
   * Before the leader election (default phase), so that a new leader never works from an empty
   * cache.
   */
  @Override
  public int getPhase() {
    return SmartLifecycle.DEFAULT_PHASE - 1;
  }
}
