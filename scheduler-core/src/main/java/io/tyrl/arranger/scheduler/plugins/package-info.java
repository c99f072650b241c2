/**
 * The built-in plugins: each registers functions (job order, predicates, node scores, victim
 * filters, queue shares, gang readiness) in the session's tiers through {@code PluginHooks}; the
 * configuration chooses which run and in which tier.
 *
 * <p>Start at {@code BuiltInPlugins} for the list, then the plugin that registers the rule you are
 * changing.
 */
package io.tyrl.arranger.scheduler.plugins;
