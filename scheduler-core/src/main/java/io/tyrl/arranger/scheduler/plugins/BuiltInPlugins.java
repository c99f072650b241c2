package io.tyrl.arranger.scheduler.plugins;

import io.tyrl.arranger.scheduler.framework.PluginDescriptor;
import io.tyrl.arranger.scheduler.framework.Registry;
import io.tyrl.arranger.scheduler.plugins.nodeorder.NodeOrderPlugin;

/** The plugins Arranger ships, in a fresh registry each time (registries are never global). */
public final class BuiltInPlugins {

  private BuiltInPlugins() {}

  public static Registry<PluginDescriptor> registry() {
    return Registry.plugins()
        .register(PriorityPlugin.descriptor())
        .register(DrfPlugin.descriptor())
        .register(GangPlugin.descriptor())
        .register(ConformancePlugin.descriptor())
        .register(PredicatesPlugin.descriptor())
        .register(ProportionPlugin.descriptor())
        .register(OvercommitPlugin.descriptor())
        .register(NodeOrderPlugin.descriptor());
  }
}
