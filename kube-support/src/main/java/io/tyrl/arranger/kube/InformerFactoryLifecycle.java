package io.tyrl.arranger.kube;

import io.kubernetes.client.informer.SharedInformerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the service's one {@link SharedInformerFactory} once every informer has been registered
 * (all singletons exist before lifecycle beans start), and stops it on shutdown. Informers run on
 * every replica, leader or standby, so that a new leader works from a warm cache at once.
 */
public final class InformerFactoryLifecycle implements SmartLifecycle {

  private final SharedInformerFactory factory;
  private volatile boolean running;

  public InformerFactoryLifecycle(SharedInformerFactory factory) {
    this.factory = factory;
  }

  @Override
  public void start() {
    factory.startAllRegisteredInformers();
    running = true;
  }

  @Override
  public void stop() {
    factory.stopAllRegisteredInformers(true);
    running = false;
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** Before the leader election (default phase), so that a new leader never works from an empty cache. */
  @Override
  public int getPhase() {
    return SmartLifecycle.DEFAULT_PHASE - 1;
  }
}
